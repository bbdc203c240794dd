/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the queue of a well: who is served next (driver/fd_queue.c).
 *
 * Shared by the module (driver/well.c) and the userspace tests and
 * benchmarks under tools/: nothing here allocates, locks or sleeps; the
 * caller holds the well's lock.
 */
#ifndef _FAIRDIE_QUEUE_H
#define _FAIRDIE_QUEUE_H

#include "fd_well.h"

void fd_well_enter(struct fd_well *w, struct fd_well_client *c,
		   struct fd_pipe *p, u64 now);
void fd_well_leave(struct fd_well *w, struct fd_well_client *c, u64 now);
void fd_well_dequeue(struct fd_well *w, struct fd_well_client *c);
void fd_well_end_read(struct fd_well *w, struct fd_well_client *c);
u32 fd_well_serve(struct fd_well *w, u64 now);
bool fd_well_serve_early(struct fd_well *w, struct fd_well_client *c,
			 u64 now);
bool fd_well_first(const struct fd_well *w, const struct fd_well_client *c);
u32 fd_well_need(const struct fd_well *w);
void fd_well_notify_all(struct fd_well *w);

#endif /* _FAIRDIE_QUEUE_H */
