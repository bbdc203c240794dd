/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - what the userspace tests of the shared algorithms have in
 * common: the counted checks of tools/include/fd_check.h (CHECK(), NOTE(),
 * fd_check_summary()), a CPU clock and a private pseudo-random generator.
 */
#ifndef _FAIRDIE_TEST_H
#define _FAIRDIE_TEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fd_shim.h"

#include "fd_check.h"

/*
 * CPU seconds used so far, for the timing notes: unlike wall time it does
 * not depend on what else the machine is doing.
 */
static __maybe_unused double fd_test_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * The tests' own generator (a 64-bit xorshift-multiply), kept apart from
 * fd_sim so that a fault there cannot hide itself.
 */
static __maybe_unused u64 fd_test_rand(u64 *state)
{
	u64 x = *state += 0x6a09e667f3bcc909ULL;

	x = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
	x = (x ^ (x >> 32)) * 0xd6e8feb86659fd93ULL;
	return x ^ (x >> 32);
}

/* A uniform value in [0, @n), @n >= 1 (the tiny bias does not matter here). */
static __maybe_unused u64 fd_test_below(u64 *state, u64 n)
{
	return (u64)(((fd_u128)fd_test_rand(state) * n) >> 64);
}

/* A uniform value in [0, @m), @m >= 1, for 128-bit ranges. */
static __maybe_unused fd_u128 fd_test_below128(u64 *state, fd_u128 m)
{
	fd_u128 x = ((fd_u128)fd_test_rand(state) << 64) | fd_test_rand(state);

	return x % m;
}

#endif /* _FAIRDIE_TEST_H */
