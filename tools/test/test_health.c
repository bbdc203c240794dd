// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the continuous health tests (driver/fd_health.c).
 *
 *   cutoffs   recomputed in floating point from the formulas in the comment
 *             of fd_health.c (pmax = max(p, 1 - p) clamped to 19/20;
 *             repetition C = 1 + ceil(64 / -log2 pmax); adaptive proportion
 *             1 + ceil(1023 pmax + t) with t the least integer such that
 *             exp(-2 t^2 / 1023) <= 2^-64) and compared with fd_health_init()
 *             for many p, and checked against the definition
 *             pmax^(C - 1) <= 2^-64 < pmax^(C - 2)
 *   stuck     all-zero and all-one words, and fd_sim with p = 0 and p = 1,
 *             fail in the word holding bit C of the run
 *   biased    p = 999999/1000000 fails within 8192 bits for 1000 seeds
 *   healthy   p = 1/20, 1/2, 7/10, 19/20 pass 10^8 bits each
 *   words     a repeated word fails only when check_words is set
 *   runs      runs of exactly C - 1 and C identical bits, built bit by bit
 *             at every alignment, across two to fifteen words: C - 1
 *             passes, C fails in the word holding the run's C-th bit
 *   apt       a window with exactly cutoff - 1 bits equal to its first bit
 *             passes, one with cutoff fails where the count reaches it
 */
#include <math.h>

#include "fd_test.h"
#include "fd_health.h"
#include "fd_sim.h"

static u64 rng = 0x4ea1;

/* The documented formulas, in floating point. */
static double apt_margin(void)
{
	double t = 0;

	while (exp(-2 * t * t / 1023) > pow(2, -64))
		t++;
	return t;
}

static double pmax_of(u64 num, u64 den)
{
	double p = (long double)num / den;

	if (p < 0.5)
		p = (long double)(den - num) / den;
	return p > 0.95 ? 0.95 : p;
}

/* Snap values within 1e-9 of an integer, so that ceil() is not fooled. */
static double ceil_snap(double x)
{
	return fabs(x - round(x)) < 1e-9 ? round(x) : ceil(x);
}

static void expected_cutoffs(u64 num, u64 den, u32 *rct, u32 *apt)
{
	double pmax = pmax_of(num, den);

	*rct = 1 + (u32)ceil_snap(64 / -log2(pmax));
	*apt = 1 + (u32)ceil_snap(1023 * pmax + apt_margin());
}

static void test_cutoffs(void)
{
	static const struct {
		u64 num, den;
		u32 rct, apt;	/* documented values, 0 when none */
	} ps[] = {
		{ 1, 2, 65, 664 }, { 7, 10, 0, 0 }, { 9, 10, 0, 0 },
		{ 19, 20, 866, 0 }, { 1, 20, 866, 0 }, { 999999, 1000000, 866, 0 },
		{ 0, 1, 866, 0 }, { 1, 1, 866, 0 }, { 3, 10, 0, 0 },
		{ 1, 3, 0, 0 }, { 2, 3, 0, 0 }, { 17, 20, 0, 0 },
		{ 852, 1000, 0, 0 }, { 853, 1000, 0, 0 }, { 6, 10, 0, 0 },
		{ 1ULL << 62, 1ULL << 63, 65, 664 }, { ~0ULL, ~0ULL, 866, 0 },
		{ 1, ~0ULL, 866, 0 },
	};
	unsigned int i, bad = 0, cases = 0;
	u64 num, den;
	u32 rct, apt;

	CHECK(apt_margin() == 151, "Hoeffding margin %.0f, the comment says 151",
	      apt_margin());
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		struct fd_health h;

		fd_health_init(&h, ps[i].num, ps[i].den, false);
		expected_cutoffs(ps[i].num, ps[i].den, &rct, &apt);
		CHECK(h.rct_cutoff == rct && h.apt_cutoff == apt,
		      "p = %llu/%llu: cutoffs %u/%u, formulas give %u/%u",
		      ps[i].num, ps[i].den, h.rct_cutoff, h.apt_cutoff, rct, apt);
		if (ps[i].rct)
			CHECK(h.rct_cutoff == ps[i].rct, "p = %llu/%llu: C = %u, documented %u",
			      ps[i].num, ps[i].den, h.rct_cutoff, ps[i].rct);
		if (ps[i].apt)
			CHECK(h.apt_cutoff == ps[i].apt, "p = %llu/%llu: APT %u, documented %u",
			      ps[i].num, ps[i].den, h.apt_cutoff, ps[i].apt);
		NOTE("cutoffs: p = %llu/%llu: repetition %u, adaptive proportion %u%s",
		     ps[i].num, ps[i].den, h.rct_cutoff, h.apt_cutoff,
		     h.apt_cutoff > FD_APT_WINDOW ? " (never fires)" : "");
	}

	/* Every fraction with a small denominator, and random large ones. */
	for (den = 1; den <= 200; den++) {
		for (num = 0; num <= den; num++) {
			long double pm = pmax_of(num, den);
			struct fd_health h;

			fd_health_init(&h, num, den, false);
			expected_cutoffs(num, den, &rct, &apt);
			cases++;
			bad += h.rct_cutoff != rct || h.apt_cutoff != apt;
			/* The definition of C, in long double. */
			bad += !(powl(pm, h.rct_cutoff - 1) <= powl(2, -64) &&
				 powl(pm, h.rct_cutoff - 2) > powl(2, -64));
		}
	}
	for (i = 0; i < 20000; i++) {
		struct fd_health h;

		den = fd_test_rand(&rng) >> fd_test_below(&rng, 64);
		den += !den;
		num = fd_test_below(&rng, den) + (fd_test_below(&rng, 4) == 0);
		fd_health_init(&h, num, den, false);
		expected_cutoffs(num, den, &rct, &apt);
		cases++;
		bad += h.rct_cutoff != rct || h.apt_cutoff != apt;
	}
	CHECK(!bad, "cutoffs differ from the formulas for %u of %u fractions",
	      bad, cases);

	/* Where the adaptive proportion test stops firing. */
	for (num = 500; num <= 1000; num++) {
		struct fd_health h;

		fd_health_init(&h, num, 1000, false);
		if (h.apt_cutoff > FD_APT_WINDOW)
			break;
	}
	NOTE("cutoffs: the adaptive proportion test never fires from pmax = %llu/1000 on",
	     num);
}

/*
 * Feed @words words; return the 1-based index of the first failing word and
 * its result, or 0.
 */
static unsigned int first_failure(struct fd_health *h, const u64 *w,
				  unsigned int words,
				  enum fd_health_result *res)
{
	unsigned int i;

	for (i = 0; i < words; i++) {
		*res = fd_health_word(h, w[i]);
		if (*res != FD_HEALTH_OK)
			return i + 1;
	}
	return 0;
}

static void test_stuck(void)
{
	static u64 w[64];
	enum fd_health_result res = FD_HEALTH_OK;
	unsigned int i, b, at;
	struct fd_health h;

	for (b = 0; b < 2; b++) {
		for (i = 0; i < ARRAY_SIZE(w); i++)
			w[i] = b ? ~0ULL : 0;
		/* Full entropy claimed: C = 65, so the second word. */
		fd_health_init(&h, 1, 2, false);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == 2 && res == FD_HEALTH_RCT,
		      "all-%u words, p = 1/2: failed at word %u (%d)", b, at, res);
		fd_health_init(&h, 1, 2, true);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == 2 && res == FD_HEALTH_WORD,
		      "all-%u words, check_words: failed at word %u (%d)", b, at, res);
		/* Claimed p = 19/20: C = 866 falls in word 14. */
		fd_health_init(&h, 19, 20, false);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == (h.rct_cutoff + 63) / 64 && res == FD_HEALTH_RCT,
		      "all-%u words, p = 19/20: failed at word %u (%d)", b, at, res);
	}

	/* The simulated coin at p = 0 and p = 1, judged against its own p. */
	for (b = 0; b < 2; b++) {
		struct fd_sim sim;

		fd_sim_init(&sim, 5, b, 1);
		fd_health_init(&h, b, 1, false);
		for (i = 0; i < ARRAY_SIZE(w); i++)
			w[i] = fd_sim_word(&sim);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at && at * 64 <= 64 * ((h.rct_cutoff + 63) / 64) &&
		      res == FD_HEALTH_RCT,
		      "sim p = %u: failed at word %u, C = %u", b, at, h.rct_cutoff);
		NOTE("stuck: sim p = %u fails after %u bits (C = %u)", b, at * 64,
		     h.rct_cutoff);
	}
}

static void test_biased(void)
{
	unsigned int seed, worst = 0, fails = 0;
	unsigned long total = 0;

	for (seed = 1; seed <= 1000; seed++) {
		enum fd_health_result res = FD_HEALTH_OK;
		struct fd_health h;
		struct fd_sim sim;
		unsigned int i;

		fd_sim_init(&sim, seed, 999999, 1000000);
		fd_health_init(&h, 999999, 1000000, false);
		for (i = 1; i <= 8192 / 64; i++) {
			res = fd_health_word(&h, fd_sim_word(&sim));
			if (res != FD_HEALTH_OK)
				break;
		}
		if (res == FD_HEALTH_OK) {
			fails++;
			continue;
		}
		total += i * 64;
		if (i * 64 > worst)
			worst = i * 64;
	}
	CHECK(!fails, "p = 999999/1000000: %u of 1000 seeds pass 8192 bits", fails);
	NOTE("biased: p = 0.999999 fails after %.1f bits on average, at most %u (1000 seeds)",
	     total / 1000.0, worst);
}

static void test_healthy(void)
{
	static const struct {
		u64 num, den;
		bool words;
	} ps[] = {
		{ 1, 20, false }, { 1, 2, false }, { 7, 10, false },
		{ 19, 20, false }, { 1, 2, true },
	};
	const unsigned long words = 100000000 / 64 + 1;
	unsigned int pi;
	unsigned long i;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		enum fd_health_result res = FD_HEALTH_OK;
		struct fd_health h;
		struct fd_sim sim;

		fd_sim_init(&sim, 2024 + pi, ps[pi].num, ps[pi].den);
		fd_health_init(&h, ps[pi].num, ps[pi].den, ps[pi].words);
		for (i = 0; i < words && res == FD_HEALTH_OK; i++)
			res = fd_health_word(&h, fd_sim_word(&sim));
		CHECK(res == FD_HEALTH_OK,
		      "p = %llu/%llu%s: false alarm %d after %lu bits",
		      ps[pi].num, ps[pi].den, ps[pi].words ? " (words)" : "",
		      res, i * 64);
	}
	NOTE("healthy: 5 coins passed %lu bits each", words * 64);
}

static void test_words(void)
{
	enum fd_health_result r1, r2, r3;
	struct fd_health h;
	u64 w = fd_test_rand(&rng), x = fd_test_rand(&rng);

	fd_health_init(&h, 1, 2, true);
	r1 = fd_health_word(&h, w);
	r2 = fd_health_word(&h, w);
	CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_WORD,
	      "check_words: repeat gave %d %d", r1, r2);
	fd_health_init(&h, 1, 2, true);
	r1 = fd_health_word(&h, w);
	r2 = fd_health_word(&h, x);
	r3 = fd_health_word(&h, w);
	CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_OK && r3 == FD_HEALTH_OK,
	      "check_words: w x w gave %d %d %d", r1, r2, r3);
	fd_health_init(&h, 1, 2, false);
	r1 = fd_health_word(&h, w);
	r2 = fd_health_word(&h, w);
	CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_OK,
	      "without check_words: repeat gave %d %d", r1, r2);
	/* Restart forgets the last word. */
	fd_health_init(&h, 1, 2, true);
	fd_health_word(&h, w);
	fd_health_restart(&h);
	CHECK(fd_health_word(&h, w) == FD_HEALTH_OK, "restart kept the last word");
}

#define STREAM_WORDS	48

/* Failing cases described so far. */
static unsigned int reported;

static void set_bit(u64 *w, unsigned int i, unsigned int b)
{
	if (b)
		w[i / 64] |= 1ULL << (i % 64);
	else
		w[i / 64] &= ~(1ULL << (i % 64));
}

static unsigned int get_bit(const u64 *w, unsigned int i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

/* Random words whose runs are all shorter than @max, bit by bit. */
static void filler(u64 *w, unsigned int words, unsigned int max)
{
	unsigned int i, run = 0;

	for (i = 0; i < words; i++)
		w[i] = fd_test_rand(&rng);
	for (i = 1; i < words * 64; i++) {
		run = get_bit(w, i) == get_bit(w, i - 1) ? run + 1 : 0;
		if (run + 1 >= max) {
			set_bit(w, i, !get_bit(w, i));
			run = 0;
		}
	}
}

/*
 * A stream with a run of @len bits @b from bit @s, bounded by opposite bits:
 * it must fail in the word holding the run's C-th bit, or not at all when
 * the run is shorter than C.
 */
static bool run_case(u64 num, u64 den, unsigned int s, unsigned int b,
		     u32 len)
{
	static u64 w[STREAM_WORDS];
	enum fd_health_result res = FD_HEALTH_OK;
	unsigned int i, at, want;
	struct fd_health h;

	fd_health_init(&h, num, den, false);
	filler(w, STREAM_WORDS, 40);
	for (i = 0; i < len; i++)
		set_bit(w, s + i, b);
	if (s)
		set_bit(w, s - 1, !b);
	set_bit(w, s + len, !b);
	want = len >= h.rct_cutoff ? (s + h.rct_cutoff - 1) / 64 + 1 : 0;
	at = first_failure(&h, w, STREAM_WORDS, &res);
	if (at == want && (!want || res == FD_HEALTH_RCT))
		return true;
	if (++reported > 5)
		return false;
	NOTE("p = %llu/%llu: run of %u %us at bit %u: failure at word %u (%d), expected %u",
	     num, den, len, b, s, at, res, want);
	return false;
}

static void test_runs(void)
{
	static const struct {
		u64 num, den;
	} ps[] = { { 1, 2 }, { 7, 10 }, { 19, 20 } };
	unsigned int pi, start, b, cases = 0, bad = 0;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		struct fd_health h;
		u32 c;

		fd_health_init(&h, ps[pi].num, ps[pi].den, false);
		c = h.rct_cutoff;
		/*
		 * Runs from the very first bit (the tests start as if after a
		 * 0), and from every alignment after 128 bits of noise; of
		 * C - 1, C and C + 100 bits, across two to fifteen words.
		 */
		for (start = 0; start < 128; start++) {
			unsigned int s = start < 64 ? start : start + 64;

			for (b = 0; b < 2; b++) {
				bad += !run_case(ps[pi].num, ps[pi].den, s, b, c - 1);
				bad += !run_case(ps[pi].num, ps[pi].den, s, b, c);
				bad += !run_case(ps[pi].num, ps[pi].den, s, b, c + 100);
				cases += 3;
			}
		}
	}
	CHECK(!bad, "runs: %u of %u streams judged wrongly", bad, cases);
	NOTE("runs: %u streams with runs of C - 1, C and C + 100 bits", cases);
}

/*
 * One window of 1024 bits whose first bit is @b and with exactly @k bits
 * equal to @b (the first included), spread evenly. Return the 1-based word
 * of the window that holds the @cut-th such bit, 0 if none.
 */
static unsigned int apt_window(u64 *w, unsigned int b, unsigned int k,
			       unsigned int cut)
{
	unsigned int j, seen = 1, at = cut == 1;

	memset(w, 0, FD_APT_WINDOW / 8);
	set_bit(w, 0, b);
	for (j = 1; j < FD_APT_WINDOW; j++) {
		bool same = (j + 1) * (k - 1) / (FD_APT_WINDOW - 1) >
			    j * (k - 1) / (FD_APT_WINDOW - 1);

		set_bit(w, j, same ? b : !b);
		if (same && ++seen == cut)
			at = j / 64 + 1;
	}
	return seen == k ? at : ~0u;
}

/*
 * Four windows, all but window @pos with cutoff - 1 bits equal to their
 * first bit; window @pos has cutoff - 1 + @delta of them, its first bit @b.
 */
static bool apt_case(u64 num, u64 den, unsigned int pos, unsigned int b,
		     unsigned int delta)
{
	static u64 w[4 * FD_APT_WINDOW / 64];
	const unsigned int ww = FD_APT_WINDOW / 64;
	enum fd_health_result res = FD_HEALTH_OK;
	unsigned int i, at, want;
	struct fd_health h;
	u32 a;

	fd_health_init(&h, num, den, false);
	a = h.apt_cutoff;
	for (i = 0; i < 4; i++)
		apt_window(w + i * ww, (i + b) & 1, a - 1, 0);
	want = apt_window(w + pos * ww, b, a - 1 + delta, a);
	want = delta ? pos * ww + want : 0;
	at = first_failure(&h, w, 4 * ww, &res);
	if (at == want && (!want || res == FD_HEALTH_APT))
		return true;
	if (++reported > 5)
		return false;
	NOTE("p = %llu/%llu: window %u with %u bits equal to its first %u: failure at word %u (%d), expected %u",
	     num, den, pos, a - 1 + delta, b, at, res, want);
	return false;
}

static void test_apt(void)
{
	static const struct {
		u64 num, den;
	} ps[] = { { 1, 2 }, { 7, 10 }, { 3, 5 } };
	unsigned int pi, b, pos, cases = 0, bad = 0;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		struct fd_health h;

		fd_health_init(&h, ps[pi].num, ps[pi].den, false);
		for (b = 0; b < 2; b++) {
			/* The window under test is the first, second or fourth. */
			for (pos = 0; pos < 4; pos += pos == 1 ? 2 : 1) {
				bad += !apt_case(ps[pi].num, ps[pi].den, pos, b, 0);
				bad += !apt_case(ps[pi].num, ps[pi].den, pos, b, 1);
				cases += 2;
			}
		}
		NOTE("apt: p = %llu/%llu: %u equal bits pass, %u fail", ps[pi].num,
		     ps[pi].den, h.apt_cutoff - 1, h.apt_cutoff);
	}
	CHECK(!bad, "apt: %u of %u streams judged wrongly", bad, cases);
}

int main(void)
{
	double t0 = fd_test_now();

	test_cutoffs();
	test_stuck();
	test_biased();
	test_words();
	test_runs();
	test_apt();
	test_healthy();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_test_summary();
}
