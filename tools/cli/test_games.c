// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - shuffle, craps and roulette against the stand-in device.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "test.h"

static u64 fdt_gcd(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Every sequence of rolls j_i in [0, i] (i = n - 1 .. 1) must give a
 * different permutation: then the n! equally likely sequences give the n!
 * permutations exactly once each. The dice asked for must be n, n-1, .., 2.
 */
static void fdt_shuffle_bijection(u32 n)
{
	u64 script[16], seqs = 1, s, i, bad_sides = 0, bad = 0;
	unsigned char *seen;
	u32 perm[16];

	for (i = 2; i <= n; i++)
		seqs *= i;
	seen = calloc(seqs, 1);
	if (!seen)
		abort();
	for (s = 0; s < seqs; s++) {
		struct fdc_dev dev;
		const u64 *log;
		u64 rest = s, rank = 0, k, less;
		size_t len;

		/* Mixed radix: j for sides i + 1, i = n - 1 down to 1. */
		for (i = 0; i + 1 < n; i++) {
			script[i] = rest % (n - i);
			rest /= n - i;
		}
		if (fdc_fake_open(&dev, 0))
			abort();
		fdc_fake_script(&dev, script, n - 1);
		for (i = 0; i < n; i++)
			perm[i] = (u32)i;
		bad += !!fdc_shuffle(&dev, perm, n);
		len = fdc_fake_log(&dev, &log);
		for (i = 0; i < len; i++)
			bad_sides += log[i] != n - i;
		bad_sides += len != n - 1;
		fdc_dev_close(&dev);

		/* Rank of the permutation (Lehmer code) to mark it seen. */
		for (i = 0; i < n; i++) {
			for (k = i + 1, less = 0; k < n; k++)
				less += perm[k] < perm[i];
			rank = rank * (n - i) + less;
		}
		if (rank >= seqs || seen[rank]++)
			bad++;
	}
	FDT_CHECK(!bad && !bad_sides,
		  "shuffle of %u: %llu repeated permutations, %llu wrong dice",
		  n, (unsigned long long)bad, (unsigned long long)bad_sides);
	free(seen);
}

static void fdt_shuffle_random(void)
{
	struct fdc_dev dev;
	u64 where[6][6] = { { 0 } }, i, k, n = 60000, bad = 0;
	double chi2 = 0, expect = n / 6.0;
	u32 perm[6], big[1000];
	unsigned char mark[1000] = { 0 };

	if (fdc_fake_open(&dev, 99))
		abort();
	for (i = 0; i < n; i++) {
		for (k = 0; k < 6; k++)
			perm[k] = (u32)k;
		bad += !!fdc_shuffle(&dev, perm, 6);
		for (k = 0; k < 6; k++)
			where[perm[k]][k]++;
	}
	/* Each item lands in each place 1/6 of the time: 36 cells with 25
	 * to 30 degrees of freedom; above 65 has probability under 1e-4.
	 */
	for (i = 0; i < 6; i++)
		for (k = 0; k < 6; k++)
			chi2 += (where[i][k] - expect) * (where[i][k] - expect) /
				expect;
	FDT_CHECK(!bad && chi2 < 65, "shuffle positions chi-square %.1f", chi2);
	printf("shuffle of 6, %llu times: item x place chi-square %.2f (36 cells)\n",
	       (unsigned long long)n, chi2);

	for (k = 0; k < 1000; k++)
		big[k] = (u32)k;
	bad += !!fdc_shuffle(&dev, big, 1000);
	for (k = 0; k < 1000; k++)
		bad += big[k] >= 1000 || mark[big[k]]++;
	FDT_CHECK(!bad, "shuffle of 1000 is not a permutation");
	big[0] = 0;
	bad = fdc_shuffle(&dev, big, 0) || fdc_shuffle(&dev, big, 1) ||
	      big[0] != 0;
	FDT_CHECK(!bad, "shuffles of 0 and 1 items");
	fdc_dev_close(&dev);
}

static void fdt_craps_rules(void)
{
	static const struct {
		unsigned int throws[6];
		size_t n;
		int outcome;
		size_t used;
	} games[] = {
		{ { 7 }, 1, 1, 1 },
		{ { 11 }, 1, 1, 1 },
		{ { 2 }, 1, 0, 1 },
		{ { 3 }, 1, 0, 1 },
		{ { 12 }, 1, 0, 1 },
		{ { 4, 4 }, 2, 1, 2 },
		{ { 4, 7 }, 2, 0, 2 },
		{ { 8, 11, 2, 12, 3, 8 }, 6, 1, 6 },
		{ { 10, 5, 6, 7, 10 }, 5, 0, 4 },
		{ { 6, 5, 4 }, 3, -1, 3 },
		{ { 9 }, 1, -1, 1 },
	};
	unsigned int i;
	size_t used;
	int r;

	for (i = 0; i < ARRAY_SIZE(games); i++) {
		r = fdc_craps_outcome(games[i].throws, games[i].n, &used);
		FDT_CHECK(r == games[i].outcome && used == games[i].used,
			  "craps game %u: outcome %d after %zu throws", i, r, used);
	}
}

/*
 * P(win) from the rules: come-out 7 or 11, or a point p followed by p
 * before 7, with probability P(p) * P(p) / (P(p) + P(7)). In 36ths:
 * ways(t) = 6 - |t - 7|.
 */
static void fdt_craps_exact(void)
{
	u64 num = 8, den = 36, g;	/* 7 (6 ways) and 11 (2 ways) */
	unsigned int p;

	for (p = 4; p <= 10; p++) {
		u64 w = 6 - (p > 7 ? p - 7 : 7 - p), n2, d2;

		if (p == 7)
			continue;
		/* (w/36)^2 / ((w + 6)/36) = w^2 / (36 (w + 6)) */
		n2 = w * w;
		d2 = 36 * (w + 6);
		num = num * d2 + n2 * den;
		den = den * d2;
		g = fdt_gcd(num, den);
		num /= g;
		den /= g;
	}
	FDT_CHECK(num == FDC_CRAPS_WIN_NUM && den == FDC_CRAPS_WIN_DEN,
		  "craps P(win) = %llu/%llu", (unsigned long long)num,
		  (unsigned long long)den);
}

static void fdt_craps_play(void)
{
	/* 4+4: point 8; 2+3; 6+2: 8, win. Then 1+1: craps. */
	static const u64 script[] = { 3, 3, 1, 2, 5, 1, 0, 0 };
	struct fdc_dev dev;
	char trace[128] = "";
	u64 dice = 0, wins = 0, i, n = 200000;
	bool win;
	FILE *f;
	int ret;
	double frac, exact = (double)FDC_CRAPS_WIN_NUM / FDC_CRAPS_WIN_DEN;

	if (fdc_fake_open(&dev, 0))
		abort();
	fdc_fake_script(&dev, script, ARRAY_SIZE(script));
	f = fmemopen(trace, sizeof(trace), "w");
	ret = fdc_craps_game(&dev, &win, &dice, f);
	fclose(f);
	FDT_CHECK(!ret && win && dice == 6 && !strcmp(trace, "4+4 2+3 6+2 win"),
		  "scripted craps: '%s', %llu dice", trace,
		  (unsigned long long)dice);
	ret = fdc_craps_game(&dev, &win, &dice, NULL);
	FDT_CHECK(!ret && !win && dice == 8, "scripted craps 1+1");
	fdc_dev_close(&dev);

	if (fdc_fake_open(&dev, 2024))
		abort();
	for (i = 0, ret = 0; i < n && !ret; i++) {
		ret = fdc_craps_game(&dev, &win, &dice, NULL);
		wins += win;
	}
	fdc_dev_close(&dev);
	frac = (double)wins / n;
	/* 5 standard deviations: 5 * sqrt(p (1 - p) / n) = 0.0056 */
	FDT_CHECK(!ret && fabs(frac - exact) < 5 * sqrt(exact * (1 - exact) / n),
		  "craps win fraction %.5f, exact %.5f", frac, exact);
	printf("craps, %llu games: win fraction %.5f, exact %.5f\n",
	       (unsigned long long)n, frac, exact);
}

static void fdt_roulette(void)
{
	static const unsigned int reds[] = {
		1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36
	};
	unsigned int p, i, red = 0, black = 0, bad = 0;

	for (p = 0; p < FDC_ROULETTE_POCKETS; p++) {
		enum fdc_colour c = fdc_roulette_colour(p);
		bool listed = false;

		for (i = 0; i < ARRAY_SIZE(reds); i++)
			listed |= reds[i] == p;
		red += c == FDC_RED;
		black += c == FDC_BLACK;
		bad += (c == FDC_RED) != listed || (c == FDC_GREEN) != !p;
	}
	FDT_CHECK(!bad && red == 18 && black == 18,
		  "roulette: %u red, %u black, %u wrong", red, black, bad);
	FDT_CHECK(!strcmp(fdc_colour_name(fdc_roulette_colour(0)), "green") &&
		  !strcmp(fdc_colour_name(fdc_roulette_colour(32)), "red") &&
		  !strcmp(fdc_colour_name(fdc_roulette_colour(15)), "black"),
		  "roulette colour names");
}

int main(void)
{
	fdt_shuffle_bijection(4);
	fdt_shuffle_bijection(5);
	fdt_shuffle_bijection(7);
	fdt_shuffle_random();
	fdt_craps_rules();
	fdt_craps_exact();
	fdt_craps_play();
	fdt_roulette();
	return fdt_summary();
}
