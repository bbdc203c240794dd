// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - parsing and rolling dice expressions (grammar in dice.h).
 *
 * Every die is its own exact roll of its own size: a 3d6+1d4 is three d6
 * rolls and one d4 roll, never one big roll cut up by division. A die
 * rerolled while it matches ("r") is one roll of the faces that stay, so
 * that it is uniform on them and takes a bounded time; a die explodes at
 * most FDC_DICE_MAX_EXPLODE times. Nothing in a valid expression can fail
 * while it is rolled: every bound is checked when it is parsed.
 *
 * The exact distributions for --stats are in dice_dist.c.
 */

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"
#include "msg.h"

/* Messages naming where fairdie and Roll20 or avrae part. */
static const char fdc_ra_strict[] =
	"avrae reads '>' and '<' strictly, Roll20 inclusively";
static const char *const fdc_keep_each[] = {
	"keeping or dropping dice that explode with '!' or '!p'",
	"Roll20 ranks each new face as a die, fairdie does not",
	"use '!!' or 'x', which keep whole dice",
};

static const char *const fdc_pool_only[] = {
	"a group of one roll keeps, drops or counts its dice one by one",
	"it holds dice added together, and numbers added for counting",
	"as {4d6+3d8}k4 or {3d20+5}>21",
};

static const char *const fdc_fraction[] = {
	"the total can be a fraction",
	"Roll20 keeps fractions (d20/2 can be 10.5), fairdie's totals are whole",
	"write floor(...), ceil(...) or round(...)",
};

/* Denominators of fractions on the way to a whole total stay below this. */
#define FDC_DEN_MAX	BIT_ULL(40)

/*
 * A value beyond 64 bits inside {...} (defer): a keep of the group may
 * bring it back ({1d18446744073709551615+1d6}k1 never leaves 64 bits), so
 * the first such value (wide, at pos, below -(2^64-1) when neg) is noted
 * and the group decides (fdc_parse_group()).
 */
struct fdc_wide {
	bool defer;
	bool wide;
	bool neg;
	size_t pos;
};

struct fdc_parser {
	const char *s;
	size_t pos;
	char *err;
	size_t errlen;
	struct fdc_dice_expr *e;
	unsigned int depth;
	struct fdc_wide wide;
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

/* The character at @pos as a message shows it. */
static const char *fdc_char_at(const struct fdc_parser *p, size_t pos)
{
	return fdc_quote_mem(p->s + pos, 1);
}

static int fdc_unexpected(struct fdc_parser *p, const char *what)
{
	if (!p->s[p->pos])
		return fdc_parse_fail(p, "expected %s at the end", what);
	return fdc_parse_fail(p, "unexpected '%s' at position %zu, expected %s",
			      fdc_char_at(p, p->pos), p->pos + 1, what);
}

static char fdc_peek(const struct fdc_parser *p)
{
	return (char)tolower((unsigned char)p->s[p->pos]);
}

static void fdc_skip_blanks(struct fdc_parser *p)
{
	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
}

static bool fdc_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

/* Positions in messages count characters from 1. */
static int fdc_parse_number(struct fdc_parser *p, u64 *v, const char *what)
{
	size_t start = p->pos;
	u64 n = 0;

	if (!fdc_isdigit(p->s[p->pos]))
		return fdc_unexpected(p, what);
	while (fdc_isdigit(p->s[p->pos])) {
		unsigned int d = p->s[p->pos] - '0';

		if (n > (UINT64_MAX - d) / 10)
			return fdc_parse_fail(p,
				"number too large at position %zu (at most 2^64-1)",
				start + 1);
		n = n * 10 + d;
		p->pos++;
	}
	*v = n;
	return 0;
}

/* A number that may be negative (faces of dF, or of mi and ma). */
static int fdc_parse_signed(struct fdc_parser *p, s128 *v, const char *what)
{
	bool neg = p->s[p->pos] == '-';
	u64 n;
	int ret;

	p->pos += neg;
	ret = fdc_parse_number(p, &n, what);
	*v = neg ? -(s128)n : (s128)n;
	return ret;
}

/**
 * fdc_dice_match() - whether a face meets a compare point
 * @c: the compare point
 * @face: the face
 *
 * Return: true when it does.
 */
bool fdc_dice_match(const struct fdc_dice_cond *c, s128 face)
{
	switch (c->op) {
	case FDC_CMP_EQ:
		return face == c->value;
	case FDC_CMP_LE:
		return face <= c->value;
	case FDC_CMP_GE:
		return face >= c->value;
	default:
		return false;
	}
}

/*
 * A compare point: "=N", ">N", "<N" (inclusive, as in Roll20), ">=N",
 * "<=N" (the same), or with @bare a plain "N" for "=N". Returns 1 when
 * there is none here.
 */
static int fdc_parse_cp(struct fdc_parser *p, struct fdc_dice_cond *c,
			bool bare, const char *what)
{
	char ch = p->s[p->pos];

	if (ch == '=') {
		c->op = FDC_CMP_EQ;
		p->pos++;
	} else if (ch == '>' || ch == '<') {
		c->op = ch == '>' ? FDC_CMP_GE : FDC_CMP_LE;
		p->pos++;
		if (p->s[p->pos] == '=')
			p->pos++;
	} else if (bare && (fdc_isdigit(ch) ||
			    (ch == '-' && fdc_isdigit(p->s[p->pos + 1])))) {
		c->op = FDC_CMP_EQ;
	} else {
		return 1;
	}
	return fdc_parse_signed(p, &c->value, what);
}

/* ------------------------------------------------------------------------
 * Bounds: the least and largest value of each node, and its denominator
 */

static __int128 fdc_min128(__int128 a, __int128 b)
{
	return a < b ? a : b;
}

static __int128 fdc_max128(__int128 a, __int128 b)
{
	return a > b ? a : b;
}

static __int128 fdc_floor_div(__int128 a, __int128 b)
{
	__int128 q = a / b;

	return (a % b && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static __int128 fdc_ceil_div(__int128 a, __int128 b)
{
	__int128 q = a / b;

	return (a % b && ((a < 0) == (b < 0))) ? q + 1 : q;
}

/* @a * @b, or the largest value of its sign when that does not fit. */
static __int128 fdc_mul_sat(__int128 a, __int128 b)
{
	__int128 r;

	if (!__builtin_mul_overflow(a, b, &r))
		return r;
	r = (__int128)(~(fd_u128)0 >> 1);
	return (a < 0) != (b < 0) ? -r : r;
}

/**
 * fdc_dice_str() - a value in decimal
 * @v: the value
 * @buf: room for it, at least 41 characters
 *
 * Return: @buf.
 */
char *fdc_dice_str(s128 v, char *buf)
{
	fd_u128 u = v < 0 ? -(fd_u128)v : (fd_u128)v;
	char tmp[40];
	size_t n = 0, i = 0;

	do {
		tmp[n++] = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (v < 0)
		buf[i++] = '-';
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}

static int fdc_wide_fail(struct fdc_parser *p, const struct fdc_wide *w)
{
	return fdc_parse_fail(p,
		"a value could leave 64 bits, beyond %s (near position %zu)",
		w->neg ? "-(2^64-1)" : "2^64-1", w->pos);
}

/* Values beyond 64 bits noted from here on; the state before in @save. */
static void fdc_wide_enter(struct fdc_parser *p, struct fdc_wide *save)
{
	*save = p->wide;
	p->wide.defer = true;
	p->wide.wide = false;
}

/* Back to the state @save; what was noted since in @seen. */
static void fdc_wide_leave(struct fdc_parser *p, const struct fdc_wide *save,
			   struct fdc_wide *seen)
{
	*seen = p->wide;
	p->wide = *save;
}

/* A value beyond 64 bits, @w: noted inside {...}, else refused. */
static int fdc_wide_note(struct fdc_parser *p, const struct fdc_wide *w)
{
	if (!p->wide.defer)
		return fdc_wide_fail(p, w);
	if (!p->wide.wide) {
		p->wide.wide = true;
		p->wide.neg = w->neg;
		p->wide.pos = w->pos;
	}
	return 0;
}

static int fdc_set_bounds(struct fdc_parser *p, struct fdc_dice_node *n,
			  __int128 lo, __int128 hi, __int128 den)
{
	struct fdc_wide w = { .neg = lo < -FDC_DICE_LIMIT, .pos = p->pos };

	if (lo < -FDC_DICE_LIMIT || hi > FDC_DICE_LIMIT) {
		if (fdc_wide_note(p, &w))
			return -EINVAL;
		/* Held just beyond the limit: the group refuses it or rebounds. */
		lo = fdc_min128(fdc_max128(lo, -FDC_DICE_LIMIT - 1),
				FDC_DICE_LIMIT + 1);
		hi = fdc_min128(fdc_max128(hi, -FDC_DICE_LIMIT - 1),
				FDC_DICE_LIMIT + 1);
	}
	if (den < 0 || den > (__int128)FDC_DEN_MAX)
		return fdc_parse_fail(p, "too many fractions on the way (near position %zu)",
				      p->pos);
	n->lo = lo;
	n->hi = hi;
	n->den = (u64)den;
	return 0;
}

/* The faces a die can show, after mi and ma. */
static void fdc_face_range(const struct fdc_dice_term *t, s128 *lo, s128 *hi)
{
	*lo = 1 + t->offset;
	*hi = (s128)t->sides + t->offset;
	if (t->has_min) {
		*lo = *lo > t->min_face ? *lo : t->min_face;
		*hi = *hi > t->min_face ? *hi : t->min_face;
	}
	if (t->has_max) {
		*lo = *lo < t->max_face ? *lo : t->max_face;
		*hi = *hi < t->max_face ? *hi : t->max_face;
	}
}

/**
 * fdc_dice_kept_count() - how many of @n dice or items a keep or drop
 *	leaves
 * @m: the modifiers
 * @n: the dice or items
 *
 * Return: the count kept.
 */
u64 fdc_dice_kept_count(const struct fdc_dice_mods *m, u64 n)
{
	if (!m->has_keep)
		return n;
	if (m->drop)
		return m->keep >= n ? 0 : n - m->keep;
	return m->keep < n ? m->keep : n;
}

static int fdc_bound_dice(struct fdc_parser *p, struct fdc_dice_node *n)
{
	const struct fdc_dice_term *t = &n->dice;
	__int128 flo, fhi, dlo, dhi, units, kept;
	s128 a, b;

	fdc_face_range(t, &a, &b);
	flo = a;
	fhi = b;
	kept = fdc_dice_kept_count(&t->mods, t->count);
	units = kept;
	dlo = flo;
	dhi = fhi;
	switch (t->explode) {
	case FDC_EXPLODE_NONE:
		break;
	case FDC_EXPLODE_PENETRATE:
		dhi = fhi + (__int128)FDC_DICE_MAX_EXPLODE * (fhi - 1);
		units = kept * (FDC_DICE_MAX_EXPLODE + 1);
		break;
	case FDC_EXPLODE_COMPOUND:
		dhi = fhi * (FDC_DICE_MAX_EXPLODE + 1);
		break;
	default:
		dhi = fhi * (FDC_DICE_MAX_EXPLODE + 1);
		units = kept * (FDC_DICE_MAX_EXPLODE + 1);
		break;
	}
	if (t->has_ra) {
		kept++;
		units++;
	}
	if (t->mods.success.op)
		return fdc_set_bounds(p, n, t->mods.failure.op ? -units : 0,
				      units, 1);
	return fdc_set_bounds(p, n, fdc_min128(kept * dlo, 0) +
			      (t->has_ra ? 0 : fdc_max128(kept * dlo, 0)),
			      kept * dhi, 1);
}

static int fdc_bound_group(struct fdc_parser *p, struct fdc_dice_node *n)
{
	struct fdc_dice_expr *e = p->e;
	__int128 lo = 0, hi = 0, mlo = 0, mhi = 0, kept;
	unsigned int i;

	kept = fdc_dice_kept_count(&n->mods, n->nitems);
	for (i = 0; i < n->nitems; i++) {
		const struct fdc_dice_node *c = &e->node[e->items[n->first + i]];

		lo += c->lo;
		hi += c->hi;
		mlo = i ? fdc_min128(mlo, c->lo) : c->lo;
		mhi = i ? fdc_max128(mhi, c->hi) : c->hi;
	}
	if (n->mods.success.op)
		return fdc_set_bounds(p, n, n->mods.failure.op ? -kept : 0,
				      kept, 1);
	if (kept < n->nitems) {
		lo = kept * mlo;
		hi = kept * mhi;
	}
	return fdc_set_bounds(p, n, lo, hi, 1);
}

static int fdc_bound_op(struct fdc_parser *p, struct fdc_dice_node *n)
{
	const struct fdc_dice_node *a = &p->e->node[n->a];
	const struct fdc_dice_node *b = &p->e->node[n->b];
	char lo_s[48], hi_s[48];
	__int128 c[4], lo, hi, m, den = fdc_mul_sat(a->den, b->den);
	int i;

	switch (n->kind) {
	case FDC_NODE_ADD:
		return fdc_set_bounds(p, n, (__int128)a->lo + b->lo,
				      (__int128)a->hi + b->hi, den);
	case FDC_NODE_SUB:
		return fdc_set_bounds(p, n, (__int128)a->lo - b->hi,
				      (__int128)a->hi - b->lo, den);
	case FDC_NODE_MUL:
		c[0] = fdc_mul_sat(a->lo, b->lo);
		c[1] = fdc_mul_sat(a->lo, b->hi);
		c[2] = fdc_mul_sat(a->hi, b->lo);
		c[3] = fdc_mul_sat(a->hi, b->hi);
		lo = c[0];
		hi = c[0];
		for (i = 1; i < 4; i++) {
			lo = fdc_min128(lo, c[i]);
			hi = fdc_max128(hi, c[i]);
		}
		return fdc_set_bounds(p, n, lo, hi, den);
	case FDC_NODE_DIV:
	case FDC_NODE_MOD:
		if (b->lo <= 0 && b->hi >= 0)
			return fdc_parse_fail(p,
				"the divisor before position %zu can be 0 (%s..%s)",
				p->pos + 1, fdc_dice_str(b->lo, lo_s),
				fdc_dice_str(b->hi, hi_s));
		break;
	default:
		return -EINVAL;
	}
	m = fdc_max128(-(__int128)b->lo, b->hi);
	if (n->kind == FDC_NODE_MOD) {
		if (a->den > 1 || b->den > 1)
			return fdc_parse_fail(p,
				"'%%' of a fraction before position %zu: round it first",
				p->pos + 1);
		/* The remainder takes the sign of the dividend, as in Roll20. */
		lo = a->lo >= 0 ? 0 : fdc_max128(a->lo, -(m - 1));
		hi = a->hi <= 0 ? 0 : fdc_min128(a->hi, m - 1);
		return fdc_set_bounds(p, n, lo, hi, 1);
	}
	/* Dividing by numbers of one sign: the extremes are at the corners. */
	c[0] = fdc_floor_div(a->lo, b->lo);
	c[1] = fdc_floor_div(a->lo, b->hi);
	c[2] = fdc_floor_div(a->hi, b->lo);
	c[3] = fdc_floor_div(a->hi, b->hi);
	lo = c[0];
	hi = c[0];
	for (i = 1; i < 4; i++) {
		lo = fdc_min128(lo, c[i]);
		hi = fdc_max128(hi, c[i]);
	}
	hi++;
	if (b->lo == b->hi && (b->lo == 1 || b->lo == -1) && b->den == 1)
		den = a->den;
	else
		den = fdc_mul_sat(fdc_mul_sat(a->den, m), b->den);
	return fdc_set_bounds(p, n, lo, hi, den);
}

static int fdc_bound_unary(struct fdc_parser *p, struct fdc_dice_node *n)
{
	const struct fdc_dice_node *a = &p->e->node[n->a];

	switch (n->kind) {
	case FDC_NODE_NEG:
		return fdc_set_bounds(p, n, -(__int128)a->hi, -(__int128)a->lo, a->den);
	case FDC_NODE_ABS:
		return fdc_set_bounds(p, n, a->lo >= 0 ? a->lo :
				      a->hi <= 0 ? -(__int128)a->hi : 0,
				      fdc_max128(-(__int128)a->lo, a->hi), a->den);
	default:
		/* floor, ceil and round stay within the bounds, whole. */
		return fdc_set_bounds(p, n, a->lo, a->hi, 1);
	}
}

/* ------------------------------------------------------------------------
 * Parsing
 */

static int fdc_new_node(struct fdc_parser *p, enum fdc_node_kind kind,
			unsigned int *idx)
{
	struct fdc_dice_expr *e = p->e;

	if (e->nnodes == FDC_DICE_MAX_NODES)
		return fdc_parse_fail(p, "too long: at most %d numbers, dice and operators",
				      FDC_DICE_MAX_NODES);
	*idx = e->nnodes++;
	memset(&e->node[*idx], 0, sizeof(e->node[*idx]));
	e->node[*idx].kind = kind;
	return 0;
}

static int fdc_parse_expr(struct fdc_parser *p, unsigned int *idx);

static int fdc_parse_keep(struct fdc_parser *p, struct fdc_dice_mods *m,
			  size_t at)
{
	char c = fdc_peek(p);
	u64 n;
	int ret;

	if (m->has_keep)
		return fdc_parse_fail(p, "a second keep or drop at position %zu",
				      at + 1);
	m->has_keep = true;
	m->drop = c == 'd';
	p->pos++;
	/* k and kh keep the highest, d and dl drop the lowest. */
	m->keep_low = m->drop;
	if (fdc_peek(p) == 'h' || fdc_peek(p) == 'l') {
		bool low = fdc_peek(p) == 'l';

		m->keep_low = m->drop ? !low : low;
		p->pos++;
	} else if (m->drop) {
		m->keep_low = false;
	}
	ret = fdc_parse_number(p, &n, m->drop ? "the number of dice to drop" :
			       "the number of dice to keep");
	m->keep = n;
	return ret;
}

/*
 * Successes ">N", and failures "fN" after them: modifiers that dice and
 * groups share. Returns 1 when the next character starts neither.
 */
static int fdc_parse_count_mod(struct fdc_parser *p, struct fdc_dice_mods *m)
{
	size_t at = p->pos;
	int ret;

	if (strchr("<>=", p->s[p->pos]) && p->s[p->pos]) {
		if (m->success.op)
			return fdc_parse_fail(p, "a second compare point at position %zu",
					      at + 1);
		return fdc_parse_cp(p, &m->success, false, "the target number");
	}
	if (fdc_peek(p) == 'f') {
		if (m->failure.op)
			return fdc_parse_fail(p, "a second 'f' at position %zu",
					      at + 1);
		p->pos++;
		ret = fdc_parse_cp(p, &m->failure, true, "the failure number");
		if (ret > 0)
			return fdc_unexpected(p, "a compare point after 'f'");
		return ret;
	}
	if (fdc_peek(p) == 'k' || fdc_peek(p) == 'd')
		return fdc_parse_keep(p, m, at);
	return 1;
}

static int fdc_check_mods(struct fdc_parser *p, const struct fdc_dice_mods *m)
{
	if (m->failure.op && !m->success.op)
		return fdc_parse_fail(p,
			"failures need a success compare point before them, as in 10d10>=8f1");
	return 0;
}

/* Whether some face escapes every reroll condition. */
static bool fdc_some_face_stays(const struct fdc_dice_term *t)
{
	s128 lo = 1 + t->offset, hi = (s128)t->sides + t->offset;
	unsigned int i, j, inside = 0;

	for (i = 0; i < t->nreroll; i++) {
		const struct fdc_dice_cond *c = &t->reroll[i];

		if (c->op == FDC_CMP_LE && c->value >= lo)
			lo = c->value + 1;
		if (c->op == FDC_CMP_GE && c->value <= hi)
			hi = c->value - 1;
	}
	if (lo > hi)
		return false;
	for (i = 0; i < t->nreroll; i++) {
		const struct fdc_dice_cond *c = &t->reroll[i];
		bool seen = false;

		for (j = 0; j < i; j++)
			seen |= t->reroll[j].op == FDC_CMP_EQ &&
				t->reroll[j].value == c->value;
		inside += c->op == FDC_CMP_EQ && !seen && c->value >= lo &&
			  c->value <= hi;
	}
	return (u64)(hi - lo) + 1 > inside;
}

static int fdc_parse_explode(struct fdc_parser *p, struct fdc_dice_term *t)
{
	size_t at = p->pos;
	s128 lo, hi;
	int ret;

	if (t->explode)
		return fdc_parse_fail(p, "a second explosion at position %zu",
				      at + 1);
	if (t->fudge)
		return fdc_parse_fail(p, "fudge dice do not explode (position %zu)",
				      at + 1);
	fdc_face_range(t, &lo, &hi);
	if (p->s[p->pos] == 'x' || p->s[p->pos] == 'X') {
		u64 v = t->sides;

		/* fairdie's own: x explodes on its number or more. */
		p->pos++;
		t->explode = FDC_EXPLODE_WHOLE;
		if (fdc_isdigit(p->s[p->pos])) {
			ret = fdc_parse_number(p, &v, "the explosion threshold");
			if (ret)
				return ret;
		}
		t->explode_on.op = FDC_CMP_GE;
		t->explode_on.value = (s128)v;
	} else {
		p->pos++;
		t->explode = FDC_EXPLODE_EACH;
		if (p->s[p->pos] == '!') {
			t->explode = FDC_EXPLODE_COMPOUND;
			p->pos++;
		} else if (fdc_peek(p) == 'p') {
			t->explode = FDC_EXPLODE_PENETRATE;
			p->pos++;
		}
		ret = fdc_parse_cp(p, &t->explode_on, true,
				   "the explosion's compare point");
		if (ret < 0)
			return ret;
		if (ret) {
			t->explode_on.op = FDC_CMP_EQ;
			t->explode_on.value = hi;
		}
	}
	if (fdc_dice_match(&t->explode_on, lo) &&
	    fdc_dice_match(&t->explode_on, hi) &&
	    (t->explode_on.op != FDC_CMP_EQ || lo == hi))
		return fdc_parse_fail(p,
			"every face explodes (position %zu): the die would never stop",
			at + 1);
	return 0;
}

static int fdc_parse_reroll(struct fdc_parser *p, struct fdc_dice_term *t)
{
	size_t at = p->pos;
	bool once = false;
	int ret;

	p->pos++;
	if (fdc_peek(p) == 'a') {
		u64 v;

		/* avrae/d20's ra: its > and < are strict, so a face only. */
		p->pos++;
		if (t->has_ra)
			return fdc_parse_fail(p, "a second 'ra' at position %zu",
					      at + 1);
		if (strchr("<>=", p->s[p->pos]) && p->s[p->pos])
			return fdc_parse_fail(p, "'ra' takes a face at position %zu: %s",
					      at + 1, fdc_ra_strict);
		ret = fdc_parse_number(p, &v, "the face to reroll and add");
		t->has_ra = true;
		t->ra = (s128)v;
		return ret;
	}
	if (fdc_peek(p) == 'o') {
		once = true;
		p->pos++;
	}
	if (t->nreroll && once != t->reroll_once)
		return fdc_parse_fail(p, "'r' and 'ro' together at position %zu",
				      at + 1);
	if (t->nreroll == FDC_DICE_MAX_REROLLS)
		return fdc_parse_fail(p, "more than %d rerolls at position %zu",
				      FDC_DICE_MAX_REROLLS, at + 1);
	t->reroll_once = once;
	ret = fdc_parse_cp(p, &t->reroll[t->nreroll++], true,
			   "the face to reroll");
	if (ret > 0)
		return fdc_unexpected(p, "the face to reroll");
	if (ret)
		return ret;
	if (!once && !fdc_some_face_stays(t))
		return fdc_parse_fail(p, "every face would be rerolled forever (position %zu)",
				      at + 1);
	return 0;
}

static int fdc_parse_modifiers(struct fdc_parser *p, struct fdc_dice_term *t)
{
	size_t at;
	int ret;

	for (;;) {
		at = p->pos;
		switch (fdc_peek(p)) {
		case '!':
		case 'x':
			ret = fdc_parse_explode(p, t);
			break;
		case 'r':
			ret = fdc_parse_reroll(p, t);
			break;
		case 'm':
			p->pos++;
			if (fdc_peek(p) != 'i' && fdc_peek(p) != 'a')
				return fdc_parse_fail(p,
					"Roll20's 'm' (matching) at %zu: not supported",
					at + 1);
			if (fdc_peek(p) == 'i') {
				t->has_min = true;
				p->pos++;
				ret = fdc_parse_signed(p, &t->min_face, "the least face");
			} else {
				t->has_max = true;
				p->pos++;
				ret = fdc_parse_signed(p, &t->max_face, "the largest face");
			}
			break;
		case 's':
			return fdc_parse_fail(p,
				"sorting ('s', 'sa', 'sd') at position %zu is not supported",
				at + 1);
		default:
			ret = fdc_parse_count_mod(p, &t->mods);
			if (ret > 0)
				return 0;
			break;
		}
		if (ret)
			return ret;
	}
}

static int fdc_check_dice(struct fdc_parser *p, const struct fdc_dice_term *t)
{
	if ((t->explode == FDC_EXPLODE_EACH ||
	     t->explode == FDC_EXPLODE_PENETRATE) && t->mods.has_keep)
		return fdc_parse_fail(p, "%s: %s; %s", fdc_keep_each[0],
				      fdc_keep_each[1], fdc_keep_each[2]);
	if (t->has_ra && (t->explode || t->mods.has_keep || t->mods.success.op))
		return fdc_parse_fail(p, "%s, %s",
				      "'ra' goes with r, ro, mi and ma only",
				      "not with explosions, keeping or compare points");
	if ((t->has_min || t->has_max) && t->explode)
		return fdc_parse_fail(p, "'mi' and 'ma' do not go with explosions");
	if (t->mods.has_keep && t->mods.keep > t->count)
		return fdc_parse_fail(p, "cannot %s %llu of %llu dice",
				      t->mods.drop ? "drop" : "keep",
				      (unsigned long long)t->mods.keep,
				      (unsigned long long)t->count);
	return fdc_check_mods(p, &t->mods);
}

static int fdc_parse_dice(struct fdc_parser *p, u64 count, size_t start,
			  unsigned int *idx)
{
	struct fdc_dice_term *t;
	int ret;

	ret = fdc_new_node(p, FDC_NODE_DICE, idx);
	if (ret)
		return ret;
	t = &p->e->node[*idx].dice;
	t->count = count;
	if (count > FDC_DICE_MAX_DICE)
		return fdc_parse_fail(p, "too many dice at position %zu: at most %d",
				      start + 1, FDC_DICE_MAX_DICE);
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
	} else if (fdc_isdigit(p->s[p->pos])) {
		ret = fdc_parse_number(p, &t->sides, "the number of sides");
		if (ret)
			return ret;
		if (!t->sides)
			return fdc_parse_fail(p, "a die needs at least 1 side (position %zu)",
					      start + 1);
	} else if (p->s[p->pos] == '(') {
		return fdc_parse_fail(p,
			"computed sides like d(2*3) at position %zu are not supported",
			p->pos + 1);
	} else {
		return fdc_unexpected(p, "the number of sides after 'd'");
	}
	ret = fdc_parse_modifiers(p, t);
	if (ret)
		return ret;
	ret = fdc_check_dice(p, t);
	if (ret)
		return ret;
	return fdc_bound_dice(p, &p->e->node[*idx]);
}

/*
 * The dice of a one-roll group, {4d6+3d8}k4: @idx's tree holds dice and
 * numbers added together (a number may be subtracted); the dice go to
 * @dice, the numbers add up in @c.
 */
static int fdc_pool_collect(struct fdc_parser *p, unsigned int idx, bool neg,
			    unsigned int *dice, unsigned int *nd, s128 *c)
{
	const struct fdc_dice_node *n = &p->e->node[idx];
	int ret;

	switch (n->kind) {
	case FDC_NODE_DICE:
		if (neg)
			break;
		if (n->dice.mods.has_keep || n->dice.mods.success.op)
			return fdc_parse_fail(p,
				"a keep or compare point inside {...} and after it");
		dice[(*nd)++] = idx;
		return 0;
	case FDC_NODE_NUM:
		*c += neg ? -n->num : n->num;
		return 0;
	case FDC_NODE_ADD:
	case FDC_NODE_SUB:
		ret = fdc_pool_collect(p, n->a, neg, dice, nd, c);
		if (ret)
			return ret;
		return fdc_pool_collect(p, n->b, neg != (n->kind == FDC_NODE_SUB),
					dice, nd, c);
	default:
		break;
	}
	return fdc_parse_fail(p, "%s: %s, %s", fdc_pool_only[0],
			      fdc_pool_only[1], fdc_pool_only[2]);
}

/* A compare point met by a face plus @c: the same one, less @c. */
static struct fdc_dice_cond fdc_cond_less(struct fdc_dice_cond cp, s128 c)
{
	if (cp.op)
		cp.value -= c;
	return cp;
}

/*
 * Roll20's one-roll group with keep, drop or successes, {4d6+3d8}k4 or
 * {3d20+5}>21: the dice of its one roll are the items kept or counted
 * ({3d20+5}>21 counts the dice showing 16 or more).
 */
static int fdc_parse_pool(struct fdc_parser *p, unsigned int item,
			  const struct fdc_dice_mods *m, unsigned int *idx)
{
	struct fdc_dice_expr *e = p->e;
	unsigned int dice[FDC_DICE_MAX_NODES], nd = 0, i;
	__int128 lo = 0, hi = 0, dlo = 0, dhi = 0;
	struct fdc_dice_node *g;
	u64 count = 0;
	s128 c = 0;
	int ret;

	ret = fdc_pool_collect(p, item, false, dice, &nd, &c);
	if (ret)
		return ret;
	if (m->has_keep && m->success.op)
		return fdc_parse_fail(p,
			"keeping and counting in one group of one roll: write {...}k4 or {...}>5");
	if (m->has_keep && c)
		return fdc_parse_fail(p,
			"a number inside a group of one roll that keeps or drops: add it after the '}'");
	for (i = 0; i < nd; i++) {
		struct fdc_dice_node *n = &e->node[dice[i]];
		struct fdc_dice_term *t = &n->dice;
		u64 cnt = t->count;
		__int128 one_lo, one_hi;

		count += cnt;
		t->pooled = true;
		t->mods.success = fdc_cond_less(m->success, c);
		t->mods.failure = fdc_cond_less(m->failure, c);
		/* Checked as if the keep were the term's own. */
		t->mods.has_keep = m->has_keep;
		ret = fdc_check_dice(p, t);
		t->mods.has_keep = false;
		if (ret)
			return ret;
		t->count = 1;
		ret = fdc_bound_dice(p, n);
		one_lo = n->lo;
		one_hi = n->hi;
		t->count = cnt;
		if (!ret)
			ret = fdc_bound_dice(p, n);
		if (ret)
			return ret;
		dlo = i ? fdc_min128(dlo, one_lo) : one_lo;
		dhi = i ? fdc_max128(dhi, one_hi) : one_hi;
		lo += n->lo;
		hi += n->hi;
	}
	if (count > FDC_DICE_MAX_DICE)
		return fdc_parse_fail(p, "too many dice in {...}: at most %d",
				      FDC_DICE_MAX_DICE);
	if (m->has_keep && m->keep > count)
		return fdc_parse_fail(p, "cannot %s %llu of %llu dice",
				      m->drop ? "drop" : "keep",
				      (unsigned long long)m->keep,
				      (unsigned long long)count);
	if (e->nitems + nd > FDC_DICE_MAX_NODES)
		return fdc_parse_fail(p, "too many items in groups");
	ret = fdc_new_node(p, FDC_NODE_GROUP, idx);
	if (ret)
		return ret;
	g = &e->node[*idx];
	g->pool = true;
	g->num = c;
	g->first = e->nitems;
	g->nitems = nd;
	g->mods = *m;
	for (i = 0; i < nd; i++)
		e->items[e->nitems++] = dice[i];
	if (m->has_keep) {
		u64 k = fdc_dice_kept_count(m, count);

		lo = k * dlo;
		hi = k * dhi;
	}
	return fdc_set_bounds(p, g, lo, hi, 1);
}

/* The items of {...} and the modifiers after it. */
static int fdc_parse_group_items(struct fdc_parser *p, unsigned int *items,
				 unsigned int *n, struct fdc_dice_mods *m)
{
	struct fdc_dice_expr *e = p->e;
	unsigned int it;
	int ret;

	p->pos++;	/* the '{' */
	for (;;) {
		ret = fdc_parse_expr(p, &it);
		if (ret)
			return ret;
		if (e->node[it].den > 1)
			return fdc_parse_fail(p,
				"an item of {...} can be a fraction (at %zu): round it",
				p->pos + 1);
		items[(*n)++] = it;
		fdc_skip_blanks(p);
		if (p->s[p->pos] == '}')
			break;
		if (p->s[p->pos] != ',')
			return fdc_unexpected(p, "',' or '}'");
		p->pos++;
	}
	p->pos++;
	for (;;) {
		ret = fdc_parse_count_mod(p, m);
		if (ret > 0)
			break;
		if (ret)
			return ret;
	}
	return fdc_check_mods(p, m);
}

/*
 * The group of @items and @m. Only a one-roll group that keeps or counts
 * bounds its value again from its dice alone: when an item could leave 64
 * bits (@wide), any other group fails.
 */
static int fdc_parse_group_end(struct fdc_parser *p, unsigned int *items,
			       unsigned int n, const struct fdc_dice_mods *mods,
			       unsigned int *idx, bool wide)
{
	struct fdc_dice_expr *e = p->e;
	struct fdc_dice_mods m = *mods;
	struct fdc_dice_node *g;
	unsigned int i;
	int ret;

	/* {5d6!!}>8: a group of one roll of dice counts its dice. */
	if (n == 1 && e->node[items[0]].kind == FDC_NODE_DICE) {
		struct fdc_dice_term *t = &e->node[items[0]].dice;

		if (m.has_keep && t->mods.has_keep)
			return fdc_parse_fail(p, "a keep or drop inside {...} and after it");
		if (m.success.op && t->mods.success.op)
			return fdc_parse_fail(p, "a compare point inside {...} and after it");
		if (m.has_keep) {
			t->mods.has_keep = true;
			t->mods.keep = m.keep;
			t->mods.keep_low = m.keep_low;
			t->mods.drop = m.drop;
		}
		if (m.success.op) {
			t->mods.success = m.success;
			t->mods.failure = m.failure;
		}
		ret = fdc_check_dice(p, t);
		if (ret)
			return ret;
		*idx = items[0];
		return fdc_bound_dice(p, &e->node[*idx]);
	}
	if (n == 1 && (m.has_keep || m.success.op))
		return fdc_parse_pool(p, items[0], &m, idx);
	if (wide)
		return -EINVAL;
	if (m.has_keep && m.keep > n)
		return fdc_parse_fail(p, "cannot %s %llu of %u items of {...}",
				      m.drop ? "drop" : "keep",
				      (unsigned long long)m.keep, n);
	if (e->nitems + n > FDC_DICE_MAX_NODES)
		return fdc_parse_fail(p, "too many items in groups");
	ret = fdc_new_node(p, FDC_NODE_GROUP, idx);
	if (ret)
		return ret;
	g = &e->node[*idx];
	g->first = e->nitems;
	g->nitems = n;
	g->mods = m;
	for (i = 0; i < n; i++)
		e->items[e->nitems++] = items[i];
	return fdc_bound_group(p, g);
}

static int fdc_parse_group(struct fdc_parser *p, unsigned int *idx)
{
	unsigned int items[FDC_DICE_MAX_NODES], n = 0;
	struct fdc_dice_mods m = { 0 };
	struct fdc_wide save, seen, end;
	int ret;

	fdc_wide_enter(p, &save);
	ret = fdc_parse_group_items(p, items, &n, &m);
	fdc_wide_leave(p, &save, &seen);
	if (ret)
		return seen.wide ? fdc_wide_fail(p, &seen) : ret;
	/* The group's own value (end) beyond 64 bits is noted too. */
	fdc_wide_enter(p, &save);
	ret = fdc_parse_group_end(p, items, n, &m, idx, seen.wide);
	fdc_wide_leave(p, &save, &end);
	/* What no keep brought back fails as it always did. */
	if (seen.wide && (ret || end.wide))
		return fdc_wide_fail(p, &seen);
	if (ret)
		return ret;
	return end.wide ? fdc_wide_note(p, &end) : 0;
}

static const struct {
	const char *name;
	enum fdc_node_kind kind;
} fdc_funcs[] = {
	{ "floor", FDC_NODE_FLOOR },
	{ "ceil", FDC_NODE_CEIL },
	{ "round", FDC_NODE_ROUND },
	{ "abs", FDC_NODE_ABS },
};

static int fdc_parse_func(struct fdc_parser *p, unsigned int *idx)
{
	size_t start = p->pos, len = 0, i;
	unsigned int a;
	int ret;

	while (isalpha((unsigned char)p->s[start + len]))
		len++;
	for (i = 0; i < ARRAY_SIZE(fdc_funcs); i++)
		if (strlen(fdc_funcs[i].name) == len &&
		    !strncasecmp(p->s + start, fdc_funcs[i].name, len))
			break;
	if (i == ARRAY_SIZE(fdc_funcs))
		return fdc_parse_fail(p, "unknown word at position %zu: %s",
				      start + 1,
				      "the functions are floor, ceil, round and abs");
	p->pos += len;
	fdc_skip_blanks(p);
	if (p->s[p->pos] != '(')
		return fdc_unexpected(p, "'(' after the function");
	p->pos++;
	ret = fdc_parse_expr(p, &a);
	if (ret)
		return ret;
	fdc_skip_blanks(p);
	if (p->s[p->pos] != ')')
		return fdc_unexpected(p, "')'");
	p->pos++;
	ret = fdc_new_node(p, fdc_funcs[i].kind, idx);
	if (ret)
		return ret;
	p->e->node[*idx].a = a;
	return fdc_bound_unary(p, &p->e->node[*idx]);
}

static bool fdc_starts_die(const struct fdc_parser *p, size_t pos)
{
	char c;

	if (tolower((unsigned char)p->s[pos]) != 'd')
		return false;
	c = p->s[pos + 1];
	return fdc_isdigit(c) || c == '%' || c == 'f' || c == 'F';
}

static int fdc_parse_primary(struct fdc_parser *p, unsigned int *idx)
{
	size_t start;
	u64 v;
	int ret;

	fdc_skip_blanks(p);
	start = p->pos;
	if (fdc_isdigit(p->s[p->pos])) {
		ret = fdc_parse_number(p, &v, "a number");
		if (ret)
			return ret;
		if (fdc_peek(p) == 'd')
			return fdc_parse_dice(p, v, start, idx);
		fdc_skip_blanks(p);
		if (p->pos > start && fdc_starts_die(p, p->pos))
			return fdc_parse_fail(p,
				"a blank at position %zu splits the dice: write %llu%c%.*s",
				p->pos, (unsigned long long)v, p->s[p->pos],
				(int)strspn(p->s + p->pos + 1,
					    "0123456789%fF"),
				p->s + p->pos + 1);
		ret = fdc_new_node(p, FDC_NODE_NUM, idx);
		if (ret)
			return ret;
		p->e->node[*idx].num = (s128)v;
		p->e->node[*idx].lo = (s128)v;
		p->e->node[*idx].hi = (s128)v;
		p->e->node[*idx].den = 1;
		return 0;
	}
	if (fdc_peek(p) == 'd' && !isalpha((unsigned char)p->s[p->pos + 1]))
		return fdc_parse_dice(p, 1, start, idx);
	if (fdc_peek(p) == 'd' && fdc_starts_die(p, p->pos))
		return fdc_parse_dice(p, 1, start, idx);
	if (p->s[p->pos] == '(') {
		p->pos++;
		ret = fdc_parse_expr(p, idx);
		if (ret)
			return ret;
		fdc_skip_blanks(p);
		if (p->s[p->pos] != ')')
			return fdc_unexpected(p, "')'");
		p->pos++;
		if (fdc_peek(p) == 'd')
			return fdc_parse_fail(p,
				"computed dice counts ((1+1)d6) at %zu: not supported",
				p->pos + 1);
		return 0;
	}
	if (p->s[p->pos] == '{')
		return fdc_parse_group(p, idx);
	if (isalpha((unsigned char)p->s[p->pos]))
		return fdc_parse_func(p, idx);
	return fdc_unexpected(p, "a number, a die like 'd6', '(' or '{'");
}

/* Inline labels, "1d20[fire]": text for the reader, no value. */
static int fdc_skip_labels(struct fdc_parser *p)
{
	const char *end;

	for (;;) {
		fdc_skip_blanks(p);
		if (p->s[p->pos] != '[')
			return 0;
		end = strchr(p->s + p->pos, ']');
		if (!end)
			return fdc_parse_fail(p, "the label at position %zu has no ']'",
					      p->pos + 1);
		p->pos = end - p->s + 1;
	}
}

static int fdc_parse_unary(struct fdc_parser *p, unsigned int *idx)
{
	unsigned int a;
	int ret;

	fdc_skip_blanks(p);
	if (p->s[p->pos] == '-' || p->s[p->pos] == '+') {
		bool neg = p->s[p->pos] == '-';

		p->pos++;
		if (++p->depth > FDC_DICE_MAX_NODES)
			return fdc_parse_fail(p, "too many signs in a row");
		ret = fdc_parse_unary(p, &a);
		p->depth--;
		if (ret || !neg) {
			*idx = a;
			return ret;
		}
		ret = fdc_new_node(p, FDC_NODE_NEG, idx);
		if (ret)
			return ret;
		p->e->node[*idx].a = a;
		return fdc_bound_unary(p, &p->e->node[*idx]);
	}
	ret = fdc_parse_primary(p, idx);
	if (ret)
		return ret;
	return fdc_skip_labels(p);
}

static int fdc_binary(struct fdc_parser *p, enum fdc_node_kind kind,
		      unsigned int a, unsigned int b, unsigned int *idx)
{
	int ret = fdc_new_node(p, kind, idx);

	if (ret)
		return ret;
	p->e->node[*idx].a = a;
	p->e->node[*idx].b = b;
	return fdc_bound_op(p, &p->e->node[*idx]);
}

static int fdc_parse_term(struct fdc_parser *p, unsigned int *idx)
{
	enum fdc_node_kind kind;
	unsigned int b;
	int ret;

	ret = fdc_parse_unary(p, idx);
	for (;;) {
		if (ret)
			return ret;
		fdc_skip_blanks(p);
		switch (p->s[p->pos]) {
		case '*':
			if (p->s[p->pos + 1] == '*')
				return fdc_parse_fail(p, "'**' at position %zu: no powers",
						      p->pos + 1);
			kind = FDC_NODE_MUL;
			break;
		case '/':
			kind = FDC_NODE_DIV;
			break;
		case '%':
			kind = FDC_NODE_MOD;
			break;
		default:
			return 0;
		}
		p->pos++;
		ret = fdc_parse_unary(p, &b);
		if (!ret)
			ret = fdc_binary(p, kind, *idx, b, idx);
	}
}

static int fdc_parse_expr(struct fdc_parser *p, unsigned int *idx)
{
	enum fdc_node_kind kind;
	unsigned int b;
	int ret;

	if (++p->depth > FDC_DICE_MAX_NODES)
		return fdc_parse_fail(p, "parentheses nested too deep");
	ret = fdc_parse_term(p, idx);
	for (;;) {
		if (ret)
			break;
		fdc_skip_blanks(p);
		if (p->s[p->pos] != '+' && p->s[p->pos] != '-')
			break;
		kind = p->s[p->pos] == '+' ? FDC_NODE_ADD : FDC_NODE_SUB;
		p->pos++;
		ret = fdc_parse_term(p, &b);
		if (!ret)
			ret = fdc_binary(p, kind, *idx, b, idx);
	}
	p->depth--;
	return ret;
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
	struct fdc_parser p = { .s = text, .err = err, .errlen = errlen,
				.e = expr };
	size_t at;
	u64 v;
	int ret;

	memset(expr, 0, offsetof(struct fdc_dice_expr, node));
	expr->repeat = 1;
	expr->explode_max = FDC_DICE_MAX_EXPLODE;
	fdc_skip_blanks(&p);
	if (!text[p.pos])
		return fdc_parse_fail(&p, "empty expression");
	/* NxEXPR: a number and an 'x' before anything else. */
	at = p.pos;
	while (fdc_isdigit(text[p.pos]))
		p.pos++;
	if (p.pos > at && (text[p.pos] == 'x' || text[p.pos] == 'X')) {
		p.pos = at;
		ret = fdc_parse_number(&p, &v, "a number");
		if (ret)
			return ret;
		if (!v || v > FDC_DICE_MAX_REPEAT)
			return fdc_parse_fail(&p, "%llux: the repeat count must be 1 to %d",
					      (unsigned long long)v,
					      FDC_DICE_MAX_REPEAT);
		expr->repeat = v;
		p.pos++;
	} else {
		p.pos = at;
	}
	ret = fdc_parse_expr(&p, &expr->root);
	if (ret)
		return ret;
	fdc_skip_blanks(&p);
	if (text[p.pos])
		return fdc_unexpected(&p, "an operator or the end");
	if (expr->node[expr->root].den > 1)
		return fdc_parse_fail(&p, "%s: %s; %s", fdc_fraction[0],
				      fdc_fraction[1], fdc_fraction[2]);
	return 0;
}

/* ------------------------------------------------------------------------
 * Rolling
 */

/* A value on the way: @n / @d, @d > 0, in lowest terms. */
struct fdc_q {
	__int128 n;
	__int128 d;
};

static __int128 fdc_gcd(__int128 a, __int128 b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		__int128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static struct fdc_q fdc_q_make(__int128 n, __int128 d)
{
	__int128 g;

	if (d < 0) {
		n = -n;
		d = -d;
	}
	g = fdc_gcd(n, d);
	if (g > 1) {
		n /= g;
		d /= g;
	}
	return (struct fdc_q){ n, d };
}

/* One die's faces, kept for -v. */
struct fdc_face {
	s128 value;
	bool kept;
	bool joined;	/* added to the face before it (x, !!) */
};

/**
 * struct fdc_roller - one evaluation
 * @e: the expression
 * @dev: the engine
 * @verbose: where the dice go as text, or NULL
 * @json: where they go as JSON objects, or NULL
 * @shown: dice terms written to @json
 * @deepest: the most explosions of one die
 * @val: scratch for the dice of a term: values
 * @succ: and successes
 * @raw: and the rolls as the engine gives them
 * @cap: room in @val, @succ and @raw
 * @rank: scratch for keeping
 * @faces: the faces, for -v
 * @nfaces: how many
 * @fcap: room in @faces
 */
struct fdc_roller {
	const struct fdc_dice_expr *e;
	struct fdc_engine *dev;
	FILE *verbose;
	FILE *json;
	unsigned int shown;
	unsigned int deepest;
	s128 *val;
	s128 *succ;
	u64 *raw;
	size_t cap;
	size_t *rank;
	struct fdc_face *faces;
	size_t nfaces;
	size_t fcap;
};

/* The scratch, kept from one roll to the next (the tool has one thread). */
static struct fdc_roller fdc_scratch;

static int fdc_grow(struct fdc_roller *r, size_t n)
{
	s128 *v, *s;
	size_t *k;
	u64 *w;

	if (n <= r->cap)
		return 0;
	v = realloc(r->val, n * sizeof(*v));
	if (v)
		r->val = v;
	s = realloc(r->succ, n * sizeof(*s));
	if (s)
		r->succ = s;
	k = realloc(r->rank, n * sizeof(*k));
	if (k)
		r->rank = k;
	w = realloc(r->raw, n * sizeof(*w));
	if (w)
		r->raw = w;
	if (!v || !s || !k || !w) {
		fdc_err("out of memory");
		return -1;
	}
	r->cap = n;
	return 0;
}

static int fdc_note_face(struct fdc_roller *r, s128 value, bool joined)
{
	if (!r->verbose && !r->json)
		return 0;
	if (r->nfaces == r->fcap) {
		size_t cap = r->fcap ? 2 * r->fcap : 64;
		struct fdc_face *f = realloc(r->faces, cap * sizeof(*f));

		if (!f) {
			fdc_err("out of memory");
			return -1;
		}
		r->faces = f;
		r->fcap = cap;
	}
	r->faces[r->nfaces].value = value;
	r->faces[r->nfaces].kept = true;
	r->faces[r->nfaces++].joined = joined;
	return 0;
}

/* A face of a die rerolled while it matches: one roll of those that stay. */
static int fdc_face_stay(struct fdc_roller *r, const struct fdc_dice_term *t,
			 s128 *face)
{
	s128 lo = 1 + t->offset, hi = (s128)t->sides + t->offset, pts[4], x;
	unsigned int i, j, n = 0;
	u64 v;

	for (i = 0; i < t->nreroll; i++) {
		const struct fdc_dice_cond *c = &t->reroll[i];

		if (c->op == FDC_CMP_LE && c->value >= lo)
			lo = c->value + 1;
		if (c->op == FDC_CMP_GE && c->value <= hi)
			hi = c->value - 1;
	}
	/* The faces rerolled one at a time, inside [lo, hi], sorted. */
	for (i = 0; i < t->nreroll; i++) {
		x = t->reroll[i].value;
		if (t->reroll[i].op != FDC_CMP_EQ || x < lo || x > hi)
			continue;
		for (j = 0; j < n && pts[j] != x; j++)
			;
		if (j < n)
			continue;
		for (j = n++; j && pts[j - 1] > x; j--)
			pts[j] = pts[j - 1];
		pts[j] = x;
	}
	if (fdc_engine_roll(r->dev, (u64)(hi - lo) + 1 - n, &v))
		return -1;
	x = lo + (s128)v;
	for (j = 0; j < n; j++)
		x += pts[j] <= x;
	*face = x;
	return 0;
}

static bool fdc_rerolled(const struct fdc_dice_term *t, s128 face)
{
	unsigned int i;

	for (i = 0; i < t->nreroll; i++)
		if (fdc_dice_match(&t->reroll[i], face))
			return true;
	return false;
}

/* One face of a die of @t, its rerolls, mi and ma done. */
static int fdc_face(struct fdc_roller *r, const struct fdc_dice_term *t,
		    s128 *face)
{
	u64 v;

	if (t->nreroll && !t->reroll_once) {
		if (fdc_face_stay(r, t, face))
			return -1;
	} else {
		if (fdc_engine_roll(r->dev, t->sides, &v))
			return -1;
		*face = (s128)v + 1 + t->offset;
		if (t->nreroll && fdc_rerolled(t, *face)) {
			if (fdc_engine_roll(r->dev, t->sides, &v))
				return -1;
			*face = (s128)v + 1 + t->offset;
		}
	}
	if (t->has_min && *face < t->min_face)
		*face = t->min_face;
	if (t->has_max && *face > t->max_face)
		*face = t->max_face;
	return 0;
}

static s64 fdc_count_unit(const struct fdc_dice_mods *m, s128 v)
{
	return fdc_dice_match(&m->success, v) -
	       (s64)fdc_dice_match(&m->failure, v);
}

/* One die with its explosions: its value and its successes. */
static int fdc_roll_die(struct fdc_roller *r, const struct fdc_dice_term *t,
			s128 *val, s128 *succ)
{
	s128 face, v;
	unsigned int k = 0;

	if (fdc_face(r, t, &face))
		return -1;
	*val = face;
	*succ = t->explode != FDC_EXPLODE_COMPOUND ?
		fdc_count_unit(&t->mods, face) : 0;
	if (fdc_note_face(r, face, false))
		return -1;
	while (t->explode && k < r->e->explode_max &&
	       fdc_dice_match(&t->explode_on, face)) {
		k++;
		if (fdc_face(r, t, &face))
			return -1;
		v = face - (t->explode == FDC_EXPLODE_PENETRATE);
		*val += v;
		if (t->explode != FDC_EXPLODE_COMPOUND)
			*succ += fdc_count_unit(&t->mods, v);
		if (fdc_note_face(r, v, t->explode == FDC_EXPLODE_WHOLE ||
				  t->explode == FDC_EXPLODE_COMPOUND))
			return -1;
	}
	if (t->explode == FDC_EXPLODE_COMPOUND)
		*succ = fdc_count_unit(&t->mods, *val);
	if (k > r->deepest)
		r->deepest = k;
	return 0;
}

static int fdc_cmp_high;

static int fdc_rank_cmp(const void *a, const void *b)
{
	const s128 *val = fdc_scratch.val;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (val[x] != val[y])
		return (val[x] > val[y]) == fdc_cmp_high ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Mark the items that count: @kept[i] for i < @n. Ties go to the earlier
 * item; the values are in fdc_scratch.val.
 */
static void fdc_keep(struct fdc_roller *r, const struct fdc_dice_mods *m,
		     size_t n, bool *kept)
{
	size_t i, k = fdc_dice_kept_count(m, n);

	for (i = 0; i < n; i++) {
		kept[i] = k == n;
		r->rank[i] = i;
	}
	if (k == n)
		return;
	fdc_cmp_high = !m->keep_low;
	qsort(r->rank, n, sizeof(*r->rank), fdc_rank_cmp);
	for (i = 0; i < k; i++)
		kept[r->rank[i]] = true;
}

static void fdc_print_cp(FILE *f, const struct fdc_dice_cond *c)
{
	char buf[48];

	fprintf(f, "%s%s", c->op == FDC_CMP_EQ ? "=" :
		c->op == FDC_CMP_LE ? "<" : ">", fdc_dice_str(c->value, buf));
}

static void fdc_print_mods(FILE *f, const struct fdc_dice_mods *m)
{
	/* As written most often: k3, kl3, d1 (the lowest), dh1. */
	if (m->has_keep)
		fprintf(f, "%s%llu", m->drop ? (m->keep_low ? "dh" : "d") :
			(m->keep_low ? "kl" : "k"), (unsigned long long)m->keep);
	if (m->success.op)
		fdc_print_cp(f, &m->success);
	if (m->failure.op) {
		fputc('f', f);
		fdc_print_cp(f, &m->failure);
	}
}

static void fdc_print_term(FILE *f, const struct fdc_dice_term *t)
{
	static const char *const ex[] = {
		[FDC_EXPLODE_EACH] = "!", [FDC_EXPLODE_COMPOUND] = "!!",
		[FDC_EXPLODE_PENETRATE] = "!p", [FDC_EXPLODE_WHOLE] = "x",
	};
	unsigned int i;
	char buf[48];

	if (t->fudge)
		fprintf(f, "%lludF", (unsigned long long)t->count);
	else
		fprintf(f, "%llud%llu", (unsigned long long)t->count,
			(unsigned long long)t->sides);
	for (i = 0; i < t->nreroll; i++) {
		fputs(t->reroll_once ? "ro" : "r", f);
		fdc_print_cp(f, &t->reroll[i]);
	}
	if (t->has_min)
		fprintf(f, "mi%s", fdc_dice_str(t->min_face, buf));
	if (t->has_max)
		fprintf(f, "ma%s", fdc_dice_str(t->max_face, buf));
	if (t->has_ra)
		fprintf(f, "ra%s", fdc_dice_str(t->ra, buf));
	if (t->explode) {
		fputs(ex[t->explode], f);
		if (t->explode_on.value == (s128)t->sides + t->offset)
			;
		else if (t->explode == FDC_EXPLODE_WHOLE)
			fputs(fdc_dice_str(t->explode_on.value, buf), f);
		else
			fdc_print_cp(f, &t->explode_on);
	}
	/* A pool's counting belongs to its group, shown after the '}'. */
	if (!t->pooled)
		fdc_print_mods(f, &t->mods);
}

/*
 * As JSON: {"dice": "4d6k3", "faces": [6, 4, 3, 1], "kept": [true, true,
 * true, false], "die": [0, 1, 2, 3]}, "die" numbering the die each face
 * belongs to (x and !! add faces to one die).
 */
static void fdc_print_dice_json(struct fdc_roller *r,
				const struct fdc_dice_term *t, const bool *kept,
				size_t f0, size_t f1)
{
	FILE *f = r->json;
	char buf[48];
	size_t i, d;

	fputs(r->shown++ ? ", {\"dice\": \"" : "{\"dice\": \"", f);
	fdc_print_term(f, t);
	fputs("\", \"faces\": [", f);
	for (i = f0; i < f1; i++)
		fprintf(f, "%s%s", i > f0 ? ", " : "",
			fdc_dice_str(r->faces[i].value, buf));
	fputs("], \"kept\": [", f);
	for (i = f0, d = 0; i < f1; i++) {
		d += i > f0 && !r->faces[i].joined;
		fprintf(f, "%s%s", i > f0 ? ", " : "",
			!kept || kept[d] ? "true" : "false");
	}
	fputs("], \"die\": [", f);
	for (i = f0, d = 0; i < f1; i++) {
		d += i > f0 && !r->faces[i].joined;
		fprintf(f, "%s%zu", i > f0 ? ", " : "", d);
	}
	fputs("]}", f);
}

/*
 * "4d6k3[6 4 3 (1)]": dropped dice in parentheses, x and !! as 6+6+2; the
 * faces @f0 to @f1 of r->faces, @kept[i] for the i-th die among them.
 */
static void fdc_print_dice(struct fdc_roller *r, const struct fdc_dice_term *t,
			   const bool *kept, size_t f0, size_t f1)
{
	FILE *f = r->verbose;
	size_t i, d = 0;
	char buf[48];

	if (r->json) {
		fdc_print_dice_json(r, t, kept, f0, f1);
		return;
	}
	fdc_print_term(f, t);
	fputc('[', f);
	for (i = f0; i < f1; i++) {
		bool k;

		if (!r->faces[i].joined && i > f0)
			d++;
		k = kept ? kept[d] : true;
		if (!r->faces[i].joined)
			fputs(i > f0 ? (k ? " " : " (") : (k ? "" : "("), f);
		else
			fputc('+', f);
		if (t->fudge && r->faces[i].value >= 0)
			fputc('+', f);
		fputs(fdc_dice_str(r->faces[i].value, buf), f);
		if (!k && (i + 1 == f1 || !r->faces[i + 1].joined))
			fputc(')', f);
	}
	fputc(']', f);
}

/*
 * Whether only the total of @t counts, and it is drawn whole: plain dice of
 * one size, none shown, kept, dropped, counted, rerolled, exploded or
 * bounded, at least two of them, their sides^count outcomes within 64
 * bits. The total then comes with one weighted draw whose weights are the
 * ways the dice make each total (fdc_engine_sums()): the same law as the
 * dice rolled one by one, at the total's entropy in fair bits (3.6 for
 * 3d6 instead of 7.75). A lone die stays a uniform roll.
 */
static bool fdc_sum_whole(const struct fdc_roller *r,
			  const struct fdc_dice_term *t)
{
	return !r->verbose && !r->json && !t->explode && !t->nreroll &&
	       !t->has_min && !t->has_max && !t->has_ra &&
	       !t->mods.has_keep && !t->mods.success.op &&
	       !t->mods.failure.op && fdc_sum_fits(t->count, t->sides);
}

static int fdc_eval_dice(struct fdc_roller *r, const struct fdc_dice_term *t,
			 s128 *out)
{
	size_t n = t->count, i;
	bool *kept = NULL;
	__int128 sum = 0;

	/* A lone plain die, unseen: roll d6 is the case to keep fast. */
	if (likely(n == 1) && !r->verbose && !r->json && !t->explode &&
	    !t->nreroll && !t->has_min && !t->has_max && !t->has_ra &&
	    !t->mods.has_keep && !t->mods.success.op) {
		u64 v;

		if (fdc_engine_roll(r->dev, t->sides, &v))
			return -1;
		*out = (s128)v + 1 + t->offset;
		return 0;
	}
	if (fdc_grow(r, n + 1))
		return -1;
	r->nfaces = 0;
	/* A lone die is tested first: roll d6 is the case to keep fast. */
	if (unlikely(n >= 2) && fdc_sum_whole(r, t)) {
		u64 v;

		if (fdc_engine_sums(r->dev, n, t->sides, &v, 1))
			return -1;
		*out = (s128)v + (s128)n * (1 + t->offset);
		return 0;
	}
	if (!t->explode && !t->nreroll && !t->has_min && !t->has_max &&
	    !r->verbose && !r->json && n) {
		/* Plain dice: one read of all of them. */
		if (fdc_engine_rolls(r->dev, t->sides, r->raw, n))
			return -1;
		for (i = 0; i < n; i++) {
			r->val[i] = (s128)r->raw[i] + 1 + t->offset;
			r->succ[i] = fdc_count_unit(&t->mods, r->val[i]);
		}
	} else {
		for (i = 0; i < n; i++)
			if (fdc_roll_die(r, t, &r->val[i], &r->succ[i]))
				return -1;
	}
	if (t->has_ra) {
		for (i = 0; i < n && r->val[i] != t->ra; i++)
			;
		if (i < n) {
			if (fdc_roll_die(r, t, &r->val[n], &r->succ[n]))
				return -1;
			n++;
		}
	}
	if (t->mods.has_keep) {
		kept = malloc(n * sizeof(*kept));
		if (!kept) {
			fdc_err("out of memory");
			return -1;
		}
		fdc_keep(r, &t->mods, n, kept);
	}
	for (i = 0; i < n; i++)
		if (!kept || kept[i])
			sum += t->mods.success.op ? r->succ[i] : r->val[i];
	if (r->verbose || r->json)
		fdc_print_dice(r, t, kept, 0, r->nfaces);
	free(kept);
	*out = sum;
	return 0;
}

static int fdc_eval(struct fdc_roller *r, unsigned int idx, struct fdc_q *q);

/*
 * A one-roll group, {4d6+3d8}k4: its dice ranked together, the kept ones
 * (or their successes) added up. -v shows {4d6[(1) 6 (2) 6] + 3d8[...]}k4.
 */
static int fdc_eval_pool(struct fdc_roller *r, const struct fdc_dice_node *g,
			 s128 *out)
{
	const struct fdc_dice_expr *e = r->e;
	size_t d0[FDC_DICE_MAX_NODES + 1], f0[FDC_DICE_MAX_NODES + 1];
	size_t n = 0, i, d = 0;
	unsigned int j;
	bool *kept = NULL;
	__int128 sum = 0;
	char buf[48];

	for (j = 0; j < g->nitems; j++)
		n += e->node[e->items[g->first + j]].dice.count;
	if (fdc_grow(r, n + 1))
		return -1;
	r->nfaces = 0;
	for (j = 0; j < g->nitems; j++) {
		const struct fdc_dice_term *t = &e->node[e->items[g->first + j]].dice;

		d0[j] = d;
		f0[j] = r->nfaces;
		for (i = 0; i < t->count; i++, d++)
			if (fdc_roll_die(r, t, &r->val[d], &r->succ[d]))
				return -1;
	}
	d0[j] = d;
	f0[j] = r->nfaces;
	if (g->mods.has_keep) {
		kept = malloc(n ? n : 1);
		if (!kept) {
			fdc_err("out of memory");
			return -1;
		}
		fdc_keep(r, &g->mods, n, kept);
	}
	for (i = 0; i < n; i++)
		if (!kept || kept[i])
			sum += g->mods.success.op ? r->succ[i] : r->val[i];
	if (r->verbose)
		fputc('{', r->verbose);
	for (j = 0; j < g->nitems && (r->verbose || r->json); j++) {
		if (r->verbose && j)
			fputs(" + ", r->verbose);
		fdc_print_dice(r, &e->node[e->items[g->first + j]].dice,
			       kept ? kept + d0[j] : NULL, f0[j], f0[j + 1]);
	}
	if (r->verbose) {
		if (g->num)
			fprintf(r->verbose, " %c %s", g->num < 0 ? '-' : '+',
				fdc_dice_str(g->num < 0 ? -g->num : g->num, buf));
		fputc('}', r->verbose);
		fdc_print_mods(r->verbose, &g->mods);
	}
	free(kept);
	*out = sum;
	return 0;
}

static int fdc_eval_group(struct fdc_roller *r, const struct fdc_dice_node *g,
			  s128 *out)
{
	const struct fdc_dice_expr *e = r->e;
	s128 vals[FDC_DICE_MAX_NODES];
	bool kept[FDC_DICE_MAX_NODES];
	struct fdc_q q;
	unsigned int i;
	s128 sum = 0;

	if (g->pool)
		return fdc_eval_pool(r, g, out);
	if (r->verbose)
		fputc('{', r->verbose);
	for (i = 0; i < g->nitems; i++) {
		if (r->verbose && i)
			fputs(", ", r->verbose);
		if (fdc_eval(r, e->items[g->first + i], &q))
			return -1;
		vals[i] = q.n;
	}
	if (r->verbose) {
		fputc('}', r->verbose);
		fdc_print_mods(r->verbose, &g->mods);
	}
	/* fdc_keep() ranks fdc_scratch.val. */
	if (fdc_grow(r, g->nitems))
		return -1;
	memcpy(r->val, vals, g->nitems * sizeof(*vals));
	fdc_keep(r, &g->mods, g->nitems, kept);
	for (i = 0; i < g->nitems; i++)
		if (kept[i])
			sum += g->mods.success.op ?
			       fdc_count_unit(&g->mods, vals[i]) : vals[i];
	*out = sum;
	return 0;
}

static int fdc_prec(enum fdc_node_kind k)
{
	return k == FDC_NODE_ADD || k == FDC_NODE_SUB ? 1 :
	       k == FDC_NODE_MUL || k == FDC_NODE_DIV || k == FDC_NODE_MOD ? 2 :
	       3;
}

static int fdc_eval_child(struct fdc_roller *r, const struct fdc_dice_node *n,
			  unsigned int c, bool right, struct fdc_q *q)
{
	bool paren = r->verbose &&
		     (fdc_prec(r->e->node[c].kind) < fdc_prec(n->kind) ||
		      (right && fdc_prec(r->e->node[c].kind) == fdc_prec(n->kind) &&
		       n->kind != FDC_NODE_ADD && n->kind != FDC_NODE_MUL));
	int ret;

	if (paren)
		fputc('(', r->verbose);
	ret = fdc_eval(r, c, q);
	if (paren)
		fputc(')', r->verbose);
	return ret;
}

static int fdc_eval(struct fdc_roller *r, unsigned int idx, struct fdc_q *q)
{
	static const char *const names[] = {
		[FDC_NODE_ADD] = " + ", [FDC_NODE_SUB] = " - ",
		[FDC_NODE_MUL] = "*", [FDC_NODE_DIV] = "/",
		[FDC_NODE_MOD] = " % ", [FDC_NODE_NEG] = "-",
		[FDC_NODE_FLOOR] = "floor(", [FDC_NODE_CEIL] = "ceil(",
		[FDC_NODE_ROUND] = "round(", [FDC_NODE_ABS] = "abs(",
	};
	const struct fdc_dice_node *n = &r->e->node[idx];
	struct fdc_q a, b;
	char buf[48];
	s128 v;

	switch (n->kind) {
	case FDC_NODE_NUM:
		if (r->verbose)
			fputs(fdc_dice_str(n->num, buf), r->verbose);
		*q = (struct fdc_q){ n->num, 1 };
		return 0;
	case FDC_NODE_DICE:
		if (fdc_eval_dice(r, &n->dice, &v))
			return -1;
		*q = (struct fdc_q){ v, 1 };
		return 0;
	case FDC_NODE_GROUP:
		if (fdc_eval_group(r, n, &v))
			return -1;
		*q = (struct fdc_q){ v, 1 };
		return 0;
	case FDC_NODE_NEG:
	case FDC_NODE_FLOOR:
	case FDC_NODE_CEIL:
	case FDC_NODE_ROUND:
	case FDC_NODE_ABS:
		if (r->verbose)
			fputs(names[n->kind], r->verbose);
		if (n->kind == FDC_NODE_NEG ?
		    fdc_eval_child(r, n, n->a, true, &a) : fdc_eval(r, n->a, &a))
			return -1;
		if (r->verbose && n->kind != FDC_NODE_NEG)
			fputc(')', r->verbose);
		break;
	default:
		if (fdc_eval_child(r, n, n->a, false, &a))
			return -1;
		if (r->verbose)
			fputs(names[n->kind], r->verbose);
		if (fdc_eval_child(r, n, n->b, true, &b))
			return -1;
		break;
	}
	/* The bounds checked when parsing keep all of this within 128 bits. */
	switch (n->kind) {
	case FDC_NODE_NEG:
		*q = (struct fdc_q){ -a.n, a.d };
		break;
	case FDC_NODE_ABS:
		*q = (struct fdc_q){ a.n < 0 ? -a.n : a.n, a.d };
		break;
	case FDC_NODE_FLOOR:
		*q = (struct fdc_q){ fdc_floor_div(a.n, a.d), 1 };
		break;
	case FDC_NODE_CEIL:
		*q = (struct fdc_q){ fdc_ceil_div(a.n, a.d), 1 };
		break;
	case FDC_NODE_ROUND:
		/* Halves go up, as in Roll20. */
		*q = (struct fdc_q){ fdc_floor_div(2 * a.n + a.d, 2 * a.d), 1 };
		break;
	case FDC_NODE_ADD:
		*q = fdc_q_make(a.n * b.d + b.n * a.d, a.d * b.d);
		break;
	case FDC_NODE_SUB:
		*q = fdc_q_make(a.n * b.d - b.n * a.d, a.d * b.d);
		break;
	case FDC_NODE_MUL:
		*q = fdc_q_make(a.n * b.n, a.d * b.d);
		break;
	case FDC_NODE_DIV:
		*q = fdc_q_make(a.n * b.d, a.d * b.n);
		break;
	case FDC_NODE_MOD:
		*q = (struct fdc_q){ a.n % b.n, 1 };
		break;
	default:
		return -1;
	}
	return 0;
}

/**
 * fdc_dice_roll() - roll an expression once (one total; NxEXPR calls this
 *	N times)
 * @expr: the expression
 * @dev: where the dice come from
 * @total: the result
 * @verbose: if not NULL, each die is written there, e.g.
 *	"4d6k3[6 4 3 (1)] + 2" (dropped dice in parentheses, a die that
 *	explodes into one die, x or !!, as the faces it rolled, "6+6+2")
 * @deepest: if not NULL, the most times one die exploded
 *
 * Return: 0, or -1 after printing a one-line error (only the source can
 * fail).
 */
int fdc_dice_roll(const struct fdc_dice_expr *expr, struct fdc_engine *dev,
		  s128 *total, FILE *verbose, unsigned int *deepest)
{
	struct fdc_roller *r = &fdc_scratch;
	struct fdc_q q;
	int ret;

	r->e = expr;
	r->dev = dev;
	r->verbose = verbose;
	r->json = NULL;
	r->deepest = 0;
	ret = fdc_eval(r, expr->root, &q);
	*total = q.n;
	if (deepest)
		*deepest = r->deepest;
	return ret;
}

/**
 * fdc_dice_roll_json() - fdc_dice_roll(), the dice written as a JSON array
 * @expr: the expression
 * @dev: where the dice come from
 * @total: the result
 * @json: where the array goes: one object per term of dice, in the order
 *	rolled, {"dice": "4d6k3", "faces": [6, 4, 3, 1], "kept": [true,
 *	true, true, false], "die": [0, 1, 2, 3]}
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dice_roll_json(const struct fdc_dice_expr *expr,
		       struct fdc_engine *dev, s128 *total, FILE *json)
{
	struct fdc_roller *r = &fdc_scratch;
	struct fdc_q q;
	int ret;

	r->e = expr;
	r->dev = dev;
	r->verbose = NULL;
	r->json = json;
	r->shown = 0;
	r->deepest = 0;
	fputc('[', json);
	ret = fdc_eval(r, expr->root, &q);
	fputc(']', json);
	r->json = NULL;
	*total = q.n;
	return ret;
}

/* ------------------------------------------------------------------------
 * Hints for the notations of other dice rollers
 */

/**
 * struct fdc_peer_hint - a form of another roller and fairdie's spelling
 * @form: what to look for, lower case, after a digit (the die's sides)
 * @next: what must follow it: "" for anything, else one of these
 *	characters
 * @hint: the hint, naming fairdie's spelling with an example
 */
struct fdc_peer_hint {
	const char *form;
	const char *next;
	const char *hint;
};

static const struct fdc_peer_hint fdc_peer_hints[] = {
	{ "rr", "", "avrae's 'rr' (reroll while) is fairdie's 'r': 1d20r1, 4d6r<2" },
	{ "e", "0123456789<>=",
	  "avrae's 'e' (explode) is fairdie's '!': 4d6!6 explodes on a 6, 4d6!>5 on 5 or more" },
	{ "cs", "0123456789<>=",
	  "'cs' and 'cf' (critical marks) change no total: leave them out, or count with 1d20>20" },
	{ "cf", "0123456789<>=",
	  "'cs' and 'cf' (critical marks) change no total: leave them out, or count with 1d20<1" },
	{ "s", "0123456789",
	  "rolldice's 'sN' (drop the N lowest) is fairdie's 'dN' (or 'dlN'): 4d6d1" },
};

/**
 * fdc_dice_hint() - say how fairdie spells what another roller's notation
 *	in @text means, after the error of fdc_dice_parse()
 * @text: the expression that did not parse
 * @err: its error message, to which "; HINT" is added when one applies
 * @errlen: the room of @err
 *
 * Only forms that fairdie's own notation never has are recognized: a
 * valid expression gets no hint, and nothing here changes what parses.
 */
void fdc_dice_hint(const char *text, char *err, size_t errlen)
{
	const struct fdc_peer_hint *h;
	size_t i, k, len, used = strlen(err);
	char c;

	for (i = 1; text[i]; i++) {
		if (!fdc_isdigit(text[i - 1]))
			continue;
		for (k = 0; k < ARRAY_SIZE(fdc_peer_hints); k++) {
			h = &fdc_peer_hints[k];
			len = strlen(h->form);
			if (strncasecmp(text + i, h->form, len))
				continue;
			c = text[i + len];
			if (*h->next && (!c || !strchr(h->next, c)))
				continue;
			if (used + 2 < errlen)
				snprintf(err + used, errlen - used, "; %s",
					 h->hint);
			return;
		}
	}
}
