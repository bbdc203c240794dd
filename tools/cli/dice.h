/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - dice expressions: 3d6, d20+4, 4d6k3, 4d6kl1, 2d10x,
 * 2d10x9, d%, 2d8+1d4-1.
 *
 *   expr     := [sign] term { sign term }        blanks allowed around signs
 *   term     := NUMBER | [COUNT] "d" SIDES { modifier }
 *   SIDES    := NUMBER | "%"                      d% is d100
 *   modifier := "k" [ "h" ] KEEP                  keep the KEEP highest dice
 *             | "kl" KEEP                         keep the KEEP lowest dice
 *             | "x" [ AT ]                        exploding: a die showing AT
 *                                                 or more (default: its
 *                                                 maximum) is rolled again
 *                                                 and added, again and again
 *
 * Explosions happen first; "k" then keeps whole exploded dice.
 */
#ifndef _FAIRDIE_CLI_DICE_H
#define _FAIRDIE_CLI_DICE_H

#include <stdio.h>

#include "device.h"

#define FDC_DICE_MAX_TERMS	32
/* The most dice one evaluation may roll, explosions included. */
#define FDC_DICE_MAX_DICE	1000000

/**
 * struct fdc_dice_term - one term of an expression
 * @sign: +1 or -1
 * @count: dice in the group; 0 for a constant
 * @sides: sides of each die, or the value of a constant
 * @keep: dice kept, 0 for all
 * @keep_low: keep the lowest instead of the highest
 * @explode: a die showing this much or more explodes; 0 for never
 */
struct fdc_dice_term {
	int sign;
	u64 count;
	u64 sides;
	u64 keep;
	bool keep_low;
	u64 explode;
};

/**
 * struct fdc_dice_expr - a parsed expression
 * @nterms: terms used
 * @dice: dice rolled before any explosion
 * @mixed: it has dice of more than one size: each die is then an exact
 *	draw from one uniform state (fdc_dev_draw()), not one device roll
 * @term: the terms, in order
 */
struct fdc_dice_expr {
	unsigned int nterms;
	u64 dice;
	bool mixed;
	struct fdc_dice_term term[FDC_DICE_MAX_TERMS];
};

int fdc_dice_parse(const char *text, struct fdc_dice_expr *expr,
		   char *err, size_t errlen);
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_dev *dev,
		  s64 *total, FILE *verbose);
double fdc_dice_bits(const struct fdc_dice_expr *expr);

#endif /* _FAIRDIE_CLI_DICE_H */
