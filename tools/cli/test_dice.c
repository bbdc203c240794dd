// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - dice expressions: the parser, and rolling against the
 * stand-in device with scripted and with random rolls.
 */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "fd_check.h"

static bool fdt_parse(const char *text, struct fdc_dice_expr *e)
{
	char err[160];

	if (fdc_dice_parse(text, e, err, sizeof(err))) {
		printf("unexpected parse error for '%s': %s\n", text, err);
		return false;
	}
	return true;
}

static void fdt_parse_good(void)
{
	struct fdc_dice_expr e;
	const struct fdc_dice_term *t = e.term;

	CHECK(fdt_parse("3d6", &e) && e.nterms == 1 && t[0].count == 3 &&
	      t[0].sides == 6 && t[0].sign == 1 && !t[0].keep &&
	      !t[0].explode && e.dice == 3, "3d6");
	CHECK(fdt_parse("d20+4", &e) && e.nterms == 2 && t[0].count == 1 &&
	      t[0].sides == 20 && t[1].count == 0 && t[1].sides == 4 &&
	      t[1].sign == 1, "d20+4");
	CHECK(fdt_parse("4d6k3", &e) && t[0].keep == 3 && !t[0].keep_low,
	      "4d6k3");
	CHECK(fdt_parse("4d6kh3", &e) && t[0].keep == 3 && !t[0].keep_low,
	      "4d6kh3");
	CHECK(fdt_parse("4d6kl1", &e) && t[0].keep == 1 && t[0].keep_low,
	      "4d6kl1");
	CHECK(fdt_parse("2d10x", &e) && t[0].explode == 10, "2d10x");
	CHECK(fdt_parse("2d10x3", &e) && t[0].explode == 3, "2d10x3");
	CHECK(fdt_parse("d%", &e) && t[0].count == 1 && t[0].sides == 100,
	      "d%%");
	CHECK(fdt_parse("D100", &e) && t[0].sides == 100, "D100");
	CHECK(fdt_parse("2d8+1d4-1", &e) && e.nterms == 3 &&
	      t[0].sign == 1 && t[1].sign == 1 && t[1].sides == 4 &&
	      t[2].sign == -1 && t[2].count == 0 && t[2].sides == 1,
	      "2d8+1d4-1");
	CHECK(fdt_parse("  -1 +  d4 ", &e) && e.nterms == 2 &&
	      t[0].sign == -1 && t[1].sides == 4, "leading sign, blanks");
	CHECK(fdt_parse("4d6xk3", &e) && t[0].explode == 6 && t[0].keep == 3,
	      "4d6xk3");
	CHECK(fdt_parse("4d6kl2x5", &e) && t[0].explode == 5 &&
	      t[0].keep == 2 && t[0].keep_low, "4d6kl2x5");
	CHECK(fdt_parse("1000000d2", &e) && e.dice == 1000000,
	      "a million dice");
	CHECK(fdt_parse("d18446744073", &e) && t[0].sides == 18446744073ULL,
	      "big die");
	CHECK(fdt_parse("7", &e) && e.nterms == 1 && e.dice == 0, "constant");
	CHECK(fdt_parse("6x4d6k3", &e) && e.repeat == 6 && t[0].keep == 3,
	      "6x4d6k3");
	CHECK(fdt_parse("4d6dl1", &e) && t[0].keep == 3 && !t[0].keep_low,
	      "4d6dl1 keeps the 3 highest");
	CHECK(fdt_parse("4d6dh1", &e) && t[0].keep == 3 && t[0].keep_low,
	      "4d6dh1 keeps the 3 lowest");
	CHECK(fdt_parse("2d10!", &e) && t[0].explode == 10, "2d10!");
	CHECK(fdt_parse("4dF", &e) && t[0].sides == 3 && t[0].offset == -2,
	      "4dF");
	CHECK(fdt_parse("3d6*100/7", &e) && t[0].nops == 2 &&
	      t[0].op[0] == '*' && t[0].arg[1] == 7, "3d6*100/7");
	CHECK(fdt_parse("4d6r<3", &e) && t[0].nreroll == 1 &&
	      t[0].reroll[0].op == FDC_CMP_LT && t[0].reroll[0].value == 3,
	      "4d6r<3");
	CHECK(fdt_parse("2d6r1", &e) && t[0].reroll[0].op == FDC_CMP_EQ,
	      "2d6r1");
	CHECK(fdt_parse("10d10>=8", &e) && t[0].pool.op == FDC_CMP_GE &&
	      t[0].pool.value == 8, "10d10>=8");
	/* One size of dice, or several: device rolls, or draws. */
	CHECK(fdt_parse("3d6+2d6x-4", &e) && !e.mixed, "3d6+2d6x-4 one size");
	CHECK(fdt_parse("d20+20", &e) && !e.mixed, "d20+20 one size");
	CHECK(fdt_parse("3d6+1d4", &e) && e.mixed, "3d6+1d4 mixed");
	CHECK(fdt_parse("d1-d6", &e) && e.mixed, "d1-d6 mixed");
	CHECK(fdt_parse("d6+6+d6+d%", &e) && e.mixed, "d6+6+d6+d%% mixed");
}

static const struct {
	const char *text;
	const char *why;	/* a part of the message */
} fdt_bad[] = {
	{ "", "empty" },
	{ "   ", "empty" },
	{ "3d", "missing number of sides after 'd' at position 2" },
	{ "d", "missing number of sides" },
	{ "3x", "expected an expression after 'x'" },
	{ "0x3d6", "cannot print 0 totals" },
	{ "4d6d4", "cannot drop 4 of 4" },
	{ "d6r<7", "rerolled forever" },
	{ "2d6r1r2r3r4r5", "more than 4 rerolls" },
	{ "d6/0", "division by zero" },
	{ "4dFx", "fudge dice do not explode" },
	{ "10d10>", "the target number" },
	{ "4d6q", "unexpected 'q' at position 4" },
	{ "0d6", "0 dice" },
	{ "d0", "at least 1 side" },
	{ "4d6k5", "cannot keep 5 of 4" },
	{ "4d6k0", "cannot keep 0 of 4" },
	{ "4d6k", "number of dice to keep" },
	{ "4d6k3k2", "'k' given twice" },
	{ "2d6xx", "'x' given twice" },
	{ "d6x1", "explode forever" },
	{ "d1x", "explode forever" },
	{ "d6x7", "never shows 7" },
	{ "1000001d6", "too many dice" },
	{ "500000d6+500001d6", "too many dice" },
	{ "3d6+", "at the end" },
	{ "3d6++2", "unexpected '+' at position 5" },
	{ "3d6 2", "unexpected '2' at position 5" },
	{ "99999999999999999999d6", "number too large at position 1" },
	{ "2d9223372036854775807", "could exceed" },
	{ "d9223372036854775807+1", "could exceed" },
	{ "3 d6", "unexpected 'd' at position 3" },
	{ "d-6", "missing number of sides" },
};

static void fdt_parse_bad(void)
{
	struct fdc_dice_expr e;
	char err[160];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(fdt_bad); i++) {
		err[0] = '\0';
		ret = fdc_dice_parse(fdt_bad[i].text, &e, err, sizeof(err));
		CHECK(ret < 0 && strstr(err, fdt_bad[i].why),
		      "'%s': ret %d, message '%s', want '%s'",
		      fdt_bad[i].text, ret, err, fdt_bad[i].why);
	}
}

/* Roll @text once with the scripted rolls @vals (0-based). */
static int fdt_roll_script(const char *text, const u64 *vals, size_t n,
			   s64 *total, char *detail, size_t size,
			   const u64 **log, size_t *log_len)
{
	struct fdc_dice_expr e;
	struct fdc_engine dev;
	FILE *trace = NULL;
	int ret;

	if (!fdt_parse(text, &e) || fdc_fake_open(&dev, 1))
		return -100;
	fdc_fake_script(&dev, vals, n);
	if (detail) {
		memset(detail, 0, size);
		trace = fmemopen(detail, size, "w");
	}
	ret = fdc_dice_roll(&e, &dev, total, trace);
	if (trace)
		fclose(trace);
	if (log) {
		static u64 copy[64];
		const u64 *l;

		*log_len = fdc_fake_log(&dev, &l);
		if (*log_len)
			memcpy(copy, l,
			       (*log_len < 64 ? *log_len : 64) * sizeof(u64));
		*log = copy;
	}
	fdc_engine_close(&dev);
	return ret;
}

static void fdt_roll_scripted(void)
{
	static u64 always_two[FDC_DICE_MAX_DICE + 2];
	char detail[256];
	const u64 *log;
	size_t log_len;
	s64 total;
	u64 v[8];
	int ret;

	/* 4d6k3 keeps the highest three, for each of the 6^4 outcomes. */
	{
		unsigned int s, bad = 0, bad_low = 0, i;

		for (s = 0; s < 1296; s++) {
			u64 min = 6, max = 0, sum = 0;

			for (i = 0, v[0] = s; i < 4; i++) {
				v[i] = s / (i == 0 ? 1 : i == 1 ? 6 : i == 2 ? 36 : 216) % 6;
				sum += v[i] + 1;
				min = v[i] + 1 < min ? v[i] + 1 : min;
				max = v[i] + 1 > max ? v[i] + 1 : max;
			}
			ret = fdt_roll_script("4d6k3", v, 4, &total, NULL, 0,
					      NULL, NULL);
			bad += ret || total != (s64)(sum - min);
			ret = fdt_roll_script("4d6kl1", v, 4, &total, NULL, 0,
					      NULL, NULL);
			bad_low += ret || total != (s64)min;
			ret = fdt_roll_script("4d6k1", v, 4, &total, NULL, 0,
					      NULL, NULL);
			bad_low += ret || total != (s64)max;
		}
		CHECK(!bad, "4d6k3 wrong for %u of 1296 outcomes", bad);
		CHECK(!bad_low, "4d6kl1/4d6k1 wrong for %u outcomes",
		      bad_low);
	}

	v[0] = 5; v[1] = 3; v[2] = 2; v[3] = 0;
	ret = fdt_roll_script("4d6k3", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	CHECK(!ret && total == 13 && !strcmp(detail, "4d6k3[6 4 3 (1)]"),
	      "4d6k3 verbose: %lld '%s'", (long long)total, detail);

	/* Ties: the earlier dice are kept. */
	v[0] = 2; v[1] = 2; v[2] = 2; v[3] = 2;
	ret = fdt_roll_script("4d6k3", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	CHECK(!ret && total == 9 && !strcmp(detail, "4d6k3[3 3 3 (3)]"),
	      "4d6k3 ties: '%s'", detail);

	/* One size: every die is its own roll of that size: 3d6+1d6-2. */
	v[0] = 0; v[1] = 1; v[2] = 2; v[3] = 5;
	ret = fdt_roll_script("3d6+1d6-2", v, 4, &total, detail,
			      sizeof(detail), &log, &log_len);
	CHECK(!ret && total == 1 + 2 + 3 + 6 - 2 &&
	      log_len == 4 && log[0] == 6 && log[1] == 6 && log[2] == 6 &&
	      log[3] == 6,
	      "3d6+1d6-2: %lld, %zu rolls", (long long)total, log_len);
	CHECK(!strcmp(detail, "3d6[1 2 3] + 1d6[6] - 2"),
	      "verbose '%s'", detail);

	/* Exploding on the maximum: 6 -> 6 -> 2, and 3. */
	v[0] = 5; v[1] = 2; v[2] = 5; v[3] = 1;
	ret = fdt_roll_script("2d6x", v, 4, &total, detail, sizeof(detail),
			      &log, &log_len);
	CHECK(!ret && total == 17 && log_len == 4 &&
	      !strcmp(detail, "2d6x[6+6+2 3]"),
	      "2d6x: %lld '%s'", (long long)total, detail);

	/* Exploding on 9 or more: 9 -> 10 -> 4, and 1. */
	v[0] = 8; v[1] = 0; v[2] = 9; v[3] = 3;
	ret = fdt_roll_script("2d10x9", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	CHECK(!ret && total == 24 && !strcmp(detail, "2d10x9[9+10+4 1]"),
	      "2d10x9: %lld '%s'", (long long)total, detail);

	/* Explode, then keep the highest exploded die. */
	v[0] = 5; v[1] = 4; v[2] = 0;
	ret = fdt_roll_script("2d6xk1", v, 3, &total, detail, sizeof(detail),
			      NULL, NULL);
	CHECK(!ret && total == 7 && !strcmp(detail, "2d6xk1[6+1 (5)]"),
	      "2d6xk1: %lld '%s'", (long long)total, detail);

	/* Constants and signs need no device. */
	ret = fdt_roll_script("5-10", v, 0, &total, NULL, 0, &log, &log_len);
	CHECK(!ret && total == -5 && log_len == 0, "5-10 = %lld",
	      (long long)total);
	v[0] = 3;
	ret = fdt_roll_script("-d4", v, 1, &total, detail, sizeof(detail),
			      NULL, NULL);
	CHECK(!ret && total == -4 && !strcmp(detail, "-1d4[4]"),
	      "-d4: %lld '%s'", (long long)total, detail);

	/* A d1 needs a roll too, and it is 1. */
	v[0] = 0;
	ret = fdt_roll_script("d1", v, 1, &total, NULL, 0, &log, &log_len);
	CHECK(!ret && total == 1 && log_len == 1 && log[0] == 1, "d1");

	printf("three error messages expected:\n");

	/* Explosions past the total's range fail cleanly. */
	v[0] = INT64_MAX - 1; v[1] = 5;
	ret = fdt_roll_script("d9223372036854775807x", v, 2, &total, NULL, 0,
			      NULL, NULL);
	CHECK(ret == -1, "overflowing explosion gave %d", ret);

	/* ... and so do endless ones, after a million dice. */
	{
		size_t i;

		for (i = 0; i < ARRAY_SIZE(always_two); i++)
			always_two[i] = 1;
		ret = fdt_roll_script("d2x", always_two, ARRAY_SIZE(always_two),
				      &total, NULL, 0, NULL, NULL);
		CHECK(ret == -1, "a million explosions gave %d", ret);
	}

	/* A device error is passed on. */
	v[0] = 0;
	v[1] = 0;
	ret = fdt_roll_script("3d6", v, 2, &total, NULL, 0, NULL, NULL);
	CHECK(ret == -1, "a short script gave %d", ret);
}

/* Random rolls: the distribution of sums, and read-ahead per size. */
static void fdt_roll_random(void)
{
	struct fdc_dice_expr e, e2, e3;
	struct fdc_engine dev;
	const u64 *log;
	size_t log_len, i;
	u64 hist[19] = { 0 }, hist4[19] = { 0 }, n = 216000, sides_bad = 0;
	double sum4 = 0, chi2 = 0, exact4 = 0, ideal, sq;
	s64 total;
	int bad = 0;
	unsigned int s, a, b, c, d;

	fdt_parse("3d6", &e);
	fdt_parse("4d6k3", &e2);
	fdt_parse("3d6+1d4", &e3);
	if (fdc_fake_open(&dev, 42))
		abort();
	for (i = 0; i < n; i++) {
		bad |= fdc_dice_roll(&e, &dev, &total, NULL);
		if (total < 3 || total > 18)
			bad = 1;
		else
			hist[total]++;
		bad |= fdc_dice_roll(&e2, &dev, &total, NULL);
		sum4 += total;
	}
	CHECK(!bad, "random rolls failed or out of range");
	/* Chi-square of 3d6 against its exact distribution, 15 degrees of
	 * freedom: above 45 has probability under 1e-4.
	 */
	for (s = 3; s <= 18; s++) {
		unsigned int ways = 0;
		double expect;

		for (a = 1; a <= 6; a++)
			for (b = 1; b <= 6; b++)
				for (c = 1; c <= 6; c++)
					ways += a + b + c == s;
		expect = (double)n * ways / 216;
		chi2 += (hist[s] - expect) * (hist[s] - expect) / expect;
	}
	CHECK(chi2 < 45, "3d6 chi-square %.1f", chi2);
	for (a = 1; a <= 6; a++)
		for (b = 1; b <= 6; b++)
			for (c = 1; c <= 6; c++)
				for (d = 1; d <= 6; d++) {
					unsigned int m = a;

					m = b < m ? b : m;
					m = c < m ? c : m;
					m = d < m ? d : m;
					exact4 += a + b + c + d - m;
				}
	exact4 /= 1296;
	/* sd of 4d6k3 is about 2.85: 5 sigma over n rolls is 0.031 */
	CHECK(fabs(sum4 / n - exact4) < 0.031,
	      "4d6k3 mean %.4f, exact %.4f", sum4 / n, exact4);
	printf("3d6 chi-square %.2f (15 dof); 4d6k3 mean %.4f, exact %.4f\n",
	       chi2, sum4 / n, exact4);
	fdc_engine_close(&dev);

	/* Mixed sizes from one recycled state fed with fair bits: about
	 * log2(6) or log2(4) fair bits a die (none made ahead and left over).
	 */
	fdc_source_open_seed(&dev.src, 7);
	fdc_engine_open_source(&dev, 0);
	dev.max_ahead = 1;
	ideal = 10000 * fdc_dice_bits(&e3);
	for (i = 0; i < 10000; i++) {
		bad |= fdc_dice_roll(&e3, &dev, &total, NULL);
		hist4[total - 4]++;
	}
	CHECK(!bad && fdc_engine_bits_used(&dev) < ideal * 1.001 + 64,
	      "3d6+1d4 x 10000: %llu fair bits used, %.0f ideal",
	      (unsigned long long)fdc_engine_bits_used(&dev), ideal);
	printf("3d6+1d4 x 10000: %llu fair bits used;",
	       (unsigned long long)fdc_engine_bits_used(&dev));
	printf(" the sum of log2(sides) is %.0f\n", ideal);
	/* 3d6+1d4 has 16 totals, 4..22: 15 dof, 1e-6 quantile 56.5. */
	for (s = 0, chi2 = 0; s < 19; s++) {
		unsigned int ways = 0;
		double expect;

		for (a = 1; a <= 6; a++)
			for (b = 1; b <= 6; b++)
				for (c = 1; c <= 6; c++)
					for (d = 1; d <= 4; d++)
						ways += a + b + c + d == s + 4;
		expect = 10000.0 * ways / 864;
		if (expect)
			chi2 += (hist4[s] - expect) * (hist4[s] - expect) /
				expect;
	}
	CHECK(chi2 < 56.5, "3d6+1d4 chi-square %.1f", chi2);
	fdc_engine_close(&dev);

	/* One size, several terms, no read-ahead: one roll of 6 per die. */
	if (fdc_fake_open(&dev, 7))
		abort();
	dev.max_ahead = 1;
	fdt_parse("2d6+1d6", &e);
	for (i = 0; i < 100; i++)
		bad |= fdc_dice_roll(&e, &dev, &total, NULL);
	log_len = fdc_fake_log(&dev, &log);
	for (i = 0, sides_bad = 0; i < log_len; i++)
		sides_bad += log[i] != 6;
	CHECK(!bad && log_len == 300 && !sides_bad,
	      "2d6+1d6 without read-ahead: %zu rolls", log_len);
	fdc_engine_close(&dev);

	/* Mixed and exploding: E[d6x] = 3.5 * 6 / 5 = 4.2, plus E[d4]. */
	if (fdc_fake_open(&dev, 8))
		abort();
	fdt_parse("d6x+d4", &e);
	for (i = 0, sum4 = 0, sq = 0; i < 100000; i++) {
		bad |= fdc_dice_roll(&e, &dev, &total, NULL);
		sum4 += total;
		sq += (double)total * total;
	}
	sum4 /= 100000;
	sq = sqrt((sq / 100000 - sum4 * sum4) / 100000);
	CHECK(!bad && fabs(sum4 - 6.7) < 5 * sq,
	      "d6x+d4 mean %.4f, exact 6.7", sum4);
	fdc_engine_close(&dev);
}

/*
 * Mixed dice as draws, proven the way shuffles are: every string of
 * @depth fair bits fed one bit a roll; at every depth d, the strings of d
 * bits that finish "d3+d2+d5" give each of the 30 (d3, d2, d5) equally
 * often.
 */
static void fdt_roll_mixed_exhaustive(unsigned int slack, unsigned int depth)
{
	static u64 hist[30][25];
	u64 cum[30] = { 0 }, s, u, done = 0, bad_run = 0;
	u8 bits[24];
	struct fdc_dice_expr e;
	struct fdc_engine dev;
	unsigned int a, b, c, d, bad_depths = 0, i;
	char detail[64];
	FILE *trace;
	s64 total;
	int saved;

	memset(hist, 0, sizeof(hist));
	if (depth > 24 || !fdt_parse("d3+d2+d5", &e))
		abort();
	saved = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		/* The sampler's state reaches 2^(3 + slack) before a d5. */
		if (fdc_fake_bits_open(&dev, bits, depth, 3 + slack))
			abort();
		memset(detail, 0, sizeof(detail));
		trace = fmemopen(detail, sizeof(detail), "w");
		if (!trace)
			abort();
		if (fdc_dice_roll(&e, &dev, &total, trace)) {
			fclose(trace);
			fdc_engine_close(&dev);
			continue;
		}
		fclose(trace);
		u = fdc_engine_bits_used(&dev);
		fdc_engine_close(&dev);
		if (sscanf(detail, "1d3[%u] + 1d2[%u] + 1d5[%u]", &a, &b, &c) != 3 ||
		    a < 1 || a > 3 || b < 1 || b > 2 || c < 1 || c > 5 ||
		    total != a + b + c || u > depth) {
			bad_run++;
			continue;
		}
		hist[((a - 1) * 2 + b - 1) * 5 + c - 1][u]++;
		done++;
	}
	fd_check_stderr_on(saved);
	for (d = 0; d <= depth; d++) {
		bool equal = true;

		for (i = 0; i < 30; i++) {
			bad_run += hist[i][d] % (1ULL << (depth - d)) != 0;
			cum[i] += hist[i][d];
			equal &= cum[i] == cum[0];
		}
		bad_depths += !equal;
	}
	/* ... and nearly every string finishes: nothing stalls. */
	CHECK(!bad_run && !bad_depths && cum[0] &&
	      done >= (1ULL << depth) / 100 * 99,
	      "d3+d2+d5, slack %u: %llu bad runs, unequal at %u depths, %llu finish",
	      slack, (unsigned long long)bad_run, bad_depths,
	      (unsigned long long)done);
	printf("exact: d3+d2+d5, slack %2u: 2^%u bit strings, %5.1f%% finish;",
	       slack, depth, 100.0 * done / (1ULL << depth));
	printf(" each of the 30 outcomes from %llu; equal at all %u depths\n",
	       (unsigned long long)cum[0], depth + 1);
}

/*
 * The exact distribution against every outcome: the scripted stand-in
 * hands out each tuple of faces in turn (all equally likely, no rerolls
 * or explosions), and the totals' frequencies must be fdc_dice_dist()'s.
 */
static void fdt_dist_one(const char *text, unsigned int dice, u64 sides)
{
	struct fdc_dice_expr e;
	struct fdc_dice_dist d;
	u64 v[16], tuples = 1, s, t;
	u64 *freq;
	char err[160];
	s64 total;
	unsigned int i, bad = 0;

	for (i = 0; i < dice; i++)
		tuples *= sides;
	if (!fdt_parse(text, &e) || fdc_dice_dist(&e, &d, err, sizeof(err))) {
		CHECK(0, "%s: no distribution", text);
		return;
	}
	freq = calloc(d.n, sizeof(*freq));
	if (!freq)
		abort();
	for (s = 0; s < tuples; s++) {
		for (i = 0, t = s; i < dice; i++, t /= sides)
			v[i] = t % sides;
		if (fdt_roll_script(text, v, dice, &total, NULL, 0, NULL,
				    NULL) || total < d.min ||
		    total >= d.min + (s64)d.n) {
			bad++;
			continue;
		}
		freq[total - d.min]++;
	}
	for (s = 0; s < d.n; s++)
		if (fabs((double)freq[s] / tuples - d.p[s]) > 1 / 1e12)
			bad++;
	CHECK(!bad, "%s: %u totals differ from the exact distribution",
	      text, bad);
	free(freq);
	free(d.p);
}

static void fdt_dist(void)
{
	struct fdc_dice_expr e;
	struct fdc_dice_dist d;
	char err[160];

	fdt_dist_one("3d6", 3, 6);
	fdt_dist_one("4d6k3", 4, 6);
	fdt_dist_one("4d6kl2", 4, 6);
	fdt_dist_one("5d4dh2", 5, 4);
	fdt_dist_one("4d6dl1 - 2", 4, 6);
	fdt_dist_one("6d10>=8", 6, 10);
	fdt_dist_one("5d6<2", 5, 6);
	fdt_dist_one("4dF", 4, 3);
	fdt_dist_one("3d6*7/4-d6", 4, 6);
	fdt_dist_one("d20/3", 1, 20);
	/* A reroll leaves the faces not rerolled, equally likely. */
	CHECK(fdt_parse("d6r<3", &e) && !fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      d.min == 1 && d.n == 6 && d.p[0] == 0 && d.p[1] == 0 &&
	      d.p[2] == 0.25 && d.p[5] == 0.25, "d6r<3 distribution");
	free(d.p);
	CHECK(fdt_parse("2d6x", &e) && fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "exploding"), "2d6x has no distribution");
	/* A control: a wrong distribution must be caught. */
	CHECK(fdt_parse("4d6k3", &e) && !fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      fabs(d.p[15] - 21.0 / 1296) < 1 / 1e15 &&
	      fabs(d.p[0] - 1.0 / 1296) < 1 / 1e15, "4d6k3: P(18), P(3)");
	free(d.p);
}

int main(void)
{
	fdt_parse_good();
	fdt_parse_bad();
	fdt_roll_scripted();
	fdt_roll_random();
	fdt_dist();
	fdt_roll_mixed_exhaustive(0, 14);
	fdt_roll_mixed_exhaustive(2, 15);
	fdt_roll_mixed_exhaustive(12, 18);
	return fd_check_summary();
}
