// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the exact distribution of a dice expression, for
 * 'roll --stats'.
 *
 * A distribution is a list of totals min, min + step, ... with an integer
 * weight each over one common denominator, in GMP's integers: nothing is
 * rounded. Sums are convolutions (a uniform die by a sliding window, so
 * that 1000d6 takes a fraction of a second); keeping and dropping count
 * the ways the dice can fall face by face; explosions are followed to a
 * depth D per die, chosen so that what lies beyond it (printed as the
 * remainder) is below 2^-40 unless the work would be too large, and never
 * beyond the tool's limit FDC_DICE_MAX_EXPLODE, where the distribution is
 * complete. The size of the work is checked before any of it is done.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dice.h"

/* What is not computed, said by name. */
static const char fdc_dist_topk_many[] =
	"keeping 2 or more items of a group of more than 16 is not computed";
static const char fdc_dist_pool_many[] =
	"keeping dice of a group of one roll: too many states to compute";
static const char fdc_dist_wide[] =
	"--stats computes expressions whose numbers and values stay within +-2^62";
static const char fdc_dist_pairs_many[] =
	"a product, quotient or remainder of two random values has too many pairs to compute";

/* At most this many totals in one distribution, and faces on one die. */
#define FDC_DIST_MAX		BIT_ULL(22)
/* Limb operations (64-bit words) the whole computation may take. */
#define FDC_DIST_WORK		1000000000.0
/* Limbs in all the weights of one distribution. */
#define FDC_DIST_LIMBS		BIT_ULL(27)
/* At most this many pairs of values in one product, quotient or remainder. */
#define FDC_DIST_PAIRS		BIT_ULL(20)
/* Keeping 2 or more items of a group of at most this many. */
#define FDC_DIST_TOPK		16
/* Explosions are followed until the rest is below 2^-this. */
#define FDC_DIST_REST_BITS	40

struct fdc_dist_ctx {
	const struct fdc_dice_expr *e;
	unsigned int depth;
	double work;
	char *err;
	size_t errlen;
};

static int fdc_dist_fail(struct fdc_dist_ctx *c, const char *msg)
{
	snprintf(c->err, c->errlen, "%s", msg);
	return -1;
}

static u64 fdc_gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static s64 fdc_dist_max(const struct fdc_dice_dist *d)
{
	return d->min + d->step * (s64)(d->n - 1);
}

static int fdc_dist_init(struct fdc_dist_ctx *c, struct fdc_dice_dist *d, s64 min,
			 s64 step, size_t n)
{
	size_t i;

	memset(d, 0, sizeof(*d));
	mpz_init_set_ui(d->den, 1);
	if (n > FDC_DIST_MAX)
		return fdc_dist_fail(c, "the distribution has too many totals to compute");
	d->min = min;
	d->step = step > 0 ? step : 1;
	d->n = n;
	d->w = malloc(n * sizeof(*d->w));
	if (!d->w)
		return fdc_dist_fail(c, "out of memory");
	for (i = 0; i < n; i++)
		mpz_init(d->w[i]);
	return 0;
}

/**
 * fdc_dice_dist_free() - free a distribution
 * @d: the distribution, zeroed or filled by fdc_dice_dist()
 */
void fdc_dice_dist_free(struct fdc_dice_dist *d)
{
	size_t i;

	if (d->w) {
		for (i = 0; i < d->n; i++)
			mpz_clear(d->w[i]);
		free(d->w);
		mpz_clear(d->den);
	}
	d->w = NULL;
	d->n = 0;
}

static int fdc_dist_const(struct fdc_dist_ctx *c, struct fdc_dice_dist *d, s64 v)
{
	if (fdc_dist_init(c, d, v, 1, 1))
		return -1;
	mpz_set_ui(d->w[0], 1);
	return 0;
}

static void fdc_dist_move(struct fdc_dice_dist *to, struct fdc_dice_dist *from)
{
	fdc_dice_dist_free(to);
	*to = *from;
	from->w = NULL;
	from->n = 0;
}

static size_t fdc_dist_limbs(const struct fdc_dice_dist *d)
{
	return mpz_size(d->den) + 1;
}

static int fdc_dist_charge(struct fdc_dist_ctx *c, double ops, size_t n,
			   size_t limbs)
{
	c->work += ops * limbs;
	/* A safety net: the plan made before keeps well within it. */
	if (c->work > 4 * FDC_DIST_WORK || (double)n * limbs > FDC_DIST_LIMBS)
		return fdc_dist_fail(c, "the distribution is too large to compute");
	return 0;
}

/* Drop impossible totals at both ends and widen the step where it can. */
static int fdc_dist_trim(struct fdc_dist_ctx *c, struct fdc_dice_dist *d)
{
	size_t first = 0, last, i;
	u64 g = 0;
	struct fdc_dice_dist r;

	while (first < d->n && !mpz_sgn(d->w[first]))
		first++;
	if (first == d->n) {
		/* No mass at all (explosions cut short): keep one total. */
		first = 0;
	}
	last = d->n - 1;
	while (last > first && !mpz_sgn(d->w[last]))
		last--;
	for (i = first + 1; i <= last; i++)
		if (mpz_sgn(d->w[i]))
			g = fdc_gcd64(g, i - first);
	if (!g)
		g = 1;
	if (first == 0 && last == d->n - 1 && g == 1)
		return 0;
	if (fdc_dist_init(c, &r, d->min + d->step * (s64)first,
			  d->step * (s64)g, (last - first) / g + 1))
		return -1;
	mpz_set(r.den, d->den);
	for (i = 0; i < r.n; i++)
		mpz_swap(r.w[i], d->w[first + i * g]);
	fdc_dist_move(d, &r);
	return 0;
}

/* @r := the distribution of f(X), X ~ @a. */
static int fdc_dist_map(struct fdc_dist_ctx *c, struct fdc_dice_dist *r,
			const struct fdc_dice_dist *a,
			s64 (*f)(s64, const void *), const void *arg)
{
	s64 lo = 0, hi = 0, v;
	size_t i;
	bool any = false;

	for (i = 0; i < a->n; i++) {
		if (!mpz_sgn(a->w[i]))
			continue;
		v = f(a->min + a->step * (s64)i, arg);
		lo = any && lo < v ? lo : v;
		hi = any && hi > v ? hi : v;
		any = true;
	}
	if ((u64)(hi - lo) >= FDC_DIST_MAX)
		return fdc_dist_fail(c, "the distribution has too many totals to compute");
	if (fdc_dist_init(c, r, lo, 1, (size_t)(hi - lo) + 1))
		return -1;
	mpz_set(r->den, a->den);
	for (i = 0; i < a->n; i++)
		if (mpz_sgn(a->w[i]))
			mpz_add(r->w[f(a->min + a->step * (s64)i, arg) - lo],
				r->w[f(a->min + a->step * (s64)i, arg) - lo],
				a->w[i]);
	if (fdc_dist_charge(c, (double)a->n, r->n, fdc_dist_limbs(r)))
		return -1;
	return fdc_dist_trim(c, r);
}

/* Put @d on the grid lo, lo + step, ... of @n points (it must fit). */
static int fdc_dist_regrid(struct fdc_dist_ctx *c, struct fdc_dice_dist *d, s64 lo,
			   s64 step, size_t n)
{
	struct fdc_dice_dist r;
	size_t i;

	if (fdc_dist_init(c, &r, lo, step, n))
		return -1;
	mpz_set(r.den, d->den);
	for (i = 0; i < d->n; i++)
		mpz_swap(r.w[(d->min + d->step * (s64)i - lo) / step], d->w[i]);
	fdc_dist_move(d, &r);
	return 0;
}

/* The grid that holds both @a and @b. */
static int fdc_dist_common(struct fdc_dist_ctx *c, struct fdc_dice_dist *a, struct fdc_dice_dist *b)
{
	s64 lo = a->min < b->min ? a->min : b->min;
	s64 ha = fdc_dist_max(a), hb = fdc_dist_max(b);
	s64 hi = ha > hb ? ha : hb;
	u64 g = fdc_gcd64(fdc_gcd64(a->n > 1 ? a->step : 0,
				    b->n > 1 ? b->step : 0),
			  fdc_gcd64(a->min - lo, b->min - lo));

	if (!g)
		g = 1;
	if ((u64)(hi - lo) / g >= FDC_DIST_MAX)
		return fdc_dist_fail(c, "the distribution has too many totals to compute");
	if (fdc_dist_regrid(c, a, lo, g, (hi - lo) / g + 1) ||
	    fdc_dist_regrid(c, b, lo, g, (hi - lo) / g + 1))
		return -1;
	return 0;
}

/*
 * @a := @a * @sa + @b * @sb, weights over the same denominator (a mixture
 * of two parts of one distribution). @b is emptied.
 */
static int fdc_dist_mix(struct fdc_dist_ctx *c, struct fdc_dice_dist *a, struct fdc_dice_dist *b,
			long sb)
{
	size_t i;

	if (fdc_dist_common(c, a, b))
		return -1;
	for (i = 0; i < a->n; i++) {
		if (sb >= 0)
			mpz_addmul_ui(a->w[i], b->w[i], (unsigned long)sb);
		else
			mpz_submul_ui(a->w[i], b->w[i], (unsigned long)-sb);
	}
	fdc_dice_dist_free(b);
	if (fdc_dist_charge(c, (double)a->n, a->n, fdc_dist_limbs(a)))
		return -1;
	return fdc_dist_trim(c, a);
}

/* Whether @d's weights are all equal: a uniform die. */
static bool fdc_dist_uniform(const struct fdc_dice_dist *d)
{
	size_t i;

	for (i = 1; i < d->n; i++)
		if (mpz_cmp(d->w[i], d->w[0]))
			return false;
	return mpz_sgn(d->w[0]) > 0;
}

/* @r := the distribution of X + Y, X ~ @a and Y ~ @b independent. */
static int fdc_dist_add(struct fdc_dist_ctx *c, struct fdc_dice_dist *r,
			const struct fdc_dice_dist *a,
			const struct fdc_dice_dist *b)
{
	size_t i, j, n, sa, sb;
	s64 span;
	mpz_t acc;
	u64 g;

	if (a->n < b->n) {
		const struct fdc_dice_dist *t = a;

		a = b;
		b = t;
	}
	g = fdc_gcd64(a->n > 1 ? a->step : 0, b->n > 1 ? b->step : 0);
	if (!g)
		g = 1;
	span = fdc_dist_max(a) - a->min + fdc_dist_max(b) - b->min;
	if ((u64)span / g >= FDC_DIST_MAX)
		return fdc_dist_fail(c, "the distribution has too many totals to compute");
	n = (size_t)(span / (s64)g) + 1;
	if (fdc_dist_init(c, r, a->min + b->min, (s64)g, n))
		return -1;
	mpz_mul(r->den, a->den, b->den);
	sa = (size_t)(a->step / (s64)g);
	sb = (size_t)(b->step / (s64)g);
	if (sa == 1 && sb == 1 && b->n > 2 && fdc_dist_uniform(b)) {
		/* A uniform die: a sliding window over @a, times its weight. */
		if (fdc_dist_charge(c, 2.0 * n, n, fdc_dist_limbs(r)))
			return -1;
		mpz_init(acc);
		for (i = 0; i < n; i++) {
			if (i < a->n)
				mpz_add(acc, acc, a->w[i]);
			if (i >= b->n && i - b->n < a->n)
				mpz_sub(acc, acc, a->w[i - b->n]);
			mpz_mul(r->w[i], acc, b->w[0]);
		}
		mpz_clear(acc);
		return fdc_dist_trim(c, r);
	}
	if (fdc_dist_charge(c, (double)a->n * b->n, n, fdc_dist_limbs(r)))
		return -1;
	for (j = 0; j < b->n; j++) {
		if (!mpz_sgn(b->w[j]))
			continue;
		for (i = 0; i < a->n; i++)
			mpz_addmul(r->w[i * sa + j * sb], a->w[i], b->w[j]);
	}
	return fdc_dist_trim(c, r);
}

/* @d := the sum of @n independent copies of @die. */
static int fdc_dist_repeat(struct fdc_dist_ctx *c, struct fdc_dice_dist *d,
			   const struct fdc_dice_dist *die, u64 n)
{
	struct fdc_dice_dist r;
	u64 i;

	if (fdc_dist_const(c, d, 0))
		return -1;
	for (i = 0; i < n; i++) {
		if (fdc_dist_add(c, &r, d, die)) {
			fdc_dice_dist_free(&r);
			return -1;
		}
		fdc_dist_move(d, &r);
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * One die
 */

static s64 fdc_map_clamp(s64 v, const void *arg)
{
	const struct fdc_dice_term *t = arg;

	if (t->has_min && v < t->min_face)
		v = t->min_face;
	if (t->has_max && v > t->max_face)
		v = t->max_face;
	return v;
}

static s64 fdc_map_unit(s64 v, const void *arg)
{
	const struct fdc_dice_mods *m = arg;

	return fdc_dice_match(&m->success, v) -
	       (s64)fdc_dice_match(&m->failure, v);
}

static s64 fdc_map_less1(s64 v, const void *arg)
{
	(void)arg;
	return v - 1;
}

static bool fdc_dist_rerolled(const struct fdc_dice_term *t, s64 face)
{
	unsigned int i;

	for (i = 0; i < t->nreroll; i++)
		if (fdc_dice_match(&t->reroll[i], face))
			return true;
	return false;
}

/* One face of a die of @t: its rerolls, mi and ma done. */
static int fdc_dist_face(struct fdc_dist_ctx *c, const struct fdc_dice_term *t,
			 struct fdc_dice_dist *d)
{
	s64 lo = 1 + t->offset;
	u64 i, stay = 0, rer;
	struct fdc_dice_dist r;

	if (t->sides > FDC_DIST_MAX)
		return fdc_dist_fail(c, "a die of so many sides is too large to compute");
	if (fdc_dist_init(c, d, lo, 1, t->sides))
		return -1;
	for (i = 0; i < t->sides; i++)
		stay += !fdc_dist_rerolled(t, lo + (s64)i);
	rer = t->sides - stay;
	for (i = 0; i < t->sides; i++) {
		bool out = fdc_dist_rerolled(t, lo + (s64)i);

		if (!t->nreroll)
			mpz_set_ui(d->w[i], 1);
		else if (!t->reroll_once)
			mpz_set_ui(d->w[i], !out);
		else
			/* P = [stays]/S + (rerolled/S)(1/S). */
			mpz_set_ui(d->w[i], (out ? 0 : t->sides) + rer);
	}
	if (!t->nreroll)
		mpz_set_ui(d->den, t->sides);
	else if (!t->reroll_once)
		mpz_set_ui(d->den, stay);
	else
		mpz_ui_pow_ui(d->den, t->sides, 2);
	if (t->has_min || t->has_max) {
		if (fdc_dist_map(c, &r, d, fdc_map_clamp, t))
			return -1;
		fdc_dist_move(d, &r);
	}
	return fdc_dist_trim(c, d);
}

/* The part of @f on faces that do (@match) or do not meet @cp. */
static int fdc_dist_part(struct fdc_dist_ctx *c, struct fdc_dice_dist *r,
			 const struct fdc_dice_dist *f,
			 const struct fdc_dice_cond *cp, bool match)
{
	size_t i;

	if (fdc_dist_init(c, r, f->min, f->step, f->n))
		return -1;
	mpz_set(r->den, f->den);
	for (i = 0; i < f->n; i++)
		if (fdc_dice_match(cp, f->min + f->step * (s64)i) == match)
			mpz_set(r->w[i], f->w[i]);
	return fdc_dist_trim(c, r);
}

static int fdc_dist_apply(struct fdc_dist_ctx *c, struct fdc_dice_dist *d,
			  s64 (*f)(s64, const void *), const void *arg)
{
	struct fdc_dice_dist r;

	if (!f)
		return 0;
	if (fdc_dist_map(c, &r, d, f, arg))
		return -1;
	fdc_dist_move(d, &r);
	return 0;
}

/*
 * One die with its explosions, followed to the depth of @c: the
 * distribution of its value (@unit NULL) or of its successes less
 * failures, counted face by face (@unit its modifiers).
 */
static int fdc_dist_chain(struct fdc_dist_ctx *c, const struct fdc_dice_term *t,
			  const struct fdc_dice_mods *unit, struct fdc_dice_dist *out)
{
	s64 (*later)(s64, const void *) =
		t->explode == FDC_EXPLODE_PENETRATE ? fdc_map_less1 : NULL;
	struct fdc_dice_dist f = { 0 }, x = { 0 }, y = { 0 }, xl = { 0 }, yl = { 0 },
		 fl = { 0 }, cur = { 0 }, step = { 0 };
	unsigned int k, lim = c->e->explode_max;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (fdc_dist_face(c, t, &f))
		goto out_free;
	if (!t->explode || !lim) {
		fdc_dist_move(out, &f);
		if (unit && fdc_dist_apply(c, out, fdc_map_unit, unit))
			goto out_free;
		return 0;
	}
	/* x: exploding faces; y: the others; l: later faces (penetrated). */
	if (fdc_dist_part(c, &x, &f, &t->explode_on, true) ||
	    fdc_dist_part(c, &y, &f, &t->explode_on, false) ||
	    fdc_dist_map(c, &xl, &x, later ? later : fdc_map_clamp, t) ||
	    fdc_dist_map(c, &yl, &y, later ? later : fdc_map_clamp, t) ||
	    fdc_dist_map(c, &fl, &f, later ? later : fdc_map_clamp, t))
		goto out_free;
	if (unit && (fdc_dist_apply(c, &x, fdc_map_unit, unit) ||
		     fdc_dist_apply(c, &y, fdc_map_unit, unit) ||
		     fdc_dist_apply(c, &xl, fdc_map_unit, unit) ||
		     fdc_dist_apply(c, &yl, fdc_map_unit, unit) ||
		     fdc_dist_apply(c, &fl, fdc_map_unit, unit)))
		goto out_free;
	/* out: chains that stopped; cur: those still exploding. */
	fdc_dist_move(out, &y);
	fdc_dist_move(&cur, &x);
	for (k = 1; k <= c->depth && k <= lim; k++) {
		if (fdc_dist_add(c, &step, &cur, k == lim ? &fl : &yl))
			goto out_free;
		mpz_mul(out->den, out->den, f.den);
		{
			size_t i;

			for (i = 0; i < out->n; i++)
				mpz_mul(out->w[i], out->w[i], f.den);
		}
		if (fdc_dist_mix(c, out, &step, 1))
			goto out_free;
		if (k == lim)
			break;
		if (fdc_dist_add(c, &step, &cur, &xl))
			goto out_free;
		fdc_dist_move(&cur, &step);
	}
	ret = 0;
out_free:
	fdc_dice_dist_free(&f);
	fdc_dice_dist_free(&x);
	fdc_dice_dist_free(&y);
	fdc_dice_dist_free(&xl);
	fdc_dice_dist_free(&yl);
	fdc_dice_dist_free(&fl);
	fdc_dice_dist_free(&cur);
	fdc_dice_dist_free(&step);
	if (ret)
		fdc_dice_dist_free(out);
	return ret;
}

/*
 * What a kept item with the value of grid point @i of @g adds: its value
 * (@unit NULL), or its successes less failures. Returned as an offset from
 * the least, @lo, on the grid @lo + @step * offset.
 */
static size_t *fdc_dist_scores(const struct fdc_dice_dist *g,
			       const struct fdc_dice_mods *unit, s64 *lo,
			       s64 *step, size_t *top)
{
	size_t *off = malloc((g->n ? g->n : 1) * sizeof(*off)), i;

	if (!off)
		return NULL;
	*lo = unit ? -(s64)!!unit->failure.op : g->min;
	*step = unit ? 1 : g->step;
	*top = unit ? 1 + !!unit->failure.op : g->n - 1;
	for (i = 0; i < g->n; i++)
		off[i] = unit ? (size_t)(fdc_map_unit(g->min + g->step * (s64)i,
						      unit) - *lo) : i;
	return off;
}

/*
 * The sum of the @k highest (or lowest) of @n dice each distributed as
 * @die, or with @unit the successes less failures among them: walk the
 * faces from the best down, choosing how many dice show each; a choice of
 * c dice out of the m left is C(m, c) orders. Dice of equal faces count
 * alike, so that the ties do not matter.
 */
static int fdc_dist_keep(struct fdc_dist_ctx *c, const struct fdc_dice_dist *die, u64 n,
			 u64 k, bool low, const struct fdc_dice_mods *unit,
			 struct fdc_dice_dist *d)
{
	size_t m = die->n, span, v, j, s, cc, idx, kept, top;
	mpz_t *w, *nw, *pw, term;
	mpz_t bin;
	size_t cells, i, *off;
	s64 lo, step;

	off = fdc_dist_scores(die, unit, &lo, &step, &top);
	if (!off)
		return fdc_dist_fail(c, "out of memory");
	span = k * top + 1;
	cells = (n + 1) * span;
	if ((double)cells > FDC_DIST_MAX ||
	    fdc_dist_charge(c, (double)m * cells * (n + 1), cells,
			    fdc_dist_limbs(die) * (n + 1)) ||
	    fdc_dist_init(c, d, lo * (s64)k, step, span)) {
		free(off);
		if ((double)cells > FDC_DIST_MAX)
			return fdc_dist_fail(c, "keeping dice: too many states to compute");
		return -1;
	}
	w = malloc(cells * sizeof(*w));
	nw = malloc(cells * sizeof(*nw));
	pw = malloc((n + 1) * sizeof(*pw));
	if (!w || !nw || !pw) {
		free(w);
		free(nw);
		free(pw);
		free(off);
		return fdc_dist_fail(c, "out of memory");
	}
	for (i = 0; i < cells; i++) {
		mpz_init(w[i]);
		mpz_init(nw[i]);
	}
	for (i = 0; i <= n; i++)
		mpz_init(pw[i]);
	mpz_init(term);
	mpz_init(bin);
	mpz_set_ui(w[0], 1);
	for (v = 0; v < m; v++) {
		idx = low ? v : m - 1 - v;
		if (!mpz_sgn(die->w[idx]))
			continue;
		mpz_set_ui(pw[0], 1);
		for (cc = 1; cc <= n; cc++)
			mpz_mul(pw[cc], pw[cc - 1], die->w[idx]);
		for (i = 0; i < cells; i++)
			mpz_set_ui(nw[i], 0);
		for (j = 0; j <= n; j++) {
			for (s = 0; s < span; s++) {
				if (!mpz_sgn(w[j * span + s]))
					continue;
				mpz_set_ui(bin, 1);
				for (cc = 0; j + cc <= n; cc++) {
					kept = j >= k ? 0 : (cc < k - j ? cc : k - j);
					mpz_mul(term, w[j * span + s], pw[cc]);
					mpz_addmul(nw[(j + cc) * span + s +
						      kept * off[idx]],
						   term, bin);
					/* C(n - j, cc + 1) from C(n - j, cc). */
					mpz_mul_ui(bin, bin, n - j - cc);
					mpz_divexact_ui(bin, bin, cc + 1);
				}
			}
		}
		for (i = 0; i < cells; i++)
			mpz_swap(w[i], nw[i]);
	}
	for (s = 0; s < span; s++)
		mpz_set(d->w[s], w[n * span + s]);
	mpz_pow_ui(d->den, die->den, n);
	for (i = 0; i < cells; i++) {
		mpz_clear(w[i]);
		mpz_clear(nw[i]);
	}
	for (i = 0; i <= n; i++)
		mpz_clear(pw[i]);
	mpz_clear(term);
	mpz_clear(bin);
	free(w);
	free(nw);
	free(pw);
	free(off);
	return fdc_dist_trim(c, d);
}

/*
 * Rough work of fdc_dist_keep_x(): @nv values of a die of @chain faces at
 * most, @n dice of which @k are kept, weights of @limbs limbs.
 */
static double fdc_dist_cost_keep_x(double nv, double n, unsigned int chain,
				   u64 k, double limbs)
{
	double ns = 2.0 * chain + 1, span = (double)k * (ns - 1) + 1;

	return nv * (n + 1) * (n + 1) / 2 * span * ns * limbs / 4;
}

/*
 * fdc_dist_keep_x() at one value: the @w ways of @j dice placed with @s
 * successes kept, then 0 to @n - @j dice of this value (@pv the weight of
 * one, @qp[kk] the successes of kk of them), the first of them kept until
 * @k are.
 */
static void fdc_dist_keep_x_level(mpz_t *nw, const mpz_t w, size_t j,
				  size_t s, size_t n, u64 k, size_t span,
				  const mpz_t pv, mpz_t *qp)
{
	size_t cc, kk, s2;
	mpz_t term, bin;

	mpz_init(term);
	mpz_init_set_ui(bin, 1);
	for (cc = 0; j + cc <= n; cc++) {
		kk = j >= k ? 0 : (cc < k - j ? cc : k - j);
		/* C(n - j, cc) pv^(cc - kk) qp[kk]. */
		mpz_pow_ui(term, pv, cc - kk);
		mpz_mul(term, term, bin);
		mpz_mul(term, term, w);
		for (s2 = 0; s + s2 < span; s2++)
			if (mpz_sgn(qp[kk * span + s2]))
				mpz_addmul(nw[(j + cc) * span + s + s2], term,
					   qp[kk * span + s2]);
		mpz_mul_ui(bin, bin, n - j - cc);
		mpz_divexact_ui(bin, bin, cc + 1);
	}
	mpz_clear(term);
	mpz_clear(bin);
}

/*
 * The successes less failures among the @k highest (or lowest) of the
 * dice of @t, which explode with x: each die is kept by its value, the sum
 * of its faces, and counts the successes of every face, so that each
 * value comes with a distribution of successes. @j[v][s] is the weight of
 * a die of value v and s successes (from -@depth - 1); the dice are then
 * kept as fdc_dist_keep() keeps them, c dice of value v bringing the sum
 * of the successes of the kk of them kept: @j[v] convolved kk times.
 */
static int fdc_dist_keep_x(struct fdc_dist_ctx *c, const struct fdc_dice_term *t,
			   u64 k, struct fdc_dice_dist *d)
{
	const struct fdc_dice_mods *m = &t->mods;
	unsigned int lim = c->e->explode_max, depth, len;
	size_t nv, ns, span, cells, v, lv, s, s2, i, j, kk, n = t->count;
	struct fdc_dice_dist f = { 0 };
	mpz_t *jw = NULL, *cur = NULL, *nxt = NULL, *qp = NULL, *w = NULL,
	      *nw = NULL, pv, fd;
	s64 vmin, fmax;
	double work;
	int ret = -1;

	depth = c->depth < lim ? c->depth : lim;
	if (fdc_dist_face(c, t, &f))
		return -1;
	fmax = fdc_dist_max(&f);
	vmin = f.min < 0 ? f.min * (s64)(depth + 1) : f.min;
	nv = (size_t)((fmax > 0 ? fmax * (s64)(depth + 1) : fmax) - vmin) + 1;
	ns = 2 * (size_t)depth + 3;
	span = k * (ns - 1) + 1;
	cells = (n + 1) * span;
	if ((double)nv * ns > FDC_DIST_MAX || (double)cells > FDC_DIST_MAX) {
		fdc_dice_dist_free(&f);
		return fdc_dist_fail(c, "keeping dice that explode: too many states to compute");
	}
	work = fdc_dist_cost_keep_x((double)nv, (double)n, depth + 1, k, 1);
	if (fdc_dist_charge(c, work, cells,
			    (size_t)((depth + 1) * n * log2(mpz_get_d(f.den)) / 64) + 2)) {
		fdc_dice_dist_free(&f);
		return -1;
	}
	jw = malloc(nv * ns * sizeof(*jw));
	cur = malloc(nv * ns * sizeof(*cur));
	nxt = malloc(nv * ns * sizeof(*nxt));
	qp = malloc((k + 1) * span * sizeof(*qp));
	w = malloc(cells * sizeof(*w));
	nw = malloc(cells * sizeof(*nw));
	mpz_init(pv);
	mpz_init_set(fd, f.den);
	if (!jw || !cur || !nxt || !qp || !w || !nw) {
		free(jw);
		free(cur);
		free(nxt);
		free(qp);
		free(w);
		free(nw);
		jw = NULL;
		fdc_dist_fail(c, "out of memory");
		goto out_clear;
	}
	for (i = 0; i < nv * ns; i++) {
		mpz_init(jw[i]);
		mpz_init(cur[i]);
		mpz_init(nxt[i]);
	}
	for (i = 0; i < (k + 1) * span; i++)
		mpz_init(qp[i]);
	for (i = 0; i < cells; i++) {
		mpz_init(w[i]);
		mpz_init(nw[i]);
	}

	/* The chains of faces, one face more at a time: cur still explode. */
	for (i = 0; i < f.n; i++) {
		s64 face = f.min + f.step * (s64)i;
		size_t at = (size_t)(face - vmin) * ns +
			    (size_t)(depth + 1 + fdc_map_unit(face, m));

		if (!mpz_sgn(f.w[i]))
			continue;
		if (lim && fdc_dice_match(&t->explode_on, face))
			mpz_add(cur[at], cur[at], f.w[i]);
		else
			mpz_add(jw[at], jw[at], f.w[i]);
	}
	for (len = 1; len <= depth; len++) {
		for (i = 0; i < nv * ns; i++) {
			mpz_mul(jw[i], jw[i], fd);
			mpz_set_ui(nxt[i], 0);
		}
		for (v = 0; v < nv; v++) {
			for (s = 0; s < ns; s++) {
				if (!mpz_sgn(cur[v * ns + s]))
					continue;
				for (i = 0; i < f.n; i++) {
					s64 face = f.min + f.step * (s64)i;
					/* The value vmin + v + face. */
					size_t at = (size_t)((s64)v + face) * ns +
						    (size_t)((s64)s + fdc_map_unit(face, m));

					if (!mpz_sgn(f.w[i]))
						continue;
					if (len < lim &&
					    fdc_dice_match(&t->explode_on, face))
						mpz_addmul(nxt[at], cur[v * ns + s], f.w[i]);
					else
						mpz_addmul(jw[at], cur[v * ns + s], f.w[i]);
				}
			}
		}
		for (i = 0; i < nv * ns; i++)
			mpz_swap(cur[i], nxt[i]);
	}
	mpz_pow_ui(fd, f.den, depth + 1);

	/* Keep: walk the values from the best down, as fdc_dist_keep(). */
	mpz_set_ui(w[0], 1);
	for (lv = 0; lv < nv; lv++) {
		v = t->mods.keep_low ? lv : nv - 1 - lv;
		mpz_set_ui(pv, 0);
		for (s = 0; s < ns; s++)
			mpz_add(pv, pv, jw[v * ns + s]);
		if (!mpz_sgn(pv))
			continue;
		/* qp[kk]: the successes of kk dice of this value. */
		for (i = 0; i < (k + 1) * span; i++)
			mpz_set_ui(qp[i], 0);
		mpz_set_ui(qp[0], 1);
		for (kk = 1; kk <= k; kk++)
			for (s = 0; s < span; s++) {
				if (!mpz_sgn(qp[(kk - 1) * span + s]))
					continue;
				for (s2 = 0; s2 < ns && s + s2 < span; s2++)
					mpz_addmul(qp[kk * span + s + s2],
						   qp[(kk - 1) * span + s],
						   jw[v * ns + s2]);
			}
		for (i = 0; i < cells; i++)
			mpz_set_ui(nw[i], 0);
		for (j = 0; j <= n; j++)
			for (s = 0; s < span; s++)
				if (mpz_sgn(w[j * span + s]))
					fdc_dist_keep_x_level(nw, w[j * span + s], j, s,
							      n, k, span, pv, qp);
		for (i = 0; i < cells; i++)
			mpz_swap(w[i], nw[i]);
	}
	if (fdc_dist_init(c, d, -(s64)k * (depth + 1), 1, span))
		goto out_clear;
	for (s = 0; s < span; s++)
		mpz_swap(d->w[s], w[n * span + s]);
	mpz_pow_ui(d->den, fd, n);
	ret = fdc_dist_trim(c, d);
out_clear:
	if (jw) {
		for (i = 0; i < nv * ns; i++) {
			mpz_clear(jw[i]);
			mpz_clear(cur[i]);
			mpz_clear(nxt[i]);
		}
		for (i = 0; i < (k + 1) * span; i++)
			mpz_clear(qp[i]);
		for (i = 0; i < cells; i++) {
			mpz_clear(w[i]);
			mpz_clear(nw[i]);
		}
		free(jw);
		free(cur);
		free(nxt);
		free(qp);
		free(w);
		free(nw);
	}
	mpz_clear(pv);
	mpz_clear(fd);
	fdc_dice_dist_free(&f);
	return ret;
}

/* ra: the first die showing @t->ra brings one more die. */
static int fdc_dist_ra(struct fdc_dist_ctx *c, const struct fdc_dice_term *t,
		       const struct fdc_dice_dist *die, struct fdc_dice_dist *d)
{
	struct fdc_dice_cond ra = { FDC_CMP_EQ, t->ra };
	struct fdc_dice_dist no = { 0 }, none = { 0 }, some = { 0 }, more = { 0 };
	size_t i;
	int ret = -1;

	if (fdc_dist_part(c, &no, die, &ra, false) ||
	    fdc_dist_repeat(c, &none, &no, t->count) ||
	    fdc_dist_repeat(c, &some, die, t->count))
		goto out_free;
	/* some := all - none: the rolls where a die shows the face. */
	if (fdc_dist_common(c, &some, &none))
		goto out_free;
	for (i = 0; i < some.n; i++)
		mpz_sub(some.w[i], some.w[i], none.w[i]);
	if (fdc_dist_trim(c, &some) || fdc_dist_trim(c, &none) ||
	    fdc_dist_add(c, &more, &some, die))
		goto out_free;
	for (i = 0; i < none.n; i++)
		mpz_mul(none.w[i], none.w[i], die->den);
	mpz_mul(none.den, none.den, die->den);
	if (fdc_dist_mix(c, &none, &more, 1))
		goto out_free;
	fdc_dist_move(d, &none);
	ret = 0;
out_free:
	fdc_dice_dist_free(&no);
	fdc_dice_dist_free(&none);
	fdc_dice_dist_free(&some);
	fdc_dice_dist_free(&more);
	return ret;
}

static int fdc_dist_dice(struct fdc_dist_ctx *c, const struct fdc_dice_term *t,
			 struct fdc_dice_dist *d)
{
	const struct fdc_dice_mods *m = &t->mods;
	bool per_face = t->explode != FDC_EXPLODE_NONE &&
			t->explode != FDC_EXPLODE_COMPOUND;
	u64 k = fdc_dice_kept_count(m, t->count);
	bool keep = m->has_keep && k < t->count;
	struct fdc_dice_dist die = { 0 };
	int ret;

	memset(d, 0, sizeof(*d));
	/* A die that explodes with x is kept whole but counted face by face. */
	if (keep && m->success.op && per_face)
		return k ? fdc_dist_keep_x(c, t, k, d) : fdc_dist_const(c, d, 0);
	if (fdc_dist_chain(c, t, m->success.op && per_face ? m : NULL, &die))
		return -1;
	/* Kept dice are ranked by their faces, then counted. */
	if (m->success.op && !per_face && !keep &&
	    fdc_dist_apply(c, &die, fdc_map_unit, m)) {
		fdc_dice_dist_free(&die);
		return -1;
	}
	if (t->has_ra)
		ret = fdc_dist_ra(c, t, &die, d);
	else if (keep)
		ret = k ? fdc_dist_keep(c, &die, t->count, k, m->keep_low,
					m->success.op ? m : NULL, d) :
			  fdc_dist_const(c, d, 0);
	else
		ret = fdc_dist_repeat(c, d, &die, t->count);
	fdc_dice_dist_free(&die);
	return ret;
}

/* ------------------------------------------------------------------------
 * Groups and operators
 */

static int fdc_dist_node(struct fdc_dist_ctx *c, unsigned int idx, struct fdc_dice_dist *d);

/*
 * The highest (or lowest) of independent items: products of their CDFs,
 * item i counted @mult[i] times (once each when @mult is NULL).
 */
static int fdc_dist_extreme(struct fdc_dist_ctx *c, struct fdc_dice_dist *it,
			    unsigned int n, const u64 *mult, bool low,
			    struct fdc_dice_dist *d)
{
	mpz_t prod, prev, pw, *cum;
	unsigned int i;
	size_t v, j;

	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	if (fdc_dist_init(c, d, it[0].min, it[0].step, it[0].n))
		return -1;
	mpz_set_ui(d->den, 1);
	mpz_init(pw);
	for (i = 0; i < n; i++) {
		mpz_pow_ui(pw, it[i].den, mult ? mult[i] : 1);
		mpz_mul(d->den, d->den, pw);
	}
	cum = malloc(n * sizeof(*cum));
	if (!cum) {
		mpz_clear(pw);
		return fdc_dist_fail(c, "out of memory");
	}
	for (i = 0; i < n; i++)
		mpz_init(cum[i]);
	mpz_init(prod);
	mpz_init_set_ui(prev, 0);
	for (j = 0; j < d->n; j++) {
		v = low ? d->n - 1 - j : j;
		mpz_set_ui(prod, 1);
		for (i = 0; i < n; i++) {
			mpz_add(cum[i], cum[i], it[i].w[v]);
			mpz_pow_ui(pw, cum[i], mult ? mult[i] : 1);
			mpz_mul(prod, prod, pw);
		}
		mpz_sub(d->w[v], prod, prev);
		mpz_swap(prev, prod);
	}
	for (i = 0; i < n; i++)
		mpz_clear(cum[i]);
	free(cum);
	mpz_clear(prod);
	mpz_clear(prev);
	mpz_clear(pw);
	return fdc_dist_trim(c, d);
}

/*
 * The sum of the @k highest (or lowest) of @n independent items, or with
 * @unit their successes less failures: walk the values from the best
 * down, giving each value to any of the items not yet placed; the state
 * is the set of items placed and what the kept ones add up to. Items of
 * equal values count alike, so that the ties do not matter.
 */
static int fdc_dist_topk(struct fdc_dist_ctx *c, struct fdc_dice_dist *it,
			 unsigned int n, u64 k, bool low,
			 const struct fdc_dice_mods *unit, struct fdc_dice_dist *d)
{
	size_t span, top, cells, v, lv, s, set, full, *off;
	mpz_t *w;
	unsigned int i;
	s64 lo, step;
	int ret = -1;

	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	if (n > FDC_DIST_TOPK)
		return fdc_dist_fail(c, fdc_dist_topk_many);
	off = fdc_dist_scores(&it[0], unit, &lo, &step, &top);
	if (!off)
		return fdc_dist_fail(c, "out of memory");
	span = k * top + 1;
	full = ((size_t)1 << n) - 1;
	cells = (full + 1) * span;
	if ((double)cells > FDC_DIST_MAX) {
		free(off);
		return fdc_dist_fail(c, "keeping items of a group: too many states to compute");
	}
	if (fdc_dist_charge(c, (double)it[0].n * n * cells, cells,
			    fdc_dist_limbs(&it[0]) * n) ||
	    fdc_dist_init(c, d, lo * (s64)k, step, span)) {
		free(off);
		return -1;
	}
	w = malloc(cells * sizeof(*w));
	if (!w) {
		free(off);
		return fdc_dist_fail(c, "out of memory");
	}
	for (s = 0; s < cells; s++)
		mpz_init(w[s]);
	mpz_set_ui(w[0], 1);
	for (lv = 0; lv < it[0].n; lv++) {
		v = low ? lv : it[0].n - 1 - lv;
		for (i = 0; i < n; i++) {
			if (!mpz_sgn(it[i].w[v]))
				continue;
			/* Sets without i: only sets with i change. */
			for (set = 0; set <= full; set++) {
				size_t to = set | ((size_t)1 << i);
				size_t add = (u64)__builtin_popcountll(set) < k ?
					     off[v] : 0;

				if (to == set)
					continue;
				for (s = 0; s + add < span; s++)
					if (mpz_sgn(w[set * span + s]))
						mpz_addmul(w[to * span + s + add],
							   w[set * span + s],
							   it[i].w[v]);
			}
		}
	}
	for (s = 0; s < span; s++)
		mpz_swap(d->w[s], w[full * span + s]);
	mpz_set_ui(d->den, 1);
	for (i = 0; i < n; i++)
		mpz_mul(d->den, d->den, it[i].den);
	ret = fdc_dist_trim(c, d);
	for (s = 0; s < cells; s++)
		mpz_clear(w[s]);
	free(w);
	free(off);
	return ret;
}

/*
 * The sum of the @k highest (or lowest) dice of several terms, term i
 * having @mult[i] dice each distributed as @it[i]: walk the values from
 * the best down, choosing at each, term by term, how many of the term's
 * dice left show it (C(left, x) ways, weight w^x); the state is the dice
 * left of each term (in mixed radix), the dice kept so far and what they
 * add up to. Dice of equal values count alike, so that ties do not matter.
 */
static int fdc_dist_keep_terms(struct fdc_dist_ctx *c, struct fdc_dice_dist *it,
			       unsigned int n, const u64 *mult, u64 k, bool low,
			       struct fdc_dice_dist *d)
{
	size_t radix[FDC_DICE_MAX_NODES], left_n = 1, kn = k + 1, span, cells;
	size_t st, lv, v, m, left, x, sum, add, to, kept;
	double ops = 0;
	mpz_t *w, *nw, *pw, *tmp, ways;
	unsigned int i;
	u64 most = 0;
	int ret = -1;

	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	for (i = 1; i < n; i++)
		if (fdc_dist_common(c, &it[0], &it[i]))
			return -1;
	m = it[0].n;
	span = k * (m - 1) + 1;
	for (i = 0; i < n; i++) {
		radix[i] = left_n;
		if ((double)left_n * (mult[i] + 1) > FDC_DIST_MAX)
			return fdc_dist_fail(c, fdc_dist_pool_many);
		left_n *= mult[i] + 1;
		ops += (double)mult[i] + 1;
		most = mult[i] > most ? mult[i] : most;
	}
	cells = left_n * kn * span;
	if ((double)left_n * kn * span > FDC_DIST_MAX)
		return fdc_dist_fail(c, fdc_dist_pool_many);
	if (fdc_dist_charge(c, ops * m * cells, cells, fdc_dist_limbs(&it[0]) * most) ||
	    fdc_dist_init(c, d, it[0].min * (s64)k, it[0].step, span))
		return -1;
	w = malloc(cells * sizeof(*w));
	nw = malloc(cells * sizeof(*nw));
	pw = malloc((most + 1) * sizeof(*pw));
	if (!w || !nw || !pw) {
		free(w);
		free(nw);
		free(pw);
		return fdc_dist_fail(c, "out of memory");
	}
	for (st = 0; st < cells; st++) {
		mpz_init(w[st]);
		mpz_init(nw[st]);
	}
	for (x = 0; x <= most; x++)
		mpz_init(pw[x]);
	mpz_init(ways);
	/* All the dice left, none kept. */
	mpz_set_ui(w[(left_n - 1) * kn * span], 1);
	for (lv = 0; lv < m; lv++) {
		v = low ? lv : m - 1 - lv;
		for (i = 0; i < n; i++) {
			if (!mpz_sgn(it[i].w[v]))
				continue;
			mpz_set_ui(pw[0], 1);
			for (x = 1; x <= mult[i]; x++)
				mpz_mul(pw[x], pw[x - 1], it[i].w[v]);
			for (st = 0; st < cells; st++)
				mpz_set_ui(nw[st], 0);
			for (st = 0; st < cells; st++) {
				if (!mpz_sgn(w[st]))
					continue;
				sum = st % span;
				kept = st / span % kn;
				left = st / span / kn / radix[i] % (mult[i] + 1);
				for (x = 0; x <= left; x++) {
					add = x < k - kept ? x : k - kept;
					to = ((st / span / kn - x * radix[i]) * kn +
					      kept + add) * span + sum + add * v;
					mpz_bin_uiui(ways, left, x);
					mpz_mul(ways, ways, pw[x]);
					mpz_addmul(nw[to], w[st], ways);
				}
			}
			tmp = w;
			w = nw;
			nw = tmp;
		}
	}
	/* Every die placed, exactly k kept. */
	for (sum = 0; sum < span; sum++)
		mpz_swap(d->w[sum], w[k * span + sum]);
	mpz_set_ui(d->den, 1);
	for (i = 0; i < n; i++) {
		mpz_pow_ui(ways, it[i].den, mult[i]);
		mpz_mul(d->den, d->den, ways);
	}
	ret = fdc_dist_trim(c, d);
	for (st = 0; st < cells; st++) {
		mpz_clear(w[st]);
		mpz_clear(nw[st]);
	}
	for (x = 0; x <= most; x++)
		mpz_clear(pw[x]);
	mpz_clear(ways);
	free(w);
	free(nw);
	free(pw);
	return ret;
}

/*
 * A one-roll group, {4d6+3d8}k4: the highest (or lowest) of all its dice,
 * each die an item of its own; or, without a keep, the successes of its
 * dice (each of its terms counts them: the parser gave them the group's
 * compare points).
 */
static int fdc_dist_pool(struct fdc_dist_ctx *c, const struct fdc_dice_node *g,
			 struct fdc_dice_dist *d)
{
	const struct fdc_dice_expr *e = c->e;
	struct fdc_dice_dist it[FDC_DICE_MAX_NODES], die, r;
	u64 count = 0, k, mult[FDC_DICE_MAX_NODES];
	unsigned int i, j, n = 0;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	for (j = 0; j < g->nitems; j++)
		count += e->node[e->items[g->first + j]].dice.count;
	k = fdc_dice_kept_count(&g->mods, count);
	if (g->mods.has_keep && !k)
		return fdc_dist_const(c, d, 0);
	if (!g->mods.has_keep || k == count) {
		if (fdc_dist_const(c, d, 0))
			return -1;
		for (j = 0; j < g->nitems; j++) {
			if (fdc_dist_node(c, e->items[g->first + j], &die))
				goto out_sum;
			ret = fdc_dist_add(c, &r, d, &die);
			fdc_dice_dist_free(&die);
			if (ret)
				goto out_sum;
			fdc_dist_move(d, &r);
			ret = -1;
		}
		return 0;
out_sum:
		fdc_dice_dist_free(d);
		return -1;
	}
	/* One item a term, as many times as it has dice. */
	for (j = 0; j < g->nitems; j++) {
		const struct fdc_dice_term *t = &e->node[e->items[g->first + j]].dice;

		if (!t->count)
			continue;
		if (fdc_dist_chain(c, t, NULL, &it[n]))
			goto out_free;
		mult[n++] = t->count;
	}
	if (k == 1)
		ret = fdc_dist_extreme(c, it, n, mult, g->mods.keep_low, d);
	else
		ret = fdc_dist_keep_terms(c, it, n, mult, k, g->mods.keep_low, d);
out_free:
	for (i = 0; i < n; i++)
		fdc_dice_dist_free(&it[i]);
	return ret;
}

static int fdc_dist_group(struct fdc_dist_ctx *c, const struct fdc_dice_node *g,
			  struct fdc_dice_dist *d)
{
	struct fdc_dice_dist it[FDC_DICE_MAX_NODES], r;
	u64 k = fdc_dice_kept_count(&g->mods, g->nitems);
	unsigned int i, n = 0;
	int ret = -1;

	if (g->pool)
		return fdc_dist_pool(c, g, d);
	memset(d, 0, sizeof(*d));
	for (n = 0; n < g->nitems; n++)
		if (fdc_dist_node(c, c->e->items[g->first + n], &it[n]))
			goto out_free;
	if (g->mods.has_keep && k < g->nitems) {
		if (k == 0)
			ret = fdc_dist_const(c, d, 0);
		else if (k == 1 && !g->mods.success.op)
			ret = fdc_dist_extreme(c, it, n, NULL, g->mods.keep_low, d);
		else
			ret = fdc_dist_topk(c, it, n, k, g->mods.keep_low,
					    g->mods.success.op ? &g->mods : NULL, d);
		goto out_free;
	}
	if (fdc_dist_const(c, d, 0))
		goto out_free;
	for (i = 0; i < n; i++) {
		if (g->mods.success.op &&
		    fdc_dist_apply(c, &it[i], fdc_map_unit, &g->mods))
			goto out_free;
		if (fdc_dist_add(c, &r, d, &it[i])) {
			fdc_dice_dist_free(&r);
			goto out_free;
		}
		fdc_dist_move(d, &r);
	}
	ret = 0;
out_free:
	for (i = 0; i < n; i++)
		fdc_dice_dist_free(&it[i]);
	if (ret)
		fdc_dice_dist_free(d);
	return ret;
}

static s64 fdc_map_neg(s64 v, const void *arg)
{
	(void)arg;
	return -v;
}

static s64 fdc_map_abs(s64 v, const void *arg)
{
	(void)arg;
	return v < 0 ? -v : v;
}

static s64 fdc_map_mul(s64 v, const void *arg)
{
	return v * *(const s64 *)arg;
}

static s64 fdc_map_mod(s64 v, const void *arg)
{
	return v % *(const s64 *)arg;
}

/* floor, ceil and round of v / b: @arg is { kind, b }. */
static s64 fdc_map_div(s64 v, const void *arg)
{
	const s64 *a = arg;
	s64 b = a[1], q;

	if (b < 0) {
		v = -v;
		b = -b;
	}
	switch (a[0]) {
	case FDC_NODE_CEIL:
		v += b - 1;
		break;
	case FDC_NODE_ROUND:
		/* floor(v / b + 1/2) */
		v = 2 * v + b;
		b *= 2;
		break;
	default:
		break;
	}
	q = v / b;
	return (v % b && v < 0) ? q - 1 : q;
}

/* The constant value of node @idx, if it has one. */
static bool fdc_dist_is_const(const struct fdc_dice_expr *e, unsigned int idx,
			      s64 *v)
{
	const struct fdc_dice_node *n = &e->node[idx];

	*v = n->lo;
	return n->lo == n->hi && n->den == 1;
}

/* ------------------------------------------------------------------------
 * Values off a grid: products, quotients and remainders of two random
 * values, and the fractions on the way to a whole total
 */

/**
 * struct fdc_qv - one value of a sparse distribution, and its weight
 * @n: numerator
 * @d: denominator, positive, in lowest terms with @n
 * @fl: floor(@n / @d), the first key of the order
 * @w: the weight
 */
struct fdc_qv {
	__int128 n;
	__int128 d;
	__int128 fl;
	mpz_t w;
};

/**
 * struct fdc_qdist - a distribution as a list of its possible values
 * @n: how many (after fdc_qdist_sort(), in increasing order, distinct)
 * @v: the values and their weights
 * @den: the common denominator of the weights
 */
struct fdc_qdist {
	size_t n;
	struct fdc_qv *v;
	mpz_t den;
};

static __int128 fdc_q_floor(__int128 a, __int128 b)
{
	__int128 q = a / b;

	return (a % b && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* @v := @n / @d in lowest terms (@d != 0). */
static void fdc_qv_set(struct fdc_qv *v, __int128 n, __int128 d)
{
	__int128 a, b, t;

	if (d < 0) {
		n = -n;
		d = -d;
	}
	a = n < 0 ? -n : n;
	b = d;
	while (b) {
		t = a % b;
		a = b;
		b = t;
	}
	if (a > 1) {
		n /= a;
		d /= a;
	}
	v->n = n;
	v->d = d;
	v->fl = fdc_q_floor(n, d);
}

/*
 * The order of two values: by their floors, then by the fractions left,
 * whose cross products stay below 2^80 (the parser keeps denominators
 * below 2^40).
 */
static int fdc_qv_cmp(const void *pa, const void *pb)
{
	const struct fdc_qv *a = pa, *b = pb;
	__int128 ra, rb;

	if (a->fl != b->fl)
		return a->fl < b->fl ? -1 : 1;
	ra = (a->n - a->fl * a->d) * b->d;
	rb = (b->n - b->fl * b->d) * a->d;
	return ra < rb ? -1 : ra > rb;
}

static void fdc_qdist_free(struct fdc_qdist *q)
{
	size_t i;

	if (q->v) {
		for (i = 0; i < q->n; i++)
			mpz_clear(q->v[i].w);
		free(q->v);
		mpz_clear(q->den);
	}
	q->v = NULL;
	q->n = 0;
}

static int fdc_qdist_init(struct fdc_dist_ctx *c, struct fdc_qdist *q, size_t n)
{
	size_t i;

	q->n = 0;
	q->v = malloc((n ? n : 1) * sizeof(*q->v));
	if (!q->v)
		return fdc_dist_fail(c, "out of memory");
	mpz_init_set_ui(q->den, 1);
	for (i = 0; i < n; i++)
		mpz_init(q->v[i].w);
	q->n = n;
	return 0;
}

/* Sort the values and add up the weights of equal ones. */
static void fdc_qdist_sort(struct fdc_qdist *q)
{
	size_t i, j = 0;

	qsort(q->v, q->n, sizeof(*q->v), fdc_qv_cmp);
	for (i = 0; i < q->n; i++) {
		if (j && !fdc_qv_cmp(&q->v[j - 1], &q->v[i])) {
			mpz_add(q->v[j - 1].w, q->v[j - 1].w, q->v[i].w);
			mpz_clear(q->v[i].w);
			continue;
		}
		if (i != j)
			q->v[j] = q->v[i];
		j++;
	}
	q->n = j;
}

/* @q := the possible values of @d. */
static int fdc_qdist_from(struct fdc_dist_ctx *c, struct fdc_qdist *q,
			  const struct fdc_dice_dist *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += mpz_sgn(d->w[i]) != 0;
	if (fdc_qdist_init(c, q, n))
		return -1;
	mpz_set(q->den, d->den);
	for (i = 0, n = 0; i < d->n; i++) {
		if (!mpz_sgn(d->w[i]))
			continue;
		fdc_qv_set(&q->v[n], d->min + d->step * (s64)i, 1);
		mpz_set(q->v[n].w, d->w[i]);
		n++;
	}
	return 0;
}

/* @d := @q, whose values must all be whole (the parser sees to it). */
static int fdc_qdist_grid(struct fdc_dist_ctx *c, const struct fdc_qdist *q,
			  struct fdc_dice_dist *d)
{
	s64 lo = q->n ? (s64)q->v[0].n : 0;
	s64 hi = q->n ? (s64)q->v[q->n - 1].n : 0;
	size_t i;

	for (i = 0; i < q->n; i++)
		if (q->v[i].d != 1)
			return fdc_dist_fail(c, "a total on the way can be a fraction");
	if ((u64)(hi - lo) >= FDC_DIST_MAX)
		return fdc_dist_fail(c, "the distribution has too many totals to compute");
	if (fdc_dist_init(c, d, lo, 1, (size_t)(hi - lo) + 1))
		return -1;
	mpz_set(d->den, q->den);
	for (i = 0; i < q->n; i++)
		mpz_set(d->w[(s64)q->v[i].n - lo], q->v[i].w);
	if (fdc_dist_charge(c, (double)d->n, d->n, fdc_dist_limbs(d)))
		return -1;
	return fdc_dist_trim(c, d);
}

/* @q := the distribution of op(X) for a unary @kind: -, abs and roundings. */
static void fdc_qdist_unary(struct fdc_qdist *q, enum fdc_node_kind kind)
{
	size_t i;

	for (i = 0; i < q->n; i++) {
		__int128 n = q->v[i].n, d = q->v[i].d;

		switch (kind) {
		case FDC_NODE_NEG:
			fdc_qv_set(&q->v[i], -n, d);
			break;
		case FDC_NODE_ABS:
			fdc_qv_set(&q->v[i], n < 0 ? -n : n, d);
			break;
		case FDC_NODE_FLOOR:
			fdc_qv_set(&q->v[i], fdc_q_floor(n, d), 1);
			break;
		case FDC_NODE_CEIL:
			fdc_qv_set(&q->v[i], -fdc_q_floor(-n, d), 1);
			break;
		default:
			/* round: halves go up, as the roller rounds. */
			fdc_qv_set(&q->v[i], fdc_q_floor(2 * n + d, 2 * d), 1);
			break;
		}
	}
	fdc_qdist_sort(q);
}

/*
 * @r := the distribution of X op Y, X ~ @a and Y ~ @b independent, over
 * every pair of their values; the quotients are exact fractions, the
 * remainder takes the sign of the dividend, as the roller has them.
 */
static int fdc_qdist_pair(struct fdc_dist_ctx *c, enum fdc_node_kind kind,
			  const struct fdc_qdist *a, const struct fdc_qdist *b,
			  struct fdc_qdist *r)
{
	double pairs = (double)a->n * (double)b->n;
	size_t i, j, k = 0;

	memset(r, 0, sizeof(*r));
	if (pairs > FDC_DIST_PAIRS)
		return fdc_dist_fail(c, fdc_dist_pairs_many);
	if (fdc_dist_charge(c, pairs * 8, (size_t)pairs,
			    mpz_size(a->den) + mpz_size(b->den) + 1) ||
	    fdc_qdist_init(c, r, (size_t)pairs))
		return -1;
	mpz_mul(r->den, a->den, b->den);
	for (i = 0; i < a->n; i++) {
		const struct fdc_qv *x = &a->v[i];

		for (j = 0; j < b->n; j++, k++) {
			const struct fdc_qv *y = &b->v[j];
			struct fdc_qv *z = &r->v[k];

			switch (kind) {
			case FDC_NODE_ADD:
				fdc_qv_set(z, x->n * y->d + y->n * x->d, x->d * y->d);
				break;
			case FDC_NODE_SUB:
				fdc_qv_set(z, x->n * y->d - y->n * x->d, x->d * y->d);
				break;
			case FDC_NODE_MUL:
				fdc_qv_set(z, x->n * y->n, x->d * y->d);
				break;
			case FDC_NODE_DIV:
				fdc_qv_set(z, x->n * y->d, x->d * y->n);
				break;
			default:
				/* %: both whole, the divisor never 0. */
				fdc_qv_set(z, x->n % y->n, 1);
				break;
			}
			mpz_mul(z->w, x->w, y->w);
		}
	}
	fdc_qdist_sort(r);
	return 0;
}

/* The distribution of node @idx as a list of values, fractions or not. */
static int fdc_dist_qnode(struct fdc_dist_ctx *c, unsigned int idx,
			  struct fdc_qdist *q)
{
	const struct fdc_dice_node *n = &c->e->node[idx];
	struct fdc_dice_dist g;
	struct fdc_qdist a = { 0 }, b = { 0 };
	int ret = -1;

	memset(q, 0, sizeof(*q));
	if (n->den == 1) {
		if (fdc_dist_node(c, idx, &g))
			return -1;
		ret = fdc_qdist_from(c, q, &g);
		fdc_dice_dist_free(&g);
		return ret;
	}
	switch (n->kind) {
	case FDC_NODE_NEG:
	case FDC_NODE_ABS:
		if (fdc_dist_qnode(c, n->a, q))
			return -1;
		fdc_qdist_unary(q, n->kind);
		return 0;
	case FDC_NODE_ADD:
	case FDC_NODE_SUB:
	case FDC_NODE_MUL:
	case FDC_NODE_DIV:
		if (!fdc_dist_qnode(c, n->a, &a) && !fdc_dist_qnode(c, n->b, &b))
			ret = fdc_qdist_pair(c, n->kind, &a, &b, q);
		break;
	default:
		ret = fdc_dist_fail(c, "this operator is not computed");
		break;
	}
	fdc_qdist_free(&a);
	fdc_qdist_free(&b);
	if (ret)
		fdc_qdist_free(q);
	return ret;
}

/* Node @idx, whole, computed over the pairs of values of its operands. */
static int fdc_dist_pairs(struct fdc_dist_ctx *c, unsigned int idx,
			  struct fdc_dice_dist *d)
{
	const struct fdc_dice_node *n = &c->e->node[idx];
	struct fdc_qdist a = { 0 }, b = { 0 }, r = { 0 };
	int ret = -1;

	switch (n->kind) {
	case FDC_NODE_FLOOR:
	case FDC_NODE_CEIL:
	case FDC_NODE_ROUND:
	case FDC_NODE_NEG:
	case FDC_NODE_ABS:
		if (fdc_dist_qnode(c, n->a, &r))
			break;
		fdc_qdist_unary(&r, n->kind);
		ret = fdc_qdist_grid(c, &r, d);
		break;
	default:
		if (fdc_dist_qnode(c, n->a, &a) || fdc_dist_qnode(c, n->b, &b) ||
		    fdc_qdist_pair(c, n->kind, &a, &b, &r))
			break;
		ret = fdc_qdist_grid(c, &r, d);
		break;
	}
	fdc_qdist_free(&a);
	fdc_qdist_free(&b);
	fdc_qdist_free(&r);
	return ret;
}

static int fdc_dist_round(struct fdc_dist_ctx *c, unsigned int idx,
			  struct fdc_dice_dist *d)
{
	const struct fdc_dice_node *n = &c->e->node[idx];
	const struct fdc_dice_node *in = &c->e->node[n->a];
	struct fdc_dice_dist a;
	s64 arg[2];

	if (in->den == 1)
		return fdc_dist_node(c, n->a, d);
	/* X/N on a grid: the quotients need not be listed one by one. */
	if (in->kind != FDC_NODE_DIV || c->e->node[in->a].den != 1 ||
	    !fdc_dist_is_const(c->e, in->b, &arg[1]))
		return fdc_dist_pairs(c, idx, d);
	arg[0] = n->kind;
	if (fdc_dist_node(c, in->a, &a))
		return -1;
	if (fdc_dist_map(c, d, &a, fdc_map_div, arg)) {
		fdc_dice_dist_free(&a);
		return -1;
	}
	fdc_dice_dist_free(&a);
	return 0;
}

static int fdc_dist_node(struct fdc_dist_ctx *c, unsigned int idx, struct fdc_dice_dist *d)
{
	const struct fdc_dice_node *n = &c->e->node[idx];
	struct fdc_dice_dist a = { 0 }, b = { 0 };
	s64 k;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	switch (n->kind) {
	case FDC_NODE_NUM:
		return fdc_dist_const(c, d, n->num);
	case FDC_NODE_DICE:
		return fdc_dist_dice(c, &n->dice, d);
	case FDC_NODE_GROUP:
		return fdc_dist_group(c, n, d);
	case FDC_NODE_FLOOR:
	case FDC_NODE_CEIL:
	case FDC_NODE_ROUND:
		return fdc_dist_round(c, idx, d);
	case FDC_NODE_DIV:
		/* Whole only when dividing by 1 or -1. */
		return fdc_dist_pairs(c, idx, d);
	case FDC_NODE_MUL:
		if (!fdc_dist_is_const(c->e, n->a, &k) &&
		    !fdc_dist_is_const(c->e, n->b, &k))
			return fdc_dist_pairs(c, idx, d);
		break;
	case FDC_NODE_MOD:
		if (!fdc_dist_is_const(c->e, n->b, &k))
			return fdc_dist_pairs(c, idx, d);
		break;
	default:
		break;
	}
	/* Whole, with fractions on the way: abs(1d6/2 - 1d4/2)*2. */
	if (n->den > 1)
		return fdc_dist_pairs(c, idx, d);
	if (fdc_dist_node(c, n->a, &a))
		return -1;
	switch (n->kind) {
	case FDC_NODE_NEG:
		ret = fdc_dist_map(c, d, &a, fdc_map_neg, NULL);
		break;
	case FDC_NODE_ABS:
		ret = fdc_dist_map(c, d, &a, fdc_map_abs, NULL);
		break;
	case FDC_NODE_ADD:
	case FDC_NODE_SUB:
		if (fdc_dist_node(c, n->b, &b))
			break;
		if (n->kind == FDC_NODE_SUB &&
		    fdc_dist_apply(c, &b, fdc_map_neg, NULL))
			break;
		ret = fdc_dist_add(c, d, &a, &b);
		break;
	case FDC_NODE_MUL:
		if (fdc_dist_is_const(c->e, n->b, &k)) {
			ret = fdc_dist_map(c, d, &a, fdc_map_mul, &k);
		} else {
			fdc_dist_is_const(c->e, n->a, &k);
			if (!fdc_dist_node(c, n->b, &b))
				ret = fdc_dist_map(c, d, &b, fdc_map_mul, &k);
		}
		break;
	case FDC_NODE_MOD:
		fdc_dist_is_const(c->e, n->b, &k);
		ret = fdc_dist_map(c, d, &a, fdc_map_mod, &k);
		break;
	default:
		ret = fdc_dist_fail(c, "this operator is not computed");
		break;
	}
	fdc_dice_dist_free(&a);
	fdc_dice_dist_free(&b);
	if (ret)
		fdc_dice_dist_free(d);
	return ret;
}

/* ------------------------------------------------------------------------
 * The depth of explosions, and the size of the work, before doing it
 */

/*
 * The depth that leaves less than 2^-FDC_DIST_REST_BITS beyond it for
 * @count dice exploding with probability @q each time.
 */
static unsigned int fdc_dist_want_depth(double q, u64 count, unsigned int lim)
{
	unsigned int d = 1;

	while (d < lim && log2((double)count) + (d + 1) * log2(q) >
	       -FDC_DIST_REST_BITS)
		d++;
	return d;
}

/* Rough work of the dice of @t at depth @depth, in limb operations. */
static double fdc_dist_cost_dice(const struct fdc_dice_term *t,
				 unsigned int depth, unsigned int lim,
				 double *support)
{
	double faces = (double)t->sides, per_die, total, limbs, n;
	unsigned int chain = t->explode ? (depth < lim ? depth : lim) + 1 : 1;

	n = (double)t->count + t->has_ra;
	per_die = faces * chain;
	total = per_die * (n ? n : 1);
	*support = total;
	limbs = n * chain * log2(faces * faces + 1) / 64 + 2;
	/* Sums of 1, 2, ... n dice: the sizes grow linearly, so a third. */
	if (t->mods.has_keep && t->mods.success.op &&
	    t->explode == FDC_EXPLODE_WHOLE)
		return fdc_dist_cost_keep_x(per_die, n, chain,
					    fdc_dice_kept_count(&t->mods, t->count),
					    limbs);
	if (t->mods.has_keep)
		return per_die * total * n * limbs;
	if (!t->explode && !t->nreroll)
		return 2 * total * n * limbs / 3;
	return total * per_die * n * limbs / 3;
}

/*
 * Rough work of keeping 2 or more, not all, of a group's items; -1 when
 * there are too many items for it.
 */
static double fdc_dist_cost_group(const struct fdc_dice_expr *e,
				  const struct fdc_dice_node *g)
{
	u64 k = fdc_dice_kept_count(&g->mods, g->nitems), count = 0;
	double lo = 0, hi = 0, span, cells;
	unsigned int i;

	if (g->pool) {
		/* The dice left of each term, kept and their sum, a value each. */
		double left = 1, moves = 0, values;

		for (i = 0; i < g->nitems; i++) {
			u64 cnt = e->node[e->items[g->first + i]].dice.count;

			count += cnt;
			left *= (double)cnt + 1;
			moves += (double)cnt + 1;
		}
		k = fdc_dice_kept_count(&g->mods, count);
		if (!g->mods.has_keep || k >= count || k <= 1)
			return 0;
		span = (double)g->hi - (double)g->lo + 1;
		values = span / (double)k + 1;
		cells = left * ((double)k + 1) * span;
		if (cells > FDC_DIST_MAX)
			return INFINITY;
		return cells * values * moves * 2;
	}
	if (!g->mods.has_keep || k >= g->nitems || !k ||
	    (k == 1 && !g->mods.success.op))
		return 0;
	if (g->nitems > FDC_DIST_TOPK)
		return -1;
	for (i = 0; i < g->nitems; i++) {
		const struct fdc_dice_node *it = &e->node[e->items[g->first + i]];

		lo = i && lo < it->lo ? lo : (double)it->lo;
		hi = i && hi > it->hi ? hi : (double)it->hi;
	}
	span = g->mods.success.op ? 3 : hi - lo + 1;
	cells = (double)(1ULL << g->nitems) * ((double)k * span + 1);
	if (cells > FDC_DIST_MAX)
		return INFINITY;
	return (hi - lo + 1) * g->nitems * cells * 2;
}

/*
 * A bound on how many values node @idx can take, and in @pairs the most
 * pairs of values one of its products, quotients or remainders lists.
 */
static double fdc_dist_supp(const struct fdc_dice_expr *e, unsigned int idx,
			    double *pairs)
{
	const struct fdc_dice_node *n = &e->node[idx];
	double range = (double)n->hi - (double)n->lo + 1, a, b, s;
	s64 k;

	switch (n->kind) {
	case FDC_NODE_NUM:
		return 1;
	case FDC_NODE_DICE:
	case FDC_NODE_GROUP:
		return range;
	case FDC_NODE_NEG:
	case FDC_NODE_ABS:
	case FDC_NODE_FLOOR:
	case FDC_NODE_CEIL:
	case FDC_NODE_ROUND:
		s = fdc_dist_supp(e, n->a, pairs);
		break;
	default:
		a = fdc_dist_supp(e, n->a, pairs);
		b = fdc_dist_supp(e, n->b, pairs);
		s = a * b;
		if (n->kind == FDC_NODE_MUL && (fdc_dist_is_const(e, n->a, &k) ||
						fdc_dist_is_const(e, n->b, &k)))
			break;
		if ((n->kind == FDC_NODE_ADD || n->kind == FDC_NODE_SUB) &&
		    n->den == 1)
			break;
		if (s > *pairs)
			*pairs = s;
		break;
	}
	return n->den == 1 && range < s ? range : s;
}

static int fdc_dist_plan(struct fdc_dist_ctx *c, double *cost)
{
	const struct fdc_dice_expr *e = c->e;
	unsigned int i, want = 0, lim = e->explode_max;
	double work, support, pairs = 0;

	/* The depth that makes the rest small enough, for the worst die. */
	for (i = 0; i < e->nnodes; i++) {
		const struct fdc_dice_term *t = &e->node[i].dice;
		s64 lo = 1 + t->offset, hi = (s64)t->sides + t->offset;
		double q;

		if (e->node[i].kind != FDC_NODE_DICE || !t->explode)
			continue;
		if (t->explode_on.op == FDC_CMP_EQ)
			q = 1;
		else if (t->explode_on.op == FDC_CMP_GE)
			q = (double)(hi - t->explode_on.value + 1);
		else
			q = (double)(t->explode_on.value - lo + 1);
		q /= (double)t->sides;
		if (q > 0 && q < 1) {
			unsigned int d = fdc_dist_want_depth(q, t->count, lim);

			want = d > want ? d : want;
		}
	}
	c->depth = want ? want : 1;
	fdc_dist_supp(e, e->root, &pairs);
	if (pairs > FDC_DIST_PAIRS) {
		snprintf(c->err, c->errlen, "%s (%.0f, at most %llu)",
			 fdc_dist_pairs_many, pairs,
			 (unsigned long long)FDC_DIST_PAIRS);
		return -1;
	}
	for (;;) {
		work = 0;
		for (i = 0; i < e->nnodes; i++) {
			if (e->node[i].kind == FDC_NODE_GROUP) {
				double w = fdc_dist_cost_group(e, &e->node[i]);

				if (w < 0)
					return fdc_dist_fail(c, fdc_dist_topk_many);
				work += w;
			}
			if (e->node[i].kind != FDC_NODE_DICE)
				continue;
			work += fdc_dist_cost_dice(&e->node[i].dice, c->depth,
						   lim, &support);
			if (support > FDC_DIST_MAX)
				work = INFINITY;
		}
		if (work <= FDC_DIST_WORK || c->depth == 1)
			break;
		c->depth--;
	}
	*cost = work;
	return work <= FDC_DIST_WORK ? 0 :
	       fdc_dist_fail(c, "the distribution is too large to compute");
}

static bool fdc_dist_small(s128 v)
{
	return v >= -(s128)BIT_ULL(62) && v <= (s128)BIT_ULL(62);
}

static bool fdc_dist_small_mods(const struct fdc_dice_mods *m)
{
	return fdc_dist_small(m->success.value) &&
	       fdc_dist_small(m->failure.value);
}

/*
 * Whether every number and value of @e is within +-2^62, where the
 * distributions' 64-bit grids hold them.
 */
static bool fdc_dist_narrow(const struct fdc_dice_expr *e)
{
	unsigned int i, j;

	for (i = 0; i < e->nnodes; i++) {
		const struct fdc_dice_node *n = &e->node[i];
		const struct fdc_dice_term *t = &n->dice;

		if (!fdc_dist_small(n->lo) || !fdc_dist_small(n->hi) ||
		    !fdc_dist_small(n->num) || !fdc_dist_small_mods(&n->mods))
			return false;
		if (n->kind != FDC_NODE_DICE)
			continue;
		if (t->sides > BIT_ULL(62) || !fdc_dist_small_mods(&t->mods) ||
		    !fdc_dist_small(t->explode_on.value) ||
		    !fdc_dist_small(t->min_face) || !fdc_dist_small(t->max_face) ||
		    !fdc_dist_small(t->ra))
			return false;
		for (j = 0; j < t->nreroll; j++)
			if (!fdc_dist_small(t->reroll[j].value))
				return false;
	}
	return true;
}

/**
 * fdc_dice_dist() - the exact distribution of one total of an expression
 * @expr: the expression
 * @d: the distribution; free it with fdc_dice_dist_free()
 * @err: where a one-line reason goes on failure
 * @errlen: room in @err
 *
 * The size of the work is estimated first, and an expression too large
 * is refused before any of it is done. Explosions are followed to the
 * depth @d->depth; fdc_dice_dist_rest() is the probability beyond it.
 *
 * Return: 0, or -1 with @err set.
 */
int fdc_dice_dist(const struct fdc_dice_expr *expr, struct fdc_dice_dist *d,
		  char *err, size_t errlen)
{
	struct fdc_dist_ctx c = { .e = expr, .err = err, .errlen = errlen };
	double cost;

	memset(d, 0, sizeof(*d));
	if (!fdc_dist_narrow(expr))
		return fdc_dist_fail(&c, fdc_dist_wide);
	if (fdc_dist_plan(&c, &cost))
		return -1;
	if (fdc_dist_node(&c, expr->root, d))
		return -1;
	d->depth = c.depth < expr->explode_max ? c.depth : expr->explode_max;
	return 0;
}

/**
 * fdc_dice_dist_rest() - the probability the distribution leaves out:
 *	that some die explodes more than @d->depth times
 * @d: the distribution
 * @rest: the probability, initialised by the caller
 */
void fdc_dice_dist_rest(const struct fdc_dice_dist *d, mpq_t rest)
{
	mpz_t sum;
	size_t i;

	mpz_init(sum);
	for (i = 0; i < d->n; i++)
		mpz_add(sum, sum, d->w[i]);
	mpz_sub(sum, d->den, sum);
	mpq_set_num(rest, sum);
	mpq_set_den(rest, d->den);
	mpq_canonicalize(rest);
	mpz_clear(sum);
}
