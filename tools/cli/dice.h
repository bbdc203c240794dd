/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - dice expressions: 3d6, d20+4, 4d6k3, 4d6dl1, 2d10x,
 * 2d10!9, d%, 4dF, 3d6*100, d20/2, 2d6r1, 4d6r<3, 10d10>=8, 6x4d6k3.
 *
 *   line     := [ REPEAT "x" ] expr             REPEAT totals on one line
 *   expr     := [sign] term { sign term }       blanks allowed around signs
 *   term     := factor { ("*" | "/") NUMBER }   "/" rounds toward zero
 *   factor   := NUMBER | [COUNT] "d" SIDES { modifier } [ compare NUMBER ]
 *   SIDES    := NUMBER | "%" | "F"              d% is d100, dF is -1, 0, +1
 *   modifier := "k" [ "h" ] N                   keep the N highest dice
 *             | "kl" N                          keep the N lowest dice
 *             | "d" [ "l" ] N                   drop the N lowest dice
 *             | "dh" N                          drop the N highest dice
 *             | ("x" | "!") [ AT ]              exploding: a die showing AT
 *                                               or more (default: its
 *                                               maximum) is rolled again
 *                                               and added, again and again
 *             | "r" [ compare ] N               reroll faces matching (=N
 *                                               by default) until one
 *                                               does not
 *   compare  := "=" | "<" | "<=" | ">" | ">="
 *
 * A factor ending in a comparison is a success pool: its value is the
 * number of kept dice whose face matches (10d10>=8). Explosions happen
 * first; keeping and dropping then take whole exploded dice.
 */
#ifndef _FAIRDIE_CLI_DICE_H
#define _FAIRDIE_CLI_DICE_H

#include <stdio.h>

#include "engine.h"

#define FDC_DICE_MAX_TERMS	32
/* The most dice one evaluation may roll, explosions included. */
#define FDC_DICE_MAX_DICE	1000000
#define FDC_DICE_MAX_REROLLS	4
/* NxEXPR: at most this many totals on a line. */
#define FDC_DICE_MAX_REPEAT	100000

/* A comparison of a face with a number. */
enum fdc_cmp {
	FDC_CMP_NONE,
	FDC_CMP_EQ,
	FDC_CMP_LT,
	FDC_CMP_LE,
	FDC_CMP_GT,
	FDC_CMP_GE,
};

/**
 * struct fdc_dice_cond - a comparison of a face with a number
 * @op: the comparison
 * @value: the number
 */
struct fdc_dice_cond {
	enum fdc_cmp op;
	s64 value;
};

/**
 * struct fdc_dice_term - one term of an expression
 * @sign: +1 or -1
 * @count: dice in the group; 0 for a constant
 * @sides: sides of each die, or the value of a constant
 * @offset: added to each face: faces are 1 + @offset .. @sides + @offset
 *	(-2 for fudge dice)
 * @fudge: written dF
 * @keep: dice kept, 0 for all
 * @keep_low: keep the lowest instead of the highest
 * @explode: a die showing this much or more explodes; 0 for never
 * @nreroll: conditions in @reroll
 * @reroll: a face matching any of them is rolled again
 * @pool: the term counts the kept dice whose faces match this
 * @nops: '*' and '/' applied to the term, in order
 * @op: each one's operator
 * @arg: and its number
 */
struct fdc_dice_term {
	int sign;
	u64 count;
	u64 sides;
	s64 offset;
	bool fudge;
	u64 keep;
	bool keep_low;
	u64 explode;
	unsigned int nreroll;
	struct fdc_dice_cond reroll[FDC_DICE_MAX_REROLLS];
	struct fdc_dice_cond pool;
	unsigned int nops;
	char op[4];
	s64 arg[4];
};

/**
 * struct fdc_dice_expr - a parsed expression
 * @repeat: totals printed per line (NxEXPR), at least 1
 * @nterms: terms used
 * @dice: dice rolled before any explosion or reroll
 * @mixed: it has dice of more than one size: each die is then an exact
 *	draw from one uniform state (fdc_engine_roll()), not one device roll
 * @term: the terms, in order
 */
struct fdc_dice_expr {
	u64 repeat;
	unsigned int nterms;
	u64 dice;
	bool mixed;
	struct fdc_dice_term term[FDC_DICE_MAX_TERMS];
};

/**
 * struct fdc_dice_dist - the exact distribution of an expression
 * @min: the least total
 * @n: totals from @min to @min + @n - 1
 * @p: the probability of each
 */
struct fdc_dice_dist {
	s64 min;
	size_t n;
	double *p;
};

int fdc_dice_parse(const char *text, struct fdc_dice_expr *expr,
		   char *err, size_t errlen);
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_engine *dev,
		  s64 *total, FILE *verbose);
double fdc_dice_bits(const struct fdc_dice_expr *expr);
int fdc_dice_dist(const struct fdc_dice_expr *expr, struct fdc_dice_dist *d,
		  char *err, size_t errlen);
bool fdc_dice_match(const struct fdc_dice_cond *c, s64 face);

#endif /* _FAIRDIE_CLI_DICE_H */
