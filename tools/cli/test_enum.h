/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the exhaustive check of test_engine and test_games.
 *
 * Every string of @depth fair bits is fed to a run (of the engine, of a
 * shuffle); @hist[r][u] counts the strings whose run finished with
 * outcome r after using u of the bits. A run that used u bits stands for
 * the 2^(depth - u) strings that start with them, so each count at u must
 * be a multiple of that; and at every depth d the strings of d bits that
 * finish within them must give every outcome equally often: the counts
 * cumulated up to d must be equal.
 */
#ifndef _FAIRDIE_CLI_TEST_ENUM_H
#define _FAIRDIE_CLI_TEST_ENUM_H

#include <stdlib.h>

#include "fd_shim.h"

#define FDT_MAX_DEPTH	22

/**
 * fdt_enum_check() - the counts of an exhaustive run, checked
 * @hist: per outcome, per bits used, the strings that finished so
 * @nout: how many outcomes
 * @depth: the length of the strings
 * @bad_run: incremented by each count that is not a multiple it must be
 * @bad_depths: set to the number of depths with unequal cumulated counts
 *
 * Return: how often each outcome came in all (0 when none did, or when
 * out of memory).
 */
static inline u64 fdt_enum_check(u64 (*hist)[FDT_MAX_DEPTH + 1], u64 nout,
				 unsigned int depth, u64 *bad_run,
				 unsigned int *bad_depths)
{
	u64 *cum = calloc(nout, sizeof(*cum)), r, each;
	unsigned int d;

	*bad_depths = 0;
	if (!cum)
		return 0;
	for (d = 0; d <= depth; d++) {
		bool equal = true;

		for (r = 0; r < nout; r++) {
			*bad_run += hist[r][d] % (1ULL << (depth - d)) != 0;
			cum[r] += hist[r][d];
			equal &= cum[r] == cum[0];
		}
		*bad_depths += !equal;
	}
	each = cum[0];
	free(cum);
	return each;
}

#endif /* _FAIRDIE_CLI_TEST_ENUM_H */
