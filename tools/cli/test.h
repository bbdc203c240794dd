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

static inline int fdt_summary(void)
{
	printf("%u passed, %u failed\n", fdt_passed, fdt_failed);
	return fdt_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* _FAIRDIE_CLI_TEST_H */
