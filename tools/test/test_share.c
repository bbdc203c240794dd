// SPDX-License-Identifier: GPL-2.0
/*
 * The share and rate policy of the wells (driver/fd_share.c).
 *
 *   rate      100 users, each with a reader that takes all it is allowed
 *             (up to 2048 bits a time, as a refill asks) from a source
 *             that never runs dry: over 2 simulated seconds each receives
 *             0.9-1.1 times its cap. With a bucket that refills on every
 *             charge (user_rate's overflow bucket before: users beyond the
 *             64 slots were never capped) the same readers get far more,
 *             which the scenario must see.
 *   extreme   at the accepted rates' ends (1 kbit/s and 10 Gbit/s) and far
 *             beyond (2^63 bit/s), and at a clock far from 0, the rate
 *             still holds within 1.1, the allowance never wraps, and a
 *             year's pause allows one burst, not a year's worth (the old
 *             bucket's bits + pause * rate wrapped above ~9.2e9 bit/s)
 */
#include <string.h>

#include "fd_test.h"
#include "fd_share.h"

#define NS_PER_S	1000000000ULL
#define STEP_NS		100000ULL	/* a reader looks every 0.1 ms */
#define TAKE_BITS	2048u

/*
 * A greedy reader at @rate for @secs: each step it takes what it is
 * allowed, up to TAKE_BITS (a take gives at least 64 bits once allowed,
 * as a well's smallest take), and charges it.
 */
static u64 greedy(struct fd_rate *r, u64 rate, u64 t0, u64 secs)
{
	u64 t, got = 0;

	for (t = t0; t < t0 + secs * NS_PER_S; t += STEP_NS) {
		u32 allow = fd_rate_allow(r, rate, t), n;

		if (fd_rate_wait(r, rate, 64, t))
			continue;
		n = allow < TAKE_BITS ? allow : TAKE_BITS;
		if (n < 64)
			n = 64;
		fd_rate_charge(r, rate, n, t);
		got += n;
	}
	return got;
}

/* The old bucket of one user beyond the slots: refilled on every charge. */
static u64 greedy_old(u64 rate, u64 secs)
{
	u64 t, got = 0, bits = 0;

	for (t = 0; t < secs * NS_PER_S; t += STEP_NS) {
		bits = rate * NS_PER_S;		/* ->used never set: full */
		if (bits >= (u64)TAKE_BITS * NS_PER_S) {
			bits -= (u64)TAKE_BITS * NS_PER_S;
			got += TAKE_BITS;
		}
	}
	return got;
}

static void test_rate(void)
{
	static struct fd_rate users[100];
	u64 rate = 20000, lo = ~0ULL, hi = 0, old;
	unsigned int i;

	memset(users, 0, sizeof(users));
	for (i = 0; i < 100; i++) {
		u64 got = greedy(&users[i], rate, 5 * NS_PER_S + i, 2);

		lo = got < lo ? got : lo;
		hi = got > hi ? got : hi;
	}
	CHECK(lo >= 0.9 * 2 * rate && hi <= 1.1 * 2 * rate,
	      "rate: 100 users each get 0.9-1.1 of 2 s at 20 kbit/s (%llu-%llu)",
	      (unsigned long long)lo, (unsigned long long)hi);
	old = greedy_old(rate, 2);
	CHECK(old > 1.1 * 2 * rate,
	      "rate: the old overflow bucket is not capped (%llu): the scenario sees it",
	      (unsigned long long)old);
}

static void test_extreme(void)
{
	const u64 rates[] = { 1000, 64000, 10000000000ULL, 1ULL << 63 };
	const u64 t0s[] = { 0, 1ULL << 62 };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		for (j = 0; j < ARRAY_SIZE(t0s); j++) {
			struct fd_rate r = { 0 };
			u64 secs = rates[i] < 100000 ? 20 : 1, got, cap;
			double want = (double)rates[i] * secs, f;

			got = greedy(&r, rates[i], t0s[j], secs);
			/*
			 * Far above what a take gives per step, the cap is the
			 * takes; otherwise the rate.
			 */
			cap = (u64)TAKE_BITS * (secs * NS_PER_S / STEP_NS);
			if (want > cap)
				want = cap;
			f = got / want;
			CHECK(f >= 0.9 && f <= 1.1,
			      "extreme: %llu bit/s from %llu ns: %.3f of the cap",
			      (unsigned long long)rates[i],
			      (unsigned long long)t0s[j], f);
			/* A year's pause: one burst allowed, no wrap. */
			{
				u64 t = t0s[j] + (secs + 365ULL * 86400) * NS_PER_S;
				double burst = (double)rates[i] *
					       FD_RATE_BURST_NS / NS_PER_S;
				u32 a = fd_rate_allow(&r, rates[i], t);
				double w = burst > ~0U ? ~0U : burst;

				CHECK(a >= 0.99 * w && a <= w + 1 &&
				      !fd_rate_wait(&r, rates[i], 64, t),
				      "extreme: %llu bit/s after a year: %u bits allowed (a burst, %.0f)",
				      (unsigned long long)rates[i], a, w);
				fd_rate_charge(&r, rates[i], ~0U, t);
				CHECK(r.tat > t && r.tat - t <= (1ULL << 62),
				      "extreme: %llu bit/s: a huge charge stays ahead, capped",
				      (unsigned long long)rates[i]);
			}
		}
	}
	{
		struct fd_rate r = { 0 };

		CHECK(fd_rate_allow(&r, 0, 123) == ~0U &&
		      !fd_rate_wait(&r, 0, 1u << 31, 123),
		      "extreme: rate 0 is no cap");
	}
}

int main(void)
{
	test_rate();
	test_extreme();
	return fd_check_summary();
}
