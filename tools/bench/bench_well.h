/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - a well of the module, built in userspace.
 *
 * driver/well.c with a pthread mutex where the module has its mutex: what
 * happens under the lock is driver/fd_well.c, compiled unchanged; the raw
 * words are fetched without the lock, FD_WELL_CHUNK at most, exactly as
 * fairdie_well_fill() does, so that readers on several CPUs run the
 * instruction side by side.
 */
#ifndef _FAIRDIE_BENCH_WELL_H
#define _FAIRDIE_BENCH_WELL_H

#include <pthread.h>

#include "fd_shim.h"
#include "fd_queue.h"

/**
 * struct bench_well - a well and its lock
 * @lock: serialises @well; never held while the source is asked
 * @wait: readers waiting for bits (the module's wait queue)
 * @well: the pipeline, its bits and its queue of readers
 * @peres: Peres' state, the well's own (used for FAIRDIE_EXT_PERES)
 */
struct bench_well {
	pthread_mutex_t lock;
	pthread_cond_t wait;
	struct fd_well well;
	struct fd_peres peres;
};

struct bench_well *bench_well_new(u32 extractor);
void bench_well_free(struct bench_well *w);
void bench_well_join(struct bench_well *w, struct fd_well_client *c);
/*
 * fairdie_ahead_take(): words fetched ahead on another CPU, taken first by
 * a well that fetches (bench_ahead.c sets it while its fetcher runs).
 */
extern u32 (*bench_well_ahead)(const bool *served, u64 *buf, u32 k);

int bench_well_fill(struct bench_well *w, struct fd_well_client *c,
		    const struct fd_source_ops *raw, void *ctx,
		    struct fd_pipe *p);
void bench_well_end_read(struct bench_well *w, struct fd_well_client *c);
void bench_well_giveback(struct bench_well *w, struct fd_well_client *c,
			 struct fd_pipe *p);

double bench_well_serve_ns(u32 readers, double secs);

#endif /* _FAIRDIE_BENCH_WELL_H */
