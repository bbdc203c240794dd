/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - a well: one pipeline of raw words shared by many readers.
 *
 *   raw words -> health tests -> extractor -> fair bits -> readers' pools
 *
 * Readers fetch raw words themselves when the well is dry, feed them in
 * and take about what they need; what is left serves the next reader, and
 * a reader that is done gives its unused bits back. The caller serialises
 * every call on one well with a lock of its own, and fetches words without
 * it (see driver/well.c for the module, tools/bench for userspace).
 */
#ifndef _FAIRDIE_WELL_H
#define _FAIRDIE_WELL_H

#include "fd_shim.h"
#include "fd_pipe.h"

/* Raw words a reader fetches at most before it feeds the well. */
#define FD_WELL_CHUNK		32

/**
 * struct fd_well - the shared pipeline
 * @pipe: health tests, start-up test, extractor and the fair bits made
 *	(raw bits that passed the tests, for DIJKSTRA)
 * @epoch: health failures so far; a reader that joined before the last
 *	one is failed
 * @generation: the caller's generation (a VM fork count) of the bits held
 * @started: the pipeline was set up (at first use)
 * @startup_bits: raw bits its start-up tests took so far
 */
struct fd_well {
	struct fd_pipe pipe;
	u64 startup_bits;
	u32 epoch;
	u32 generation;
	bool started;
};

/**
 * struct fd_well_client - what a reader of a well knows of it
 * @epoch: the well's health failures when the reader joined it
 * @generation: the generation of the bits it last took
 */
struct fd_well_client {
	u32 epoch;
	u32 generation;
};

void fd_well_init(struct fd_well *w, u32 extractor, struct fd_peres *peres);
void fd_well_join(struct fd_well *w, struct fd_well_client *c);
int fd_well_begin(struct fd_well *w, struct fd_well_client *c,
		  u32 generation);
u32 fd_well_words(const struct fd_well *w, u32 bits);
int fd_well_feed(struct fd_well *w, const u64 *words, u32 n);
u32 fd_well_take(struct fd_well *w, struct fd_pipe *p);
bool fd_well_giveback(struct fd_well *w, const struct fd_well_client *c,
		      u32 generation, struct fd_pipe *p);

#endif /* _FAIRDIE_WELL_H */
