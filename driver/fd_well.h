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
/*
 * How long the bits held for a reader that is not in a read (a nonblocking
 * one, gone back to userspace) wait for it before the next reader's turn
 * comes, in ns.
 */
#define FD_WELL_TURN_NS		5000000ULL
/*
 * Fair bits a reader that starts waiting again may count below the others:
 * what they took while it made its rolls between two reads is not lost to
 * it. A reader that never took bits starts this much above them instead, so
 * that a stream of new files cannot keep a waiting reader from its turn.
 */
#define FD_WELL_SLACK_BITS	512
#define FD_WELL_DEBIT_BITS	2048
/* A reader is served once the well holds this much of what it asks for. */
#define FD_WELL_BATCH_BITS	512

struct fd_well_client;

/**
 * struct fd_well - the shared pipeline
 * @pipe: health tests, start-up test, extractor and the fair bits made
 *	(raw bits that passed the tests, for DIJKSTRA)
 * @epoch: health failures so far; a reader that joined before the last
 *	one is failed
 * @generation: the caller's generation (a VM fork count) of the bits held
 * @started: the pipeline was set up (at first use)
 * @startup_bits: raw bits its start-up tests took so far
 * @head: the first reader waiting for bits, NULL if none
 * @tail: the last one
 * @demand: fair bits the waiting readers want, in all
 * @vclock: the @received of the readers when they were last served, from
 *	which a reader counts when it starts waiting
 */
struct fd_well {
	struct fd_pipe pipe;
	u64 startup_bits;
	u32 epoch;
	u32 generation;
	bool started;
	struct fd_well_client *head, *tail;
	u64 demand;
	u64 vclock;
};

/**
 * struct fd_well_client - what a reader of a well knows of it
 * @epoch: the well's health failures when the reader joined it
 * @generation: the generation (a VM fork count) its state was made in,
 *	moved by fd_well_flush() only: its bits, taken in that generation or
 *	later, go back to the well only while it is the current one
 * @next: the next reader waiting for bits
 * @pipe: while @present, the pipeline its bits go to
 * @notify: called (the well's lock held) when bits went to the reader
 *	while it is present, or wait for it while it is away; NULL if nothing
 *	is to be done
 * @received: fair bits it took from the well, counted from about the
 *	well's @vclock when it started waiting: the one that counts least is
 *	served first
 * @since: when it started waiting or last left a read (ns)
 * @want: fair bits it asked for when it started waiting
 * @queued: it waits for bits
 * @present: it takes bits (fd_well_enter() to fd_well_leave())
 * @served: bits went to @pipe while it was present
 * @notified: @notify was called while it was away
 * @took: bits went to it during its current read (fd_well_end_read())
 * @taken_before: it took bits from the well before (since it was opened)
 */
struct fd_well_client {
	u32 epoch;
	u32 generation;
	struct fd_well_client *next;
	struct fd_pipe *pipe;
	void (*notify)(struct fd_well_client *c);
	u64 received;
	u64 since;
	u32 want;
	bool queued;
	bool present;
	bool served;
	bool notified;
	bool took;
	bool taken_before;
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
bool fd_well_flush(struct fd_well *w, struct fd_well_client *c,
		   u32 generation, struct fd_pipe *p, u64 sides, u32 extractor);

void fd_well_enter(struct fd_well *w, struct fd_well_client *c,
		   struct fd_pipe *p, u64 now);
void fd_well_leave(struct fd_well_client *c, u64 now);
void fd_well_dequeue(struct fd_well *w, struct fd_well_client *c);
void fd_well_end_read(struct fd_well *w, struct fd_well_client *c);
u32 fd_well_serve(struct fd_well *w, u64 now);
bool fd_well_serve_early(struct fd_well *w, struct fd_well_client *c,
			 u64 now);
u32 fd_well_need(const struct fd_well *w);

#endif /* _FAIRDIE_WELL_H */
