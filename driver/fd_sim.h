/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the simulated biased coin (FAIRDIE_SRC_SIM).
 *
 * Bit i is 1 when the i-th output of splitmix64 seeded with the file's seed
 * is below floor(2^64 p1_num / p1_den), always 1 when p1_num == p1_den.
 * Deterministic, so that a configuration plus a seed reproduces its rolls.
 */
#ifndef _FAIRDIE_SIM_H
#define _FAIRDIE_SIM_H

#include "fd_shim.h"

/**
 * struct fd_sim - a simulated coin
 * @seed: the seed it restarts from
 * @state: splitmix64 state
 * @threshold: a bit is 1 when the generator's output is below this
 * @always_one: p1_num == p1_den
 */
struct fd_sim {
	u64 seed;
	u64 state;
	u64 threshold;
	bool always_one;
};

bool fd_sim_init(struct fd_sim *sim, u64 seed, u64 p1_num, u64 p1_den);
void fd_sim_restart(struct fd_sim *sim);
u64 fd_sim_word(struct fd_sim *sim);
u64 fd_splitmix64(u64 *state);

#endif /* _FAIRDIE_SIM_H */
