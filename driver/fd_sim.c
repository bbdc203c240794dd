// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the simulated biased coin.
 */

#include "fd_sim.h"

/**
 * fd_splitmix64() - the next output of splitmix64 (Steele, Lea, Flood 2014)
 * @state: the generator's state, advanced by one step
 *
 * Return: 64 pseudo-random bits.
 */
u64 fd_splitmix64(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/**
 * fd_sim_init() - set up a coin with P(1) = @p1_num / @p1_den
 * @sim: the coin
 * @seed: splitmix64 seed
 * @p1_num: numerator, at most @p1_den
 * @p1_den: denominator, at least 1
 *
 * Return: false, leaving @sim untouched, when the fraction is invalid.
 */
bool fd_sim_init(struct fd_sim *sim, u64 seed, u64 p1_num, u64 p1_den)
{
	u64 rem;

	if (!p1_den || p1_num > p1_den)
		return false;
	sim->seed = seed;
	sim->always_one = p1_num == p1_den;
	/* floor(2^64 num / den) < 2^64 since num < den here. */
	sim->threshold = sim->always_one ? 0 :
		(u64)fd_div128((fd_u128)p1_num << 64, p1_den, &rem);
	fd_sim_restart(sim);
	return true;
}

/**
 * fd_sim_restart() - restart the coin's stream from its seed
 * @sim: the coin
 */
void fd_sim_restart(struct fd_sim *sim)
{
	sim->state = sim->seed;
}

/**
 * fd_sim_word() - the next 64 flips of the coin
 * @sim: the coin
 *
 * Return: the flips, the first in bit 0.
 */
u64 fd_sim_word(struct fd_sim *sim)
{
	u64 w = 0;
	unsigned int i;

	if (sim->always_one) {
		/* Keep the generator moving as if each bit were drawn. */
		sim->state += 64 * 0x9e3779b97f4a7c15ULL;
		return ~0ULL;
	}
	for (i = 0; i < 64; i++)
		w |= (u64)(fd_splitmix64(&sim->state) < sim->threshold) << i;
	return w;
}
