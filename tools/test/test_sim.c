// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the simulated coin (driver/fd_sim.c) and of fd_div128().
 *
 *   spec       fd_sim_word() against the definition of the userspace API document, written out here
 *              independently: splitmix64 from the seed, bit i = 1 iff the
 *              i-th output is below floor(2^64 num / den) (native 128-bit
 *              division), always 1 when num == den
 *   edges      seeds aimed (through the inverse of splitmix64's output
 *              function) at outputs equal to the threshold and next to it
 *   invalid    den == 0 or num > den are refused and leave the coin alone
 *   restart    fd_sim_restart() reproduces the stream
 *   frequency  the share of ones is p within 6 standard deviations
 *   div128     fd_div128() against the compiler's 128-bit division on edge
 *              cases and millions of random operands
 *
 * The Makefile builds this file twice: test_sim with the x86 divq path of
 * fd_div128(), test_sim_generic with -DFD_GENERIC_DIV128 (the portable
 * shift-and-subtract loop), the driver files included.
 */
#include <math.h>

#include "fd_test.h"
#include "fd_sim.h"

static u64 rng = 0x51b;

/* splitmix64 as Documentation/userspace-api/fairdie.rst states it. */
static u64 ref_next(u64 *state)
{
	u64 z;

	*state += 0x9e3779b97f4a7c15ULL;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct ref_coin {
	u64 state;
	fd_u128 threshold;	/* 2^64 when always one */
};

static void ref_init(struct ref_coin *c, u64 seed, u64 num, u64 den)
{
	c->state = seed;
	c->threshold = ((fd_u128)num << 64) / den;
}

static u64 ref_word(struct ref_coin *c)
{
	u64 w = 0;
	int i;

	for (i = 0; i < 64; i++)
		w |= (u64)((fd_u128)ref_next(&c->state) < c->threshold) << i;
	return w;
}

static const u64 seeds[] = {
	0, 1, 42, 0x0123456789abcdefULL, ~0ULL, 0x9e3779b97f4a7c15ULL,
};

static const struct {
	u64 num, den;
} fractions[] = {
	{ 0, 1 }, { 1, 1 }, { 1, 2 }, { 1, 3 }, { 2, 3 }, { 7, 10 },
	{ 1, 20 }, { 19, 20 }, { 999999, 1000000 }, { 0, 7 }, { 5, 5 },
	{ 1, ~0ULL }, { ~0ULL - 1, ~0ULL }, { ~0ULL, ~0ULL },
	{ 1ULL << 62, 1ULL << 63 }, { 3, 1ULL << 63 }, { 1, 1ULL << 40 },
};

static void test_spec(void)
{
	unsigned int si, fi, i, bad = 0, cases = 0;

	for (si = 0; si < ARRAY_SIZE(seeds); si++) {
		for (fi = 0; fi < ARRAY_SIZE(fractions); fi++) {
			u64 num = fractions[fi].num, den = fractions[fi].den;
			struct ref_coin ref;
			struct fd_sim sim;
			bool ok;

			ok = fd_sim_init(&sim, seeds[si], num, den);
			ref_init(&ref, seeds[si], num, den);
			for (i = 0; ok && i < 300; i++) {
				u64 a = fd_sim_word(&sim), b = ref_word(&ref);

				ok = a == b;
				/* The extremes must really be constant. */
				if (num == 0)
					ok &= a == 0;
				if (num == den)
					ok &= a == ~0ULL;
			}
			cases++;
			if (!ok && bad++ < 5)
				CHECK(0, "seed %#llx p = %llu/%llu: word %u differs from the reference",
				      seeds[si], num, den, i - 1);
		}
	}
	CHECK(!bad, "spec: %u of %u (seed, p) streams differ", bad, cases);

	/* fd_splitmix64() itself, from the same state. */
	for (i = 0, bad = 0; i < 100000; i++) {
		u64 s1 = fd_test_rand(&rng), s2 = s1;

		bad += fd_splitmix64(&s1) != ref_next(&s2) || s1 != s2;
	}
	CHECK(!bad, "fd_splitmix64() differs %u times", bad);
}

/* The inverse of splitmix64's output function, to aim at a threshold. */
static u64 inv_odd(u64 c)
{
	u64 x = c;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

static u64 unxorshift(u64 y, unsigned int s)
{
	u64 x = y;
	int i;

	for (i = 0; i < 64; i++)
		x = y ^ (x >> s);
	return x;
}

/* A seed whose first output is @out. */
static u64 seed_for(u64 out)
{
	u64 z = unxorshift(out, 31);

	z = unxorshift(z * inv_odd(0x94d049bb133111ebULL), 27);
	z = unxorshift(z * inv_odd(0xbf58476d1ce4e5b9ULL), 30);
	return z - 0x9e3779b97f4a7c15ULL;
}

/*
 * Outputs equal to the threshold and next to it: a 1 needs an output
 * strictly below floor(2^64 num / den), which random streams never probe.
 */
static void test_edges(void)
{
	unsigned int fi, bad = 0, cases = 0;
	int delta;

	for (fi = 0; fi < ARRAY_SIZE(fractions); fi++) {
		u64 num = fractions[fi].num, den = fractions[fi].den;
		fd_u128 thr = ((fd_u128)num << 64) / den;

		for (delta = -1; delta <= 1; delta++) {
			fd_u128 out = thr + delta;
			u64 seed, state, bit;
			struct fd_sim sim;

			if (out > ~0ULL || (delta < 0 && !thr))
				continue;
			seed = seed_for((u64)out);
			state = seed;
			if (!CHECK(ref_next(&state) == (u64)out, "seed_for() is wrong"))
				return;
			fd_sim_init(&sim, seed, num, den);
			bit = fd_sim_word(&sim) & 1;
			cases++;
			if (bit != (out < thr || num == den) && bad++ < 5)
				CHECK(0, "p = %llu/%llu: output threshold%+d gave %llu",
				      num, den, delta, bit);
		}
	}
	CHECK(!bad, "edges: %u of %u outputs next to the threshold wrong", bad,
	      cases);
}

static void test_invalid(void)
{
	struct fd_sim sim, before;

	memset(&sim, 0xa5, sizeof(sim));
	before = sim;
	CHECK(!fd_sim_init(&sim, 1, 1, 0), "den = 0 accepted");
	CHECK(!fd_sim_init(&sim, 1, 3, 2), "num > den accepted");
	CHECK(!fd_sim_init(&sim, 1, ~0ULL, ~0ULL - 1), "num > den accepted");
	CHECK(!memcmp(&sim, &before, sizeof(sim)),
	      "a refused fraction changed the coin");
	CHECK(fd_sim_init(&sim, 1, 0, 1) && fd_sim_init(&sim, 1, 1, 1),
	      "p = 0 or p = 1 refused");
}

static void test_restart(void)
{
	unsigned int fi, i, bad = 0;
	static u64 first[1000];

	for (fi = 0; fi < ARRAY_SIZE(fractions); fi++) {
		struct fd_sim sim;

		fd_sim_init(&sim, 0xfeed + fi, fractions[fi].num,
			    fractions[fi].den);
		for (i = 0; i < ARRAY_SIZE(first); i++)
			first[i] = fd_sim_word(&sim);
		fd_sim_restart(&sim);
		for (i = 0; i < ARRAY_SIZE(first); i++)
			bad += fd_sim_word(&sim) != first[i];
		/* A new init with the same seed restarts it too. */
		fd_sim_init(&sim, 0xfeed + fi, fractions[fi].num,
			    fractions[fi].den);
		bad += fd_sim_word(&sim) != first[0];
	}
	CHECK(!bad, "restart: %u words differ", bad);
}

static void test_frequency(void)
{
	static const struct {
		u64 num, den;
	} ps[] = {
		{ 1, 2 }, { 7, 10 }, { 9, 10 }, { 1, 20 }, { 19, 20 },
		{ 1, 3 }, { 999999, 1000000 },
	};
	const unsigned int words = 1 << 18;	/* 2^24 bits per p */
	unsigned int pi, i;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		double p = (double)ps[pi].num / ps[pi].den, f, sd;
		struct fd_sim sim;
		u64 ones = 0;

		fd_sim_init(&sim, 1000 + pi, ps[pi].num, ps[pi].den);
		for (i = 0; i < words; i++)
			ones += hweight64(fd_sim_word(&sim));
		f = (double)ones / (64.0 * words);
		sd = sqrt(p * (1 - p) / (64.0 * words));
		CHECK(fabs(f - p) <= 6 * sd, "p = %llu/%llu: share of ones %.7f",
		      ps[pi].num, ps[pi].den, f);
		NOTE("frequency: p = %llu/%llu gives %.7f over 2^24 bits (%.1f sd)",
		     ps[pi].num, ps[pi].den, f, (f - p) / sd);
	}
}

static bool div_ok(fd_u128 a, u64 d)
{
	u64 rem;
	fd_u128 q = fd_div128(a, d, &rem);

	return q == a / d && rem == (u64)(a % d);
}

static void test_div128(void)
{
	static const u64 ds[] = {
		1, 2, 3, 7, 10, 0xffffffffULL, 0x100000000ULL,
		0x100000001ULL, 1ULL << 63, (1ULL << 63) + 1, ~0ULL, ~0ULL - 1,
	};
#ifdef FD_GENERIC_DIV128
	const char *variant = "generic loop";
	const unsigned long n = 2000000;
#else
	const char *variant = "native divq";
	const unsigned long n = 4000000;
#endif
	unsigned long i, bad = 0, checks = 0;
	unsigned int di, j;

	/* Edges: quotients and remainders at their limits. */
	for (di = 0; di < ARRAY_SIZE(ds); di++) {
		fd_u128 d = ds[di], top = ~(fd_u128)0;
		fd_u128 as[] = {
			0, 1, d - 1, d, d + 1, top, top - 1, top / d * d,
			top / d * d - 1, (fd_u128)1 << 64, ((fd_u128)1 << 64) - 1,
			d << 64, (d << 64) - 1, (d - 1) << 64 | ~0ULL,
		};

		for (j = 0; j < ARRAY_SIZE(as); j++, checks++)
			bad += !div_ok(as[j], ds[di]);
	}
	/* Random operands of every magnitude. */
	for (i = 0; i < n; i++, checks++) {
		fd_u128 a = ((fd_u128)fd_test_rand(&rng) << 64) |
			    fd_test_rand(&rng);
		u64 d = fd_test_rand(&rng);

		a >>= fd_test_below(&rng, 128);
		d >>= fd_test_below(&rng, 64);
		if (!d)
			d = 1;
		bad += !div_ok(a, d);
	}
	CHECK(!bad, "fd_div128: %lu of %lu wrong", bad, checks);
	NOTE("div128 (%s): %lu quotients checked", variant, checks);
}

int main(void)
{
	test_spec();
	test_edges();
	test_invalid();
	test_restart();
	test_frequency();
	test_div128();
	return fd_check_summary();
}
