// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - shuffling, craps and roulette with exact rolls.
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "games.h"
#include "msg.h"

/**
 * fdc_log2_factorial() - log2(@n!), the fair bits a shuffle of @n needs
 * @n: the number of items
 *
 * Return: the sum of log2(i) for i = 2..@n, to double precision.
 */
double fdc_log2_factorial(u64 n)
{
	return n < 2 ? 0 : lgamma((double)n + 1) / M_LN2;
}

/*
 * Tell @e->progress that the draws went from @from to @to of @total, when
 * they passed a multiple of 4096 (and at the start, @to 0).
 */
static void fdc_games_progress(struct fdc_engine *e, u64 from, u64 to,
			       u64 total)
{
	if (e->progress && (!to || from >> 12 != to >> 12))
		e->progress(e->progress_what, to & ~4095ULL, total);
}

/**
 * fdc_shuffle() - put a uniform ordered sample of @k of @items first, by
 *	Fisher and Yates' shuffle (Durstenfeld's swaps) stopped after @k
 *	draws; @k = @n permutes them all
 * @e: where the draws come from
 * @items: the items
 * @n: how many
 * @k: how many are drawn, at most @n
 *
 * For i = 0 .. k - 1, swap item i with item i + r, r an exact draw in
 * [0, n - i). The n (n - 1) ... (n - k + 1) sequences of draws map one to
 * one onto the ordered samples of k items (onto the n! permutations for
 * k = n), and every sequence has probability exactly 1 / (n!/(n - k)!),
 * so every sample does. Consecutive draws are taken together while the
 * product of their sizes stays within the engine's cheap dice
 * (@e->draw_max): one exact draw from [0, (n - i) (n - i - 1) ...),
 * split in mixed radix, is exactly those draws, independent and uniform.
 * All the draws come from the engine's one recycled state, so a shuffle
 * costs about log2(n!) fair bits.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_shuffle(struct fdc_engine *e, u64 *items, u64 n, u64 k)
{
	u64 i = 0, j, prod, r, size, at, tmp, from;

	/* The last item of a full shuffle has nowhere to go. */
	if (k >= n)
		k = n ? n - 1 : 0;
	fdc_games_progress(e, 0, 0, k);
	while (i < k) {
		/* Draws i .. j - 1 together: sizes n - i down to n - j + 1. */
		prod = n - i;
		for (j = i + 1; j < k && prod <= e->draw_max / (n - j); j++)
			prod *= n - j;
		if (fdc_engine_draw(e, prod, &r))
			return -1;
		for (from = i; i < j; i++) {
			size = n - i;
			at = i + r % size;
			r /= size;
			tmp = items[i];
			items[i] = items[at];
			items[at] = tmp;
		}
		fdc_games_progress(e, from, i, k);
	}
	return 0;
}

/**
 * fdc_craps_outcome() - the rules of craps applied to throws of two dice
 * @throws: the totals of successive throws, 2..12
 * @n: how many there are
 * @used: how many the game took
 *
 * The come-out throw wins on 7 or 11 and loses on 2, 3 or 12; any other
 * total is the point, and the shooter throws until the point (win) or a 7
 * (loss).
 *
 * Return: 1 for a win, 0 for a loss, -1 if the game needs more throws.
 */
int fdc_craps_outcome(const unsigned int *throws, size_t n, size_t *used)
{
	unsigned int point;
	size_t i;

	*used = 0;
	if (!n)
		return -1;
	*used = 1;
	switch (throws[0]) {
	case 7:
	case 11:
		return 1;
	case 2:
	case 3:
	case 12:
		return 0;
	}
	point = throws[0];
	for (i = 1; i < n; i++) {
		*used = i + 1;
		if (throws[i] == point)
			return 1;
		if (throws[i] == 7)
			return 0;
	}
	return -1;
}

/**
 * fdc_craps_game() - play one game of craps, each throw's total of two d6
 *	drawn whole
 * @e: where the throws come from
 * @win: whether the shooter won
 * @throws: incremented by the number of throws
 * @trace: if not NULL, the totals thrown are written there, e.g.
 *	"10 6 10 win"
 *
 * Only the total of a throw counts, so it is one weighted draw of 2..12
 * with weights 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 (fdc_engine_sums()): the
 * law of two dice, at the entropy of the total (3.27 fair bits) instead of
 * two rolls of a d6 (5.17).
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_craps_game(struct fdc_engine *e, bool *win, u64 *throws, FILE *trace)
{
	unsigned int t[2];
	u64 v;
	size_t used;
	int outcome;

	/* Only the come-out throw and the latest one decide the game. */
	for (used = 0;; ) {
		if (fdc_engine_sums(e, 2, 6, &v, 1))
			return -1;
		++*throws;
		t[used ? 1 : 0] = (unsigned int)v + 2;
		if (trace)
			fprintf(trace, "%s%u", used ? " " : "", t[used ? 1 : 0]);
		outcome = fdc_craps_outcome(t, used ? 2 : 1, &used);
		if (outcome >= 0)
			break;
	}
	*win = outcome;
	if (trace)
		fputs(outcome ? " win" : " lose", trace);
	return 0;
}

/**
 * fdc_roulette_colour() - the colour of a pocket of the European wheel
 * @pocket: 0..36
 *
 * Return: FDC_GREEN for 0; in 1..10 and 19..28 odd numbers are red, in
 * 11..18 and 29..36 even numbers are red; the others are black.
 */
enum fdc_colour fdc_roulette_colour(unsigned int pocket)
{
	bool odd = pocket & 1;

	if (!pocket)
		return FDC_GREEN;
	if ((pocket >= 1 && pocket <= 10) || (pocket >= 19 && pocket <= 28))
		return odd ? FDC_RED : FDC_BLACK;
	return odd ? FDC_BLACK : FDC_RED;
}

/**
 * fdc_colour_name() - "green", "red" or "black"
 * @colour: the colour
 *
 * Return: its name.
 */
const char *fdc_colour_name(enum fdc_colour colour)
{
	switch (colour) {
	case FDC_RED:
		return "red";
	case FDC_BLACK:
		return "black";
	default:
		return "green";
	}
}

/*
 * The partial shuffle's swaps: position -> item, for the positions moved
 * so far (every other position i still holds item i). Open addressing;
 * a sample of K touches at most 2K positions.
 */
struct fdc_swaps {
	u64 *key;
	u64 *val;
	size_t cap;
};

static u64 *fdc_swaps_slot(struct fdc_swaps *m, u64 pos)
{
	size_t i = (size_t)((pos * 0x9e3779b97f4a7c15ULL) >> 20) & (m->cap - 1);

	/* Keys are stored plus one: 0 marks a free slot. */
	while (m->key[i] && m->key[i] != pos + 1)
		i = (i + 1) & (m->cap - 1);
	if (!m->key[i]) {
		m->key[i] = pos + 1;
		m->val[i] = pos;
	}
	return &m->val[i];
}

/**
 * fdc_sample() - @k distinct values of [0, @n) in random order, exactly
 * @e: where the draws come from
 * @n: the population, at least @k
 * @k: how many
 * @out: the values
 *
 * A partial Fisher-Yates shuffle: the i-th value is the item at a
 * position drawn from [i, n), which then swaps with position i. The
 * n (n - 1) ... (n - k + 1) sequences of draws map one to one onto the
 * ordered samples, each with probability exactly 1 / (n!/(n - k)!).
 * Consecutive draws are taken together while the product of their sizes
 * stays within the engine's cheap dice, as fdc_shuffle() does, which
 * gives the same sample from the same draws. Only the positions moved are
 * stored, so @n may be as large as 2^64 - 1.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_sample(struct fdc_engine *e, u64 n, u64 k, u64 *out)
{
	struct fdc_swaps m = { 0 };
	u64 i = 0, j, prod, r, size, *a, *b;
	int ret = -1;

	for (m.cap = 16; m.cap < 4 * k; m.cap *= 2)
		;
	m.key = calloc(m.cap, sizeof(*m.key));
	m.val = calloc(m.cap, sizeof(*m.val));
	if (!m.key || !m.val) {
		fdc_err("out of memory");
		goto out_free;
	}
	fdc_games_progress(e, 0, 0, k);
	while (i < k) {
		/* Draws i .. j - 1 together: sizes n - i down to n - j + 1. */
		prod = n - i;
		for (j = i + 1; j < k && prod <= e->draw_max / (n - j); j++)
			prod *= n - j;
		if (fdc_engine_draw(e, prod, &r))
			goto out_free;
		fdc_games_progress(e, i, j, k);
		for (; i < j; i++) {
			size = n - i;
			a = fdc_swaps_slot(&m, i);
			b = fdc_swaps_slot(&m, i + r % size);
			r /= size;
			out[i] = *b;
			*b = *a;
			*a = out[i];
		}
	}
	ret = 0;

out_free:
	free(m.key);
	free(m.val);
	return ret;
}

/**
 * fdc_reservoir_start() - the reservoir of a sample of @k from a stream,
 *	after its first @m items
 * @e: where the draws come from
 * @m: the items seen so far
 * @k: the sample's size
 * @out: min(@k, @m) distinct items of [0, @m), as an ordered sample
 *
 * A uniform ordered sample of @k of the @m (fdc_sample()), or, when @k is
 * at least @m, a uniform order of all of them (fdc_shuffle()): the state
 * fdc_reservoir_slot() takes the stream on from. Starting from the first
 * @m items read at once costs log2(m!/(m-k)!) fair bits for them instead
 * of a draw per item.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_reservoir_start(struct fdc_engine *e, u64 m, u64 k, u64 *out)
{
	u64 i;

	if (k <= m)
		return fdc_sample(e, m, k, out);
	for (i = 0; i < m; i++)
		out[i] = i;
	return fdc_shuffle(e, out, m, m);
}

/**
 * fdc_reservoir_slot() - where item @seen of a stream goes in the
 *	reservoir of a sample
 * @e: where the draws come from
 * @seen: the items before it, at least those given to fdc_reservoir_start()
 * @k: the sample's size
 * @slot: the place drawn, r exact in [0, @seen]
 *
 * The reservoir R of a sample of k holds a uniform ordered sample of
 * min(k, @seen) of the items seen. While it is not full (@seen < k) it
 * grows by an inside-out shuffle step: R[seen] = R[r], R[r] = the item.
 * Once it is full, the item replaces R[r] when r < k and is dropped
 * otherwise. Either step keeps R a uniform ordered sample: an ordered
 * sample holding the item at place j comes from the @seen - k + 1 samples
 * that hold another item there, each of probability (seen - k)!/seen!,
 * with r = j, of probability 1/(seen + 1): (seen + 1 - k)!/(seen + 1)! in
 * all, as for a sample without it, kept with probability
 * 1 - k/(seen + 1). The memory is k items, whatever the length of the
 * stream. A dropped item's r - k, uniform on [0, seen + 1 - k) whatever
 * else happened, goes back to the engine's state (fdc_engine_give_back()),
 * so that a draw costs about the entropy of the decision, not
 * log2(seen + 1) fair bits.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_reservoir_slot(struct fdc_engine *e, u64 seen, u64 k, u64 *slot)
{
	if (seen == UINT64_MAX) {
		fdc_err("more than 2^64-1 items");
		return -1;
	}
	if (fdc_engine_draw(e, seen + 1, slot))
		return -1;
	/* A place past the reservoir is uniform beyond it: not needed. */
	if (seen >= k && *slot >= k)
		fdc_engine_give_back(e, *slot - k, seen + 1 - k);
	return 0;
}

/**
 * fdc_log2_falling() - log2(@n!/(@n - @k)!), the bits a sample needs
 * @n: the population
 * @k: the sample's size
 *
 * Return: the sum of log2(n - i) for i < @k.
 */
double fdc_log2_falling(u64 n, u64 k)
{
	double bits = 0;
	u64 i;

	if (k > 1000000)
		return (lgamma((double)n + 1) - lgamma((double)(n - k) + 1)) /
		       M_LN2;
	for (i = 0; i < k; i++)
		bits += log2((double)(n - i));
	return bits;
}
