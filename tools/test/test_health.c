// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the continuous health tests (driver/fd_health.c).
 *
 *   cutoffs   recomputed in floating point from the formulas in the comment
 *             of fd_health.c (pmax = max(p, 1 - p) clamped to 19/20;
 *             repetition C = 1 + ceil(76 / -log2 pmax); adaptive proportion
 *             1 + ceil(1023 pmax + t) with t the least integer such that
 *             exp(-2 t^2 / 1023) <= 2^-66; repeated word W = ceil(70 /
 *             (-64 log2 pmax))) and compared with
 *             fd_health_init() for many p, and checked against the
 *             definition 1024 pmax^(C - 1) <= 2^-66 < 1024 pmax^(C - 2)
 *   claims    hardware sources: full-entropy cutoffs under NONE, the
 *             [1/20, 19/20] range under VN, PERES, DIJKSTRA, following a
 *             change of extractor; the false alarm bound of the three tests
 *             and of the starvation limits, summed, is below 2^-64 per window
 *             for every pmax in [1/2, 19/20]
 *   hwbias    the shared pipeline on a hardware-mode source with P(1) = 5/8
 *             and 9/10: no EIO under VN, PERES and DIJKSTRA, EIO under NONE;
 *             the first VN bit of 1.5 M windows is fair (conditioning on
 *             passing made it 0.4923, 18 standard errors off, with the
 *             full-entropy cutoffs this replaced)
 *   serial    fd_health_word() against a bit-by-bit reference of the same
 *             tests: the same first failing word, and the same test named
 *             (the one whose alarm bit comes first), on every sequence of
 *             four words from a family of run-boundary words, under several
 *             cutoffs, and on long random streams of biased coins
 *   stuck     all-zero and all-one words, and fd_sim with p = 0 and p = 1,
 *             fail in the word holding bit C of the run
 *   biased    p = 999999/1000000 fails within 8192 bits for 1000 seeds
 *   healthy   p = 1/20, 1/2, 7/10, 19/20 pass 10^8 bits each
 *   words     W repeats of a word fail, W - 1 pass, only with check_words
 *   runs      runs of exactly C - 1 and C identical bits, built bit by bit
 *             at every alignment, across two to fifteen words: C - 1
 *             passes, C fails in the word holding the run's C-th bit
 *   apt       a window with exactly cutoff - 1 bits equal to its first bit
 *             passes, one with cutoff fails where the count reaches it
 *   batch     fd_health_words() in runs of random length against
 *             fd_health_word() word by word, on streams that fail every
 *             test now and then: the same failing word, the same test
 *             named, the same state left
 */
#include <math.h>

#include "fd_test.h"
#include "fd_health.h"
#include "fd_pipe.h"
#include "fd_sim.h"
#include "fd_vn.h"

static u64 rng = 0x4ea1;

/* The documented formulas, in floating point. */
static double apt_margin(void)
{
	double t = 0;

	while (exp(-2 * t * t / 1023) > pow(2, -66))
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

static void expected_cutoffs(u64 num, u64 den, u32 *rct, u32 *apt, u32 *word)
{
	double pmax = pmax_of(num, den);

	*rct = 1 + (u32)ceil_snap(76 / -log2(pmax));
	*apt = 1 + (u32)ceil_snap(1023 * pmax + apt_margin());
	*word = (u32)ceil_snap(70 / (-64 * log2(pmax)));
}

static void test_cutoffs(void)
{
	static const struct {
		u64 num, den;
		u32 rct, apt, word;	/* documented values, 0 when none */
	} ps[] = {
		{ 1, 2, 77, 666, 2 }, { 7, 10, 0, 0, 0 }, { 9, 10, 0, 0, 0 },
		{ 19, 20, 1029, 0, 15 }, { 1, 20, 1029, 0, 15 },
		{ 999999, 1000000, 1029, 0, 15 }, { 5, 8, 0, 0, 0 },
		{ 0, 1, 1029, 0, 0 }, { 1, 1, 1029, 0, 0 }, { 3, 10, 0, 0, 0 },
		{ 1, 3, 0, 0, 0 }, { 2, 3, 0, 0, 0 }, { 17, 20, 0, 0, 0 },
		{ 850, 1000, 0, 0, 0 }, { 851, 1000, 0, 0, 0 }, { 6, 10, 0, 0, 0 },
		{ 1ULL << 62, 1ULL << 63, 77, 666, 2 }, { ~0ULL, ~0ULL, 1029, 0, 15 },
		{ 1, ~0ULL, 1029, 0, 0 },
	};
	unsigned int i, bad = 0, cases = 0;
	u64 num, den;
	u32 rct, apt, word;

	CHECK(apt_margin() == 153, "Hoeffding margin %.0f, the comment says 153",
	      apt_margin());
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		struct fd_health h;

		fd_health_init(&h, ps[i].num, ps[i].den, false);
		expected_cutoffs(ps[i].num, ps[i].den, &rct, &apt, &word);
		CHECK(h.rct_cutoff == rct && h.apt_cutoff == apt &&
		      h.word_cutoff == word,
		      "p = %llu/%llu: cutoffs %u/%u/%u, formulas give %u/%u/%u",
		      ps[i].num, ps[i].den, h.rct_cutoff, h.apt_cutoff,
		      h.word_cutoff, rct, apt, word);
		if (ps[i].word)
			CHECK(h.word_cutoff == ps[i].word, "p = %llu/%llu: W = %u, documented %u",
			      ps[i].num, ps[i].den, h.word_cutoff, ps[i].word);
		if (ps[i].rct)
			CHECK(h.rct_cutoff == ps[i].rct, "p = %llu/%llu: C = %u, documented %u",
			      ps[i].num, ps[i].den, h.rct_cutoff, ps[i].rct);
		if (ps[i].apt)
			CHECK(h.apt_cutoff == ps[i].apt, "p = %llu/%llu: APT %u, documented %u",
			      ps[i].num, ps[i].den, h.apt_cutoff, ps[i].apt);
		NOTE("cutoffs: p = %llu/%llu: repetition %u, word %u, adaptive proportion %u%s",
		     ps[i].num, ps[i].den, h.rct_cutoff, h.word_cutoff, h.apt_cutoff,
		     h.apt_cutoff > FD_APT_WINDOW ? " (never fires)" : "");
	}

	/* Every fraction with a small denominator, and random large ones. */
	for (den = 1; den <= 200; den++) {
		for (num = 0; num <= den; num++) {
			long double pm = pmax_of(num, den);
			struct fd_health h;


			fd_health_init(&h, num, den, false);
			expected_cutoffs(num, den, &rct, &apt, &word);
			cases++;
			bad += h.rct_cutoff != rct || h.apt_cutoff != apt ||
			       h.word_cutoff != word;
			/* The definitions of C and W, in long double. */
			bad += !(1024 * powl(pm, h.rct_cutoff - 1) <= powl(2, -66) &&
				 1024 * powl(pm, h.rct_cutoff - 2) > powl(2, -66));
			bad += !(16 * powl(pm, 64 * h.word_cutoff) <= powl(2, -66) &&
				 16 * powl(pm, 64 * (h.word_cutoff - 1)) > powl(2, -66));
		}
	}
	for (i = 0; i < 20000; i++) {
		struct fd_health h;

		den = fd_test_rand(&rng) >> fd_test_below(&rng, 64);
		den += !den;
		num = fd_test_below(&rng, den) + (fd_test_below(&rng, 4) == 0);
		fd_health_init(&h, num, den, false);
		expected_cutoffs(num, den, &rct, &apt, &word);
		cases++;
		bad += h.rct_cutoff != rct || h.apt_cutoff != apt ||
		       h.word_cutoff != word;
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
		/* Full entropy claimed: C = 77, so the second word. */
		fd_health_init(&h, 1, 2, false);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == 2 && res == FD_HEALTH_RCT,
		      "all-%u words, p = 1/2: failed at word %u (%d)", b, at, res);
		fd_health_init(&h, 1, 2, true);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == 2 && res == FD_HEALTH_RCT,
		      "all-%u words, check_words: failed at word %u (%d)", b, at, res);
		/* Claimed 19/20 with words: the 15th repeat, word 16. */
		fd_health_init(&h, 19, 20, true);
		at = first_failure(&h, w, ARRAY_SIZE(w), &res);
		CHECK(at == 16 && res == FD_HEALTH_WORD,
		      "all-%u words, p = 19/20, check_words: failed at word %u (%d)",
		      b, at, res);
		/* Claimed p = 19/20: C = 1029 falls in word 17. */
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

	unsigned int k, pi;
	static const u64 claims[][2] = { { 1, 2 }, { 5, 8 }, { 19, 20 } };

	/* W - 1 repeats pass, W fail; another word between starts afresh. */
	for (pi = 0; pi < ARRAY_SIZE(claims); pi++) {
		fd_health_init(&h, claims[pi][0], claims[pi][1], true);
		r1 = fd_health_word(&h, w);
		for (k = 1; k < h.word_cutoff; k++)
			r1 |= fd_health_word(&h, w);
		r1 |= fd_health_word(&h, x);
		for (k = 1; k < h.word_cutoff; k++)
			r1 |= fd_health_word(&h, x);
		r2 = fd_health_word(&h, x);
		CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_WORD,
		      "check_words, p = %llu/%llu, W = %u: gave %d %d",
		      claims[pi][0], claims[pi][1], h.word_cutoff, r1, r2);
	}
	fd_health_init(&h, 1, 2, true);
	r1 = fd_health_word(&h, w);
	r2 = fd_health_word(&h, w);
	r3 = fd_health_word(&h, w);
	CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_OK && r3 == FD_HEALTH_WORD,
	      "check_words: w w w gave %d %d %d", r1, r2, r3);
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
	/* Restart forgets the last word and the repeats. */
	fd_health_init(&h, 1, 2, true);
	fd_health_word(&h, w);
	fd_health_word(&h, w);
	fd_health_restart(&h);
	r1 = fd_health_word(&h, w);
	r2 = fd_health_word(&h, w);
	CHECK(r1 == FD_HEALTH_OK && r2 == FD_HEALTH_OK,
	      "restart kept the last word");
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

/* ------------------------------------------------------------------
 * Hardware sources: the claim follows the extractor.
 */

/* A bound on the chance that VN starves the pipeline in a window. */
static long double starve_bound(long double pm)
{
	long double eq = pm * pm + (1 - pm) * (1 - pm);

	/* FD_PIPE_DRY_VN words of 32 equal pairs, ending at one of 16 words. */
	return 16 * powl(eq, 32.0L * FD_PIPE_DRY_VN);
}

/* Chernoff: fewer than 63 successes in n tries of chance at least q. */
static long double dijkstra_bound(void)
{
	long double n = FD_PIPE_DRY_DIJKSTRA * 64.0L / 61, q = 0.095L;
	long double mu = n * q, d = 1 - 62 / mu;

	return 16 * expl(-d * d * mu / 2);
}

static void test_claims(void)
{
	static const u32 exts[] = { FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
				    FAIRDIE_EXT_DIJKSTRA, FAIRDIE_EXT_NONE };
	static struct fd_pipe p;
	static struct fd_peres peres;
	long double pm, worst = 0, worst_pm = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(exts); i++) {
		bool none = exts[i] == FAIRDIE_EXT_NONE;

		memset(&p, 0, sizeof(p));
		p.peres = &peres;
		fd_pipe_configure(&p, 6, exts[i]);
		fd_pipe_restart_hw(&p);
		CHECK(p.health.check_words && p.tested &&
		      p.health.rct_cutoff == (none ? 77u : 1029u) &&
		      p.health.apt_cutoff == (none ? 666u : 1126u) &&
		      p.health.word_cutoff == (none ? 2u : 15u),
		      "hardware under extractor %u: cutoffs %u/%u/%u", exts[i],
		      p.health.rct_cutoff, p.health.apt_cutoff,
		      p.health.word_cutoff);
		/* A change of extractor moves the cutoffs, keeping the run. */
		p.health.run = 70;
		fd_pipe_configure(&p, 6, none ? FAIRDIE_EXT_VN : FAIRDIE_EXT_NONE);
		CHECK(p.health.rct_cutoff == (none ? 1029u : 77u) &&
		      p.health.run == 70,
		      "extractor %u changed: C %u, run %u", exts[i],
		      p.health.rct_cutoff, p.health.run);
	}
	/* The simulated coin keeps its own claim whatever the extractor. */
	memset(&p, 0, sizeof(p));
	fd_pipe_restart(&p, 1, 2, true, false);
	fd_pipe_configure(&p, 6, FAIRDIE_EXT_VN);
	CHECK(p.health.rct_cutoff == 77 && !p.health.check_words,
	      "sim 1/2 under VN: C %u", p.health.rct_cutoff);

	/*
	 * The false alarm bound per window for every pmax in [1/2, 19/20],
	 * with the cutoffs of the claim pmax itself (the tightest): RCT, APT
	 * (Hoeffding), word repeats, and the starvation limits.
	 */
	for (pm = 0.5L; pm <= 0.95L + 1e-12L; pm += 0.0005L) {
		struct fd_health h;
		u64 num = (u64)(pm * 1000000 + 0.5L);
		long double rep, total, t;
		u32 wc;

		fd_health_init(&h, num, 1000000, true);
		pm = num / 1000000.0L;
		wc = h.word_cutoff;
		/* W + 1 equal words: every bit agrees W + 1 times. */
		rep = powl(pm, wc + 1) + powl(1 - pm, wc + 1);
		t = h.apt_cutoff - 1 - 1023 * pm;
		total = 1024 * (powl(pm, h.rct_cutoff) +
				powl(1 - pm, h.rct_cutoff)) +
			(t > 0 ? expl(-2 * t * t / 1023) : 1) +
			16 * powl(rep, 64) +
			starve_bound(pm) + dijkstra_bound();
		if (total > worst) {
			worst = total;
			worst_pm = pm;
		}
	}
	CHECK(worst < powl(2, -64), "false alarms: 2^%.2Lf per window at pmax %.4Lf",
	      log2l(worst), worst_pm);
	NOTE("claims: false alarm bound at most 2^%.2Lf per window (pmax %.4Lf); starvation: VN 2^%.0Lf, Dijkstra 2^%.0Lf",
	     log2l(worst), worst_pm, log2l(starve_bound(0.95L)),
	     log2l(dijkstra_bound()));
}

struct coin_src {
	struct fd_sim sim;
};

static int coin_word(void *ctx, bool nonblock, u64 *w)
{
	(void)nonblock;
	*w = fd_sim_word(&((struct coin_src *)ctx)->sim);
	return 0;
}

static bool coin_interrupted(void *ctx)
{
	(void)ctx;
	return false;
}

static const struct fd_source_ops coin_ops = {
	.word = coin_word,
	.interrupted = coin_interrupted,
};

/*
 * A hardware-mode source with P(1) = @num/@den through fd_pipe_roll(), d6,
 * until EIO or @cap raw bits, @runs times: the runs that ended in EIO and
 * their mean length in raw bits.
 */
static unsigned int hw_runs(u32 ext, u64 num, u64 den, u64 cap,
			    unsigned int runs, double *mean)
{
	static struct fd_pipe p;
	static struct fd_peres peres;
	struct coin_src s;
	unsigned long long total = 0;
	unsigned int k, eio = 0;

	fd_sim_init(&s.sim, 77 + ext, num, den);
	for (k = 0; k < runs; k++) {
		u64 out;
		int err = 0;

		memset(&p, 0, sizeof(p));
		p.peres = &peres;
		fd_pipe_configure(&p, 6, ext);
		fd_pipe_restart_hw(&p);
		while (p.source_bits < cap &&
		       !(err = fd_pipe_roll(&p, &coin_ops, &s, false, &out)))
			;
		total += p.source_bits;
		eio += err == -EIO;
	}
	*mean = (double)total / runs;
	return eio;
}

static void test_hwbias(void)
{
	static const char * const names[] = { "vn", "peres", "dijkstra", "none" };
	static const u64 ps[][2] = { { 5, 8 }, { 9, 10 } };
	unsigned long windows = 1500000, i, pass = 0, ones = 0;
	struct fd_health h;
	struct fd_sim sim;
	unsigned int pi;
	double mean, z;
	u32 ext;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		for (ext = 0; ext < ARRAY_SIZE(names); ext++) {
			bool none = ext == FAIRDIE_EXT_NONE;
			unsigned int eio = hw_runs(ext, ps[pi][0], ps[pi][1],
						   none ? 1 << 24 : 1 << 22,
						   none ? 100 : 4, &mean);

			CHECK(none ? eio == 100 : !eio,
			      "hardware P(1) = %llu/%llu, %s: %u runs ended in EIO",
			      ps[pi][0], ps[pi][1], names[ext], eio);
			NOTE("hwbias: P(1) = %llu/%llu, %s: %u of %u runs ended in EIO, %.0f raw bits per run",
			     ps[pi][0], ps[pi][1], names[ext], eio,
			     none ? 100 : 4, mean);
		}
	}

	/*
	 * The first VN bit of each window (after the start-up bits) that
	 * passes the tests of a hardware source under VN, P(1) = 5/8.
	 */
	fd_sim_init(&sim, 5, 5, 8);
	fd_health_init(&h, FD_PMAX_NUM, FD_PMAX_DEN, true);
	for (i = 0; i < FD_STARTUP_BITS / 64; i++)
		fd_health_word(&h, fd_sim_word(&sim));
	for (i = 0; i < windows; i++) {
		u64 w[FD_APT_WINDOW / 64], fair;
		bool bad = false;
		unsigned int k;

		for (k = 0; k < ARRAY_SIZE(w); k++) {
			w[k] = fd_sim_word(&sim);
			bad |= fd_health_word(&h, w[k]) != FD_HEALTH_OK;
		}
		if (bad) {
			fd_health_restart(&h);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(w); k++) {
			if (fd_vn_word(w[k], &fair)) {
				pass++;
				ones += fair & 1;
				break;
			}
		}
	}
	z = ((double)ones / pass - 0.5) / sqrt(0.25 / pass);
	CHECK(pass == windows && fabs(z) < 5,
	      "first VN bit of %lu passing windows: %.4f, %.1f standard errors from 1/2",
	      pass, (double)ones / pass, z);
	NOTE("hwbias: first VN bit of a passing window is 1 with probability %.4f (%lu of %lu windows passed, %.1f SE from 1/2)",
	     (double)ones / pass, pass, windows, z);
}

/* ------------------------------------------------------------------
 * The word-at-a-time tests against a bit-by-bit reference.
 */

struct ref {
	u32 c, a, wc;
	bool words;
	u32 run, seen, count, repeats;
	unsigned int run_bit, first;
	bool have;
	u64 last;
};

static void ref_init(struct ref *r, const struct fd_health *h)
{
	memset(r, 0, sizeof(*r));
	r->c = h->rct_cutoff;
	r->a = h->apt_cutoff;
	r->wc = h->word_cutoff;
	r->words = h->check_words;
}

/*
 * SP 800-90B 4.4.1 and 4.4.2, one bit at a time: the test that fired first
 * (the word check before any bit, the repetition count before the adaptive
 * proportion at the same bit), or FD_HEALTH_OK.
 */
static enum fd_health_result ref_word(struct ref *r, u64 w)
{
	enum fd_health_result first = FD_HEALTH_OK;
	unsigned int i;

	if (r->words) {
		r->repeats = r->have && w == r->last ? r->repeats + 1 : 0;
		if (r->repeats >= r->wc)
			first = FD_HEALTH_WORD;
		r->have = true;
		r->last = w;
	}
	for (i = 0; i < 64; i++) {
		unsigned int b = (w >> i) & 1;

		/* Repetition count; the tests start as if after a 0. */
		if (b == r->run_bit) {
			r->run++;
		} else {
			r->run_bit = b;
			r->run = 1;
		}
		if (r->run >= r->c && first == FD_HEALTH_OK)
			first = FD_HEALTH_RCT;
		/* Adaptive proportion. */
		if (!r->seen) {
			r->first = b;
			r->count = 0;
		}
		r->count += b == r->first;
		if (++r->seen == FD_APT_WINDOW)
			r->seen = 0;
		if (r->count >= r->a && first == FD_HEALTH_OK)
			first = FD_HEALTH_APT;
	}
	return first;
}

/* Cutoffs under which short sequences reach every test. */
static const struct {
	u32 c, a, wc;
	bool words;
} serial_cuts[] = {
	{ 65, 1025, 1, true }, { 128, 100, 2, true }, { 129, 150, 3, false },
	{ 192, 191, 1, false }, { 77, 666, 2, true }, { 1029, 1126, 15, true },
};

static void serial_setup(struct fd_health *h, struct ref *r, unsigned int ci)
{
	fd_health_init(h, 1, 2, serial_cuts[ci].words);
	h->rct_cutoff = serial_cuts[ci].c;
	h->apt_cutoff = serial_cuts[ci].a;
	h->word_cutoff = serial_cuts[ci].wc;
	ref_init(r, h);
}

static void test_serial(void)
{
	static u64 fam2[256 * 3];
	u64 fam[64];
	unsigned int nf = 0, a, i, ci, depth = 4;
	unsigned long seqs = 0, bad = 0, words = 0, fails = 0;
	static const unsigned int cuts[] = { 0, 1, 2, 3, 31, 32, 33, 61, 62, 63 };

	/* Run boundaries at the ends of a word: 0^a 1^(64-a), 1^a 0^(64-a). */
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		a = cuts[i];
		fam[nf++] = a ? ~0ULL << a : ~0ULL;
		fam[nf++] = a ? ~(~0ULL << a) : 0;
	}
	/* Alternating middles with runs of 1 or 2 at the ends. */
	fam[nf++] = 0x5555555555555555ULL;
	fam[nf++] = 0xaaaaaaaaaaaaaaaaULL;
	fam[nf++] = 0x6666666666666666ULL;
	fam[nf++] = 0x9999999999999999ULL;

	for (ci = 0; ci < ARRAY_SIZE(serial_cuts) - 2; ci++) {
		unsigned long n, total = 1;

		for (i = 0; i < depth; i++)
			total *= nf;
		for (n = 0; n < total; n++) {
			struct fd_health h;
			struct ref r;
			unsigned long m = n;

			serial_setup(&h, &r, ci);
			seqs++;
			for (i = 0; i < depth; i++, m /= nf) {
				u64 w = fam[m % nf];
				enum fd_health_result fired = ref_word(&r, w);
				enum fd_health_result res = fd_health_word(&h, w);

				if (res != fired) {
					bad++;
					break;
				}
				if (fired) {
					fails++;
					break;
				}
			}
		}
	}
	/*
	 * Every pair of words whose four lowest and four highest bits are
	 * arbitrary, around a middle of zeros, ones or alternating bits.
	 */
	nf = 0;
	for (a = 0; a < 256 * 3; a++) {
		static const u64 mid[] = { 0, ~0ULL, 0x5555555555555555ULL };
		u64 m = mid[a / 256] & 0x0ffffffffffffff0ULL;

		fam2[nf++] = m | (a & 15) | ((u64)(a >> 4 & 15) << 60);
	}
	for (ci = 0; ci < 2; ci++) {
		unsigned long n;

		for (n = 0; n < (unsigned long)nf * nf; n++) {
			struct fd_health h;
			struct ref r;

			serial_setup(&h, &r, ci);
			seqs++;
			for (i = 0; i < 2; i++) {
				u64 w = fam2[i ? n % nf : n / nf];
				enum fd_health_result fired = ref_word(&r, w);
				enum fd_health_result res = fd_health_word(&h, w);

				if (res != fired) {
					bad++;
					break;
				}
				if (fired) {
					fails++;
					break;
				}
			}
		}
	}
	CHECK(!bad, "serial: %lu of %lu sequences judged unlike the bit-by-bit reference",
	      bad, seqs);
	NOTE("serial: every sequence of %u words of 24 under %zu cutoffs, and every pair of words with 8 arbitrary edge bits under 2: %lu sequences, %lu failing, as the bit-by-bit reference",
	     depth, ARRAY_SIZE(serial_cuts) - 2, seqs, fails);

	/* Long random streams of biased coins, restarted at each failure. */
	bad = 0;
	fails = 0;
	for (ci = 0; ci < ARRAY_SIZE(serial_cuts); ci++) {
		static const u64 ps[][2] = { { 1, 2 }, { 7, 10 }, { 19, 20 },
					     { 99, 100 } };
		unsigned int pi;

		for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
			struct fd_health h;
			struct fd_sim sim;
			struct ref r;
			unsigned long k;
			u64 w = 0;

			fd_sim_init(&sim, 1000 + ci * 10 + pi, ps[pi][0], ps[pi][1]);
			serial_setup(&h, &r, ci);
			for (k = 0; k < 30000; k++) {
				enum fd_health_result fired, res;

				/* Now and then a repeated word. */
				if (fd_test_below(&rng, 8))
					w = fd_sim_word(&sim);
				fired = ref_word(&r, w);
				res = fd_health_word(&h, w);
				words++;
				bad += res != fired;
				if (fired || res != FD_HEALTH_OK) {
					fails++;
					fd_health_restart(&h);
					ref_init(&r, &h);
				}
			}
		}
	}
	CHECK(!bad, "serial: %lu of %lu random words judged unlike the reference",
	      bad, words);
	NOTE("serial: %lu random words of biased coins, %lu failures, all as the bit-by-bit reference",
	     words, fails);
}

static bool same_state(const struct fd_health *a, const struct fd_health *b)
{
	return a->rct_cutoff == b->rct_cutoff &&
	       a->apt_cutoff == b->apt_cutoff &&
	       a->word_cutoff == b->word_cutoff &&
	       a->check_words == b->check_words && a->run == b->run &&
	       a->run_bit == b->run_bit && a->apt_seen == b->apt_seen &&
	       a->apt_count == b->apt_count && a->apt_bit == b->apt_bit &&
	       a->repeats == b->repeats && a->have_last == b->have_last &&
	       a->last_word == b->last_word;
}

/* A word that now and then breaks a test: runs, repeats, bias. */
static u64 batch_word(u64 *r, u64 prev)
{
	u64 k = fd_test_below(r, 100), x = fd_test_rand(r);

	if (k < 4)
		return 0;
	if (k < 8)
		return ~0ULL;
	if (k < 12)
		return prev;
	if (k < 30)
		return x & fd_test_rand(r) & fd_test_rand(r);
	if (k < 34)
		return x << (k % 64) | ((k & 1) ? ~0ULL >> (64 - k % 64) : 0);
	return x;
}

static void test_batch(void)
{
	static const u64 claims[][2] = { { 1, 2 }, { 7, 10 }, { 19, 20 } };
	static u64 w[512];
	unsigned int c, t, seen[FD_HEALTH_WORD + 1] = { 0 }, bad = 0, runs = 0;
	u64 r = 0xba7c4;

	for (c = 0; c < ARRAY_SIZE(claims); c++) {
		for (t = 0; t < 400; t++) {
			enum fd_health_result ra = FD_HEALTH_OK, rb = FD_HEALTH_OK;
			struct fd_health a, b;
			u32 i, at_a = ARRAY_SIZE(w), at_b = 0, n, done;

			for (i = 0; i < ARRAY_SIZE(w); i++)
				w[i] = batch_word(&r, i ? w[i - 1] : 0);
			fd_health_init(&a, claims[c][0], claims[c][1], t % 2);
			fd_health_init(&b, claims[c][0], claims[c][1], t % 2);
			for (i = 0; i < ARRAY_SIZE(w); i++) {
				ra = fd_health_word(&a, w[i]);
				if (ra != FD_HEALTH_OK) {
					at_a = i;
					break;
				}
			}
			while (at_b < ARRAY_SIZE(w)) {
				n = 1 + fd_test_below(&r, 40);
				if (n > ARRAY_SIZE(w) - at_b)
					n = ARRAY_SIZE(w) - at_b;
				rb = fd_health_words(&b, w + at_b, n, &done);
				runs++;
				at_b += done;
				if (rb != FD_HEALTH_OK || done != n)
					break;
			}
			seen[ra]++;
			if ((ra != rb || at_a != at_b || !same_state(&a, &b)) &&
			    bad++ < 3)
				CHECK(0, "batch: claim %llu/%llu, stream %u: word %u %s one at a time, word %u %s in runs",
				      (unsigned long long)claims[c][0],
				      (unsigned long long)claims[c][1], t,
				      at_a, fd_health_name(ra), at_b,
				      fd_health_name(rb));
		}
	}
	CHECK(!bad, "batch: %u streams of %u differ", bad,
	      (unsigned int)(ARRAY_SIZE(claims) * 400));
	CHECK(seen[FD_HEALTH_OK] && seen[FD_HEALTH_RCT] &&
	      seen[FD_HEALTH_APT] && seen[FD_HEALTH_WORD],
	      "batch: the streams break every test: %u pass, %u repetition, %u proportion, %u word",
	      seen[FD_HEALTH_OK], seen[FD_HEALTH_RCT], seen[FD_HEALTH_APT],
	      seen[FD_HEALTH_WORD]);
	NOTE("batch: %u runs; %u streams pass, %u fail the repetition count, %u the proportion, %u the repeated word",
	     runs, seen[FD_HEALTH_OK], seen[FD_HEALTH_RCT],
	     seen[FD_HEALTH_APT], seen[FD_HEALTH_WORD]);
}

int main(void)
{
	double t0 = fd_test_now();

	test_cutoffs();
	test_claims();
	test_serial();
	test_hwbias();
	test_stuck();
	test_biased();
	test_words();
	test_runs();
	test_apt();
	test_batch();
	test_healthy();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
