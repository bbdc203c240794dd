/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the exact engine: rolls of any size from any source.
 *
 *	commands	roll, shuffle, sample, craps, ... (cmd_*.c, games.c)
 *	   |
 *	engine		this file: rolls of n sides, exact, recycled
 *	   |
 *	source		the device (device.c), or fair bits from a file,
 *			getrandom(2), a seed (source.c), or the test double
 *
 * For a source of fair bits, the engine runs the module's own exact
 * sampler (driver/fd_sampler.c, compiled unchanged) on them: one uniform
 * state Z on [0, M), topped up with the source's bits and recycled between
 * rolls, kept across every change of sides (fd_sampler_set_sides()), so
 * that a shuffle, whose die shrinks by one at every card, costs about
 * log2(N!) bits. For the device, the engine sets the sides with
 * FAIRDIE_IOC_SET_SIDES, which keeps the kernel sampler's state in the
 * same way, and reads rolls: the device is its own engine. Either way each
 * roll is exactly uniform on [0, n) and independent of all the others,
 * whatever the sequence of sizes.
 *
 * Two ways to ask:
 * - fdc_engine_rolls() (fdc_engine_roll() for one): dice, whose sizes come
 *   back again and again. A size asked for again is made many at a time,
 *   with the module's fill functions or in one read of the device, and
 *   the rest is kept for the next calls (for a few sizes at once): a call
 *   then costs a few nanoseconds. Rolls made ahead are independent of
 *   everything, so handing them out later, in between rolls of other
 *   sizes, changes nothing in the odds; those left at the end are lost.
 * - fdc_engine_draw(): one roll made alone, nothing ahead, for draws whose
 *   sizes seldom come back (a shuffle's): the fair bits a run takes are
 *   then what its draws need, about log2 of their sizes.
 *
 * A loaded die (weighted draws) fits beside the uniform one as a die of
 * its own kind: the device takes FAIRDIE_IOC_SET_WEIGHTS, and for a source
 * of bits the module's weighted sampler runs on the same recycled state
 * (@sampler), fed from the same @pool. The total of several dice of one
 * size is such a die (fdc_engine_sums()), whose weights count the ways to
 * make each total: one draw at the entropy of the total instead of a roll
 * per die (3.27 fair bits for the sum of 2d6 instead of 5.17).
 */
#ifndef _FAIRDIE_CLI_ENGINE_H
#define _FAIRDIE_CLI_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "fd_pool.h"
#include "fd_sampler.h"
#include "fd_weights.h"
#include "source.h"

/* Rolls made ahead are kept for this many different numbers of sides. */
#define FDC_CACHE_SLOTS		8
/* At most this many rolls are made ahead for one size. */
#define FDC_CACHE_MAX		4096

/**
 * struct fdc_cache - rolls of one size made ahead
 * @sides: their number of sides, 0 when the slot is free
 * @vals: the rolls, FDC_CACHE_MAX of room
 * @pos: the next one to hand out
 * @len: how many were made
 * @ahead: how many to make at the next refill: it grows while the same
 *	size keeps being asked for, so that a lone roll makes one value
 * @last_use: when the slot was last used, for eviction
 */
struct fdc_cache {
	u64 sides;
	u64 *vals;
	size_t pos;
	size_t len;
	size_t ahead;
	u64 last_use;
};

/**
 * struct fdc_wdie - a loaded die: face i with probability weights[i] / total
 * @weights: the weights as given, which the device takes as they are
 * @count: the number of faces, 1..FD_WEIGHTS_MAX_FACES
 * @total: the sum of the weights, 1..2^64-1
 * @w: the module's weighted die over them, for a source of bits
 * @table: its table
 */
struct fdc_wdie {
	u64 *weights;
	u32 count;
	u64 total;
	struct fd_weights w;
	u64 *table;
};

/* Totals of dice drawn whole are kept for this many (count, sides). */
#define FDC_SUM_SLOTS		4

/**
 * struct fdc_sum - the total of @count dice of @sides faces, as one loaded
 *	die: total t (0-based, the faces counted from 0) with the number of
 *	ways the dice make it as its weight, out of @sides^@count
 * @count: the dice, 0 when the slot is free
 * @sides: the faces of each
 * @die: the loaded die of the totals 0 .. @count (@sides - 1)
 * @vals: totals made ahead, FDC_CACHE_MAX of room
 * @pos: the next one to hand out
 * @len: how many were made
 * @ahead: how many to make at the next refill, as in struct fdc_cache
 * @last_use: when the slot was last used, for eviction
 */
struct fdc_sum {
	u64 count;
	u64 sides;
	struct fdc_wdie die;
	u64 *vals;
	size_t pos;
	size_t len;
	size_t ahead;
	u64 last_use;
};

/**
 * struct fdc_engine - the engine over one open source
 * @src: the source
 * @own_dice: the source rolls its own dice (the device, the double's die);
 *	else the engine rolls them from the source's bits with @sampler
 * @sampler: the exact sampler with its recycled state (sources of bits)
 * @pool: fair bits read from the source, not yet taken by @sampler
 * @batch_bits: the batches @sampler makes many rolls in (0 for none; lone
 *	rolls are made without)
 * @max_ahead: the most rolls made ahead per size (1: none)
 * @draw_max: the largest die a shuffle's draws are grouped into: 2^32,
 *	the most the sampler's state handles in 64 bits (wider dice make it
 *	128 bits wide, slower, and it keeps up to 127 bits instead of 63)
 * @hot: the slot of the last call, checked first
 * @cache: rolls made ahead, per size
 * @tick: a clock for @cache's and @sums' eviction
 * @hot_sum: the slot of the last call for totals, checked first
 * @sums: totals of dice made ahead, per (count, sides), with their tables
 * @no_weights: the device's extractor (DIJKSTRA) draws no weighted dice:
 *	totals of dice are rolled die by die
 * @progress: called by long draws (a shuffle of millions) with the draws
 *	done, first 0, then multiples of 4096, and their total; or NULL
 * @progress_what: its first argument, the command
 * @give_back: fdc_engine_give_back() returns values to @sampler's state:
 *	for sources without end only (getrandom, a seed), since the fair bits
 *	it saves depend on the outcome, which a source that runs out would
 *	then bias (a run that finishes would favour the outcomes that cost
 *	less)
 * @bits_read: fair bits read from the source
 * @rolls: rolls handed out
 */
struct fdc_engine {
	struct fdc_source src;
	bool own_dice;
	struct fd_sampler sampler;
	struct fd_pool pool;
	unsigned int batch_bits;
	size_t max_ahead;
	u64 draw_max;
	struct fdc_cache *hot;
	struct fdc_cache cache[FDC_CACHE_SLOTS];
	u64 tick;
	struct fdc_sum *hot_sum;
	struct fdc_sum sums[FDC_SUM_SLOTS];
	bool no_weights;
	void (*progress)(const char *what, u64 done, u64 total);
	const char *progress_what;
	bool give_back;
	u64 bits_read;
	u64 rolls;
};

int fdc_engine_open(struct fdc_engine *e, const struct fdc_config *cfg);
int fdc_engine_open_source(struct fdc_engine *e, unsigned int precision);
void fdc_engine_close(struct fdc_engine *e);
int fdc_engine_rolls_slow(struct fdc_engine *e, u64 sides, u64 *out,
			  size_t n);
int fdc_engine_draw(struct fdc_engine *e, u64 sides, u64 *out);
void fdc_engine_give_back(struct fdc_engine *e, u64 u, u64 c);
u64 fdc_engine_bits_used(const struct fdc_engine *e);
double fdc_engine_bits_held(const struct fdc_engine *e);

/**
 * fdc_engine_rolls() - @n rolls of a die with @sides faces
 * @e: the engine
 * @sides: the number of faces, at least 1
 * @out: the rolls, each in [0, @sides)
 * @n: how many
 *
 * Rolls of a size asked for again and again come from those made ahead
 * for it.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
static inline int fdc_engine_rolls(struct fdc_engine *e, u64 sides,
				   u64 *out, size_t n)
{
	struct fdc_cache *c = e->hot;

	if (likely(c && c->sides == sides && c->len - c->pos >= n)) {
		memcpy(out, c->vals + c->pos, n * sizeof(*out));
		c->pos += n;
		e->rolls += n;
		return 0;
	}
	return fdc_engine_rolls_slow(e, sides, out, n);
}

/**
 * fdc_engine_roll() - one roll of a die with @sides faces, as
 *	fdc_engine_rolls() makes them
 * @e: the engine
 * @sides: the number of faces, at least 1
 * @out: the roll, in [0, @sides)
 *
 * Return: 0, or -1 after printing a one-line error.
 */
static inline int fdc_engine_roll(struct fdc_engine *e, u64 sides, u64 *out)
{
	return fdc_engine_rolls(e, sides, out, 1);
}

int fdc_wdie_init(struct fdc_wdie *d, const u64 *weights, u32 count);
void fdc_wdie_free(struct fdc_wdie *d);
int fdc_engine_weighted(struct fdc_engine *e, const struct fdc_wdie *d,
			u64 *out, size_t n);

bool fdc_sum_fits(u64 count, u64 sides);
void fdc_sum_weights(u64 count, u64 sides, u64 *w);
int fdc_engine_sums_slow(struct fdc_engine *e, u64 count, u64 sides,
			 u64 *out, size_t n);
int fdc_engine_cost(struct fdc_engine *e, u64 *bits, u64 *made);

/**
 * fdc_engine_sums() - @n totals of @count dice of @sides faces, each drawn
 *	whole with one weighted draw
 * @e: the engine
 * @count: the dice, at least 2, with fdc_sum_fits(@count, @sides)
 * @sides: their faces, at least 2
 * @out: the totals of the faces counted from 0, each in
 *	[0, @count (@sides - 1)]: add @count for faces from 1
 * @n: how many
 *
 * Each total comes with probability exactly the number of ways @count
 * dice make it over @sides^@count, as if the dice were rolled one by one,
 * at the entropy of the total in fair bits rather than @count log2(@sides):
 * 3.27 bits for 2d6 against 5.17, 3.6 for 3d6 against 7.75. Totals asked
 * for again and again are made ahead, as fdc_engine_rolls() makes rolls.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
static inline int fdc_engine_sums(struct fdc_engine *e, u64 count, u64 sides,
				  u64 *out, size_t n)
{
	struct fdc_sum *c = e->hot_sum;

	if (likely(c && c->count == count && c->sides == sides &&
		   c->len - c->pos >= n)) {
		memcpy(out, c->vals + c->pos, n * sizeof(*out));
		c->pos += n;
		e->rolls += n;
		return 0;
	}
	return fdc_engine_sums_slow(e, count, sides, out, n);
}

/* The engine on the test double (engine_fake.c), for the tests. */
int fdc_fake_open(struct fdc_engine *e, u64 seed);
void fdc_fake_script(struct fdc_engine *e, const u64 *vals, size_t n);
size_t fdc_fake_log(const struct fdc_engine *e, const u64 **sides);
int fdc_fake_bits_open(struct fdc_engine *e, const u8 *bits, size_t n,
		       unsigned int precision);

#endif /* _FAIRDIE_CLI_ENGINE_H */
