// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs that the sampler (driver/fd_sampler.c) is exact: the sampler on a fair simulated coin: cost per roll, and rolls independent of how the pool is refilled.
 * The enumeration engine and its method are in sampler_enum.c.
 *
 *   cost        default sampler on a fair simulated coin: within 0.01 bit
 *               of log2(n) per roll over 10^6 rolls
 *   dry         the same rolls whether the pool is refilled 64 bits, one
 *               bit or a random number of bits at a time; no bit is lost
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_test.h"
#include "sampler_enum.h"
#include "fd_sim.h"

static u64 rng = 0x5a3;

/* ------------------------------------------------------------------ */
/* Statistics on a fair simulated coin                                 */

/*
 * One roll, refilling the pool from @sim as needed. A roll needing more than
 * 64 refills (probability below 2^-60 for any n) means a broken sampler.
 */
static bool roll_fed(struct fd_sampler *s, struct fd_sim *sim, u64 *out)
{
	unsigned int refills = 0;

	while (!fd_sampler_roll(s, &bitpool, out)) {
		if (++refills > 64)
			return false;
		fd_pool_put(&bitpool, fd_sim_word(sim), 64);
	}
	return true;
}

static void test_cost(void)
{
	static const u64 ns[] = {
		2, 3, 5, 6, 7, 10, 37, 100, 1000, (1ULL << 31) + 1, 0xffffffffULL,
	};
	const unsigned long rolls = 1000000;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		struct fd_sampler s;
		struct fd_sim sim;
		unsigned long r;
		double per, lg = log2((double)ns[i]);
		u64 out, sum = 0;

		fd_sim_init(&sim, 99 + i, 1, 2);
		fd_sampler_init(&s, ns[i], true);
		fd_pool_clear(&bitpool);
		for (r = 0; r < rolls; r++) {
			if (!roll_fed(&s, &sim, &out))
				break;
			sum += out;
		}
		if (!CHECK(r == rolls, "cost n = %llu: roll %lu never ends", ns[i], r))
			continue;
		per = (double)s.bits / rolls;
		CHECK(per <= lg + 0.01 && per >= lg - 0.01,
		      "cost n = %llu: %.6f bits per roll, log2 = %.6f", ns[i],
		      per, lg);
		/* The mean face, loosely: a gross bias would show. */
		CHECK(fabs((double)sum / rolls - (ns[i] - 1) / 2.0) <=
		      6 * ns[i] / sqrt(12.0 * rolls),
		      "cost n = %llu: mean face %.3f", ns[i], (double)sum / rolls);
		NOTE("cost: n = %llu: %.6f fair bits per roll over 10^6 rolls, log2 n = %.6f (+%.6f)",
		     ns[i], per, lg, per - lg);
	}
	{
		/* Fresh d6 costs 11/3 on average. */
		struct fd_sampler s;
		struct fd_sim sim;
		unsigned long r;
		u64 out;
		double per;

		fd_sim_init(&sim, 7, 1, 2);
		fd_sampler_init(&s, 6, false);
		fd_pool_clear(&bitpool);
		for (r = 0; r < rolls; r++)
			if (!roll_fed(&s, &sim, &out))
				break;
		per = (double)s.bits / rolls;
		CHECK(fabs(per - 11.0 / 3) < 0.01, "fresh d6: %.4f bits per roll", per);
		NOTE("cost: fresh d6: %.6f fair bits per roll (11/3 = 3.666667)", per);
	}
}

/* Refill styles: 64 bits, 1 bit, or a random number of bits at a time. */
static void rolls_with_refill(u64 n, bool recycle, unsigned int precision,
			      int style, u64 *outs, unsigned int count,
			      bool *accounted)
{
	static struct fd_pool pool;
	struct fd_sampler s;
	struct fd_sim sim;
	u64 word = 0, taken = 0, put = 0;
	unsigned int left = 0, i;

	fd_sim_init(&sim, 31337, 1, 2);
	if (precision)
		fd_sampler_init_precision(&s, n, recycle, precision);
	else
		fd_sampler_init(&s, n, recycle);
	fd_pool_clear(&pool);
	*accounted = false;
	for (i = 0; i < count; i++) {
		unsigned int refills = 0;

		while (!fd_sampler_roll(&s, &pool, &outs[i])) {
			unsigned int k = style == 0 ? 64 : style == 1 ? 1 :
					 1 + fd_test_below(&rng, 64);

			/* More than 4096 bits for one roll: a broken sampler. */
			if (++refills > 4096)
				return;

			/* The same stream whatever the chunking. */
			while (k) {
				unsigned int c;

				if (!left) {
					word = fd_sim_word(&sim);
					left = 64;
				}
				c = k < left ? k : left;
				fd_pool_put(&pool, word >> (64 - left), c);
				left -= c;
				k -= c;
				put += c;
			}
		}
	}
	taken = put - pool.count;
	*accounted = s.bits == taken;
}

static void test_dry(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p;
	} cs[] = {
		{ 6, true, 0 }, { 6, false, 0 }, { 7, true, 0 }, { 1000, true, 0 },
		{ (1ULL << 32) - 1, true, 0 }, { (1ULL << 32) + 1, true, 0 },
		{ (1ULL << 63) + 1, false, 0 }, { 37, true, 100 }, { 8, true, 0 },
		{ 6, true, 5 },
	};
	const unsigned int count = 20000;
	u64 *a = calloc(count, sizeof(*a)), *b = calloc(count, sizeof(*b));
	u64 *c = calloc(count, sizeof(*c));
	unsigned int i, j, diff1, diffr, first;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		bool acc_a, acc_b, acc_c;

		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 0, a, count, &acc_a);
		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 1, b, count, &acc_b);
		rolls_with_refill(cs[i].n, cs[i].recycle, cs[i].p, 2, c, count, &acc_c);
		for (j = 0, diff1 = 0, diffr = 0, first = count; j < count; j++) {
			diff1 += a[j] != b[j];
			diffr += a[j] != c[j];
			if ((a[j] != b[j] || a[j] != c[j]) && first == count)
				first = j;
		}
		CHECK(acc_a && acc_b && acc_c,
		      "dry n = %llu: bits taken from the pool and counted differ", cs[i].n);
		CHECK(!diff1 && !diffr,
		      "dry n = %llu %s P = %u: refilling 1 bit at a time changes %u of %u rolls, random amounts %u (first at roll %u)",
		      cs[i].n, cs[i].recycle ? "recycling" : "fresh", cs[i].p, diff1,
		      count, diffr, first);
	}
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	double t0 = fd_test_now();

	test_cost();
	test_dry();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
