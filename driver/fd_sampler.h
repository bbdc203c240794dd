/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - exact uniform sampler with randomness recycling.
 *
 * The sampler keeps a state Z that is uniform on [0, M). It tops M up with
 * fair bits (Z = Z + M bit, M = 2M) until M reaches its target, then accepts
 * when Z falls below Q sides, Q = M div sides (a dual die may take Q one
 * less: any Q with Q sides <= M is exact). On accept it returns Z mod sides
 * and keeps Z div sides, uniform on [0, Q); on reject it keeps Z - Q sides,
 * uniform on the remainder. Nothing is
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
/*
 * The read path rolls sides^k at once, the largest power not above
 * 2^FD_SAMPLER_BATCH_BITS, and hands out its k base-sides digits one by
 * one: the digits of a uniform number on [0, sides^k) are independent
 * uniform rolls. Each batch costs a few dozen cycles, each digit two
 * multiplications (one where fd_sampler_fill() writes a whole batch);
 * against M >= 2^63, a batch below 2^48 is rejected with probability below
 * 2^-15, and what a rejection keeps is recycled.
 */
#define FD_SAMPLER_BATCH_BITS		48
/*
 * A die of sides in [2^k - 2^(k - 16), 2^k), k > 24, rejects k fresh bits
 * with probability at most 2^-16: k 2^k / sides bits per roll, within
 * 6 x 10^-4 bit of log2(sides) for k <= 32, with no division at all.
 */
#define FD_SAMPLER_PLAIN_GAP		16

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
 * @batch: sides^@batch_len, the die the 64-bit state actually rolls
 * @batch_recip: floor(2^64 / @batch), to divide by it with a multiplication
 * @sides_recip: fd_recip_up(@sides), to split a batch into digits
 * @digits: the digits of the last batch not handed out yet, a uniform
 *	number on [0, sides^@ndigits), independent of @z
 * @batch_len: digits per batch, 1 when batching is off
 * @ndigits: how many digits @digits holds
 * @batch_bits: log2 of the largest batch allowed, 0 for no batching
 * @half: sides^h, h = (@batch_len - 1) / 2: fd_sampler_fill() splits the
 *	digits left after a batch's first roll into two halves, so that two
 *	chains of divisions run side by side
 * @half_recip: fd_recip(@half)
 * @frac_mul: ceil(2^(64 + @frac_shift) / @batch): a batch v becomes a
 *	fraction f, 2^64 v / @batch rounded up (fd_frac_start()), and the high
 *	halves of f sides, f sides^2, ... (each time keeping the low half) are
 *	v's digits from the most significant down (fd_frac_digit()); 0 when
 *	there is no batch
 * @frac_shift: fls64(@batch) - 1
 * @div_lo: the low 64 bits of R = ceil(2^(66 + @frac_shift) / @batch), a
 *	reciprocal that gives Z div @batch and the fraction of Z mod @batch
 *	at once (fd_frac_divide()); 0 when there is no batch
 * @div_hi: R >> 64, 1 to 4
 * @div_shift: @frac_shift + 2
 * @frac_run: k = ceil(@batch_len / 4), the digits of each of the four
 *	chains of fd_sampler_fill()
 * @frac_pow: sides^t_j, t_j = min(j k, @batch_len - k), j = 1, 2, 3: f
 *	@frac_pow[j - 1] (its low half) starts chain j at digit
 *	@batch_len - 1 - t_j, k digits long (chains may overlap: the digits
 *	they share come out the same)
 * @frac_split: sides^a, a = @batch_len - @batch_len / 2: f @frac_split
 *	(its low half) starts the digits after the first a, a second chain
 * @dual: a die too wide for a batch of two (from 2642246 sides by default,
 *	up to 2^32 - 2^16 - 1) and not plain: the rolls alternate between two
 *	independent states, (@z, @m) and (@z2, @m2), so that two chains of
 *	divisions run side by side
 * @turn: which state the next roll of a @dual die uses, 0 or 1
 * @plain_bits: k, when sides is within 2^(k - FD_SAMPLER_PLAIN_GAP) below
 *	2^k (k > 24): each roll is then k fresh bits, rejected at sides or
 *	above, which gives up at most 6 x 10^-4 bit per roll to save every
 *	division; 0 otherwise
 * @z2: the second state, uniform on [0, @m2) and independent of (@z, @m)
 * @m2: its range, at least 1
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
	u64 batch;
	u64 batch_recip;
	u64 sides_recip;
	u64 digits;
	u8 batch_len;
	u8 ndigits;
	u8 batch_bits;
	u64 half;
	u64 half_recip;
	u64 frac_mul;
	u64 frac_split;
	u64 frac_pow[3];
	u64 div_lo;
	u8 div_hi;
	u8 div_shift;
	u8 frac_shift;
	u8 frac_run;
	bool dual;
	u8 turn;
	u8 plain_bits;
	u64 z2;
	u64 m2;
};

/**
 * fd_recip() - floor(2^64 / @d) for fd_recip_div()
 * @d: a divisor, at least 2
 *
 * Return: the reciprocal.
 */
static inline u64 fd_recip(u64 d)
{
	u64 rem;

	return (u64)fd_div128((fd_u128)1 << 64, d, &rem);
}

/**
 * fd_recip_div() - @x / @d with a multiplication
 * @x: the dividend, any 64-bit value
 * @d: the divisor, at least 2
 * @r: fd_recip(@d)
 * @rem: receives @x % @d
 *
 * With r = floor(2^64 / d), x r / 2^64 lies in (x / d - 1, x / d], so the
 * high half of x r is the quotient or one less; one comparison fixes it.
 *
 * Return: @x / @d.
 */
static inline u64 fd_recip_div(u64 x, u64 d, u64 r, u64 *rem)
{
	u64 q = (u64)(((fd_u128)x * r) >> 64), t = x - q * d;
	/* Without a branch: the fix is needed about as often as not. */
	u64 fix = -(u64)(t >= d);

	*rem = t - (d & fix);
	return q - fix;
}

/**
 * fd_recip_up() - floor(2^64 / @d) + 1 for fd_recip_div_small()
 * @d: a divisor, at least 2
 *
 * Return: the reciprocal, rounded up.
 */
static inline u64 fd_recip_up(u64 d)
{
	return fd_recip(d) + 1;
}

/**
 * fd_recip_div_small() - @x / @d with a multiplication and no correction
 * @x: the dividend, with @x * @d < 2^64
 * @d: the divisor, at least 2
 * @c: fd_recip_up(@d)
 * @rem: receives @x % @d
 *
 * With c = 2^64 / d + e, 0 < e <= 1, x c / 2^64 exceeds x / d by at most
 * x / 2^64 < 1 / d, too little to reach the next integer (Lemire, Kaser
 * and Kurz's fastmod, for dividends below 2^64 / d).
 *
 * Return: @x / @d.
 */
static inline u64 fd_recip_div_small(u64 x, u64 d, u64 c, u64 *rem)
{
	u64 q = (u64)(((fd_u128)x * c) >> 64);

	*rem = x - q * d;
	return q;
}

/**
 * fd_sampler_pop() - hand out one digit of the current batch
 * @s: the sampler, with @s->ndigits > 0
 *
 * The digits are below sides^(k - 1) and sides^k is at most 2^64 / sides,
 * so fd_recip_div_small() applies.
 *
 * Return: the least significant digit, in [0, sides).
 */
static inline u64 fd_sampler_pop(struct fd_sampler *s)
{
	u64 d, q = fd_recip_div_small(s->digits, s->sides, s->sides_recip, &d);

	s->digits = q;
	s->ndigits--;
	return d;
}

/**
 * fd_mul_hi() - the high half of a 64 x 64-bit product
 * @x: a factor
 * @y: the other
 * @lo: receives the low half
 *
 * On x86-64 one MUL: GCC keeps a 128-bit product in a loop of several in
 * memory, and a loop of digits would spend more on that than on the
 * multiplications.
 *
 * Return: floor(@x @y / 2^64).
 */
static __always_inline u64 fd_mul_hi(u64 x, u64 y, u64 *lo)
{
#ifdef __x86_64__
	u64 hi;

	asm("mulq %3" : "=a" (*lo), "=d" (hi) : "%0" (x), "rm" (y) : "cc");
	return hi;
#else
	fd_u128 p = (fd_u128)x * y;

	*lo = p;
	return p >> 64;
#endif
}

/**
 * fd_frac_start() - the fraction of a batch
 * @s: the sampler, with a batch of two digits or more
 * @v: the batch, uniform on [0, N), N = sides^@s->batch_len
 *
 * With t = @s->frac_shift = fls64(N) - 1, @s->frac_mul is
 * ceil(2^(64 + t) / N), below 2^64, and the result
 * floor(v frac_mul / 2^t) + 1 is 2^64 (v / N + e) with
 * 0 < e < 3 / 2^64 <= 1 / N (N < 2^48).
 *
 * Return: the fraction f.
 */
static __always_inline u64 fd_frac_start(const struct fd_sampler *s, u64 v)
{
	return (u64)(((fd_u128)v * s->frac_mul) >> s->frac_shift) + 1;
}

/*
 * fd_frac_divide() with its constants R = @lo + 2^64 @hi and s' = @sh
 * given: a caller that stores through a byte pointer keeps them in locals.
 */
static __always_inline u64 fd_frac_divide_by(u64 z, u64 lo, u64 hi,
					     unsigned int sh, u64 *f)
{
	u64 l, mid = fd_mul_hi(z, lo, &l), top, t2;

	/* X's upper 128 bits: mid + Z @hi 2^64, @hi <= 4 */
	top = fd_mul_hi(z, hi, &t2);
	t2 += mid;
	top += t2 < mid;
	*f = ((l >> sh) | (t2 << (64 - sh))) + 1;
	return (t2 >> sh) | (top << (64 - sh));
}

/**
 * fd_frac_divide() - Z div N, and the fraction of Z mod N, at once
 * @s: the sampler, with a batch of two digits or more: N = @s->batch,
 *	2^t <= N < 2^(t + 1), t = @s->frac_shift <= 47
 * @z: the state, any 64-bit value
 * @f: receives the fraction of v = Z mod N: 2^64 (v / N + e) with
 *	0 < e < 1 / N, as fd_frac_start() makes it for fd_frac_digit()
 *
 * With R = ceil(2^(64 + s') / N), s' = t + 2 (@div_lo, @div_hi), and X =
 * floor(Z R / 2^s'): Z R / 2^s' = 2^64 Z / N + d with 0 <= d < Z / 2^s' <
 * 2^(62 - t) < 2^64 / (2 N), so 2^64 Z / N <= X < 2^64 Z / N +
 * 2^64 / (2 N). With Z = q N + v, v <= N - 1: 2^64 q <= X < 2^64 (q + 1),
 * so q is X >> 64; and f = (X mod 2^64) + 1 lies in (2^64 v / N,
 * 2^64 v / N + 2^64 / (2 N) + 1], below 2^64, so e < 1 / N (N < 2^48).
 * Two multiplications side by side, where fd_recip_div() and
 * fd_frac_start() make three, one after the other.
 *
 * Return: Z div N.
 */
static __always_inline u64 fd_frac_divide(const struct fd_sampler *s, u64 z,
					  u64 *f)
{
	return fd_frac_divide_by(z, s->div_lo, s->div_hi, s->div_shift, f);
}

/**
 * fd_frac_digit() - the next digit of a fraction, with one multiplication
 * @f: the fraction, which becomes the low half of @f @n
 * @n: the base, the sampler's sides
 *
 * f = 2^64 (v / N + e), with 0 < e < 1 / N (fd_frac_start()): after j
 * steps f is 2^64 times the fractional part of v / n^(len - j) plus n^j e.
 * That fractional part is a multiple of 1 / n^(len - j), at most
 * 1 - 1 / n^(len - j), and n^j e < 1 / n^(len - j): the error never carries
 * into a digit, and the high half of the next product is exactly digit
 * len - 1 - j of v. Starting from f n^j instead (its low half) skips j
 * digits, for a chain of its own.
 *
 * Return: the digit, in [0, @n).
 */
static __always_inline u64 fd_frac_digit(u64 *f, u64 n)
{
	return fd_mul_hi(*f, n, f);
}

/**
 * fd_sampler_spell() - all digits of a batch, one multiplication each
 * @s: the sampler, with a batch of two digits or more
 * @v: the batch
 * @dst: @s->batch_len digits, least significant first as fd_sampler_pop()
 *	hands them out, as 32-bit words
 *
 * Two chains side by side: the second starts at digit len - 1 - a,
 * a = len - len / 2 (@s->frac_split is sides^a).
 */
static __always_inline void fd_sampler_spell(const struct fd_sampler *s,
					     u64 v, u32 *dst)
{
	unsigned int len = s->batch_len, a = len - len / 2, i;
	u64 n = s->sides, f = fd_frac_start(s, v), g = f * s->frac_split;
	u32 *hi = dst + len - 1, *lo = hi - a;

	for (i = 0; i < len / 2; i++) {
		hi[-(int)i] = fd_frac_digit(&f, n);
		lo[-(int)i] = fd_frac_digit(&g, n);
	}
	/* An odd count: f has one digit more. */
	if (len & 1)
		hi[-(int)i] = fd_frac_digit(&f, n);
}

void fd_sampler_init_precision(struct fd_sampler *s, u64 sides, bool recycle,
			       unsigned int precision);
void fd_sampler_init(struct fd_sampler *s, u64 sides, bool recycle);
void fd_sampler_init_batch(struct fd_sampler *s, u64 sides,
			   unsigned int precision, unsigned int batch_bits);
void fd_sampler_set_sides(struct fd_sampler *s, u64 sides);
u32 fd_sampler_fill(struct fd_sampler *s, struct fd_pool *fair, u8 *dst,
		    u32 count);
u32 fd_sampler_fill_rolls(struct fd_sampler *s, struct fd_pool *fair, u8 *dst,
			  u32 count, u32 width);
void fd_sampler_reset(struct fd_sampler *s);
u32 fd_sampler_giveback(struct fd_sampler *s, struct fd_pool *out);
bool fd_sampler_roll(struct fd_sampler *s, struct fd_pool *fair, u64 *out);
bool fd_sampler_wants(const struct fd_sampler *s, u64 base);
void fd_sampler_absorb(struct fd_sampler *s, u64 digit, u64 base);
bool fd_sampler_try(struct fd_sampler *s, u64 *out);

#endif /* _FAIRDIE_SAMPLER_H */
