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
