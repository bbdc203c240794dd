/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the share and rate policy of the wells: who is served next,
 * and how much a user may receive.
 *
 * Shared by the module (driver/share.c, driver/well.c) and the userspace
 * tests and benchmarks under tools/: nothing here allocates, locks or
 * sleeps; the caller owns the state and its lock.
 */
#ifndef _FAIRDIE_SHARE_H
#define _FAIRDIE_SHARE_H

#include "fd_shim.h"

/**
 * struct fd_heap_node - a place in a struct fd_heap
 * @left: a child, or NULL
 * @right: the other
 * @parent: NULL at the root
 * @key: virtual time: the smallest is first
 * @seq: the order it came in, first of equal keys first
 */
struct fd_heap_node {
	struct fd_heap_node *left, *right, *parent;
	u64 key;
	u64 seq;
};

/**
 * struct fd_heap - a randomized meldable heap: insert, remove any node
 *	and find the first, each in O(log n) expected steps, with no
 *	allocation and no recursion
 * @root: the first node, or NULL
 * @rnd: the state of the coin that picks the side of each meld
 *	(xorshift32; independent of the keys)
 */
struct fd_heap {
	struct fd_heap_node *root;
	u32 rnd;
};

/**
 * struct fd_share_party - a party (a user in a cgroup) on one well
 * @node: its place in the well's heap of parties, while one of its
 *	readers waits and was not served since it came
 * @clients: those readers, by what they received
 * @vt: fair bits its readers received from the well, counted from about
 *	the well's clock when it started waiting
 * @clock: the @received of its readers when they were last served, from
 *	which one counts when it starts waiting
 * @in_heap: @node is in the well's heap
 * @taken_before: its readers took bits from the well before
 */
struct fd_share_party {
	struct fd_heap_node node;
	struct fd_heap clients;
	u64 vt;
	u64 clock;
	bool in_heap;
	bool taken_before;
};

void fd_heap_insert(struct fd_heap *h, struct fd_heap_node *x);
void fd_heap_remove(struct fd_heap *h, struct fd_heap_node *x);

/*
 * How far ahead of its rate a user may run, in ns: it may receive this
 * long's worth of its rate at once after a pause, and no more.
 */
#define FD_RATE_BURST_NS	50000000ULL

/**
 * struct fd_rate - a cap on the bits one user receives (user_rate)
 * @tat: when the bits it received so far are paid for at its rate (ns):
 *	the theoretical arrival time of the generic cell rate algorithm.
 *	It never runs more than FD_RATE_BURST_NS ahead of the clock once the
 *	user waits as fd_rate_wait() says, so nothing here overflows: every
 *	product is taken on 128 bits, every cost capped.
 */
struct fd_rate {
	u64 tat;
};

u32 fd_rate_allow(const struct fd_rate *r, u64 rate, u64 now);
u64 fd_rate_wait(const struct fd_rate *r, u64 rate, u32 bits, u64 now);
void fd_rate_charge(struct fd_rate *r, u64 rate, u64 bits, u64 now);

#endif /* _FAIRDIE_SHARE_H */
