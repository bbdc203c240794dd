/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - exact uniform sampler with randomness recycling.
 *
 * The sampler keeps a state Z that is uniform on [0, M). It tops M up with
 * fair bits (Z = Z + M bit, M = 2M) until M reaches its target, then accepts
 * when Z falls below the largest multiple of sides not above M. On accept it
 * returns Z mod sides and keeps Z div sides, uniform on [0, M div sides); on
 * reject it keeps Z - that multiple, uniform on the remainder. Nothing is
 * ever approximated: each roll is exactly uniform and independent of the
 * state that is kept. See Documentation/design/fairdie.rst.
 */
#ifndef _FAIRDIE_SAMPLER_H
#define _FAIRDIE_SAMPLER_H

#include "fd_shim.h"
#include "fd_pool.h"

/* Target of M when recycling: 2^63 for sides up to 2^32, else 2^127. */
#define FD_SAMPLER_PRECISION_SMALL	63
#define FD_SAMPLER_PRECISION_LARGE	127
#define FD_SAMPLER_SMALL_MAX		BIT_ULL(32)

/**
 * struct fd_sampler - state of one exact sampler
 * @sides: number of faces, 1..2^64-1
 * @z: the uniform state, in [0, @m)
 * @m: its range, at least 1
 * @bits: fair bits consumed so far
 * @precision: log2 of the target of @m when recycling
 * @pow2_bits: log2(@sides) when @sides is a power of two, else 0
 * @large: @z and @m use 128 bits
 * @recycle: keep the leftover state between rolls; without it every roll
 *	starts afresh (Lumbroso's Fast Dice Roller, Knuth-Yao optimal)
 */
struct fd_sampler {
	u64 sides;
	fd_u128 z;
	fd_u128 m;
	u64 bits;
	u8 precision;
	u8 pow2_bits;
	bool large;
	bool recycle;
};

void fd_sampler_init_precision(struct fd_sampler *s, u64 sides, bool recycle,
			       unsigned int precision);
void fd_sampler_init(struct fd_sampler *s, u64 sides, bool recycle);
void fd_sampler_reset(struct fd_sampler *s);
bool fd_sampler_roll(struct fd_sampler *s, struct fd_pool *fair, u64 *out);
bool fd_sampler_wants(const struct fd_sampler *s, u64 base);
void fd_sampler_absorb(struct fd_sampler *s, u64 digit, u64 base);
bool fd_sampler_try(struct fd_sampler *s, u64 *out);

#endif /* _FAIRDIE_SAMPLER_H */
