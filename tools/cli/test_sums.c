// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - totals of dice drawn whole (fdc_engine_sums()): the
 * weights are the exact convolution; every string of fair bits up to a
 * length gives each total exactly its share, at every depth; many rolls
 * pass a chi-square test; and a total costs its entropy in fair bits
 * instead of log2(sides) per die.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "fd_check.h"
#include "test_enum.h"

/* The ways @count dice of @sides make each total, one face at a time. */
static void fdt_ways(u64 count, u64 sides, u64 *w)
{
	u64 faces = count * (sides - 1) + 1, *next, n, t, f;

	next = calloc(faces, sizeof(*next));
	if (!next)
		abort();
	memset(w, 0, faces * sizeof(*w));
	w[0] = 1;
	for (n = 0; n < count; n++) {
		memset(next, 0, faces * sizeof(*next));
		for (t = 0; t <= n * (sides - 1); t++)
			for (f = 0; f < sides; f++)
				next[t + f] += w[t];
		memcpy(w, next, faces * sizeof(*w));
	}
	free(next);
}

static void fdt_weights(void)
{
	static const u64 sum3d6[] = {
		1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1
	};
	static const struct {
		u64 count, sides;
		bool fits;
	} dice[] = {
		{ 2, 6, true }, { 3, 6, true }, { 4, 6, true }, { 3, 4, true },
		{ 5, 3, true }, { 2, 2, true }, { 10, 10, true }, { 20, 10, false },
		{ 9, 100, true }, { 24, 6, true }, { 25, 6, false },
		{ 63, 2, true }, { 64, 2, false }, { 4, 3, true },
		{ 2, 32768, true }, { 2, 32769, false }, { 1, 6, false },
		{ 3, 1, false }, { 0, 6, false }, { 1000000, 6, false },
	};
	u64 *a, *b, faces, t, sum;
	unsigned int i;
	bool same;

	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		CHECK(fdc_sum_fits(dice[i].count, dice[i].sides) == dice[i].fits,
		      "%llud%llu: fits %d", (unsigned long long)dice[i].count,
		      (unsigned long long)dice[i].sides, !dice[i].fits);
		/* The slow convolution for the small ones only. */
		if (!dice[i].fits || dice[i].sides > 100)
			continue;
		faces = dice[i].count * (dice[i].sides - 1) + 1;
		a = malloc(faces * sizeof(*a));
		b = malloc(faces * sizeof(*b));
		if (!a || !b)
			abort();
		fdc_sum_weights(dice[i].count, dice[i].sides, a);
		fdt_ways(dice[i].count, dice[i].sides, b);
		for (t = 0, sum = 0; t < faces; t++)
			sum += a[t];
		same = !memcmp(a, b, faces * sizeof(*a));
		CHECK(same && (dice[i].count * log2(dice[i].sides) > 63.9 ||
			       sum == (u64)pow(dice[i].sides, dice[i].count)),
		      "%llud%llu: weights differ from the convolution",
		      (unsigned long long)dice[i].count,
		      (unsigned long long)dice[i].sides);
		if (dice[i].count == 3 && dice[i].sides == 6)
			CHECK(!memcmp(a, sum3d6, sizeof(sum3d6)),
			      "3d6: weights 1, 3, 6, ... 27, 27, ... 3, 1");
		free(a);
		free(b);
	}
	printf("weights: the convolution of the dice for %zu (count, sides)\n",
	       ARRAY_SIZE(dice));
}

/* One run of the exhaustive test: its outcome, below the count given. */
typedef int (*fdt_run_fn)(struct fdc_engine *e, u64 *outcome);

static struct fdc_dice_expr fdt_expr;

/* "3d6" through the roller: the total less 3. */
static int fdt_run_roll(struct fdc_engine *e, u64 *outcome)
{
	s128 total;

	if (fdc_dice_roll(&fdt_expr, e, &total, NULL, NULL))
		return -1;
	*outcome = (u64)(total - fdt_expr.node[fdt_expr.root].lo);
	return 0;
}

/* A d3, then the total of 2d6 drawn whole: 3 * 11 outcomes. */
static int fdt_run_d3_2d6(struct fdc_engine *e, u64 *outcome)
{
	u64 a, t;

	if (fdc_engine_draw(e, 3, &a) || fdc_engine_sums(e, 2, 6, &t, 1))
		return -1;
	*outcome = a * 11 + t;
	return 0;
}

/*
 * Every string of @depth fair bits, the sampler's state topped up to
 * 2^@precision: the strings whose run finished within d bits must give
 * the outcomes in the exact proportions @p (integers), at every d: the
 * weighted draw is a function of a uniform roll of W, exact at every
 * depth, and what comes before it leaves a state uniform on one range.
 * Outcomes of weight 0 never come, and nearly all strings finish.
 */
static bool fdt_exhaustive(const char *name, fdt_run_fn run, const u64 *p,
			   u64 nout, unsigned int precision, unsigned int depth,
			   bool quiet)
{
	u64 (*hist)[FDT_MAX_DEPTH + 1] = calloc(nout, sizeof(*hist));
	u64 *cum = calloc(nout, sizeof(*cum)), s, r, u, done = 0, bad = 0;
	u64 ref = 0, i;
	unsigned int d, bad_depths = 0;
	struct fdc_engine eng;
	bool ok;
	u8 bits[FDT_MAX_DEPTH];
	int saved;

	if (!hist || !cum || depth > FDT_MAX_DEPTH)
		abort();
	while (!p[ref])
		ref++;
	saved = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		if (fdc_fake_bits_open(&eng, bits, depth, precision))
			abort();
		if (run(&eng, &r)) {
			fdc_engine_close(&eng);
			continue;
		}
		u = fdc_engine_bits_used(&eng);
		fdc_engine_close(&eng);
		if (r >= nout || !p[r] || u > depth) {
			bad++;
			continue;
		}
		hist[r][u]++;
		done++;
	}
	fd_check_stderr_on(saved);
	for (d = 0; d <= depth; d++) {
		bool prop = true;

		for (r = 0; r < nout; r++) {
			/* A run of u bits stands for 2^(depth - u) strings. */
			bad += hist[r][d] % (1ULL << (depth - d)) != 0;
			cum[r] += hist[r][d];
		}
		for (r = 0; r < nout; r++)
			prop &= (fd_u128)cum[r] * p[ref] ==
				(fd_u128)cum[ref] * p[r];
		bad_depths += !prop;
	}
	ok = !bad && !bad_depths && cum[ref] &&
	     done >= (1ULL << depth) / 100 * 99;
	if (!quiet) {
		CHECK(ok,
		      "%s: %llu bad runs, off the exact law at %u depths, %llu of 2^%u finish",
		      name, (unsigned long long)bad, bad_depths,
		      (unsigned long long)done, depth);
		printf("exact: %-26s 2^%u bit strings, %5.1f%% finish,",
		       name, depth, 100.0 * done / (1ULL << depth));
		printf(" %llu outcomes in proportion at all %u depths\n",
		       (unsigned long long)nout, depth + 1);
	}
	free(hist);
	free(cum);
	return ok;
}

static void fdt_exhaustive_all(void)
{
	u64 w3[16], w2[11], p[33], wrong[16], i, j;
	char err[128];
	bool ok;

	fdt_ways(3, 6, w3);
	if (fdc_dice_parse("3d6", &fdt_expr, err, sizeof(err)))
		abort();
	fdt_exhaustive("3d6 (roll)", fdt_run_roll, w3, 16, 8, 20, false);
	fdt_exhaustive("3d6 (roll), state 2^12", fdt_run_roll, w3, 16, 12, 18,
		       false);
	fdt_ways(2, 6, w2);
	for (i = 0; i < 3; i++)
		for (j = 0; j < 11; j++)
			p[i * 11 + j] = w2[j];
	fdt_exhaustive("a d3, then 2d6's total", fdt_run_d3_2d6, p, 33, 6, 20,
		       false);

	/* A control: the same check must see a law that is not 3d6's. */
	memcpy(wrong, w3, sizeof(wrong));
	wrong[7]++;
	wrong[8]--;
	ok = fdt_exhaustive("", fdt_run_roll, wrong, 16, 8, 16, true);
	CHECK(!ok, "control: 3d6 against a wrong law passed the check");
	printf("control: 3d6 against 3d6's law with 11 and 12 moved: %s\n",
	       ok ? "passed" : "refused");
}

/*
 * Many 3d6 through the roller on seeded fair bits, made ahead as the tool
 * makes them: the chi-square against 3d6's law, and the fair bits a total
 * takes against rolling the three dice one by one (as -v does).
 */
static void fdt_many(void)
{
	u64 hist[16] = { 0 }, w[16], n = 216000, i, bits, made, bits3, made3;
	double chi2 = 0, e, h = 0, p;
	struct fdc_dice_expr ex;
	struct fdc_engine eng;
	char err[128];
	s128 total;
	FILE *null = fopen("/dev/null", "w");
	int bad = 0;

	if (!null || fdc_dice_parse("3d6", &ex, err, sizeof(err)))
		abort();
	fdt_ways(3, 6, w);
	fdc_source_open_seed(&eng.src, 36);
	fdc_engine_open_source(&eng, 0);
	for (i = 0; i < n; i++) {
		bad |= fdc_dice_roll(&ex, &eng, &total, NULL, NULL);
		if (total < 3 || total > 18)
			bad = 1;
		else
			hist[total - 3]++;
	}
	bad |= fdc_engine_cost(&eng, &bits, &made) != 0;
	fdc_engine_close(&eng);
	for (i = 0; i < 16; i++) {
		p = w[i] / 216.0;
		e = n * p;
		chi2 += (hist[i] - e) * (hist[i] - e) / e;
		h -= p * log2(p);
	}
	/* 15 degrees of freedom: the 1e-6 quantile is 49.3. */
	CHECK(!bad && chi2 < 49.3, "3d6 drawn whole: chi-square %.1f", chi2);
	printf("3d6 drawn whole, %llu times: chi-square %.2f (15 dof, limit 49.3)\n",
	       (unsigned long long)n, chi2);

	/* The same totals die by die: -v shows the dice, so it rolls them. */
	fdc_source_open_seed(&eng.src, 37);
	fdc_engine_open_source(&eng, 0);
	for (i = 0; i < n; i++)
		bad |= fdc_dice_roll(&ex, &eng, &total, null, NULL);
	bad |= fdc_engine_cost(&eng, &bits3, &made3) != 0;
	fdc_engine_close(&eng);
	fclose(null);
	CHECK(!bad && made >= n && made - n <= FDC_CACHE_MAX &&
	      (double)bits / made <= h + 0.01 &&
	      (double)bits / made >= h - 0.01 &&
	      (double)bits3 / n > 3 * log2(6) - 0.01,
	      "3d6: %.4f fair bits a total drawn whole (entropy %.4f), %.4f die by die",
	      (double)bits / made, h, (double)bits3 / n);
	printf("3d6: %.4f fair bits a total drawn whole (%llu made, entropy %.4f);",
	       (double)bits / made, (unsigned long long)made, h);
	printf(" die by die %.4f (3 log2 6 = %.4f)\n", (double)bits3 / n,
	       3 * log2(6));
}

/* The double of the device draws a total with one roll of sides^count. */
static void fdt_fake(void)
{
	struct fdc_engine eng;
	const u64 *log;
	u64 v[3];
	size_t len;
	int ret;

	if (fdc_fake_open(&eng, 5))
		abort();
	eng.max_ahead = 1;
	ret = fdc_engine_sums(&eng, 3, 6, v, 3);
	len = fdc_fake_log(&eng, &log);
	CHECK(!ret && len == 3 && log[0] == 216 && log[1] == 216 &&
	      log[2] == 216 && v[0] <= 15 && v[1] <= 15 && v[2] <= 15,
	      "fake: 3 totals of 3d6, %zu rolls", len);
	fdc_engine_close(&eng);
}

/* A device that draws no weighted dice (DIJKSTRA): die by die instead. */
static void fdt_no_weights(void)
{
	static const u64 dice[] = { 5, 0, 2, 1, 1, 4 };
	struct fdc_engine eng;
	const u64 *log;
	u64 v[2];
	size_t len, i, bad = 0;
	int ret;

	if (fdc_fake_open(&eng, 6))
		abort();
	fdc_fake_script(&eng, dice, ARRAY_SIZE(dice));
	eng.no_weights = true;
	ret = fdc_engine_sums(&eng, 3, 6, v, 2);
	len = fdc_fake_log(&eng, &log);
	for (i = 0; i < len; i++)
		bad += log[i] != 6;
	CHECK(!ret && v[0] == 7 && v[1] == 6 && len == 6 && !bad &&
	      eng.rolls == 2,
	      "no weights: totals %llu %llu from %zu rolls",
	      (unsigned long long)v[0], (unsigned long long)v[1], len);
	fdc_engine_close(&eng);
}

int main(void)
{
	fdt_weights();
	fdt_exhaustive_all();
	fdt_many();
	fdt_fake();
	fdt_no_weights();
	return fd_check_summary();
}
