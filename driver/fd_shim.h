/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the few primitives the shared algorithm files need.
 *
 * The extractors, the sampler and the health tests include only this
 * header, so that the very same files build into the module and into the
 * userspace tests and benchmarks under tools/. Nothing in them allocates,
 * locks or sleeps: the caller owns all state.
 *
 * On the kernel side it also gives the module the newest names of the few
 * kernel APIs that were renamed between the releases it builds on (6.1 to
 * the newest), so that the driver uses one spelling.
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
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/version.h>
#ifdef CONFIG_X86_64
#include <asm/cpufeature.h>
#include <asm/processor.h>
#endif

#define FD_WARN_ON(cond)	WARN_ON_ONCE(cond)

/* timer_container_of() is from_timer() renamed (6.16, which drops the old name). */
#ifndef timer_container_of
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * timer_delete_sync() is del_timer_sync() renamed (6.2; 6.15 drops the old
 * name). A 6.1 stable release has it only from 6.1.84 on; del_timer_sync()
 * is in every 6.1. timer_shutdown_sync() (6.2) also stops a timer for good,
 * so that a later mod_timer() on it does nothing; 6.1 has no such state, and
 * there the caller alone makes sure that nothing re-arms it.
 */
#if KERNEL_VERSION(6, 2, 0) > LINUX_VERSION_CODE
#define timer_delete_sync(timer)	del_timer_sync(timer)
#define timer_shutdown_sync(timer)	del_timer_sync(timer)
#endif

/*
 * Whether PEXT is there and fast: AMD and Hygon before family 0x19 (Zen 3)
 * run it in microcode, tens to hundreds of cycles.
 */
static inline bool fd_fast_pext(void)
{
#ifdef CONFIG_X86_64
	return boot_cpu_has(X86_FEATURE_BMI2) &&
	       ((boot_cpu_data.x86_vendor != X86_VENDOR_AMD &&
		 boot_cpu_data.x86_vendor != X86_VENDOR_HYGON) ||
		boot_cpu_data.x86 >= 0x19);
#else
	return false;
#endif
}

#else /* userspace */

#include <assert.h>
#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/cdefs.h>	/* __always_inline, as in the kernel */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif

/* The kernel's noinline, from <sys/cdefs.h>. */
#ifndef noinline
#define noinline	__attribute_noinline__
#endif

#ifndef BIT_ULL
#define BIT_ULL(n)	(1ULL << (n))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* A flag written under a lock and read without it, as in the kernel. */
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif

/* The kernel's memzero_explicit(): a wipe the compiler keeps. */
static inline void memzero_explicit(void *s, size_t n)
{
	memset(s, 0, n);
	__asm__ __volatile__("" : : "r"(s) : "memory");
}

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

#ifdef __x86_64__
#include <cpuid.h>
#endif

/*
 * Whether fd_fast_pext() says yes: -1 until first asked; tests set it to 0
 * or 1 to take either path. Defined in fd_peres.c, its only user.
 */
extern int fd_shim_pext;

/* As in the kernel: PEXT there and not microcoded (AMD before Zen 3). */
static inline bool fd_fast_pext(void)
{
	if (unlikely(fd_shim_pext < 0)) {
		unsigned int a = 0, b = 0, c = 0, d = 0, fam, amd;

		fd_shim_pext = 0;
#ifdef __x86_64__
		if (__get_cpuid_max(0, NULL) < 7)
			return false;
		__cpuid(0, a, b, c, d);
		/* "AuthenticAMD" and "HygonGenuine" */
		amd = b == 0x68747541 || b == 0x6f677948;
		__cpuid(1, a, b, c, d);
		fam = (a >> 8) & 0xf;
		if (fam == 0xf)
			fam += (a >> 20) & 0xff;
		__cpuid_count(7, 0, a, b, c, d);
		fd_shim_pext = (b >> 8) & 1 && (!amd || fam >= 0x19);
#endif
	}
	return fd_shim_pext;
}

#endif /* __KERNEL__ */

/*
 * fd_ct_public() - declare @x public in the constant-time check
 * @x: an lvalue computed from raw bits, which the code is about to branch
 *	on or to use in an address
 *
 * The extractors and the health tests touch raw and fair bits with
 * neither branches nor addresses that depend on them, except for a few
 * values that are public by design (Documentation/design/fairdie.rst,
 * "Constant time"): each is named by this macro where it is computed.
 * It does nothing, except in the build of tools/ctcheck (FD_CTCHECK),
 * where valgrind's memcheck follows the raw bits as undefined values and
 * this marks @x as defined.
 */
#ifdef FD_CTCHECK
#include <valgrind/memcheck.h>
#define fd_ct_public(x)	VALGRIND_MAKE_MEM_DEFINED(&(x), sizeof(x))
#else
#define fd_ct_public(x)	do { } while (0)
#endif

/* Parallel bit extract: the bits of @x under @mask, packed at the bottom. */
static inline u64 fd_pext(u64 x, u64 mask)
{
#ifdef __x86_64__
	u64 r;

	asm("pextq %2, %1, %0" : "=r" (r) : "r" (x), "rm" (mask));
	return r;
#else
	u64 r = 0, bit = 1;

	for (; mask; mask &= mask - 1, bit <<= 1)
		if (x & mask & -mask)
			r |= bit;
	return r;
#endif
}

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
