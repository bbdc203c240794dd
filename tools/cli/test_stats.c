// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the tests of 'fairdie certify' proven: p-values against
 * independently computed values, exact cell probabilities against their
 * sums and closed forms, fair streams that pass and planted defects (a
 * biased coin, modulo reduction, repeated outcomes, a naive shuffle, a
 * periodic bit stream) that each fail. Streams are seeded: the outcome of
 * every check is fixed.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_check.h"
#include "stats.h"

static u64 fdt_state;

static u64 fdt_next(void)
{
	u64 z = (fdt_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* An exactly uniform value of 0..n-1 (rejection). */
static unsigned int fdt_uniform(unsigned int n)
{
	u64 lim = -(u64)n % n, x;

	do
		x = fdt_next();
	while (x < lim);
	return x % n;
}

/*
 * Upper regularized incomplete gamma Q(df/2, x/2), computed by Legendre's
 * continued fraction and the series (Python, not the closed form used by
 * the tool); the first three are the classic table's critical values.
 */
static const struct {
	double x;
	unsigned int df;
	double p;
} fdt_chi2_ref[] = {
	{ 3.841458820694124, 1, 0.050000000000000086 },
	{ 23.209251158954356, 10, 0.010000000000000016 },
	{ 11.070497693516351, 5, 0.050000000000000051 },
	{ 0.5, 1, 0.47950012218695359 },
	{ 100, 80, 0.064570368921131951 },
	{ 2700, 2601, 0.086158716534394414 },
	{ 2500, 2601, 0.92067445421637972 },
	{ 150, 99, 0.00072044539571694945 },
	{ 300, 255, 0.027727522053902744 },
	{ 10000.0, 9999, 0.49529839453803293 },
	{ 50, 3, (7.9891792449514924 / 1e11) },
};

static void fdt_pvalues(void)
{
	double d, p, v[5];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fdt_chi2_ref); i++) {
		p = fdc_chi2_sf(fdt_chi2_ref[i].x, fdt_chi2_ref[i].df);
		CHECK(fabs(p - fdt_chi2_ref[i].p) <= (1 / 1e9) * fdt_chi2_ref[i].p,
		      "chi2_sf(%g, %u) = %.17g, want %.17g", fdt_chi2_ref[i].x,
		      fdt_chi2_ref[i].df, p, fdt_chi2_ref[i].p);
	}
	CHECK(fabs(fdc_normal_2sided(1.959963984540054) - 0.05) < (1 / 1e12),
	      "normal 1.96: %.17g", fdc_normal_2sided(1.959963984540054));
	/* Kolmogorov's law: 1.3581 and 1.6276 are its 5% and 1% points. */
	d = fdc_kolmogorov_sf((1.3581 / 1e6), 1000000000000ULL);
	CHECK(fabs(d - 0.05) < (2 / 1e4), "Kolmogorov 1.3581: %g", d);
	d = fdc_kolmogorov_sf((1.6276 / 1e6), 1000000000000ULL);
	CHECK(fabs(d - 0.01) < (1 / 1e4), "Kolmogorov 1.6276: %g", d);
	/* Its two series agree where one hands over to the other. */
	CHECK(fabs(fdc_kolmogorov_sf((1.17999 / 1e6), 1000000000000ULL) -
		   fdc_kolmogorov_sf((1.18001 / 1e6), 1000000000000ULL)) < (1 / 1e4),
	      "Kolmogorov continuous at 1.18");
	/* KS of five evenly spread values: D = 0.1, p near 1. */
	for (i = 0; i < 5; i++)
		v[i] = (i + 0.5) / 5;
	p = fdc_ks_uniform(v, 5, &d);
	CHECK(p > 0.99 && fabs(d - 0.1) < (1 / 1e12), "KS of an even spread: D = %g, p = %g",
	      d, p);
	for (i = 0; i < 5; i++)
		v[i] = 0.001 * i;
	p = fdc_ks_uniform(v, 5, &d);
	CHECK(p < 0.01 && fabs(d - 0.996) < (1 / 1e12), "KS of values near 0: D = %g, p = %g",
	      d, p);
	CHECK(fabs(fdc_binom_sf(1, 10, 0.1) - (1 - pow(0.9, 10))) < (1 / 1e14),
	      "binomial P(X >= 1)");
	CHECK(fabs(fdc_binom_sf(3, 5, 0.5) - 0.5) < (1 / 1e14),
	      "binomial P(X >= 3), n 5, q 1/2: %.17g", fdc_binom_sf(3, 5, 0.5));
	CHECK(fdc_binom_sf(0, 5, 0.5) == 1 && fdc_binom_sf(6, 5, 0.5) == 0,
	      "binomial ends");
}

static void fdt_cells(void)
{
	static const unsigned int dice[] = { 2, 6, 37, 100 };
	unsigned int i, r;

	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		double sum = 0;

		for (r = 1; r <= 5; r++)
			sum += fdc_poker_prob(dice[i], 5, r);
		CHECK(fabs(sum - 1) < (1 / 1e12), "poker d%u sums to %.17g",
		      dice[i], sum);
	}
	CHECK(fabs(fdc_poker_prob(6, 5, 5) - 720.0 / 7776) < (1 / 1e15),
	      "poker d6, five different: 720/7776");
	CHECK(fabs(fdc_poker_prob(6, 5, 1) - 6.0 / 7776) < (1 / 1e15),
	      "poker d6, five of a kind: 6/7776");
	for (i = 0; i < 2; i++) {
		double sum = 0;

		for (r = 0; r <= FDC_STATS_MAX_COUPON; r++)
			sum += fdc_coupon_prob(dice[i], r,
					       FDC_STATS_MAX_COUPON);
		CHECK(fabs(sum - 1) < (1 / 1e12), "coupons d%u sum to %.17g",
		      dice[i], sum);
	}
	/* d2: length r has probability 2^(1-r), r >= 2. */
	CHECK(fabs(fdc_coupon_prob(2, 2, 128) - 0.5) < (1 / 1e15) &&
	      fabs(fdc_coupon_prob(2, 5, 128) - 1.0 / 16) < (1 / 1e15),
	      "coupons d2 closed form");
	/* d6, length 6: 6!/6^6. */
	CHECK(fabs(fdc_coupon_prob(6, 6, 128) - 720.0 / 46656) < (1 / 1e15),
	      "coupons d6 length 6");
}

enum fdt_defect {
	FDT_FAIR,
	FDT_COIN51,	/* a d2 from a coin with P(1) = 0.51 */
	FDT_MODULO,	/* a byte reduced modulo the sides */
	FDT_TWICE,	/* each outcome delivered twice */
};

static size_t fdt_die(unsigned int sides, u64 n, enum fdt_defect defect,
		      struct fdc_test *out, size_t max)
{
	struct fdc_die_stats s;
	unsigned int v = 0;
	size_t k;
	u64 i;

	if (!CHECK(!fdc_die_stats_init(&s, sides), "init d%u", sides))
		return 0;
	for (i = 0; i < n; i++) {
		switch (defect) {
		case FDT_FAIR:
			v = fdt_uniform(sides);
			break;
		case FDT_COIN51:
			v = fdt_next() < (u64)(0.51 * 18446744073709551616.0);
			break;
		case FDT_MODULO:
			v = (fdt_next() & 0xff) % sides;
			break;
		case FDT_TWICE:
			if (i % 2 == 0)
				v = fdt_uniform(sides);
			break;
		}
		fdc_die_stats_add(&s, v);
	}
	k = fdc_die_stats_results(&s, out, max);
	fdc_die_stats_free(&s);
	return k;
}

static double fdt_find(const struct fdc_test *t, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(t[i].name, name, strlen(name)))
			return t[i].p;
	CHECK(0, "no test '%s'", name);
	return NAN;
}

static void fdt_streams(void)
{
	static const unsigned int dice[] = { 2, 6, 37, 100 };
	struct fdc_test t[32];
	double all[128];
	size_t n, i, m = 0;
	unsigned int d;
	double ks, dist;

	fdt_state = 1;
	for (d = 0; d < ARRAY_SIZE(dice); d++) {
		n = fdt_die(dice[d], 200000, FDT_FAIR, t, ARRAY_SIZE(t));
		CHECK(n >= 8, "d%u: %zu tests", dice[d], n);
		for (i = 0; i < n; i++) {
			/* Every test ran on a fair stream of 200000. */
			CHECK(!isnan(t[i].p), "d%u %s: no p-value (%s)",
			      dice[d], t[i].name, t[i].method);
			CHECK(t[i].p > (1 / 1e4), "fair d%u %s: p = %g", dice[d],
			      t[i].name, t[i].p);
			if (m < ARRAY_SIZE(all) && !t[i].overlaps)
				all[m++] = t[i].p;
		}
		NOTE("fair d%u: %zu tests", dice[d], n);
	}
	ks = fdc_ks_uniform(all, m, &dist);
	CHECK(ks > 0.001, "KS of %zu p-values of fair streams: p = %g", m, ks);
	NOTE("second level over %zu p-values: D = %.4f, p = %.4f", m, dist, ks);
	/* The planted defects. */
	n = fdt_die(2, 100000, FDT_COIN51, t, ARRAY_SIZE(t));
	CHECK(fdt_find(t, n, "chi-square of faces") < (1 / 1e6),
	      "coin 0.51: faces p = %g", fdt_find(t, n, "chi-square of faces"));
	n = fdt_die(100, 100000, FDT_MODULO, t, ARRAY_SIZE(t));
	CHECK(fdt_find(t, n, "chi-square of faces") < (1 / 1e6),
	      "byte mod 100: faces p = %g",
	      fdt_find(t, n, "chi-square of faces"));
	n = fdt_die(6, 100000, FDT_TWICE, t, ARRAY_SIZE(t));
	CHECK(fdt_find(t, n, "serial pairs") < (1 / 1e6) &&
	      fdt_find(t, n, "runs") < (1 / 1e6) &&
	      fdt_find(t, n, "serial correlation") < (1 / 1e6) &&
	      fdt_find(t, n, "chi-square of faces") > (1 / 1e4),
	      "each outcome twice: pairs %g runs %g correlation %g, faces fine %g",
	      fdt_find(t, n, "serial pairs"), fdt_find(t, n, "runs"),
	      fdt_find(t, n, "serial correlation"),
	      fdt_find(t, n, "chi-square of faces"));
	n = fdt_die(2, 100000, FDT_TWICE, t, ARRAY_SIZE(t));
	CHECK(fdt_find(t, n, "spectral") < (1 / 1e6), "bits twice: spectral p = %g",
	      fdt_find(t, n, "spectral"));
}

/* Durstenfeld's shuffle, or the naive one that swaps with any card. */
static void fdt_shuffle(u8 *deck, unsigned int m, bool naive)
{
	unsigned int i, j;
	u8 c;

	for (i = 0; i < m; i++)
		deck[i] = i;
	for (i = m - 1; i > 0; i--) {
		j = naive ? fdt_uniform(m) : fdt_uniform(i + 1);
		c = deck[i];
		deck[i] = deck[j];
		deck[j] = c;
	}
}

static double fdt_decks(unsigned int m, u64 decks, bool naive, double *stat)
{
	struct fdc_deck_stats *s = malloc(sizeof(*s));
	struct fdc_test t[2];
	u8 deck[FDC_STATS_MAX_DECK];
	u64 i;

	if (!s || fdc_deck_stats_init(s, m)) {
		free(s);
		return NAN;
	}
	for (i = 0; i < decks; i++) {
		fdt_shuffle(deck, m, naive);
		fdc_deck_stats_add(s, deck);
	}
	fdc_deck_stats_results(s, t, 2);
	CHECK(t[1].p == 1, "every deck a permutation");
	*stat = t[0].stat;
	free(s);
	return t[0].p;
}

static void fdt_deck(void)
{
	double p[60], stat, mean = 0, ks, d;
	struct fdc_deck_stats *s = malloc(sizeof(*s));
	struct fdc_test t[2];
	u8 bad[4] = { 0, 1, 1, 3 };
	unsigned int i;

	fdt_state = 7;
	/*
	 * The scale (m - 1)/m: without it a deck of 4 would average a
	 * statistic of 12 over 9 degrees of freedom and the p-values would
	 * crowd near 0.
	 */
	for (i = 0; i < ARRAY_SIZE(p); i++) {
		p[i] = fdt_decks(4, 400, false, &stat);
		mean += stat / ARRAY_SIZE(p);
	}
	ks = fdc_ks_uniform(p, ARRAY_SIZE(p), &d);
	CHECK(ks > 0.01 && fabs(mean - 9) < 1, "decks of 4: KS p = %g, mean %g",
	      ks, mean);
	NOTE("60 x 400 decks of 4: mean statistic %.2f (df 9), KS p = %.3f",
	     mean, ks);
	p[0] = fdt_decks(52, 10000, false, &stat);
	CHECK(p[0] > (1 / 1e4), "10000 fair decks of 52: p = %g", p[0]);
	p[0] = fdt_decks(8, 20000, true, &stat);
	CHECK(p[0] < (1 / 1e6), "20000 naive shuffles of 8: p = %g", p[0]);
	if (s && !fdc_deck_stats_init(s, 4)) {
		fdc_deck_stats_add(s, bad);
		fdc_deck_stats_results(s, t, 2);
		CHECK(t[1].p == 0 && s->bad == 1, "a deck with a card twice");
	}
	free(s);
}

/*
 * The calibration, small: seeded fair streams, many runs, and each test's
 * p-values must be uniform (certify-calib does it at certify's sizes).
 */
static void fdt_calibration(void)
{
	static const unsigned int dice[] = { 2, 6, 37, 100 };
	enum { RUNS = 200, N = 20000, SPEC_RUNS = 20000, SPEC_BITS = 1024 };
	static double p[4][32][RUNS];
	static char names[4][32][64];
	static size_t ntests[4];
	signed char *bits = malloc(SPEC_BITS);
	struct fdc_test t[32];
	double d, d2 = 0, ks;
	unsigned int run, i, below;
	size_t k, n;

	fdt_state = 11;
	for (run = 0; run < RUNS; run++) {
		for (i = 0; i < ARRAY_SIZE(dice); i++) {
			n = fdt_die(dice[i], N, FDT_FAIR, t, ARRAY_SIZE(t));
			ntests[i] = n;
			for (k = 0; k < n; k++) {
				p[i][k][run] = t[k].p;
				snprintf(names[i][k], sizeof(names[i][k]), "%s",
					 t[k].name);
			}
		}
	}
	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		for (k = 0; k < ntests[i]; k++) {
			if (isnan(p[i][k][0]))
				continue;
			for (run = 0, below = 0; run < RUNS; run++)
				below += p[i][k][run] < 0.01;
			ks = fdc_ks_uniform(p[i][k], RUNS, &d);
			/* P(Bin(200, 0.01) >= 8) = 0.0003 */
			CHECK(below < 8 && ks > (1 / 1e3),
			      "d%u %s over %d fair runs: %u below 0.01, KS p = %g",
			      dice[i], names[i][k], RUNS, below, ks);
		}
	}
	NOTE("%d fair runs of %d outcomes of each die: every test calibrated",
	     RUNS, N);
	/*
	 * The spectral test's variance: the mean square of its statistic is
	 * 1.00 +- 0.01 over these runs (1.02 measured at 1024 bits); with
	 * SP 800-22's variance it would be 1.08.
	 */
	for (run = 0, below = 0; bits && run < SPEC_RUNS; run++) {
		for (k = 0; k < SPEC_BITS; k++)
			bits[k] = fdt_next() & 1 ? 1 : -1;
		below += fdc_spectral(bits, SPEC_BITS, &d) < 0.01;
		d2 += d * d / SPEC_RUNS;
	}
	CHECK(d2 > 0.97 && d2 < 1.035 && below < SPEC_RUNS / 100 * 1.3,
	      "spectral over %d runs of %d bits: mean square %.4f, %u below 0.01",
	      SPEC_RUNS, SPEC_BITS, d2, below);
	NOTE("spectral over %d runs of %d bits: mean square %.4f, %u below 0.01",
	     SPEC_RUNS, SPEC_BITS, d2, below);
	free(bits);
}

/*
 * ent's statistics to p-values: the law of each, against values computed
 * by hand (erfc, and the chi-square table).
 */
static void fdt_ent(void)
{
	struct fdc_ent e = { .bytes = 8000000, .chi = 310.457388, .mean = 127.5,
			     .scc = 0.001 };
	struct fdc_test t[3];
	char line[] = "1,8000000,7.999977,310.457388,127.500000,3.141592,0.001000";
	struct fdc_ent r;

	CHECK(!fdc_ent_parse(line, &r) && r.bytes == 8000000 &&
	      r.scc == 0.001, "ent -t's data line read");
	CHECK(fdc_ent_parse("0,File-bytes,Entropy,Chi-square,Mean", &r),
	      "ent -t's heading is not data");
	CHECK(fdc_ent_results(&e, "raw", t, 3) == 3, "ent: three lines");
	/* 310.457388 is the 1% point of 255 degrees of freedom. */
	CHECK(fabs(t[0].p - 0.01) < (1 / 1e6), "ent chi-square 1%%: %.9f",
	      t[0].p);
	CHECK(t[1].p == 1, "ent mean 127.5: p = %g", t[1].p);
	/* scc sqrt(n) = 2.828427, erfc(2) = 0.004677735 */
	CHECK(fabs(t[2].p - 0.004677735) < (1 / 1e8),
	      "ent serial correlation: p = %.9f", t[2].p);
}

int main(void)
{
	fdt_pvalues();
	fdt_cells();
	fdt_streams();
	fdt_deck();
	fdt_calibration();
	fdt_ent();
	return fd_check_summary();
}
