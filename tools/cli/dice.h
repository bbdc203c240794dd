/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - dice expressions, in Roll20's notation where it has one:
 * 3d6, d20+4, 4d6k3, 4d6dl1, 3d6!>4, 5d6!!, 2d6!p, 10d10>=8f1, 4d6r<2,
 * 2d6ro1, {4d6,3d8}k1, (1d4+1)*3, floor(d20/2), 1d20[fire], d%, 4dF, and
 * fairdie's own 2d10x9 (explodes on 9 or more) and 6x4d6k3 (six totals).
 *
 *   line     := [ REPEAT "x" ] expr             REPEAT totals on one line
 *   expr     := term { ("+" | "-") term }
 *   term     := unary { ("*" | "/" | "%") unary }
 *   unary    := [ "-" | "+" ] unary | primary [ "[" label "]" ]
 *   primary  := NUMBER | dice | group | "(" expr ")"
 *             | ("floor" | "ceil" | "round" | "abs") "(" expr ")"
 *   dice     := [COUNT] "d" (SIDES | "%" | "F") { modifier }
 *   group    := "{" expr { "," expr } "}" { keep | success | failure }
 *   modifier := "!" [cp] | "!!" [cp] | "!p" [cp]  explode, compound, penetrate
 *             | "x" [N]                     fairdie's own: explode on N or more
 *             | "r" cp | "ro" cp            reroll while / once
 *             | "ra" N | "mi" N | "ma" N    avrae/d20: reroll and add once,
 *                                           least and largest face
 *             | keep | success | failure
 *   keep     := ("k" | "kh" | "kl" | "d" | "dl" | "dh") N
 *   success  := cp-with-operator            ">N" counts faces of N or more
 *   failure  := "f" cp                      and subtracts the failures
 *   cp       := N | "=" N | ">" N | "<" N | ">=" N | "<=" N
 *
 * A group of one roll is the list of its dice, as on Roll20: {4d6+3d8}k4
 * keeps the highest four of the seven dice, {3d20+5}>21 counts the d20s
 * that show 16 or more; it may hold only dice added together (and numbers,
 * for counting). A group of several items keeps or counts their totals.
 *
 * Compare points are inclusive, as Roll20's are: ">4" and ">=4" both mean
 * 4 or more. Totals are whole numbers: an expression whose total could be
 * a fraction (d20/2; Roll20 keeps 10.5) is refused, floor(d20/2) is not.
 */
#ifndef _FAIRDIE_CLI_DICE_H
#define _FAIRDIE_CLI_DICE_H

#include <gmp.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/* Nodes of one expression: numbers, dice, groups and operators. */
#define FDC_DICE_MAX_NODES	64
/* The most dice one term rolls before explosions. */
#define FDC_DICE_MAX_DICE	1000000
#define FDC_DICE_MAX_REROLLS	4
/* A die explodes at most this many times: the face after the last stands. */
#define FDC_DICE_MAX_EXPLODE	100
/* NxEXPR: at most this many totals on a line. */
#define FDC_DICE_MAX_REPEAT	100000
/*
 * Numbers, faces, totals and every value on the way stay within 64 bits
 * and a sign: -(2^64 - 1) .. 2^64 - 1, held in 128 bits.
 */
#define FDC_DICE_LIMIT		((s128)UINT64_MAX)

/* A value of an expression, as the kernel's s128 (fd_shim.h's fd_u128). */
#define s128 __int128

/* A comparison of a face with a number; LE and GE are Roll20's < and >. */
enum fdc_cmp {
	FDC_CMP_NONE,
	FDC_CMP_EQ,
	FDC_CMP_LE,
	FDC_CMP_GE,
};

/**
 * struct fdc_dice_cond - a compare point
 * @op: the comparison, FDC_CMP_NONE when there is none
 * @value: the number
 */
struct fdc_dice_cond {
	enum fdc_cmp op;
	s128 value;
};

/* How a die explodes. */
enum fdc_explode {
	FDC_EXPLODE_NONE,
	FDC_EXPLODE_EACH,	/* !: every face is a die of its own */
	FDC_EXPLODE_COMPOUND,	/* !!: the faces add up to one die */
	FDC_EXPLODE_PENETRATE,	/* !p: as !, each new face less 1 */
	FDC_EXPLODE_WHOLE,	/* x: one die for keeping, faces for counting */
};

/**
 * struct fdc_dice_mods - what a group of dice or of totals counts
 * @keep: how many items are kept, when @has_keep
 * @has_keep: some are kept or dropped
 * @keep_low: the lowest are kept
 * @drop: written as a drop (@keep is then the count dropped)
 * @success: items matching count +1, when set
 * @failure: items matching count -1, when set
 */
struct fdc_dice_mods {
	u64 keep;
	bool has_keep;
	bool keep_low;
	bool drop;
	struct fdc_dice_cond success;
	struct fdc_dice_cond failure;
};

/**
 * struct fdc_dice_term - dice of one size with their modifiers
 * @count: dice rolled
 * @sides: faces of each
 * @offset: faces are 1 + @offset .. @sides + @offset (-2 for dF)
 * @fudge: written dF
 * @explode: how it explodes
 * @explode_on: the faces that explode
 * @nreroll: conditions in @reroll
 * @reroll_once: "ro": reroll once, the second face stands
 * @reroll: a face matching any is rolled again
 * @has_min: "mi": a face below @min_face counts as @min_face
 * @has_max: "ma": a face above @max_face counts as @max_face
 * @min_face: see @has_min
 * @max_face: see @has_max
 * @has_ra: "ra": the first die showing @ra is joined by one more die
 * @ra: see @has_ra
 * @pooled: one of the dice of a one-roll group {4d6+3d8}k4: @mods came
 *	from the group and are not shown with the dice
 * @mods: keep, drop, successes, failures
 */
struct fdc_dice_term {
	u64 count;
	u64 sides;
	s64 offset;
	bool fudge;
	enum fdc_explode explode;
	struct fdc_dice_cond explode_on;
	unsigned int nreroll;
	bool reroll_once;
	struct fdc_dice_cond reroll[FDC_DICE_MAX_REROLLS];
	bool has_min;
	bool has_max;
	s128 min_face;
	s128 max_face;
	bool has_ra;
	s128 ra;
	bool pooled;
	struct fdc_dice_mods mods;
};

enum fdc_node_kind {
	FDC_NODE_NUM,
	FDC_NODE_DICE,
	FDC_NODE_GROUP,
	FDC_NODE_ADD,
	FDC_NODE_SUB,
	FDC_NODE_MUL,
	FDC_NODE_DIV,
	FDC_NODE_MOD,
	FDC_NODE_NEG,
	FDC_NODE_FLOOR,
	FDC_NODE_CEIL,
	FDC_NODE_ROUND,
	FDC_NODE_ABS,
};

/**
 * struct fdc_dice_node - one node of an expression
 * @kind: what it is
 * @num: the value of a number
 * @a: first operand (node index)
 * @b: second operand
 * @first: a group's first item in the expression's @items
 * @nitems: a group's item count
 * @pool: a one-roll group read as the list of its dice ({4d6+3d8}k4 keeps
 *	the highest four of seven dice): its items are dice nodes, and
 *	@num is the number added to each die before it is counted
 * @lo: the least value it can take (rounded down)
 * @hi: the largest (rounded up)
 * @den: a bound on the denominator of its value, 1 when it is whole
 * @dice: the dice of a dice node
 * @mods: a group's keep, drop, successes and failures
 */
struct fdc_dice_node {
	enum fdc_node_kind kind;
	s128 num;
	unsigned int a;
	unsigned int b;
	unsigned int first;
	unsigned int nitems;
	bool pool;
	s128 lo;
	s128 hi;
	u64 den;
	struct fdc_dice_term dice;
	struct fdc_dice_mods mods;
};

/**
 * struct fdc_dice_expr - a parsed expression
 * @repeat: totals printed per line (NxEXPR), at least 1
 * @root: the node of the whole expression
 * @nnodes: nodes used
 * @nitems: group items used
 * @explode_max: explosions per die, FDC_DICE_MAX_EXPLODE (tests lower it)
 * @node: the nodes
 * @items: the items of every group, as node indices
 */
struct fdc_dice_expr {
	u64 repeat;
	unsigned int root;
	unsigned int nnodes;
	unsigned int nitems;
	unsigned int explode_max;
	struct fdc_dice_node node[FDC_DICE_MAX_NODES];
	unsigned int items[FDC_DICE_MAX_NODES];
};

/**
 * struct fdc_dice_dist - the exact distribution of an expression's total
 * @min: the least total
 * @step: totals are @min, @min + @step, ...
 * @n: how many
 * @w: the weight of each total, P = @w[i] / @den (0 for impossible ones)
 * @den: the common denominator
 * @depth: explosions per die covered exactly
 *
 * The weights add up to less than @den when explosions go deeper than
 * @depth: the rest is the probability that some die exploded more often.
 */
struct fdc_dice_dist {
	s64 min;
	s64 step;
	size_t n;
	mpz_t *w;
	mpz_t den;
	unsigned int depth;
};

int fdc_dice_parse(const char *text, struct fdc_dice_expr *expr,
		   char *err, size_t errlen);
void fdc_dice_hint(const char *text, char *err, size_t errlen);
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_engine *dev,
		  s128 *total, FILE *verbose, unsigned int *deepest);
int fdc_dice_roll_json(const struct fdc_dice_expr *expr,
		       struct fdc_engine *dev, s128 *total, FILE *json);
char *fdc_dice_str(s128 v, char *buf);
bool fdc_dice_match(const struct fdc_dice_cond *c, s128 face);
u64 fdc_dice_kept_count(const struct fdc_dice_mods *m, u64 n);
int fdc_dice_dist(const struct fdc_dice_expr *expr, struct fdc_dice_dist *d,
		  char *err, size_t errlen);
void fdc_dice_dist_free(struct fdc_dice_dist *d);
void fdc_dice_dist_rest(const struct fdc_dice_dist *d, mpq_t rest);

#endif /* _FAIRDIE_CLI_DICE_H */
