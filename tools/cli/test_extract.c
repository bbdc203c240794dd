// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - exactness of 'fairdie extract', proven by enumeration.
 *
 * For a die with unknown face probabilities p_1..p_K, an input sequence of
 * length L has probability p_1^c_1 ... p_K^c_K, where c_f counts face f.
 * Enumerate all K^L sequences, run the method on each, and group the
 * sequences by that monomial and by the shape of their output (the list of
 * digit bases; for a sink, the number of rolls). The method is exact when,
 * in every group, every possible output string (all prod(bases), or N^len
 * of them) comes from the same number of sequences: then for every bias
 * each output of a given shape has exactly the same probability. Methods
 * for a fair input (none) are checked with all sequences equally likely.
 *
 * Negative controls (a single-roll parity bit, and three fair bits taken
 * mod 6) must be caught, so the checker can fail. Then the rates: fair bits
 * per input roll on a fair and a loaded die, and the cost of d100 from a
 * fair d6 with the recycling sampler.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extract.h"
#include "fd_sim.h"
#include "fd_check.h"

#define FDT_MAX_LEN	20
#define FDT_MAX_OUT	4096

/* ------------------------------------------------------------------------
 * A hash table of byte strings with counters
 */

struct fdt_entry {
	u8 *key;
	size_t len;
	size_t group_len;	/* the key's first group_len bytes: its group */
	u64 hash;
	u64 count;
	u64 expect;		/* outputs a group must show */
	u64 distinct, min, max;	/* per group */
};

struct fdt_table {
	struct fdt_entry *e;
	size_t cap, n;
};

static u64 fdt_fnv(const u8 *p, size_t n)
{
	u64 h = 0xcbf29ce484222325ULL;

	while (n--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

static void fdt_table_grow(struct fdt_table *t);

static struct fdt_entry *fdt_table_get(struct fdt_table *t, const u8 *key,
				       size_t len)
{
	u64 h = fdt_fnv(key, len);
	size_t i;

	if (2 * (t->n + 1) > t->cap)
		fdt_table_grow(t);
	for (i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct fdt_entry *e = &t->e[i];

		if (!e->key) {
			e->key = malloc(len);
			if (!e->key)
				abort();
			memcpy(e->key, key, len);
			e->len = len;
			e->hash = h;
			t->n++;
			return e;
		}
		if (e->hash == h && e->len == len && !memcmp(e->key, key, len))
			return e;
	}
}

static void fdt_table_grow(struct fdt_table *t)
{
	struct fdt_table old = *t;
	size_t i, j;

	t->cap = old.cap ? 2 * old.cap : 1024;
	t->e = calloc(t->cap, sizeof(*t->e));
	if (!t->e)
		abort();
	for (i = 0; i < old.cap; i++) {
		if (!old.e[i].key)
			continue;
		for (j = old.e[i].hash & (t->cap - 1); t->e[j].key;
		     j = (j + 1) & (t->cap - 1))
			;
		t->e[j] = old.e[i];
	}
	free(old.e);
}

static void fdt_table_free(struct fdt_table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->e[i].key);
	free(t->e);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------------
 * What a method made of one input sequence
 */

struct fdt_out {
	unsigned int n;
	u64 base[FDT_MAX_OUT];
	u64 val[FDT_MAX_OUT];
};

static void fdt_out_digit(void *ctx, u64 digit, u64 base)
{
	struct fdt_out *o = ctx;

	if (o->n == FDT_MAX_OUT)
		abort();
	o->base[o->n] = base;
	o->val[o->n++] = digit;
}

/* The pipelines under test: faces -> (out) */
struct fdt_case {
	const char *name;
	int method;		/* enum fdc_method, or a control below */
	u64 faces;
	unsigned int len;
	unsigned int prime;
	u64 sides;		/* 0: check the digits; else the sink's rolls */
	unsigned int precision;
	bool fair;		/* input declared fair: no monomial grouping */
	bool expect_exact;
};

enum {
	FDT_CONTROL_PARITY1 = 100,	/* bit = parity of each single roll */
	FDT_CONTROL_MOD6,		/* three fair bits, value mod 6 */
	FDT_CONTROL_TREE_STREAM,	/* tree, each node's bit sent at once */
};

/*
 * The binarization tree done the tempting way: von Neumann on each node's
 * bits, each bit sent the moment its node has one. When a node fills
 * depends on the bits of the nodes above it, so the order of the output
 * leaks them: not exact, which is why tree sends a block's digits
 * together.
 */
static void fdt_tree_stream(const u64 *faces, unsigned int len, u64 k,
			    void (*out)(void *, u64, u64), void *ctx)
{
	u64 pending[64] = { 0 }, lo, hi, mid, node;
	bool have[64] = { false };
	unsigned int i;
	u64 b;

	for (i = 0; i < len; i++) {
		for (lo = 0, hi = k, node = 1; hi - lo >= 2; ) {
			mid = lo + (hi - lo) / 2;
			b = faces[i] >= mid;
			if (!have[node]) {
				pending[node] = b;
				have[node] = true;
			} else {
				if (pending[node] != b)
					out(ctx, pending[node], 2);
				have[node] = false;
			}
			node = 2 * node + b;
			if (b)
				lo = mid;
			else
				hi = mid;
		}
	}
}

struct fdt_sink_ctx {
	struct fdt_out *out;
	u64 sides;
};

static void fdt_sink_value(void *ctx, u64 v)
{
	struct fdt_sink_ctx *c = ctx;

	fdt_out_digit(c->out, v, c->sides);
}

static void fdt_run(const struct fdt_case *tc, const u64 *faces,
		    struct fdt_out *out)
{
	struct fdc_extract x;
	struct fdc_sink sink;
	struct fdt_sink_ctx sc = { .out = out, .sides = tc->sides };
	unsigned int i;
	int ret;

	out->n = 0;
	if (tc->method == FDT_CONTROL_PARITY1) {
		for (i = 0; i < tc->len; i++)
			fdt_out_digit(out, faces[i] & 1, 2);
		return;
	}
	if (tc->method == FDT_CONTROL_TREE_STREAM) {
		fdt_tree_stream(faces, tc->len, tc->faces, fdt_out_digit, out);
		return;
	}
	if (tc->method == FDT_CONTROL_MOD6) {
		for (i = 0; i + 3 <= tc->len; i += 3)
			fdt_out_digit(out, (faces[i] * 4 + faces[i + 1] * 2 +
					    faces[i + 2]) % 6, 6);
		return;
	}
	if (!tc->sides) {
		ret = fdc_extract_init(&x, tc->method, tc->faces, tc->prime, 0,
				       fdt_out_digit, out);
	} else {
		ret = fdc_extract_init(&x, tc->method, tc->faces, tc->prime, 0,
				       fdc_sink_digit, &sink);
		ret = ret ? ret :
		      fdc_sink_init_precision(&sink, tc->sides,
					      fdc_extract_max_base(&x),
					      fdc_extract_single_base(&x),
					      tc->precision, fdt_sink_value, &sc);
	}
	if (ret)
		abort();
	for (i = 0; i < tc->len; i++)
		fdc_extract_feed(&x, faces[i]);
	if (tc->sides)
		fdc_sink_finish(&sink);
}

/*
 * Enumerate, tally, check. The key of a sequence is its monomial (counts of
 * each face, unless fair), its output's shape, then its output's values.
 */
static bool fdt_prove(const struct fdt_case *tc)
{
	struct fdt_table seqs = { 0 }, groups = { 0 };
	static struct fdt_out out;
	u64 faces[FDT_MAX_LEN] = { 0 }, total = 1, s, bad = 0, with_out = 0;
	static u8 key[16 * FDT_MAX_OUT + 64];
	u64 b;
	unsigned int i, counts[64], maxlen = 0;
	size_t klen, glen;

	for (i = 0; i < tc->len; i++)
		total *= tc->faces;
	for (s = 0; s < total; s++) {
		fdt_run(tc, faces, &out);
		klen = 0;
		memset(counts, 0, sizeof(counts));
		if (!tc->fair)
			for (i = 0; i < tc->len; i++)
				counts[faces[i]]++;
		for (i = 0; i < tc->faces; i++)
			key[klen++] = (u8)counts[i];
		if (tc->sides) {
			memcpy(key + klen, &out.n, sizeof(out.n));
			klen += sizeof(out.n);
		} else {
			/* Bases and values in full: tree's exceed a byte. */
			for (i = 0; i < out.n; i++) {
				memcpy(key + klen, &out.base[i], sizeof(u64));
				klen += sizeof(u64);
			}
			key[klen++] = 0xff;
		}
		glen = klen;
		for (i = 0; i < out.n; i++) {
			memcpy(key + klen, &out.val[i], sizeof(u64));
			klen += sizeof(u64);
		}
		fdt_table_get(&seqs, key, klen)->group_len = glen;
		fdt_table_get(&seqs, key, klen)->count++;
		if (out.n > maxlen)
			maxlen = out.n;

		/* The next sequence, as an odometer. */
		for (i = 0; i < tc->len && ++faces[i] == tc->faces; i++)
			faces[i] = 0;
	}

	for (s = 0; s < seqs.cap; s++) {
		struct fdt_entry *e = &seqs.e[s], *g;

		if (!e->key)
			continue;
		g = fdt_table_get(&groups, e->key, e->group_len);
		if (!g->distinct) {
			g->min = e->count;
			/* prod(bases), or N^len */
			g->expect = 1;
			if (tc->sides) {
				unsigned int n;

				memcpy(&n, e->key + tc->faces, sizeof(n));
				for (i = 0; i < n; i++)
					g->expect *= tc->sides;
			} else {
				for (i = tc->faces; i + 1 < e->group_len;
				     i += sizeof(u64)) {
					memcpy(&b, e->key + i, sizeof(b));
					g->expect *= b;
				}
			}
		}
		g->distinct++;
		if (e->count < g->min)
			g->min = e->count;
		if (e->count > g->max)
			g->max = e->count;
	}
	for (s = 0; s < groups.cap; s++) {
		struct fdt_entry *g = &groups.e[s];

		if (!g->key)
			continue;
		if (g->expect > 1)
			with_out++;
		if (g->distinct != g->expect || g->min != g->max)
			bad++;
	}
	printf("%-9s %-34s K=%llu L=%-2u %8llu sequences, %6zu classes ",
	       tc->expect_exact ? "exact:" : "control:", tc->name,
	       (unsigned long long)tc->faces, tc->len,
	       (unsigned long long)total, groups.n);
	printf("(%llu with output, up to %u values): %s\n",
	       (unsigned long long)with_out, maxlen,
	       bad ? "NOT uniform" : "uniform");
	fdt_table_free(&seqs);
	fdt_table_free(&groups);
	/* A proof that saw no output at all proves nothing. */
	return !bad && with_out;
}

static const struct fdt_case fdt_cases[] = {
	/* The digits of each method, any bias. */
	{ "parity", FDC_METHOD_PARITY, 2, 14, 0, 0, 0, false, true },
	{ "parity", FDC_METHOD_PARITY, 3, 10, 0, 0, 0, false, true },
	{ "parity", FDC_METHOD_PARITY, 6, 7, 0, 0, 0, false, true },
	{ "compare2", FDC_METHOD_COMPARE2, 2, 14, 0, 0, 0, false, true },
	{ "compare2", FDC_METHOD_COMPARE2, 3, 10, 0, 0, 0, false, true },
	{ "compare2", FDC_METHOD_COMPARE2, 6, 7, 0, 0, 0, false, true },
	{ "rank3", FDC_METHOD_RANK3, 3, 12, 0, 0, 0, false, true },
	{ "rank3", FDC_METHOD_RANK3, 4, 9, 0, 0, 0, false, true },
	{ "rank3", FDC_METHOD_RANK3, 6, 7, 0, 0, 0, false, true },
	{ "rank3x", FDC_METHOD_RANK3X, 2, 15, 0, 0, 0, false, true },
	{ "rank3x", FDC_METHOD_RANK3X, 3, 12, 0, 0, 0, false, true },
	{ "rank3x", FDC_METHOD_RANK3X, 6, 7, 0, 0, 0, false, true },
	{ "dijkstra p=2", FDC_METHOD_DIJKSTRA, 2, 14, 2, 0, 0, false, true },
	{ "dijkstra p=3", FDC_METHOD_DIJKSTRA, 2, 15, 3, 0, 0, false, true },
	{ "dijkstra p=5", FDC_METHOD_DIJKSTRA, 2, 15, 5, 0, 0, false, true },
	{ "dijkstra p=7", FDC_METHOD_DIJKSTRA, 2, 14, 7, 0, 0, false, true },
	{ "dijkstra p=7", FDC_METHOD_DIJKSTRA, 3, 7, 7, 0, 0, false, true },
	{ "dijkstra p=3", FDC_METHOD_DIJKSTRA, 4, 9, 3, 0, 0, false, true },
	{ "dijkstra p=5", FDC_METHOD_DIJKSTRA, 3, 10, 5, 0, 0, false, true },
	{ "dijkstra p=3", FDC_METHOD_DIJKSTRA, 6, 7, 3, 0, 0, false, true },
	{ "none", FDC_METHOD_NONE, 6, 7, 0, 0, 0, true, true },
	/* tree: the "prime" field is its block length. */
	{ "tree n=2", FDC_METHOD_TREE, 2, 14, 2, 0, 0, false, true },
	{ "tree n=7", FDC_METHOD_TREE, 2, 14, 7, 0, 0, false, true },
	{ "tree n=3", FDC_METHOD_TREE, 3, 11, 3, 0, 0, false, true },
	{ "tree n=5", FDC_METHOD_TREE, 3, 11, 5, 0, 0, false, true },
	{ "tree n=11", FDC_METHOD_TREE, 3, 11, 11, 0, 0, false, true },
	{ "tree n=4", FDC_METHOD_TREE, 4, 9, 4, 0, 0, false, true },
	{ "tree n=8", FDC_METHOD_TREE, 5, 8, 8, 0, 0, false, true },
	{ "tree n=3", FDC_METHOD_TREE, 6, 7, 3, 0, 0, false, true },
	{ "tree n=7", FDC_METHOD_TREE, 6, 7, 7, 0, 0, false, true },
	{ "tree n=6", FDC_METHOD_TREE, 7, 6, 6, 0, 0, false, true },
	/* Whole pipelines: digits through the exact sampler to N sides. */
	{ "parity -> d6", FDC_METHOD_PARITY, 3, 12, 0, 6, 3, false, true },
	{ "compare2 -> d3", FDC_METHOD_COMPARE2, 3, 12, 0, 3, 3, false, true },
	{ "compare2 -> d5", FDC_METHOD_COMPARE2, 2, 16, 0, 5, 4, false, true },
	{ "rank3 -> bits", FDC_METHOD_RANK3, 4, 9, 0, 2, 2, false, true },
	{ "rank3x -> d5", FDC_METHOD_RANK3X, 4, 9, 0, 5, 4, false, true },
	{ "rank3x -> d4", FDC_METHOD_RANK3X, 3, 12, 0, 4, 3, false, true },
	{ "dijkstra p=3 -> d7", FDC_METHOD_DIJKSTRA, 3, 12, 3, 7, 3, false, true },
	{ "dijkstra p=5 -> d10", FDC_METHOD_DIJKSTRA, 2, 20, 5, 10, 5, false, true },
	{ "none d6 -> d100", FDC_METHOD_NONE, 6, 7, 0, 100, 7, true, true },
	{ "tree n=4 -> bits", FDC_METHOD_TREE, 4, 8, 4, 2, 6, false, true },
	{ "tree n=3 -> d6", FDC_METHOD_TREE, 6, 6, 3, 6, 8, false, true },
	{ "tree n=9 -> d5", FDC_METHOD_TREE, 3, 9, 9, 5, 12, false, true },
	{ "none d2 -> d3", FDC_METHOD_NONE, 2, 16, 0, 3, 2, true, true },
	{ "none d6 -> d4 (recycled)", FDC_METHOD_NONE, 6, 7, 0, 4, 8, true, true },
	/* Controls: biased, and must be caught. */
	{ "parity of single rolls", FDT_CONTROL_PARITY1, 3, 8, 0, 0, 0, false, false },
	{ "3 fair bits mod 6", FDT_CONTROL_MOD6, 2, 12, 0, 0, 0, true, false },
	{ "tree sending each node's bit at once", FDT_CONTROL_TREE_STREAM,
	  3, 8, 0, 0, 0, false, false },
};

static void fdt_exactness(void)
{
	unsigned int i;
	bool exact;

	for (i = 0; i < ARRAY_SIZE(fdt_cases); i++) {
		const struct fdt_case *tc = &fdt_cases[i];

		exact = fdt_prove(tc);
		if (tc->expect_exact)
			CHECK(exact, "%s K=%llu L=%u is not exact", tc->name,
			      (unsigned long long)tc->faces, tc->len);
		else
			CHECK(!exact, "control %s was not caught", tc->name);
	}
}

/* ------------------------------------------------------------------------
 * Known answers
 */

struct fdt_collect {
	unsigned int n;
	u64 v[4096];
	u64 b[4096];
};

static void fdt_collect_digit(void *ctx, u64 digit, u64 base)
{
	struct fdt_collect *c = ctx;

	if (c->n < ARRAY_SIZE(c->v)) {
		c->v[c->n] = digit;
		c->b[c->n] = base;
	}
	c->n++;
}

static void fdt_collect_value(void *ctx, u64 v)
{
	fdt_collect_digit(ctx, v, 0);
}

static void fdt_feed1(struct fdc_extract *x, const char *rolls)
{
	for (; *rolls; rolls++)
		fdc_extract_feed(x, *rolls - '1');
}

static void fdt_known_answers(void)
{
	struct fdc_extract x;
	struct fdt_collect c;

	/* parity: (1,2) -> 1, (2,1) -> 0, (1,3) same parity -> nothing */
	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_PARITY, 6, 0, 0, fdt_collect_digit, &c);
	fdt_feed1(&x, "122113");
	CHECK(c.n == 2 && c.v[0] == 1 && c.v[1] == 0 && c.b[0] == 2,
	      "parity digits %u: %llu %llu", c.n,
	      (unsigned long long)c.v[0], (unsigned long long)c.v[1]);

	/* compare2: (1,2) -> 1, (5,3) -> 0, (4,4) -> nothing */
	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_COMPARE2, 6, 0, 0, fdt_collect_digit, &c);
	fdt_feed1(&x, "125344");
	CHECK(c.n == 2 && c.v[0] == 1 && c.v[1] == 0,
	      "compare2 digits %u", c.n);
	CHECK(x.rolls == 6 && x.used == 6 && fabs(x.bits - 2) < FDC_ENTROPY_SLACK,
	      "compare2 counters");

	/* rank3: the six orders of 1,2,3 give six different digits */
	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_RANK3, 3, 0, 0, fdt_collect_digit, &c);
	fdt_feed1(&x, "123132213231312321112");
	CHECK(c.n == 6 && c.b[0] == 6, "rank3 gave %u digits", c.n);
	{
		unsigned int seen = 0, i;

		for (i = 0; i < 6 && i < c.n; i++)
			seen |= 1U << c.v[i];
		CHECK(seen == 0x3f, "rank3 digits are not 0..5: %#x", seen);
	}

	/* rank3x: ties give the odd one's position in base 3 */
	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_RANK3X, 6, 0, 0, fdt_collect_digit, &c);
	fdt_feed1(&x, "556565655666");
	CHECK(c.n == 3 && c.b[0] == 3 && c.v[0] == 2 && c.v[1] == 1 &&
	      c.v[2] == 0, "rank3x ties");

	/* dijkstra p=3: 112 -> least rotation 112: 0; 121 -> 1... */
	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_DIJKSTRA, 2, 3, 0, fdt_collect_digit, &c);
	fdt_feed1(&x, "112211121222");
	/* 112: 0; 211 = rot^2(112): 2; 121 = rot^1(112): 1; 222: nothing */
	CHECK(c.n == 3 && c.b[0] == 3 && c.v[0] == 0 && c.v[1] == 2 &&
	      c.v[2] == 1, "dijkstra rotations %u: %llu %llu %llu", c.n,
	      (unsigned long long)c.v[0], (unsigned long long)c.v[1],
	      (unsigned long long)c.v[2]);
	CHECK(fdc_dijkstra_best_prime(2) == 5 &&
	      fdc_dijkstra_best_prime(6) == 3, "dijkstra default primes");
	CHECK(fdc_extract_init(&x, FDC_METHOD_DIJKSTRA, 6, 4, 0,
			       fdt_collect_digit, &c) < 0 &&
	      fdc_extract_init(&x, FDC_METHOD_DIJKSTRA, 6, 67, 0,
			       fdt_collect_digit, &c) < 0,
	      "dijkstra takes only primes up to 61");
	CHECK(fdc_extract_init(&x, FDC_METHOD_NONE, 1, 0, 0,
			       fdt_collect_digit, &c) < 0 &&
	      fdc_extract_init(&x, FDC_METHOD_NONE, (1ULL << 32) + 1, 0, 0,
			       fdt_collect_digit, &c) < 0,
	      "faces must be 2..2^32");
}

static void fdt_hash(void)
{
	/* SHA-256 of 2048 zero bytes: 512 rolls of face 1, each 4 bytes. */
	static const char want[] =
		"e5a00aa9991ac8a5ee3109844d84a55583bd20572ad3ffcd42792f3c36b183ad";
	struct fdc_extract x;
	struct fdt_collect c;
	unsigned int i, bad = 0;

	CHECK(fdc_hash_block_rolls(1.0) == 512 &&
	      fdc_hash_block_rolls(2.5) == 205 &&
	      fdc_hash_block_rolls(0) == 0 &&
	      fdc_hash_block_rolls(FDC_ENTROPY_SLACK) == 0, "hash block sizes");
	CHECK(fdc_extract_init(&x, FDC_METHOD_HASH, 6, 0, 2.6,
			       fdt_collect_digit, &c) < 0,
	      "min-entropy above log2(6) accepted");
	CHECK(fdc_extract_init(&x, FDC_METHOD_HASH, 6, 0, 0,
			       fdt_collect_digit, &c) < 0,
	      "hash without min-entropy accepted");

	memset(&c, 0, sizeof(c));
	fdc_extract_init(&x, FDC_METHOD_HASH, 6, 0, 1.0, fdt_collect_digit, &c);
	for (i = 0; i < 511; i++)
		fdc_extract_feed(&x, 0);
	CHECK(c.n == 0, "hash output before its block was full");
	fdc_extract_feed(&x, 0);
	CHECK(c.n == 256, "hash block gave %u bits", c.n);
	for (i = 0; i < 256 && c.n == 256; i++) {
		unsigned int nib = want[i / 4] <= '9' ? want[i / 4] - '0' :
				   want[i / 4] - 'a' + 10;

		bad += c.v[i] != ((nib >> (3 - i % 4)) & 1);
	}
	CHECK(!bad, "hash bits differ from SHA-256 in %u places", bad);
	for (i = 0; i < 512; i++)
		fdc_extract_feed(&x, i % 6);
	CHECK(c.n == 512 && x.used == 1024, "second hash block");
}

static void fdt_sink(void)
{
	struct fdc_sink k;
	struct fdt_collect c;
	unsigned int i;

	/* A base that matches the sides is passed on untouched. */
	memset(&c, 0, sizeof(c));
	CHECK(!fdc_sink_init(&k, 6, 6, 6, fdt_collect_value, &c) && k.direct,
	      "sink d6 from d6 is not direct");
	for (i = 0; i < 12; i++)
		fdc_sink_digit(&k, i % 6, 6);
	fdc_sink_finish(&k);
	CHECK(c.n == 12 && c.v[7] == 1, "direct sink");

	/* Bits to d6: every value in range, and all of the state rolled out
	 * at the end but what lies below 8.
	 */
	memset(&c, 0, sizeof(c));
	CHECK(!fdc_sink_init(&k, 6, 2, 2, fdt_collect_value, &c) && !k.direct,
	      "sink d6 from bits");
	for (i = 0; i < 300; i++)
		fdc_sink_digit(&k, (i * 7 / 3) & 1, 2);
	fdc_sink_finish(&k);
	CHECK(c.n >= 100 && k.s.m < 8, "sink left M = %llu after %u rolls",
	      (unsigned long long)k.s.m, c.n);
	for (i = 0; i < c.n && i < ARRAY_SIZE(c.v); i++)
		if (c.v[i] >= 6)
			break;
	CHECK(i == c.n, "sink roll out of range");

	CHECK(fdc_sink_precision(6, 2) == 63 &&
	      fdc_sink_precision(100, 6) == 61 &&
	      fdc_sink_precision(1ULL << 40, 1ULL << 32) == 95 &&
	      fdc_sink_precision(~0ULL, 2) == 126, "sink precisions");
	CHECK(fdc_sink_init_precision(&k, 6, 6, 0, 62, fdt_collect_value,
				      &c) < 0, "sink precision that overflows");
	CHECK(fdc_sink_init(&k, 1, 2, 2, fdt_collect_value, &c) < 0,
	      "sink with 1 side");

	/* 2^64 - 1 sides from a 2^32-faced die: 128-bit mode. */
	memset(&c, 0, sizeof(c));
	fdc_sink_init(&k, ~0ULL, 1ULL << 32, 0, fdt_collect_value, &c);
	for (i = 0; i < 200; i++)
		fdc_sink_digit(&k, (i * 2654435761U) & 0xffffffffU, 1ULL << 32);
	fdc_sink_finish(&k);
	CHECK(c.n >= 90, "huge sink gave %u rolls", c.n);
}

/* ------------------------------------------------------------------------
 * Rates on a fair and a loaded die
 */

#define FDT_WEIGHTS	600

struct fdt_die {
	const char *name;
	u64 faces;
	unsigned int weight[8];	/* out of FDT_WEIGHTS */
};

static u64 fdt_roll(const struct fdt_die *d, u64 *state)
{
	u64 x, floor = -(u64)FDT_WEIGHTS % FDT_WEIGHTS, f;

	do {
		x = fd_splitmix64(state);
	} while (x < floor);
	x %= FDT_WEIGHTS;
	for (f = 0; x >= d->weight[f]; f++)
		x -= d->weight[f];
	return f;
}

static void fdt_null_digit(void *ctx, u64 digit, u64 base)
{
	(void)ctx;
	(void)digit;
	(void)base;
}

static double fdt_rate(const struct fdt_die *d, enum fdc_method m,
		       double min_entropy)
{
	struct fdc_extract x;
	u64 state = 12345;
	unsigned int i, n = 600000;

	if (fdc_extract_init(&x, m, d->faces, 0, min_entropy, fdt_null_digit,
			     NULL))
		abort();
	for (i = 0; i < n; i++)
		fdc_extract_feed(&x, fdt_roll(d, &state));
	return x.bits / x.rolls;
}

static void fdt_rates(void)
{
	static const struct fdt_die dice[] = {
		{ "fair d6", 6, { 100, 100, 100, 100, 100, 100 } },
		{ "loaded d6", 6, { 210, 120, 90, 72, 60, 48 } },
		{ "coin p=0.7", 2, { 180, 420 } },
		/* The loaded d6 of the README: H = 2.5 bits. */
		{ "gist d6", 6, { 75, 75, 150, 150, 75, 75 } },
	};
	unsigned int i, m, f;

	printf("\nfair bits per input roll (600000 rolls;");
	printf(" H = Shannon entropy, Hmin = min-entropy)\n");
	printf("%-11s %6s %6s", "die", "H", "Hmin");
	for (m = 0; m < FDC_METHOD_NONE; m++)
		printf(" %8s", fdc_method_name(m));
	printf("\n");
	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		const struct fdt_die *d = &dice[i];
		double h = 0, hmin, pmax = 0, sq = 0, odd = 0, r;

		for (f = 0; f < d->faces; f++) {
			double p = (double)d->weight[f] / FDT_WEIGHTS;

			h -= p * log2(p);
			sq += p * p;
			if (p > pmax)
				pmax = p;
			if (!(f & 1))
				odd += p;
		}
		hmin = -log2(pmax);
		printf("%-11s %6.3f %6.3f", d->name, h, hmin);
		for (m = 0; m < FDC_METHOD_NONE; m++) {
			/* hash at its declared min-entropy, safety factor 2 */
			r = fdt_rate(d, m, floor(hmin * 100) / 100);
			printf(" %8.4f", r);
			/* Against the exact rates of the simplest methods. */
			if (m == FDC_METHOD_COMPARE2)
				CHECK(fabs(r - (1 - sq) / 2) < 0.01 * r,
				      "%s compare2 rate %.4f, theory %.4f",
				      d->name, r, (1 - sq) / 2);
			if (m == FDC_METHOD_PARITY)
				CHECK(fabs(r - odd * (1 - odd)) < 0.02 * r,
				      "%s parity rate %.4f, theory %.4f",
				      d->name, r, odd * (1 - odd));
			/* tree: blocks of 64 keep 0.84 H, whatever the die. */
			if (m == FDC_METHOD_TREE)
				CHECK(r >= 0.84 * h, "%s tree rate %.4f, H %.4f",
				      d->name, r, h);
			if (m == FDC_METHOD_TREE && d->weight[2] == 150)
				CHECK(r >= 2.1, "gist d6: tree rate %.4f < 2.1",
				      r);
			if (m == FDC_METHOD_HASH)
				CHECK(r <= hmin / FDC_HASH_SAFETY + FDC_ENTROPY_SLACK,
				      "%s hash outputs more than declared",
				      d->name);
		}
		printf("\n");
		if (i == 0) {
			/* Fair d6: 3 rolls give log2 6 bits w.p. 120/216
			 * (rank3), plus log2 3 bits w.p. 90/216 (rank3x);
			 * dijkstra p=3 gives log2 3 bits w.p. 35/36.
			 */
			double rank3 = 120.0 / 216 * log2(6) / 3;
			double rank3x = rank3 + 90.0 / 216 * log2(3) / 3;
			double dij = 35.0 / 36 * log2(3) / 3;

			r = fdt_rate(d, FDC_METHOD_RANK3, 0);
			CHECK(fabs(r - rank3) < 0.01 * rank3,
			      "rank3 rate %.4f, theory %.4f", r, rank3);
			r = fdt_rate(d, FDC_METHOD_RANK3X, 0);
			CHECK(fabs(r - rank3x) < 0.01 * rank3x,
			      "rank3x rate %.4f, theory %.4f", r, rank3x);
			r = fdt_rate(d, FDC_METHOD_DIJKSTRA, 0);
			CHECK(fabs(r - dij) < 0.01 * dij,
			      "dijkstra rate %.4f, theory %.4f", r, dij);
		}
	}
}

static void fdt_count_value(void *ctx, u64 v)
{
	u64 *hist = ctx;

	hist[v]++;
}

/* d100 from a fair d6 costs log6(100) = 2.5702 rolls when nothing is
 * wasted; the recycling sampler must come within 0.2% of that.
 */
static void fdt_none_cost(void)
{
	struct fdc_extract x;
	struct fdc_sink k;
	u64 hist[100] = { 0 }, state = 777, i, n = 3000000, lo = ~0ULL, hi = 0;
	double cost, ideal = log(100) / log(6);

	fdc_extract_init(&x, FDC_METHOD_NONE, 6, 0, 0, fdc_sink_digit, &k);
	fdc_sink_init(&k, 100, 6, 6, fdt_count_value, hist);
	for (i = 0; i < n; i++) {
		u64 v, floor = -6ULL % 6;

		do {
			v = fd_splitmix64(&state);
		} while (v < floor);
		fdc_extract_feed(&x, v % 6);
	}
	fdc_sink_finish(&k);
	cost = (double)n / k.outputs;
	printf("\nnone: fair d6 -> d100: %llu rolls in, %llu d100 out: ",
	       (unsigned long long)n, (unsigned long long)k.outputs);
	printf("%.5f rolls per d100 (log6(100) = %.5f, +%.3f%%)\n", cost,
	       ideal, 100 * (cost / ideal - 1));
	CHECK(cost <= ideal * 1.002, "d100 from d6 costs %.5f rolls", cost);
	for (i = 0; i < 100; i++) {
		lo = hist[i] < lo ? hist[i] : lo;
		hi = hist[i] > hi ? hist[i] : hi;
	}
	/* 11672 expected per face; 6 sigma is about 650. */
	CHECK(lo > k.outputs / 100 - 700 && hi < k.outputs / 100 + 700,
	      "d100 counts from %llu to %llu", (unsigned long long)lo,
	      (unsigned long long)hi);
}

int main(void)
{
	fdt_exactness();
	fdt_known_answers();
	fdt_hash();
	fdt_sink();
	fdt_rates();
	fdt_none_cost();
	return fd_check_summary();
}
