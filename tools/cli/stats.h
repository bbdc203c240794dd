/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the statistical tests of 'fairdie certify' on final
 * outcomes: the tests of 25 CFR 547.14 and of TAOCP 3.3.2 on a stream of
 * rolls of a die, the position test of shuffled decks, a spectral test
 * on bits, and the second-level test that p-values are uniform.
 *
 * Every test reads its stream one outcome at a time (a capture is never
 * held in memory) into a fixed-size state, and gives its p-values at the
 * end. Each p-value's method, exact or approximate, is said where it is
 * computed and in Documentation/admin-guide/certification.rst. Pure
 * computation: no input or output here.
 */
#ifndef _FAIRDIE_CLI_STATS_H
#define _FAIRDIE_CLI_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "fd_shim.h"

/* The largest die the stream tests take (its faces fit in a byte). */
#define FDC_STATS_MAX_SIDES	256
/* Gap lengths counted one by one; longer ones share the last cell. */
#define FDC_STATS_MAX_GAP	256
/* Coupon-collector segment lengths counted one by one. */
#define FDC_STATS_MAX_COUPON	128
/* Bits the spectral test transforms at most (a power of two). */
#define FDC_STATS_DFT_BITS	1048576u	/* 2^20 */
/* The largest deck the position test takes. */
#define FDC_STATS_MAX_DECK	64
/* Cells of the permutation test: orders of up to 5 outcomes. */
#define FDC_STATS_MAX_PERM	5
#define FDC_STATS_PERM_CELLS	120

/**
 * struct fdc_test - one line of the report
 * @name: what was tested, e.g. "chi-square of faces"
 * @target: the data, e.g. "d6" or "decks of 52"
 * @stat: the statistic, NAN when there is none
 * @df: its degrees of freedom, 0 when not a chi-square
 * @p: the p-value, NAN when the test could not run (too little data)
 * @method: how @p was computed, in a few words
 * @overlaps: its statistic shares much with another line's of the same
 *	data (their p-values are correlated), so it stays out of the
 *	second-level test, which needs independent p-values
 */
struct fdc_test {
	char name[64];
	char target[32];
	double stat;
	unsigned int df;
	double p;
	char method[128];
	bool overlaps;
};

/**
 * struct fdc_die_stats - the state of the tests on one die's outcomes
 * @sides: faces 0..sides-1
 * @n: outcomes seen
 * @counts: outcomes of each face
 * @pairs: non-overlapping pairs (sides <= 100), sides * sides cells
 * @pair_first: the first of the pair being read, or -1
 * @runs: runs of low (< sides/2) and high outcomes (even sides)
 * @low: low outcomes (even sides)
 * @last_low: whether the last outcome was low
 * @gaps: gap lengths between low outcomes, the last cell "or longer"
 * @gap: the length of the gap being read, or -1 before the first low
 * @poker: groups of five with 1..5 distinct faces (index 1..5)
 * @hand: the faces seen in the group being read, as a bit mask
 * @hand_len: outcomes in it
 * @coupons: segment lengths that saw every face, the last "or longer"
 * @coupon_seen: faces seen in the segment being read
 * @coupon_len: its length so far
 * @perm: for each group size t = 3, 4, 5: counts of the t! orders of t
 *	distinct outcomes
 * @perm_ties: groups left out for a tie
 * @perm_buf: the group being read, for each t
 * @perm_len: its length
 * @sx: sum of outcomes, for the serial correlation
 * @sxx: sum of squares
 * @sxy: sum of products of each outcome and the next
 * @first: the first outcome
 * @prev: the last outcome
 * @bits: the first outcomes of a d2 as +-1 (the spectral test), or NULL
 * @nbits: bits held
 */
struct fdc_die_stats {
	unsigned int sides;
	u64 n;
	u64 counts[FDC_STATS_MAX_SIDES];
	u64 *pairs;
	int pair_first;
	u64 runs;
	u64 low;
	bool last_low;
	u64 gaps[FDC_STATS_MAX_GAP + 1];
	long gap;
	u64 poker[6];
	u64 hand[4];
	unsigned int hand_len;
	u64 coupons[FDC_STATS_MAX_COUPON + 1];
	u64 coupon_seen[4];
	unsigned int coupon_len;
	u64 perm[3][FDC_STATS_PERM_CELLS];
	u64 perm_ties[3];
	unsigned int perm_buf[3][FDC_STATS_MAX_PERM];
	unsigned int perm_len[3];
	double sx, sxx, sxy;
	unsigned int first, prev;
	signed char *bits;
	size_t nbits;
};

int fdc_die_stats_init(struct fdc_die_stats *s, unsigned int sides);
void fdc_die_stats_add(struct fdc_die_stats *s, unsigned int face);
size_t fdc_die_stats_results(struct fdc_die_stats *s, struct fdc_test *out,
			     size_t max);
void fdc_die_stats_free(struct fdc_die_stats *s);

/**
 * struct fdc_deck_stats - the position test of shuffled decks
 * @cards: cards in a deck
 * @decks: decks seen
 * @bad: decks that were not a permutation of 0..cards-1
 * @counts: how often card c was at position i, counts[i][c]
 */
struct fdc_deck_stats {
	unsigned int cards;
	u64 decks;
	u64 bad;
	u64 counts[FDC_STATS_MAX_DECK][FDC_STATS_MAX_DECK];
};

int fdc_deck_stats_init(struct fdc_deck_stats *s, unsigned int cards);
void fdc_deck_stats_add(struct fdc_deck_stats *s, const u8 *deck);
size_t fdc_deck_stats_results(const struct fdc_deck_stats *s,
			      struct fdc_test *out, size_t max);

/**
 * struct fdc_ent - what 'ent -t' printed about a file
 * @bytes: the file's bytes
 * @entropy: bits per byte
 * @chi: Pearson's statistic of the 256 byte values
 * @mean: the bytes' mean
 * @pi: the Monte Carlo value of pi
 * @scc: the serial correlation coefficient of the bytes
 */
struct fdc_ent {
	double bytes, entropy, chi, mean, pi, scc;
};

int fdc_ent_parse(const char *line, struct fdc_ent *e);
size_t fdc_ent_results(const struct fdc_ent *e, const char *target,
		       struct fdc_test *out, size_t max);
void fdc_fips_result(unsigned long long ok, unsigned long long bad,
		     const char *target, struct fdc_test *t);

long fdc_dieharder_samples(long long bytes);

/* rngtest's false alarms per 20000-bit block: at most this (certification.rst). */
#define FDC_FIPS_RATE	0.001

/* The p-values, each documented where it is defined (stats.c). */
double fdc_chi2_sf(double x, unsigned int df);
double fdc_normal_2sided(double z);
double fdc_kolmogorov_sf(double d, size_t n);
double fdc_ks_uniform(const double *p, size_t n, double *d);
double fdc_binom_sf(u64 k, u64 n, double q);
double fdc_spectral(const signed char *x, size_t n, double *d);
double fdc_runs_p(u64 n, u64 ones, u64 runs, double *z);

/* Exact cell probabilities, also checked by the tests. */
double fdc_poker_prob(unsigned int sides, unsigned int hand,
		      unsigned int distinct);
double fdc_coupon_prob(unsigned int sides, unsigned int len,
		       unsigned int last);

#endif /* _FAIRDIE_CLI_STATS_H */
