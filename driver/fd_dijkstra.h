/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - Dijkstra's fair roulette from a biased coin.
 *
 * Rolls dice straight from biased raw bits, without a fair-bit stage.
 * See fd_dijkstra.c.
 */
#ifndef _FAIRDIE_DIJKSTRA_H
#define _FAIRDIE_DIJKSTRA_H

#include "fd_shim.h"
#include "fd_pool.h"

/* The largest prime a die's number of sides may have as a factor. */
#define FD_DIJKSTRA_MAX_PRIME	61
/* The most prime factors, with multiplicity, of a number below 2^64. */
#define FD_DIJKSTRA_MAX_FACTORS	63

/**
 * struct fd_dijkstra - a die rolled by Dijkstra's method, and a roll in
 *	progress
 * @sides: the number of sides
 * @acc: the digits rolled so far, in mixed radix
 * @factor: the prime factors of @sides, with multiplicity, smallest first
 * @nfactors: how many
 * @next: the factor to roll next; 0 when no roll is in progress
 */
struct fd_dijkstra {
	u64 sides;
	u64 acc;
	u8 factor[FD_DIJKSTRA_MAX_FACTORS];
	u8 nfactors;
	u8 next;
};

/**
 * fd_dijkstra_need() - raw bits the next step of a roll takes
 * @dj: the die
 *
 * Return: the prime being rolled now, or 0 when the roll needs no bits
 * (one-sided die). fd_dijkstra_roll() makes no progress unless the pool
 * holds at least this many.
 */
static inline unsigned int fd_dijkstra_need(const struct fd_dijkstra *dj)
{
	return dj->next < dj->nfactors ? dj->factor[dj->next] : 0;
}

bool fd_dijkstra_supported(u64 sides);
bool fd_dijkstra_init(struct fd_dijkstra *dj, u64 sides);
void fd_dijkstra_reset(struct fd_dijkstra *dj);
unsigned int fd_dijkstra_prime(u64 bits, unsigned int p);
bool fd_dijkstra_roll(struct fd_dijkstra *dj, struct fd_pool *raw, u64 *out);

#endif /* _FAIRDIE_DIJKSTRA_H */
