// SPDX-License-Identifier: GPL-2.0
/*
 * Proof of fd_sampler_giveback() (driver/fd_sampler.c): the fair bits a
 * closing file hands back to its well.
 *
 * The state is uniform; each value it can hold is enumerated, and the bits
 * it gives back are collected. Exact means: among the values that give
 * back L bits, every string of L bits comes equally often.
 *
 *   range     Z on [0, M) for every M from 1 to 4096, and M near 2^64 and
 *             2^127 sampled along the branches (each branch is a range of Z)
 *   digits    the digits of a batch not handed out, and a dual die's second
 *             state, are given back too, each exactly
 *   room      a pool with less room than the bits takes a prefix, still
 *             exact; the state is reset whatever the room
 */
#include <string.h>

#include "fd_test.h"
#include "fd_pool.h"
#include "fd_sampler.h"

#define MAX_LEN	13

/* counts[L][s]: values that gave back the L-bit string s. */
static u64 counts[MAX_LEN + 1][1 << MAX_LEN];

/* Each length's strings are equally frequent. */
static bool uniform_by_length(void)
{
	unsigned int l;
	u64 s;

	for (l = 0; l <= MAX_LEN; l++)
		for (s = 1; s < (1ULL << l); s++)
			if (counts[l][s] != counts[l][0])
				return false;
	return true;
}

static u32 give(struct fd_sampler *s, struct fd_pool *p, u64 *bits)
{
	u32 n;

	fd_pool_clear(p);
	n = fd_sampler_giveback(s, p);
	*bits = n ? fd_pool_take(p, n > 64 ? 64 : n) : 0;
	return n;
}

static void test_range(void)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	u64 m, z, bits;
	u32 n;
	bool ok = true, reset = true;

	fd_sampler_init(&s, 6, true);
	for (m = 1; m <= 4096; m++) {
		memset(counts, 0, sizeof(counts));
		for (z = 0; z < m; z++) {
			s.z = z;
			s.m = m;
			n = give(&s, &pool, &bits);
			if (n > MAX_LEN) {
				ok = false;
				break;
			}
			counts[n][bits]++;
			reset &= s.z == 0 && s.m == 1;
		}
		ok &= uniform_by_length();
	}
	CHECK(ok, "range: every Z on [0, M), M <= 4096, gives uniform strings");
	CHECK(reset, "range: the state is reset after the giveback");
}

/*
 * Large M: the branches are ranges of Z, [0, 2^k1), [2^k1, 2^k1 + 2^k2)...
 * Z at the start of a branch gives the all-zero string of k bits, at its
 * end the all-one string: the length must be that of the branch.
 */
static void test_large(void)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	fd_u128 ms[] = { ((fd_u128)1 << 64) + 12345, ~(fd_u128)0 >> 1,
			 ((fd_u128)1 << 100) * 3 + 7, ~0ULL };
	unsigned int i, k, branches = 0;
	bool ok = true;
	u64 bits;

	fd_sampler_init(&s, 1000000007ULL * 1000000007ULL, true);
	for (i = 0; i < ARRAY_SIZE(ms); i++) {
		fd_u128 m = ms[i], base = 0;

		while (m - base >= 2) {
			fd_u128 left = m - base;

			k = left >> 64 ? 64 + fls64(left >> 64) - 1 :
			    fls64(left) - 1;
			s.z = base;
			s.m = m;
			ok &= give(&s, &pool, &bits) == k && !bits;
			s.z = base + ((fd_u128)1 << k) - 1;
			s.m = m;
			ok &= give(&s, &pool, &bits) == k &&
			      bits == (k >= 64 ? ~0ULL : (1ULL << k) - 1);
			base += (fd_u128)1 << k;
			branches++;
		}
		/* The last value, alone in its range, gives nothing. */
		if (base < m) {
			s.z = base;
			s.m = m;
			ok &= give(&s, &pool, &bits) == 0;
		}
	}
	CHECK(ok, "large: %u branches of 128-bit ranges have their length",
	      branches);
}

static void test_digits(void)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	u64 d, z2, first, bits;
	bool ok = true;
	u32 n;

	/* Two digits of a d6 batch: uniform on [0, 36). */
	fd_sampler_init(&s, 6, true);
	memset(counts, 0, sizeof(counts));
	for (d = 0; d < 36; d++) {
		s.z = 0;
		s.m = 1;
		s.digits = d;
		s.ndigits = 2;
		n = give(&s, &pool, &bits);
		ok &= n <= MAX_LEN && !s.ndigits;
		if (n <= MAX_LEN)
			counts[n][bits]++;
	}
	CHECK(ok && uniform_by_length() && counts[5][0] == 1 &&
	      counts[2][0] == 1, "digits: a batch's 2 digits give 5 or 2 bits, exactly");

	/* Z and Z2 together: the strings are the concatenations. */
	memset(counts, 0, sizeof(counts));
	for (d = 0; d < 12; d++) {
		for (z2 = 0; z2 < 20; z2++) {
			s.z = d;
			s.m = 12;
			s.z2 = z2;
			s.m2 = 20;
			s.ndigits = 0;
			fd_pool_clear(&pool);
			n = fd_sampler_giveback(&s, &pool);
			first = n ? fd_pool_take(&pool, n) : 0;
			ok &= n <= MAX_LEN && s.m2 == 1;
			if (n > MAX_LEN)
				break;
			counts[n][first]++;
		}
	}
	CHECK(ok && uniform_by_length(), "dual: both states give back, exactly");
}

static void test_room(void)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	unsigned int i;
	bool ok = true;
	u64 z, bits;
	u32 n;

	fd_sampler_init(&s, 6, true);
	memset(counts, 0, sizeof(counts));
	for (z = 0; z < 1000; z++) {
		fd_pool_clear(&pool);
		/* Leave 3 bits of room. */
		for (i = 0; i < FD_POOL_BITS / 64; i++)
			fd_pool_put(&pool, 0, 64);
		fd_pool_take(&pool, 3);
		s.z = z;
		s.m = 1000;
		n = fd_sampler_giveback(&s, &pool);
		ok &= n <= 3 && s.m == 1 && fd_pool_room(&pool) == 3 - n;
		for (i = 0; i < FD_POOL_BITS / 64 - 1; i++)
			fd_pool_take(&pool, 64);
		fd_pool_take(&pool, 61);
		bits = n ? fd_pool_take(&pool, n) : 0;
		counts[n][bits]++;
	}
	CHECK(ok && uniform_by_length(), "room: a prefix that fits is exact, the state reset");
}

int main(void)
{
	test_range();
	test_large();
	test_digits();
	test_room();
	return fd_check_summary();
}
