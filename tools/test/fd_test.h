/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - what the userspace tests of the shared algorithms have in
 * common: counted checks and a private pseudo-random generator.
 *
 * Every CHECK() counts as one passed or one failed check; the first few
 * failures are printed with their place and a message. A test program
 * prints its notes as lines starting with "# " and ends with exactly one
 * line "N passed, N failed", exiting non-zero when anything failed.
 */
#ifndef _FAIRDIE_TEST_H
#define _FAIRDIE_TEST_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fd_shim.h"

#define FD_TEST_REPORTS	40

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif
#ifndef __maybe_unused
#define __maybe_unused	__attribute__((unused))
#endif

static unsigned long fd_test_passed, fd_test_failed;

static __printf(4, 5) __maybe_unused bool
fd_test_check(bool ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		fd_test_passed++;
		return true;
	}
	if (++fd_test_failed <= FD_TEST_REPORTS) {
		printf("# FAIL %s:%d: ", file, line);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		fflush(stdout);
	}
	return false;
}

/* Count one check; evaluates to its outcome. */
#define CHECK(cond, ...)						\
	fd_test_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* A note for the reader of the log. */
#define NOTE(...)							\
	do {								\
		printf("# " __VA_ARGS__);				\
		printf("\n");						\
		fflush(stdout);						\
	} while (0)

static __maybe_unused int fd_test_summary(void)
{
	printf("%lu passed, %lu failed\n", fd_test_passed, fd_test_failed);
	return fd_test_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

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
