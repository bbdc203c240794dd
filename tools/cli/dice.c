// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - parsing and rolling dice expressions (grammar in dice.h),
 * and their exact distributions.
 *
 * Every die is its own exact roll of its own size: a 3d6+1d4 is three d6
 * rolls and one d4 roll, never one big roll cut up by division. A reroll
 * rolls the die again, so the face kept is uniform on the faces that are
 * not rerolled.
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
/* Exact distributions: at most this many totals, and keep-DP states. */
#define FDC_DIST_MAX	(1024U * 1024)
#define FDC_DIST_WORK	50000000ULL

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

/* A comparison operator, or FDC_CMP_NONE. */
static enum fdc_cmp fdc_parse_cmp(struct fdc_parser *p)
{
	char c = p->s[p->pos], d = c ? p->s[p->pos + 1] : 0;

	if (c == '=') {
		p->pos++;
		return FDC_CMP_EQ;
	}
	if (c != '<' && c != '>')
		return FDC_CMP_NONE;
	p->pos += d == '=' ? 2 : 1;
	if (c == '<')
		return d == '=' ? FDC_CMP_LE : FDC_CMP_LT;
	return d == '=' ? FDC_CMP_GE : FDC_CMP_GT;
}

/**
 * fdc_dice_match() - whether a face satisfies a comparison
 * @c: the comparison
 * @face: the face
 *
 * Return: true when it does.
 */
bool fdc_dice_match(const struct fdc_dice_cond *c, s64 face)
{
	switch (c->op) {
	case FDC_CMP_EQ:
		return face == c->value;
	case FDC_CMP_LT:
		return face < c->value;
	case FDC_CMP_LE:
		return face <= c->value;
	case FDC_CMP_GT:
		return face > c->value;
	case FDC_CMP_GE:
		return face >= c->value;
	default:
		return false;
	}
}

static bool fdc_rerolled(const struct fdc_dice_term *t, s64 face)
{
	unsigned int i;

	for (i = 0; i < t->nreroll; i++)
		if (fdc_dice_match(&t->reroll[i], face))
			return true;
	return false;
}

/*
 * Whether some face escapes every reroll: the conditions are intervals, so
 * a face that escapes is an end of one of them shifted by one, or an end
 * of the die.
 */
static bool fdc_some_face_stays(const struct fdc_dice_term *t)
{
	s64 lo = 1 + t->offset, hi = (s64)t->sides + t->offset, c;
	unsigned int i;
	int d;

	if (!fdc_rerolled(t, lo) || !fdc_rerolled(t, hi))
		return true;
	for (i = 0; i < t->nreroll; i++) {
		for (d = -1; d <= 1; d += 2) {
			c = t->reroll[i].value + d;
			if (c >= lo && c <= hi && !fdc_rerolled(t, c))
				return true;
		}
	}
	return false;
}

/* A comparison and its number: "<3", ">=8", "=1" or just "1" (for r). */
static int fdc_parse_cond(struct fdc_parser *p, struct fdc_dice_cond *c,
			  bool bare, const char *what)
{
	u64 v;
	int ret;

	c->op = fdc_parse_cmp(p);
	if (c->op == FDC_CMP_NONE) {
		if (!bare)
			return fdc_parse_fail(p, "expected a comparison at position %zu",
					      p->pos + 1);
		c->op = FDC_CMP_EQ;
	}
	/* Fudge faces go down to -1. */
	if (p->s[p->pos] == '-' && isdigit((unsigned char)p->s[p->pos + 1])) {
		p->pos++;
		ret = fdc_parse_number(p, &v, what);
		c->value = -(s64)v;
	} else {
		ret = fdc_parse_number(p, &v, what);
		c->value = (s64)v;
	}
	return ret;
}

static int fdc_parse_keep(struct fdc_parser *p, struct fdc_dice_term *t,
			  bool drop, bool low, size_t at)
{
	u64 n;
	int ret;

	ret = fdc_parse_number(p, &n, drop ? "the number of dice to drop" :
			       "the number of dice to keep");
	if (ret)
		return ret;
	if (drop) {
		if (n >= t->count)
			return fdc_parse_fail(p,
				"cannot drop %llu of %llu dice (position %zu)",
				(unsigned long long)n,
				(unsigned long long)t->count, at + 1);
		/* Dropping the n lowest keeps the count - n highest. */
		t->keep = t->count - n;
		t->keep_low = !low;
		return 0;
	}
	if (!n || n > t->count)
		return fdc_parse_fail(p, "cannot keep %llu of %llu dice (position %zu)",
				      (unsigned long long)n,
				      (unsigned long long)t->count, at + 1);
	t->keep = n;
	t->keep_low = low;
	return 0;
}

static int fdc_parse_modifiers(struct fdc_parser *p, struct fdc_dice_term *t)
{
	bool have_keep = false, have_explode = false, low, drop;
	size_t at;
	int ret;

	for (;;) {
		at = p->pos;
		switch (fdc_peek(p)) {
		case 'k':
		case 'd':
			drop = fdc_peek(p) == 'd';
			if (have_keep)
				return fdc_parse_fail(p, "'%c' given twice at position %zu",
						      drop ? 'd' : 'k', at + 1);
			have_keep = true;
			p->pos++;
			low = drop;
			if (fdc_peek(p) == 'h') {
				low = false;
				p->pos++;
			} else if (fdc_peek(p) == 'l') {
				low = true;
				p->pos++;
			}
			ret = fdc_parse_keep(p, t, drop, low, at);
			if (ret)
				return ret;
			break;
		case 'x':
		case '!':
			if (have_explode)
				return fdc_parse_fail(p, "'%c' given twice at position %zu",
						      p->s[at], at + 1);
			have_explode = true;
			p->pos++;
			t->explode = t->sides;
			if (isdigit((unsigned char)p->s[p->pos])) {
				ret = fdc_parse_number(p, &t->explode,
						       "the explosion threshold");
				if (ret)
					return ret;
			}
			if (t->fudge)
				return fdc_parse_fail(p, "fudge dice do not explode (position %zu)",
						      at + 1);
			if (t->explode < 2)
				return fdc_parse_fail(p,
					"dice exploding on %llu or more would explode forever (position %zu)",
					(unsigned long long)t->explode, at + 1);
			if (t->explode > t->sides)
				return fdc_parse_fail(p,
					"a d%llu never shows %llu: '%c%llu' at position %zu",
					(unsigned long long)t->sides,
					(unsigned long long)t->explode, p->s[at],
					(unsigned long long)t->explode, at + 1);
			break;
		case 'r':
			if (t->nreroll == FDC_DICE_MAX_REROLLS)
				return fdc_parse_fail(p, "more than %d rerolls at position %zu",
						      FDC_DICE_MAX_REROLLS, at + 1);
			p->pos++;
			ret = fdc_parse_cond(p, &t->reroll[t->nreroll++], true,
					     "the face to reroll");
			if (ret)
				return ret;
			if (!fdc_some_face_stays(t))
				return fdc_parse_fail(p,
					"every face would be rerolled forever (position %zu)",
					at + 1);
			break;
		default:
			return 0;
		}
	}
}

static int fdc_parse_factor(struct fdc_parser *p, struct fdc_dice_term *t)
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
	} else if (fdc_peek(p) == 'f') {
		/* Fudge dice: faces -1, 0 and +1. */
		t->sides = 3;
		t->offset = -2;
		t->fudge = true;
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
	ret = fdc_parse_modifiers(p, t);
	if (ret)
		return ret;
	if (fdc_parse_cmp(p) != FDC_CMP_NONE) {
		/* Back up: fdc_parse_cond() reads the operator itself. */
		while (p->pos > start && strchr("<>=", p->s[p->pos - 1]))
			p->pos--;
		return fdc_parse_cond(p, &t->pool, false, "the target number");
	}
	return 0;
}

/* '*' and '/' by constants after a factor. */
static int fdc_parse_ops(struct fdc_parser *p, struct fdc_dice_term *t)
{
	u64 v;
	int ret;

	for (;;) {
		size_t at = p->pos;
		char op;

		fdc_skip_blanks(p);
		op = p->s[p->pos];
		if (op != '*' && op != '/') {
			p->pos = at;
			return 0;
		}
		if (t->nops == ARRAY_SIZE(t->op))
			return fdc_parse_fail(p, "more than %zu '*' and '/' at position %zu",
					      ARRAY_SIZE(t->op), p->pos + 1);
		p->pos++;
		fdc_skip_blanks(p);
		ret = fdc_parse_number(p, &v, "a number");
		if (ret)
			return ret;
		if (op == '/' && !v)
			return fdc_parse_fail(p, "division by zero at position %zu",
					      at + 1);
		t->op[t->nops] = op;
		t->arg[t->nops++] = (s64)v;
	}
}

/* The largest magnitude a term can reach without explosions. */
static u64 fdc_term_max(const struct fdc_dice_term *t)
{
	u64 n = t->keep ? t->keep : t->count, m;
	unsigned int i;

	if (!t->count)
		m = t->sides;
	else if (t->pool.op)
		m = n;
	else
		m = n > UINT64_MAX / t->sides ? UINT64_MAX : n * t->sides;
	for (i = 0; i < t->nops; i++) {
		if (t->op[i] == '/')
			continue;
		if (t->arg[i] && m > UINT64_MAX / (u64)t->arg[i])
			return UINT64_MAX;
		m *= (u64)t->arg[i];
	}
	return m;
}

/**
 * fdc_dice_parse() - parse a dice expression
 * @text: the expression, e.g. "4d6k3+2" or "6x4d6k3"
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
	size_t at;

	memset(expr, 0, sizeof(*expr));
	expr->repeat = 1;
	fdc_skip_blanks(&p);
	if (!text[p.pos])
		return fdc_parse_fail(&p, "empty expression");
	/* NxEXPR: a number and an 'x' before anything else. */
	at = p.pos;
	while (isdigit((unsigned char)text[p.pos]))
		p.pos++;
	if (p.pos > at && fdc_peek(&p) == 'x') {
		p.pos = at;
		ret = fdc_parse_number(&p, &expr->repeat, "a number");
		if (ret)
			return ret;
		if (!expr->repeat || expr->repeat > FDC_DICE_MAX_REPEAT)
			return fdc_parse_fail(&p, "cannot print %llu totals on a line (1 to %d)",
					      (unsigned long long)expr->repeat,
					      FDC_DICE_MAX_REPEAT);
		p.pos++;
		if (!text[p.pos])
			return fdc_parse_fail(&p, "expected an expression after 'x' at the end");
	} else {
		p.pos = at;
	}
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
		ret = fdc_parse_factor(&p, t);
		if (!ret)
			ret = fdc_parse_ops(&p, t);
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
	s64 sum;
	size_t first;
	size_t nfaces;
	bool kept;
};

struct fdc_rank {
	s64 sum;
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

static const char *const fdc_cmp_names[] = {
	[FDC_CMP_EQ] = "=", [FDC_CMP_LT] = "<", [FDC_CMP_LE] = "<=",
	[FDC_CMP_GT] = ">", [FDC_CMP_GE] = ">=",
};

static void fdc_print_term(const struct fdc_dice_term *t, FILE *out)
{
	unsigned int i;

	if (t->fudge)
		fprintf(out, "%lludF", (unsigned long long)t->count);
	else
		fprintf(out, "%llud%llu", (unsigned long long)t->count,
			(unsigned long long)t->sides);
	for (i = 0; i < t->nreroll; i++)
		fprintf(out, "r%s%lld", fdc_cmp_names[t->reroll[i].op],
			(long long)t->reroll[i].value);
	/* Explosions first, as they are rolled. */
	if (t->explode == t->sides)
		fputs("x", out);
	else if (t->explode)
		fprintf(out, "x%llu", (unsigned long long)t->explode);
	if (t->keep)
		fprintf(out, "k%s%llu", t->keep_low ? "l" : "",
			(unsigned long long)t->keep);
	if (t->pool.op)
		fprintf(out, "%s%lld", fdc_cmp_names[t->pool.op],
			(long long)t->pool.value);
}

/* "4d6k3[6 4 3 (1)]": dropped dice in parentheses, explosions as 6+6+2. */
static void fdc_print_group(const struct fdc_dice_term *t,
			    const struct fdc_die *dice, const s64 *faces,
			    FILE *out)
{
	size_t i, j;

	fdc_print_term(t, out);
	fputc('[', out);
	for (i = 0; i < t->count; i++) {
		fputs(i ? " " : "", out);
		fputs(dice[i].kept ? "" : "(", out);
		fprintf(out, t->fudge ? "%+lld" : "%lld", (long long)faces[i]);
		for (j = 1; j < dice[i].nfaces; j++)
			fprintf(out, "+%lld",
				(long long)faces[dice[i].first + j - 1]);
		fputs(dice[i].kept ? "" : ")", out);
	}
	fputc(']', out);
}

/*
 * One face of a die of @t: a roll of the device when the expression has
 * one size of dice, an exact draw from the shared uniform state when it
 * mixes sizes; rolled again while a reroll condition matches.
 */
static int fdc_take_face(struct fdc_engine *dev, const struct fdc_dice_term *t,
			 bool mixed, u64 *rolled, s64 *face)
{
	u64 r;

	for (;;) {
		if (mixed ? fdc_engine_roll(dev, t->sides, &r) :
			    fdc_engine_rolls(dev, t->sides, &r, 1))
			return -1;
		*face = (s64)r + 1 + t->offset;
		if (!fdc_rerolled(t, *face))
			return 0;
		if (++*rolled > FDC_DICE_MAX_DICE) {
			fdc_err("roll: rerolls went past %d dice",
				FDC_DICE_MAX_DICE);
			return -1;
		}
	}
}

/* The first faces of @n dice, read in one go when nothing is rerolled. */
static int fdc_take_faces(struct fdc_engine *dev, const struct fdc_dice_term *t,
			  bool mixed, u64 *rolled, s64 *faces, size_t n)
{
	size_t i;

	if (!mixed && !t->nreroll) {
		u64 *raw = (u64 *)faces;

		/* s64 and u64 have one size: convert in place. */
		if (fdc_engine_rolls(dev, t->sides, raw, n))
			return -1;
		for (i = 0; i < n; i++)
			faces[i] = (s64)raw[i] + 1 + t->offset;
		return 0;
	}
	for (i = 0; i < n; i++)
		if (fdc_take_face(dev, t, mixed, rolled, &faces[i]))
			return -1;
	return 0;
}

static s64 fdc_apply_ops(const struct fdc_dice_term *t, s64 v)
{
	unsigned int i;

	/* fdc_term_max() bounds every product. */
	for (i = 0; i < t->nops; i++)
		v = t->op[i] == '*' ? v * t->arg[i] : v / t->arg[i];
	return v;
}

/* Roll one group; *@rolled counts dice against FDC_DICE_MAX_DICE. */
static int fdc_roll_group(const struct fdc_dice_term *t, bool mixed,
			  struct fdc_engine *dev, u64 *rolled, s64 *sum,
			  FILE *verbose)
{
	struct fdc_die *dice = NULL;
	s64 *faces, *grown, face;
	size_t nfaces = t->count, cap = t->count, i, j;
	int ret = -1;

	faces = malloc(cap * sizeof(*faces));
	dice = malloc(t->count * sizeof(*dice));
	if (!faces || !dice) {
		fdc_err("out of memory");
		goto out_free;
	}
	if (fdc_take_faces(dev, t, mixed, rolled, faces, t->count))
		goto out_free;
	for (i = 0; i < t->count; i++) {
		dice[i].sum = faces[i];
		dice[i].first = 0;
		dice[i].nfaces = 1;
	}

	for (i = 0; t->explode && i < t->count; i++) {
		face = faces[i];
		while (face >= (s64)t->explode) {
			if (++*rolled > FDC_DICE_MAX_DICE) {
				fdc_err("roll: explosions went past %d dice",
					FDC_DICE_MAX_DICE);
				goto out_free;
			}
			if (fdc_take_face(dev, t, mixed, rolled, &face))
				goto out_free;
			if (dice[i].sum > (s64)FDC_TOTAL_MAX - face) {
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
		if (t->pool.op) {
			/* A pool counts every face of a kept die. */
			*sum += fdc_dice_match(&t->pool, faces[i]);
			for (j = 1; j < dice[i].nfaces; j++)
				*sum += fdc_dice_match(&t->pool,
						       faces[dice[i].first + j - 1]);
			continue;
		}
		if (__builtin_add_overflow(*sum, dice[i].sum, sum)) {
			fdc_err("roll: total out of range");
			goto out_free;
		}
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
 * Return: the sum of log2(sides) over its dice, explosions and rerolls
 * left out, times its repeat count.
 */
double fdc_dice_bits(const struct fdc_dice_expr *expr)
{
	double bits = 0;
	unsigned int i;

	for (i = 0; i < expr->nterms; i++)
		if (expr->term[i].count)
			bits += expr->term[i].count *
				log2((double)expr->term[i].sides);
	return bits * expr->repeat;
}

/**
 * fdc_dice_roll() - roll an expression once (one total; NxEXPR calls this
 * N times)
 * @expr: the expression
 * @dev: where the dice come from
 * @total: the result
 * @verbose: if not NULL, each die is written there, e.g.
 *	"4d6k3[6 4 3 (1)] + 2" (dropped dice in parentheses, an exploding
 *	die as the faces it rolled, "6+6+2")
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_engine *dev,
		  s64 *total, FILE *verbose)
{
	const struct fdc_dice_term *t;
	u64 rolled = expr->dice;
	unsigned int i, j;
	s64 acc = 0, sum;
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
			sum = (s64)t->sides;
			if (verbose)
				fprintf(verbose, "%lld", (long long)sum);
		} else if (fdc_roll_group(t, expr->mixed, dev, &rolled, &sum,
					  verbose)) {
			return -1;
		}
		if (verbose)
			for (j = 0; j < t->nops; j++)
				fprintf(verbose, "%c%lld", t->op[j],
					(long long)t->arg[j]);
		sum = fdc_apply_ops(t, sum);
		if (t->sign < 0)
			bad = __builtin_sub_overflow(acc, sum, &acc);
		else
			bad = __builtin_add_overflow(acc, sum, &acc);
		if (bad) {
			fdc_err("roll: total out of range");
			return -1;
		}
	}
	*total = acc;
	return 0;
}

/* ------------------------------------------------------------------------
 * Exact distributions, for roll --stats
 */

static int fdc_dist_alloc(struct fdc_dice_dist *d, s64 min, size_t n)
{
	d->min = min;
	d->n = n;
	d->p = calloc(n ? n : 1, sizeof(*d->p));
	return d->p ? 0 : -1;
}

/* @a := @a + @b (sum of independent totals), or @a - @b when @sign < 0. */
static int fdc_dist_add(struct fdc_dice_dist *a, const struct fdc_dice_dist *b,
			int sign)
{
	struct fdc_dice_dist r;
	size_t i, j;

	if (a->n + b->n - 1 > FDC_DIST_MAX)
		return -1;
	if (fdc_dist_alloc(&r, sign > 0 ? a->min + b->min :
			   a->min - (b->min + (s64)b->n - 1), a->n + b->n - 1))
		return -1;
	for (i = 0; i < a->n; i++) {
		if (!a->p[i])
			continue;
		for (j = 0; j < b->n; j++)
			r.p[sign > 0 ? i + j : i + b->n - 1 - j] += a->p[i] * b->p[j];
	}
	free(a->p);
	*a = r;
	return 0;
}

/* One die of @t: uniform on the faces not rerolled. */
static int fdc_dist_die(const struct fdc_dice_term *t, struct fdc_dice_dist *d)
{
	size_t i, stay = 0;

	if (t->sides > FDC_DIST_MAX || fdc_dist_alloc(d, 1 + t->offset, t->sides))
		return -1;
	for (i = 0; i < t->sides; i++)
		stay += !fdc_rerolled(t, d->min + (s64)i);
	for (i = 0; i < t->sides; i++)
		d->p[i] = fdc_rerolled(t, d->min + (s64)i) ? 0 : 1.0 / stay;
	return 0;
}

/*
 * The sum of the @keep highest (or lowest) of @n dice each distributed as
 * @die: walk the faces from the best down, choosing how many dice show
 * each; the n!/(prod c!) orders of a choice are counted by carrying
 * prod(p^c / c!) and multiplying by n! at the end.
 */
static int fdc_dist_keep(const struct fdc_dice_term *t,
			 const struct fdc_dice_dist *die,
			 struct fdc_dice_dist *d)
{
	size_t n = t->count, k = t->keep, span = k * (die->n - 1) + 1;
	size_t v, j, c, s, idx;
	double *w, *nw, pc, lf = 0;
	s64 face;

	if ((u64)(n + 1) * span * die->n * (n + 1) > FDC_DIST_WORK ||
	    span > FDC_DIST_MAX)
		return -1;
	w = calloc((n + 1) * span, sizeof(*w));
	nw = calloc((n + 1) * span, sizeof(*nw));
	if (!w || !nw || fdc_dist_alloc(d, die->min * (s64)k, span)) {
		free(w);
		free(nw);
		return -1;
	}
	w[0] = 1;
	for (v = 0; v < die->n; v++) {
		idx = t->keep_low ? v : die->n - 1 - v;
		face = (s64)idx;
		memset(nw, 0, (n + 1) * span * sizeof(*nw));
		for (j = 0; j <= n; j++) {
			for (s = 0; s < span; s++) {
				if (!w[j * span + s])
					continue;
				pc = 1;
				for (c = 0; j + c <= n; c++) {
					size_t kept = j >= k ? 0 :
						      (c < k - j ? c : k - j);

					nw[(j + c) * span + s + kept * face] +=
						w[j * span + s] * pc;
					pc *= die->p[idx] / (c + 1);
					if (!pc)
						break;
				}
			}
		}
		memcpy(w, nw, (n + 1) * span * sizeof(*w));
	}
	for (c = 2; c <= n; c++)
		lf += log((double)c);
	for (s = 0; s < span; s++)
		d->p[s] = w[n * span + s] * exp(lf);
	free(w);
	free(nw);
	return 0;
}

static int fdc_dist_term(const struct fdc_dice_term *t, struct fdc_dice_dist *d)
{
	struct fdc_dice_dist die, one;
	double q = 0;
	size_t i;
	int ret = 0;

	if (!t->count)
		return fdc_dist_alloc(d, (s64)t->sides, 1) ? -1 :
		       (d->p[0] = 1, 0);
	if (fdc_dist_die(t, &die))
		return -1;
	if (t->pool.op) {
		/* Successes: a sum of Bernoulli(q) over the kept dice. */
		for (i = 0; i < die.n; i++)
			if (fdc_dice_match(&t->pool, die.min + (s64)i))
				q += die.p[i];
		free(die.p);
		if (fdc_dist_alloc(&die, 0, 2))
			return -1;
		die.p[0] = 1 - q;
		die.p[1] = q;
		if (t->keep) {
			free(die.p);
			return -1;
		}
	}
	if (t->keep && !t->pool.op) {
		ret = fdc_dist_keep(t, &die, d);
		free(die.p);
		return ret;
	}
	if (fdc_dist_alloc(d, 0, 1)) {
		free(die.p);
		return -1;
	}
	d->p[0] = 1;
	for (i = 0; i < t->count && !ret; i++) {
		one = die;
		ret = fdc_dist_add(d, &one, 1);
	}
	free(die.p);
	return ret;
}

/* Apply '*' and '/' to every total of @d. */
static int fdc_dist_ops(const struct fdc_dice_term *t, struct fdc_dice_dist *d)
{
	struct fdc_dice_dist r;
	s64 lo, hi, v;
	size_t i;

	if (!t->nops)
		return 0;
	lo = fdc_apply_ops(t, d->min);
	hi = fdc_apply_ops(t, d->min + (s64)d->n - 1);
	if (hi - lo + 1 > FDC_DIST_MAX || fdc_dist_alloc(&r, lo, hi - lo + 1))
		return -1;
	for (i = 0; i < d->n; i++) {
		v = fdc_apply_ops(t, d->min + (s64)i);
		r.p[v - lo] += d->p[i];
	}
	free(d->p);
	*d = r;
	return 0;
}

/**
 * fdc_dice_dist() - the exact distribution of one total of an expression
 * @expr: the expression
 * @d: the distribution; free d->p afterwards
 * @err: where a one-line reason goes on failure
 * @errlen: room in @err
 *
 * Sums and differences by convolution; keeping and dropping by counting
 * the dice on each face; success pools as sums of Bernoulli trials.
 * Exploding dice have no finite distribution and are refused.
 *
 * Return: 0, or -1 with @err set.
 */
int fdc_dice_dist(const struct fdc_dice_expr *expr, struct fdc_dice_dist *d,
		  char *err, size_t errlen)
{
	struct fdc_dice_dist t;
	unsigned int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < expr->nterms; i++) {
		if (expr->term[i].explode) {
			snprintf(err, errlen, "exploding dice have no finite distribution");
			goto out_fail;
		}
		if (expr->term[i].pool.op && expr->term[i].keep) {
			snprintf(err, errlen,
				 "a success pool that keeps or drops dice is not supported");
			goto out_fail;
		}
	}
	if (fdc_dist_alloc(d, 0, 1))
		goto out_big;
	d->p[0] = 1;
	for (i = 0; i < expr->nterms; i++) {
		if (fdc_dist_term(&expr->term[i], &t))
			goto out_big;
		if (fdc_dist_ops(&expr->term[i], &t) ||
		    fdc_dist_add(d, &t, expr->term[i].sign)) {
			free(t.p);
			goto out_big;
		}
		free(t.p);
	}
	return 0;

out_big:
	snprintf(err, errlen, "the distribution is too large to compute (at most %u totals)",
		 FDC_DIST_MAX);
out_fail:
	free(d->p);
	d->p = NULL;
	return -1;
}
