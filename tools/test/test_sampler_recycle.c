// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs that the sampler (driver/fd_sampler.c) is exact: the recycling sampler, small and huge sides.
 * The enumeration engine and its method are in sampler_enum.c.
 *
 *   recycle     with recycling at small precisions (the code path of the
 *               default precision 63), three consecutive rolls for every
 *               n <= 40 and precisions fls(n) + 1 .. fls(n) + 4, two rolls
 *               for n = 1000 and 65537
 *   huge        n = 2^31 + 1, 2^32 - 1, 2^32 + 1, 2^62 +- 1, 2^63 + 1,
 *               2^64 - 3 (to depth 400: no cycle), 2^64 - 1, and the
 *               128-bit path (precision 64..127): the
 *               state space is too large to enumerate, so the test follows
 *               the mathematical sampler, whose state is uniform on [0, m)
 *               for every m it meets, to an infinite depth where m cycles
 *               (fresh) or to a stated depth (recycling), and checks that
 *               the code makes the same transition as exact 128-bit
 *               arithmetic (native division, not fd_div128()) for z in
 *               windows of 64 consecutive values at both ends of [0, m),
 *               around the accept boundary and around n / 2, and at 16
 *               random z: in effect every string of the last 6 bits after
 *               those prefixes. The claim there is agreement with the
 *               proven model on those z, not an exhaustive proof. The same
 *               model is checked against the exhaustive enumeration for
 *               small n.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_test.h"
#include "sampler_enum.h"

/* ------------------------------------------------------------------ */
/* Recycling                                                           */

static void test_recycle_small(void)
{
	unsigned int n, p, cases = 0, bad = 0, mind = ~0u, maxd = 0;
	unsigned long calls = 0;
	size_t peak = 0;
	double t0 = fd_test_now();

	for (n = 3; n <= 40; n++) {
		if (is_pow2(n))
			continue;
		for (p = 1; p <= 4; p++) {
			struct cfg c = {
				.n = n, .recycle = true, .precision = fls64(n) + p,
				.rolls = 3, .max_depth = 50 + 2 * fls64(n),
				.max_states = 400000,
			};
			struct dp dp;
			unsigned int d;
			u64 third = 0;

			dp_run(&dp, &c);
			calls += dp.calls;
			cases++;
			for (d = 1; d <= dp.depth; d++)
				third += dp_face(&dp, 2, d);
			if (!dp.ok) {
				if (bad++ < 5)
					CHECK(0, "recycling n = %u P = %u: %s", n,
					      c.precision, dp.why);
			} else if (!third) {
				if (bad++ < 5)
					CHECK(0, "recycling n = %u P = %u: depth %u reaches no third roll",
					      n, c.precision, dp.depth);
			}
			if (dp.depth < mind)
				mind = dp.depth;
			if (dp.depth > maxd)
				maxd = dp.depth;
			if (dp.peak > peak)
				peak = dp.peak;
			free(dp.per_face);
		}
	}
	CHECK(!bad, "recycling: %u of %u configurations fail", bad, cases);
	NOTE("recycle: 3 rolls, %u (n <= 40, P = fls(n)+1..+4) configurations exact to depths %u..%u, up to %zu live states, %lu transitions, %.1f cpu s",
	     cases, mind, maxd, peak, calls, fd_test_now() - t0);
}

static void test_recycle_large(void)
{
	static const struct {
		u64 n;
		unsigned int p, rolls, depth;
		size_t states;
	} cs[] = {
		{ 1000, 11, 2, 40, 400000 }, { 1000, 13, 2, 40, 400000 },
		{ 65537, 18, 2, 45, 1200000 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = true, .precision = cs[i].p,
			.rolls = cs[i].rolls, .max_depth = cs[i].depth,
			.max_states = cs[i].states,
		};
		double t0 = fd_test_now();
		unsigned int d, first = 0;
		struct dp dp;

		dp_run(&dp, &c);
		for (d = 1; d <= dp.depth && !first; d++)
			if (dp_face(&dp, 1, d))
				first = d;
		CHECK(dp.ok, "recycling n = %llu P = %u: %s", c.n, c.precision,
		      dp.why);
		CHECK(first, "recycling n = %llu P = %u: no second roll by depth %u",
		      c.n, c.precision, dp.depth);
		NOTE("recycle: n = %llu P = %u: 2 rolls exact to depth %u (second rolls from depth %u), %zu live states, %.1f cpu s",
		     c.n, c.precision, dp.depth, first, dp.peak,
		     fd_test_now() - t0);
		free(dp.per_face);
	}
}

/* The model against the exhaustive enumeration, where both can run. */
static void test_model_vs_dp(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p, rolls, depth;
	} cs[] = {
		{ 6, false, 0, 1, 60 }, { 7, false, 0, 1, 60 },
		{ 6, true, 5, 3, 30 }, { 7, true, 6, 3, 30 },
		{ 37, true, 8, 2, 30 }, { 1000, true, 12, 2, 36 },
	};
	unsigned int i, d, r;

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = cs[i].recycle,
			.precision = cs[i].p, .rolls = cs[i].rolls,
			.max_depth = cs[i].depth, .max_states = 1 << 22,
		};
		struct model m;
		struct dp dp;
		bool same = true;

		dp_run(&dp, &c);
		model_run(&m, &c, 4096);
		for (r = 0; r < c.rolls; r++)
			for (d = 1; d <= dp.depth && d <= m.depth; d++)
				same &= dp_face(&dp, r, d) ==
					m.per_face[r * (c.max_depth + 1) + d];
		CHECK(dp.ok && same && !m.bad && dp.depth == c.max_depth,
		      "model n = %llu P = %u: differs from the enumeration", c.n,
		      c.precision);
		free(dp.per_face);
		free(m.per_face);
	}
}

static void test_huge(void)
{
	static const struct {
		u64 n;
		bool recycle;
		unsigned int p, rolls, depth;
	} cs[] = {
		/* Fresh: follow M to its cycle, i.e. every depth. */
		{ (1ULL << 31) + 1, false, 0, 1, 400 },
		{ 0xffffffffULL, false, 0, 1, 400 },
		{ 0x100000001ULL, false, 0, 1, 400 },
		{ (1ULL << 62) - 1, false, 0, 1, 400 },
		{ (1ULL << 62) + 1, false, 0, 1, 400 },
		{ (1ULL << 63) + 1, false, 0, 1, 400 },
		{ ~0ULL, false, 0, 1, 400 },
		{ ~0ULL - 2, false, 0, 1, 400 },
		/* Recycling, 64-bit path at the default and small precisions. */
		{ (1ULL << 31) + 1, true, 33, 2, 110 },
		{ (1ULL << 31) + 1, true, 35, 2, 110 },
		{ 0xffffffffULL, true, 63, 2, 140 },
		{ 1000003, true, 63, 3, 140 },
		/* Recycling, 128-bit path. */
		{ 3, true, 64, 3, 120 },
		{ 0x100000001ULL, true, 64, 2, 180 },
		{ 0x100000001ULL, true, 96, 2, 200 },
		{ 0x100000001ULL, true, 127, 2, 230 },
		{ (1ULL << 63) + 1, true, 127, 2, 330 },
		{ ~0ULL, true, 127, 2, 330 },
		{ 1000003, true, 100, 3, 200 },
	};
	unsigned long checks = 0, classes = 0;
	unsigned int i, d;
	double t0 = fd_test_now();

	for (i = 0; i < ARRAY_SIZE(cs); i++) {
		struct cfg c = {
			.n = cs[i].n, .recycle = cs[i].recycle,
			.precision = cs[i].p, .rolls = cs[i].rolls,
			.max_depth = cs[i].depth,
			.find_cycle = !cs[i].recycle,
		};
		struct model m;

		model_run(&m, &c, 512);
		checks += m.checks;
		classes += m.classes;
		CHECK(!m.bad, "huge n = %llu P = %u: the code left the model on %lu of %lu (z, m, bit)",
		      c.n, c.precision, m.bad, m.checks);
		if (!c.recycle) {
			static u8 ky[512];
			bool ok = true;

			ky_bits(c.n, ky, c.max_depth);
			for (d = 1; d <= m.depth; d++)
				ok &= m.per_face[d] == ky[d];
			CHECK(ok, "huge n = %llu: stopping masses not Knuth-Yao", c.n);
			if (m.cycle_to)
				NOTE("huge: fresh n = %llu: M cycles from depth %u to %u (every depth), code checked on %lu classes",
				     c.n, m.cycle_from, m.cycle_to, m.classes);
			else
				NOTE("huge: fresh n = %llu: followed to depth %u (no cycle), code checked on %lu classes",
				     c.n, m.depth, m.classes);
		} else {
			fd_u128 last = 0;

			for (d = 1; d <= m.depth; d++)
				last += m.per_face[(c.rolls - 1) * (c.max_depth + 1) + d];
			CHECK(last, "huge n = %llu P = %u: roll %u never completes by depth %u",
			      c.n, c.precision, c.rolls, m.depth);
			NOTE("huge: recycling n = %llu P = %u: %u rolls followed to depth %u, code checked on %lu classes",
			     c.n, c.precision, c.rolls, m.depth, m.classes);
		}
		free(m.per_face);
	}
	NOTE("huge: %lu transitions of the code compared with exact arithmetic on %lu classes, %.1f cpu s",
	     checks, classes, fd_test_now() - t0);
}

int main(void)
{
	double t0 = fd_test_now();

	test_recycle_small();
	test_recycle_large();
	test_model_vs_dp();
	test_huge();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
