// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - dice expressions: the parser and Roll20's meanings,
 * rolling against the stand-in device with scripted and with random
 * rolls, and the exact distributions of 'roll --stats' against every
 * sequence of rolls the roller can make.
 */

#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "fd_check.h"

static bool fdt_parse(const char *text, struct fdc_dice_expr *e)
{
	char err[256];

	if (fdc_dice_parse(text, e, err, sizeof(err))) {
		printf("unexpected parse error for '%s': %s\n", text, err);
		return false;
	}
	return true;
}

static const struct fdc_dice_term *fdt_term(const char *text,
					    struct fdc_dice_expr *e)
{
	if (!fdt_parse(text, e) || e->node[e->root].kind != FDC_NODE_DICE)
		return NULL;
	return &e->node[e->root].dice;
}

/* Roll20's compare points, inclusive, and what binds to what. */
static void fdt_parse_good(void)
{
	struct fdc_dice_expr e;
	const struct fdc_dice_term *t;

	t = fdt_term("3d6!>4", &e);
	CHECK(t && t->explode == FDC_EXPLODE_EACH &&
	      t->explode_on.op == FDC_CMP_GE && t->explode_on.value == 4 &&
	      !t->mods.success.op, "3d6!>4 explodes on 4 or more");
	t = fdt_term("1d6!3", &e);
	CHECK(t && t->explode_on.op == FDC_CMP_EQ && t->explode_on.value == 3,
	      "1d6!3 explodes on 3 only");
	t = fdt_term("2d6!", &e);
	CHECK(t && t->explode_on.op == FDC_CMP_EQ && t->explode_on.value == 6,
	      "2d6! explodes on 6");
	t = fdt_term("3d6!<2", &e);
	CHECK(t && t->explode_on.op == FDC_CMP_LE && t->explode_on.value == 2,
	      "3d6!<2 explodes on 2 or less");
	t = fdt_term("5d6!!", &e);
	CHECK(t && t->explode == FDC_EXPLODE_COMPOUND, "5d6!! compounds");
	t = fdt_term("5d6!p>5", &e);
	CHECK(t && t->explode == FDC_EXPLODE_PENETRATE &&
	      t->explode_on.op == FDC_CMP_GE, "5d6!p>5 penetrates");
	t = fdt_term("2d10x9", &e);
	CHECK(t && t->explode == FDC_EXPLODE_WHOLE &&
	      t->explode_on.op == FDC_CMP_GE && t->explode_on.value == 9,
	      "2d10x9: fairdie's own, 9 or more");
	t = fdt_term("3d6>3", &e);
	CHECK(t && t->mods.success.op == FDC_CMP_GE &&
	      t->mods.success.value == 3, "3d6>3 counts 3 or more");
	t = fdt_term("10d6<4", &e);
	CHECK(t && t->mods.success.op == FDC_CMP_LE, "10d6<4 counts 4 or less");
	t = fdt_term("10d10>=8f1", &e);
	CHECK(t && t->mods.success.op == FDC_CMP_GE &&
	      t->mods.failure.op == FDC_CMP_EQ && t->mods.failure.value == 1,
	      "10d10>=8f1");
	t = fdt_term("4d6r<2", &e);
	CHECK(t && t->nreroll == 1 && t->reroll[0].op == FDC_CMP_LE &&
	      t->reroll[0].value == 2 && !t->reroll_once, "4d6r<2: 1 and 2");
	t = fdt_term("2d6ro1", &e);
	CHECK(t && t->reroll_once, "2d6ro1 rerolls once");
	t = fdt_term("4d6dl1", &e);
	CHECK(t && fdc_dice_kept_count(&t->mods, 4) == 3 && !t->mods.keep_low,
	      "4d6dl1 keeps the 3 highest");
	t = fdt_term("4d6dh1", &e);
	CHECK(t && fdc_dice_kept_count(&t->mods, 4) == 3 && t->mods.keep_low,
	      "4d6dh1 keeps the 3 lowest");
	t = fdt_term("4d6kl2", &e);
	CHECK(t && t->mods.keep == 2 && t->mods.keep_low, "4d6kl2");
	t = fdt_term("4d6ra1mi2", &e);
	CHECK(t && t->has_ra && t->ra == 1 && t->has_min && t->min_face == 2,
	      "4d6ra1mi2");
	t = fdt_term("{5d6!!}>8", &e);
	CHECK(t && t->explode == FDC_EXPLODE_COMPOUND &&
	      t->mods.success.value == 8, "{5d6!!}>8 counts dice");
	CHECK(fdt_parse("6x4d6k3", &e) && e.repeat == 6, "6x4d6k3");
	CHECK(fdt_parse("13 % 2", &e) && e.node[e.root].kind == FDC_NODE_MOD,
	      "13 %% 2");
	CHECK(fdt_parse("1d20[fire] + 1d6 [cold]", &e) &&
	      e.node[e.root].kind == FDC_NODE_ADD, "inline labels");
	CHECK(fdt_parse("0d6", &e) && e.node[e.root].hi == 0, "0d6");
	CHECK(fdt_parse("2*1d6", &e) && fdt_parse("(1d4+1)*3", &e) &&
	      fdt_parse("{4d6,3d8}k1", &e) && fdt_parse("floor(7/2)", &e) &&
	      fdt_parse("ceil(d20/3) + round(2d6/4) - abs(d4-d6)", &e) &&
	      fdt_parse("d%", &e) && fdt_parse("4dF", &e) &&
	      fdt_parse("D20 + 4", &e) && fdt_parse("d18446744073", &e),
	      "arithmetic and functions around dice");
}

static const struct {
	const char *text;
	const char *why;	/* a part of the message */
} fdt_bad[] = {
	{ "", "empty" },
	{ "   ", "empty" },
	{ "3 d6", "a blank at position 2 splits the dice: write 3d6" },
	{ "d20/2", "Roll20 keeps fractions" },
	{ "1d6+7/2", "Roll20 keeps fractions" },
	{ "4d6!k3", "Roll20 ranks each new face" },
	{ "4d6!pdl1", "Roll20 ranks each new face" },
	{ "4d6ra>5", "avrae reads '>' and '<' strictly" },
	{ "10d10f1", "failures need a success compare point" },
	{ "{2d6,1d8}f1", "failures need a success compare point" },
	{ "d6x1", "every face explodes" },
	{ "d6!<6", "every face explodes" },
	{ "d1!", "every face explodes" },
	{ "d6r<6", "rerolled forever" },
	{ "d2r1r2", "rerolled forever" },
	{ "2d6r1r2r3r4r5", "more than 4 rerolls" },
	{ "2d6r1ro2", "'r' and 'ro' together" },
	{ "d6/0", "can be 0" },
	{ "floor(d6/(d3-2))", "can be 0" },
	{ "d6 % (d3-1)", "can be 0" },
	{ "floor(d6/2) % 2", "" },
	{ "(d6/2) % 2", "'%' of a fraction" },
	{ "{d6/2}", "an item of {...} can be a fraction" },
	{ "2**3", "powers" },
	{ "4d6s", "sorting" },
	{ "4d6mt", "matching" },
	{ "(1+1)d6", "computed dice counts" },
	{ "d(2*3)", "computed sides" },
	{ "4dF!", "fudge dice do not explode" },
	{ "4d6k3k2", "a second keep or drop" },
	{ "2d6!!x", "a second explosion" },
	{ "4d6mi2!", "'mi' and 'ma' do not go with explosions" },
	{ "4d6ra1k3", "'ra' goes with r, ro, mi and ma only" },
	{ "1d20[fire", "has no ']'" },
	{ "10d10>", "the target number" },
	{ "4d6q", "unexpected 'q' at position 4" },
	{ "d0", "at least 1 side" },
	{ "4d6k", "number of dice to keep" },
	{ "1000001d6", "too many dice" },
	{ "3d6+", "at the end" },
	{ "3d6 2", "unexpected '2' at position 5" },
	{ "3d6,2", "unexpected ','" },
	{ "99999999999999999999d6", "number too large at position 1" },
	{ "2d18446744073709551615", "leave 64 bits, beyond 2^64-1" },
	{ "d18446744073709551615*2", "leave 64 bits, beyond 2^64-1" },
	{ "-d18446744073709551615-1", "leave 64 bits, beyond -(2^64-1)" },
	{ "18446744073709551616", "number too large at position 1 (at most 2^64-1)" },
	{ "d18446744073709551615", "" },
	{ "18446744073709551615", "" },
	{ "-18446744073709551615", "" },
	{ "d9223372036854775807", "" },
	{ "9223372036854775807", "" },
	/* Keeping or dropping more dice or items than there are. */
	{ "3d6k4", "cannot keep 4 of 3 dice" },
	{ "3d6d4", "cannot drop 4 of 3 dice" },
	{ "3d6kl4", "cannot keep 4 of 3 dice" },
	{ "{3d6}k4", "cannot keep 4 of 3 dice" },
	{ "3d6k3", "" },
	{ "3d6d3", "" },
	{ "{1d6,1d8}k3", "cannot keep 3 of 2 items" },
	{ "{4d6+3d8}k8", "cannot keep 8 of 7 dice" },
	{ "{4d6+3d8}dh8", "cannot drop 8 of 7 dice" },
	/* A group of one roll: Roll20's meaning, or a refusal. */
	{ "{4d6+3d8}k7", "" },
	{ "{2d6*2}k1", "a group of one roll keeps, drops or counts its dice" },
	{ "{2d6-1d4}k1", "a group of one roll keeps, drops or counts its dice" },
	{ "{floor(2d6/2)}>3", "a group of one roll keeps, drops or counts" },
	{ "{2d6+1}k1", "add it after the '}'" },
	{ "{2d6+1d4}k1>3", "keeping and counting in one group" },
	{ "{4d6!+1d4}k2", "Roll20 ranks each new face" },
	{ "{4d6k3+1d4}k2", "a keep or compare point inside {...} and after it" },
	{ "{3d6ra1+1d4}>3", "'ra' goes with r, ro, mi and ma only" },
	{ "{3d20+5}>21f<10", "" },
	{ "{3d20-5+1d4}<3", "" },
	{ "0x3d6", "the repeat count must be 1 to" },
	{ "3d6\033[31m", "unexpected '\\x1b' at position 4" },
	{ "foo(3)", "unknown word at position 1: the functions are floor, ceil" },
};

static void fdt_parse_bad(void)
{
	struct fdc_dice_expr e;
	char err[256];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(fdt_bad); i++) {
		err[0] = '\0';
		ret = fdc_dice_parse(fdt_bad[i].text, &e, err, sizeof(err));
		if (!*fdt_bad[i].why) {
			CHECK(!ret, "'%s' refused: %s", fdt_bad[i].text, err);
			continue;
		}
		CHECK(ret < 0 && strstr(err, fdt_bad[i].why),
		      "'%s': ret %d, message '%s', want '%s'",
		      fdt_bad[i].text, ret, err, fdt_bad[i].why);
	}
}

/* Roll @text once with the scripted rolls @vals (0-based). */
static int fdt_roll_script(const char *text, const u64 *vals, size_t n,
			   s128 *total, char *detail, size_t size)
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
	ret = fdc_dice_roll(&e, &dev, total, trace, NULL);
	if (trace)
		fclose(trace);
	fdc_engine_close(&dev);
	return ret;
}

/* The meaning of each form on one chosen sequence of rolls. */
static void fdt_roll_scripted(void)
{
	static const struct {
		const char *text;
		u64 v[12];
		size_t n;
		s128 total;
		const char *detail;
	} cases[] = {
		/* Roll20: {4d6+3d8}k4 keeps the highest four of the seven. */
		{ "{4d6+3d8}k4", { 0, 5, 1, 5, 3, 0, 6 }, 7, 23,
		  "{4d6[(1) 6 (2) 6] + 3d8[4 (1) 7]}k4" },
		{ "{4d6+3d8}kh1", { 0, 5, 1, 5, 3, 0, 6 }, 7, 7,
		  "{4d6[(1) (6) (2) (6)] + 3d8[(4) (1) 7]}k1" },
		{ "{2d6+1d4}kl1", { 4, 2, 3 }, 3, 3, "{2d6[(5) 3] + 1d4[(4)]}kl1" },
		{ "{2d6+1d4}d1", { 4, 2, 0 }, 3, 8, "{2d6[5 3] + 1d4[(1)]}d1" },
		{ "{2d6+(1d4)}dh2", { 4, 2, 0 }, 3, 1, "{2d6[(5) (3)] + 1d4[1]}dh2" },
		{ "{4d6+3d8}k4+2", { 0, 5, 1, 5, 3, 0, 6 }, 7, 25,
		  "{4d6[(1) 6 (2) 6] + 3d8[4 (1) 7]}k4 + 2" },
		/* {3d20+5}>21: each d20 plus 5 against 21. */
		{ "{3d20+5}>21", { 15, 14, 19 }, 3, 2, "{3d20[16 15 20] + 5}>21" },
		{ "{3d20+5}>21f<10", { 15, 2, 3 }, 3, -1,
		  "{3d20[16 3 4] + 5}>21f<10" },
		{ "{2d6-1+1d4}<2", { 1, 2, 0 }, 3, 3, "{2d6[2 3] + 1d4[1] - 1}<2" },
		{ "{2d6!!+1d4}>5", { 5, 0, 3, 3 }, 4, 1,
		  "{2d6!![6+1 4] + 1d4[4]}>5" },
		/* Numbers and faces up to 2^64 - 1. */
		{ "d18446744073709551615", { UINT64_MAX - 1 }, 1,
		  (s128)UINT64_MAX, "1d18446744073709551615[18446744073709551615]" },
		{ "d9223372036854775807+9223372036854775807",
		  { 9223372036854775806ULL }, 1, (s128)UINT64_MAX - 1,
		  "1d9223372036854775807[9223372036854775807] + 9223372036854775807" },
		{ "-18446744073709551615+1d2", { 0 }, 1,
		  -(s128)UINT64_MAX + 1, "-(18446744073709551615) + 1d2[1]" },
		{ "4d6k3", { 5, 3, 2, 0 }, 4, 13, "4d6k3[6 4 3 (1)]" },
		{ "4d6k3", { 2, 2, 2, 2 }, 4, 9, "4d6k3[3 3 3 (3)]" },
		{ "4d6dl1", { 0, 5, 3, 2 }, 4, 13, "4d6d1[(1) 6 4 3]" },
		{ "4d6dh1", { 0, 5, 3, 2 }, 4, 8, "4d6dh1[1 (6) 4 3]" },
		/* 5 explodes (4 or more), then 2; 6 then 3; 1. */
		{ "3d6!>4", { 4, 1, 5, 2, 0 }, 5, 17, "3d6!>4[5 2 6 3 1]" },
		/* Exactly 3 explodes, 4 does not. */
		{ "2d6!3", { 2, 3, 3 }, 3, 11, "2d6!=3[3 4 4]" },
		/* Compounding: one die of 6+6+1. */
		{ "2d6!!", { 5, 5, 0, 1 }, 4, 15, "2d6!![6+6+1 2]" },
		/* Penetrating: the new faces less one. */
		{ "1d6!p", { 5, 5, 2 }, 3, 6 + 5 + 2, "1d6!p[6 5 2]" },
		{ "2d6x", { 5, 5, 1, 2 }, 4, 17, "2d6x[6+6+2 3]" },
		{ "2d10x9", { 8, 9, 3, 0 }, 4, 24, "2d10x9[9+10+4 1]" },
		{ "2d6xk1", { 5, 0, 4 }, 3, 7, "2d6xk1[6+1 (5)]" },
		/* Inclusive compare points: 3 counts in >3, 4 in <4. */
		{ "3d6>3", { 2, 1, 5 }, 3, 2, "3d6>3[3 2 6]" },
		{ "3d6<4", { 3, 4, 0 }, 3, 2, "3d6<4[4 5 1]" },
		{ "4d10>8f1", { 7, 0, 9, 4 }, 4, 1, "4d10>8f=1[8 1 10 5]" },
		/* {5d6!!}>8: compounded dice against 8. */
		{ "{2d6!!}>8", { 5, 2, 4 }, 3, 1, "2d6!!>8[6+3 5]" },
		/* ro: a 1 or 2 is rolled once more and stands. */
		{ "2d6ro<2", { 1, 0, 3 }, 3, 5, "2d6ro<2[1 4]" },
		/* r<2 rolls once among 3..6: roll 0 of 4 is 3. */
		{ "1d6r<2", { 0 }, 1, 3, "1d6r<2[3]" },
		/* r1r3: of 2, 4, 5, 6, roll 1 is 4. */
		{ "1d6r1r3", { 1 }, 1, 4, "1d6r=1r=3[4]" },
		{ "4d6mi3", { 0, 1, 2, 5 }, 4, 3 + 3 + 3 + 6, "4d6mi3[3 3 3 6]" },
		{ "2d6ma4", { 0, 5 }, 2, 5, "2d6ma4[1 4]" },
		/* ra1: the first 1 brings one more die. */
		{ "3d6ra1", { 0, 0, 4, 3 }, 4, 1 + 1 + 5 + 4, "3d6ra1[1 1 5 4]" },
		{ "3d6ra1", { 1, 2, 3 }, 3, 9, "3d6ra1[2 3 4]" },
		{ "{1d6+1,1d4}k1", { 1, 3 }, 2, 4, "{1d6[2] + 1, 1d4[4]}k1" },
		{ "{1d6,1d6,1d6}>4", { 3, 2, 5 }, 3, 2, "{1d6[4], 1d6[3], 1d6[6]}>4" },
		{ "(1d4+1)*3", { 1 }, 1, 9, "(1d4[2] + 1)*3" },
		{ "2*1d6", { 4 }, 1, 10, "2*1d6[5]" },
		{ "floor(1d20/2)", { 4 }, 1, 2, "floor(1d20[5]/2)" },
		{ "ceil(1d20/2)", { 4 }, 1, 3, "ceil(1d20[5]/2)" },
		{ "round(1d20/2)", { 4 }, 1, 3, "round(1d20[5]/2)" },
		{ "round(1d20/4)", { 4 }, 1, 1, "round(1d20[5]/4)" },
		{ "floor(-1d20/2)", { 4 }, 1, -3, "floor(-(1d20[5])/2)" },
		{ "1d20 % 7", { 19 }, 1, 6, "1d20[20] % 7" },
		{ "(1d4-5) % 3", { 0 }, 1, -1, "(1d4[1] - 5) % 3" },
		{ "abs(1d4-1d6)", { 0, 5 }, 2, 5, "abs(1d4[1] - 1d6[6])" },
		{ "1d20[fire]+2", { 9 }, 1, 12, "1d20[10] + 2" },
		{ "0d6+1", { 0 }, 0, 1, "0d6[] + 1" },
		{ "5-10", { 0 }, 0, -5, "5 - 10" },
		{ "-d4", { 3 }, 1, -4, "-(1d4[4])" },
		{ "4dF", { 0, 1, 2, 2 }, 4, 1, "4dF[-1 +0 +1 +1]" },
	};
	char detail[256], got[48], want[48];
	unsigned int i;
	s128 total;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ret = fdt_roll_script(cases[i].text, cases[i].v, cases[i].n,
				      &total, detail, sizeof(detail));
		CHECK(!ret && total == cases[i].total &&
		      !strcmp(detail, cases[i].detail),
		      "%s: %d, total %s '%s', want %s '%s'", cases[i].text,
		      ret, fdc_dice_str(total, got), detail,
		      fdc_dice_str(cases[i].total, want), cases[i].detail);
	}
}

/*
 * Explosions have one limit, the same every time: a die that keeps
 * exploding stops after FDC_DICE_MAX_EXPLODE new faces, and the roll
 * succeeds (it used to fail at random past a million dice).
 */
static void fdt_roll_limit(void)
{
	static u64 ones[FDC_DICE_MAX_EXPLODE + 2];
	struct fdc_dice_expr e;
	struct fdc_engine dev;
	unsigned int deepest, i;
	const u64 *log;
	s128 total;
	int ret;

	/* The first die shows 2 every time, the second 1. */
	for (i = 0; i < ARRAY_SIZE(ones) - 1; i++)
		ones[i] = 1;
	if (!fdt_parse("2d2!", &e) || fdc_fake_open(&dev, 1))
		abort();
	fdc_fake_script(&dev, ones, ARRAY_SIZE(ones));
	ret = fdc_dice_roll(&e, &dev, &total, NULL, &deepest);
	CHECK(!ret && deepest == FDC_DICE_MAX_EXPLODE &&
	      total == 2 * (FDC_DICE_MAX_EXPLODE + 1) + 1 &&
	      fdc_fake_log(&dev, &log) == FDC_DICE_MAX_EXPLODE + 2,
	      "2d2! on endless 2s: %d, %lld after %u explosions", ret,
	      (long long)total, deepest);
	fdc_engine_close(&dev);
	/* 500000d2! never fails. */
	if (!fdt_parse("500000d2!", &e))
		abort();
	for (i = 1, ret = 0; i <= 6; i++) {
		if (fdc_fake_open(&dev, i))
			abort();
		ret |= fdc_dice_roll(&e, &dev, &total, NULL, NULL);
		fdc_engine_close(&dev);
	}
	CHECK(!ret, "500000d2! failed");
}

/* ------------------------------------------------------------------------
 * Distributions against every sequence of rolls
 */

/**
 * struct fdt_walk - the exact distribution found by trying every
 *	sequence of rolls the roller asks for
 * @e: the expression
 * @lo: its least total
 * @p: the probability of each total from @lo
 * @n: how many totals
 * @max_depth: record only rolls whose dice explode at most this often
 * @max_len: and stop sequences longer than this
 * @paths: sequences tried
 * @bad: a roll went wrong
 */
struct fdt_walk {
	struct fdc_dice_expr e;
	s64 lo;
	mpq_t *p;
	size_t n;
	unsigned int max_depth;
	size_t max_len;
	u64 paths;
	bool bad;
};

static void fdt_walk(struct fdt_walk *w, u64 *script, size_t len, mpq_t weight)
{
	struct fdc_engine dev;
	unsigned int deepest;
	const u64 *log;
	size_t log_len;
	u64 sides, v;
	s128 total;
	mpq_t next;
	int ret;

	if (fdc_fake_open(&dev, 1))
		abort();
	fdc_fake_script(&dev, script, len);
	ret = fdc_dice_roll(&w->e, &dev, &total, NULL, &deepest);
	log_len = fdc_fake_log(&dev, &log);
	sides = log_len > len ? log[len] : 0;
	fdc_engine_close(&dev);
	w->paths++;
	if (!ret) {
		if (log_len != len || total < w->lo ||
		    total >= w->lo + (s64)w->n) {
			w->bad = true;
			return;
		}
		if (deepest <= w->max_depth)
			mpq_add(w->p[total - w->lo], w->p[total - w->lo], weight);
		return;
	}
	if (log_len != len + 1 || !sides) {
		w->bad = true;
		return;
	}
	if (len == w->max_len)
		return;
	mpq_init(next);
	mpq_set_ui(next, 1, sides);
	mpq_mul(next, next, weight);
	for (v = 0; v < sides; v++) {
		script[len] = v;
		fdt_walk(w, script, len + 1, next);
	}
	mpq_clear(next);
}

/*
 * @text's distribution from fdc_dice_dist() against the one the roller
 * makes over all its sequences of rolls, fraction by fraction; with
 * @explode_max explosions per die at most (0: the tool's limit, and the
 * rolls followed as deep as the distribution goes).
 */
static void fdt_dist_one(const char *text, unsigned int explode_max,
			 const char *control)
{
	static u64 script[256];
	struct fdc_dice_dist d, dc;
	struct fdt_walk *w;
	mpq_t q, one, rest, sum;
	char err[256];
	size_t i, bad = 0, mass_bad = 0;
	int saved;

	w = calloc(1, sizeof(*w));
	if (!w || !fdt_parse(text, &w->e))
		abort();
	if (explode_max)
		w->e.explode_max = explode_max;
	if (fdc_dice_dist(&w->e, &d, err, sizeof(err))) {
		CHECK(0, "%s: no distribution: %s", text, err);
		free(w);
		return;
	}
	w->lo = w->e.node[w->e.root].lo;
	w->n = (size_t)(w->e.node[w->e.root].hi - w->lo) + 1;
	w->max_depth = d.depth;
	w->max_len = ARRAY_SIZE(script);
	w->p = malloc(w->n * sizeof(*w->p));
	if (!w->p)
		abort();
	for (i = 0; i < w->n; i++)
		mpq_init(w->p[i]);
	mpq_init(q);
	mpq_init(one);
	mpq_init(rest);
	mpq_init(sum);
	mpq_set_ui(one, 1, 1);
	saved = fd_check_stderr_off();
	fdt_walk(w, script, 0, one);
	fd_check_stderr_on(saved);
	/* Every total of the walk is in the distribution, with its mass. */
	for (i = 0; i < w->n; i++) {
		s64 t = w->lo + (s64)i;
		size_t k;

		mpq_set_ui(q, 0, 1);
		k = (size_t)((t - d.min) / d.step);
		if (t >= d.min && (t - d.min) % d.step == 0 && k < d.n) {
			mpq_set_num(q, d.w[k]);
			mpq_set_den(q, d.den);
			mpq_canonicalize(q);
		}
		bad += !mpq_equal(q, w->p[i]);
		mpq_add(sum, sum, w->p[i]);
	}
	fdc_dice_dist_rest(&d, rest);
	mpq_add(sum, sum, rest);
	mass_bad = !mpq_equal(sum, one);
	CHECK(!w->bad && !bad && !mass_bad,
	      "%s: %zu totals differ from the %llu sequences of rolls%s%s",
	      text, bad, (unsigned long long)w->paths,
	      w->bad ? ", a roll went wrong" : "",
	      mass_bad ? ", the rest does not add up" : "");
	/* A control: another expression's distribution must differ. */
	if (control) {
		struct fdc_dice_expr ec;

		bad = 0;
		if (!fdt_parse(control, &ec))
			abort();
		if (explode_max)
			ec.explode_max = explode_max;
		if (fdc_dice_dist(&ec, &dc, err, sizeof(err)))
			abort();
		for (i = 0; i < w->n; i++) {
			s64 t = w->lo + (s64)i;
			size_t k;

			mpq_set_ui(q, 0, 1);
			k = (size_t)((t - dc.min) / dc.step);
			if (t >= dc.min && (t - dc.min) % dc.step == 0 &&
			    k < dc.n) {
				mpq_set_num(q, dc.w[k]);
				mpq_set_den(q, dc.den);
				mpq_canonicalize(q);
			}
			bad += !mpq_equal(q, w->p[i]);
		}
		CHECK(bad, "control: %s has the distribution of %s", control,
		      text);
		fdc_dice_dist_free(&dc);
	}
	printf("exact: %-18s %9llu sequences of rolls, %zu totals, depth %u\n",
	       text, (unsigned long long)w->paths, d.n, d.depth);
	for (i = 0; i < w->n; i++)
		mpq_clear(w->p[i]);
	free(w->p);
	free(w);
	mpq_clear(q);
	mpq_clear(one);
	mpq_clear(rest);
	mpq_clear(sum);
	fdc_dice_dist_free(&d);
}

static void fdt_dist(void)
{
	struct fdc_dice_expr e;
	struct fdc_dice_dist d;
	char err[256], seventeen[80] = "{";
	mpq_t rest;
	unsigned int i;

	fdt_dist_one("3d6", 0, "3d6+1");
	fdt_dist_one("4d6k3", 0, "4d6kl3");
	fdt_dist_one("4d6kl2", 0, NULL);
	fdt_dist_one("5d4dh2", 0, "5d4dl2");
	fdt_dist_one("4d6dl1 - 2", 0, NULL);
	fdt_dist_one("3d6>3", 0, "3d6>4");
	fdt_dist_one("4d6<2", 0, NULL);
	fdt_dist_one("5d6=6", 0, NULL);
	fdt_dist_one("4d6>4f1", 0, "4d6>4");
	fdt_dist_one("4d6r<2", 0, "4d6r1");
	fdt_dist_one("2d6r1r6", 0, NULL);
	fdt_dist_one("3d6ro<2", 0, "3d6r<2");
	fdt_dist_one("2d6!", 3, NULL);
	fdt_dist_one("2d6!3", 3, "2d6!>3");
	fdt_dist_one("2d6!>4", 2, NULL);
	fdt_dist_one("2d4!<1", 3, NULL);
	fdt_dist_one("2d4!!", 3, "2d4!p");
	fdt_dist_one("2d4!p", 3, "2d4!");
	fdt_dist_one("{2d4!!}>5", 3, "{2d4!}>5");
	fdt_dist_one("2d6x5", 2, NULL);
	fdt_dist_one("3d4xk2", 2, NULL);
	fdt_dist_one("3d4x>3", 2, NULL);
	fdt_dist_one("{3d4!!}>5", 2, NULL);
	fdt_dist_one("3d4!>4>3f1", 2, NULL);
	fdt_dist_one("{2d6,1d8}k1", 0, "{2d6,1d8}kl1");
	fdt_dist_one("{2d6,1d8}kl1", 0, NULL);
	fdt_dist_one("{1d6,1d6+1,1d4}>3", 0, NULL);
	fdt_dist_one("{2d4+1,1d6}", 0, NULL);
	fdt_dist_one("{1d6,1d8}d1", 0, NULL);
	fdt_dist_one("2*1d6", 0, NULL);
	fdt_dist_one("(1d4+1)*3", 0, NULL);
	fdt_dist_one("floor(3d6/4)", 0, "ceil(3d6/4)");
	fdt_dist_one("ceil(2d6/3)", 0, NULL);
	fdt_dist_one("round(2d6/4)", 0, NULL);
	fdt_dist_one("floor(-2d6/3)", 0, NULL);
	fdt_dist_one("2d6 % 3", 0, NULL);
	fdt_dist_one("(1d6-1d8) % 3", 0, NULL);
	fdt_dist_one("abs(1d6-1d8)", 0, NULL);
	fdt_dist_one("-1d4+1d6*2", 0, NULL);
	fdt_dist_one("0d6+1d4[fire]", 0, NULL);
	fdt_dist_one("4d6ra1", 0, "4d6");
	fdt_dist_one("3d6mi2", 0, NULL);
	fdt_dist_one("3d6ma4", 0, NULL);
	fdt_dist_one("3d6r1mi3ma5", 0, NULL);
	fdt_dist_one("4dF+1d4", 0, NULL);
	fdt_dist_one("d%", 0, NULL);
	/* Over pairs of values: products, quotients, remainders. */
	fdt_dist_one("1d6*1d6", 0, "1d6*6");
	fdt_dist_one("(1d4+1)*2d6", 0, "(1d4+1)*2d6+1");
	fdt_dist_one("floor(1d20/1d4)", 0, "ceil(1d20/1d4)");
	fdt_dist_one("ceil(1d20/1d4)", 0, "round(1d20/1d4)");
	fdt_dist_one("round(1d20/1d4)", 0, NULL);
	fdt_dist_one("round(-1d7/1d4)", 0, NULL);
	fdt_dist_one("floor(1d6/2 - 1d4/3)*2", 0, NULL);
	fdt_dist_one("abs(floor(-1d6*1d4/1d3))", 0, NULL);
	fdt_dist_one("1d20 % 1d6", 0, "1d20 % 6");
	fdt_dist_one("(1d6-1d8) % 1d3", 0, NULL);
	fdt_dist_one("2d4!*1d3", 2, NULL);
	/* Successes among kept dice, and among kept items. */
	fdt_dist_one("4d6kh3>4", 0, "4d6kl3>4");
	fdt_dist_one("4d6kl3>4", 0, NULL);
	fdt_dist_one("5d4dh2>3f1", 0, "5d4dl2>3f1");
	fdt_dist_one("3d4!!k2>5", 2, NULL);
	fdt_dist_one("{1d6,1d8,1d10}kh2>4", 0, "{1d6,1d8,1d10}>4");
	fdt_dist_one("{1d6,1d4,1d8}kl1>3f1", 0, NULL);
	/* Keeping 2 or more items of a group, not all. */
	fdt_dist_one("{1d6,1d8,1d10}kh2", 0, "{1d6,1d8,1d10}kl2");
	fdt_dist_one("{1d6,1d8,1d10}kl2", 0, NULL);
	fdt_dist_one("{3d6,2d8,1d20}dl1", 0, "{3d6,2d8,1d20}dh1");
	fdt_dist_one("{1d4,1d4+1,-1d3,1d2}dh2", 0, NULL);
	fdt_dist_one("{1d4!,1d6,1d3}kh2>3f1", 2, NULL);
	fdt_dist_one("round(1d4!/1d3)", 2, NULL);
	fdt_dist_one("4dFkh2>0", 0, "4dFkl2>0");
	/* Kept by the sum of their faces, counted face by face: x. */
	fdt_dist_one("3d4xk2>3", 2, "3d4xkl2>3");
	fdt_dist_one("3d4xkl2>3", 2, NULL);
	fdt_dist_one("4d6xkh3>5f1", 2, "4d6xkh3>5");
	fdt_dist_one("3d4x3dh1>3f2", 1, NULL);
	fdt_dist_one("3d6xk2>4", 3, NULL);
	/* A group of one roll: its dice kept or counted (Roll20). */
	fdt_dist_one("{2d4+1d6}k2", 0, "{2d4+1d6}kl2");
	fdt_dist_one("{2d4+1d6}kl2", 0, "{2d4,1d6}kl1");
	fdt_dist_one("{1d4+2d3}k1", 0, "{1d4+2d3}kl1");
	fdt_dist_one("{1d4+2d3}kl1", 0, NULL);
	fdt_dist_one("{2d4+1d6}d1", 0, "{2d4+1d6}dh1");
	fdt_dist_one("{2d4+1d3+1d2}dh2", 0, NULL);
	fdt_dist_one("{2d4+1d6}k3", 0, "2d4+1d6+1");
	fdt_dist_one("{2d4+1d6}k0", 0, "{2d4+1d6}k1");
	fdt_dist_one("{1d4!!+1d3}k1", 2, "{1d4!!+1d3}kl1");
	fdt_dist_one("{2d3x+1d4}k2", 2, NULL);
	fdt_dist_one("{2d4+1d3}>3", 0, "{2d4+1d3}>2");
	fdt_dist_one("{2d3+2+1d4}>4f1", 0, "{2d3+1d4}>4f1");
	fdt_dist_one("{2d3-1+1d4!}>3", 2, NULL);
	fdt_dist_one("{2d4+2d3}k1", 0, "{2d4,2d3}k1");
	fdt_dist_one("{2d3+1d4+1d2}k2", 0, "{2d3+1d4+1d2}kl2");
	fdt_dist_one("{3d2+2d3}kl3", 0, "{3d2+2d3}k3");
	fdt_dist_one("{2d3+2d2}dh1", 0, NULL);
	fdt_dist_one("{1d3!!+2d2}k2", 2, NULL);
	fdt_dist_one("{3d3+1d4}kl1", 0, "{3d3+1d4}k1");
	/* With the tool's limit: depth chosen, the rest accounted for. */
	fdt_dist_one("2d6!", 0, NULL);
	fdt_dist_one("1d4!!", 0, NULL);

	/* The rest of 1d6! at depth D is (1/6)^(D+1). */
	CHECK(fdt_parse("1d6!", &e) && !fdc_dice_dist(&e, &d, err, sizeof(err)),
	      "1d6!: %s", err);
	mpq_init(rest);
	fdc_dice_dist_rest(&d, rest);
	{
		mpz_t den;

		mpz_init(den);
		mpz_ui_pow_ui(den, 6, d.depth + 1);
		CHECK(d.depth >= 10 && !mpz_cmp_ui(mpq_numref(rest), 1) &&
		      !mpz_cmp(mpq_denref(rest), den),
		      "1d6!: depth %u, rest not (1/6)^(depth+1)", d.depth);
		mpz_clear(den);
	}
	mpq_clear(rest);
	fdc_dice_dist_free(&d);
	/* Sizes are checked first: these are refused at once. */
	CHECK(fdt_parse("1000000d6", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "too large"), "1000000d6 refused: '%s'", err);
	for (i = 0; i < 17; i++)
		memcpy(seventeen + 1 + 4 * i, i < 16 ? "1d6," : "1d6}k2", 4 + 2 * (i == 16));
	CHECK(fdt_parse("1000d6*1000d6", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "too many pairs") && strstr(err, "1048576"),
	      "1000d6*1000d6 refused: '%s'", err);
	CHECK(fdt_parse(seventeen, &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "more than 16"), "17 items, k2 refused: '%s'", err);
	CHECK(fdt_parse("d4611686018427387903", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "too large"), "a huge die refused: '%s'", err);
	CHECK(fdt_parse("d18446744073709551615", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "within +-2^62"), "d(2^64-1) refused: '%s'", err);
	CHECK(fdt_parse("3d6>18446744073709551615", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "within +-2^62"), "a huge compare point refused: '%s'",
	      err);
	/* The best of 17 dice: products of powers of their CDFs. */
	err[0] = '\0';
	i = fdt_parse("{10d6+7d8}kh1", &e) &&
	    !fdc_dice_dist(&e, &d, err, sizeof(err));
	CHECK(i && d.min == 1 && d.n == 8 && !mpz_cmp_ui(d.w[0], 1),
	      "{10d6+7d8}kh1: %s", err);
	if (i) {
		mpz_t den;

		mpz_init(den);
		mpz_ui_pow_ui(den, 6, 10);
		mpz_mul_2exp(den, den, 21);
		CHECK(!mpz_cmp(d.den, den), "{10d6+7d8}kh1: denominator 6^10 8^7");
		mpz_clear(den);
		fdc_dice_dist_free(&d);
	}
	/* Two of 17 dice: the walk over the dice left of each term. */
	err[0] = '\0';
	i = fdt_parse("{4d6+4d8+9d4}k2", &e) &&
	    !fdc_dice_dist(&e, &d, err, sizeof(err));
	CHECK(i && d.min == 2 && d.n == 15 && !mpz_cmp_ui(d.w[0], 1),
	      "{4d6+4d8+9d4}k2: %s", err);
	if (i)
		fdc_dice_dist_free(&d);
	CHECK(fdt_parse("{500d6+500d8}k3", &e) &&
	      fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      strstr(err, "too large"), "{500d6+500d8}k3 refused: '%s'", err);
	/* 1000d6: P(1000) = 6^-1000, P(3500) by its symmetry. */
	CHECK(fdt_parse("1000d6", &e) && !fdc_dice_dist(&e, &d, err, sizeof(err)) &&
	      d.min == 1000 && d.n == 5001 && !mpz_cmp_ui(d.w[0], 1) &&
	      !mpz_cmp_ui(d.w[5000], 1) && !mpz_cmp(d.w[1], d.w[4999]),
	      "1000d6");
	fdc_dice_dist_free(&d);
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
	s128 total;
	int bad = 0;
	unsigned int s, a, b, c, d;

	fdt_parse("3d6", &e);
	fdt_parse("4d6k3", &e2);
	fdt_parse("3d6+1d4", &e3);
	if (fdc_fake_open(&dev, 42))
		abort();
	for (i = 0; i < n; i++) {
		bad |= fdc_dice_roll(&e, &dev, &total, NULL, NULL);
		if (total < 3 || total > 18)
			bad = 1;
		else
			hist[total]++;
		bad |= fdc_dice_roll(&e2, &dev, &total, NULL, NULL);
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

	/* Mixed sizes from one recycled state fed with fair bits (none made
	 * ahead and left over): the entropy of 3d6's total, drawn whole, and
	 * log2(4) for the d4; rolled die by die, 3 log2(6) + 2. The die
	 * changes at every draw, which costs a little (0.4% here).
	 */
	fdc_source_open_seed(&dev.src, 7);
	fdc_engine_open_source(&dev, 0);
	dev.max_ahead = 1;
	for (s = 3, ideal = 0; s <= 18; s++) {
		unsigned int ways = 0;

		for (a = 1; a <= 6; a++)
			for (b = 1; b <= 6; b++)
				ways += s - a - b >= 1 && s - a - b <= 6;
		ideal -= ways / 216.0 * log2(ways / 216.0);
	}
	ideal = 10000 * (ideal + 2);
	for (i = 0; i < 10000; i++) {
		bad |= fdc_dice_roll(&e3, &dev, &total, NULL, NULL);
		hist4[total - 4]++;
	}
	CHECK(!bad && fdc_engine_bits_used(&dev) < ideal * 1.006 + 64,
	      "3d6+1d4 x 10000: %llu fair bits used, %.0f ideal",
	      (unsigned long long)fdc_engine_bits_used(&dev), ideal);
	printf("3d6+1d4 x 10000: %llu fair bits used;",
	       (unsigned long long)fdc_engine_bits_used(&dev));
	printf(" the entropy of 3d6 plus log2(4) is %.0f (die by die %.0f)\n",
	       ideal, 10000 * (3 * log2(6) + 2));
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

	/* One size, several terms, no read-ahead: one draw per term, the
	 * total of 2d6 whole (36 values), the lone d6 a roll of 6.
	 */
	if (fdc_fake_open(&dev, 7))
		abort();
	dev.max_ahead = 1;
	fdt_parse("2d6+1d6", &e);
	for (i = 0; i < 100; i++)
		bad |= fdc_dice_roll(&e, &dev, &total, NULL, NULL);
	log_len = fdc_fake_log(&dev, &log);
	for (i = 0, sides_bad = 0; i < log_len; i++)
		sides_bad += log[i] != (i % 2 ? 6 : 36);
	CHECK(!bad && log_len == 200 && !sides_bad,
	      "2d6+1d6 without read-ahead: %zu draws", log_len);
	fdc_engine_close(&dev);

	/* Mixed and exploding: E[d6x] = 3.5 * 6 / 5 = 4.2, plus E[d4]. */
	if (fdc_fake_open(&dev, 8))
		abort();
	fdt_parse("d6x+d4", &e);
	for (i = 0, sum4 = 0, sq = 0; i < 100000; i++) {
		bad |= fdc_dice_roll(&e, &dev, &total, NULL, NULL);
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
	s128 total;
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
		if (fdc_dice_roll(&e, &dev, &total, trace, NULL)) {
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

int main(void)
{
	fdt_parse_good();
	fdt_parse_bad();
	fdt_roll_scripted();
	fdt_roll_limit();
	fdt_roll_random();
	fdt_dist();
	fdt_roll_mixed_exhaustive(0, 14);
	fdt_roll_mixed_exhaustive(2, 15);
	fdt_roll_mixed_exhaustive(12, 18);
	return fd_check_summary();
}
