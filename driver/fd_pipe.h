/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the read pipeline of one open file.
 *
 *   raw words -> health tests -> extractor -> fair bits -> exact sampler
 *
 * (or straight from the raw bits to Dijkstra's roulette). The module runs it
 * for each open file; the benchmarks run the very same code in userspace on
 * the host's real RDSEED. Where the raw words come from is the caller's:
 * struct fd_source_ops.
 */
#ifndef _FAIRDIE_PIPE_H
#define _FAIRDIE_PIPE_H

#include <linux/fairdie.h>

#include "fd_shim.h"
#include "fd_dijkstra.h"
#include "fd_health.h"
#include "fd_peres.h"
#include "fd_pool.h"
#include "fd_roll.h"
#include "fd_sampler.h"
#include "fd_weights.h"

/* The number of extractors (kept out of the ABI, which may grow). */
#define FD_EXTRACTORS		(FAIRDIE_EXT_NONE + 1)

/*
 * Refill the pool up to this many bits at a time, to amortise the calls,
 * unless the caller sizes the refills to its requests (fd_pipe_set_demand()).
 */
#define FD_PIPE_REFILL_BITS	2048

/*
 * The most raw words an extractor may turn into nothing in a row before the
 * source is declared failed: a source that passes the health tests can still
 * starve an extractor (pairs 00 and 11 only, for von Neumann). For P(1) in
 * [1/20, 19/20] a word gives von Neumann nothing with probability at most
 * 0.905^32 < 0.041, so 64 words in a row have probability below 10^-88; a
 * Peres block (3072 words) always gives bits; a Dijkstra roll of any sides
 * needs at most 63 prime digits, each from a group of at most 61 bits that
 * is not constant with probability at least 0.095 per try.
 */
#define FD_PIPE_DRY_VN		64
#define FD_PIPE_DRY_PERES	(4 * FD_PERES_BLOCK_BITS / 64)
#define FD_PIPE_DRY_DIJKSTRA	4096

struct fd_pipe;

/**
 * struct fd_source_ops - where raw words come from
 * @word: 64 raw bits into *@word; 0, or a negative errno that ends the
 *	request (-EAGAIN, -EINTR, -EIO)
 * @interrupted: whether the caller must give way now (a pending signal)
 * @fill: if set, the bits are already tested and extracted elsewhere (a
 *	shared well): put at least one fair bit (raw bit for DIJKSTRA), about
 *	fd_pipe.want_bits, into the pipe's pool and count them; 0 or a
 *	negative errno as for @word, with fd_pipe.failed set on a health
 *	failure. @word and @interrupted are then unused.
 */
struct fd_source_ops {
	int (*word)(void *ctx, bool nonblock, u64 *word);
	bool (*interrupted)(void *ctx);
	int (*fill)(void *ctx, bool nonblock, struct fd_pipe *p);
};

/**
 * struct fd_pipe - the pipeline's state
 * @sides: number of faces (of the weighted die, when @weights is set)
 * @extractor: enum fairdie_extractor
 * @tested: run the health tests (not on the kernel CRNG, a DRBG)
 * @hw: a hardware source, judged against what @extractor tolerates
 * @well: the pipeline of a well (fd_well.c): it makes no rolls, its readers
 *	do
 * @failed: the health tests failed; @failure says which
 * @failure: the test that failed
 * @startup_words: words still to test and discard before first use
 * @dry_words: raw words in a row that gave no fair bit (no roll, for
 *	DIJKSTRA)
 * @want_bits: how many bits a refill aims at: what the reader needs, at
 *	most FD_PIPE_REFILL_BITS
 * @source_bits: raw bits taken from the source
 * @cost_rem: what a well's reader owes of a raw bit, over the well's fair
 *	bits made so far (fd_well_take())
 * @extracted_bits: fair bits out of the extractor
 * @health: continuous health tests of the raw bits
 * @pool: fair bits out of the extractor (raw bits for DIJKSTRA)
 * @sampler: the exact sampler
 * @peres: Peres' extractor state, owned by the caller (60 KiB, so a file
 *	allocates it only while it uses PERES); must be set before
 *	fd_pipe_configure() selects FAIRDIE_EXT_PERES, may be NULL otherwise
 * @dijkstra: Dijkstra's roulette
 * @weights: the weighted die the sampler draws from, owned by the caller;
 *	NULL for a fair die of @sides faces
 */
struct fd_pipe {
	u64 sides;
	u32 extractor;
	bool tested;
	bool hw;
	bool well;
	bool failed;
	enum fd_health_result failure;
	u32 startup_words;
	u32 dry_words;
	u32 want_bits;
	u64 source_bits;
	u64 cost_rem;
	u64 extracted_bits;
	struct fd_health health;
	struct fd_pool pool;
	struct fd_sampler sampler;
	struct fd_peres *peres;
	struct fd_dijkstra dijkstra;
	const struct fd_weights *weights;
};

/**
 * struct fd_pipe_counters - what a pipeline has consumed and made
 * @source_bits: raw bits taken from the source
 * @extracted_bits: fair bits out of the extractor
 * @sampler_bits: fair bits the sampler consumed
 */
struct fd_pipe_counters {
	u64 source_bits;
	u64 extracted_bits;
	u64 sampler_bits;
};

bool fd_pipe_supported(u64 sides, u32 extractor);
void fd_pipe_configure(struct fd_pipe *p, u64 sides, u32 extractor);
void fd_pipe_set_sides(struct fd_pipe *p, u64 sides);
void fd_pipe_set_weights(struct fd_pipe *p, const struct fd_weights *w);
void fd_pipe_restart(struct fd_pipe *p, u64 p1_num, u64 p1_den, bool tested,
		     bool check_words);
void fd_pipe_restart_hw(struct fd_pipe *p);
int fd_pipe_roll(struct fd_pipe *p, const struct fd_source_ops *ops,
		 void *ctx, bool nonblock, u64 *out);
int fd_pipe_fill(struct fd_pipe *p, const struct fd_source_ops *ops,
		 void *ctx, bool nonblock, u8 *dst, u32 count, u32 *made);
int fd_pipe_fair64(struct fd_pipe *p, const struct fd_source_ops *ops,
		   void *ctx, bool nonblock, u64 *out);
void fd_pipe_counters(const struct fd_pipe *p, struct fd_pipe_counters *c);
void fd_pipe_clear_counters(struct fd_pipe *p);
void fd_pipe_count_direct(struct fd_pipe *p, u64 bits);
void fd_pipe_set_demand(struct fd_pipe *p, u64 bits);
int fd_pipe_feed_words(struct fd_pipe *p, const u64 *words, u32 n);
u32 fd_pipe_take(struct fd_pipe *p, struct fd_pool *dst, u32 n);
u32 fd_pipe_giveback(struct fd_pipe *p, struct fd_pool *dst);

#endif /* _FAIRDIE_PIPE_H */
