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
#include "fd_share.h"

/* Raw words a reader fetches at most before it feeds the well. */
#define FD_WELL_CHUNK		32
/*
 * The most a reader away (a nonblocking one, gone back to userspace) holds
 * back the readers present, in ns: the bits wait for it this long, counted
 * from when it left or from when it first held the others back, whichever
 * is earlier; then it loses its place (driver/fd_share.c).
 */
#define FD_WELL_AWAY_NS		1000000ULL
/*
 * How long the bits of its turn wait for a reader still in its read, that
 * took bits in it and makes its rolls (not back in userspace), in ns: as
 * long as a woken reader may wait for a CPU on a busy machine.
 */
#define FD_WELL_ROLLS_NS	5000000ULL
/*
 * Fair bits a reader that starts waiting again may count below the other
 * readers of its party. Back within FD_WELL_RETURN_NS of its last turn, it
 * was kept away by the machine (a wake-up, a CPU taken by others, its
 * rolls and the system call between two reads): the turns it missed are
 * its, up to FD_WELL_LAG_BITS. Back later, it was idle, and keeps
 * FD_WELL_SLACK_BITS at most. A party (a user in a cgroup) that starts
 * waiting again keeps FD_WELL_SLACK_BITS at most below the other parties.
 * A reader or a party that never took bits starts FD_WELL_DEBIT_BITS above
 * the others instead, so that a stream of new files cannot keep a waiting
 * reader from its turn.
 */
#define FD_WELL_RETURN_NS	20000000ULL
#define FD_WELL_LAG_BITS	16384
#define FD_WELL_SLACK_BITS	512
#define FD_WELL_DEBIT_BITS	2048
/* A reader is served once the well holds this much of what it asks for. */
#define FD_WELL_BATCH_BITS	512

struct fd_well_client;

/**
 * struct fd_well - the shared pipeline, and its queue of readers
 * @pipe: health tests, start-up test, extractor and the fair bits made
 *	(raw bits that passed the tests, for DIJKSTRA)
 * @epoch: health failures so far; a reader that joined before the last
 *	one is failed
 * @generation: the caller's generation (a VM fork count) of the bits held
 * @started: the pipeline was set up (at first use)
 * @startup_bits: raw bits its start-up tests took so far
 * @parties: the parties with a reader waiting, by their @vt
 *	(driver/fd_share.c)
 * @anon: the party of readers that name none (the hwrng, tests)
 * @demand: fair bits the waiting readers want, in all
 * @vclock: the @vt of the parties when they were last served, from which
 *	a party counts when it starts waiting
 * @seq: how many entered a heap: the order of equals
 * @holding: the first reader is away, and holds the others back since
 *	@hold_start
 * @hold_start: see @holding (ns)
 * @hold_until: while @holding, when the reader away loses its place:
 *	serve again then (ns)
 */
struct fd_well {
	struct fd_pipe pipe;
	u64 startup_bits;
	u32 epoch;
	u32 generation;
	bool started;
	bool holding;
	struct fd_heap parties;
	struct fd_share_party anon;
	u64 demand;
	u64 vclock;
	u64 seq;
	u64 hold_start;
	u64 hold_until;
};

/**
 * struct fd_well_client - what a reader of a well knows of it
 * @epoch: the well's health failures when the reader joined it
 * @generation: the generation (a VM fork count) its state was made in,
 *	moved by fd_well_flush() only: its bits, taken in that generation or
 *	later, go back to the well only while it is the current one
 * @node: its place in its party's heap, while it waits and was not served
 * @party: its party on this well
 * @pipe: while @present, the pipeline its bits go to
 * @notify: called (the well's lock held) when bits went to the reader
 *	while it is present, or wait for it while it is away; NULL if nothing
 *	is to be done
 * @waiter: the task to wake when it is served (the caller's)
 * @wake_at: when a wait for its turn ends anyway (ns; 0 for never): the
 *	deadline of its read (the caller's)
 * @idle_next: the next reader asleep in the well, not fetching (the
 *	caller's list, driver/well.c)
 * @idle_pprev: what points at it in that list; NULL when not on it
 * @fetcher: it holds one of the well's places to fetch raw words (the
 *	caller's)
 * @dry_since: since when the source refused it every word (ns; 0 if it
 *	gave it the last one asked for; the caller's)
 * @received: fair bits it took from the well, counted from about its
 *	party's @clock when it started waiting: the one that counts least is
 *	served first within its party
 * @since: when it started waiting or last left a read (ns)
 * @served_at: when it was last served (ns)
 * @want: fair bits it asked for when it started waiting
 * @queued: it waits for bits (it may have been served and not be back)
 * @keeps_place: it keeps its place while away: @notify tells it when bits
 *	wait for it (the caller's)
 * @in_heap: it is in its party's heap: waiting, not served since it came
 * @present: it takes bits (fd_well_enter() to fd_well_leave())
 * @served: bits went to @pipe while it was present
 * @notified: @notify was called while it was away
 * @took: bits went to it during its current read (fd_well_end_read())
 * @taken_before: it took bits from the well before (since it joined)
 */
struct fd_well_client {
	u32 epoch;
	u32 generation;
	struct fd_heap_node node;
	struct fd_share_party *party;
	struct fd_pipe *pipe;
	void (*notify)(struct fd_well_client *c);
	void *waiter;
	u64 wake_at;
	struct fd_well_client *idle_next;
	struct fd_well_client **idle_pprev;
	u64 dry_since;
	bool fetcher;
	u64 received;
	u64 since;
	u64 served_at;
	u32 want;
	bool queued;
	bool keeps_place;
	bool in_heap;
	bool present;
	bool served;
	bool notified;
	bool took;
	bool taken_before;
};

void fd_well_init(struct fd_well *w, u32 extractor, struct fd_peres *peres);
void fd_well_join(struct fd_well *w, struct fd_well_client *c,
		  struct fd_share_party *party);
int fd_well_begin(struct fd_well *w, struct fd_well_client *c,
		  u32 generation);
u32 fd_well_words(const struct fd_well *w, u32 bits);
int fd_well_feed(struct fd_well *w, const u64 *words, u32 n);
u32 fd_well_take(struct fd_well *w, struct fd_pipe *p);
u32 fd_well_level(const struct fd_well *w);
bool fd_well_giveback(struct fd_well *w, const struct fd_well_client *c,
		      u32 generation, struct fd_pipe *p);
bool fd_well_flush(struct fd_well *w, struct fd_well_client *c,
		   u32 generation, struct fd_pipe *p, u64 sides, u32 extractor);

#endif /* _FAIRDIE_WELL_H */
