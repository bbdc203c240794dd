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
 * (@sampler), fed from the same @pool.
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
 * @tick: a clock for @cache's eviction
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
	u64 bits_read;
	u64 rolls;
};

int fdc_engine_open(struct fdc_engine *e, const struct fdc_config *cfg);
int fdc_engine_open_source(struct fdc_engine *e, unsigned int precision);
void fdc_engine_close(struct fdc_engine *e);
int fdc_engine_rolls_slow(struct fdc_engine *e, u64 sides, u64 *out,
			  size_t n);
int fdc_engine_draw(struct fdc_engine *e, u64 sides, u64 *out);
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

int fdc_wdie_init(struct fdc_wdie *d, const u64 *weights, u32 count);
void fdc_wdie_free(struct fdc_wdie *d);
int fdc_engine_weighted(struct fdc_engine *e, const struct fdc_wdie *d,
			u64 *out, size_t n);

/* The engine on the test double (engine_fake.c), for the tests. */
int fdc_fake_open(struct fdc_engine *e, u64 seed);
void fdc_fake_script(struct fdc_engine *e, const u64 *vals, size_t n);
size_t fdc_fake_log(const struct fdc_engine *e, const u64 **sides);
int fdc_fake_bits_open(struct fdc_engine *e, const u8 *bits, size_t n,
		       unsigned int precision);

#endif /* _FAIRDIE_CLI_ENGINE_H */
