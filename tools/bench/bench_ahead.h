/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - driver/ahead.c in userspace: RDSEED fetched ahead on
 * another CPU for the wells of bench_well.c.
 */
#ifndef _FAIRDIE_BENCH_AHEAD_H
#define _FAIRDIE_BENCH_AHEAD_H

#include "fd_shim.h"

int bench_ahead_start(int cpu);
void bench_ahead_set(bool on);
void bench_ahead_stop(void);
u64 bench_ahead_retries(void);
u64 bench_ahead_taken(void);

#endif
