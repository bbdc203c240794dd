// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - parsing and rolling dice expressions (grammar in dice.h).
 *
 * Every die is its own roll from the device with the device's sides set to
 * that die's size: a 3d6+1d4 is three d6 rolls and one d4 roll, never one
 * big roll cut up by division.
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dice.h"

/* Totals are signed 64-bit; every magnitude stays within this. */
#define FDC_TOTAL_MAX	((u64)INT64_MAX)

struct fdc_parser {
	const char *s;
	size_t pos;
	char *err;
	size_t errlen;
};

static __printf(2, 3)
int fdc_parse_fail(struct fdc_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static char fdc_peek(const struct fdc_parser *p)
{
	return (char)tolower((unsigned char)p->s[p->pos]);
}

static void fdc_skip_blanks(struct fdc_parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

/* Positions in messages count characters from 1. */
static int fdc_parse_number(struct fdc_parser *p, u64 *v, const char *what)
{
	size_t start = p->pos;
	u64 n = 0;

	if (!isdigit((unsigned char)p->s[p->pos]))
		return fdc_parse_fail(p, "expected %s at position %zu", what,
				      p->pos + 1);
	while (isdigit((unsigned char)p->s[p->pos])) {
		unsigned int d = p->s[p->pos] - '0';

		if (n > (FDC_TOTAL_MAX - d) / 10)
			return fdc_parse_fail(p, "number too large at position %zu",
					      start + 1);
		n = n * 10 + d;
		p->pos++;
	}
	*v = n;
	return 0;
}

static int fdc_parse_modifiers(struct fdc_parser *p, struct fdc_dice_term *t)
{
	bool have_keep = false, have_explode = false;
	size_t at;
	int ret;

	for (;;) {
		at = p->pos;
		switch (fdc_peek(p)) {
		case 'k':
			if (have_keep)
				return fdc_parse_fail(p, "'k' given twice at position %zu",
						      at + 1);
			have_keep = true;
			p->pos++;
			if (fdc_peek(p) == 'h') {
				p->pos++;
			} else if (fdc_peek(p) == 'l') {
				t->keep_low = true;
				p->pos++;
			}
			ret = fdc_parse_number(p, &t->keep,
					       "the number of dice to keep");
			if (ret)
				return ret;
			if (!t->keep || t->keep > t->count)
				return fdc_parse_fail(p,
					"cannot keep %llu of %llu dice (position %zu)",
					(unsigned long long)t->keep,
					(unsigned long long)t->count, at + 1);
			break;
		case 'x':
			if (have_explode)
				return fdc_parse_fail(p, "'x' given twice at position %zu",
						      at + 1);
			have_explode = true;
			p->pos++;
			t->explode = t->sides;
			if (isdigit((unsigned char)p->s[p->pos])) {
				ret = fdc_parse_number(p, &t->explode,
						       "the explosion threshold");
				if (ret)
					return ret;
			}
			if (t->explode < 2)
				return fdc_parse_fail(p,
					"dice exploding on %llu or more would explode forever (position %zu)",
					(unsigned long long)t->explode, at + 1);
			if (t->explode > t->sides)
				return fdc_parse_fail(p,
					"a d%llu never shows %llu: 'x%llu' at position %zu",
					(unsigned long long)t->sides,
					(unsigned long long)t->explode,
					(unsigned long long)t->explode, at + 1);
			break;
		default:
			return 0;
		}
	}
}

static int fdc_parse_term(struct fdc_parser *p, struct fdc_dice_term *t)
{
	size_t start = p->pos;
	int ret;

	t->count = 1;
	if (isdigit((unsigned char)p->s[p->pos])) {
		ret = fdc_parse_number(p, &t->count, "a number");
		if (ret)
			return ret;
		if (fdc_peek(p) != 'd') {
			t->sides = t->count;
			t->count = 0;
			return 0;
		}
	} else if (fdc_peek(p) != 'd') {
		if (!p->s[p->pos])
			return fdc_parse_fail(p, "expected a number or a die like 'd6' at the end");
		return fdc_parse_fail(p,
			"unexpected '%c' at position %zu, expected a number or a die like 'd6'",
			p->s[p->pos], p->pos + 1);
	}

	p->pos++;	/* the 'd' */
	if (p->s[p->pos] == '%') {
		t->sides = 100;
		p->pos++;
	} else if (isdigit((unsigned char)p->s[p->pos])) {
		ret = fdc_parse_number(p, &t->sides, "the number of sides");
		if (ret)
			return ret;
	} else {
		return fdc_parse_fail(p, "missing number of sides after 'd' at position %zu",
				      p->pos);
	}
	if (!t->count)
		return fdc_parse_fail(p, "a group of 0 dice at position %zu",
				      start + 1);
	if (!t->sides)
		return fdc_parse_fail(p, "a die needs at least 1 side (position %zu)",
				      start + 1);
	return fdc_parse_modifiers(p, t);
}

/* The largest magnitude a term can reach without explosions. */
static u64 fdc_term_max(const struct fdc_dice_term *t)
{
	u64 n = t->keep ? t->keep : t->count;

	if (!t->count)
		return t->sides;
	return n > UINT64_MAX / t->sides ? UINT64_MAX : n * t->sides;
}

/**
 * fdc_dice_parse() - parse a dice expression
 * @text: the expression, e.g. "4d6k3+2"
 * @expr: the result
 * @err: where a one-line reason goes on failure
 * @errlen: room in @err
 *
 * Return: 0, or -EINVAL with @err set.
 */
int fdc_dice_parse(const char *text, struct fdc_dice_expr *expr,
		   char *err, size_t errlen)
{
	struct fdc_parser p = { .s = text, .err = err, .errlen = errlen };
	struct fdc_dice_term *t;
	u64 bound = 0, m, sides = 0;
	int sign = 1, ret;

	memset(expr, 0, sizeof(*expr));
	fdc_skip_blanks(&p);
	if (!text[p.pos])
		return fdc_parse_fail(&p, "empty expression");
	if (text[p.pos] == '+' || text[p.pos] == '-') {
		sign = text[p.pos] == '-' ? -1 : 1;
		p.pos++;
		fdc_skip_blanks(&p);
	}
	for (;;) {
		if (expr->nterms == FDC_DICE_MAX_TERMS)
			return fdc_parse_fail(&p, "more than %d terms",
					      FDC_DICE_MAX_TERMS);
		t = &expr->term[expr->nterms++];
		t->sign = sign;
		ret = fdc_parse_term(&p, t);
		if (ret)
			return ret;
		if (t->count) {
			expr->mixed |= sides && t->sides != sides;
			sides = t->sides;
		}
		expr->dice += t->count;
		if (expr->dice > FDC_DICE_MAX_DICE)
			return fdc_parse_fail(&p, "too many dice: at most %d per roll",
					      FDC_DICE_MAX_DICE);
		m = fdc_term_max(t);
		if (m > FDC_TOTAL_MAX || bound > FDC_TOTAL_MAX - m)
			return fdc_parse_fail(&p, "totals could exceed %lld",
					      (long long)FDC_TOTAL_MAX);
		bound += m;

		fdc_skip_blanks(&p);
		if (!text[p.pos])
			return 0;
		if (text[p.pos] != '+' && text[p.pos] != '-')
			return fdc_parse_fail(&p, "unexpected '%c' at position %zu",
					      text[p.pos], p.pos + 1);
		sign = text[p.pos] == '-' ? -1 : 1;
		p.pos++;
		fdc_skip_blanks(&p);
	}
}

/* ------------------------------------------------------------------------
 * Rolling
 */

/**
 * struct fdc_die - one die of a group, with its explosions
 * @sum: the faces added up
 * @first: index of its first explosion in the group's faces, which
 *	start with the first face of each die, in order
 * @nfaces: faces rolled for it (1 plus its explosions)
 * @kept: counts in the total
 */
struct fdc_die {
	u64 sum;
	size_t first;
	size_t nfaces;
	bool kept;
};

struct fdc_rank {
	u64 sum;
	size_t index;
};

static int fdc_rank_high(const void *a, const void *b)
{
	const struct fdc_rank *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum > y->sum ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int fdc_rank_low(const void *a, const void *b)
{
	const struct fdc_rank *x = a, *y = b;

	if (x->sum != y->sum)
		return x->sum < y->sum ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Mark the dice that count: all, or the @keep highest or lowest. */
static int fdc_keep(const struct fdc_dice_term *t, struct fdc_die *dice)
{
	struct fdc_rank *rank;
	size_t i;

	for (i = 0; i < t->count; i++)
		dice[i].kept = !t->keep;
	if (!t->keep)
		return 0;
	rank = malloc(t->count * sizeof(*rank));
	if (!rank) {
		fdc_err("out of memory");
		return -1;
	}
	for (i = 0; i < t->count; i++) {
		rank[i].sum = dice[i].sum;
		rank[i].index = i;
	}
	qsort(rank, t->count, sizeof(*rank),
	      t->keep_low ? fdc_rank_low : fdc_rank_high);
	for (i = 0; i < t->keep; i++)
		dice[rank[i].index].kept = true;
	free(rank);
	return 0;
}

static void fdc_print_term(const struct fdc_dice_term *t, FILE *out)
{
	fprintf(out, "%llud%llu", (unsigned long long)t->count,
		(unsigned long long)t->sides);
	/* Explosions first, as they are rolled. */
	if (t->explode == t->sides)
		fputs("x", out);
	else if (t->explode)
		fprintf(out, "x%llu", (unsigned long long)t->explode);
	if (t->keep)
		fprintf(out, "k%s%llu", t->keep_low ? "l" : "",
			(unsigned long long)t->keep);
}

/* "4d6k3[6 4 3 (1)]": dropped dice in parentheses, explosions as 6+6+2. */
static void fdc_print_group(const struct fdc_dice_term *t,
			    const struct fdc_die *dice, const u64 *faces,
			    FILE *out)
{
	size_t i, j;

	fdc_print_term(t, out);
	fputc('[', out);
	for (i = 0; i < t->count; i++) {
		fputs(i ? " " : "", out);
		fputs(dice[i].kept ? "" : "(", out);
		fprintf(out, "%llu", (unsigned long long)faces[i]);
		for (j = 1; j < dice[i].nfaces; j++)
			fprintf(out, "+%llu",
				(unsigned long long)faces[dice[i].first + j - 1]);
		fputs(dice[i].kept ? "" : ")", out);
	}
	fputc(']', out);
}

/*
 * @n dice of @sides: rolls of the device when the expression has one size
 * of dice, exact draws from the shared uniform state when it mixes sizes.
 */
static int fdc_take_dice(struct fdc_dev *dev, bool mixed, u64 sides, u64 *out,
			 size_t n)
{
	size_t i;

	if (!mixed)
		return fdc_dev_rolls(dev, sides, out, n);
	for (i = 0; i < n; i++)
		if (fdc_dev_draw(dev, sides, &out[i]))
			return -1;
	return 0;
}

/* Roll one group; *@rolled counts dice against FDC_DICE_MAX_DICE. */
static int fdc_roll_group(const struct fdc_dice_term *t, bool mixed,
			  struct fdc_dev *dev, u64 *rolled, u64 *sum,
			  FILE *verbose)
{
	struct fdc_die *dice = NULL;
	u64 *faces, *grown, r;
	size_t nfaces = t->count, cap = t->count, i;
	int ret = -1;

	faces = malloc(cap * sizeof(*faces));
	dice = malloc(t->count * sizeof(*dice));
	if (!faces || !dice) {
		fdc_err("out of memory");
		goto out_free;
	}
	if (fdc_take_dice(dev, mixed, t->sides, faces, t->count))
		goto out_free;
	/* Faces are 1..sides; dice keep their first face in place. */
	for (i = 0; i < t->count; i++) {
		faces[i]++;
		dice[i].sum = faces[i];
		dice[i].first = 0;
		dice[i].nfaces = 1;
	}

	for (i = 0; t->explode && i < t->count; i++) {
		u64 face = faces[i];

		while (face >= t->explode) {
			if (++*rolled > FDC_DICE_MAX_DICE) {
				fdc_err("roll: explosions went past %d dice",
					FDC_DICE_MAX_DICE);
				goto out_free;
			}
			if (fdc_take_dice(dev, mixed, t->sides, &r, 1))
				goto out_free;
			face = r + 1;
			if (dice[i].sum > FDC_TOTAL_MAX - face) {
				fdc_err("roll: total out of range");
				goto out_free;
			}
			dice[i].sum += face;
			if (nfaces == cap) {
				cap *= 2;
				grown = realloc(faces, cap * sizeof(*faces));
				if (!grown) {
					fdc_err("out of memory");
					goto out_free;
				}
				faces = grown;
			}
			/* Die i's explosions are the next faces appended. */
			if (dice[i].nfaces == 1)
				dice[i].first = nfaces;
			faces[nfaces++] = face;
			dice[i].nfaces++;
		}
	}

	if (fdc_keep(t, dice))
		goto out_free;
	*sum = 0;
	for (i = 0; i < t->count; i++) {
		if (!dice[i].kept)
			continue;
		if (*sum > FDC_TOTAL_MAX - dice[i].sum) {
			fdc_err("roll: total out of range");
			goto out_free;
		}
		*sum += dice[i].sum;
	}
	if (verbose)
		fdc_print_group(t, dice, faces, verbose);
	ret = 0;

out_free:
	free(dice);
	free(faces);
	return ret;
}

/**
 * fdc_dice_bits() - the fair bits one roll of an expression needs
 * @expr: the expression
 *
 * Return: the sum of log2(sides) over its dice, explosions left out.
 */
double fdc_dice_bits(const struct fdc_dice_expr *expr)
{
	double bits = 0;
	unsigned int i;

	for (i = 0; i < expr->nterms; i++)
		if (expr->term[i].count)
			bits += expr->term[i].count *
				log2((double)expr->term[i].sides);
	return bits;
}

/**
 * fdc_dice_roll() - roll an expression once
 * @expr: the expression
 * @dev: where the dice come from
 * @total: the result
 * @verbose: if not NULL, each die is written there, e.g.
 *	"4d6k3[6 4 3 (1)] + 2" (dropped dice in parentheses, an exploding
 *	die as the faces it rolled, "6+6+2")
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_dev *dev,
		  s64 *total, FILE *verbose)
{
	const struct fdc_dice_term *t;
	u64 rolled = expr->dice, sum;
	unsigned int i;
	s64 acc = 0;
	bool bad;

	for (i = 0; i < expr->nterms; i++) {
		t = &expr->term[i];
		if (verbose) {
			if (i)
				fputs(t->sign < 0 ? " - " : " + ", verbose);
			else if (t->sign < 0)
				fputs("-", verbose);
		}
		if (!t->count) {
			sum = t->sides;
			if (verbose)
				fprintf(verbose, "%llu", (unsigned long long)sum);
		} else if (fdc_roll_group(t, expr->mixed, dev, &rolled, &sum,
					  verbose)) {
			return -1;
		}
		/* Each sum is at most INT64_MAX, so it fits in an s64. */
		if (t->sign < 0)
			bad = __builtin_sub_overflow(acc, (s64)sum, &acc);
		else
			bad = __builtin_add_overflow(acc, (s64)sum, &acc);
		if (bad) {
			fdc_err("roll: total out of range");
			return -1;
		}
	}
	*total = acc;
	return 0;
}
