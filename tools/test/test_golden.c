// SPDX-License-Identifier: GPL-2.0
/*
 * test_golden - the read path's output, bit for bit, against a record.
 *
 * Fixed streams of the simulated coin (driver/fd_sim.c) go through the
 * whole read path, health tests on: a file's own pipeline (fd_pipe_fill(),
 * fd_pipe_roll(), fd_pipe_fair64() in turn, reads of varying length) and
 * readers of a shared well (fd_well_feed() in chunks of varying size,
 * fd_well_take() with varying demand), for each extractor and several
 * dice. A hash of every roll made and of the bit counters is compared
 * with the one the code gave when the record was taken.
 *
 * The record is not a proof: the proofs of exactness are the other tests.
 * It pins the output, so that work on the speed of the read path (word
 * at a time, tables, batching) cannot change a single bit of it unseen.
 * A change that means to alter the stream updates the record in the same
 * commit, and says why: "test_golden -p" prints the table.
 */
#include <string.h>

#include "fd_pipe.h"
#include "fd_roll.h"
#include "fd_sim.h"
#include "fd_test.h"
#include "fd_well.h"

/* Rolls per case, made in reads of 1 to READ_MAX rolls. */
#define ROLLS		500000
#define READ_MAX	700

/* FNV-1a, 64 bits. */
static u64 hash_bytes(u64 h, const void *p, size_t n)
{
	const u8 *b = p;

	while (n--) {
		h ^= *b++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static u64 hash_u64(u64 h, u64 v)
{
	return hash_bytes(h, &v, sizeof(v));
}

/* The coin, and a well a reader fills its pipe from (driver/well.c). */
struct src {
	struct fd_sim sim;
	struct fd_well *well;
	struct fd_well_client client;
	u64 rng;
};

static int src_word(void *ctx, bool nonblock, u64 *w)
{
	struct src *s = ctx;

	(void)nonblock;
	*w = fd_sim_word(&s->sim);
	return 0;
}

static bool src_interrupted(void *ctx)
{
	(void)ctx;
	return false;
}

/* fairdie_well_fill() without its lock: chunks of 1..FD_WELL_CHUNK words. */
static int src_fill(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct src *s = ctx;
	u64 buf[FD_WELL_CHUNK];
	u32 k, i;
	int err;

	(void)nonblock;
	for (;;) {
		err = fd_well_begin(s->well, &s->client, 0);
		if (err)
			return err;
		if (fd_well_take(s->well, p))
			return 0;
		k = fd_well_words(s->well, p->want_bits);
		k = 1 + fd_test_below(&s->rng, k);
		for (i = 0; i < k; i++)
			buf[i] = fd_sim_word(&s->sim);
		err = fd_well_feed(s->well, buf, k);
		if (err) {
			p->failed = true;
			p->failure = s->well->pipe.failure;
			return err;
		}
	}
}

static const struct fd_source_ops file_ops = {
	.word = src_word,
	.interrupted = src_interrupted,
};

static const struct fd_source_ops well_ops = {
	.fill = src_fill,
};

struct golden {
	u32 ext;
	u64 sides;
	u64 p1_pct;
	bool well;
	u64 hash;
};

static struct fd_pipe rp;
static struct fd_peres peres;
static struct fd_well well;
static u8 out[READ_MAX * 8];

/* One case: its rolls and counters, hashed. */
static u64 run_case(const struct golden *g, u64 *rolls)
{
	struct src s = { .rng = 0x601d + g->sides + g->ext };
	const struct fd_source_ops *ops = g->well ? &well_ops : &file_ops;
	u32 width = fd_roll_width(g->sides), made, n;
	u64 h = 0xcbf29ce484222325ULL, v, done = 0;
	struct fd_pipe_counters c;
	int err = 0, kind = 0;

	fd_sim_init(&s.sim, 7 + g->p1_pct, g->p1_pct, 100);
	memset(&rp, 0, sizeof(rp));
	if (g->well) {
		fd_well_init(&well, g->ext,
			     g->ext == FAIRDIE_EXT_PERES ? &peres : NULL);
		fd_well_join(&well, &s.client, NULL);
		s.well = &well;
		fd_pipe_configure(&rp, g->sides, g->ext);
		fd_pipe_restart(&rp, 1, 2, false, false);
	} else {
		rp.peres = &peres;
		fd_pipe_configure(&rp, g->sides, g->ext);
		fd_pipe_restart(&rp, g->p1_pct, 100, true, true);
	}
	while (done < ROLLS && !err) {
		n = 1 + fd_test_below(&s.rng, READ_MAX);
		if (g->well)
			fd_pipe_set_demand(&rp, 8ULL * n * width);
		switch (kind++ % 3) {
		case 0:
			err = fd_pipe_fill(&rp, ops, &s, false, out, n,
					   &made);
			h = hash_bytes(h, out, (size_t)made * width);
			done += made;
			break;
		case 1:
			err = fd_pipe_roll(&rp, ops, &s, false, &v);
			h = hash_u64(h, v);
			done++;
			break;
		default:
			/* Runs of fair bits, where the die allows them. */
			if (rp.sampler.pow2_bits != 8 * width)
				continue;
			err = fd_pipe_fair64(&rp, ops, &s, false, &v);
			h = hash_u64(h, v);
			done += 8 / width;
			break;
		}
	}
	fd_pipe_counters(&rp, &c);
	h = hash_u64(h, err);
	h = hash_u64(h, c.source_bits);
	h = hash_u64(h, c.extracted_bits);
	h = hash_u64(h, c.sampler_bits);
	if (g->well) {
		h = hash_u64(h, well.pipe.source_bits);
		h = hash_u64(h, well.pipe.extracted_bits);
		h = hash_u64(h, well.pipe.pool.count);
	}
	*rolls = done;
	return h;
}

#define N	FAIRDIE_EXT_NONE
#define V	FAIRDIE_EXT_VN
#define P	FAIRDIE_EXT_PERES

/* Taken with the code of commit 271c2c3 ("pipe: drop fd_pipe_set_refill()'s leftovers"). */
static const struct golden record[] = {
	{ N, 6, 50, false, 0xe2df57edbaf3daedULL },
	{ N, 6, 50, true, 0xb52c1071a1fd3ed8ULL },
	{ N, 2, 50, true, 0x527e1178e5cd29c6ULL },
	{ N, 100, 50, true, 0xb25932eac6e6d175ULL },
	{ N, 256, 50, true, 0xe0fe26de7654c32bULL },
	{ N, 65536, 50, false, 0x0c9a450e8f31604fULL },
	{ N, 4294967291ULL, 50, true, 0x906ab824287b9dd9ULL },
	{ V, 6, 50, false, 0xe2bbd5b69ffa3624ULL },
	{ V, 6, 70, true, 0x2b7e2e0d5c240ae2ULL },
	{ V, 37, 90, true, 0x869c69226c428d7dULL },
	{ V, 256, 70, false, 0x059f3d63a7da53f4ULL },
	{ P, 6, 50, false, 0x9701cbb8146a2c0eULL },
	{ P, 6, 50, true, 0xa751ad7d8a9a4a5bULL },
	{ P, 6, 70, true, 0x2932bd421a624178ULL },
	{ P, 6, 90, true, 0x1635f79c398a737cULL },
	{ P, 100, 70, false, 0x6f9803a4428a9722ULL },
	{ P, 2, 90, true, 0x96becce7284890c3ULL },
	{ P, 256, 50, true, 0xb47aa8d7c32fe4e5ULL },
	{ P, 4294967291ULL, 70, true, 0xdc27fbce25e61bc1ULL },
};

int main(int argc, char **argv)
{
	bool print = argc > 1 && !strcmp(argv[1], "-p");
	unsigned int mode;

	/* Peres splits pairs with PEXT where it is fast, else with a table. */
	for (mode = 0; mode < 2 * ARRAY_SIZE(record); mode++) {
		const struct golden *g = &record[mode / 2];
		u64 rolls, h;

		fd_shim_pext = mode % 2 ? -1 : 0;
		if (mode % 2 && (print || !fd_fast_pext()))
			continue;
		h = run_case(g, &rolls);

		if (print) {
			printf("\t{ %c, %llu%s, %llu, %s, 0x%016llxULL },\n",
			       g->ext == N ? 'N' : g->ext == V ? 'V' : 'P',
			       (unsigned long long)g->sides,
			       g->sides > 0x7fffffff ? "ULL" : "",
			       (unsigned long long)g->p1_pct,
			       g->well ? "true" : "false",
			       (unsigned long long)h);
			continue;
		}
		CHECK(h == g->hash,
		      "extractor %u%s, d%llu, P(1) = %llu%%, %s: %llu rolls hash to %016llx, the record says %016llx",
		      g->ext, mode % 2 ? " (PEXT)" : "",
		      (unsigned long long)g->sides,
		      (unsigned long long)g->p1_pct,
		      g->well ? "a well's reader" : "a file's pipeline",
		      (unsigned long long)rolls, (unsigned long long)h,
		      (unsigned long long)g->hash);
	}
	return print ? 0 : fd_check_summary();
}
