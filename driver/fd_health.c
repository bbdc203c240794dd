// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - continuous health tests.
 *
 * The cutoffs follow from pmax, the claimed probability of the source's more
 * likely bit value, and a false alarm budget of 2^-66 per test and per window
 * of FD_APT_WINDOW = 1024 bits, so that a healthy source with any bias up to
 * the claim fails in a given window with probability below 3 * 2^-66 plus
 * the starvation bound of fd_pipe.h (under 2^-200), less than 2^-64. pmax is
 * 1/2 for a full-entropy source (hardware under NONE), 19/20 for a hardware
 * source under a debiasing extractor, max(p, 1 - p) clamped to 19/20 for the
 * simulated coin. Each bound below grows with pmax, so it holds for every
 * source with a bias inside the claim.
 *
 * - repetition count: C, the smallest with 1024 * pmax^(C - 1) <= 2^-66.
 *   The test fires in a window only if some bit t of it ends C equal bits,
 *   which has probability p^C + q^C <= pmax^(C - 1) for each of the 1024 t.
 *   C = 77 for pmax = 1/2, 1029 for pmax = 19/20.
 * - adaptive proportion: in each window, the count B of bits equal to the
 *   first one. Hoeffding's inequality bounds P(B - 1 >= 1023 pmax + t) by
 *   exp(-2 t^2 / 1023) <= 2^-66 for t = 153, so the cutoff is
 *   1 + ceil(1023 pmax + 153): 666 for pmax = 1/2; above 1024 (never fires)
 *   for pmax above 870/1023 (about 0.8504).
 * - repeated word (hardware only): W words in a row equal to their
 *   predecessor fail, W the smallest with 16 * pmax^(64 W) <= 2^-66. The
 *   W + 1 words agree on a given bit with probability
 *   p^(W + 1) + q^(W + 1) <= pmax^W, on all 64 bits with at most
 *   pmax^(64 W), for each of the 16 words of a window that may end such a
 *   row. W = 2 for pmax = 1/2, 15 for pmax = 19/20.
 *
 * Every cutoff C is at least 65, so a run inside a word never fails and each
 * word is tested with a count of trailing and leading equal bits (the
 * repetition count) and a population count (the adaptive proportion):
 * fd_health_word() fails on exactly the word in which a bit-by-bit
 * implementation of the same tests would fail, and names the test that such
 * an implementation sees fail first (tools/test/test_health.c proves both).
 * A stuck source fails at the word holding its C-th equal bit or its W-th
 * repeated word: within 17 words (1088 bits) for every claim, 3 words for a
 * full-entropy claim.
 */

#include "fd_health.h"

/* Hoeffding margin of the adaptive proportion test, see above. */
#define FD_APT_MARGIN	153
/* log2 of the positions a window offers each test: bits, words. */
#define FD_WINDOW_BITS_LOG2	10
#define FD_WINDOW_WORDS_LOG2	4

/*
 * The smallest k with (x / 2^64)^k <= 2^-@e, x a 0.64 fixed-point fraction
 * rounded up (so that k errs large: fewer false alarms), x < 2^64.
 */
static u32 fd_pow_steps(u64 x, u32 e)
{
	/* m * 2^-f is x^k; m is kept in [2^63, 2^64), rounded up. */
	u64 m = 1ULL << 63;
	u32 k = 0, f = 63;

	/* Until m * 2^-f <= 2^-e, i.e. f > 63 + e or m * 2^-f == 2^-e. */
	while (f < 63 + e || (f == 63 + e && m != 1ULL << 63)) {
		fd_u128 y = (fd_u128)m * x;

		m = (u64)(y >> 64) + !!(u64)y;
		while (!(m >> 63)) {
			m <<= 1;
			f++;
		}
		k++;
	}
	return k;
}

/**
 * fd_health_set_claim() - set the cutoffs for a source with P(1) =
 *	@p1_num/@p1_den, keeping the running state
 * @h: the tests
 * @p1_num: numerator of the probability of a one (den / 2 for full entropy)
 * @p1_den: its denominator, at least 1
 *
 * The claim is clamped to pmax <= FD_PMAX_NUM / FD_PMAX_DEN.
 */
void fd_health_set_claim(struct fd_health *h, u64 p1_num, u64 p1_den)
{
	u64 num = p1_num, den = p1_den, rem, pm;
	fd_u128 apt;
	u32 steps;

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
	/* pmax in 0.64 fixed point, rounded up: below 2^64 after the clamp. */
	pm = (u64)fd_div128((fd_u128)num << 64, den, &rem);
	pm += !!rem;
	h->rct_cutoff = 1 + fd_pow_steps(pm, FD_HEALTH_ALPHA_LOG2 +
					 FD_WINDOW_BITS_LOG2);

	apt = fd_div128((fd_u128)num * (FD_APT_WINDOW - 1), den, &rem);
	apt += !!rem;
	h->apt_cutoff = 1 + (u32)apt + FD_APT_MARGIN;

	/* pm^(64 W) <= 2^-70 iff 64 W >= the steps for pm^k <= 2^-70. */
	steps = fd_pow_steps(pm, FD_HEALTH_ALPHA_LOG2 + FD_WINDOW_WORDS_LOG2);
	h->word_cutoff = (steps + 63) / 64;
}

/**
 * fd_health_init() - the tests for a source with P(1) = @p1_num/@p1_den
 * @h: the tests
 * @p1_num: numerator of the probability of a one (den / 2 for full entropy)
 * @p1_den: its denominator, at least 1
 * @check_words: fail on a 64-bit word repeated verbatim too many times
 *	(hardware sources, whose words are independent)
 */
void fd_health_init(struct fd_health *h, u64 p1_num, u64 p1_den,
		    bool check_words)
{
	memset(h, 0, sizeof(*h));
	h->check_words = check_words;
	fd_health_set_claim(h, p1_num, p1_den);
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
	h->repeats = 0;
	h->have_last = false;
	h->last_word = 0;
}

/*
 * Constant time: the raw bits reach no branch and no address. What the
 * caller learns of a word is the verdict, ok or the name of the test that
 * failed, which the device reports anyway; each word's state is computed
 * with masks, and fd_ct_public() marks the verdict public (the one value
 * that the code branches on). tools/ctcheck checks it under valgrind.
 */

/* All ones when @c (0 or 1) is 1, else 0. */
static inline u64 fd_mask(u64 c)
{
	return -c;
}

/* Number of high bits of @w equal to its top bit, 1..64. */
static inline unsigned int fd_high_run(u64 w)
{
	u64 x = w ^ fd_mask(w >> 63);

	/* clz(0) would be 63 with bit 0 set: add (x == 0). */
	return __builtin_clzll(x | 1) + (x == 0);
}

/* The state of the tests after one word, and whether each test fails. */
struct fd_health_step {
	u32 run;
	u32 apt_count;
	u32 repeats;
	u8 run_bit;
	u8 apt_bit;
	u8 word_fails;
	u8 rct_fails;
	u8 apt_fails;
};

/*
 * One word on the state (@run, @run_bit, @apt_count, @apt_bit, @repeats),
 * all with masks. @have_last and @apt_seen say where the word falls, not
 * what it holds: public.
 */
static __always_inline void fd_health_step(const struct fd_health *h, u64 w,
					   u32 run, unsigned int run_bit,
					   u32 apt_seen, u32 apt_count,
					   unsigned int apt_bit, u32 repeats,
					   bool have_last, u64 last,
					   struct fd_health_step *st)
{
	/* The low bits equal to the run carried in: all 64 when x is 0. */
	u64 x = w ^ fd_mask(run_bit);
	u32 all = x == 0, lead = __builtin_ctzll(x | (1ULL << 63)) + all;
	u32 same = have_last & (w == last);

	st->repeats = (repeats + 1) & (u32)fd_mask(same);
	st->word_fails = h->check_words & (st->repeats >= h->word_cutoff);
	st->rct_fails = run + lead >= h->rct_cutoff;
	/*
	 * The top bits start the next run; a word all equal to the run
	 * carried in (its top run is then 64) continues it.
	 */
	st->run = fd_high_run(w) + (run & (u32)fd_mask(all));
	st->run_bit = w >> 63;
	if (!apt_seen) {
		apt_bit = w & 1;
		apt_count = 0;
	}
	st->apt_bit = apt_bit;
	/* The bits equal to the window's first. */
	st->apt_count = apt_count + hweight64(w ^ ~fd_mask(apt_bit));
	st->apt_fails = st->apt_count >= h->apt_cutoff;
}

/*
 * The name of the test that failed on @w, without a branch: the repeated
 * word first, then the repetition count unless the adaptive proportion
 * reached its cutoff at an earlier bit of the same word (a tie goes to the
 * repetition count, as a bit-by-bit implementation checks it first).
 */
static enum fd_health_result fd_health_failure(const struct fd_health *h,
					       u64 w,
					       const struct fd_health_step *st)
{
	unsigned int bit = h->apt_seen ? h->apt_bit : w & 1, i;
	u32 need = h->apt_cutoff - (h->apt_seen ? h->apt_count : 0);
	u64 x = w ^ ~fd_mask(bit), pos = 64, seen = 0, hit, b;
	/* The bit at which the run carried in reaches the cutoff. */
	u64 rct_bit = h->rct_cutoff - h->run - 1;
	u64 r, rct_first;

	/* The need-th bit equal to the window's first, if any. */
	for (i = 0; i < 64; i++) {
		b = (x >> i) & 1;
		seen += b;
		hit = fd_mask(b & (seen == need));
		pos = (pos & ~hit) | (i & hit);
	}
	rct_first = st->rct_fails & (rct_bit <= pos);
	r = FD_HEALTH_APT;
	r ^= (r ^ FD_HEALTH_RCT) & fd_mask(rct_first);
	r ^= (r ^ FD_HEALTH_WORD) & fd_mask(st->word_fails);
	return r;
}

/**
 * fd_health_word() - run the tests on 64 more raw bits
 * @h: the tests
 * @w: the bits, the first in bit 0
 *
 * When two tests fail in the same word, the one that a bit-by-bit
 * implementation would see first is named.
 *
 * Return: FD_HEALTH_OK, or the test that failed.
 */
enum fd_health_result fd_health_word(struct fd_health *h, u64 w)
{
	enum fd_health_result r = FD_HEALTH_OK;
	struct fd_health_step st;
	bool fails;

	fd_health_step(h, w, h->run, h->run_bit, h->apt_seen, h->apt_count,
		       h->apt_bit, h->repeats, h->have_last, h->last_word, &st);
	fails = st.word_fails | st.rct_fails | st.apt_fails;
	fd_ct_public(fails);
	if (unlikely(fails)) {
		/* Public too, once the word fails: which tests fail on it. */
		r = fd_health_failure(h, w, &st);
		fd_ct_public(r);
		fd_ct_public(st.word_fails);
		fd_ct_public(st.rct_fails);
	}
	if (h->check_words) {
		h->repeats = st.repeats;
		h->have_last = true;
		h->last_word = w;
	}
	/* A word that fails the first two tests leaves the others' state. */
	if (r != FD_HEALTH_OK && (st.word_fails || st.rct_fails))
		return r;
	h->run = st.run;
	h->run_bit = st.run_bit;
	h->apt_bit = st.apt_bit;
	h->apt_count = st.apt_count;
	h->apt_seen += 64;
	if (r == FD_HEALTH_OK && h->apt_seen == FD_APT_WINDOW)
		h->apt_seen = 0;
	return r;
}

/*
 * The running state of the tests in the form fd_health_pass() keeps it in
 * registers: the run's bit and the adaptive proportion's first bit as
 * masks, ready to XOR with a word.
 */
struct fd_health_regs {
	u64 run_mask;
	u64 apt_flip;
	u64 last;
	u32 run;
	u32 apt_seen;
	u32 apt_count;
	u32 repeats;
	u32 have_last;
};

/*
 * The words of @w that pass, from *@g on, as fd_health_word() would take
 * them: the state of each word computed as fd_health_step() does, and the
 * three verdicts folded into one sign bit (each count minus its cutoff,
 * all far below 2^31). Stops at the first word that may fail, leaving *@g
 * the state before it. @check_words is a constant: a loop each, the one
 * without the repeated word's test and its state.
 *
 * Return: how many words passed.
 */
static __always_inline u32 fd_health_pass(const struct fd_health *h,
					  const u64 *w, u32 n,
					  struct fd_health_regs *g,
					  bool check_words)
{
	u32 rct_limit = h->rct_cutoff - 1, apt_limit = h->apt_cutoff - 1;
	u32 word_limit = h->word_cutoff - 1, i, lead, all, fails;
	u32 run = g->run, apt_seen = g->apt_seen, apt_count = g->apt_count;
	u32 repeats = g->repeats, have_last = g->have_last, new_run;
	u32 new_repeats = 0, new_count;
	u64 run_mask = g->run_mask, apt_flip = g->apt_flip, last = g->last;
	u64 x, y, top, new_flip;

	for (i = 0; i < n; i++) {
		x = w[i];
		/* The low bits equal to the run carried in: all 64 when y is 0. */
		y = x ^ run_mask;
		all = y == 0;
		lead = __builtin_ctzll(y | (1ULL << 63)) + all;
		fails = rct_limit - (run + lead);
		if (check_words) {
			new_repeats = (repeats + 1) &
				      (u32)fd_mask(have_last & (x == last));
			fails |= word_limit - new_repeats;
		}
		/* The top bits start the next run, or continue it (all). */
		top = fd_mask(x >> 63);
		new_run = fd_high_run(x) + (run & (u32)fd_mask(all));
		new_flip = apt_flip;
		new_count = apt_count;
		if (!apt_seen) {
			new_flip = ~fd_mask(x & 1);
			new_count = 0;
		}
		new_count += hweight64(x ^ new_flip);
		fails |= apt_limit - new_count;
		fails >>= 31;
		fd_ct_public(fails);
		if (fails)
			break;
		if (check_words) {
			repeats = new_repeats;
			have_last = true;
			last = x;
		}
		run = new_run;
		run_mask = top;
		apt_flip = new_flip;
		apt_count = new_count;
		apt_seen = (apt_seen + 64) % FD_APT_WINDOW;
	}
	g->run = run;
	g->run_mask = run_mask;
	g->apt_seen = apt_seen;
	g->apt_count = apt_count;
	g->apt_flip = apt_flip;
	g->repeats = repeats;
	g->have_last = have_last;
	g->last = last;
	return i;
}

/**
 * fd_health_words() - fd_health_word() on each of @n words in turn
 * @h: the tests
 * @w: the words, in the order the source gave them
 * @n: how many
 * @done: receives how many passed: @n, or the index of the word that
 *	failed
 *
 * The state is the one @n calls of fd_health_word() leave, up to the
 * first failure. The words that surely pass are tested with the state in
 * registers (fd_health_pass()); a word that may fail any test is left to
 * fd_health_word().
 *
 * Return: FD_HEALTH_OK, or the test that failed on word *@done.
 */
enum fd_health_result fd_health_words(struct fd_health *h, const u64 *w,
				      u32 n, u32 *done)
{
	enum fd_health_result r = FD_HEALTH_OK;
	struct fd_health_regs g = {
		.run_mask = fd_mask(h->run_bit),
		.apt_flip = ~fd_mask(h->apt_bit),
		.last = h->last_word,
		.run = h->run,
		.apt_seen = h->apt_seen,
		.apt_count = h->apt_count,
		.repeats = h->repeats,
		.have_last = h->have_last,
	};
	u32 i;

	if (h->check_words)
		i = fd_health_pass(h, w, n, &g, true);
	else
		i = fd_health_pass(h, w, n, &g, false);
	h->run = g.run;
	h->run_bit = g.run_mask & 1;
	h->apt_seen = g.apt_seen;
	h->apt_count = g.apt_count;
	h->apt_bit = ~g.apt_flip & 1;
	h->repeats = g.repeats;
	h->have_last = g.have_last;
	h->last_word = g.last;
	/* A word that may fail: the tests as they are, word by word. */
	for (; i < n; i++) {
		r = fd_health_word(h, w[i]);
		if (r != FD_HEALTH_OK)
			break;
	}
	*done = i;
	return r;
}
