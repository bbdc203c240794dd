// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - continuous health tests.
 *
 * The cutoffs follow from the source's claimed probability pmax of its more
 * likely bit value (1/2 for a full-entropy hardware source, max(p, 1 - p)
 * for the simulated coin, never above FD_PMAX_NUM / FD_PMAX_DEN) and a false
 * alarm probability of 2^-64:
 *
 * - repetition count: the smallest C with pmax^(C - 1) <= 2^-64, so that a
 *   healthy source starts a run of C equal bits with probability at most
 *   2^-64 per bit. C = 65 for pmax = 1/2, 866 for pmax = 19/20.
 * - adaptive proportion: in each window of 1024 bits, the count B of bits
 *   equal to the first one. Hoeffding's inequality bounds
 *   P(B - 1 >= 1023 pmax + t) by exp(-2 t^2 / 1023) <= 2^-64 for t = 151,
 *   so the cutoff is 1 + ceil(1023 pmax + 151): 664 for pmax = 1/2; above
 *   1024 (never fires) for pmax above 872/1023 (about 0.8524).
 *
 * Every cutoff is at least 65, so a run shorter than a word never fails and
 * each word is tested in a few instructions. Tests run a word at a time, so
 * a stuck source fails at the word holding its C-th bit: after 128 bits for
 * a hardware source (C = 65) and 896 for the simulated coin at the clamp
 * (C = 866). A coin with pmax = 0.999999 fails by then with probability
 * 0.999, and within 8192 bits with probability 1 - 10^-24.
 */

#include "fd_health.h"

/* The lowest entropy ever assumed: pmax is clamped to 19/20. */
#define FD_PMAX_NUM	19
#define FD_PMAX_DEN	20
/* Hoeffding margin of the adaptive proportion test, see above. */
#define FD_APT_MARGIN	151

/* Smallest C with pmax^(C - 1) <= 2^-64, pmax = num / den in [1/2, 19/20]. */
static u32 fd_rct_cutoff(u64 num, u64 den)
{
	/* x * 2^-e is pmax^k; x is kept in [2^63, 2^64), rounded up. */
	u64 pm, x = 1ULL << 63, rem;
	u32 k = 0, e = 63;

	pm = (u64)fd_div128((fd_u128)num << 64, den, &rem);
	if (rem)
		pm++;	/* round pmax up: a larger cutoff, fewer false alarms */
	/* Until x * 2^-e <= 2^-64, i.e. e > 127 or x * 2^-127 == 2^-64. */
	while (e < 63 + FD_HEALTH_ALPHA_LOG2 ||
	       (e == 63 + FD_HEALTH_ALPHA_LOG2 && x != 1ULL << 63)) {
		fd_u128 y = (fd_u128)x * pm;

		x = (u64)(y >> 64) + !!(u64)y;
		while (!(x >> 63)) {
			x <<= 1;
			e++;
		}
		k++;
	}
	return k + 1;
}

/**
 * fd_health_init() - set the cutoffs for a source with P(1) = @p1_num/@p1_den
 * @h: the tests
 * @p1_num: numerator of the probability of a one (den / 2 for full entropy)
 * @p1_den: its denominator, at least 1
 * @check_words: fail on a 64-bit word equal to the previous one (hardware
 *	sources, whose words are full entropy)
 */
void fd_health_init(struct fd_health *h, u64 p1_num, u64 p1_den,
		    bool check_words)
{
	u64 num = p1_num, den = p1_den, rem;
	fd_u128 apt;

	if (FD_WARN_ON(!den || num > den)) {
		num = 1;
		den = 2;
	}
	if (num < den - num)
		num = den - num;
	/* Clamp pmax to 19/20: num / den > 19 / 20 iff 20 num > 19 den. */
	if ((fd_u128)num * FD_PMAX_DEN > (fd_u128)den * FD_PMAX_NUM) {
		num = FD_PMAX_NUM;
		den = FD_PMAX_DEN;
	}
	memset(h, 0, sizeof(*h));
	h->check_words = check_words;
	h->rct_cutoff = fd_rct_cutoff(num, den);
	apt = fd_div128((fd_u128)num * (FD_APT_WINDOW - 1), den, &rem);
	apt += !!rem;
	h->apt_cutoff = 1 + (u32)apt + FD_APT_MARGIN;
}

/**
 * fd_health_name() - the name of a test, for messages
 * @r: the outcome of fd_health_word()
 *
 * Return: "ok", or the name of the test that failed.
 */
const char *fd_health_name(enum fd_health_result r)
{
	switch (r) {
	case FD_HEALTH_OK:
		return "ok";
	case FD_HEALTH_RCT:
		return "repetition count";
	case FD_HEALTH_APT:
		return "adaptive proportion";
	case FD_HEALTH_WORD:
		return "repeated word";
	default:
		return "starved extractor";
	}
}

/**
 * fd_health_restart() - forget the running state, keeping the cutoffs
 * @h: the tests
 */
void fd_health_restart(struct fd_health *h)
{
	h->run = 0;
	h->run_bit = 0;
	h->apt_seen = 0;
	h->apt_count = 0;
	h->apt_bit = 0;
	h->have_last = false;
	h->last_word = 0;
}

/* Number of low bits of @w equal to @bit, 0..64. */
static unsigned int fd_low_run(u64 w, unsigned int bit)
{
	u64 x = bit ? ~w : w;

	return x ? __builtin_ctzll(x) : 64;
}

/* Number of high bits of @w equal to its top bit, 1..64. */
static unsigned int fd_high_run(u64 w)
{
	u64 x = (w >> 63) ? ~w : w;

	return x ? __builtin_clzll(x) : 64;
}

/**
 * fd_health_word() - run the tests on 64 more raw bits
 * @h: the tests
 * @w: the bits, the first in bit 0
 *
 * Return: FD_HEALTH_OK, or the test that failed.
 */
enum fd_health_result fd_health_word(struct fd_health *h, u64 w)
{
	unsigned int lead = fd_low_run(w, h->run_bit);

	if (h->check_words) {
		if (h->have_last && w == h->last_word)
			return FD_HEALTH_WORD;
		h->have_last = true;
		h->last_word = w;
	}

	/* Repetition count: runs inside a word are shorter than any cutoff. */
	if (lead == 64) {
		h->run += 64;
	} else {
		h->run += lead;
		if (h->run >= h->rct_cutoff)
			return FD_HEALTH_RCT;
		h->run = fd_high_run(w);
		h->run_bit = w >> 63;
	}
	if (h->run >= h->rct_cutoff)
		return FD_HEALTH_RCT;

	/* Adaptive proportion, a window being 16 whole words. */
	if (!h->apt_seen) {
		h->apt_bit = w & 1;
		h->apt_count = 0;
	}
	h->apt_count += h->apt_bit ? hweight64(w) : 64 - hweight64(w);
	h->apt_seen += 64;
	if (h->apt_count >= h->apt_cutoff)
		return FD_HEALTH_APT;
	if (h->apt_seen == FD_APT_WINDOW)
		h->apt_seen = 0;
	return FD_HEALTH_OK;
}
