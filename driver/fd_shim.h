/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the few primitives the shared algorithm files need.
 *
 * The extractors, the sampler and the health tests include only this
 * header, so that the very same files build into the module and into the
 * userspace tests and benchmarks under tools/. Nothing in them allocates,
 * locks or sleeps: the caller owns all state.
 */
#ifndef _FAIRDIE_SHIM_H
#define _FAIRDIE_SHIM_H

#ifdef __KERNEL__

#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>

#define FD_WARN_ON(cond)	WARN_ON_ONCE(cond)

#else /* userspace */

#include <assert.h>
#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

#ifndef BIT_ULL
#define BIT_ULL(n)	(1ULL << (n))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* Like the kernel's WARN_ON_ONCE(): evaluates to the condition. */
#define FD_WARN_ON(cond)	({ bool __c = !!(cond); assert(!__c); __c; })

/* Index of the most significant set bit, 1-based; 0 for 0. */
static inline unsigned int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

static inline unsigned int hweight64(u64 x)
{
	return __builtin_popcountll(x);
}

#endif /* __KERNEL__ */

#ifndef __SIZEOF_INT128__
#error "fairdie needs a 64-bit compiler with unsigned __int128"
#endif

/* 128-bit arithmetic; a macro, as kernel style wants no new typedefs. */
#define fd_u128 unsigned __int128

/* The @n low bits of a word (n <= 64). */
static inline u64 fd_low_bits(u64 x, unsigned int n)
{
	return n >= 64 ? x : x & ((1ULL << n) - 1);
}

/*
 * Quotient of a 128-bit number by a 64-bit one, and the remainder. Written
 * out because the kernel does not link the compiler's __udivti3.
 */
static inline fd_u128 fd_div128(fd_u128 a, u64 d, u64 *rem)
{
	u64 hi = a >> 64, lo = (u64)a;
	u64 qhi = hi / d, r = hi % d, qlo;

#if defined(__x86_64__) && !defined(FD_GENERIC_DIV128)
	/* r < d, so the quotient of r:lo by d fits in 64 bits. */
	asm("divq %4" : "=a" (qlo), "=d" (r) : "a" (lo), "d" (r), "rm" (d));
#else
	unsigned int i;

	qlo = 0;
	for (i = 0; i < 64; i++) {
		bool carry = r >> 63;

		r = (r << 1) | (lo >> 63);
		lo <<= 1;
		qlo <<= 1;
		if (carry || r >= d) {
			r -= d;
			qlo |= 1;
		}
	}
#endif
	*rem = r;
	return ((fd_u128)qhi << 64) | qlo;
}

#endif /* _FAIRDIE_SHIM_H */
