// SPDX-License-Identifier: GPL-2.0
/*
 * Proof by enumeration that driver/fd_dijkstra.c rolls exactly fair dice
 * from a biased coin, and checks of its resumable interface.
 *
 * The bias stays symbolic: a string of t flips with k ones has probability
 * p^k (1-p)^(t-k), so the probability of an event is the polynomial
 * sum_k c_k p^k (1-p)^(t-k), c_k counting its strings with k ones. Two
 * events are equally likely for every p iff their vectors (c_k) are equal.
 *
 *   prime       every string of p flips, p prime <= 23: all-equal strings
 *               rejected, each face reached by the same vector; and the
 *               rotation minimum equals a plain reference
 *   rotation    p prime <= 61, many strings: rotating the flips by one
 *               place turns the face k into k - 1 mod p
 *   composite   every string of NBITS flips through the resumable
 *               interface: for each number of flips a roll took, all
 *               faces have the same vector; feeding the flips in small
 *               pieces gives the same rolls
 *   big         dice up to 2^64 - 1 sides against a reference
 *   refuse      sides with a prime factor above 61 (or 0) are refused
 *   no spin     a stuck coin empties the pool and ends in false
 *
 * Usage: test_dijkstra [NBITS]   (default 20)
 */
#include <stdio.h>
#include <stdlib.h>

#include "fd_dijkstra.h"

static unsigned int passed, failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			passed++;					\
		} else {						\
			failed++;					\
			if (failed <= 20) {				\
				printf("# FAIL %s:%d: ", __FILE__, __LINE__); \
				printf(__VA_ARGS__);			\
				printf("\n");				\
			}						\
		}							\
	} while (0)

static const unsigned int primes[] = {
	2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61,
};

static u64 sm_state;

static u64 splitmix64(void)
{
	u64 z = (sm_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* @n (<= 64) flips with P(1) = num / 16, the first in bit 0. */
static u64 coin(unsigned int n, unsigned int num)
{
	u64 w = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		w |= (u64)((splitmix64() >> 60) < num) << i;
	return w;
}

/*
 * The reference: flip i is character i; compare all rotations as strings,
 * character by character.
 */
static unsigned int ref_prime(u64 bits, unsigned int p)
{
	unsigned int k, best = 0, i, ones = __builtin_popcountll(fd_low_bits(bits, p));

	if (ones == 0 || ones == p)
		return p;
	for (k = 1; k < p; k++)
		for (i = 0; i < p; i++) {
			unsigned int a = (bits >> ((k + i) % p)) & 1;
			unsigned int b = (bits >> ((best + i) % p)) & 1;

			if (a != b) {
				if (a < b)
					best = k;
				break;
			}
		}
	return best;
}

/* ---- prime: every string ---- */

static void prime_exhaustive(unsigned int p)
{
	static u64 cnt[23][24];		/* [face][ones] */
	unsigned int j, k, rejected_bad = 0, range_bad = 0, ref_bad = 0, vec_bad = 0;
	u64 x, all = fd_low_bits(~0ULL, p);

	memset(cnt, 0, sizeof(cnt));
	for (x = 0; x <= all; x++) {
		unsigned int d = fd_dijkstra_prime(x, p);
		unsigned int ones = __builtin_popcountll(x);

		if (x == 0 || x == all) {
			rejected_bad += d != p;
			continue;
		}
		if (d >= p) {
			range_bad++;
			continue;
		}
		cnt[d][ones]++;
		/* the plain reference costs p^2: every string up to 17 */
		if (p <= 17 || x % 61 == 0)
			ref_bad += d != ref_prime(x, p);
	}
	for (k = 1; k < p; k++)
		for (j = 0; j < p; j++)
			vec_bad += cnt[j][k] != cnt[0][k] || cnt[j][k] * p == 0;
	/* and a face with ones count k is reached C(p, k) / p times */
	CHECK(!rejected_bad && !range_bad, "p=%u: %u all-equal strings kept, %u faces out of range",
	      p, rejected_bad, range_bad);
	CHECK(!vec_bad, "p=%u: %u (face, ones) counts differ from face 0's", p, vec_bad);
	CHECK(!ref_bad, "p=%u: %u strings differ from the reference", p, ref_bad);
	/* exact counts: C(p,1) / p = 1 string with one 1 per face */
	CHECK(cnt[p - 1][1] == 1 && cnt[0][p - 1] == 1, "p=%u: one-one strings per face", p);
}

/* ---- rotation ---- */

static u64 rot1(u64 x, unsigned int p)
{
	return (x >> 1) | ((x & 1) << (p - 1));
}

static void rotation(unsigned int p, unsigned int n)
{
	unsigned int i, j, bad = 0, ref_bad = 0, seen_bad = 0;
	u64 all = fd_low_bits(~0ULL, p);

	for (i = 0; i < n; i++) {
		/* fair, biased, very biased, and a few structured strings */
		static const unsigned int nums[] = { 8, 2, 14, 1, 15, 5 };
		u64 x = coin(p, nums[i % ARRAY_SIZE(nums)]);
		unsigned int d;

		switch (i % 97) {
		case 0:
			x = 1;			/* a single one */
			break;
		case 1:
			x = all & ~1ULL;	/* a single zero */
			break;
		case 2:
			x = 0x5555555555555555ULL & all;	/* 1010...1 */
			break;
		case 3:
			x = 0x9249249249249249ULL & all;	/* 100100... */
			break;
		}
		d = fd_dijkstra_prime(x, p);
		if (x == 0 || x == all) {
			bad += d != p;
			continue;
		}
		if (i % 16 == 0)
			ref_bad += d != ref_prime(x, p);
		/* the whole orbit: face k for the rotation by k of the least */
		for (j = 0; j < p; j++) {
			unsigned int e = fd_dijkstra_prime(rot1(x, p), p);

			bad += e != (d + p - 1) % p;
			/* bits above p are ignored */
			seen_bad += fd_dijkstra_prime(x | ~all, p) != d;
			x = rot1(x, p);
			d = e;
		}
	}
	CHECK(!bad && !seen_bad, "p=%u: %u rotations broke the shift rule, %u saw high bits",
	      p, bad, seen_bad);
	CHECK(!ref_bad, "p=%u: %u strings differ from the reference", p, ref_bad);
}

/* ---- composite: every string, through the pool ---- */

/* Put the @n low bits of @x into an empty pool. */
static void fill(struct fd_pool *pool, u64 x, unsigned int n)
{
	fd_pool_clear(pool);
	fd_pool_put(pool, x, n);
}

/*
 * Every string of @nbits flips: roll once (and, if it completes, once more)
 * with all flips in the pool. For each number t of flips the first roll took,
 * each face must have the same vector over the number of ones among those t
 * flips; likewise for the pair of the first two rolls. Then the same
 * strings fed a few flips at a time must give the same rolls.
 */
static void composite(u64 sides, unsigned int nbits)
{
	const unsigned int maxf = 64;	/* faces tallied: sides or sides^2 <= 64 */
	bool pairs = sides * sides <= maxf;
	u64 *cnt1 = calloc((size_t)(nbits + 1) * maxf * (nbits + 1), sizeof(u64));
	u64 *cnt2 = calloc((size_t)(nbits + 1) * maxf * (nbits + 1), sizeof(u64));
	unsigned int rolls1 = 0, range_bad = 0, stall_bad = 0, piece_bad = 0, vec_bad = 0;
	struct fd_pool *pool = malloc(sizeof(*pool));
	struct fd_dijkstra dj;
	u64 x, t, f, k;

#define CNT(c, t, f, k) ((c)[((u64)(t) * maxf + (f)) * (nbits + 1) + (k)])
	if (!cnt1 || !cnt2 || !pool || !fd_dijkstra_init(&dj, sides)) {
		CHECK(0, "sides=%llu: setup", (unsigned long long)sides);
		return;
	}
	for (x = 0; x < (1ULL << nbits); x++) {
		unsigned int t1, t2, c, left;
		u64 r1 = 0, r2 = 0, r = 0;
		bool done1, done;

		fill(pool, x, nbits);
		done1 = fd_dijkstra_roll(&dj, pool, &r1);
		t1 = nbits - pool->count;
		if (!done1) {
			/* short: nothing that could be used is left behind */
			stall_bad += pool->count >= fd_dijkstra_need(&dj);
		} else {
			range_bad += r1 >= sides;
			rolls1++;
			if (sides <= maxf && r1 < sides)
				CNT(cnt1, t1, r1, __builtin_popcountll(fd_low_bits(x, t1)))++;
			if (pairs && fd_dijkstra_roll(&dj, pool, &r2)) {
				t2 = nbits - pool->count;
				range_bad += r2 >= sides;
				if (r1 < sides && r2 < sides)
					CNT(cnt2, t2, r1 * sides + r2,
					    __builtin_popcountll(fd_low_bits(x, t2)))++;
			}
		}
		fd_dijkstra_reset(&dj);

		/* the same flips, c at a time: the same roll from the same flips */
		c = 1 + x % 7;
		fd_pool_clear(pool);
		for (left = nbits; ; left -= c) {
			done = fd_dijkstra_roll(&dj, pool, &r);
			if (done || !left)
				break;
			if (c > left)
				c = left;
			fd_pool_put(pool, x >> (nbits - left), c);
		}
		piece_bad += done != done1 || r != r1 || nbits - left - pool->count != t1;
		fd_dijkstra_reset(&dj);
	}
	if (sides <= maxf)
		for (t = 0; t <= nbits; t++)
			for (k = 0; k <= t; k++)
				for (f = 1; f < sides; f++)
					vec_bad += CNT(cnt1, t, f, k) != CNT(cnt1, t, 0, k);
	if (pairs)
		for (t = 0; t <= nbits; t++)
			for (k = 0; k <= t; k++)
				for (f = 1; f < sides * sides; f++)
					vec_bad += CNT(cnt2, t, f, k) != CNT(cnt2, t, 0, k);
#undef CNT
	CHECK(!range_bad && !stall_bad && !vec_bad,
	      "sides=%llu: %u out of range, %u stalls with flips left, %u vectors differ",
	      (unsigned long long)sides, range_bad, stall_bad, vec_bad);
	CHECK(!piece_bad, "sides=%llu: %u strings rolled differently when fed piecemeal",
	      (unsigned long long)sides, piece_bad);
	/* a die that 20 flips can roll must roll on some of them */
	if (sides <= maxf)
		CHECK(rolls1 > 0, "sides=%llu: never rolled", (unsigned long long)sides);
	free(cnt1);
	free(cnt2);
	free(pool);
}

/* ---- big dice against the reference ---- */

static void big(u64 sides, unsigned int rolls)
{
	struct fd_pool *pool = malloc(sizeof(*pool));
	unsigned int i, j, bad = 0, nf = 0;
	unsigned int factor[64];
	struct fd_dijkstra dj;
	u64 s = sides;

	for (i = 0; i < ARRAY_SIZE(primes); i++)
		while (s % primes[i] == 0) {
			factor[nf++] = primes[i];
			s /= primes[i];
		}
	if (!pool || s != 1 || !fd_dijkstra_init(&dj, sides)) {
		CHECK(0, "sides=%llu: setup", (unsigned long long)sides);
		return;
	}
	fd_pool_clear(pool);
	for (i = 0; i < rolls; i++) {
		unsigned int num = 1 + i % 15;
		u64 got = 0, want = 0, before;
		struct fd_pool part;
		bool ok;

		/* the reference, on a copy of the flips it will see */
		while (fd_pool_room(pool) >= 64)
			fd_pool_put(pool, coin(64, num), 64);
		{
			struct fd_pool copy = *pool;

			for (j = 0; j < nf; j++) {
				unsigned int d = 0;

				do {
					if (copy.count < factor[j])
						break;
					d = ref_prime(fd_pool_take(&copy, factor[j]), factor[j]);
				} while (d == factor[j]);
				want = want * factor[j] + d;
			}
			before = copy.count;
		}
		switch (i % 3) {
		case 0:		/* all flips at hand */
			ok = fd_dijkstra_roll(&dj, pool, &got);
			break;
		case 1:		/* a partial roll, dropped by a reset */
			part = *pool;
			part.count = 40;
			fd_dijkstra_roll(&dj, &part, &got);
			fd_dijkstra_reset(&dj);
			ok = fd_dijkstra_roll(&dj, pool, &got);
			break;
		default:	/* 37 flips at a time */
			fd_pool_clear(&part);
			while (!(ok = fd_dijkstra_roll(&dj, &part, &got)) && pool->count >= 37)
				fd_pool_put(&part, fd_pool_take(pool, 37), 37);
			/* as if the flips left in part had stayed in the pool */
			ok = ok && pool->count + part.count == before;
			fd_pool_clear(pool);	/* refilled next time */
			break;
		}
		if (!ok || got != want || got >= sides || (i % 3 != 2 && pool->count != before))
			bad++;
	}
	CHECK(!bad, "sides=%llu: %u of %u rolls differ from the reference",
	      (unsigned long long)sides, bad, rolls);
	free(pool);
}

/* ---- refuse, no spin ---- */

static void refuse(void)
{
	static const u64 no[] = {
		0, 67, 2 * 67, 71 * 61, 641, 0xffffffffffffffffULL /* 3.5.17.257... */,
		18446744073709551557ULL /* prime */, 4294967291ULL /* prime */,
	};
	static const u64 yes[] = {
		1, 2, 61, 64, 1ULL << 63, 12157665459056928801ULL /* 3^40 */,
		614889782588491410ULL /* 2.3.5...47 */, 713342911662882601ULL /* 61^10 */,
		2 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29ULL * 31 * 37 * 41 * 43 * 47,
		53ULL * 59 * 61 * 53 * 59 * 61 * 53 * 59 * 61,
	};
	struct fd_dijkstra dj, before;
	unsigned int i;

	memset(&dj, 0x5a, sizeof(dj));
	for (i = 0; i < ARRAY_SIZE(no); i++) {
		before = dj;
		CHECK(!fd_dijkstra_supported(no[i]) && !fd_dijkstra_init(&dj, no[i]) &&
		      !memcmp(&dj, &before, sizeof(dj)),
		      "sides=%llu accepted or changed the die", (unsigned long long)no[i]);
	}
	for (i = 0; i < ARRAY_SIZE(yes); i++)
		CHECK(fd_dijkstra_supported(yes[i]) && fd_dijkstra_init(&dj, yes[i]) &&
		      dj.sides == yes[i],
		      "sides=%llu refused", (unsigned long long)yes[i]);
}

static void no_spin(void)
{
	struct fd_pool *pool = malloc(sizeof(*pool));
	struct fd_dijkstra dj;
	unsigned int i;
	u64 r = 12345;

	/* a one-sided die takes no flips */
	fd_pool_clear(pool);
	CHECK(fd_dijkstra_init(&dj, 1) && fd_dijkstra_need(&dj) == 0 &&
	      fd_dijkstra_roll(&dj, pool, &r) && r == 0, "sides=1: no roll of 0");
	fd_pool_put(pool, 0xff, 8);
	CHECK(fd_dijkstra_roll(&dj, pool, &r) && r == 0 && pool->count == 8,
	      "sides=1: flips taken");

	/* an empty pool, a short pool */
	fd_dijkstra_init(&dj, 61);
	fd_pool_clear(pool);
	CHECK(!fd_dijkstra_roll(&dj, pool, &r), "empty pool rolled");
	fd_pool_put(pool, 0x123456789ULL, 60);
	CHECK(!fd_dijkstra_roll(&dj, pool, &r) && pool->count == 60,
	      "60 flips taken for a 61-sided die");

	/* a stuck coin: every flip used up, then false */
	for (i = 0; i < 3; i++) {
		static const u64 sides[] = { 61, 6, 1ULL << 63 };

		fd_dijkstra_init(&dj, sides[i]);
		fd_pool_clear(pool);
		while (fd_pool_room(pool) >= 64)
			fd_pool_put(pool, i == 1 ? ~0ULL : 0, 64);
		CHECK(!fd_dijkstra_roll(&dj, pool, &r) && pool->count < fd_dijkstra_need(&dj),
		      "stuck coin, sides=%llu: %u flips left", (unsigned long long)sides[i],
		      pool->count);
	}
	free(pool);
}

int main(int argc, char **argv)
{
	static const u64 small[] = { 2, 3, 4, 5, 6, 7, 8, 12, 30, 36, 64, 210, 1ULL << 63,
				     12157665459056928801ULL, 614889782588491410ULL };
	static const u64 bigs[] = { 6, 1ULL << 63, 12157665459056928801ULL,
				    614889782588491410ULL, 713342911662882601ULL,
				    53ULL * 59 * 61 * 53 * 59 * 61 * 53 * 59 * 61 };
	unsigned int nbits = argc > 1 ? atoi(argv[1]) : 20, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (nbits < 8 || nbits > 26) {
		fprintf(stderr, "usage: %s [NBITS]  (8..26, default 20)\n", argv[0]);
		return 2;
	}
	sm_state = 0xd1ce;

	for (i = 0; i < ARRAY_SIZE(primes) && primes[i] <= 23; i++)
		prime_exhaustive(primes[i]);
	printf("# prime: every string of p flips, p <= 23\n");
	for (i = 0; i < ARRAY_SIZE(primes); i++)
		rotation(primes[i], 3000);
	printf("# rotation: p <= 61, 3000 orbits each\n");
	for (i = 0; i < ARRAY_SIZE(small); i++)
		composite(small[i], nbits);
	printf("# composite: every string of %u flips\n", nbits);
	for (i = 0; i < ARRAY_SIZE(bigs); i++)
		big(bigs[i], 300);
	refuse();
	no_spin();

	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
