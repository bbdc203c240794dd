// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs for the weighted draws (driver/fd_weights.c).
 *
 *   init        fd_weights_init() refuses no faces, too many faces, all
 *               weights zero and a sum above 2^64 - 1, and accepts a sum
 *               of exactly 2^64 - 1; the guide of random weight vectors
 *               (runs of zeros, one huge weight, 65536 faces) points every
 *               bucket at the face holding its first value
 *   joint       exhaustive over grouped states, as test_batch's joint
 *               proof: after every bit string up to a depth, the whole
 *               state, the stage and the faces drawn so far (the history).
 *               A weighted draw accepts from Q = M div W and keeps
 *               Z' uniform on [0, Q w_f); so at every depth, for every
 *               history, Q and second state, each face f of positive
 *               weight must come with every Z' in [0, Q w_f) and one and
 *               the same number of strings for all of them (face f thus
 *               has mass proportional to Q w_f, probability w_f / W, and
 *               its kept state is uniform), and no face of weight zero
 *               comes at all; a uniform roll, with every face once per
 *               kept state with equal counts. Weights (1,1), (1,2),
 *               (1,3), 2d6's sums, weights with zeros, totals just below
 *               the target of M, all jointly with uniform rolls (batched
 *               too) before and after
 *   reference   against a bit-serial reference written here with plain
 *               128-bit division and a linear search: the same faces,
 *               states and bits on random streams, for totals up to
 *               2^64 - 1 (the 128-bit state), random weights, and a
 *               state kept wider than 64 bits from a uniform die
 *   fill        fd_weights_fill() makes the faces of fd_weights_draw(),
 *               with the same bits, in every width, the pool running dry
 *               anywhere
 *   cost        fair bits per draw over 10^6 draws within 0.01 bit of the
 *               entropy H(w): 2d6's sum, 3d6's sum, a 1000-face Zipf and
 *               1 : 10^9
 */
#include <math.h>

#include "fd_test.h"
#include "fd_sampler.h"
#include "fd_weights.h"
#include "fd_roll.h"

static u64 rng = 0x3e1675;

/* A weighted die and its table, from an array of weights. */
struct wdie {
	struct fd_weights w;
	u64 *table;
};

static int wdie_init(struct wdie *d, const u64 *weights, u32 count)
{
	int err;

	d->table = calloc(fd_weights_table_words(count ? count : 1),
			  sizeof(u64));
	if (!d->table)
		abort();
	if (count)
		memcpy(d->table + 1, weights, count * sizeof(u64));
	err = fd_weights_init(&d->w, d->table, count);
	if (err) {
		free(d->table);
		d->table = NULL;
	}
	return err;
}

static void wdie_free(struct wdie *d)
{
	free(d->table);
	d->table = NULL;
}

/* ------------------------------------------------------------------ */
/* init                                                                */

static bool guide_ok(const struct fd_weights *w)
{
	u64 nb = ((w->total - 1) >> w->guide_shift) + 1, b, start;
	u32 f;

	if (w->cum[0] || w->cum[w->count] != w->total)
		return false;
	/* Packed entries exactly for byte-wide dice with a shift of 0. */
	if ((w->guide_mask == 0xff) !=
	    (w->count <= 256 && !w->guide_shift))
		return false;
	for (b = 0; b < nb; b++) {
		start = b << w->guide_shift;
		f = w->guide[b] & w->guide_mask;
		if (f >= w->count || w->cum[f] > start ||
		    w->cum[f + 1] <= start)
			return false;
		if (w->guide_mask == 0xff &&
		    w->guide[b] != (f | fd_weights_weight(w, f) <<
				    FD_WEIGHTS_PACKED_W |
				    (start - w->cum[f]) << FD_WEIGHTS_PACKED_L))
			return false;
	}
	return fd_weights_weight(w, w->first) &&
	       (!w->first || w->cum[w->first] == 0);
}

static void test_init(void)
{
	static const u64 zeros[] = { 0, 0, 0 };
	static const u64 over[] = { ~0ULL, 1 };
	static const u64 top[] = { ~0ULL - 5, 0, 5 };
	static u64 big[FD_WEIGHTS_MAX_FACES + 1];
	struct wdie d;
	unsigned long checked = 0, bad = 0;
	unsigned int i, j;

	CHECK(wdie_init(&d, zeros, 0) == -EINVAL, "init: no faces accepted");
	CHECK(wdie_init(&d, zeros, 3) == -EINVAL, "init: all zero accepted");
	CHECK(wdie_init(&d, over, 2) == -EINVAL, "init: a sum of 2^64 accepted");
	CHECK(wdie_init(&d, big, FD_WEIGHTS_MAX_FACES + 1) == -EINVAL,
	      "init: %u faces accepted", FD_WEIGHTS_MAX_FACES + 1);
	if (CHECK(!wdie_init(&d, top, 3), "init: a sum of 2^64 - 1 refused")) {
		CHECK(d.w.total == ~0ULL && guide_ok(&d.w) &&
		      fd_weights_weight(&d.w, 1) == 0 &&
		      fd_weights_weight(&d.w, 2) == 5,
		      "init: bad table for a sum of 2^64 - 1");
		wdie_free(&d);
	}

	for (i = 0; i < 3000; i++) {
		u32 count = 1 + fd_test_below(&rng, i % 10 ? 300 : 5000);
		unsigned int shape = i % 5;

		if (i == 7)
			count = FD_WEIGHTS_MAX_FACES;
		for (j = 0; j < count; j++) {
			switch (shape) {
			case 0:	/* small, with zeros */
				big[j] = fd_test_below(&rng, 4);
				break;
			case 1:	/* runs of zeros */
				big[j] = (j / 7) % 3 ? 0 : 1 + fd_test_below(&rng, 100);
				break;
			case 2:	/* one huge weight */
				big[j] = j == count / 2 ? ~0ULL / 2 : j % 2;
				break;
			case 3:	/* wide */
				big[j] = fd_test_rand(&rng) >> (fls64(count) + 1);
				break;
			default: /* Zipf */
				big[j] = 1000000 / (j + 1);
				break;
			}
		}
		big[fd_test_below(&rng, count)] |= 1;
		if (wdie_init(&d, big, count)) {
			bad++;
			continue;
		}
		bad += !guide_ok(&d.w);
		for (j = 0; j < count; j++)
			bad += fd_weights_weight(&d.w, j) != big[j];
		checked++;
		wdie_free(&d);
	}
	CHECK(!bad, "init: %lu of %lu tables wrong", bad, checked);
	NOTE("init: validation, and the guides of %lu weight vectors", checked);
}

/* ------------------------------------------------------------------ */
/* joint: draws and rolls, exhaustively                                */

/* One stage of a plan: a weighted die, or a uniform one when !count. */
struct stage {
	const u64 *weights;
	u32 count;
	u64 sides;
};

struct jnode {
	struct fd_sampler s;
	u32 stage;
	u64 hist;
	u64 count;
};

#define JKEY	9

/* What states are grouped by; a completed draw or roll with its group. */
static void jnode_key(u64 *k, const struct jnode *v)
{
	k[0] = v->stage;
	k[1] = v->hist;
	k[2] = v->s.z;
	k[3] = v->s.m;
	k[4] = v->s.digits;
	k[5] = v->s.ndigits;
	k[6] = v->s.z2;
	k[7] = v->s.m2;
	k[8] = v->s.turn;
}

struct jacc {
	u64 key[JKEY];
	u64 face, z, count;
};

static int keycmp(const u64 *a, const u64 *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static int jnode_cmp(const void *pa, const void *pb)
{
	u64 ka[JKEY], kb[JKEY];

	jnode_key(ka, pa);
	jnode_key(kb, pb);
	return keycmp(ka, kb, JKEY);
}

static int jacc_cmp(const void *pa, const void *pb)
{
	const struct jacc *a = pa, *b = pb;
	int c = keycmp(a->key, b->key, JKEY);

	if (c)
		return c;
	if (a->face != b->face)
		return a->face < b->face ? -1 : 1;
	if (a->z != b->z)
		return a->z < b->z ? -1 : 1;
	return 0;
}

struct jrun {
	const struct stage *st;
	struct wdie *dies;
	unsigned int nst, rolls, depth;
	struct jnode *cur, *next;
	size_t ncur, nnext, capcur, cap;
	struct jacc *acc;
	size_t nacc, capacc;
	u64 done;
	unsigned long draws;	/* weighted groups checked */
	bool ok;
};

static void *jgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need * 2;
	p = realloc(p, *cap * size);
	if (!p)
		abort();
	return p;
}

static const struct stage *jstage(const struct jrun *j, u32 stage)
{
	return &j->st[stage % j->nst];
}

/* Put the sampler on the die of @stage, keeping its state. */
static void jdie(struct jrun *j, struct fd_sampler *s, u32 stage)
{
	const struct stage *t = jstage(j, stage);

	if (t->count)
		fd_weights_attach(&j->dies[stage % j->nst].w, s);
	else
		fd_sampler_set_sides(s, t->sides);
}

/*
 * A completed draw is grouped by (stage, history, Q, second state) with
 * the face and the state kept; a roll by (stage, history, kept state).
 */
static void jrecord(struct jrun *j, const struct jnode *v, u32 stage, u64 hist,
		    u64 face, const struct fd_sampler *s)
{
	const struct stage *t = jstage(j, stage);
	struct jacc *a;

	j->acc = jgrow(j->acc, &j->capacc, j->nacc + 1, sizeof(*j->acc));
	a = &j->acc[j->nacc++];
	memset(a, 0, sizeof(*a));
	a->face = face;
	a->count = v->count;
	if (!t->count) {
		struct jnode k = { .s = *s, .stage = stage, .hist = hist };

		jnode_key(a->key, &k);
		return;
	}
	a->key[0] = stage;
	a->key[1] = hist;
	a->key[2] = (u64)s->m / t->weights[face];
	a->key[3] = s->z2;
	a->key[4] = s->m2;
	a->key[5] = s->turn;
	/* The digits of a batch not drawn yet: independent, kept aside. */
	a->key[6] = s->digits;
	a->key[7] = s->ndigits;
	a->z = s->z;
	if ((u64)s->m % t->weights[face] || s->m >> 64) {
		j->ok = CHECK(false, "joint: draw kept M = %llu for a face of weight %llu",
			      (u64)s->m, t->weights[face]);
	}
}

static void jstep(struct jrun *j, const struct jnode *v, int x)
{
	static struct fd_pool pool;
	struct fd_sampler s = v->s;
	u32 stage = v->stage;
	u64 hist = v->hist, out;
	bool ok;

	fd_pool_clear(&pool);
	fd_pool_put(&pool, x, 1);
	for (;;) {
		const struct stage *t = jstage(j, stage);

		if (t->count)
			ok = fd_weights_draw(&j->dies[stage % j->nst].w, &s,
					     &pool, &out);
		else
			ok = fd_sampler_roll(&s, &pool, &out);
		if (!ok)
			break;
		if (t->count ? out >= t->count || !t->weights[out] :
			       out >= t->sides) {
			j->ok = CHECK(false, "joint: face %llu at stage %u",
				      out, stage);
			return;
		}
		jrecord(j, v, stage, hist, out, &s);
		hist = hist * 64 + out;
		if (++stage == j->rolls) {
			j->done += v->count;
			return;
		}
		jdie(j, &s, stage);
	}
	if (pool.count || s.z >= s.m || s.z2 >= s.m2) {
		j->ok = CHECK(false, "joint: a bit left in the pool or a bad state");
		return;
	}
	s.bits = 0;
	j->next = jgrow(j->next, &j->cap, j->nnext + 1, sizeof(*j->next));
	j->next[j->nnext].s = s;
	j->next[j->nnext].stage = stage;
	j->next[j->nnext].hist = hist;
	j->next[j->nnext++].count = v->count;
}

/* A uniform roll: faces 0..n-1 once each, one count. */
static bool jcheck_roll(const struct jacc *a, size_t len, u64 n)
{
	size_t i;

	if (len != n)
		return false;
	for (i = 0; i < len; i++)
		if (a[i].face != i || a[i].count != a[0].count || a[i].z)
			return false;
	return true;
}

/*
 * A draw: for Q = key[2], each face of positive weight with Z' = 0 ..
 * Q w_f - 1 in turn, every count the same; faces of weight zero absent.
 */
static bool jcheck_draw(const struct jacc *a, size_t len,
			const struct stage *t)
{
	u64 q = a[0].key[2], f, z;
	size_t i = 0;

	for (f = 0; f < t->count; f++) {
		for (z = 0; z < q * t->weights[f]; z++, i++) {
			if (i >= len || a[i].face != f || a[i].z != z ||
			    a[i].count != a[0].count)
				return false;
		}
	}
	return i == len;
}

static void jcheck(struct jrun *j)
{
	size_t i, e, k;

	if (!j->nacc)
		return;
	qsort(j->acc, j->nacc, sizeof(*j->acc), jacc_cmp);
	for (i = 0, k = 0; i < j->nacc; i++) {
		if (k && !jacc_cmp(&j->acc[k - 1], &j->acc[i]))
			j->acc[k - 1].count += j->acc[i].count;
		else
			j->acc[k++] = j->acc[i];
	}
	j->nacc = k;
	for (i = 0; i < j->nacc; i = e) {
		const u64 *key = j->acc[i].key;
		const struct stage *t = jstage(j, key[0]);
		bool good;

		for (e = i; e < j->nacc && !keycmp(j->acc[e].key, key, JKEY); e++)
			;
		if (t->count) {
			good = jcheck_draw(&j->acc[i], e - i, t);
			j->draws++;
		} else {
			good = jcheck_roll(&j->acc[i], e - i, t->sides);
		}
		if (!good) {
			j->ok = CHECK(false, "joint: depth %u stage %llu history %llx: %zu outcomes, not in the exact proportions",
				      j->depth, key[0], key[1], e - i);
			return;
		}
	}
	j->nacc = 0;
}

static void joint_run(const char *name, const struct stage *st,
		      unsigned int nst, unsigned int rolls,
		      unsigned int precision, unsigned int bbits,
		      unsigned int max_depth)
{
	struct jrun j = { .st = st, .nst = nst, .rolls = rolls, .ok = true };
	size_t i, k, peak = 0, c;
	struct jnode *t;
	u64 first;

	j.dies = calloc(nst, sizeof(*j.dies));
	for (i = 0; i < nst; i++)
		if (st[i].count && wdie_init(&j.dies[i], st[i].weights, st[i].count))
			abort();
	first = st[0].count ? j.dies[0].w.total : st[0].sides;
	j.cur = jgrow(NULL, &j.capcur, 1, sizeof(*j.cur));
	memset(j.cur, 0, sizeof(*j.cur));
	fd_sampler_init_batch(&j.cur[0].s, first, precision, bbits);
	jdie(&j, &j.cur[0].s, 0);
	j.cur[0].count = 1;
	j.ncur = 1;
	for (j.depth = 1; j.depth <= max_depth && j.ok && j.ncur; j.depth++) {
		j.nnext = 0;
		for (i = 0; i < j.ncur && j.ok; i++) {
			jstep(&j, &j.cur[i], 0);
			jstep(&j, &j.cur[i], 1);
		}
		if (!j.ok)
			break;
		jcheck(&j);
		qsort(j.next, j.nnext, sizeof(*j.next), jnode_cmp);
		for (i = 0, k = 0; i < j.nnext; i++) {
			if (k && !jnode_cmp(&j.next[k - 1], &j.next[i]))
				j.next[k - 1].count += j.next[i].count;
			else
				j.next[k++] = j.next[i];
		}
		j.nnext = k;
		if (k > peak)
			peak = k;
		t = j.cur;
		j.cur = j.next;
		j.next = t;
		c = j.capcur;
		j.capcur = j.cap;
		j.cap = c;
		j.ncur = j.nnext;
	}
	if (j.ok)
		CHECK(j.done > 0 && j.draws > 0,
		      "joint: %s: no string made all %u stages", name, rolls);
	NOTE("joint: %s: %u stages, P = %u, batch 2^%u: exact to depth %u, %lu groups of draws, %zu states at most, %.6f of the mass made every stage",
	     name, rolls, precision, bbits, j.depth - 1, j.draws, peak,
	     j.done / (double)(1ULL << (j.depth - 1)));
	for (i = 0; i < nst; i++)
		wdie_free(&j.dies[i]);
	free(j.dies);
	free(j.cur);
	free(j.next);
	free(j.acc);
}

static const u64 w11[] = { 1, 1 };
static const u64 w12[] = { 1, 2 };
static const u64 w13[] = { 1, 3 };
static const u64 sum2d6[] = { 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 };
static const u64 wzero[] = { 0, 3, 0, 1, 2, 0 };
static const u64 wtop[] = { 100, 0, 27 };	/* 127 = 2^7 - 1 */
static const u64 wone[] = { 0, 0, 1 };		/* W = 1: no bits at all */
static const u64 wlop[] = { 1, 29 };

#define WSTAGE(a)	{ .weights = (a), .count = ARRAY_SIZE(a) }
#define USTAGE(n)	{ .sides = (n) }

static void test_joint(void)
{
	static const struct stage s11[] = { WSTAGE(w11) };
	static const struct stage s12[] = { WSTAGE(w12) };
	static const struct stage s13d3[] = { WSTAGE(w13), USTAGE(3) };
	static const struct stage s2d6[] = { USTAGE(6), WSTAGE(sum2d6) };
	static const struct stage szero[] = { WSTAGE(wzero), USTAGE(5) };
	static const struct stage stop[] = { WSTAGE(wtop), WSTAGE(w12) };
	static const struct stage sone[] = { USTAGE(3), WSTAGE(wone),
					     WSTAGE(w12) };
	static const struct stage slop[] = { WSTAGE(wlop), USTAGE(6),
					     WSTAGE(w12) };

	joint_run("(1,1)", s11, 1, 6, 4, 0, 26);
	joint_run("(1,2)", s12, 1, 5, 4, 0, 26);
	joint_run("(1,3)/d3", s13d3, 2, 5, 5, 0, 24);
	joint_run("d6/2d6-sum", s2d6, 2, 4, 8, 0, 24);
	/* A batched d6 before: its pending digits go back into the state. */
	joint_run("d6 batched/2d6-sum", s2d6, 2, 4, 9, 6, 24);
	joint_run("zeros/d5", szero, 2, 4, 6, 0, 24);
	/* W = 127 at P = 7: M at its target is always below 2 W. */
	joint_run("127 = 2^7 - 1/(1,2)", stop, 2, 4, 7, 0, 24);
	joint_run("d3/W = 1/(1,2)", sone, 3, 6, 4, 0, 24);
	joint_run("(1,29)/d6/(1,2)", slop, 3, 5, 6, 0, 24);
	/*
	 * Draws in batches of W^k: 27 = 3^3 for (1,2), 36 = 6^2 for the
	 * zeros, 4 = 2^2 for (1,1) (no batches: a power of two), 9 = 3^2
	 * with a d6 of batches 36 in between.
	 */
	joint_run("(1,2) in batches of 27", s12, 1, 6, 6, 5, 26);
	joint_run("zeros in batches of 36/d5", szero, 2, 5, 7, 6, 24);
	joint_run("(1,1) batch bits 2", s11, 1, 6, 4, 2, 26);
	joint_run("(1,29)/d6/(1,2), batches", slop, 3, 6, 7, 6, 24);
}

/* ------------------------------------------------------------------ */
/* reference: a bit-serial weighted sampler with plain division        */

struct ref {
	fd_u128 z, m;
	unsigned int precision;
	u64 bits;
	bool m_topping;		/* topping up, to the target */
	u64 batch;		/* W^k, rolled at once on the 64-bit road */
	unsigned int batch_len;	/* k */
	fd_u128 digits;		/* the digits of a batch not drawn yet */
	unsigned int nd;	/* how many */
};

/* One draw from the bits of @src, one at a time; false if they run out. */
static bool ref_draw(struct ref *r, const u64 *cum, u32 count,
		     const u64 *src, u64 nbits, u64 *pos, u64 *face)
{
	fd_u128 w = cum[count], target = (fd_u128)1 << r->precision, q, x, n;
	fd_u128 low = target;
	unsigned int k = 1;
	bool narrow = r->precision <= 63 && !(r->m >> 64);
	u32 f;

	if (w == 1) {
		for (f = 0; cum[f + 1] == 0; f++)
			;
		*face = f;
		return true;
	}
	if (r->nd && narrow) {
		/* A digit of the last batch, least significant first. */
		x = r->digits % w;
		r->digits /= w;
		r->nd--;
		q = r->m;
		goto found;
	}
	while (r->nd) {
		/* Digits pending on a wide state go back into it. */
		r->z = r->z * w + r->digits % w;
		r->m *= w;
		r->digits /= w;
		r->nd--;
	}
	n = w;
	if (narrow) {
		n = r->batch;
		k = r->batch_len;
		/*
		 * The 64-bit road of a small die lets M run down to 2^-8 of
		 * its target, and then takes all the bits to the target at
		 * once.
		 */
		if (w <= target >> 24 && n <= target >> 8)
			low = target >> 8;
	}
	for (;;) {
		if (r->m < low && low < target) {
			unsigned int need = r->precision + 1 -
					    (64 - __builtin_clzll((u64)r->m));

			if (nbits - *pos < need)
				return false;
		}
		while (r->m < low || (r->m < target && r->m_topping)) {
			r->m_topping = true;
			if (*pos == nbits)
				return false;
			r->z += r->m * ((src[*pos / 64] >> (*pos % 64)) & 1);
			r->m *= 2;
			(*pos)++;
			r->bits++;
		}
		r->m_topping = false;
		q = r->m / n;
		if (r->z < q * n)
			break;
		r->z -= q * n;
		r->m -= q * n;
	}
	x = r->z % n;
	r->z /= n;
	if (k > 1) {
		r->digits = x / w;
		r->nd = k - 1;
		x %= w;
	}
found:
	for (f = 0; !(cum[f] <= x && x < cum[f + 1]); f++)
		;
	r->z = r->z * (cum[f + 1] - cum[f]) + (x - cum[f]);
	r->m = q * (cum[f + 1] - cum[f]);
	*face = f;
	return true;
}

static void fill_pool(struct fd_pool *p, const u64 *src, u64 nbits, u64 *pos)
{
	while (fd_pool_room(p) && *pos < nbits) {
		unsigned int c = fd_pool_room(p) < 64 ? fd_pool_room(p) : 64;
		u64 v = 0, i;

		if (c > nbits - *pos)
			c = nbits - *pos;
		for (i = 0; i < c; i++)
			v |= ((src[(*pos + i) / 64] >> ((*pos + i) % 64)) & 1) << i;
		fd_pool_put(p, v, c);
		*pos += c;
	}
}

static void ref_one(const u64 *weights, u32 count, u64 pre_sides,
		    unsigned long *draws, unsigned long *bad)
{
	static u64 src[4096];
	static struct fd_pool pool;
	u64 nbits = sizeof(src) * 8, pos = 0, rpos = 0, face, rface, k, rr;
	struct fd_sampler s;
	struct wdie d;
	struct ref r;

	for (k = 0; k < ARRAY_SIZE(src); k++)
		src[k] = fd_test_rand(&rng);
	if (wdie_init(&d, weights, count)) {
		(*bad)++;
		return;
	}
	fd_sampler_init(&s, pre_sides ? pre_sides : d.w.total, true);
	fd_pool_clear(&pool);
	if (pre_sides) {
		/* A uniform die first, so that the state starts where it left. */
		for (k = 0; k < 3; k++) {
			fill_pool(&pool, src, nbits, &pos);
			while (!fd_sampler_roll(&s, &pool, &rr))
				fill_pool(&pool, src, nbits, &pos);
		}
		pos -= pool.count;
		rpos = pos;
		fd_pool_clear(&pool);
	}
	fd_weights_attach(&d.w, &s);
	r.z = s.z;
	r.m = s.m;
	r.precision = s.precision;
	r.bits = 0;
	r.m_topping = false;
	r.batch = s.batch;
	r.batch_len = s.batch_len;
	r.digits = 0;
	r.nd = 0;
	s.bits = 0;
	for (k = 0; k < 20000; k++) {
		bool ok, rok;

		for (;;) {
			ok = fd_weights_draw(&d.w, &s, &pool, &face);
			if (ok || pos == nbits)
				break;
			fill_pool(&pool, src, nbits, &pos);
		}
		rok = ref_draw(&r, d.w.cum, count, src, nbits, &rpos, &rface);
		if (ok != rok || (ok && (face != rface || s.z != r.z ||
					 s.m != r.m || s.bits != r.bits ||
					 s.ndigits != r.nd ||
					 s.digits != r.digits))) {
			if (!*bad)
				CHECK(false, "reference: W = %llu, draw %llu: face %llu, %llu expected",
				      d.w.total, k, face, rface);
			(*bad)++;
			break;
		}
		if (!ok)
			break;
		(*draws)++;
	}
	wdie_free(&d);
}

static void test_reference(void)
{
	static const u64 near1[] = { ~0ULL - 1000, 1000 };	/* W = 2^64 - 1 */
	static const u64 near2[] = { 1, ~0ULL / 2, 0, ~0ULL / 2 - 7 };
	static const u64 near3[] = { 1ULL << 63, (1ULL << 63) - 3 };
	static const u64 mid[] = { 1ULL << 40, 3, 1ULL << 41 };
	static const u64 skew[] = { 1, 1000000000 };
	static u64 wr[300];
	unsigned long draws = 0, bad = 0;
	unsigned int i, j;

	ref_one(near1, 2, 0, &draws, &bad);
	ref_one(near2, 4, 0, &draws, &bad);
	ref_one(near3, 2, 0, &draws, &bad);
	ref_one(near3, 2, 6, &draws, &bad);
	ref_one(mid, 3, 0, &draws, &bad);
	ref_one(sum2d6, 11, 0, &draws, &bad);
	ref_one(skew, 2, 0, &draws, &bad);
	/* A state wider than 64 bits left by a wide uniform die. */
	ref_one(sum2d6, 11, ~0ULL - 12345, &draws, &bad);
	ref_one(skew, 2, (1ULL << 40) + 1, &draws, &bad);
	for (i = 0; i < 60; i++) {
		u32 count = 1 + fd_test_below(&rng, 300);
		unsigned int sh = fd_test_below(&rng, 64) + fls64(count);

		for (j = 0; j < count; j++)
			wr[j] = sh >= 64 ? 0 : fd_test_rand(&rng) >> sh;
		wr[fd_test_below(&rng, count)] |= 1;
		ref_one(wr, count, i % 3 ? 0 : 2 + fd_test_below(&rng, ~0ULL - 2),
			&draws, &bad);
	}
	CHECK(!bad, "reference: %lu runs differ", bad);
	NOTE("reference: %lu draws equal to the bit-serial reference, totals up to 2^64 - 1",
	     draws);
}

/* ------------------------------------------------------------------ */
/* fill                                                                */

static void test_fill(void)
{
	static u64 wr[70000];
	static struct fd_pool pa, pb;
	static u8 buf[8 * 4096];
	unsigned long bad = 0, made = 0;
	unsigned int i;

	for (i = 0; i < 300; i++) {
		u32 count, j, width, n, got, k;
		struct fd_sampler sa, sb;
		struct wdie d;
		u64 v, seed;

		count = 1 + fd_test_below(&rng, i % 4 == 3 ? 70000 : 300);
		for (j = 0; j < count; j++)
			wr[j] = fd_test_below(&rng, i % 2 ? 5 : 1ULL << (i % 60));
		wr[fd_test_below(&rng, count)] |= 1;
		if (wdie_init(&d, wr, count < FD_WEIGHTS_MAX_FACES ?
				     count : FD_WEIGHTS_MAX_FACES))
			continue;
		count = d.w.count;
		width = fd_roll_width(count);
		fd_sampler_init(&sa, 6, true);
		fd_weights_attach(&d.w, &sa);
		sb = sa;
		fd_pool_clear(&pa);
		seed = fd_test_rand(&rng);
		for (k = 0; k < 20; k++) {
			u64 s2 = seed + k;

			/* The same bits in both pools, a random amount. */
			n = fd_test_below(&rng, 200);
			while (n-- && fd_pool_room(&pa) >= 64)
				fd_pool_put(&pa, fd_test_rand(&s2), 64);
			pb = pa;
			n = 1 + fd_test_below(&rng, 4096);
			got = fd_weights_fill(&d.w, &sa, &pa, buf, n, width);
			for (j = 0; j < got; j++) {
				if (!fd_weights_draw(&d.w, &sb, &pb, &v) ||
				    v != fd_get_roll(buf + j * width, width)) {
					bad++;
					break;
				}
			}
			if (got < n && fd_weights_draw(&d.w, &sb, &pb, &v))
				bad++;
			if (sa.z != sb.z || sa.m != sb.m || sa.bits != sb.bits ||
			    pa.count != pb.count)
				bad++;
			sb = sa;
			pb = pa;
			made += got;
		}
		wdie_free(&d);
	}
	CHECK(!bad, "fill: %lu runs differ from fd_weights_draw()", bad);
	NOTE("fill: %lu faces made as fd_weights_draw() makes them", made);
}

/* ------------------------------------------------------------------ */
/* cost                                                                */

static double entropy(const u64 *w, u32 count)
{
	double total = 0, h = 0;
	u32 i;

	for (i = 0; i < count; i++)
		total += w[i];
	for (i = 0; i < count; i++)
		if (w[i])
			h -= w[i] / total * log2(w[i] / total);
	return h;
}

static void cost_one(const char *name, const u64 *weights, u32 count)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	struct wdie d;
	u64 draws = 1000000, i, face, *seen;
	double h = entropy(weights, count), bits, chi = 0;

	if (wdie_init(&d, weights, count))
		abort();
	seen = calloc(count, sizeof(*seen));
	fd_sampler_init(&s, 6, true);
	fd_weights_attach(&d.w, &s);
	fd_pool_clear(&pool);
	for (i = 0; i < draws; i++) {
		while (!fd_weights_draw(&d.w, &s, &pool, &face))
			while (fd_pool_room(&pool) >= 64)
				fd_pool_put(&pool, fd_test_rand(&rng), 64);
		seen[face]++;
	}
	bits = (double)s.bits / draws;
	for (i = 0; i < count; i++) {
		double e = (double)draws * weights[i] / d.w.total;

		if (e > 0)
			chi += (seen[i] - e) * (seen[i] - e) / e;
		else if (seen[i])
			chi = INFINITY;
	}
	CHECK(bits <= h + 0.01, "cost: %s: %.5f bits per draw, H = %.5f",
	      name, bits, h);
	/* A gross check only: exactness is proven above. */
	CHECK(chi < count + 10 * sqrt(2.0 * count) + 30,
	      "cost: %s: chi-square %.1f over %u faces", name, chi, count);
	NOTE("cost: %s: %.5f bits per draw over 10^6 draws, H = %.5f (%+.5f)",
	     name, bits, h, bits - h);
	free(seen);
	wdie_free(&d);
}

static void test_cost(void)
{
	static const u64 skew[] = { 1, 1000000000 };
	static u64 sum3d6[16], zipf[1000];
	unsigned int a, b, c;

	for (a = 0; a < 6; a++)
		for (b = 0; b < 6; b++)
			for (c = 0; c < 6; c++)
				sum3d6[a + b + c]++;
	for (a = 0; a < 1000; a++)
		zipf[a] = (1000000 + (a + 1) / 2) / (a + 1);
	cost_one("2d6", sum2d6, ARRAY_SIZE(sum2d6));
	cost_one("3d6", sum3d6, ARRAY_SIZE(sum3d6));
	cost_one("zipf1000", zipf, ARRAY_SIZE(zipf));
	cost_one("skew1e9", skew, ARRAY_SIZE(skew));
}

int main(void)
{
	test_init();
	test_joint();
	test_reference();
	test_fill();
	test_cost();
	return fd_check_summary();
}
