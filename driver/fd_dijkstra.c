// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - Dijkstra's fair roulette from a biased coin.
 *
 * For a prime p, flip the coin p times. If all flips are equal, start
 * again. Otherwise the p cyclic rotations of the string are p distinct
 * strings (a string equal to one of its rotations other than itself is
 * periodic, and a period of a prime length p can only be 1), and they are
 * equally likely, having the same number of ones. Exactly one of them is
 * the lexicographically least; the number of places the flips must be
 * rotated to reach it is therefore uniform on [0, p). For p = 2 this is
 * von Neumann's trick: 01 gives 0, 10 gives 1.
 *
 * A die whose number of sides factors into primes up to 61 is rolled one
 * prime factor at a time; the digits are independent and uniform, and
 * d = ((d0 * p1 + d1) * p2 + d2) ... is uniform on [0, sides).
 *
 * Bit i of the flips is the i-th flip and the first character of the
 * string; rotating by k makes flip k the first character.
 */

#include "fd_dijkstra.h"

static const u8 fd_dijkstra_primes[] = {
	2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
};

/*
 * Factor @sides into @factor, smallest first, and their number into @n.
 * Return false when @sides is 0 or has a prime factor that is too large.
 */
static bool fd_dijkstra_factor(u64 sides, u8 *factor, unsigned int *n)
{
	unsigned int i;

	*n = 0;
	if (!sides)
		return false;
	for (i = 0; i < ARRAY_SIZE(fd_dijkstra_primes); i++) {
		u8 p = fd_dijkstra_primes[i];

		while (sides % p == 0) {
			factor[(*n)++] = p;
			sides /= p;
		}
	}
	return sides == 1;
}

/**
 * fd_dijkstra_supported() - whether a die can be rolled by Dijkstra's method
 * @sides: its number of sides
 *
 * Return: true when @sides is at least 1 and has no prime factor above
 * FD_DIJKSTRA_MAX_PRIME.
 */
bool fd_dijkstra_supported(u64 sides)
{
	u8 factor[FD_DIJKSTRA_MAX_FACTORS];
	unsigned int n;

	return fd_dijkstra_factor(sides, factor, &n);
}

/**
 * fd_dijkstra_init() - set up a die
 * @dj: the die
 * @sides: its number of sides
 *
 * Return: true on success; false, with @dj unchanged, when
 * fd_dijkstra_supported(@sides) is false.
 */
bool fd_dijkstra_init(struct fd_dijkstra *dj, u64 sides)
{
	u8 factor[FD_DIJKSTRA_MAX_FACTORS];
	unsigned int n;

	if (!fd_dijkstra_factor(sides, factor, &n))
		return false;
	dj->sides = sides;
	memcpy(dj->factor, factor, n);
	dj->nfactors = n;
	fd_dijkstra_reset(dj);
	return true;
}

/**
 * fd_dijkstra_reset() - drop a roll in progress
 * @dj: the die
 */
void fd_dijkstra_reset(struct fd_dijkstra *dj)
{
	dj->acc = 0;
	dj->next = 0;
}

/* @x, a string of @p bits, rotated by @k places, 0 < k < p. */
static inline u64 fd_rotate(u64 x, unsigned int k, unsigned int p)
{
	return (x >> k) | fd_low_bits(x << (p - k), p);
}

/*
 * Whether the string @a is lexicographically less than the string @b of the
 * same length (@a != @b): they first differ at the lowest differing bit.
 */
static inline bool fd_lex_less(u64 a, u64 b)
{
	u64 d = a ^ b;

	return !(a & d & -d);
}

/* The least rotation of @bits, trying each of the @p in turn. */
static unsigned int fd_least_by_rotating(u64 bits, unsigned int p)
{
	u64 r = bits, best = bits;
	unsigned int k, least = 0;

	for (k = 1; k < p; k++) {
		r = fd_rotate(r, 1, p);
		if (fd_lex_less(r, best)) {
			best = r;
			least = k;
		}
	}
	return least;
}

/*
 * The least rotation of @bits, from the few candidates: it begins with a
 * longest run of zeros. Keep the starts of runs of 2, 3, ... zeros while
 * there are any, then compare the rotations that begin at the survivors.
 */
static unsigned int fd_least_by_runs(u64 bits, unsigned int p)
{
	u64 start = ~bits & fd_low_bits(~0ULL, p), next, best = 0;
	unsigned int k, least = p;

	while ((next = start & fd_rotate(start, 1, p)))
		start = next;
	for (; start; start &= start - 1) {
		u64 r;

		k = fls64(start & -start) - 1;
		r = k ? fd_rotate(bits, k, p) : bits;
		if (least == p || fd_lex_less(r, best)) {
			best = r;
			least = k;
		}
	}
	return least;
}

/**
 * fd_dijkstra_prime() - one roll of a @p-sided die from @p flips
 * @bits: the flips, the first in bit 0; bits from @p up are ignored
 * @p: a prime, 2..FD_DIJKSTRA_MAX_PRIME
 *
 * Return: the rotation that makes @bits lexicographically least, uniform on
 * [0, @p) for any bias; @p when the flips are all equal and must be
 * discarded.
 */
unsigned int fd_dijkstra_prime(u64 bits, unsigned int p)
{
	u64 all = fd_low_bits(~0ULL, p);

	bits &= all;
	if (bits == 0 || bits == all)
		return p;
	/* Both give the same answer; each is the faster on its side of 16. */
	return p < 16 ? fd_least_by_rotating(bits, p) : fd_least_by_runs(bits, p);
}

/**
 * fd_dijkstra_roll() - roll a die, or make progress towards a roll
 * @dj: the die
 * @raw: the raw flips, taken as needed
 * @out: the roll, in [0, sides)
 *
 * A roll takes the prime factors of the die in turn, each from its number
 * of flips, retrying when they are all equal. When @raw runs short the
 * digits rolled so far stay in @dj and the next call goes on from there;
 * no flip is taken that is not used. Every step consumes flips, so a
 * stuck source empties @raw and ends in false rather than a busy loop.
 *
 * Return: true with *@out set when the roll is complete; false when @raw
 * holds fewer flips than the next step takes (fd_dijkstra_need()).
 */
bool fd_dijkstra_roll(struct fd_dijkstra *dj, struct fd_pool *raw, u64 *out)
{
	while (dj->next < dj->nfactors) {
		unsigned int p = dj->factor[dj->next], d;

		if (raw->count < p)
			return false;
		d = fd_dijkstra_prime(fd_pool_take(raw, p), p);
		if (d == p)
			continue;
		dj->acc = dj->acc * p + d;
		dj->next++;
	}
	*out = dj->acc;
	fd_dijkstra_reset(dj);
	return true;
}
