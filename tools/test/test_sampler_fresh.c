// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs that the sampler (driver/fd_sampler.c) is exact: the fresh sampler (the Fast Dice Roller), powers of two, and whole strings in the pool.
 * The enumeration engine and its method are in sampler_enum.c.
 *
 *   fresh       without recycling (the Fast Dice Roller), every n in 3..300
 *               that is not a power of two: exact at every depth (cycle
 *               found), and the per-face mass at depth d equals bit d of
 *               1/n at every depth, i.e. the Knuth-Yao tree, so the
 *               expected cost is the Knuth-Yao optimum; computed as an
 *               exact rational where the period allows (11/3 for n = 6,
 *               8/3 for n = 3)
 *   chunked     the same with whole strings put in the pool at once (the
 *               read path takes many bits per call): all strings of 14 bits
 *               for n <= 300 and of 20 bits for a few n; three rolls with
 *               recycling for small n and precisions
 *   pow2        n = 1 and n = 2^k, k = 1..63, are plain runs of k bits
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_test.h"
#include "sampler_enum.h"

static u64 rng = 0x5a3;

/* ------------------------------------------------------------------ */
/* Fresh sampler (Fast Dice Roller)                                    */

#define FRESH_MAX	300
#define FRESH_DEPTH	700

static void test_fresh_small(void)
{
	static u8 ky[FRESH_DEPTH + 1];
	unsigned int proven = 0, bad_ky = 0, n, maxcycle = 0, rat = 0;
	unsigned long calls = 0;
	double t0 = fd_test_now();

	for (n = 3; n <= FRESH_MAX; n++) {
		struct cfg c = {
			.n = n, .recycle = false, .rolls = 1,
			.max_depth = FRESH_DEPTH, .max_states = 1 << 20,
			.find_cycle = true,
		};
		unsigned int d, j, T;
		fd_u128 trunc_dp = 0, trunc_ky = 0, num, den;
		u64 *cseq;
		struct dp dp;
		bool ok = true;

		if (is_pow2(n))
			continue;
		dp_run(&dp, &c);
		calls += dp.calls;
		CHECK(dp.ok, "fresh n = %u: %s", n, dp.why);
		if (!CHECK(dp.cycle_to, "fresh n = %u: no cycle within depth %u", n,
			   dp.depth)) {
			free(dp.per_face);
			continue;
		}
		proven++;
		j = dp.cycle_from;
		T = dp.cycle_to - dp.cycle_from;
		if (dp.cycle_to > maxcycle)
			maxcycle = dp.cycle_to;
		/*
		 * The per-face mass at depth d, extended periodically, against
		 * the bits of 1/n, eventually periodic with period <= n: equal
		 * up to j + a + T n means equal at every depth.
		 */
		ky_bits(n, ky, FRESH_DEPTH);
		cseq = calloc(FRESH_DEPTH + 1, sizeof(*cseq));
		for (d = 1; d <= FRESH_DEPTH; d++) {
			u64 cd = dp_face(&dp, 0, d <= dp.cycle_to ? d :
					 j + 1 + (d - j - 1) % T);

			cseq[d] = cd;
			ok &= cd == ky[d];
		}
		{
			/* Beyond FRESH_DEPTH: both are periodic, compare far. */
			fd_u128 r = 1;
			unsigned long dd;

			for (dd = 1; dd <= (unsigned long)j + n + (unsigned long)T * n; dd++) {
				unsigned int kb;

				r <<= 1;
				kb = r >= n;
				if (kb)
					r -= n;
				if (dd > FRESH_DEPTH) {
					unsigned long e2 = j + 1 + (dd - j - 1) % T;

					ok &= dp_face(&dp, 0, e2) == kb;
				}
			}
		}
		bad_ky += !ok;
		CHECK(ok, "fresh n = %u: stopping masses differ from the Knuth-Yao tree", n);
		/* Truncated expected cost at depth 100, exact: the same. */
		for (d = 1; d <= 100; d++) {
			trunc_dp += (fd_u128)d * n * cseq[d] << (100 - d);
			trunc_ky += (fd_u128)d * n * ky[d] << (100 - d);
		}
		CHECK(trunc_dp == trunc_ky, "fresh n = %u: truncated cost differs", n);
		if (expected_cost(n, cseq, j, T, &num, &den)) {
			long double e = 0;

			rat++;
			for (d = 1; d <= FRESH_DEPTH; d++)
				e += (long double)d * n * ky[d] / powl(2, d);
			CHECK(fabsl((long double)num / den - e) < 1e-12,
			      "fresh n = %u: exact cost differs from the Knuth-Yao sum", n);
			if (n == 3)
				CHECK(num == 8 && den == 3, "n = 3: cost not 8/3");
			if (n == 6)
				CHECK(num == 11 && den == 3, "n = 6: cost not 11/3");
			if (n <= 7 || n == 10 || n == 12) {
				char a[48], b[48];

				print128(a, num);
				print128(b, den);
				NOTE("fresh: n = %u costs exactly %s/%s = %.6f fair bits (Knuth-Yao)",
				     n, a, b, (double)num / den);
			}
		}
		free(cseq);
		free(dp.per_face);
	}
	NOTE("fresh: %u values of n in 3..%u proven exact and Knuth-Yao optimal at every depth (cycles up to depth %u), %u exact costs, %lu transitions, %.1f cpu s",
	     proven, FRESH_MAX, maxcycle, rat, calls, fd_test_now() - t0);
	CHECK(!bad_ky, "fresh: %u n differ from Knuth-Yao", bad_ky);
}

/* n = 1 and powers of two: no state, a plain run of bits. */
static void test_pow2(void)
{
	unsigned int k, i, bad = 0;
	struct fd_sampler s;
	u64 out;

	fd_sampler_init(&s, 1, true);
	fd_pool_clear(&bitpool);
	CHECK(fd_sampler_roll(&s, &bitpool, &out) && out == 0 && !s.bits,
	      "n = 1 rolls 0 from nothing");
	CHECK(fd_sampler_try(&s, &out) && out == 0, "n = 1: try rolls 0");
	for (k = 1; k <= 63; k++) {
		u64 n = 1ULL << k;
		int r;

		for (r = 0; r < 2; r++) {
			fd_sampler_init(&s, n, r);
			/* k - 1 bits: nothing taken, no roll. */
			fd_pool_clear(&bitpool);
			fd_pool_put(&bitpool, ~0ULL, k - 1);
			bad += fd_sampler_roll(&s, &bitpool, &out) ||
			       bitpool.count != k - 1;
			/* Exactly k bits: the roll is those bits. */
			for (i = 0; i < (k <= 12 ? (1u << k) : 2000); i++) {
				u64 w = k <= 12 ? i : fd_test_rand(&rng);

				fd_pool_clear(&bitpool);
				fd_pool_put(&bitpool, w, 64);
				bad += !fd_sampler_roll(&s, &bitpool, &out) ||
				       out != fd_low_bits(w, k) ||
				       bitpool.count != 64 - k;
			}
		}
	}
	CHECK(!bad, "powers of two: %u wrong rolls", bad);
}

/* Whole strings of @len bits in the pool, rolled @rolls times. */
static bool chunked(const struct cfg *c, unsigned int len, u32 *cnt,
		    unsigned long *rolls_done)
{
	u64 tuples = 1, prefix, x, n = c->n;
	unsigned int r, d;
	struct fd_sampler s;
	bool ok = true;

	for (r = 0; r < c->rolls; r++)
		tuples *= n;
	memset(cnt, 0, (size_t)c->rolls * (len + 1) * tuples * sizeof(*cnt));
	for (x = 0; x < (1ULL << len); x++) {
		u64 t = 0, out;

		cfg_sampler(c, &s);
		fd_pool_clear(&bitpool);
		fd_pool_put(&bitpool, x, len);
		for (r = 0; r < c->rolls; r++) {
			if (!fd_sampler_roll(&s, &bitpool, &out))
				break;
			ok &= out < n;
			t = t * n + out;
			(*rolls_done)++;
			d = len - bitpool.count;
			cnt[((size_t)r * (len + 1) + d) * tuples + t]++;
		}
		/* Every bit taken is counted. */
		ok &= s.bits == len - bitpool.count;
	}
	/* At each roll and depth, every tuple of faces equally often. */
	for (r = 0, prefix = 1; r < c->rolls; r++) {
		prefix *= n;
		for (d = 0; d <= len; d++) {
			u32 *row = &cnt[((size_t)r * (len + 1) + d) * tuples];

			for (x = 1; x < prefix; x++)
				ok &= row[x] == row[0];
			/* Fresh: 2^(len - d) times bit d of 1/n per face. */
			if (!c->recycle && r == 0 && d) {
				u8 ky[64];

				ky_bits(n, ky, len);
				ok &= row[0] == (u32)ky[d] << (len - d);
			}
		}
	}
	return ok;
}

static void test_chunked(void)
{
	static const u64 wide[] = { 3, 5, 6, 7, 11, 12, 100, 255 };
	static const u64 rec[] = { 3, 5, 6, 7, 10, 12, 37 };
	unsigned long rolls = 0;
	unsigned int i, p, bad = 0, cases = 0;
	double t0 = fd_test_now();
	u32 *cnt;
	u64 n;

	cnt = calloc((size_t)3 * 21 * 37 * 37 * 37, sizeof(*cnt));
	for (n = 2; n <= FRESH_MAX; n++) {
		struct cfg c = { .n = n, .recycle = false, .rolls = 1 };

		cases++;
		if (!chunked(&c, 14, cnt, &rolls) && bad++ < 5)
			CHECK(0, "chunked fresh n = %llu, 14 bits: not uniform", n);
	}
	for (i = 0; i < ARRAY_SIZE(wide); i++) {
		struct cfg c = { .n = wide[i], .recycle = false, .rolls = 1 };

		cases++;
		if (!chunked(&c, 20, cnt, &rolls) && bad++ < 5)
			CHECK(0, "chunked fresh n = %llu, 20 bits: not uniform", wide[i]);
	}
	for (i = 0; i < ARRAY_SIZE(rec); i++) {
		for (p = 1; p <= 3; p++) {
			struct cfg c = {
				.n = rec[i], .recycle = true,
				.precision = fls64(rec[i]) + p,
				.rolls = rec[i] < 37 ? 3 : 2,
			};

			cases++;
			if (!chunked(&c, 18, cnt, &rolls) && bad++ < 5)
				CHECK(0, "chunked recycling n = %llu P = %u: not uniform",
				      rec[i], c.precision);
		}
	}
	free(cnt);
	CHECK(!bad, "chunked: %u of %u configurations not uniform", bad, cases);
	NOTE("chunked: %u configurations, %lu rolls, %.1f cpu s", cases, rolls,
	     fd_test_now() - t0);
}

int main(void)
{
	double t0 = fd_test_now();

	test_fresh_small();
	test_pow2();
	test_chunked();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
