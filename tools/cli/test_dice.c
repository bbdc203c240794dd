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
#include "test.h"

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

	FDT_CHECK(fdt_parse("3d6", &e) && e.nterms == 1 && t[0].count == 3 &&
		  t[0].sides == 6 && t[0].sign == 1 && !t[0].keep &&
		  !t[0].explode && e.dice == 3, "3d6");
	FDT_CHECK(fdt_parse("d20+4", &e) && e.nterms == 2 && t[0].count == 1 &&
		  t[0].sides == 20 && t[1].count == 0 && t[1].sides == 4 &&
		  t[1].sign == 1, "d20+4");
	FDT_CHECK(fdt_parse("4d6k3", &e) && t[0].keep == 3 && !t[0].keep_low,
		  "4d6k3");
	FDT_CHECK(fdt_parse("4d6kh3", &e) && t[0].keep == 3 && !t[0].keep_low,
		  "4d6kh3");
	FDT_CHECK(fdt_parse("4d6kl1", &e) && t[0].keep == 1 && t[0].keep_low,
		  "4d6kl1");
	FDT_CHECK(fdt_parse("2d10x", &e) && t[0].explode == 10, "2d10x");
	FDT_CHECK(fdt_parse("2d10x3", &e) && t[0].explode == 3, "2d10x3");
	FDT_CHECK(fdt_parse("d%", &e) && t[0].count == 1 && t[0].sides == 100,
		  "d%%");
	FDT_CHECK(fdt_parse("D100", &e) && t[0].sides == 100, "D100");
	FDT_CHECK(fdt_parse("2d8+1d4-1", &e) && e.nterms == 3 &&
		  t[0].sign == 1 && t[1].sign == 1 && t[1].sides == 4 &&
		  t[2].sign == -1 && t[2].count == 0 && t[2].sides == 1,
		  "2d8+1d4-1");
	FDT_CHECK(fdt_parse("  -1 +  d4 ", &e) && e.nterms == 2 &&
		  t[0].sign == -1 && t[1].sides == 4, "leading sign, blanks");
	FDT_CHECK(fdt_parse("4d6xk3", &e) && t[0].explode == 6 && t[0].keep == 3,
		  "4d6xk3");
	FDT_CHECK(fdt_parse("4d6kl2x5", &e) && t[0].explode == 5 &&
		  t[0].keep == 2 && t[0].keep_low, "4d6kl2x5");
	FDT_CHECK(fdt_parse("1000000d2", &e) && e.dice == 1000000,
		  "a million dice");
	FDT_CHECK(fdt_parse("d18446744073", &e) && t[0].sides == 18446744073ULL,
		  "big die");
	FDT_CHECK(fdt_parse("7", &e) && e.nterms == 1 && e.dice == 0, "constant");
}

static const struct {
	const char *text;
	const char *why;	/* a part of the message */
} fdt_bad[] = {
	{ "", "empty" },
	{ "   ", "empty" },
	{ "3d", "missing number of sides after 'd' at position 2" },
	{ "d", "missing number of sides" },
	{ "3x6", "unexpected 'x' at position 2" },
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
		FDT_CHECK(ret < 0 && strstr(err, fdt_bad[i].why),
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
	struct fdc_dev dev;
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
	fdc_dev_close(&dev);
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
		FDT_CHECK(!bad, "4d6k3 wrong for %u of 1296 outcomes", bad);
		FDT_CHECK(!bad_low, "4d6kl1/4d6k1 wrong for %u outcomes",
			  bad_low);
	}

	v[0] = 5; v[1] = 3; v[2] = 2; v[3] = 0;
	ret = fdt_roll_script("4d6k3", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	FDT_CHECK(!ret && total == 13 && !strcmp(detail, "4d6k3[6 4 3 (1)]"),
		  "4d6k3 verbose: %lld '%s'", (long long)total, detail);

	/* Ties: the earlier dice are kept. */
	v[0] = 2; v[1] = 2; v[2] = 2; v[3] = 2;
	ret = fdt_roll_script("4d6k3", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	FDT_CHECK(!ret && total == 9 && !strcmp(detail, "4d6k3[3 3 3 (3)]"),
		  "4d6k3 ties: '%s'", detail);

	/* Every die its own roll with its own sides: 3d6+1d4+d%-2. */
	v[0] = 0; v[1] = 1; v[2] = 2; v[3] = 3; v[4] = 99;
	ret = fdt_roll_script("3d6+1d4+d%-2", v, 5, &total, detail,
			      sizeof(detail), &log, &log_len);
	FDT_CHECK(!ret && total == 1 + 2 + 3 + 4 + 100 - 2 &&
		  log_len == 5 && log[0] == 6 && log[1] == 6 && log[2] == 6 &&
		  log[3] == 4 && log[4] == 100,
		  "3d6+1d4+d%%-2: %lld, %zu rolls", (long long)total, log_len);
	FDT_CHECK(!strcmp(detail, "3d6[1 2 3] + 1d4[4] + 1d100[100] - 2"),
		  "verbose '%s'", detail);

	/* Exploding on the maximum: 6 -> 6 -> 2, and 3. */
	v[0] = 5; v[1] = 2; v[2] = 5; v[3] = 1;
	ret = fdt_roll_script("2d6x", v, 4, &total, detail, sizeof(detail),
			      &log, &log_len);
	FDT_CHECK(!ret && total == 17 && log_len == 4 &&
		  !strcmp(detail, "2d6x[6+6+2 3]"),
		  "2d6x: %lld '%s'", (long long)total, detail);

	/* Exploding on 9 or more: 9 -> 10 -> 4, and 1. */
	v[0] = 8; v[1] = 0; v[2] = 9; v[3] = 3;
	ret = fdt_roll_script("2d10x9", v, 4, &total, detail, sizeof(detail),
			      NULL, NULL);
	FDT_CHECK(!ret && total == 24 && !strcmp(detail, "2d10x9[9+10+4 1]"),
		  "2d10x9: %lld '%s'", (long long)total, detail);

	/* Explode, then keep the highest exploded die. */
	v[0] = 5; v[1] = 4; v[2] = 0;
	ret = fdt_roll_script("2d6xk1", v, 3, &total, detail, sizeof(detail),
			      NULL, NULL);
	FDT_CHECK(!ret && total == 7 && !strcmp(detail, "2d6xk1[6+1 (5)]"),
		  "2d6xk1: %lld '%s'", (long long)total, detail);

	/* Constants and signs need no device. */
	ret = fdt_roll_script("5-10", v, 0, &total, NULL, 0, &log, &log_len);
	FDT_CHECK(!ret && total == -5 && log_len == 0, "5-10 = %lld",
		  (long long)total);
	v[0] = 3;
	ret = fdt_roll_script("-d4", v, 1, &total, detail, sizeof(detail),
			      NULL, NULL);
	FDT_CHECK(!ret && total == -4 && !strcmp(detail, "-1d4[4]"),
		  "-d4: %lld '%s'", (long long)total, detail);

	/* A d1 needs a roll too, and it is 1. */
	v[0] = 0;
	ret = fdt_roll_script("d1", v, 1, &total, NULL, 0, &log, &log_len);
	FDT_CHECK(!ret && total == 1 && log_len == 1 && log[0] == 1, "d1");

	printf("three error messages expected:\n");

	/* Explosions past the total's range fail cleanly. */
	v[0] = INT64_MAX - 1; v[1] = 5;
	ret = fdt_roll_script("d9223372036854775807x", v, 2, &total, NULL, 0,
			      NULL, NULL);
	FDT_CHECK(ret == -1, "overflowing explosion gave %d", ret);

	/* ... and so do endless ones, after a million dice. */
	{
		size_t i;

		for (i = 0; i < ARRAY_SIZE(always_two); i++)
			always_two[i] = 1;
		ret = fdt_roll_script("d2x", always_two, ARRAY_SIZE(always_two),
				      &total, NULL, 0, NULL, NULL);
		FDT_CHECK(ret == -1, "a million explosions gave %d", ret);
	}

	/* A device error is passed on. */
	v[0] = 0;
	v[1] = 0;
	ret = fdt_roll_script("3d6", v, 2, &total, NULL, 0, NULL, NULL);
	FDT_CHECK(ret == -1, "a short script gave %d", ret);
}

/* Random rolls: the distribution of sums, and read-ahead per size. */
static void fdt_roll_random(void)
{
	struct fdc_dice_expr e, e2, e3;
	struct fdc_dev dev;
	const u64 *log;
	size_t log_len, i;
	u64 hist[19] = { 0 }, n = 216000, sides_bad = 0;
	double sum4 = 0, chi2 = 0, exact4 = 0;
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
	FDT_CHECK(!bad, "random rolls failed or out of range");
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
	FDT_CHECK(chi2 < 45, "3d6 chi-square %.1f", chi2);
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
	FDT_CHECK(fabs(sum4 / n - exact4) < 0.031,
		  "4d6k3 mean %.4f, exact %.4f", sum4 / n, exact4);
	printf("3d6 chi-square %.2f (15 dof); 4d6k3 mean %.4f, exact %.4f\n",
	       chi2, sum4 / n, exact4);
	fdc_dev_close(&dev);

	/* Interleaved sizes are read ahead per size: few SET_SIDES, and
	 * every roll used came from a device set to its own size.
	 */
	if (fdc_fake_open(&dev, 7))
		abort();
	for (i = 0; i < 10000; i++)
		bad |= fdc_dice_roll(&e3, &dev, &total, NULL);
	log_len = fdc_fake_log(&dev, &log);
	for (i = 0; i < log_len; i++)
		sides_bad += log[i] != 6 && log[i] != 4;
	FDT_CHECK(!bad && !sides_bad && log_len >= 40000 &&
		  dev.set_sides_calls < 100,
		  "3d6+1d4 x 10000: %zu rolls read, %llu SET_SIDES",
		  log_len, (unsigned long long)dev.set_sides_calls);
	printf("3d6+1d4 x 10000: %zu rolls read for 40000 dice, %llu SET_SIDES\n",
	       log_len, (unsigned long long)dev.set_sides_calls);
	fdc_dev_close(&dev);

	/* Without read-ahead: exactly 6 6 6 4, again and again. */
	if (fdc_fake_open(&dev, 7))
		abort();
	dev.max_ahead = 1;
	for (i = 0; i < 100; i++)
		bad |= fdc_dice_roll(&e3, &dev, &total, NULL);
	log_len = fdc_fake_log(&dev, &log);
	for (i = 0, sides_bad = 0; i < log_len; i++)
		sides_bad += log[i] != (i % 4 == 3 ? 4U : 6U);
	FDT_CHECK(!bad && log_len == 400 && !sides_bad &&
		  dev.set_sides_calls == 200,
		  "no read-ahead: %zu rolls, %llu SET_SIDES", log_len,
		  (unsigned long long)dev.set_sides_calls);
	fdc_dev_close(&dev);
}

int main(void)
{
	fdt_parse_good();
	fdt_parse_bad();
	fdt_roll_scripted();
	fdt_roll_random();
	return fdt_summary();
}
