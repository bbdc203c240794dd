// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the test double: a stand-in for the device in the host
 * tests, and a source of scripted fair bits.
 *
 * As a die that rolls itself (fdc_fake_source_open()), its rolls are either
 * scripted (handed out in order, each checked against the sides asked
 * for) or drawn exactly from splitmix64 by rejection. Every value handed
 * out is logged with its number of sides, so that a test can check which
 * dice a command rolled. As a source of bits (fdc_fake_source_bits()), it
 * hands out the bits it was given and then runs out, so that a test can
 * feed the engine every bit string of some length.
 */

#include <stdlib.h>
#include <string.h>

#include "fd_sim.h"
#include "source.h"

/**
 * struct fdc_fake - state of the double
 * @script: scripted rolls, or NULL
 * @bits: scripted bits, 0 or 1 each, for a source of bits
 * @script_len: how many rolls or bits
 * @script_pos: the next one
 * @log: sides of every roll handed out
 * @log_len: how many
 * @log_cap: room in @log
 */
struct fdc_fake {
	const u64 *script;
	const u8 *bits;
	size_t script_len;
	size_t script_pos;
	u64 *log;
	size_t log_len;
	size_t log_cap;
};

/* Exactly uniform on [0, sides): reject the 2^64 mod sides lowest words. */
static u64 fdc_fake_uniform(struct fdc_source *src, u64 sides)
{
	u64 floor = -sides % sides, x;

	do {
		x = fd_splitmix64(&src->state);
	} while (x < floor);
	return x % sides;
}

static int fdc_fake_log_add(struct fdc_fake *f, u64 sides)
{
	if (f->log_len == f->log_cap) {
		size_t cap = f->log_cap ? 2 * f->log_cap : 1024;
		u64 *log = realloc(f->log, cap * sizeof(*log));

		if (!log) {
			fdc_err("out of memory");
			return -1;
		}
		f->log = log;
		f->log_cap = cap;
	}
	f->log[f->log_len++] = sides;
	return 0;
}

static int fdc_fake_rolls(struct fdc_source *src, u64 sides, u64 *out,
			  size_t n)
{
	struct fdc_fake *f = src->priv;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!f->script) {
			out[i] = fdc_fake_uniform(src, sides);
		} else if (f->script_pos < f->script_len) {
			out[i] = f->script[f->script_pos++];
			if (out[i] >= sides) {
				fdc_err("fake: scripted roll %llu is not below %llu sides",
					(unsigned long long)out[i],
					(unsigned long long)sides);
				return -1;
			}
		} else {
			/* Logged, so that a test can see the roll it asked. */
			if (!fdc_fake_log_add(f, sides))
				fdc_err("fake: the script of %zu rolls ran out",
					f->script_len);
			return -1;
		}
		if (fdc_fake_log_add(f, sides))
			return -1;
	}
	src->sides = sides;
	return 0;
}

static long fdc_fake_bits(struct fdc_source *src, u64 *words, size_t max)
{
	struct fdc_fake *f = src->priv;
	size_t n = 0;

	memset(words, 0, (max + 63) / 64 * sizeof(*words));
	while (n < max && f->script_pos < f->script_len) {
		words[n / 64] |= (u64)(f->bits[f->script_pos++] & 1) << (n % 64);
		n++;
	}
	return (long)n;
}

static void fdc_fake_close(struct fdc_source *src)
{
	struct fdc_fake *f = src->priv;

	free(f->log);
	free(f);
	src->priv = NULL;
}

static const struct fdc_source_ops fdc_fake_roll_ops = {
	.rolls = fdc_fake_rolls,
	.close = fdc_fake_close,
};

static const struct fdc_source_ops fdc_fake_bit_ops = {
	.bits = fdc_fake_bits,
	.close = fdc_fake_close,
};

static int fdc_fake_init(struct fdc_source *src,
			 const struct fdc_source_ops *ops)
{
	struct fdc_fake *f = calloc(1, sizeof(*f));

	memset(src, 0, sizeof(*src));
	if (!f) {
		fdc_err("out of memory");
		return -1;
	}
	src->ops = ops;
	fdc_source_name(src, "fake");
	src->fd = -1;
	src->priv = f;
	return 0;
}

/**
 * fdc_fake_source_open() - the double as a die that rolls itself, drawing from
 *	splitmix64(@seed)
 * @src: the source
 * @seed: the generator's seed
 *
 * Return: 0, or -1 when out of memory.
 */
int fdc_fake_source_open(struct fdc_source *src, u64 seed)
{
	if (fdc_fake_init(src, &fdc_fake_roll_ops))
		return -1;
	src->state = seed;
	return 0;
}

/**
 * fdc_fake_source_script() - hand out @vals in order instead of random rolls
 * @src: a source opened with fdc_fake_source_open()
 * @vals: the rolls, 0-based; the caller keeps them alive
 * @n: how many; asking for more is an error
 *
 * Also starts the log afresh.
 */
void fdc_fake_source_script(struct fdc_source *src, const u64 *vals, size_t n)
{
	struct fdc_fake *f = src->priv;

	f->script = vals;
	f->script_len = n;
	f->script_pos = 0;
	f->log_len = 0;
}

/**
 * fdc_fake_source_log() - the sides of every roll handed out so far
 * @src: a source opened with fdc_fake_source_open()
 * @sides: the log
 *
 * Return: its length.
 */
size_t fdc_fake_source_log(const struct fdc_source *src, const u64 **sides)
{
	const struct fdc_fake *f = src->priv;

	*sides = f->log;
	return f->log_len;
}

/**
 * fdc_fake_source_bits() - the double as a source of the fair bits @bits,
 *	which then runs out
 * @src: the source
 * @bits: the bits, one per byte (0 or 1); the caller keeps them alive
 * @n: how many
 *
 * Return: 0, or -1 when out of memory.
 */
int fdc_fake_source_bits(struct fdc_source *src, const u8 *bits, size_t n)
{
	struct fdc_fake *f;

	if (fdc_fake_init(src, &fdc_fake_bit_ops))
		return -1;
	f = src->priv;
	f->bits = bits;
	f->script_len = n;
	return 0;
}
