// SPDX-License-Identifier: GPL-2.0
/*
 * test_chunking - the engine's output is a function of the bit stream alone.
 *
 * One sampler state serves a mixed script of fair dice (2 to 2^64 - 1
 * faces: batched, dual, plain, powers of two, wide) and weighted dice
 * (totals from 4 to 2^64 - 2), rolled one at a time and in fills. The
 * script is run on one fixed stream of fair bits, fed to the pool in
 * every chunking: one bit at a time, one word at a time, as much as the
 * pool holds, random splits (with bits also put in ahead of need); the
 * faces, their order and the bits taken must be the same in every run.
 *
 * The script includes the rare case the sampler must not treat by how
 * the pool was refilled: a state wider than 64 bits, kept from a die above
 * 2^32, that a die or weighted die of at most 2^32 rejects, so that its
 * top-up may run dry (below 2^-32 per draw at random; here the stream is
 * made so that the rejection happens every time).
 */
#include <string.h>

#include "fd_roll.h"
#include "fd_sampler.h"
#include "fd_test.h"
#include "fd_weights.h"

#define OPS		1500	/* per script */
#define SCRIPTS		6
#define MAX_BITS	(1 << 23)
#define MAX_OUT		(OPS * 64)
#define MAX_COUNT	40	/* rolls per operation */

enum { ROLL, FILL, WDRAW, WFILL, WIDE };

struct op {
	int kind;
	u64 sides;		/* fair die, or the wide die of WIDE */
	unsigned int set;	/* weighted die */
	u32 count;
	u64 crafted;		/* WIDE: the remainder of the crafted roll */
};

enum { ONE, WORD, FULL, RANDOM, NPOLICY };
static const char *const policy_name[] = { "bit", "word", "full", "random" };

/* Weighted dice, built once. */
#define NSETS 9
static struct fd_weights wset[NSETS];

static u8 stream[MAX_BITS];		/* one bit a byte */
static u32 stream_len;
static u64 out_ref[MAX_OUT], out_run[MAX_OUT];
static struct op script[OPS];
static u64 rng;
static u32 forced;

static void make_sets(void)
{
	static const u64 w0[] = { 1, 2, 3 };
	static const u64 w1[] = { 1, 1, 1, 1 };
	static const u64 w2[] = { 1ULL << 40, 3, (1ULL << 41) + 5 };
	static const u64 w3[] = { 1ULL << 63, (1ULL << 63) - 2 };
	static const u64 w4[] = { 7, 0, 5, 1, 0, 9, 2 };
	static const u64 w5[] = { 4000000000ULL, 294967295ULL };
	/* A total above the guide's 1024 entries: its search, in fills. */
	static const u64 w8[] = { 1000, 2000, 3, 77, 5 };
	/* Set 7: faces of two bytes, a total of batches in fills. */
	const u64 *w[NSETS] = { w0, w1, w2, w3, w4, w5, NULL, NULL, w8 };
	const u32 n[NSETS] = { 3, 4, 3, 2, 7, 2, 100, 300, 5 };
	u32 i, j;

	for (i = 0; i < NSETS; i++) {
		u64 *t = calloc(fd_weights_table_words(n[i]), sizeof(u64));

		for (j = 0; j < n[i]; j++)
			t[j + 1] = w[i] ? w[i][j] :
				   1 + fd_test_below(&rng, i == 7 ? 100 : 1 << 20);
		if (!t || fd_weights_init(&wset[i], t, n[i]))
			exit(2);
	}
}

/* A die of any of the sampler's kinds. */
static u64 any_sides(void)
{
	switch (fd_test_below(&rng, 9)) {
	case 0:
		return 2 + fd_test_below(&rng, 255);
	case 1:
		return 1ULL << fd_test_below(&rng, 64);
	case 2:		/* dual */
		return 3000000 + fd_test_below(&rng, 1000000000);
	case 3:		/* plain */
		return (1ULL << 31) - fd_test_below(&rng, 1 << 15);
	case 4:
		return (1ULL << 32) + 1 + fd_test_below(&rng, 1ULL << 40);
	case 5:
		return ~0ULL - fd_test_below(&rng, 3);
	case 6:
		return 6;
	case 7:
		return 1 + fd_test_below(&rng, 1ULL << 32);
	default:
		return 2 + fd_test_below(&rng, ~0ULL - 2);
	}
}

/* A die of at most 2^32 faces, or a weighted one of a total that small. */
static void small_op(struct op *o)
{
	/* Weighted fills: one byte, searched, two bytes. */
	static const unsigned int fill_sets[] = { 4, 8, 7 };

	o->count = 1 + fd_test_below(&rng, MAX_COUNT);
	switch (fd_test_below(&rng, 4)) {
	case 0:
		o->kind = ROLL;
		o->sides = 3 + fd_test_below(&rng, 1ULL << 32);
		break;
	case 1:
		o->kind = FILL;
		o->sides = 3 + fd_test_below(&rng, 250);
		break;
	case 2:
		o->kind = WDRAW;
		o->set = fd_test_below(&rng, 2) ? 0 : 5;
		break;
	default:
		o->kind = WFILL;
		o->set = fill_sets[fd_test_below(&rng, 3)];
		break;
	}
}

static void make_script(void)
{
	u32 i;

	for (i = 0; i < OPS; i++) {
		struct op *o = &script[i];

		memset(o, 0, sizeof(*o));
		o->count = 1 + fd_test_below(&rng, MAX_COUNT);
		o->kind = fd_test_below(&rng, 5);
		if (o->kind == WIDE && i + 1 < OPS) {
			/* A wide die above 2^32 and below 2^63, then a small one. */
			o->sides = (1ULL << 32) + 1 +
				   fd_test_below(&rng, (1ULL << 63) - (1ULL << 33));
			o->crafted = fd_test_below(&rng, o->sides);
			small_op(&script[++i]);
			continue;
		}
		if (o->kind == WIDE)
			o->kind = ROLL;
		o->sides = any_sides();
		o->set = fd_test_below(&rng, NSETS);
	}
}

struct run {
	int policy;
	bool make;		/* the first run writes the stream as it goes */
	struct fd_sampler s;
	struct fd_pool pool;
	u32 pos;		/* next bit of the stream to feed */
	u64 *out;
	u32 nout;
	u64 feed_rng;
	bool short_stream;
};

/* Put the next chunk of the stream into the pool; false at its end. */
static bool feed(struct run *r, bool ahead)
{
	u32 room = fd_pool_room(&r->pool), n, i;

	if (!room)
		return true;
	switch (r->policy) {
	case ONE:
		n = 1;
		break;
	case WORD:
		n = 64;
		break;
	case FULL:
		n = room;
		break;
	default:
		switch (fd_test_below(&r->feed_rng, 3)) {
		case 0:
			n = 1 + fd_test_below(&r->feed_rng, 7);
			break;
		case 1:
			n = 1 + fd_test_below(&r->feed_rng, 200);
			break;
		default:
			n = 1 + fd_test_below(&r->feed_rng, room);
			break;
		}
	}
	if (n > room)
		n = room;
	if (r->make) {
		for (; stream_len < r->pos + n; stream_len++)
			stream[stream_len] = fd_test_rand(&rng) & 1;
	}
	if (r->pos + n > stream_len)
		n = stream_len - r->pos;
	if (!n && !ahead) {
		r->short_stream = true;
		return false;
	}
	for (i = 0; i < n; i++)
		fd_pool_put(&r->pool, stream[r->pos + i], 1);
	r->pos += n;
	return true;
}

/*
 * The first run makes the crafted bits: it takes the stream back to the
 * bits consumed (those in the pool were never used), then appends the 127
 * bits that make the wide roll land on the last Q S values: Z = (Q - 1) S
 * + c, Q = 2^127 div S, kept as Z div S = Q - 1 on [0, Q), which any die
 * not dividing Q then rejects.
 */
static void craft(struct run *r, const struct op *o)
{
	u64 rem;
	fd_u128 q = fd_div128((fd_u128)1 << 127, o->sides, &rem);
	fd_u128 z = (q - 1) * o->sides + o->crafted;
	unsigned int i;

	r->pos -= r->pool.count;
	stream_len = r->pos;
	fd_pool_clear(&r->pool);
	if (stream_len + 127 > MAX_BITS)
		exit(2);
	for (i = 0; i < 127; i++)
		stream[stream_len++] = (z >> i) & 1;
}

/* Whether the die of @next rejects the wide state a crafted roll kept. */
static bool will_reject(const struct fd_sampler *s, const struct op *next)
{
	u64 n = next->kind == ROLL || next->kind == FILL ?
		next->sides : wset[next->set].total, rem;

	if (!(s->m >> 64) || s->z != s->m - 1)
		return false;
	fd_div128(s->m, n, &rem);
	return rem;
}

static bool run_op(struct run *r, const struct op *o)
{
	const struct fd_weights *w = &wset[o->set];
	u8 buf[MAX_COUNT * 8];
	u32 width, made = 0, i;
	u64 v;

	if (r->policy == RANDOM && fd_test_below(&r->feed_rng, 2))
		feed(r, true);
	switch (o->kind) {
	case WIDE:
		fd_sampler_set_sides(&r->s, o->sides);
		/* Start from nothing, as after a give-back. */
		fd_sampler_reset(&r->s);
		if (r->make)
			craft(r, o);
		/* fall through */
	case ROLL:
		if (o->kind == ROLL)
			fd_sampler_set_sides(&r->s, o->sides);
		for (i = 0; i < (o->kind == WIDE ? 1 : o->count); i++) {
			while (!fd_sampler_roll(&r->s, &r->pool, &v))
				if (!feed(r, false))
					return false;
			r->out[r->nout++] = v;
		}
		if (o->kind == WIDE && r->make)
			forced += will_reject(&r->s, o + 1);
		return true;
	case FILL:
		fd_sampler_set_sides(&r->s, o->sides);
		width = fd_roll_width(o->sides);
		for (;;) {
			made += fd_sampler_fill_rolls(&r->s, &r->pool,
						      buf + made * width,
						      o->count - made, width);
			if (made == o->count)
				break;
			if (!feed(r, false))
				return false;
		}
		break;
	case WDRAW:
		fd_weights_attach(w, &r->s);
		for (i = 0; i < o->count; i++) {
			while (!fd_weights_draw(w, &r->s, &r->pool, &v))
				if (!feed(r, false))
					return false;
			r->out[r->nout++] = v;
		}
		return true;
	default:
		fd_weights_attach(w, &r->s);
		width = fd_roll_width(w->count);
		for (;;) {
			made += fd_weights_fill(w, &r->s, &r->pool,
						buf + made * width,
						o->count - made, width);
			if (made == o->count)
				break;
			if (!feed(r, false))
				return false;
		}
		break;
	}
	for (i = 0; i < made; i++)
		r->out[r->nout++] = fd_get_roll(buf + i * width, width);
	return true;
}

static void run_script(struct run *r, int policy, bool make, u64 *out,
		       u64 seed)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	r->policy = policy;
	r->make = make;
	r->out = out;
	r->feed_rng = seed;
	fd_sampler_init(&r->s, 6, true);
	for (i = 0; i < OPS; i++)
		if (!run_op(r, &script[i]))
			break;
}

int main(void)
{
	static struct run ref, run;
	u32 sc;
	int p, k;

	rng = 29;
	make_sets();
	for (sc = 0; sc < SCRIPTS; sc++) {
		stream_len = 0;
		make_script();
		run_script(&ref, ONE, true, out_ref, 0);
		CHECK(!ref.short_stream, "script %u: the stream was made", sc);
		for (p = ONE; p < NPOLICY; p++) {
			for (k = 0; k < (p == RANDOM ? 4 : 1); k++) {
				run_script(&run, p, false, out_run,
					   sc * 8 + k + 1);
				CHECK(!run.short_stream &&
				      run.nout == ref.nout &&
				      !memcmp(out_run, out_ref,
					      ref.nout * sizeof(u64)) &&
				      run.s.bits == ref.s.bits &&
				      run.pos - run.pool.count ==
				      ref.pos - ref.pool.count,
				      "script %u, chunks of a %s (%d): %u outcomes, %llu bits as fed bit by bit",
				      sc, policy_name[p], k, ref.nout,
				      (unsigned long long)ref.s.bits);
			}
		}
	}
	CHECK(forced > SCRIPTS * OPS / 10,
	      "%u wide states kept from a die above 2^32 rejected by a small one",
	      forced);
	NOTE("%u scripts of %u operations", SCRIPTS, OPS);
	return fd_check_summary();
}
