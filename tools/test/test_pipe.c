// SPDX-License-Identifier: GPL-2.0
/*
 * test_pipe - the read pipeline of driver/fd_pipe.c on injected sources:
 * stuck and absurdly biased sources end in EIO after a bounded number of
 * bits with every extractor; a source that underflows (EAGAIN) or is
 * interrupted (EINTR) mid-roll loses nothing, so the rolls are those of an
 * uninterrupted stream; the startup test discards exactly its bits; the
 * counters add up; fd_pipe_fill() makes the rolls of fd_pipe_roll(); and
 * fd_pipe_set_sides() keeps the fair bits in flight (the exactness of the
 * rolls across it is proven in test_batch.c), so that alternating dice
 * cost their entropy; a shared well fed in chunks and taken from in pieces
 * hands out the very bit stream of the pipeline (fd_pipe_feed_words(),
 * fd_pipe_take()); fd_pipe_set_demand() sizes a refill to the caller's
 * request (the hwrng's), and its default is FD_PIPE_REFILL_BITS.
 */
#include <math.h>

#include "fd_names.h"
#include "fd_pipe.h"
#include "fd_roll.h"
#include "fd_sim.h"
#include "fd_test.h"

/*
 * An injected source: a simulated coin that answers -EAGAIN every
 * @again_every words and reports an interruption every @intr_every checks.
 */
struct src {
	struct fd_sim sim;
	unsigned long words, calls, again_every, checks, intr_every;
	int stuck;	/* 0: the coin; 1: all ones; 2: all zeros; 3: pairs */
};

static int src_word(void *ctx, bool nonblock, u64 *w)
{
	struct src *s = ctx;

	(void)nonblock;
	if (s->again_every && ++s->calls % s->again_every == 0)
		return -EAGAIN;
	s->words++;
	if (s->stuck == 3)	/* 11 00 11 00 ..., then 00 11 00 11 ... */
		*w = s->words % 2 ? 0x3333333333333333ULL : 0xccccccccccccccccULL;
	else
		*w = s->stuck == 1 ? ~0ULL : s->stuck == 2 ? 0 :
		     fd_sim_word(&s->sim);
	return 0;
}

static bool src_interrupted(void *ctx)
{
	struct src *s = ctx;

	return s->intr_every && ++s->checks % s->intr_every == 0;
}

static const struct fd_source_ops ops = {
	.word = src_word,
	.interrupted = src_interrupted,
};

static struct fd_pipe pipe_a, pipe_b;
static struct fd_peres peres_a, peres_b;

static void setup(struct fd_pipe *p, struct src *s, u64 sides, u32 ext,
		  u64 num, u64 den)
{
	memset(p, 0, sizeof(*p));
	p->peres = p == &pipe_a ? &peres_a : &peres_b;
	fd_sim_init(&s->sim, 99, num, den);
	fd_pipe_configure(p, sides, ext);
	fd_pipe_restart(p, num, den, true, false);
}

/* Every extractor ends a stuck or absurd source in EIO, boundedly. */
static void test_stuck(void)
{
	static const u64 bad[][2] = { { 1, 1 }, { 0, 1 }, { 999999, 1000000 } };
	u32 ext;
	unsigned int i;

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
		for (i = 0; i < 5; i++) {
			struct src s = { .stuck = i < 3 ? 0 : i - 2 };
			u64 out;
			int err;

			setup(&pipe_a, &s, 6, ext, i < 3 ? bad[i][0] : 1,
			      i < 3 ? bad[i][1] : 2);
			err = fd_pipe_roll(&pipe_a, &ops, &s, false, &out);
			CHECK(err == -EIO && pipe_a.failed &&
			      pipe_a.failure == FD_HEALTH_RCT &&
			      pipe_a.source_bits <= 8192,
			      "extractor %u case %u: err %d after %llu bits",
			      ext, i, err, (unsigned long long)pipe_a.source_bits);
		}
	}
}

/*
 * Words of equal pairs only pass every health test yet give von Neumann
 * and Dijkstra (whose d6 starts with pairs) nothing: bounded all the same.
 */
static void test_starved(void)
{
	static const u32 exts[] = { FAIRDIE_EXT_VN, FAIRDIE_EXT_DIJKSTRA };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(exts); i++) {
		struct src s = { .stuck = 3 };
		u64 out;
		int err;

		setup(&pipe_a, &s, 6, exts[i], 1, 2);
		err = fd_pipe_roll(&pipe_a, &ops, &s, false, &out);
		CHECK(err == -EIO && pipe_a.failure == FD_HEALTH_STARVED &&
		      s.words <= FD_STARTUP_BITS / 64 + FD_PIPE_DRY_DIJKSTRA,
		      "extractor %u on equal pairs: err %d failure %d after %lu words",
		      exts[i], err, pipe_a.failure, s.words);
	}
}

/* Errors mid-roll lose nothing: the same rolls as without them. */
static void test_resume(void)
{
	u32 ext;

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
		struct src a = { 0 }, b = { .again_every = 3, .intr_every = 5 };
		unsigned long errors = 0, same = 0, i;
		u64 x, y;
		int err;

		setup(&pipe_a, &a, 37, ext, 7, 10);
		setup(&pipe_b, &b, 37, ext, 7, 10);
		for (i = 0; i < 20000; i++) {
			if (fd_pipe_roll(&pipe_a, &ops, &a, false, &x))
				break;
			while ((err = fd_pipe_roll(&pipe_b, &ops, &b, true, &y)))
				errors += err == -EAGAIN || err == -EINTR;
			same += x == y && x < 37;
		}
		CHECK(same == 20000 && errors > 100,
		      "extractor %u: %lu of 20000 rolls equal after %lu EAGAIN/EINTR",
		      ext, same, errors);
		/* Only how far ahead the pool was filled may differ. */
		CHECK(pipe_a.sampler.bits == pipe_b.sampler.bits &&
		      pipe_a.source_bits + 2 * FD_PIPE_REFILL_BITS >
		      pipe_b.source_bits &&
		      pipe_b.source_bits + 2 * FD_PIPE_REFILL_BITS >
		      pipe_a.source_bits,
		      "extractor %u: counters differ", ext);
		CHECK(a.words * 64 == pipe_a.source_bits,
		      "extractor %u: source_bits %llu, words %lu", ext,
		      (unsigned long long)pipe_a.source_bits, a.words);
	}
}

/* The startup test discards its bits; the rest flows as counted. */
static void test_counters(void)
{
	struct src s = { 0 };
	u64 out, w;
	int i;

	setup(&pipe_a, &s, 256, FAIRDIE_EXT_NONE, 1, 2);
	CHECK(!fd_pipe_fair64(&pipe_a, &ops, &s, false, &w),
	      "fair64 failed");
	CHECK(pipe_a.source_bits == FD_STARTUP_BITS + 64 &&
	      pipe_a.extracted_bits == 64 && pipe_a.sampler.bits == 64,
	      "startup: source %llu extracted %llu sampler %llu",
	      (unsigned long long)pipe_a.source_bits,
	      (unsigned long long)pipe_a.extracted_bits,
	      (unsigned long long)pipe_a.sampler.bits);
	setup(&pipe_a, &s, 6, FAIRDIE_EXT_VN, 1, 2);
	for (i = 0; i < 100000; i++)
		fd_pipe_roll(&pipe_a, &ops, &s, false, &out);
	CHECK(pipe_a.extracted_bits >= pipe_a.sampler.bits &&
	      pipe_a.source_bits >= pipe_a.extracted_bits,
	      "VN counters out of order");
	NOTE("VN d6: %.4f source bits, %.4f fair bits per roll",
	     pipe_a.source_bits / 1e5, pipe_a.sampler.bits / 1e5);
	CHECK(!fd_pipe_supported(67, FAIRDIE_EXT_DIJKSTRA) &&
	      fd_pipe_supported(67, FAIRDIE_EXT_VN) &&
	      !fd_pipe_supported(6, FD_NR_EXTRACTORS) &&
	      !fd_pipe_supported(0, FAIRDIE_EXT_VN),
	      "fd_pipe_supported");
}

/* fd_pipe_fill() against fd_pipe_roll(), also through EAGAIN and EINTR. */
static void test_fill(void)
{
	static const u64 sides[] = { 1, 2, 6, 37, 100, 255, 256, 1000, 3000000,
				     1000000007, 4294967291ULL,
				     (1ULL << 40) + 1 };
	static u8 a[30000], b[30000];
	unsigned int i;
	u32 ext;

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
		for (i = 0; i < ARRAY_SIZE(sides); i++) {
			struct src sa = { 0 }, sb = { .again_every = 7,
						      .intr_every = 11 };
			u32 w = fd_roll_width(sides[i]), all = sizeof(a) / w;
			u32 na = 0, n, ask;
			u64 v, seed = i;
			int err;

			if (!fd_pipe_supported(sides[i], ext))
				continue;
			setup(&pipe_a, &sa, sides[i], ext, 7, 10);
			setup(&pipe_b, &sb, sides[i], ext, 7, 10);
			for (n = 0; n < all; n++) {
				if (fd_pipe_roll(&pipe_a, &ops, &sa, false, &v))
					break;
				fd_put_roll(a + n * w, v, w);
			}
			while (na < all) {
				ask = 1 + fd_test_below(&seed, 700);
				if (ask > all - na)
					ask = all - na;
				err = fd_pipe_fill(&pipe_b, &ops, &sb, true,
						   b + na * w, ask, &n);
				na += n;
				if (err && err != -EAGAIN && err != -EINTR)
					break;
			}
			CHECK(na == all && !memcmp(a, b, all * w) &&
			      pipe_a.sampler.bits == pipe_b.sampler.bits,
			      "fill d%llu extractor %u: %u rolls, differ from fd_pipe_roll()",
			      sides[i], ext, na);
		}
	}
}

/*
 * Alternating d6 and d100, the die changed before every roll: nothing in
 * flight is dropped, so each roll costs about its entropy.
 */
static void test_mixed(void)
{
	static const u64 sides[] = { 6, 100 };
	u32 ext;

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
		struct src s = { 0 };
		u64 out, bad = 0, sum[2] = { 0 }, src0;
		u32 pool_before, i, rolls = 200000;
		double per, limit = (log2(6) + log2(100)) / 2;
		int err = 0;

		if (ext == FAIRDIE_EXT_DIJKSTRA)
			continue;
		setup(&pipe_a, &s, 6, ext, 1, 2);
		/* Past the startup test. */
		fd_pipe_roll(&pipe_a, &ops, &s, false, &out);
		src0 = pipe_a.source_bits;
		for (i = 0; i < rolls && !err; i++) {
			pool_before = pipe_a.pool.count;
			fd_pipe_set_sides(&pipe_a, sides[i % 2]);
			bad += pipe_a.pool.count != pool_before;
			err = fd_pipe_roll(&pipe_a, &ops, &s, false, &out);
			bad += out >= sides[i % 2];
			sum[i % 2] += out;
		}
		per = (double)(pipe_a.source_bits - src0) / rolls;
		CHECK(!err && !bad, "mixed extractor %u: err %d, %llu bad", ext,
		      err, bad);
		/* Loosely: a gross bias in either die would show. */
		CHECK(fabs(sum[0] / (rolls / 2.0) - 2.5) < 0.05 &&
		      fabs(sum[1] / (rolls / 2.0) - 49.5) < 1,
		      "mixed extractor %u: means %.3f %.3f", ext,
		      sum[0] / (rolls / 2.0), sum[1] / (rolls / 2.0));
		if (ext == FAIRDIE_EXT_NONE)
			CHECK(per < limit + 0.03,
			      "mixed d6/d100 none: %.4f source bits per roll, entropy %.4f",
			      per, limit);
		NOTE("mixed d6/d100, %s: %.4f source bits per roll (entropy of the dice %.4f)",
		     fd_extractor_name(ext), per, limit);
	}
}

/*
 * A shared well: raw words fetched by readers in chunks of any size go
 * through fd_pipe_feed_words(), and readers take bits with fd_pipe_take()
 * in any sizes. The bits handed out, in the order they were taken, are the
 * very stream the pipeline makes from the same words itself; a stuck
 * source fails the well as it fails a pipeline.
 */
#define WELL_BITS	200000

static u8 well_bits[WELL_BITS + 64], ref_bits[WELL_BITS + 64];

static void test_well(void)
{
	static const u32 exts[] = { FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
				    FAIRDIE_EXT_NONE };
	static struct fd_pool dst;
	unsigned int e;

	for (e = 0; e < ARRAY_SIZE(exts); e++) {
		struct src a = { 0 }, b = { 0 }, st = { .stuck = 1 };
		unsigned long have = 0, refs = 0, k, chunks = 0;
		u64 rng = e + 1, v, buf[40];
		u32 ext = exts[e], n, want, j;
		int err = 0;

		setup(&pipe_a, &a, 6, ext, 7, 10);	/* the well */
		setup(&pipe_b, &b, 6, ext, 7, 10);	/* the reference */
		while (have < WELL_BITS && !err) {
			fd_pool_clear(&dst);
			want = 1 + fd_test_below(&rng, 100);
			n = fd_pipe_take(&pipe_a, &dst, want);
			if (!n) {
				k = 1 + fd_test_below(&rng, 40);
				for (j = 0; j < k; j++)
					src_word(&a, false, &buf[j]);
				err = fd_pipe_feed_words(&pipe_a, buf, k);
				chunks++;
				continue;
			}
			while (n) {
				j = n < 64 ? n : 64;
				v = fd_pool_take(&dst, j);
				n -= j;
				while (j--) {
					well_bits[have++] = v & 1;
					v >>= 1;
				}
			}
		}
		while (refs < have && !err) {
			err = fd_pipe_fair64(&pipe_b, &ops, &b, false, &v);
			for (j = 0; j < 64; j++)
				ref_bits[refs++] = (v >> j) & 1;
		}
		CHECK(!err && !memcmp(well_bits, ref_bits, have),
		      "well, extractor %u: %lu bits taken in pieces from %lu chunks are the pipeline's",
		      ext, have, chunks);

		/* A stuck source fails the well within the same bound. */
		setup(&pipe_a, &st, 6, ext, 1, 2);
		err = 0;
		for (k = 0; k < 1000 && !err; k++) {
			for (j = 0; j < 8; j++)
				src_word(&st, false, &buf[j]);
			err = fd_pipe_feed_words(&pipe_a, buf, 8);
		}
		CHECK(err == -EIO && pipe_a.failed &&
		      pipe_a.failure == FD_HEALTH_RCT &&
		      pipe_a.source_bits <= 8192 && !pipe_a.pool.count,
		      "well, extractor %u: a stuck source fails after %llu bits",
		      ext, (unsigned long long)pipe_a.source_bits);
	}
}

/*
 * 64 fair bits with VN from a fresh pipeline: a refill sized to k bits
 * stops at the first word that brings the pool to k (a word gives VN at
 * most 32 bits); by default k is FD_PIPE_REFILL_BITS.
 */
static void test_refill(void)
{
	static const u32 asks[] = { 0, 64, 65, 256, 512, 2048, 4096, 1 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(asks); i++) {
		u32 k = !asks[i] || asks[i] > FD_PIPE_REFILL_BITS ?
			FD_PIPE_REFILL_BITS : asks[i] < 64 ? 64 : asks[i];
		struct src s = { 0 };
		u64 w, held;

		setup(&pipe_a, &s, 256, FAIRDIE_EXT_VN, 1, 2);
		if (asks[i])
			fd_pipe_set_demand(&pipe_a, asks[i]);
		CHECK(!fd_pipe_fair64(&pipe_a, &ops, &s, false, &w),
		      "refill %u: fair64 failed", asks[i]);
		held = pipe_a.pool.count + 64;
		CHECK(held >= k && held < k + 32,
		      "refill %u: the pool held %llu bits after the refill, %u asked for",
		      asks[i], (unsigned long long)held, k);
		NOTE("refill %u: %llu raw bits for 64 fair bits (%u of them the start-up test)",
		     asks[i], (unsigned long long)pipe_a.source_bits,
		     FD_STARTUP_BITS);
	}
}

int main(void)
{
	test_stuck();
	test_starved();
	test_resume();
	test_counters();
	test_fill();
	test_mixed();
	test_well();
	test_refill();
	return fd_check_summary();
}
