/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the binary format of a roll.
 *
 * A roll of a die with @sides faces is an unsigned integer in [0, sides - 1]
 * in native byte order, in the smallest of 1, 2, 4 or 8 bytes that holds
 * sides - 1 (Documentation/userspace-api/fairdie.rst). The module writes
 * rolls; the tools, the benchmarks and the selftests read them. This is
 * the one definition of the format for all of them: it needs only the
 * integer types of <linux/types.h> and memcpy(), so it builds in the kernel
 * and in 32-bit userspace alike (unlike fd_shim.h, which needs 128-bit
 * arithmetic).
 */
#ifndef _FAIRDIE_ROLL_H
#define _FAIRDIE_ROLL_H

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/string.h>
#else
#include <string.h>
#endif

/**
 * fd_roll_width() - bytes per roll in the binary format
 * @sides: number of faces, at least 1
 *
 * Return: 1, 2, 4 or 8, the smallest that holds @sides - 1.
 */
static inline __u32 fd_roll_width(__u64 sides)
{
	__u64 max = sides - 1;

	if (max <= 0xff)
		return 1;
	if (max <= 0xffff)
		return 2;
	if (max <= 0xffffffffULL)
		return 4;
	return 8;
}

/**
 * fd_put_roll() - store a roll in the binary format, native byte order
 * @dst: where it goes, @width bytes, any alignment
 * @v: the roll
 * @width: fd_roll_width() of its die
 */
static inline void fd_put_roll(__u8 *dst, __u64 v, __u32 width)
{
	__u8 v8 = v;
	__u16 v16 = v;
	__u32 v32 = v;

	switch (width) {
	case 1:
		memcpy(dst, &v8, 1);
		break;
	case 2:
		memcpy(dst, &v16, 2);
		break;
	case 4:
		memcpy(dst, &v32, 4);
		break;
	default:
		memcpy(dst, &v, 8);
		break;
	}
}

/**
 * fd_get_roll() - the roll stored at @src, the inverse of fd_put_roll()
 * @src: the roll, @width bytes, any alignment
 * @width: fd_roll_width() of its die
 *
 * Return: the roll.
 */
static inline __u64 fd_get_roll(const __u8 *src, __u32 width)
{
	__u8 v8;
	__u16 v16;
	__u32 v32;
	__u64 v64;

	switch (width) {
	case 1:
		memcpy(&v8, src, 1);
		return v8;
	case 2:
		memcpy(&v16, src, 2);
		return v16;
	case 4:
		memcpy(&v32, src, 4);
		return v32;
	default:
		memcpy(&v64, src, 8);
		return v64;
	}
}

#endif /* _FAIRDIE_ROLL_H */
