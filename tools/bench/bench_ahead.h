/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - RDSEED fetched ahead on another CPU (a model).
 */
#ifndef _FAIRDIE_BENCH_AHEAD_H
#define _FAIRDIE_BENCH_AHEAD_H

#include "pipe.h"

int bench_ahead_start(int cpu);
void bench_ahead_set(bool on);
void bench_ahead_stop(void);
int bench_ahead_word(struct bench_src *src, u64 *w);
u64 bench_ahead_retries(void);

#endif
