/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - the read path of driver/main.c, built in userspace.
 *
 * The pipeline itself (raw word -> health tests -> extractor -> fd_pool ->
 * sampler) is the module's own shared code, driver/fd_pipe.c, compiled
 * unchanged. What is left here is the thin part of fairdie_read() that is
 * kernel-only: the binary stage and the copy out.
 */
#ifndef _FAIRDIE_BENCH_PIPE_H
#define _FAIRDIE_BENCH_PIPE_H

#include <linux/fairdie.h>

#include "fd_shim.h"
#include "fd_pipe.h"
#include "bench_well.h"

/*
 * FAIRDIE_STAGE_BYTES of the module: the Makefile reads it from
 * driver/fairdie.h; this is a fallback.
 */
#ifndef BENCH_STAGE_BYTES
#define BENCH_STAGE_BYTES	512
#endif

/**
 * struct bench_src - a source of raw 64-bit words
 * @word: fetch one word; 0 or a negative errno
 * @tested: run the health tests on it (not for the kernel CRNG, a DRBG)
 * @retries: underflows retried so far (RDSEED)
 * @slow_words: words that took more retries than the module makes before
 *	it sleeps (FD_HW_TRIES in driver/fd_retry.h)
 * @words: words delivered so far
 * @priv: for the source's own use
 */
struct bench_src {
	int (*word)(struct bench_src *src, u64 *w);
	bool tested;
	u64 retries;
	u64 slow_words;
	u64 words;
	void *priv;
};

/**
 * struct bench_pipe - one "open file": the fields of struct fairdie_file
 *	that the read path uses
 * @src: where raw words come from
 * @well: the well the file reads @src through, as the module reads RDSEED
 *	and RDRAND (shared by the files of that source and extractor), or
 *	NULL: the file's own pipeline, as for CRNG and SIM
 * @client: the file's record of @well
 * @width: bytes per roll in the binary format
 * @pipe: the module's pipeline, with its bit counters
 * @peres: the state of its Peres extractor, without a well
 * @outputs: rolls made
 * @stage: output made but not yet copied out
 * @stage_pos: first byte of @stage not yet copied
 * @stage_len: bytes held in @stage
 */
struct bench_pipe {
	struct bench_src *src;
	struct bench_well *well;
	struct fd_well_client client;
	u32 width;
	struct fd_pipe pipe;
	struct fd_peres peres;
	u64 outputs;
	u8 stage[BENCH_STAGE_BYTES];
	u32 stage_pos;
	u32 stage_len;
};

void bench_pipe_open(struct bench_pipe *f, struct bench_src *src, u64 sides,
		     u32 extractor, struct bench_well *well);
void bench_pipe_close(struct bench_pipe *f);
long bench_pipe_read(struct bench_pipe *f, u8 *buf, size_t len);
void bench_pipe_set_sides(struct bench_pipe *f, u64 sides);
void bench_pipe_set_weights(struct bench_pipe *f, const struct fd_weights *w);
u64 bench_pipe_sampler_bits(const struct bench_pipe *f);

#endif /* _FAIRDIE_BENCH_PIPE_H */
