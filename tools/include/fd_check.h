/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - counted checks for the userspace test programs.
 *
 * Every CHECK() counts as one passed or one failed check and evaluates to
 * its outcome; the first FD_CHECK_REPORTS failures are printed with their
 * place and a message, as lines starting with "# FAIL". A test program
 * prints its notes with NOTE() (lines starting with "# ") and ends with
 *
 *	return fd_check_summary();
 *
 * which prints exactly one plain last line "N passed, N failed" and gives
 * the exit status: EXIT_SUCCESS only when nothing failed (and something
 * was checked, so that a program that checks nothing cannot pass).
 *
 * One test program is one translation unit: the counters are static here.
 */
#ifndef _FAIRDIE_CHECK_H
#define _FAIRDIE_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fd_attr.h"

/* Failures printed in full; the rest are only counted. */
#define FD_CHECK_REPORTS	40

static unsigned long fd_check_passed, fd_check_failed;

static __printf(4, 5) __maybe_unused bool
fd_check(bool ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		fd_check_passed++;
		return true;
	}
	if (++fd_check_failed <= FD_CHECK_REPORTS) {
		printf("# FAIL %s:%d: ", file, line);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		printf("\n");
		fflush(stdout);
	}
	return false;
}

/* Count one check; evaluates to its outcome. CHECK(ok, "fmt", args). */
#define CHECK(cond, ...)						\
	fd_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* A note for the reader of the log: one line starting with "# ". */
#define NOTE(...)							\
	do {								\
		printf("# " __VA_ARGS__);				\
		printf("\n");						\
		fflush(stdout);						\
	} while (0)

/* Print "N passed, N failed"; the exit status of the program. */
static __maybe_unused int fd_check_summary(void)
{
	printf("%lu passed, %lu failed\n", fd_check_passed, fd_check_failed);
	fflush(stdout);
	return fd_check_failed || !fd_check_passed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * Send standard error to /dev/null, for the one-line errors a test
 * provokes by the thousand: fd_check_stderr_on(fd_check_stderr_off())
 * brings it back.
 */
static __maybe_unused int fd_check_stderr_off(void)
{
	int saved;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || !freopen("/dev/null", "w", stderr))
		abort();
	return saved;
}

static __maybe_unused void fd_check_stderr_on(int saved)
{
	fflush(stderr);
	if (dup2(saved, STDERR_FILENO) < 0)
		abort();
	close(saved);
	clearerr(stderr);
}

#endif /* _FAIRDIE_CHECK_H */
