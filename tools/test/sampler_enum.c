// SPDX-License-Identifier: GPL-2.0
/*
 * The enumeration engine of the sampler's proofs (driver/fd_sampler.c).
 *
 * Proofs by enumeration that the sampler (driver/fd_sampler.c) is exact.
 *
 * Method. A bit string of length d has probability 2^-d. The sampler is a
 * deterministic function of its state (z, m) and of the bits it is given,
 * so instead of running it on each of the 2^d strings the test runs it on
 * each distinct state reached after d bits, weighted by how many strings
 * reach it: the set of live states at depth d + 1 is made by feeding one
 * bit (0 and 1) to every live state at depth d through fd_sampler_roll(),
 * summing the weights of equal states. This is the exhaustive enumeration
 * of all strings, grouped; every transition is the real code.
 *
 * When a roll completes at depth d with face f, the test records the state
 * the sampler keeps. Exactness of k consecutive rolls is then checked as:
 * at every depth d, for every state s kept, the number of strings of length
 * d that end roll r with face f and state s is the same for all n faces.
 * By induction over r this makes the faces of rolls 1..r independent and
 * uniform on n^r tuples at every stopping depth, and independent of the
 * state kept for the next roll.
 *
 * When the set of live states at depth d (weights included) equals the set
 * at an earlier depth e, everything after d repeats what followed e, so the
 * checks up to d hold at every depth: an infinite-depth proof.
 *
 * Each call of fd_sampler_roll() there gets a pool holding one bit, which
 * it must take; the chunked test below covers calls that take many bits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_test.h"
#include "sampler_enum.h"

static u64 rng = 0x5a3;

/* ------------------------------------------------------------------ */
/* Configurations                                                      */


void cfg_sampler(const struct cfg *c, struct fd_sampler *s)
{
	if (c->precision)
		fd_sampler_init_precision(s, c->n, c->recycle, c->precision);
	else
		fd_sampler_init(s, c->n, c->recycle);
}

static fd_u128 cfg_target(const struct cfg *c)
{
	struct fd_sampler s;

	cfg_sampler(c, &s);
	return c->recycle ? (fd_u128)1 << s.precision : c->n;
}

bool is_pow2(u64 n)
{
	return !(n & (n - 1));
}

/* Bit @d (d >= 1) of the binary expansion of 1/n: the Knuth-Yao tree. */
void ky_bits(u64 n, u8 *bit, unsigned int depth)
{
	fd_u128 r = 1;
	unsigned int d;

	for (d = 1; d <= depth; d++) {
		r <<= 1;
		bit[d] = r >= n;
		if (bit[d])
			r -= n;
	}
}

/* ------------------------------------------------------------------ */
/* Exhaustive enumeration over grouped states                          */

struct node {
	u64 z, m, count;
	u32 stage;		/* rolls completed */
};

struct acc {
	u64 z, m, face, count;
	u32 stage;		/* the roll that completed, from 0 */
};

struct nodeset {
	struct node *v;
	size_t len, cap;
	u32 *slot;		/* index + 1, 0 when free */
	size_t nslot;
};

struct level {
	u64 hash;
	size_t len;
	struct node *v;
};


static u64 node_hash(u64 z, u64 m, u32 stage)
{
	u64 h = z * 0x9e3779b97f4a7c15ULL ^ m * 0xc2b2ae3d27d4eb4fULL ^
		(stage + 1) * 0x165667b19e3779f9ULL;

	return h ^ (h >> 31);
}

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		printf("# out of memory\n");
		exit(EXIT_FAILURE);
	}
	return p;
}

static void set_clear(struct nodeset *s)
{
	s->len = 0;
	if (s->slot)
		memset(s->slot, 0, s->nslot * sizeof(*s->slot));
}

static void set_free(struct nodeset *s)
{
	free(s->v);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

static void set_rehash(struct nodeset *s)
{
	size_t i, j;

	s->nslot = s->nslot ? 2 * s->nslot : 1024;
	free(s->slot);
	s->slot = calloc(s->nslot, sizeof(*s->slot));
	if (!s->slot)
		exit(EXIT_FAILURE);
	for (i = 0; i < s->len; i++) {
		j = node_hash(s->v[i].z, s->v[i].m, s->v[i].stage) & (s->nslot - 1);
		while (s->slot[j])
			j = (j + 1) & (s->nslot - 1);
		s->slot[j] = i + 1;
	}
}

/* Add @count strings in state (z, m) after @stage rolls; false on overflow. */
static bool set_add(struct nodeset *s, u64 z, u64 m, u32 stage, u64 count)
{
	size_t j;

	if (2 * (s->len + 1) > s->nslot)
		set_rehash(s);
	j = node_hash(z, m, stage) & (s->nslot - 1);
	while (s->slot[j]) {
		struct node *v = &s->v[s->slot[j] - 1];

		if (v->z == z && v->m == m && v->stage == stage)
			return !__builtin_add_overflow(v->count, count, &v->count);
		j = (j + 1) & (s->nslot - 1);
	}
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->len] = (struct node){ z, m, count, stage };
	s->slot[j] = ++s->len;
	return true;
}

static int acc_cmp(const void *a, const void *b)
{
	const struct acc *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->z != y->z)
		return x->z < y->z ? -1 : 1;
	if (x->m != y->m)
		return x->m < y->m ? -1 : 1;
	if (x->face != y->face)
		return x->face < y->face ? -1 : 1;
	return 0;
}

static int node_cmp(const void *a, const void *b)
{
	const struct node *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->m != y->m)
		return x->m < y->m ? -1 : 1;
	if (x->z != y->z)
		return x->z < y->z ? -1 : 1;
	return 0;
}

static struct acc *accs;
static size_t nacc, capacc;

static void acc_add(u32 stage, u64 face, const struct fd_sampler *s, u64 count)
{
	if (nacc == capacc) {
		capacc = capacc ? 2 * capacc : 1024;
		accs = xrealloc(accs, capacc * sizeof(*accs));
	}
	accs[nacc++] = (struct acc){ (u64)s->z, (u64)s->m, face, count, stage };
}

static __printf(2, 3) void dp_fail(struct dp *d, const char *fmt, ...)
{
	va_list ap;

	if (!d->ok)
		return;
	d->ok = false;
	va_start(ap, fmt);
	vsnprintf(d->why, sizeof(d->why), fmt, ap);
	va_end(ap);
}

/*
 * The rolls completed at @depth: for every roll and kept state, the n faces
 * must appear exactly once each with the same number of strings.
 */
static void check_accepts(struct dp *d, unsigned int depth)
{
	u64 n = d->c->n;
	size_t i, j, k, out = 0;

	if (!nacc)
		return;
	qsort(accs, nacc, sizeof(*accs), acc_cmp);
	for (i = 0; i < nacc; i++) {
		if (out && !acc_cmp(&accs[out - 1], &accs[i])) {
			if (__builtin_add_overflow(accs[out - 1].count, accs[i].count,
						   &accs[out - 1].count))
				dp_fail(d, "count overflow at depth %u", depth);
		} else {
			accs[out++] = accs[i];
		}
	}
	for (i = 0; i < out; i = j) {
		for (j = i; j < out && accs[j].stage == accs[i].stage &&
		     accs[j].z == accs[i].z && accs[j].m == accs[i].m; j++)
			;
		if (j - i != n) {
			dp_fail(d, "depth %u roll %u, kept state (%llu, %llu): %zu faces of %llu",
				depth, accs[i].stage + 1, accs[i].z, accs[i].m,
				j - i, n);
			return;
		}
		for (k = i; k < j; k++) {
			if (accs[k].face != k - i || accs[k].count != accs[i].count) {
				dp_fail(d, "depth %u roll %u, kept state (%llu, %llu): face %llu has %llu strings, face %llu has %llu",
					depth, accs[i].stage + 1, accs[i].z, accs[i].m,
					accs[k].face, accs[k].count, accs[i].face,
					accs[i].count);
				return;
			}
		}
		d->per_face[accs[i].stage * (d->c->max_depth + 1) + depth] +=
			accs[i].count;
	}
}

struct fd_pool bitpool;

/* Feed digit @x of the live state @v; the results go to @next and accs. */
static void dp_step(struct dp *d, const struct fd_sampler *tmpl,
		    const struct node *v, u64 x, struct nodeset *next)
{
	const struct cfg *c = d->c;
	struct fd_sampler s = *tmpl;
	u32 stage = v->stage;
	bool done;
	u64 out;

	s.z = v->z;
	s.m = v->m;
	d->calls++;
	if (!c->base) {
		fd_pool_clear(&bitpool);
		fd_pool_put(&bitpool, x, 1);
		done = fd_sampler_roll(&s, &bitpool, &out);
		if (bitpool.count)
			dp_fail(d, "a roll left its bit in the pool");
		while (done) {
			if (out >= c->n)
				dp_fail(d, "face %llu out of range", out);
			acc_add(stage, out, &s, v->count);
			if (++stage == c->rolls)
				return;
			done = fd_sampler_roll(&s, &bitpool, &out);
		}
	} else {
		/* The caller's loop: absorb while wanted, else roll. */
		fd_sampler_absorb(&s, x, c->base);
		for (;;) {
			fd_u128 z0 = s.z, m0 = s.m;

			if (fd_sampler_wants(&s, c->base))
				break;
			if (fd_sampler_try(&s, &out)) {
				if (out >= c->n)
					dp_fail(d, "face %llu out of range", out);
				acc_add(stage, out, &s, v->count);
				if (++stage == c->rolls)
					return;
				continue;
			}
			if (s.z == z0 && s.m == m0) {
				dp_fail(d, "stuck: state (%llu, %llu) wants no digit of base %llu and cannot roll",
					(u64)s.z, (u64)s.m, c->base);
				return;
			}
		}
	}
	if ((s.m >> 64) || (s.z >> 64) || s.z >= s.m) {
		dp_fail(d, "state out of range");
		return;
	}
	if (!set_add(next, s.z, s.m, stage, v->count))
		dp_fail(d, "count overflow");
}

static u64 level_hash(const struct nodeset *s)
{
	u64 h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < s->len; i++) {
		h = (h ^ s->v[i].z) * 0x100000001b3ULL;
		h = (h ^ s->v[i].m) * 0x100000001b3ULL;
		h = (h ^ s->v[i].count) * 0x100000001b3ULL;
		h = (h ^ s->v[i].stage) * 0x100000001b3ULL;
	}
	return h;
}

static bool same_nodes(const struct node *a, const struct node *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (node_cmp(&a[i], &b[i]) || a[i].count != b[i].count)
			return false;
	return true;
}

void dp_run(struct dp *d, const struct cfg *c)
{
	struct nodeset sets[2] = { 0 }, *cur = &sets[0], *next = &sets[1], *t;
	struct level *levels = NULL;
	struct fd_sampler tmpl;
	unsigned int depth, e;
	size_t i;
	u64 x;

	memset(d, 0, sizeof(*d));
	d->c = c;
	d->ok = true;
	d->per_face = calloc((size_t)c->rolls * (c->max_depth + 1),
			     sizeof(*d->per_face));
	if (c->find_cycle)
		levels = calloc(c->max_depth + 1, sizeof(*levels));
	cfg_sampler(c, &tmpl);
	set_add(cur, 0, 1, 0, 1);
	for (depth = 1; depth <= c->max_depth && d->ok; depth++) {
		set_clear(next);
		nacc = 0;
		for (i = 0; i < cur->len && d->ok; i++)
			for (x = 0; x < (c->base ? c->base : 2); x++)
				dp_step(d, &tmpl, &cur->v[i], x, next);
		check_accepts(d, depth);
		if (!d->ok)
			break;
		d->depth = depth;
		if (next->len > d->peak)
			d->peak = next->len;
		if (!next->len) {
			d->exhausted = true;
			break;
		}
		if (c->find_cycle) {
			struct level *l = &levels[depth];

			qsort(next->v, next->len, sizeof(*next->v), node_cmp);
			l->hash = level_hash(next);
			l->len = next->len;
			for (e = 1; e < depth; e++) {
				if (levels[e].hash == l->hash && levels[e].len == l->len &&
				    same_nodes(levels[e].v, next->v, l->len)) {
					d->cycle_from = e;
					d->cycle_to = depth;
					break;
				}
			}
			if (d->cycle_to)
				break;
			l->v = malloc(l->len * sizeof(*next->v));
			memcpy(l->v, next->v, l->len * sizeof(*next->v));
		}
		if (next->len > c->max_states)
			break;
		t = cur;
		cur = next;
		next = t;
	}
	if (levels) {
		for (e = 0; e <= c->max_depth; e++)
			free(levels[e].v);
		free(levels);
	}
	set_free(&sets[0]);
	set_free(&sets[1]);
}

u64 dp_face(const struct dp *d, unsigned int stage, unsigned int depth)
{
	return d->per_face[stage * (d->c->max_depth + 1) + depth];
}

/* ------------------------------------------------------------------ */
/* The mathematical sampler, for state spaces too large to enumerate    */

struct mnode {
	fd_u128 m, count;
	u32 stage;
};

/* One step of the exact sampler on (z, m), m at its target. */
static bool model_step(const struct cfg *c, fd_u128 *z, fd_u128 *m, u64 *out)
{
	fd_u128 q = *m / c->n;

	if (*z < q * c->n) {
		*out = (u64)(*z % c->n);
		if (c->recycle) {
			*z /= c->n;
			*m = q;
		} else {
			*z = 0;
			*m = 1;
		}
		return true;
	}
	*z -= q * c->n;
	*m -= q * c->n;
	return false;
}

/*
 * The code and the model on (z, m) and one bit @b: same roll, same state.
 * A bit may be appended below the state (2z + b, as fd_sampler.h says) or
 * above it (z + m b): both keep z uniform on [0, 2m). Bit 0 of the result
 * is set when the code differs from the first, bit 1 from the second.
 */
static unsigned int conforms(const struct cfg *c, const struct fd_sampler *tmpl,
			     fd_u128 target, fd_u128 z, fd_u128 m, unsigned int b)
{
	struct fd_sampler s = *tmpl;
	unsigned int way, diff = 0;
	bool done;
	u64 out = ~0ULL;

	s.z = z;
	s.m = m;
	fd_pool_clear(&bitpool);
	fd_pool_put(&bitpool, b, 1);
	done = fd_sampler_roll(&s, &bitpool, &out);
	for (way = 0; way < 2; way++) {
		fd_u128 mz = way ? z + m * b : 2 * z + b, mm = 2 * m;
		bool mdone = false;
		u64 mout = ~0ULL;

		if (mm >= target)
			mdone = model_step(c, &mz, &mm, &mout);
		if (bitpool.count || done != mdone || (done && out != mout) ||
		    s.z != mz || s.m != mm)
			diff |= 1 << way;
	}
	return diff;
}

/*
 * Check the code on windows and random z of the live class [0, m); count
 * the differences from each way of appending a bit in bad[0] and bad[1].
 */
static void conform_class(const struct cfg *c, const struct fd_sampler *tmpl,
			  fd_u128 target, fd_u128 m, unsigned long *checks,
			  unsigned long *bad)
{
	fd_u128 q = 2 * m / c->n, t = q * c->n, starts[4], z;
	unsigned int i, w, b, diff;

	/* Windows at 0, at m - 64, and where 2z + b crosses q n or n. */
	starts[0] = 0;
	starts[1] = m > 64 ? m - 64 : 0;
	starts[2] = t / 2 > 32 ? t / 2 - 32 : 0;
	starts[3] = c->n / 2 > 32 ? c->n / 2 - 32 : 0;
	for (w = 0; w < 4; w++) {
		for (i = 0; i < 64; i++) {
			z = starts[w] + i;
			if (z >= m)
				break;
			for (b = 0; b < 2; b++, (*checks)++) {
				diff = conforms(c, tmpl, target, z, m, b);
				bad[0] += diff & 1;
				bad[1] += diff >> 1;
			}
		}
	}
	for (i = 0; i < 16; i++) {
		z = fd_test_below128(&rng, m);
		for (b = 0; b < 2; b++, (*checks)++) {
			diff = conforms(c, tmpl, target, z, m, b);
			bad[0] += diff & 1;
			bad[1] += diff >> 1;
		}
	}
}


static int mnode_cmp(const void *a, const void *b)
{
	const struct mnode *x = a, *y = b;

	if (x->stage != y->stage)
		return x->stage < y->stage ? -1 : 1;
	if (x->m != y->m)
		return x->m < y->m ? -1 : 1;
	return 0;
}

static bool same_mnodes(const struct mnode *a, const struct mnode *b,
			size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (mnode_cmp(&a[i], &b[i]) || a[i].count != b[i].count)
			return false;
	return true;
}

/* Merge equal (stage, m), sorted; return the new length. */
static size_t mnode_merge(struct mnode *v, size_t len)
{
	size_t i, out = 0;

	qsort(v, len, sizeof(*v), mnode_cmp);
	for (i = 0; i < len; i++) {
		if (out && !mnode_cmp(&v[out - 1], &v[i]))
			v[out - 1].count += v[i].count;
		else
			v[out++] = v[i];
	}
	return out;
}

/* Each class is checked once, at most MODEL_CLASSES of them per run. */
#define MODEL_CLASSES	3000
#define SEEN_SLOTS	(1 << 14)

static fd_u128 seen[SEEN_SLOTS];

static bool first_time(fd_u128 m)
{
	u64 h = (u64)(m ^ (m >> 64)) * 0x9e3779b97f4a7c15ULL;
	size_t j = h >> 50;

	while (seen[j]) {
		if (seen[j] == m)
			return false;
		j = (j + 1) & (SEEN_SLOTS - 1);
	}
	seen[j] = m;
	return true;
}

/*
 * Follow the classes "z uniform on [0, m)" of the exact sampler depth by
 * depth, checking the code on each class met. Stops when the set of classes
 * repeats (fresh sampler, one roll) or at max_depth.
 */
void model_run(struct model *r, const struct cfg *c, size_t max_nodes)
{
	struct mnode *cur, *next, *t, **hist = NULL;
	size_t ncur = 1, nnext, *hlen = NULL, i;
	fd_u128 target = cfg_target(c);
	struct fd_sampler tmpl;
	unsigned int depth, e;

	memset(r, 0, sizeof(*r));
	r->per_face = calloc((size_t)c->rolls * (c->max_depth + 1),
			     sizeof(*r->per_face));
	cur = calloc(2 * max_nodes + 2, sizeof(*cur));
	next = calloc(2 * max_nodes + 2, sizeof(*next));
	memset(seen, 0, sizeof(seen));
	if (c->find_cycle) {
		hist = calloc(c->max_depth + 1, sizeof(*hist));
		hlen = calloc(c->max_depth + 1, sizeof(*hlen));
	}
	cfg_sampler(c, &tmpl);
	cur[0] = (struct mnode){ 1, 1, 0 };
	for (depth = 1; depth <= c->max_depth && ncur; depth++) {
		nnext = 0;
		for (i = 0; i < ncur; i++) {
			struct mnode v = cur[i];
			fd_u128 m = 2 * v.m, q, rest;

			if (r->classes < MODEL_CLASSES && first_time(v.m)) {
				conform_class(c, &tmpl, target, v.m, &r->checks,
					      r->way_bad);
				r->classes++;
			}
			if (m < target) {
				next[nnext++] = (struct mnode){ m, v.count, v.stage };
				continue;
			}
			q = m / c->n;
			rest = m - q * c->n;
			r->per_face[v.stage * (c->max_depth + 1) + depth] +=
				v.count * q;
			if (v.stage + 1 < c->rolls)
				next[nnext++] = (struct mnode){
					c->recycle ? q : 1, v.count * c->n,
					v.stage + 1 };
			if (rest)
				next[nnext++] = (struct mnode){ rest, v.count, v.stage };
		}
		nnext = mnode_merge(next, nnext);
		r->depth = depth;
		if (c->find_cycle) {
			for (e = 1; e < depth; e++) {
				if (hlen[e] == nnext && same_mnodes(hist[e], next, nnext)) {
					r->cycle_from = e;
					r->cycle_to = depth;
					break;
				}
			}
			if (r->cycle_to)
				break;
			hist[depth] = malloc(nnext * sizeof(*next));
			memcpy(hist[depth], next, nnext * sizeof(*next));
			hlen[depth] = nnext;
		}
		if (nnext > max_nodes)
			break;
		t = cur;
		cur = next;
		next = t;
		ncur = nnext;
	}
	r->bad = r->way_bad[0] < r->way_bad[1] ? r->way_bad[0] : r->way_bad[1];
	if (hist) {
		for (e = 0; e <= c->max_depth; e++)
			free(hist[e]);
		free(hist);
		free(hlen);
	}
	free(cur);
	free(next);
}

/* ------------------------------------------------------------------ */
/* Exact expected cost                                                 */

static fd_u128 gcd128(fd_u128 a, fd_u128 b)
{
	while (b) {
		fd_u128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

void print128(char *buf, fd_u128 x)
{
	char tmp[48];
	int i = 0, j = 0;

	do {
		tmp[i++] = '0' + (int)(x % 10);
		x /= 10;
	} while (x);
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = 0;
}

/*
 * E = n sum_d d c_d 2^-d for a 0/1 sequence c (c[1..]) that repeats with
 * period T from depth j + 1 on, as num/den. False when too large for 128
 * bits (T > 24 or j > 24).
 */
bool expected_cost(u64 n, const u64 *c, unsigned int j, unsigned int T,
			  fd_u128 *num, fd_u128 *den)
{
	fd_u128 D, A = 0, U = 0, V = 0, g;
	unsigned int d, i;

	if (T > 24 || j > 24 || n > 1000)
		return false;
	D = ((fd_u128)1 << T) - 1;
	for (d = 1; d <= j; d++)
		A += (fd_u128)d * c[d] << (j - d);
	for (i = 1; i <= T; i++) {
		U += (fd_u128)c[j + i] << (T - i);
		V += (fd_u128)(j + i) * c[j + i] << (T - i);
	}
	/* sum over periods r >= 0 of 2^-(j + rT) (V + r T U) 2^-T */
	*num = n * (A * D * D + V * D + T * U);
	*den = ((fd_u128)1 << j) * D * D;
	g = gcd128(*num, *den);
	*num /= g;
	*den /= g;
	return true;
}
