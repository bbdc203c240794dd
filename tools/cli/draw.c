// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - exact draws of any size from one recycled uniform state.
 *
 * The device discards its buffered bits and its sampler state whenever its
 * sides change (Documentation/userspace-api/fairdie.rst). A shuffle that rolled a d52, then a d51,
 * and so on down to a d2 on the device would pay for a fresh state at every
 * card: about 105000 source bits for 52 cards, where log2(52!) is 225.6.
 *
 * So draws whose size changes from one to the next go through one uniform
 * state kept here instead, with the arithmetic of the module's exact
 * sampler with randomness recycling (driver/fd_sampler.c): Z, uniform on
 * [0, M). The device stays set to 2^32 sides: a power of two, for which its
 * sampler passes fair bits through as they are, with nothing rejected and
 * no state to lose. Those bits are absorbed into the state (Z = 2^k Z + V
 * for k fair bits V, M = 2^k M), and a draw of n values is a step of the
 * sampler for n: with Q = M div n, if Z < Q n the draw is Z mod n and the
 * state becomes (Z div n, Q); otherwise the state becomes (Z - Q n,
 * M - Q n) and the step is tried again after more bits.
 *
 * Why n may change from step to step: the invariant is that, given
 * everything drawn so far (and every M), Z is uniform on [0, M). Absorbing
 * fair bits keeps it. A step for any n <= M keeps it too: given acceptance,
 * (Z mod n, Z div n) is uniform on [0, n) x [0, Q), so the draw is uniform,
 * and independent of the new state Z div n, uniform on [0, Q); given
 * rejection, Z - Q n is uniform on [0, M - Q n). Nothing in this depends on
 * the n of the earlier steps. Each draw is thus exactly uniform on [0, n)
 * given all the draws before it: the draws are independent and exact, and
 * a sequence of draws of sizes n1, n2, ... gives each of the n1 n2 ...
 * sequences of values with exactly equal probability.
 *
 * struct fd_sampler keeps its number of sides (and what it derives from
 * it) fixed between resets, as the module needs, so the step is written
 * out here rather than changing the sides under it.
 *
 * The cost: a draw of n values absorbs log2(n) bits on average, plus what
 * its rejections lose (below 0.001 bit with FDC_DRAW_SLACK 12), and the
 * state left at the end holds about FDC_DRAW_SLACK + 1 bits: a 52-card
 * shuffle takes about 238 fair bits from a fresh state.
 */

#include <math.h>
#include <stdlib.h>

#include "cli.h"

/*
 * The driver hands out 8, 16 or 32-bit rolls of a power of two a 64-bit
 * word at a time when the read asks for whole words; a shorter read goes
 * through its bit pool, which it refills 2048 bits at a time. So reads ask
 * for a multiple of 64 bits whenever read-ahead is allowed.
 */
#define FDC_DRAW_READ_BITS	64

/**
 * fdc_draw_init() - an empty state, for the real device's settings
 * @d: the state
 */
void fdc_draw_init(struct fdc_draw *d)
{
	memset(d, 0, sizeof(*d));
	d->digit_bits = FDC_DRAW_DIGIT_BITS;
	d->unit = FDC_DRAW_READ_BITS / FDC_DRAW_DIGIT_BITS;
	d->slack = FDC_DRAW_SLACK;
	/* The state left over at the end is read too. */
	d->expect = FDC_DRAW_SLACK + 2;
	d->m = 1;
}

/**
 * fdc_draw_free() - free what the state holds
 * @d: the state
 */
void fdc_draw_free(struct fdc_draw *d)
{
	free(d->digits);
	d->digits = NULL;
	d->pos = 0;
	d->len = 0;
}

/**
 * fdc_dev_draw_expect() - say how many more fair bits the draws will need
 * @dev: the device
 * @bits: the sum of log2(n) over the coming draws of n values, e.g.
 *	log2(52!) for a shuffle of 52 cards
 *
 * Only sets how far the device is read ahead: with a good estimate, a
 * shuffle reads what it uses, to the next 64 bits, in one read.
 */
void fdc_dev_draw_expect(struct fdc_dev *dev, double bits)
{
	struct fdc_draw *d = &dev->draw;
	double room = (double)(1ULL << 62) - d->expect;

	if (!(bits > 0))
		return;
	d->expect += bits < room ? (u64)ceil(bits) : (u64)room;
}

/* Take the next digit; read more from the device if none is left. */
static int fdc_draw_next(struct fdc_dev *dev, struct fdc_draw *d,
			 unsigned int need)
{
	size_t n, min, ahead = 0;

	if (d->pos == d->len) {
		if (!d->digits) {
			d->digits = malloc(FDC_CACHE_MAX * sizeof(*d->digits));
			if (!d->digits) {
				fdc_err("out of memory");
				return -1;
			}
		}
		min = (need + d->digit_bits - 1) / d->digit_bits;
		if (d->expect > d->bits_read)
			ahead = (d->expect - d->bits_read + d->digit_bits - 1) /
				d->digit_bits;
		if (ahead > dev->max_ahead)
			ahead = dev->max_ahead;
		n = ahead > min ? ahead : min;
		if (dev->max_ahead >= d->unit)
			n = (n + d->unit - 1) / d->unit * d->unit;
		if (n > FDC_CACHE_MAX)
			n = FDC_CACHE_MAX / d->unit * d->unit;
		if (fdc_dev_read(dev, 1ULL << d->digit_bits, d->digits, n))
			return -1;
		d->pos = 0;
		d->len = n;
		d->bits_read += (u64)n * d->digit_bits;
	}
	d->acc = d->digits[d->pos++];
	d->nacc = d->digit_bits;
	return 0;
}

/* Bits in @x: 0 for 0. */
static unsigned int fdc_bit_length(fd_u128 x)
{
	return x >> 64 ? 64 + fls64((u64)(x >> 64)) : fls64((u64)x);
}

/* Absorb fair bits until M >= 2^@precision, the fewest that get there. */
static int fdc_draw_fill(struct fdc_dev *dev, struct fdc_draw *d,
			 unsigned int precision)
{
	unsigned int need, k;

	while (!(d->m >> precision)) {
		/* 2^(L-1) <= M < 2^L: 2^need M reaches 2^precision. */
		need = precision + 1 - fdc_bit_length(d->m);
		if (dev->bits && !d->nacc) {
			/* A userspace source: just the bits needed. */
			d->nacc = need < 32 ? need : 32;
			if (fdc_bits_take(dev, d->nacc, &d->acc))
				return -1;
			d->bits_read += d->nacc;
		}
		if (!d->nacc && fdc_draw_next(dev, d, need))
			return -1;
		k = need < d->nacc ? need : d->nacc;
		d->z = (d->z << k) | fd_low_bits(d->acc, k);
		d->m <<= k;
		d->acc >>= k;
		d->nacc -= k;
		d->bits_used += k;
	}
	return 0;
}

/*
 * One accept/reject step for @n <= M values, as fd_sampler_try() takes it:
 * Q n is the largest multiple of n not above M.
 */
static bool fdc_draw_step(struct fdc_draw *d, u64 n, u64 *out)
{
	u64 z, m, q, r;
	fd_u128 q128;

	if (!(d->m >> 64)) {
		z = d->z;
		m = d->m;
		q = m / n;
		if (z < q * n) {
			*out = z % n;
			d->z = z / n;
			d->m = q;
			return true;
		}
		d->z = z - q * n;
		d->m = m - q * n;
		return false;
	}
	q128 = fd_div128(d->m, n, &r);
	if (d->z < d->m - r) {
		d->z = fd_div128(d->z, n, out);
		d->m = q128;
		return true;
	}
	d->z -= d->m - r;
	d->m = r;
	return false;
}

/**
 * fdc_dev_draw() - one exact draw in [0, @n) from the shared uniform state
 * @dev: the device, read with 2^32 sides when the state needs bits
 * @n: the number of values, at least 1; it may change from draw to draw
 * @out: the draw
 *
 * Every draw is exactly uniform and independent of all the draws before
 * it, whatever their sizes (see the top of this file).
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dev_draw(struct fdc_dev *dev, u64 n, u64 *out)
{
	struct fdc_draw *d = &dev->draw;
	unsigned int precision;

	if (!n) {
		fdc_err("%s: a die needs at least one side", dev->path);
		return -1;
	}
	d->draws++;
	if (n == 1) {
		*out = 0;
		return 0;
	}
	/*
	 * 2^fls64(n - 1) >= n, so M >= n when the step is taken. M stays
	 * below 2^(64 + FDC_DRAW_SLACK + 1): 128 bits are plenty.
	 */
	precision = fls64(n - 1) + d->slack;
	do {
		if (fdc_draw_fill(dev, d, precision))
			return -1;
	} while (!fdc_draw_step(d, n, out));
	return 0;
}
