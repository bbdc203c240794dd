// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the engine on the test double (source_fake.c), for the
 * host tests: a die that rolls itself, scripted or from splitmix64, with a
 * log of the sides rolled; or the engine's sampler fed scripted bits.
 */

#include "engine.h"

/**
 * fdc_fake_open() - the engine on a die that rolls itself, its rolls
 *	drawn exactly from splitmix64(@seed)
 * @e: the engine
 * @seed: the generator's seed
 *
 * Return: 0, or -1 when out of memory.
 */
int fdc_fake_open(struct fdc_engine *e, u64 seed)
{
	memset(e, 0, sizeof(*e));
	if (fdc_fake_source_open(&e->src, seed))
		return -1;
	return fdc_engine_open_source(e, 0);
}

/**
 * fdc_fake_script() - the die hands out @vals in order instead
 * @e: an engine opened with fdc_fake_open()
 * @vals: the rolls, 0-based; the caller keeps them alive
 * @n: how many; asking for more is an error
 *
 * Also turns making ahead off, so that the rolls go out in the order
 * asked, and starts the log afresh.
 */
void fdc_fake_script(struct fdc_engine *e, const u64 *vals, size_t n)
{
	fdc_fake_source_script(&e->src, vals, n);
	e->max_ahead = 1;
}

/**
 * fdc_fake_log() - the sides of every roll the die made so far
 * @e: an engine opened with fdc_fake_open()
 * @sides: the log
 *
 * Return: its length.
 */
size_t fdc_fake_log(const struct fdc_engine *e, const u64 **sides)
{
	return fdc_fake_source_log(&e->src, sides);
}

/**
 * fdc_fake_bits_open() - the engine's sampler on the scripted bits @bits
 * @e: the engine
 * @bits: the fair bits, one per byte (0 or 1); the caller keeps them alive
 * @n: how many; the source runs out after them
 * @precision: log2 of the target of the sampler's state (0: the default)
 *
 * Nothing is made ahead, so that each roll takes its bits in turn.
 *
 * Return: 0, or -1 when out of memory.
 */
int fdc_fake_bits_open(struct fdc_engine *e, const u8 *bits, size_t n,
		       unsigned int precision)
{
	memset(e, 0, sizeof(*e));
	if (fdc_fake_source_bits(&e->src, bits, n))
		return -1;
	fdc_engine_open_source(e, precision);
	e->max_ahead = 1;
	return 0;
}
