// SPDX-License-Identifier: GPL-2.0
/*
 * Proof by enumeration that driver/fd_peres.c is exact, and checks of its
 * fast paths against a plain reference.
 *
 * The bias stays symbolic: an input of n bits with k ones has probability
 * p^k (1-p)^(n-k), so the probability of an output string is the polynomial
 * sum_k c_k p^k (1-p)^(n-k), where c_k counts its inputs with k ones. Two
 * outputs are equally likely for every p iff their vectors (c_k) are equal.
 *
 *   exhaustive  every input of 1..NMAX bits, several depths: all output
 *               strings of the same length have the same vector
 *   reference   fd_peres_block() equals a bit-by-bit recursive Peres on
 *               random inputs of up to 40000 bits, every depth
 *   stream      fd_peres_feed() hands out exactly fd_peres_block() of each
 *               block, whatever the room left in the pool
 *   block       a whole block: the reference at its depth, one level more
 *               changes nothing, and every value of a window at its ends
 *               and across a word edge gives the reference bit for bit
 *   rate        at p = 0.5, 0.7, 0.9 the stream keeps >= 0.965 H(p)
 *
 * All of it twice: once with the table that splits four pairs at a time,
 * once with PEXT if this CPU has it (fd_shim_pext forces the choice).
 *
 * Usage: test_peres [NMAX]   (default 20)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fd_peres.h"

static unsigned int passed, failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			if (failed <= 20) {				\
				printf("# FAIL %s:%d: ", __FILE__, __LINE__); \
				printf(__VA_ARGS__);			\
				printf("\n");				\
			}						\
		}							\
	} while (0)

static u64 sm_state;

static u64 splitmix64(void)
{
	u64 z = (sm_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 64 flips of a coin with P(1) = thr / 2^64, the first in bit 0. */
static u64 coin64(u64 thr)
{
	u64 w = 0;
	int i;

	for (i = 0; i < 64; i++)
		w |= (u64)(splitmix64() < thr) << i;
	return w;
}

static u64 threshold(double p)
{
	return p >= 1.0 ? ~0ULL : (u64)ldexp(p, 64);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

/* ---- the reference: Peres straight from its definition, a bit a byte ---- */

static unsigned int ref_peres(const unsigned char *x, unsigned int n,
			      unsigned int depth, unsigned char *out)
{
	unsigned int i, m = n / 2, nv = 0, nout = 0;
	unsigned char *u, *v;

	if (!depth || n < 2)
		return 0;
	u = xmalloc(m);
	v = xmalloc(m);
	for (i = 0; i < m; i++) {
		unsigned char a = x[2 * i], b = x[2 * i + 1];

		u[i] = a ^ b;
		if (a != b)
			out[nout++] = a;
		else
			v[nv++] = a;
	}
	nout += ref_peres(u, m, depth - 1, out + nout);
	nout += ref_peres(v, nv, depth - 1, out + nout);
	free(u);
	free(v);
	return nout;
}

static unsigned int getbit(const u64 *w, unsigned int i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

/* fd_peres_block() on a copy of @in, with junk in its other buffers. */
static unsigned int run_block(const u64 *in, unsigned int n, unsigned int depth,
			      u64 *out)
{
	size_t ni = FD_PERES_IN_WORDS(n), ns = FD_PERES_SCRATCH_WORDS(n);
	u64 *buf = xmalloc(ni * 8), *scratch = xmalloc(ns * 8);
	unsigned int i, m;

	memcpy(buf, in, ni * 8);
	for (i = 0; i < ns; i++)
		scratch[i] = splitmix64();
	for (i = 0; i < FD_PERES_OUT_WORDS(n); i++)
		out[i] = splitmix64();
	m = fd_peres_block(buf, n, depth, scratch, out);
	free(buf);
	free(scratch);
	return m;
}

/* ---- exhaustive ---- */

/* Gosper: the next larger word with as many ones. */
static u64 next_same_weight(u64 x)
{
	u64 c = x & -x, r = x + c;

	return (((r ^ x) >> 2) / c) | r;
}

/*
 * All inputs of @n bits, grouped by their number of ones k; for each k and
 * each output length m, every m-bit string must come from as many inputs.
 */
static void exhaustive(unsigned int n, unsigned int depth)
{
	u32 *cnt = xmalloc(sizeof(u32) << (n + 1));	/* [2^m + value] */
	unsigned int k, m, bad = 0, lengths = 0;

	for (k = 0; k <= n; k++) {
		u64 x = k ? (1ULL << k) - 1 : 0, tally[64] = { 0 };
		unsigned int maxm = 0;

		memset(cnt, 0, sizeof(u32) << (n + 1));
		while (x < (1ULL << n)) {
			/* n <= 26: one word each, on the stack (ASan watches it) */
			u64 in[1] = { x }, scratch[1] = { splitmix64() }, out[1];

			m = fd_peres_block(in, n, depth, scratch, out);
			if (m > (n ? n - 1 : 0)) {
				bad++;
				break;
			}
			cnt[(1U << m) + fd_low_bits(out[0], m)]++;
			tally[m]++;
			if (m > maxm)
				maxm = m;
			if (!k)
				break;
			x = next_same_weight(x);
		}
		for (m = 0; m <= maxm; m++) {
			u64 v;

			if (!tally[m])
				continue;
			lengths++;
			for (v = 0; v < (1ULL << m); v++)
				if ((u64)cnt[(1U << m) + v] << m != tally[m]) {
					if (!bad)
						printf("# n=%u d=%u k=%u: %u:%llx %u, not %llu\n",
						       n, depth, k, m, (unsigned long long)v,
						       cnt[(1U << m) + v],
						       (unsigned long long)(tally[m] >> m));
					bad++;
					break;
				}
		}
	}
	/*
	 * And bit for bit the reference on the same inputs: catches an
	 * extractor that is exact but not Peres (or throws bits away).
	 */
	if (n <= 16) {
		unsigned int i, diff = 0;
		unsigned char bits[16], ref[16];
		u64 x;

		for (x = 0; x < (1ULL << n); x++) {
			u64 in[1] = { x }, scratch[1] = { 0 }, out[1] = { 0 };

			m = fd_peres_block(in, n, depth, scratch, out);
			for (i = 0; i < n; i++)
				bits[i] = (x >> i) & 1;
			if (ref_peres(bits, n, depth, ref) != m) {
				diff++;
				continue;
			}
			for (i = 0; i < m; i++)
				if (ref[i] != ((out[0] >> i) & 1)) {
					diff++;
					break;
				}
		}
		CHECK(!diff, "n=%u depth=%u: %u inputs differ from the reference", n, depth, diff);
	}
	CHECK(!bad, "n=%u depth=%u: %u (k, length) classes not uniform", n, depth, bad);
	CHECK(n < 2 || depth == 0 || lengths > 1, "n=%u depth=%u: no output at all", n, depth);
	free(cnt);
}

/* ---- reference ---- */

/*
 * Peres on the @n bits of @in against the reference, bit for bit; @what
 * names the input in a failure.
 */
static void block_equals_reference(const u64 *in, unsigned int n,
				   unsigned int depth, const char *what)
{
	u64 *out = xmalloc(FD_PERES_OUT_WORDS(n) * 8);
	unsigned char *bits = xmalloc(n), *ref = xmalloc(n);
	unsigned int i, m, mref, diff = 0;

	for (i = 0; i < n; i++)
		bits[i] = getbit(in, i);
	m = run_block(in, n, depth, out);
	mref = ref_peres(bits, n, depth, ref);
	for (i = 0; i < m && i < mref; i++)
		diff += getbit(out, i) != ref[i];
	CHECK(m == mref && !diff, "%s n=%u depth=%u: %u bits, reference %u, %u differ",
	      what, n, depth, m, mref, diff);
	free(out);
	free(bits);
	free(ref);
}

static void against_reference(unsigned int n, unsigned int depth, double p)
{
	size_t nw = FD_PERES_IN_WORDS(n);
	u64 *in = xmalloc(nw * 8);
	u64 thr = threshold(p);
	char what[32];
	unsigned int i;

	for (i = 0; i < nw; i++)
		in[i] = coin64(thr);
	if (n % 64)
		in[nw - 1] = fd_low_bits(in[nw - 1], n % 64);
	snprintf(what, sizeof(what), "p=%.2f", p);
	block_equals_reference(in, n, depth, what);
	free(in);
}

/* ---- windows ---- */

/*
 * Inputs longer than a word go through fd_peres_level(), 128 bits at a
 * time, with a masked last part: at each edge of those parts and at the
 * ends, every value of a window of WIN bits, the rest random, must give
 * the reference bit for bit.
 */
#define WIN	10

static void windows(unsigned int n, unsigned int depth, double p,
		    unsigned int win)
{
	size_t nw = FD_PERES_IN_WORDS(n);
	u64 *in = xmalloc(nw * 8), *x = xmalloc(nw * 8);
	u64 *out = xmalloc(FD_PERES_OUT_WORDS(n) * 8);
	unsigned char *bits = xmalloc(n), *ref = xmalloc(n);
	unsigned int offs[8], no = 0, o, i, m, mref, diff = 0, bad = 0;
	u64 w, thr = threshold(p);

	for (i = 0; i < nw; i++)
		in[i] = coin64(thr);
	/* the start, the end, and across each 64-bit boundary */
	offs[no++] = 0;
	offs[no++] = n - win;
	for (i = 64; i + win / 2 < n && no < ARRAY_SIZE(offs); i += 64)
		offs[no++] = i - win / 2;
	/* and across the word edge in the middle of a long input */
	if (n / 128 > ARRAY_SIZE(offs))
		offs[no - 1] = n / 128 * 64 - win / 2;
	for (o = 0; o < no; o++) {
		for (w = 0; w < (1U << win); w++) {
			memcpy(x, in, nw * 8);
			for (i = 0; i < win; i++) {
				unsigned int b = offs[o] + i;

				x[b / 64] = (x[b / 64] & ~(1ULL << (b % 64))) |
					    ((w >> i) & 1) << (b % 64);
			}
			for (i = 0; i < n; i++)
				bits[i] = getbit(x, i);
			m = run_block(x, n, depth, out);
			mref = ref_peres(bits, n, depth, ref);
			diff = m != mref;
			for (i = 0; i < m && i < mref; i++)
				diff += getbit(out, i) != ref[i];
			bad += !!diff;
		}
	}
	CHECK(!bad, "n=%u depth=%u p=%.2f win=%u: %u windowed inputs differ from the reference",
	      n, depth, p, win, bad);
	free(in);
	free(x);
	free(out);
	free(bits);
	free(ref);
}

/* ---- patterns ---- */

/*
 * Words of all-equal or all-different pairs, which a biased coin almost
 * never makes: 64 bits of v or of von Neumann bits from one 128-bit part.
 */
static void patterns(unsigned int n, unsigned int depth)
{
	static const u64 pat[] = {
		0, ~0ULL, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
		0x3333333333333333ULL, 0x6666666666666666ULL,
	};
	size_t nw = FD_PERES_IN_WORDS(n), i;
	u64 *in = xmalloc(nw * 8);

	for (i = 0; i < nw; i++) {
		u64 r = splitmix64();

		in[i] = r % 4 ? pat[(r >> 8) % ARRAY_SIZE(pat)] : splitmix64();
	}
	block_equals_reference(in, n, depth, "patterns");
	free(in);
}

/* ---- a whole block ---- */

/*
 * FD_PERES_BLOCK_BITS bits at FD_PERES_DEPTH, as the stream runs them: the
 * reference on random and on patterned blocks, windows at the block's ends
 * and across the word edge in its middle, and one level more giving the
 * very same bits (the depth exhausts the block).
 */
static void whole_block(void)
{
	const unsigned int n = FD_PERES_BLOCK_BITS, nw = FD_PERES_IN_WORDS(n);
	u64 *in = xmalloc(nw * 8), *a = xmalloc(nw * 8), *b = xmalloc(nw * 8);
	unsigned int i, k, ma, mb, deeper = 0;

	against_reference(n, FD_PERES_DEPTH, 0.5);
	against_reference(n, FD_PERES_DEPTH, 0.8);
	patterns(n, FD_PERES_DEPTH);
	windows(n, FD_PERES_DEPTH, 0.5, 4);
	windows(n, FD_PERES_DEPTH, 0.9, 3);
	for (k = 0; k < 4 && FD_PERES_DEPTH < FD_PERES_MAX_DEPTH; k++) {
		static const double kp[] = { 0.5, 0.7, 0.9, 0.97 };
		u64 thr = threshold(kp[k]);

		for (i = 0; i < nw; i++)
			in[i] = coin64(thr);
		ma = run_block(in, n, FD_PERES_DEPTH, a);
		mb = run_block(in, n, FD_PERES_DEPTH + 1, b);
		for (i = 0; i < ma / 64; i++)
			deeper += a[i] != b[i];
		deeper += ma != mb ||
			  fd_low_bits(a[i] ^ b[i], ma % 64) != 0;
	}
	CHECK(!deeper, "n=%u: depth %d and %d differ (%u)", n, FD_PERES_DEPTH,
	      FD_PERES_DEPTH + 1, deeper);
	printf("# block: %d bits at depth %d, windows at its edges\n",
	       FD_PERES_BLOCK_BITS, FD_PERES_DEPTH);
	free(in);
	free(a);
	free(b);
}

/* ---- stream ---- */

/*
 * Feed @blocks blocks and a bit; after every call take from the pool all but
 * a changing number of bits (so the room varies from FD_PERES_MAX_OUT up).
 * The bits that come out must be fd_peres_block() of each block.
 */
static void stream(unsigned int blocks, double p)
{
	const unsigned int wpb = FD_PERES_BLOCK_BITS / 64;
	unsigned int nraw = blocks * wpb + wpb / 3, i, j, got = 0, want = 0;
	u64 *raw = xmalloc(nraw * 8), *expect, *have, thr = threshold(p);
	struct fd_peres *st = xmalloc(sizeof(*st));
	struct fd_pool *pool = xmalloc(sizeof(*pool));
	unsigned int diff = 0, overflow = 0;

	expect = xmalloc((size_t)blocks * FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS) * 8 + 8);
	have = xmalloc((size_t)blocks * FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS) * 8 + 8);
	memset(expect, 0, (size_t)blocks * FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS) * 8 + 8);
	memset(have, 0, (size_t)blocks * FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS) * 8 + 8);
	for (i = 0; i < nraw; i++)
		raw[i] = coin64(thr);

	for (i = 0; i < blocks; i++) {
		u64 out[FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS)];
		unsigned int m = run_block(raw + i * wpb, FD_PERES_BLOCK_BITS,
					   FD_PERES_DEPTH, out);

		for (j = 0; j < m; j++, want++)
			expect[want / 64] |= (u64)getbit(out, j) << (want % 64);
	}

	fd_peres_init(st);
	fd_pool_clear(pool);
	for (i = 0; i < nraw; i++) {
		unsigned int before = pool->count, keep;
		unsigned int n = fd_peres_feed(st, raw[i], pool);

		overflow += n > FD_PERES_MAX_OUT || pool->count != before + n;
		/* leave 0..FD_POOL_BITS - FD_PERES_MAX_OUT bits behind */
		keep = (i * 2654435761U) % (FD_POOL_BITS - FD_PERES_MAX_OUT + 1);
		if (i % 7 == 0)
			keep = FD_POOL_BITS - FD_PERES_MAX_OUT;
		while (pool->count > keep) {
			unsigned int c = pool->count - keep < 64 ? pool->count - keep : 64;
			u64 w = fd_pool_take(pool, c);

			for (j = 0; j < c; j++, got++)
				if (got < want)
					have[got / 64] |= ((w >> j) & 1) << (got % 64);
		}
	}
	/* what is still pending or in the pool */
	while (fd_peres_pending(st) || pool->count) {
		unsigned int c;

		fd_peres_drain(st, pool);
		while ((c = pool->count < 64 ? pool->count : 64)) {
			u64 w = fd_pool_take(pool, c);

			for (j = 0; j < c; j++, got++)
				if (got < want)
					have[got / 64] |= ((w >> j) & 1) << (got % 64);
		}
	}
	for (i = 0; i < (want + 63) / 64; i++)
		diff += expect[i] != have[i];
	CHECK(got == want && !diff && !overflow,
	      "feed p=%.2f: %u bits out, block gives %u, %u words differ, %u overflows",
	      p, got, want, diff, overflow);
	CHECK(st->nraw == (nraw % wpb) * 64, "feed: %u raw bits held, expected %u",
	      st->nraw, (nraw % wpb) * 64);
	free(raw);
	free(expect);
	free(have);
	free(st);
	free(pool);
}

/* ---- rate ---- */

static void rate(double p, unsigned int blocks)
{
	struct fd_peres *st = xmalloc(sizeof(*st));
	struct fd_pool *pool = xmalloc(sizeof(*pool));
	u64 thr = threshold(p), raw = 0, out = 0;
	double h = -p * log2(p) - (1 - p) * log2(1 - p), r;

	fd_peres_init(st);
	fd_pool_clear(pool);
	while (raw < (u64)blocks * FD_PERES_BLOCK_BITS) {
		out += fd_peres_feed(st, coin64(thr), pool);
		raw += 64;
		fd_pool_clear(pool);
	}
	out += fd_peres_pending(st);
	r = out / (double)raw / h;
	printf("# stream at p=%.2f: %.4f of H(p)\n", p, r);
	CHECK(r >= 0.965, "p=%.2f: %.4f of H(p) < 0.965", p, r);
	free(st);
	free(pool);
}

int main(int argc, char **argv)
{
	static const unsigned int depths[] = { 1, 2, 3, 4, 5, FD_PERES_DEPTH };
	static const double ps[] = { 0.5, 0.7, 0.9, 0.97 };
	unsigned int nmax = argc > 1 ? atoi(argv[1]) : 20, n, d, i, path;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (nmax < 1 || nmax > 26) {
		fprintf(stderr, "usage: %s [NMAX]  (1..26, default 20)\n", argv[0]);
		return 2;
	}
	sm_state = 0x5eed;

	CHECK(sizeof(struct fd_peres) <= 64 * 1024, "sizeof(struct fd_peres) = %zu",
	      sizeof(struct fd_peres));
	CHECK(FD_PERES_MAX_OUT <= 8192, "FD_PERES_MAX_OUT = %d", FD_PERES_MAX_OUT);

	for (path = 0; path < 2; path++) {
		/* PEXT is BMI2: run its path only where the CPU has it. */
		if (path && !__builtin_cpu_supports("bmi2")) {
			printf("# PEXT path: skipped, no BMI2 on this CPU\n");
			break;
		}
		fd_shim_pext = path;
		printf("# split with %s\n", path ? "PEXT" : "the table");
		for (n = 0; n <= nmax; n++)
			for (d = 0; d < ARRAY_SIZE(depths); d++)
				exhaustive(n, depths[d]);
		printf("# exhaustive: n = 0..%u, depths 1-5 and %d\n", nmax, FD_PERES_DEPTH);

		for (d = 0; d <= FD_PERES_MAX_DEPTH; d++)
			for (i = 0; i < 24; i++) {
				unsigned int n = 1 + splitmix64() % (i < 8 ? 300 : 40000);

				against_reference(n, d, ps[i % ARRAY_SIZE(ps)]);
			}
		/* the edges of the word-at-a-time paths */
		for (n = 62; n <= 520; n++)
			if (n % 64 < 3 || n % 64 > 61)
				for (d = 1; d <= FD_PERES_MAX_DEPTH; d += 3)
					against_reference(n, d, ps[n % ARRAY_SIZE(ps)]);
		{
			static const unsigned int wn[] = {
				65, 66, 100, 127, 128, 129, 131, 191, 194, 255,
				256, 258, 300, 385,
			};

			for (i = 0; i < ARRAY_SIZE(wn); i++) {
				windows(wn[i], 2, ps[i % ARRAY_SIZE(ps)], WIN);
				windows(wn[i], FD_PERES_DEPTH, ps[i % ARRAY_SIZE(ps)], WIN);
			}
			printf("# windows: every value of %d bits at each 64-bit edge, %zu lengths\n",
			       WIN, ARRAY_SIZE(wn));
		}
		for (i = 0; i < 200; i++)
			patterns(65 + splitmix64() % 3000, 1 + i % FD_PERES_MAX_DEPTH);
		printf("# patterns: words of equal or of differing pairs\n");
		printf("# reference: random inputs of up to 40000 bits, depths 0-%d\n",
		       FD_PERES_MAX_DEPTH);
		whole_block();

		stream(3, 0.5);
		stream(2, 0.85);
		rate(0.5, 16);
		rate(0.7, 16);
		rate(0.9, 16);
	}

	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
