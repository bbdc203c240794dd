/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - the read path of driver/main.c, built in userspace.
 *
 * The module's pipeline (raw word -> health tests -> extractor -> fd_pool ->
 * fd_sampler_roll() -> binary stage) lives in kernel-only code, so it is
 * repeated here call for call on the very same shared files (driver/fd_*.c,
 * compiled unchanged). Each function names its model in driver/main.c; keep
 * them in step when that file changes.
 */
#ifndef _FAIRDIE_BENCH_PIPE_H
#define _FAIRDIE_BENCH_PIPE_H

#include <linux/fairdie.h>

#include "fd_shim.h"
#include "fd_health.h"
#include "fd_peres.h"
#include "fd_pool.h"
#include "fd_sampler.h"
#include "fd_vn.h"

/*
 * FAIRDIE_REFILL_BITS and FAIRDIE_STAGE_BYTES of the module: the Makefile
 * reads them from driver/main.c and driver/fairdie.h; these are fallbacks.
 */
#ifndef BENCH_REFILL_BITS
#define BENCH_REFILL_BITS	2048
#endif
#ifndef BENCH_STAGE_BYTES
#define BENCH_STAGE_BYTES	512
#endif

/**
 * struct bench_src - a source of raw 64-bit words
 * @word: fetch one word; 0 or a negative errno
 * @tested: run the health tests on it (not for the kernel CRNG, a DRBG)
 * @retries: underflows retried so far (RDSEED)
 * @slow_words: words that took more retries than the module makes before
 *	it sleeps (FAIRDIE_HW_TRIES in driver/source.c)
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
 * @sides: number of faces
 * @extractor: FAIRDIE_EXT_NONE, _VN or _PERES
 * @width: bytes per roll in the binary format
 * @failed: the health tests failed
 * @startup_words: words still to test and discard before first use
 * @health: continuous health tests
 * @pool: fair bits out of the extractor
 * @sampler: the exact sampler
 * @peres: Peres' extractor state
 * @stage: output made but not yet copied out
 * @stage_pos: first byte of @stage not yet copied
 * @stage_len: bytes held in @stage
 * @stats: the counters of FAIRDIE_IOC_GET_STATS
 */
struct bench_pipe {
	struct bench_src *src;
	u64 sides;
	u32 extractor;
	u32 width;
	bool failed;
	u32 startup_words;
	struct fd_health health;
	struct fd_pool pool;
	struct fd_sampler sampler;
	struct fd_peres peres;
	u8 stage[BENCH_STAGE_BYTES];
	u32 stage_pos;
	u32 stage_len;
	struct fairdie_stats stats;
};

void bench_pipe_open(struct bench_pipe *f, struct bench_src *src, u64 sides,
		     u32 extractor);
long bench_pipe_read(struct bench_pipe *f, u8 *buf, size_t len);
u64 bench_pipe_sampler_bits(const struct bench_pipe *f);

#endif /* _FAIRDIE_BENCH_PIPE_H */
