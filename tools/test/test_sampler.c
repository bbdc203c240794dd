// SPDX-License-Identifier: GPL-2.0
/*
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
 *
 *   fresh       without recycling (the Fast Dice Roller), every n in 3..300
 *               that is not a power of two: exact at every depth (cycle
 *               found), and the per-face mass at depth d equals bit d of
 *               1/n at every depth, i.e. the Knuth-Yao tree, so the
 *               expected cost is the Knuth-Yao optimum; computed as an
 *               exact rational where the period allows (11/3 for n = 6,
 *               8/3 for n = 3)
 *   chunked     the same with whole strings put in the pool at once (the
 *               read path takes many bits per call): all strings of 14 bits
 *               for n <= 300 and of 20 bits for a few n; three rolls with
 *               recycling for small n and precisions
 *   recycle     with recycling at small precisions (the code path of the
 *               default precision 63), three consecutive rolls for every
 *               n <= 40 and precisions fls(n) + 1 .. fls(n) + 4, two rolls
 *               for n = 1000 and 65537
 *   huge        n = 2^31 + 1, 2^32 - 1, 2^32 + 1, 2^62 +- 1, 2^63 + 1,
 *               2^64 - 3 (to depth 400: no cycle), 2^64 - 1, and the
 *               128-bit path (precision 64..127): the
 *               state space is too large to enumerate, so the test follows
 *               the mathematical sampler, whose state is uniform on [0, m)
 *               for every m it meets, to an infinite depth where m cycles
 *               (fresh) or to a stated depth (recycling), and checks that
 *               the code makes the same transition as exact 128-bit
 *               arithmetic (native division, not fd_div128()) for z in
 *               windows of 64 consecutive values at both ends of [0, m),
 *               around the accept boundary and around n / 2, and at 16
 *               random z: in effect every string of the last 6 bits after
 *               those prefixes. The claim there is agreement with the
 *               proven model on those z, not an exhaustive proof. The same
 *               model is checked against the exhaustive enumeration for
 *               small n.
 *   digits      fd_sampler_absorb()/fd_sampler_try() with digits of a fair
 *               K-sided die, K = 3, 6, 10, n = 2..100: the same exhaustive
 *               proof over digit strings, fresh to every depth, recycling
 *               (P = fls(n) + 1..3) for three rolls over 12 digits; and,
 *               for K = 2..2^64 - 1 at the default precisions, that the
 *               caller is never left unable both to absorb and to roll
 *   pow2        n = 1 and n = 2^k, k = 1..63, are plain runs of k bits
 *   cost        default sampler on a fair simulated coin: within 0.01 bit
 *               of log2(n) per roll over 10^6 rolls
 *   dry         the same rolls whether the pool is refilled 64 bits, one
 *               bit or a random number of bits at a time; no bit is lost
 */
#include <math.h>

#include "fd_test.h"
#include "fd_sampler.h"
#include "fd_sim.h"

static u64 rng = 0x5a3;

/* ------------------------------------------------------------------ */
/* Configurations                                                      */

struct cfg {
	u64 n;
	bool recycle;
	unsigned int precision;	/* 0: the default of fd_sampler_init() */
	unsigned int rolls;	/* consecutive rolls followed */
	u64 base;		/* 0: bits by fd_sampler_roll(); else digits */
	unsigned int max_depth;
	size_t max_states;
	bool find_cycle;
};

static void cfg_sampler(const struct cfg *c, struct fd_sampler *s)
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

static bool is_pow2(u64 n)
{
	return !(n & (n - 1));
}

/* Bit @d (d >= 1) of the binary expansion of 1/n: the Knuth-Yao tree. */
static void ky_bits(u64 n, u8 *bit, unsigned int depth)
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

struct dp {
	const struct cfg *c;
	unsigned int depth;	/* deepest depth checked */
	unsigned int cycle_from, cycle_to;
	bool exhausted;		/* no live state left */
	bool ok;
	char why[256];
	u64 *per_face;		/* [stage * (max_depth + 1) + depth] */
	size_t peak;
	unsigned long calls;
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

static struct fd_pool bitpool;

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

static void dp_run(struct dp *d, const struct cfg *c)
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

static u64 dp_face(const struct dp *d, unsigned int stage, unsigned int depth)
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

struct model {
	unsigned int depth;
	unsigned int cycle_from, cycle_to;
	unsigned long classes, checks;
	unsigned long bad;	/* differences from the closer way */
	unsigned long way_bad[2];
	fd_u128 *per_face;	/* [stage * (max_depth + 1) + depth] */
};

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
static void model_run(struct model *r, const struct cfg *c, size_t max_nodes)
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

static void print128(char *buf, fd_u128 x)
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
static bool expected_cost(u64 n, const u64 *c, unsigned int j, unsigned int T,
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

/* ------------------------------------------------------------------ */
/* Fresh sampler (Fast Dice Roller)                                    */

#define FRESH_MAX	300
#define FRESH_DEPTH	700

static void test_fresh_small(void)
{
	static u8 ky[FRESH_DEPTH + 1];
	unsigned int proven = 0, bad_ky = 0, n, maxcycle = 0, rat = 0;
	unsigned long calls = 0;
	double t0 = fd_test_now();

	for (n = 3; n <= FRESH_MAX; n++) {
		struct cfg c = {
			.n = n, .recycle = false, .rolls = 1,
			.max_depth = FRESH_DEPTH, .max_states = 1 << 20,
			.find_cycle = true,
		};
		unsigned int d, j, T;
		fd_u128 trunc_dp = 0, trunc_ky = 0, num, den;
		u64 *cseq;
		struct dp dp;
		bool ok = true;

		if (is_pow2(n))
			continue;
		dp_run(&dp, &c);
		calls += dp.calls;
		CHECK(dp.ok, "fresh n = %u: %s", n, dp.why);
		if (!CHECK(dp.cycle_to, "fresh n = %u: no cycle within depth %u", n,
			   dp.depth)) {
			free(dp.per_face);
			continue;
		}
		proven++;
		j = dp.cycle_from;
		T = dp.cycle_to - dp.cycle_from;
		if (dp.cycle_to > maxcycle)
			maxcycle = dp.cycle_to;
		/*
		 * The per-face mass at depth d, extended periodically, against
		 * the bits of 1/n, eventually periodic with period <= n: equal
		 * up to j + a + T n means equal at every depth.
		 */
		ky_bits(n, ky, FRESH_DEPTH);
		cseq = calloc(FRESH_DEPTH + 1, sizeof(*cseq));
		for (d = 1; d <= FRESH_DEPTH; d++) {
			u64 cd = dp_face(&dp, 0, d <= dp.cycle_to ? d :
					 j + 1 + (d - j - 1) % T);

			cseq[d] = cd;
			ok &= cd == ky[d];
		}
		{
			/* Beyond FRESH_DEPTH: both are periodic, compare far. */
			fd_u128 r = 1;
			unsigned long dd;

			for (dd = 1; dd <= (unsigned long)j + n + (unsigned long)T * n; dd++) {
				unsigned int kb;

				r <<= 1;
				kb = r >= n;
				if (kb)
					r -= n;
				if (dd > FRESH_DEPTH) {
					unsigned long e2 = j + 1 + (dd - j - 1) % T;

					ok &= dp_face(&dp, 0, e2) == kb;
				}
			}
		}
		bad_ky += !ok;
		CHECK(ok, "fresh n = %u: stopping masses differ from the Knuth-Yao tree", n);
		/* Truncated expected cost at depth 100, exact: the same. */
		for (d = 1; d <= 100; d++) {
			trunc_dp += (fd_u128)d * n * cseq[d] << (100 - d);
			trunc_ky += (fd_u128)d * n * ky[d] << (100 - d);
		}
		CHECK(trunc_dp == trunc_ky, "fresh n = %u: truncated cost differs", n);
		if (expected_cost(n, cseq, j, T, &num, &den)) {
			long double e = 0;

			rat++;
			for (d = 1; d <= FRESH_DEPTH; d++)
				e += (long double)d * n * ky[d] / powl(2, d);
			CHECK(fabsl((long double)num / den - e) < 1e-12,
			      "fresh n = %u: exact cost differs from the Knuth-Yao sum", n);
			if (n == 3)
				CHECK(num == 8 && den == 3, "n = 3: cost not 8/3");
			if (n == 6)
				CHECK(num == 11 && den == 3, "n = 6: cost not 11/3");
			if (n <= 7 || n == 10 || n == 12) {
				char a[48], b[48];

				print128(a, num);
				print128(b, den);
				NOTE("fresh: n = %u costs exactly %s/%s = %.6f fair bits (Knuth-Yao)",
				     n, a, b, (double)num / den);
			}
		}
		free(cseq);
		free(dp.per_face);
	}
	NOTE("fresh: %u values of n in 3..%u proven exact and Knuth-Yao optimal at every depth (cycles up to depth %u), %u exact costs, %lu transitions, %.1f cpu s",
	     proven, FRESH_MAX, maxcycle, rat, calls, fd_test_now() - t0);
	CHECK(!bad_ky, "fresh: %u n differ from Knuth-Yao", bad_ky);
}

/* n = 1 and powers of two: no state, a plain run of bits. */
static void test_pow2(void)
{
	unsigned int k, i, bad = 0;
	struct fd_sampler s;
	u64 out;

	fd_sampler_init(&s, 1, true);
	fd_pool_clear(&bitpool);
	CHECK(fd_sampler_roll(&s, &bitpool, &out) && out == 0 && !s.bits,
	      "n = 1 rolls 0 from nothing");
	CHECK(fd_sampler_try(&s, &out) && out == 0, "n = 1: try rolls 0");
	for (k = 1; k <= 63; k++) {
		u64 n = 1ULL << k;
		int r;

		for (r = 0; r < 2; r++) {
			fd_sampler_init(&s, n, r);
			/* k - 1 bits: nothing taken, no roll. */
			fd_pool_clear(&bitpool);
			fd_pool_put(&bitpool, ~0ULL, k - 1);
			bad += fd_sampler_roll(&s, &bitpool, &out) ||
			       bitpool.count != k - 1;
			/* Exactly k bits: the roll is those bits. */
			for (i = 0; i < (k <= 12 ? (1u << k) : 2000); i++) {
				u64 w = k <= 12 ? i : fd_test_rand(&rng);

				fd_pool_clear(&bitpool);
				fd_pool_put(&bitpool, w, 64);
				bad += !fd_sampler_roll(&s, &bitpool, &out) ||
				       out != fd_low_bits(w, k) ||
				       bitpool.count != 64 - k;
			}
		}
	}
	CHECK(!bad, "powers of two: %u wrong rolls", bad);
}

/* Whole strings of @len bits in the pool, rolled @rolls times. */
static bool chunked(const struct cfg *c, unsigned int len, u32 *cnt,
		    unsigned long *rolls_done)
{
	u64 tuples = 1, prefix, x, n = c->n;
	unsigned int r, d;
	struct fd_sampler s;
	bool ok = true;

	for (r = 0; r < c->rolls; r++)
		tuples *= n;
	memset(cnt, 0, (size_t)c->rolls * (len + 1) * tuples * sizeof(*cnt));
	for (x = 0; x < (1ULL << len); x++) {
		u64 t = 0, out;

		cfg_sampler(c, &s);
		fd_pool_clear(&bitpool);
		fd_pool_put(&bitpool, x, len);
		for (r = 0; r < c->rolls; r++) {
			if (!fd_sampler_roll(&s, &bitpool, &out))
				break;
			ok &= out < n;
			t = t * n + out;
			(*rolls_done)++;
			d = len - bitpool.count;
			cnt[((size_t)r * (len + 1) + d) * tuples + t]++;
		}
		/* Every bit taken is counted. */
		ok &= s.bits == len - bitpool.count;
	}
	/* At each roll and depth, every tuple of faces equally often. */
	for (r = 0, prefix = 1; r < c->rolls; r++) {
		prefix *= n;
		for (d = 0; d <= len; d++) {
			u32 *row = &cnt[((size_t)r * (len + 1) + d) * tuples];

			for (x = 1; x < prefix; x++)
				ok &= row[x] == row[0];
			/* Fresh: 2^(len - d) times bit d of 1/n per face. */
			if (!c->recycle && r == 0 && d) {
				u8 ky[64];

				ky_bits(n, ky, len);
				ok &= row[0] == (u32)ky[d] << (len - d);
			}
		}
	}
	return ok;
}

static void test_chunked(void)
{
	static const u64 wide[] = { 3, 5, 6, 7, 11, 12, 100, 255 };
	static const u64 rec[] = { 3, 5, 6, 7, 10, 12, 37 };
	unsigned long rolls = 0;
	unsigned int i, p, bad = 0, cases = 0;
	double t0 = fd_test_now();
	u32 *cnt;
	u64 n;

	cnt = calloc((size_t)3 * 21 * 37 * 37 * 37, sizeof(*cnt));
	for (n = 2; n <= FRESH_MAX; n++) {
		struct cfg c = { .n = n, .recycle = false, .rolls = 1 };

		cases++;
		if (!chunked(&c, 14, cnt, &rolls) && bad++ < 5)
			CHECK(0, "chunked fresh n = %llu, 14 bits: not uniform", n);
	}
	for (i = 0; i < ARRAY_SIZE(wide); i++) {
		struct cfg c = { .n = wide[i], .recycle = false, .rolls = 1 };

		cases++;
		if (!chunked(&c, 20, cnt, &rolls) && bad++ < 5)
			CHECK(0, "chunked fresh n = %llu, 20 bits: not uniform", wide[i]);
	}
	for (i = 0; i < ARRAY_SIZE(rec); i++) {
		for (p = 1; p <= 3; p++) {
			struct cfg c = {
				.n = rec[i], .recycle = true,
				.precision = fls64(rec[i]) + p,
				.rolls = rec[i] < 37 ? 3 : 2,
			};

			cases++;
			if (!chunked(&c, 18, cnt, &rolls) && bad++ < 5)
				CHECK(0, "chunked recycling n = %llu P = %u: not uniform",
				      rec[i], c.precision);
		}
	}
	free(cnt);
	CHECK(!bad, "chunked: %u of %u configurations not uniform", bad, cases);
	NOTE("chunked: %u configurations, %lu rolls, %.1f cpu s", cases, rolls,
	     fd_test_now() - t0);
}

/* ------------------------------------------------------------------ */
/* Recycling                                                           */

static void test_recycle_small(void)
{
	unsigned int n, p, cases = 0, bad = 0, mind = ~0u, maxd = 0;
	unsigned long calls = 0;
	size_t peak = 0;
	double t0 = fd_test_now();

	for (n = 3; n <= 40; n++) {
		if (is_pow2(n))
			continue;
		for (p = 1; p <= 4; p++) {
			struct cfg c = {
				.n = n, .recycle = true, .precision = fls64(n) + p,
				.rolls = 3, .max_depth = 50 + 2 * fls64(n),
				.max_states = 400000,
			};
			struct dp dp;
			unsigned int d;
			u64 third = 0;

			dp_run(&dp, &c);
			calls += dp.calls;
			cases++;
			for (d = 1; d <= dp.depth; d++)
				third += dp_face(&dp, 2, d);
			if (!dp.ok) {
				if (bad++ < 5)
					CHECK(0, "recycling n = %u P = %u: %s", n,
					      c.precision, dp.why);
			} else if (!third) {
				if (bad++ < 5)
					CHECK(0, "recycling n = %u P = %u: depth %u reaches no third roll",
					      n, c.precision, dp.depth);
			}
			if (dp.depth < mind)
				mind = dp.depth;
			if (dp.depth > maxd)
				maxd = dp.depth;
			if (dp.peak > peak)
				peak = dp.peak;
			free(dp.per_face);
		}
	}
	CHECK(!bad, "recycling: %u of %u configurations fail", bad, cases);
	NOTE("recycle: 3 rolls, %u (n <= 40, P = fls(n)+1..+4) configurations exact to depths %u..%u, up to %zu live states, %lu transitions, %.1f cpu s",
	     cases, mind, maxd, peak, calls, fd_test_now() - t0);
}

static void test_recycle_large(void)
{
	static const struct {
		u64 n;
		unsigned int p, rolls, depth;
		size_t states;
	} cs[] = {
		{ 1000, 11, 2, 40, 400000 }, { 1000, 13, 2, 40, 400000 },
		{ 65537, 18, 2, 45, 1200000 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = true, .precision = cs[i].p,
			.rolls = cs[i].rolls, .max_depth = cs[i].depth,
			.max_states = cs[i].states,
		};
		double t0 = fd_test_now();
		unsigned int d, first = 0;
		struct dp dp;

		dp_run(&dp, &c);
		for (d = 1; d <= dp.depth && !first; d++)
			if (dp_face(&dp, 1, d))
				first = d;
		CHECK(dp.ok, "recycling n = %llu P = %u: %s", c.n, c.precision,
		      dp.why);
		CHECK(first, "recycling n = %llu P = %u: no second roll by depth %u",
		      c.n, c.precision, dp.depth);
		NOTE("recycle: n = %llu P = %u: 2 rolls exact to depth %u (second rolls from depth %u), %zu live states, %.1f cpu s",
		     c.n, c.precision, dp.depth, first, dp.peak,
		     fd_test_now() - t0);
		free(dp.per_face);
	}
}

/* The model against the exhaustive enumeration, where both can run. */
static void test_model_vs_dp(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p, rolls, depth;
	} cs[] = {
		{ 6, false, 0, 1, 60 }, { 7, false, 0, 1, 60 },
		{ 6, true, 5, 3, 30 }, { 7, true, 6, 3, 30 },
		{ 37, true, 8, 2, 30 }, { 1000, true, 12, 2, 36 },
	};
	unsigned int i, d, r;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = cs[i].recycle,
			.precision = cs[i].p, .rolls = cs[i].rolls,
			.max_depth = cs[i].depth, .max_states = 1 << 22,
		};
		struct model m;
		struct dp dp;
		bool same = true;

		dp_run(&dp, &c);
		model_run(&m, &c, 4096);
		for (r = 0; r < c.rolls; r++)
			for (d = 1; d <= dp.depth && d <= m.depth; d++)
				same &= dp_face(&dp, r, d) ==
					m.per_face[r * (c.max_depth + 1) + d];
		CHECK(dp.ok && same && !m.bad && dp.depth == c.max_depth,
		      "model n = %llu P = %u: differs from the enumeration", c.n,
		      c.precision);
		free(dp.per_face);
		free(m.per_face);
	}
}

static void test_huge(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p, rolls, depth;
	} cs[] = {
		/* Fresh: follow M to its cycle, i.e. every depth. */
		{ (1ULL << 31) + 1, false, 0, 1, 400 },
		{ 0xffffffffULL, false, 0, 1, 400 },
		{ 0x100000001ULL, false, 0, 1, 400 },
		{ (1ULL << 62) - 1, false, 0, 1, 400 },
		{ (1ULL << 62) + 1, false, 0, 1, 400 },
		{ (1ULL << 63) + 1, false, 0, 1, 400 },
		{ ~0ULL, false, 0, 1, 400 },
		{ ~0ULL - 2, false, 0, 1, 400 },
		/* Recycling, 64-bit path at the default and small precisions. */
		{ (1ULL << 31) + 1, true, 33, 2, 110 },
		{ (1ULL << 31) + 1, true, 35, 2, 110 },
		{ 0xffffffffULL, true, 63, 2, 140 },
		{ 1000003, true, 63, 3, 140 },
		/* Recycling, 128-bit path. */
		{ 3, true, 64, 3, 120 },
		{ 0x100000001ULL, true, 64, 2, 180 },
		{ 0x100000001ULL, true, 96, 2, 200 },
		{ 0x100000001ULL, true, 127, 2, 230 },
		{ (1ULL << 63) + 1, true, 127, 2, 330 },
		{ ~0ULL, true, 127, 2, 330 },
		{ 1000003, true, 100, 3, 200 },
	};
	unsigned long checks = 0, classes = 0;
	unsigned int i, d;
	double t0 = fd_test_now();

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = cs[i].recycle,
			.precision = cs[i].p, .rolls = cs[i].rolls,
			.max_depth = cs[i].depth,
			.find_cycle = !cs[i].recycle,
		};
		struct model m;

		model_run(&m, &c, 512);
		checks += m.checks;
		classes += m.classes;
		CHECK(!m.bad, "huge n = %llu P = %u: the code left the model on %lu of %lu (z, m, bit)",
		      c.n, c.precision, m.bad, m.checks);
		if (!c.recycle) {
			static u8 ky[512];
			bool ok = true;

			ky_bits(c.n, ky, c.max_depth);
			for (d = 1; d <= m.depth; d++)
				ok &= m.per_face[d] == ky[d];
			CHECK(ok, "huge n = %llu: stopping masses not Knuth-Yao", c.n);
			if (m.cycle_to)
				NOTE("huge: fresh n = %llu: M cycles from depth %u to %u (every depth), code checked on %lu classes",
				     c.n, m.cycle_from, m.cycle_to, m.classes);
			else
				NOTE("huge: fresh n = %llu: followed to depth %u (no cycle), code checked on %lu classes",
				     c.n, m.depth, m.classes);
		} else {
			fd_u128 last = 0;

			for (d = 1; d <= m.depth; d++)
				last += m.per_face[(c.rolls - 1) * (c.max_depth + 1) + d];
			CHECK(last, "huge n = %llu P = %u: roll %u never completes by depth %u",
			      c.n, c.precision, c.rolls, m.depth);
			NOTE("huge: recycling n = %llu P = %u: %u rolls followed to depth %u, code checked on %lu classes",
			     c.n, c.precision, c.rolls, m.depth, m.classes);
		}
		free(m.per_face);
	}
	NOTE("huge: %lu transitions of the code compared with exact arithmetic on %lu classes, %.1f cpu s",
	     checks, classes, fd_test_now() - t0);
}

/* ------------------------------------------------------------------ */
/* Digits of a fair K-sided die                                        */

static void test_digits(void)
{
	static const u64 bases[] = { 3, 6, 10 };
	static const u64 sides[] = { 2, 3, 4, 5, 6, 7, 10, 12, 20, 36, 100 };
	unsigned int bi, si, p, cases = 0, bad = 0, cycles = 0;
	double t0 = fd_test_now();

	for (bi = 0; bi < ARRAY_SIZE(bases); bi++) {
		for (si = 0; si < ARRAY_SIZE(sides); si++) {
			u64 k = bases[bi], n = sides[si];

			/* Fresh, one roll, to its cycle: every depth. */
			for (p = 0; p <= 3; p++) {
				struct cfg c = {
					.n = n, .base = k, .recycle = p > 0,
					.precision = p ? fls64(n) + p : 0,
					.rolls = p ? 3 : 1,
					.max_depth = p ? 12 : 400,
					.max_states = 200000, .find_cycle = !p,
				};
				struct dp dp;

				dp_run(&dp, &c);
				cases++;
				if (!p)
					cycles += dp.ok && (dp.cycle_to || dp.exhausted);
				if ((!dp.ok || (!p && !dp.cycle_to && !dp.exhausted)) &&
				    bad++ < 8)
					CHECK(0, "digits K = %llu n = %llu P = %u: %s", k, n,
					      c.precision, dp.ok ? "no cycle" : dp.why);
				free(dp.per_face);
			}
		}
	}
	CHECK(!bad, "digits: %u of %u configurations fail", bad, cases);
	NOTE("digits: %u configurations (K = 3, 6, 10), %u fresh ones proven at every depth, %.1f cpu s",
	     cases, cycles, fd_test_now() - t0);
}

/*
 * The default precisions with digits: the caller absorbs while
 * fd_sampler_wants() and rolls with fd_sampler_try(); one of the two must
 * always make progress.
 */
static void test_digits_default(void)
{
	static const u64 bases[] = { 2, 3, 6, 10, 1000, 1ULL << 32, ~0ULL };
	static const u64 sides[] = { 6, 7, 1000, (1ULL << 32) + 1, ~0ULL };
	unsigned int bi, si, r;

	for (bi = 0; bi < ARRAY_SIZE(bases); bi++) {
		for (si = 0; si < ARRAY_SIZE(sides); si++) {
			for (r = 0; r < 2; r++) {
				u64 k = bases[bi], n = sides[si], out, rolls = 0;
				unsigned long digits = 0;
				struct fd_sampler s;
				bool stuck = false;

				fd_sampler_init(&s, n, r);
				while (rolls < 2000 && !stuck) {
					fd_u128 z0 = s.z, m0 = s.m;

					if (fd_sampler_wants(&s, k)) {
						fd_sampler_absorb(&s, fd_test_below(&rng, k), k);
						digits++;
						continue;
					}
					if (fd_sampler_try(&s, &out)) {
						rolls++;
						stuck |= out >= n;
						continue;
					}
					stuck = s.z == z0 && s.m == m0;
				}
				CHECK(!stuck, "digits K = %llu n = %llu %s: stuck after %llu rolls and %lu digits: M = %.4g is below its target and M * K would overflow",
				      k, n, r ? "recycling" : "fresh", rolls, digits,
				      (double)s.m);
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Statistics on a fair simulated coin                                 */

/*
 * One roll, refilling the pool from @sim as needed. A roll needing more than
 * 64 refills (probability below 2^-60 for any n) means a broken sampler.
 */
static bool roll_fed(struct fd_sampler *s, struct fd_sim *sim, u64 *out)
{
	unsigned int refills = 0;

	while (!fd_sampler_roll(s, &bitpool, out)) {
		if (++refills > 64)
			return false;
		fd_pool_put(&bitpool, fd_sim_word(sim), 64);
	}
	return true;
}

static void test_cost(void)
{
	static const u64 ns[] = {
		2, 3, 5, 6, 7, 10, 37, 100, 1000, (1ULL << 31) + 1, 0xffffffffULL,
	};
	const unsigned long rolls = 1000000;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		struct fd_sampler s;
		struct fd_sim sim;
		unsigned long r;
		double per, lg = log2((double)ns[i]);
		u64 out, sum = 0;

		fd_sim_init(&sim, 99 + i, 1, 2);
		fd_sampler_init(&s, ns[i], true);
		fd_pool_clear(&bitpool);
		for (r = 0; r < rolls; r++) {
			if (!roll_fed(&s, &sim, &out))
				break;
			sum += out;
		}
		if (!CHECK(r == rolls, "cost n = %llu: roll %lu never ends", ns[i], r))
			continue;
		per = (double)s.bits / rolls;
		CHECK(per <= lg + 0.01 && per >= lg - 0.01,
		      "cost n = %llu: %.6f bits per roll, log2 = %.6f", ns[i],
		      per, lg);
		/* The mean face, loosely: a gross bias would show. */
		CHECK(fabs((double)sum / rolls - (ns[i] - 1) / 2.0) <=
		      6 * ns[i] / sqrt(12.0 * rolls),
		      "cost n = %llu: mean face %.3f", ns[i], (double)sum / rolls);
		NOTE("cost: n = %llu: %.6f fair bits per roll over 10^6 rolls, log2 n = %.6f (+%.6f)",
		     ns[i], per, lg, per - lg);
	}
	{
		/* Fresh d6 costs 11/3 on average. */
		struct fd_sampler s;
		struct fd_sim sim;
		unsigned long r;
		u64 out;
		double per;

		fd_sim_init(&sim, 7, 1, 2);
		fd_sampler_init(&s, 6, false);
		fd_pool_clear(&bitpool);
		for (r = 0; r < rolls; r++)
			if (!roll_fed(&s, &sim, &out))
				break;
		per = (double)s.bits / rolls;
		CHECK(fabs(per - 11.0 / 3) < 0.01, "fresh d6: %.4f bits per roll", per);
		NOTE("cost: fresh d6: %.6f fair bits per roll (11/3 = 3.666667)", per);
	}
}

/* Refill styles: 64 bits, 1 bit, or a random number of bits at a time. */
static void rolls_with_refill(u64 n, bool recycle, unsigned int precision,
			      int style, u64 *outs, unsigned int count,
			      bool *accounted)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	struct fd_sim sim;
	u64 word = 0, taken = 0, put = 0;
	unsigned int left = 0, i;

	fd_sim_init(&sim, 31337, 1, 2);
	if (precision)
		fd_sampler_init_precision(&s, n, recycle, precision);
	else
		fd_sampler_init(&s, n, recycle);
	fd_pool_clear(&pool);
	*accounted = false;
	for (i = 0; i < count; i++) {
		unsigned int refills = 0;

		while (!fd_sampler_roll(&s, &pool, &outs[i])) {
			unsigned int k = style == 0 ? 64 : style == 1 ? 1 :
					 1 + fd_test_below(&rng, 64);

			/* More than 4096 bits for one roll: a broken sampler. */
			if (++refills > 4096)
				return;

			/* The same stream whatever the chunking. */
			while (k) {
				unsigned int c;

				if (!left) {
					word = fd_sim_word(&sim);
					left = 64;
				}
				c = k < left ? k : left;
				fd_pool_put(&pool, word >> (64 - left), c);
				left -= c;
				k -= c;
				put += c;
			}
		}
	}
	taken = put - pool.count;
	*accounted = s.bits == taken;
}

static void test_dry(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p;
	} cs[] = {
		{ 6, true, 0 }, { 6, false, 0 }, { 7, true, 0 }, { 1000, true, 0 },
		{ (1ULL << 32) - 1, true, 0 }, { (1ULL << 32) + 1, true, 0 },
		{ (1ULL << 63) + 1, false, 0 }, { 37, true, 100 }, { 8, true, 0 },
		{ 6, true, 5 },
	};
	const unsigned int count = 20000;
	u64 *a = calloc(count, sizeof(*a)), *b = calloc(count, sizeof(*b));
	u64 *c = calloc(count, sizeof(*c));
	unsigned int i, j, diff1, diffr, first;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		bool acc_a, acc_b, acc_c;

		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 0, a, count, &acc_a);
		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 1, b, count, &acc_b);
		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 2, c, count, &acc_c);
		for (j = 0, diff1 = 0, diffr = 0, first = count; j < count; j++) {
			diff1 += a[j] != b[j];
			diffr += a[j] != c[j];
			if ((a[j] != b[j] || a[j] != c[j]) && first == count)
				first = j;
		}
		CHECK(acc_a && acc_b && acc_c,
		      "dry n = %llu: bits taken from the pool and counted differ", cs[i].n);
		CHECK(!diff1 && !diffr,
		      "dry n = %llu %s P = %u: refilling 1 bit at a time changes %u of %u rolls, random amounts %u (first at roll %u)",
		      cs[i].n, cs[i].recycle ? "recycling" : "fresh", cs[i].p, diff1,
		      count, diffr, first);
	}
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	double t0 = fd_test_now();

	test_pow2();
	test_fresh_small();
	test_chunked();
	test_recycle_small();
	test_recycle_large();
	test_model_vs_dp();
	test_huge();
	test_digits();
	test_digits_default();
	test_cost();
	test_dry();
	free(accs);
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_test_summary();
}
