/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the few helpers the host-side tests share. Every check is
 * counted; a test program ends with "N passed, N failed" and exits non-zero
 * when anything failed.
 */
#ifndef _FAIRDIE_CLI_TEST_H
#define _FAIRDIE_CLI_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned int fdt_passed, fdt_failed;

#define FDT_CHECK(cond, fmt, ...)					\
	do {								\
		if (cond) {						\
			fdt_passed++;					\
		} else {						\
			fdt_failed++;					\
			printf("FAIL %s:%d: " fmt "\n", __FILE__,	\
			       __LINE__, ##__VA_ARGS__);		\
		}							\
	} while (0)

/*
 * Send standard error to /dev/null, for the one-line errors a test
 * provokes by the thousand, and back.
 */
static inline int fdt_stderr_off(void)
{
	int saved;

	fflush(stderr);
	saved = dup(STDERR_FILENO);
	if (saved < 0 || !freopen("/dev/null", "w", stderr))
		abort();
	return saved;
}

static inline void fdt_stderr_on(int saved)
{
	fflush(stderr);
	if (dup2(saved, STDERR_FILENO) < 0)
		abort();
	close(saved);
	clearerr(stderr);
}

static inline int fdt_summary(void)
{
	printf("%u passed, %u failed\n", fdt_passed, fdt_failed);
	return fdt_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* _FAIRDIE_CLI_TEST_H */
