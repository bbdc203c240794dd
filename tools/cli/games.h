/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - games on the engine: shuffling, sampling, craps,
 * roulette.
 */
#ifndef _FAIRDIE_CLI_GAMES_H
#define _FAIRDIE_CLI_GAMES_H

#include <stdio.h>

#include "engine.h"

/* P(win) at craps is 244/495 (TAOCP 3.6 exercise 3). */
#define FDC_CRAPS_WIN_NUM	244
#define FDC_CRAPS_WIN_DEN	495
/* The entropy of a throw's total: log2(36) - (sum of w_t log2 w_t) / 36. */
#define FDC_CRAPS_ENTROPY	3.2744019192887706

/* Pockets of the European wheel: 0 to 36. */
#define FDC_ROULETTE_POCKETS	37

enum fdc_colour {
	FDC_GREEN,
	FDC_RED,
	FDC_BLACK,
};

double fdc_log2_factorial(u64 n);
int fdc_shuffle(struct fdc_engine *e, u64 *items, u64 n, u64 k);
int fdc_sample(struct fdc_engine *e, u64 n, u64 k, u64 *out);
int fdc_reservoir_start(struct fdc_engine *e, u64 m, u64 k, u64 *out);
int fdc_reservoir_slot(struct fdc_engine *e, u64 seen, u64 k, u64 *slot);
double fdc_log2_falling(u64 n, u64 k);
int fdc_craps_game(struct fdc_engine *e, bool *win, u64 *throws,
		   FILE *trace);
int fdc_craps_outcome(const unsigned int *throws, size_t n, size_t *used);
enum fdc_colour fdc_roulette_colour(unsigned int pocket);
const char *fdc_colour_name(enum fdc_colour colour);

#endif /* _FAIRDIE_CLI_GAMES_H */
