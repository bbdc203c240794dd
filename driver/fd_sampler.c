// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - exact uniform sampler with randomness recycling.
 *
 * Invariant: Z is uniform on [0, M) and independent of every roll already
 * returned. Appending a fair bit keeps it (Z + M b is uniform on [0, 2M)).
 * With Q = M div n (or any Q with Q n <= M, as dual dice take it):
 * conditioned on Z < Q n, the pair (Z mod n, Z div n) is uniform on
 * [0, n) x [0, Q), so the roll is exact and Z div n is a fresh
 * uniform state on [0, Q); conditioned on Z >= Q n, Z - Q n is uniform on
 * [0, M - Q n). Without recycling the target of M is n itself, M stays below
 * 2n, Q is 1, and this is the Fast Dice Roller.
 */

#include "fd_sampler.h"
#include "fd_roll.h"

/* Whether the state needs 128 bits for this configuration. */
static bool fd_sampler_wide(const struct fd_sampler *s)
{
	/* Without recycling M stays below 2 sides. */
	return s->recycle ? s->precision > 63 : s->sides > (1ULL << 62);
}

/* Where chain @j of fd_sampler_spell4() starts: t_j = min(j k, len - k). */
static inline unsigned int fd_sampler_run_start(unsigned int len,
						unsigned int k, unsigned int j)
{
	return j * k < len - k ? j * k : len - k;
}

/* @n^@k, below 2^64. */
static u64 fd_sampler_pow(u64 n, unsigned int k)
{
	u64 p = 1;

	while (k--)
		p *= n;
	return p;
}

/*
 * The constants of fd_frac_start() and of the chains of digits. The batch
 * N is below 2^48 and not a power of two; with t = fls64(N) - 1,
 * 2^t < N < 2^(t + 1), so C = ceil(2^(64 + t) / N) is below 2^64.
 */
static void fd_sampler_setup_frac(struct fd_sampler *s)
{
	unsigned int shift = fls64(s->batch) - 1, i, t;
	fd_u128 r;
	u64 rem;

	s->frac_shift = shift;
	s->frac_mul = (u64)fd_div128((fd_u128)1 << (64 + shift), s->batch,
				     &rem) + !!rem;
	r = fd_div128((fd_u128)1 << (66 + shift), s->batch, &rem);
	r += !!rem;
	s->div_lo = (u64)r;
	s->div_hi = (u8)(r >> 64);
	s->div_shift = shift + 2;
	s->frac_split = fd_sampler_pow(s->sides, s->batch_len -
					       s->batch_len / 2u);
	s->frac_run = (s->batch_len + 3) / 4;
	for (i = 1; i <= 3; i++) {
		t = fd_sampler_run_start(s->batch_len, s->frac_run, i);
		s->frac_pow[i - 1] = fd_sampler_pow(s->sides, t);
	}
}

/* Sides and everything derived from them; the state is left alone. */
static void fd_sampler_setup(struct fd_sampler *s, u64 sides,
			     unsigned int precision)
{
	unsigned int i;
	u64 limit;

	s->sides = sides ? sides : 1;
	s->precision = precision;
	s->pow2_bits = 0;
	if (!(s->sides & (s->sides - 1)))
		s->pow2_bits = fls64(s->sides) - 1;
	s->batch = s->sides;
	s->batch_len = 1;
	s->digits = 0;
	s->ndigits = 0;
	s->half = 1;
	s->half_recip = 0;
	s->frac_mul = 0;
	s->div_lo = 0;
	s->div_hi = 0;
	s->div_shift = 0;
	s->frac_split = 1;
	s->frac_shift = 0;
	s->frac_run = 0;
	s->dual = false;
	s->plain_bits = 0;
	s->batch_recip = s->sides > 1 ? fd_recip(s->sides) : 0;
	s->sides_recip = 0;
	if (s->sides < 2 || s->sides > FD_SAMPLER_SMALL_MAX)
		return;
	s->sides_recip = fd_recip_up(s->sides);
	if (!s->recycle || !s->batch_bits || s->pow2_bits || precision > 63)
		return;
	limit = 1ULL << s->batch_bits;
	/* sides^k <= 2^64 / sides too, for fd_sampler_pop() */
	while (s->batch <= limit / s->sides &&
	       s->batch <= ~0ULL / s->sides / s->sides) {
		s->batch *= s->sides;
		s->batch_len++;
	}
	s->batch_recip = fd_recip(s->batch);
	s->half = 1;
	for (i = 0; i < (s->batch_len - 1u) / 2; i++)
		s->half *= s->sides;
	s->half_recip = s->half > 1 ? fd_recip(s->half) : 0;
	if (s->batch_len > 1) {
		fd_sampler_setup_frac(s);
		return;
	}
	/* Too wide for a batch of two: plain rejection, or two states. */
	i = fls64(s->sides);
	if (i > 24 && (1ULL << i) - s->sides <= 1ULL << (i - FD_SAMPLER_PLAIN_GAP))
		s->plain_bits = i;
	else
		s->dual = true;
}

/**
 * fd_sampler_init_precision() - set up a sampler with a chosen target
 * @s: the sampler
 * @sides: number of faces, at least 1
 * @recycle: keep the leftover uniform state between rolls
 * @precision: log2 of the target of M when recycling, at least
 *	fls64(@sides) and at most 127; values up to 63 use 64-bit arithmetic.
 *	Small values let the tests enumerate every bit string.
 *
 * Each roll is one accept/reject step on @sides itself: no batching.
 */
void fd_sampler_init_precision(struct fd_sampler *s, u64 sides, bool recycle,
			       unsigned int precision)
{
	FD_WARN_ON(!sides || precision > 127 || precision < fls64(sides));
	memset(s, 0, sizeof(*s));
	s->recycle = recycle;
	fd_sampler_setup(s, sides, precision);
	fd_sampler_reset(s);
}

static unsigned int fd_sampler_default_precision(u64 sides)
{
	return sides <= FD_SAMPLER_SMALL_MAX ? FD_SAMPLER_PRECISION_SMALL :
	       FD_SAMPLER_PRECISION_LARGE;
}

/**
 * fd_sampler_init_batch() - a recycling sampler that rolls in batches
 * @s: the sampler
 * @sides: number of faces, at least 1
 * @precision: as for fd_sampler_init_precision()
 * @batch_bits: batches of sides^k up to 2^@batch_bits, at most
 *	FD_SAMPLER_BATCH_BITS and at most @precision; 0 for none
 */
void fd_sampler_init_batch(struct fd_sampler *s, u64 sides,
			   unsigned int precision, unsigned int batch_bits)
{
	FD_WARN_ON(!sides || precision > 127 || precision < fls64(sides) ||
		   batch_bits > FD_SAMPLER_BATCH_BITS || batch_bits > precision);
	memset(s, 0, sizeof(*s));
	s->recycle = true;
	s->batch_bits = batch_bits;
	fd_sampler_setup(s, sides, precision);
	fd_sampler_reset(s);
}

/**
 * fd_sampler_init() - set up a sampler for @sides faces
 * @s: the sampler
 * @sides: number of faces, at least 1
 * @recycle: keep the leftover uniform state between rolls (the default),
 *	and roll in batches
 */
void fd_sampler_init(struct fd_sampler *s, u64 sides, bool recycle)
{
	unsigned int precision = fd_sampler_default_precision(sides);

	if (recycle)
		fd_sampler_init_batch(s, sides, precision,
				      FD_SAMPLER_BATCH_BITS);
	else
		fd_sampler_init_precision(s, sides, false, precision);
}

/*
 * Fair bits out of Z uniform on [0, M): with 2^k the largest power of two
 * not above M, Z below 2^k is k fair bits; otherwise Z - 2^k is uniform on
 * [0, M - 2^k), and the same applies to it. Which branch is taken depends
 * on Z, but given the branch the bits are uniform: a string of fair bits
 * of a random length independent of its content. As many go into @out as
 * it has room for.
 */
static u32 fd_uniform_to_bits(fd_u128 z, fd_u128 m, struct fd_pool *out)
{
	unsigned int k, n;
	u32 put = 0;

	while (m >= 2) {
		k = m >> 64 ? 64 + fls64(m >> 64) - 1 : fls64(m) - 1;
		if (z >= (fd_u128)1 << k) {
			z -= (fd_u128)1 << k;
			m -= (fd_u128)1 << k;
			continue;
		}
		while (k && fd_pool_room(out)) {
			n = k < 64 ? k : 64;
			if (n > fd_pool_room(out))
				n = fd_pool_room(out);
			fd_pool_put(out, (u64)z, n);
			z = n < 64 ? z >> n : z >> 64;
			k -= n;
			put += n;
		}
		break;
	}
	return put;
}

/**
 * fd_sampler_giveback() - turn the uniform state into fair bits and drop it
 * @s: the sampler
 * @out: receives the bits, as far as it has room
 *
 * Every part of the state (Z on [0, M), the digits of a batch not handed
 * out, the second state of a dual die) is uniform and independent of every
 * roll made, so the fair bits drawn from it are too: another reader may use
 * them. The state is then reset, the configuration kept.
 *
 * Return: the number of bits put into @out.
 */
u32 fd_sampler_giveback(struct fd_sampler *s, struct fd_pool *out)
{
	fd_u128 range = 1;
	u32 put, i;

	put = fd_uniform_to_bits(s->z, s->m, out);
	for (i = 0; i < s->ndigits; i++)
		range *= s->sides;
	if (s->ndigits)
		put += fd_uniform_to_bits(s->digits, range, out);
	put += fd_uniform_to_bits(s->z2, s->m2, out);
	fd_sampler_reset(s);
	return put;
}

/**
 * fd_sampler_reset() - drop the uniform state, keeping the configuration
 * @s: the sampler
 */
void fd_sampler_reset(struct fd_sampler *s)
{
	s->z = 0;
	s->m = 1;
	s->digits = 0;
	s->ndigits = 0;
	s->large = fd_sampler_wide(s);
	s->z2 = 0;
	s->m2 = 1;
	s->turn = 0;
}

/**
 * fd_sampler_set_sides() - change the die, keeping the uniform state
 * @s: the sampler
 * @sides: the new number of faces, at least 1
 *
 * The state is uniform and independent of every roll already made, so it
 * serves any die: digits of the last batch not handed out go back into it
 * (Z sides^j + digits is uniform on [0, M sides^j)). A default precision
 * becomes the default for @sides, another one is kept (raised to
 * fls64(@sides) if need be); the batch bits and the bit counter are kept.
 */
void fd_sampler_set_sides(struct fd_sampler *s, u64 sides)
{
	unsigned int precision = s->precision;
	u64 rem;

	if (s->ndigits) {
		u64 pw = 1;
		unsigned int i;

		/* sides^ndigits < 2^64 and M < 2^64: no overflow. */
		for (i = 0; i < s->ndigits; i++)
			pw *= s->sides;
		s->z = s->z * pw + s->digits;
		s->m *= pw;
	}

	/* A precision a test chose is kept, as far as @sides allows. */
	if (precision == FD_SAMPLER_PRECISION_SMALL ||
	    precision == FD_SAMPLER_PRECISION_LARGE)
		precision = fd_sampler_default_precision(sides);
	else if (precision < fls64(sides))
		precision = fls64(sides);
	fd_sampler_setup(s, sides, precision);
	/*
	 * A second state serves the next dual die as it is. Otherwise it joins
	 * the first: Z + M Z2 is uniform on [0, M M2); it is dropped, which is
	 * as exact, in the one case the product would not fit (a first state
	 * already wider than 64 bits).
	 */
	if (!s->dual) {
		if (s->m2 > 1 && s->m <= fd_div128(~(fd_u128)0, s->m2, &rem)) {
			s->z += s->m * s->z2;
			s->m *= s->m2;
		}
		s->z2 = 0;
		s->m2 = 1;
		s->turn = 0;
	}
	s->large = fd_sampler_wide(s) || (s->m >> 64);
}

static fd_u128 fd_sampler_target(const struct fd_sampler *s)
{
	return s->recycle ? (fd_u128)1 << s->precision : s->sides;
}

/**
 * fd_sampler_wants() - whether the state takes one more digit of @base
 * @s: the sampler
 * @base: the base of the next digit (2 for a bit)
 *
 * A 64-bit state is widened to 128 bits when a digit does not fit, so the
 * state only stops taking digits once M is at least sides.
 *
 * Return: true while M is below its target and M * @base fits in 128 bits.
 */
bool fd_sampler_wants(const struct fd_sampler *s, u64 base)
{
	u64 rem;

	return s->m < fd_sampler_target(s) &&
	       s->m <= fd_div128(~(fd_u128)0, base, &rem);
}

/**
 * fd_sampler_absorb() - append one uniform digit to the state
 * @s: the sampler, for which fd_sampler_wants(@s, @base) is true
 * @digit: a uniform digit in [0, @base)
 * @base: its base, at least 2
 *
 * Used by userspace to feed rolls of a fair die of any size; the read path
 * appends whole runs of bits in fd_sampler_roll() instead.
 */
void fd_sampler_absorb(struct fd_sampler *s, u64 digit, u64 base)
{
	if (FD_WARN_ON(digit >= base))
		return;
	if (!s->large && s->m > ~0ULL / base)
		s->large = true;
	s->z = s->z * base + digit;
	s->m *= base;
}

/* One accept/reject step on a 64-bit state that reached its target. */
static bool fd_sampler_step64(struct fd_sampler *s, u64 *out)
{
	u64 n = s->sides, z = s->z, m = s->m, q = m / n;

	if (z < q * n) {
		*out = z % n;
		s->z = z / n;
		s->m = q;
		return true;
	}
	s->z = z - q * n;
	s->m = m - q * n;
	return false;
}

/* The same with 128 bits: Q n is M minus the remainder of M by n. */
static bool fd_sampler_step128(struct fd_sampler *s, u64 *out)
{
	u64 r, zr;
	fd_u128 q = fd_div128(s->m, s->sides, &r);

	if (s->z < s->m - r) {
		s->z = fd_div128(s->z, s->sides, &zr);
		s->m = q;
		*out = zr;
		return true;
	}
	s->z -= s->m - r;
	s->m = r;
	return false;
}

/**
 * fd_sampler_try() - try one roll from the state alone
 * @s: the sampler
 * @out: the roll, in [0, sides), when the step accepts
 *
 * Return: true and *@out set on accept; false on reject or when M is
 * still below sides (the caller then absorbs more digits).
 */
bool fd_sampler_try(struct fd_sampler *s, u64 *out)
{
	bool ok;

	if (s->sides == 1) {
		*out = 0;
		return true;
	}
	if (s->ndigits) {
		*out = fd_sampler_pop(s);
		return true;
	}
	/*
	 * Any M >= sides allows a step; M below its target only costs
	 * efficiency (a digit of a large base may not fit below the target).
	 */
	if (s->m < s->sides)
		return false;
	ok = s->large ? fd_sampler_step128(s, out) : fd_sampler_step64(s, out);
	if (ok && !s->recycle)
		fd_sampler_reset(s);
	return ok;
}

/* How many bits take M from its value to its target (M below target). */
static unsigned int fd_sampler_deficit(const struct fd_sampler *s, fd_u128 m)
{
	unsigned int have;

	if (s->recycle) {
		have = m >> 64 ? 64 + fls64(m >> 64) : fls64(m);
		return s->precision + 1 - have;
	}
	/* The Fast Dice Roller doubles M until it reaches sides. */
	have = 0;
	while ((m << have) < s->sides)
		have++;
	return have;
}

/*
 * Append up to @k fair bits from @fair above the state: Z + M V is uniform
 * on [0, 2^c M), and taking bits one at a time or c at once gives the same
 * state, so a roll does not depend on how the pool was refilled.
 */
static void fd_sampler_top_up(struct fd_sampler *s, struct fd_pool *fair,
			      unsigned int k)
{
	if (k > fair->count)
		k = fair->count;
	while (k) {
		unsigned int c = k > 64 ? 64 : k;
		u64 bits = fd_pool_take(fair, c);

		if (s->large) {
			s->z += s->m * bits;
			s->m <<= c;
		} else {
			s->z = (u64)s->z + (u64)s->m * bits;
			s->m = (u64)s->m << (c - 1) << 1;
		}
		s->bits += c;
		k -= c;
	}
}

/*
 * fd_sampler_roll() for the 64-bit state, the common case, with the state
 * kept in registers: the same steps as fd_sampler_top_up() and
 * fd_sampler_try(), written out once more because this is the hot path, on
 * the batch die sides^k, divided by through its reciprocal. The first
 * digit of an accepted batch is the roll, the others wait in @s->digits.
 */
static bool fd_sampler_roll64(struct fd_sampler *s, struct fd_pool *fair,
			      u64 *out)
{
	u64 n = s->batch, r = s->batch_recip, z = s->z, m = s->m, q, rem;
	u64 target = s->recycle ? 1ULL << s->precision : n;
	unsigned int k;

	for (;;) {
		if (m < target) {
			k = fd_sampler_deficit(s, m);
			if (k > fair->count)
				k = fair->count;
			if (k) {
				/* k <= 63 and M 2^k < 2^64 here */
				u64 bits = fd_pool_take(fair, k);

				z += m * bits;
				m <<= k;
				s->bits += k;
			}
			if (m < target) {
				s->z = z;
				s->m = m;
				return false;
			}
		}
		q = fd_recip_div(m, n, r, &rem);
		/* Accept below Q n = M - (M mod n). */
		if (z < m - rem)
			break;
		z -= m - rem;
		m = rem;
	}
	z = fd_recip_div(z, n, r, &rem);
	if (s->recycle) {
		s->z = z;
		s->m = q;
	} else {
		s->z = 0;
		s->m = 1;
	}
	if (s->batch_len == 1) {
		*out = rem;
		return true;
	}
	s->digits = rem;
	s->ndigits = s->batch_len;
	*out = fd_sampler_pop(s);
	return true;
}

/*
 * Plain rejection: k fresh bits are uniform on [0, 2^k), so conditioned on
 * being below sides they are uniform on [0, sides). The state is untouched.
 */
static bool fd_sampler_roll_plain(struct fd_sampler *s, struct fd_pool *fair,
				  u64 *out)
{
	unsigned int k = s->plain_bits;
	u64 x;

	while (fair->count >= k) {
		x = fd_pool_take(fair, k);
		s->bits += k;
		if (x < s->sides) {
			*out = x;
			return true;
		}
	}
	return false;
}

static bool fd_sampler_roll_dual(struct fd_sampler *s, struct fd_pool *fair,
				 u64 *out);

/**
 * fd_sampler_roll() - roll once, taking fair bits from @fair as needed
 * @s: the sampler
 * @fair: fair bits; the sampler takes what it needs, in order
 * @out: the roll, in [0, sides)
 *
 * Return: true and *@out set when a roll is complete. False when @fair ran
 * dry first: the bits taken are kept in the state, nothing is lost, and the
 * call is simply repeated once @fair has been refilled.
 */
bool fd_sampler_roll(struct fd_sampler *s, struct fd_pool *fair, u64 *out)
{
	if (s->sides == 1) {
		*out = 0;
		return true;
	}
	/* A power of two is a plain run of bits: nothing to reject. */
	if (s->pow2_bits) {
		if (fair->count < s->pow2_bits)
			return false;
		*out = fd_pool_take(fair, s->pow2_bits);
		s->bits += s->pow2_bits;
		return true;
	}
	if (s->ndigits) {
		*out = fd_sampler_pop(s);
		return true;
	}
	if (s->plain_bits)
		return fd_sampler_roll_plain(s, fair, out);
	for (;;) {
		/*
		 * Back to 64 bits once a state kept across sides fits again,
		 * checked before every step: the road a step takes depends on
		 * the state alone, never on whether the pool ran dry during
		 * the last top-up, so the rolls are a function of the stream.
		 */
		if (unlikely(s->large) && !fd_sampler_wide(s) && !(s->m >> 64))
			s->large = false;
		if (!s->large && s->dual)
			return fd_sampler_roll_dual(s, fair, out);
		if (!s->large)
			return fd_sampler_roll64(s, fair, out);
		if (s->m < fd_sampler_target(s)) {
			fd_sampler_top_up(s, fair, fd_sampler_deficit(s, s->m));
			if (s->m < fd_sampler_target(s))
				return false;
		}
		if (fd_sampler_try(s, out))
			return true;
	}
}

#define FD_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)

/*
 * Bit i of the low byte of @x in byte i of the result, as 0 or 1 (the
 * first byte in memory on a little-endian machine): the byte copied into
 * every byte, byte i masked to its bit i, and 0x7f added so that a set bit
 * carries into bit 7 of its byte and no further.
 */
static inline u64 fd_spread8(u64 x)
{
	u64 y = ((x & 0xff) * 0x0101010101010101ULL) & 0x8040201008040201ULL;

	return ((y + 0x7f7f7f7f7f7f7f7fULL) >> 7) & 0x0101010101010101ULL;
}

/* Power-of-two sides: fields of the fair bits, up to 64 bits at a time. */
static u32 fd_sampler_fill_pow2(struct fd_sampler *s, struct fd_pool *fair,
				u8 *dst, u32 count)
{
	unsigned int pb = s->pow2_bits, per = 64 / pb, c, i;
	u64 mask = (1ULL << pb) - 1, bits;
	u32 made = 0;

	while (made < count) {
		c = fair->count / pb;
		if (c > per)
			c = per;
		if (c > count - made)
			c = count - made;
		if (!c)
			break;
		bits = fd_pool_take(fair, c * pb);
		s->bits += c * pb;
		i = 0;
		/* Coins: eight bits become eight bytes at once. */
		for (; pb == 1 && FD_LITTLE_ENDIAN && i + 8 <= c; i += 8) {
			u64 v = fd_spread8(bits);

			memcpy(dst + made, &v, sizeof(v));
			made += 8;
			bits >>= 8;
		}
		for (; i < c; i++) {
			dst[made++] = bits & mask;
			bits >>= pb;
		}
	}
	return made;
}

/*
 * The digits left after a batch's first roll, two chains at once: the low
 * h digits are those of x mod sides^h, the others those of x div sides^h.
 * They are written in the same order as fd_sampler_pop() hands them out.
 */
static void fd_sampler_fill_halves(struct fd_sampler *s, u8 *dst)
{
	u64 n = s->sides, c = s->sides_recip, lo, hi, d1, d2;
	unsigned int h = (s->batch_len - 1) / 2, left = s->ndigits, i;

	hi = fd_recip_div(s->digits, s->half, s->half_recip, &lo);
	for (i = 0; i < h; i++) {
		lo = fd_recip_div_small(lo, n, c, &d1);
		hi = fd_recip_div_small(hi, n, c, &d2);
		dst[i] = d1;
		dst[h + i] = d2;
	}
	/* An odd count: the high half has one digit more. */
	if (left > 2 * h)
		dst[2 * h] = hi;
	s->digits = 0;
	s->ndigits = 0;
}

static u32 fd_sampler_fill_batches(struct fd_sampler *s, struct fd_pool *fair,
				   u8 *dst, u32 count, bool *dry);
static u32 fd_sampler_fill_unbatched(struct fd_sampler *s,
				     struct fd_pool *fair, u8 *dst, u32 count,
				     u32 width);

/**
 * fd_sampler_fill() - up to @count rolls of at most 256 sides, as bytes
 * @s: the sampler, of at most 256 sides
 * @fair: fair bits, taken as fd_sampler_roll() takes them
 * @dst: where the rolls go, one byte each
 * @count: how many are wanted
 *
 * The same rolls as @count calls of fd_sampler_roll(), with the digits of
 * each batch written out in a tight loop.
 *
 * Return: how many were made; fewer than @count when @fair ran dry.
 */
u32 fd_sampler_fill(struct fd_sampler *s, struct fd_pool *fair, u8 *dst,
		    u32 count)
{
	u64 n = s->sides, c = s->sides_recip, x, d, v;
	u32 made = 0, k;

	if (FD_WARN_ON(n > 256))
		return 0;
	if (s->dual || s->plain_bits)
		return fd_sampler_fill_unbatched(s, fair, dst, count, 1);
	if (s->pow2_bits)
		return fd_sampler_fill_pow2(s, fair, dst, count);
	while (made < count) {
		k = s->ndigits;
		if (!k && s->batch_len > 1 && !s->large &&
		    count - made >= s->batch_len) {
			bool dry;

			made += fd_sampler_fill_batches(s, fair, dst + made,
							count - made, &dry);
			if (dry)
				break;
			continue;
		}
		if (k >= 4 && k == s->batch_len - 1u && count - made >= k) {
			fd_sampler_fill_halves(s, dst + made);
			made += k;
			continue;
		}
		if (k > count - made)
			k = count - made;
		if (k) {
			/* fd_sampler_pop(), with the state in registers. */
			x = s->digits;
			s->ndigits -= k;
			while (k--) {
				x = fd_recip_div_small(x, n, c, &d);
				dst[made++] = d;
			}
			s->digits = x;
			continue;
		}
		if (!fd_sampler_roll(s, fair, &v))
			break;
		dst[made++] = v;
	}
	return made;
}

/*
 * A run of wide rolls: the pool's ring with its cursor, and the die, copied
 * where the compiler can keep them in registers (the rolls are stored
 * through a byte pointer, which may alias anything in memory).
 */
struct fd_sampler_bits {
	const u64 *word;
	u32 head;
	u32 count;
	u64 sides;
	u64 batch;
	u64 recip;
	unsigned int precision;
};

static inline struct fd_sampler_bits
fd_sampler_bits_start(const struct fd_sampler *s, const struct fd_pool *fair)
{
	struct fd_sampler_bits b = {
		.word = fair->word, .head = fair->head, .count = fair->count,
		.sides = s->sides, .batch = s->batch, .recip = s->batch_recip,
		.precision = s->precision,
	};

	return b;
}

/* Give the pool back its cursor, and count the bits taken. */
static inline void fd_sampler_bits_end(struct fd_sampler *s,
				       struct fd_pool *fair,
				       const struct fd_sampler_bits *b)
{
	s->bits += fair->count - b->count;
	fair->head = b->head;
	fair->count = b->count;
}

/*
 * fd_pool_take() for 1..63 bits, with the checks done by the caller, and
 * no branch (fd_pool_bits_at()).
 */
static __always_inline u64 fd_sampler_bits_take(struct fd_sampler_bits *b,
						unsigned int k)
{
	u64 v = fd_pool_bits_at(b->word, b->head);

	b->head = (b->head + k) % FD_POOL_BITS;
	b->count -= k;
	return v & ((1ULL << k) - 1);
}

/*
 * One accept/reject step of a dual die on the state (*@zp, *@mp), 64 bits
 * wide: fd_sampler_roll64() with the state in registers. Q is the high
 * half of M times floor(2^64 / sides), M div sides or one less: any Q with
 * Q sides <= M is exact, and a smaller one only makes a rejection, which
 * is recycled, a little likelier. False when the bits run out before M
 * reaches its target: the state keeps the bits it took.
 */
static __always_inline bool fd_sampler_dual_step(struct fd_sampler_bits *b,
						 u64 *zp, u64 *mp, u64 *out)
{
	u64 n = b->batch, r = b->recip, z = *zp, m = *mp, q, qn;
	u64 target = 1ULL << b->precision;
	unsigned int k;

	for (;;) {
		if (m < target) {
			k = b->precision + 1 - fls64(m);
			if (unlikely(k > b->count)) {
				/* Take what is left, as fd_sampler_roll64(). */
				k = b->count;
				if (k) {
					z += m * fd_sampler_bits_take(b, k);
					m <<= k;
				}
				*zp = z;
				*mp = m;
				return false;
			}
			z += m * fd_sampler_bits_take(b, k);
			m <<= k;
			*zp = z;
			*mp = m;
		}
		q = (u64)(((fd_u128)m * r) >> 64);
		qn = q * n;
		if (z < qn)
			break;
		z -= qn;
		m -= qn;
		*zp = z;
		*mp = m;
	}
	*zp = fd_recip_div(z, n, r, out);
	*mp = q;
	return true;
}

/* A dual die: the roll comes from the state whose turn it is. */
static bool fd_sampler_roll_dual(struct fd_sampler *s, struct fd_pool *fair,
				 u64 *out)
{
	struct fd_sampler_bits b = fd_sampler_bits_start(s, fair);
	u64 z = s->turn ? s->z2 : (u64)s->z;
	u64 m = s->turn ? s->m2 : (u64)s->m;
	bool ok = fd_sampler_dual_step(&b, &z, &m, out);

	if (s->turn) {
		s->z2 = z;
		s->m2 = m;
	} else {
		s->z = z;
		s->m = m;
	}
	s->turn ^= ok;
	fd_sampler_bits_end(s, fair, &b);
	return ok;
}

/*
 * Rolls of a dual die two at a time, the first from (z, m), the second from
 * (z2, m2): the two chains of divisions are independent, so they overlap.
 * The same rolls and the same bits as fd_sampler_roll() called in turn.
 */
static __always_inline u32 fd_sampler_fill_dual(struct fd_sampler *s,
						struct fd_pool *fair, u8 *dst,
						u32 count, u32 width)
{
	struct fd_sampler_bits b = fd_sampler_bits_start(s, fair);
	u64 z = s->z, m = s->m, z2 = s->z2, m2 = s->m2, v;
	u32 made = 0;

	while (count - made >= 2) {
		if (!fd_sampler_dual_step(&b, &z, &m, &v))
			break;
		fd_put_roll(dst + made++ * width, v, width);
		if (!fd_sampler_dual_step(&b, &z2, &m2, &v)) {
			s->turn = 1;
			break;
		}
		fd_put_roll(dst + made++ * width, v, width);
	}
	fd_sampler_bits_end(s, fair, &b);
	s->z = z;
	s->m = m;
	s->z2 = z2;
	s->m2 = m2;
	return made;
}

/* Rolls of a plain die: fd_sampler_roll_plain() with the cursor in registers. */
static __always_inline u32 fd_sampler_fill_plain(struct fd_sampler *s,
						 struct fd_pool *fair, u8 *dst,
						 u32 count, u32 width)
{
	struct fd_sampler_bits b = fd_sampler_bits_start(s, fair);
	unsigned int k = s->plain_bits;
	u32 made = 0;
	u64 x;

	for (;;) {
		/* 32-bit tries two to a word, while the cursor is on a word. */
		while (k == 32 && !(b.head % 64) && b.count >= 64 &&
		       count - made >= 2) {
			x = b.word[b.head / 64];
			b.head = (b.head + 64) % FD_POOL_BITS;
			b.count -= 64;
			if ((u32)x < b.sides)
				fd_put_roll(dst + made++ * width, (u32)x, width);
			if (x >> 32 < b.sides)
				fd_put_roll(dst + made++ * width, x >> 32, width);
		}
		if (made == count || b.count < k)
			break;
		x = fd_sampler_bits_take(&b, k);
		if (x < b.sides)
			fd_put_roll(dst + made++ * width, x, width);
	}
	fd_sampler_bits_end(s, fair, &b);
	return made;
}

/*
 * The digits of a batch v of a die of at most 256 sides, as bytes, least
 * significant first as fd_sampler_pop() hands them out (fd_frac_digit()),
 * from its fraction @f0 (fd_frac_divide() or fd_frac_start()), in four
 * chains: a chain's multiplications wait for each other, four
 * chains overlap. Chain j starts at f sides^t_j (struct fd_sampler,
 * @frac_pow), t_0 = 0, and spells k digits from digit len - 1 - t_j down;
 * the chains cover every digit, and a digit that two of them spell is
 * written twice, the same both times.
 */
static __always_inline void fd_sampler_spell4(const struct fd_sampler *s,
					      u64 f0, u8 *dst)
{
	u64 n = s->sides, f1 = f0 * s->frac_pow[0];
	u64 f2 = f0 * s->frac_pow[1], f3 = f0 * s->frac_pow[2];
	unsigned int len = s->batch_len, k = s->frac_run;
	long o1 = -(long)fd_sampler_run_start(len, k, 1);
	long o2 = -(long)fd_sampler_run_start(len, k, 2);
	long o3 = -(long)fd_sampler_run_start(len, k, 3);
	u8 *d = dst + len - 1, *end = d - k;

	for (; d != end; d--) {
		d[0] = fd_frac_digit(&f0, n);
		d[o1] = fd_frac_digit(&f1, n);
		d[o2] = fd_frac_digit(&f2, n);
		d[o3] = fd_frac_digit(&f3, n);
	}
}

/*
 * What fd_sampler_fill_batches() needs of the sampler and of the pool,
 * copied into locals that the compiler may keep in registers or spill
 * once: the rolls are stored through a byte pointer, which may alias
 * anything, so fields read in the loop would be read again for each batch.
 */
struct fd_sampler_batches {
	u64 batch;
	u64 recip;
	u64 sides;
	u64 div_lo;
	u64 pow[3];
	long off[3];
	u8 div_hi;
	u8 div_shift;
	u8 len;
	u8 run;
};

/*
 * The next k fair bits of the ring at @head, in the low bits: k in 1..63
 * (fd_pool_bits_at(), with the mask as two shifts).
 */
static __always_inline u64 fd_sampler_take_low(const u64 *word, u32 head,
					       unsigned int k)
{
	return (fd_pool_bits_at(word, head) << (64 - k)) >> (64 - k);
}

/*
 * Whole batches of a die of at most 256 sides, while @count leaves room
 * for one: each accepted batch is written out at once, its digits in the
 * order fd_sampler_roll() and fd_sampler_pop() hand them out, spelt by
 * fd_sampler_spell4() from the fraction its step leaves (fd_frac_divide():
 * the batch itself is never needed). *@dry is set when the bits ran out.
 * The steps are fd_sampler_roll64()'s, with the state, the pool's cursor
 * and the die's constants in locals.
 */
static noinline u32 fd_sampler_fill_batches(struct fd_sampler *s,
					    struct fd_pool *fair, u8 *dst,
					    u32 count, bool *dry)
{
	const u64 *word = fair->word;
	u32 head = fair->head, avail = fair->count, made = 0, left;
	u64 z = s->z, m = s->m, prev = 0, q, rem, f, f1, f2, f3;
	unsigned int k, top = 64 - s->precision, j;
	struct fd_sampler_batches c;
	bool ahead = false, ok;
	u8 *d, *end;

	c.batch = s->batch;
	c.recip = s->batch_recip;
	c.sides = s->sides;
	c.div_lo = s->div_lo;
	c.div_hi = s->div_hi;
	c.div_shift = s->div_shift;
	c.len = s->batch_len;
	c.run = s->frac_run;
	for (j = 0; j < 3; j++) {
		c.pow[j] = s->frac_pow[j];
		c.off[j] = -(long)fd_sampler_run_start(c.len, c.run, j + 1);
	}
	left = count / c.len;
	*dry = false;
	/*
	 * One batch ahead: the steps are one chain of dependent
	 * multiplications, the spelling of a batch is independent work, so
	 * batch i is spelt after step i + 1 has been issued, where the two
	 * overlap.
	 */
	while (left) {
		/* The step: M topped up to its target, then accept or reject. */
		for (;;) {
			/* M >= 1; below 2^precision it takes k fresh bits. */
			k = __builtin_clzll(m) - top + 1;
			if ((int)k > 0) {
				if (unlikely(k > avail)) {
					k = avail;
					if (k) {
						z += m * fd_sampler_take_low(word,
									     head, k);
						m <<= k;
						head = (head + k) % FD_POOL_BITS;
						avail = 0;
					}
					ok = false;
					break;
				}
				z += m * fd_sampler_take_low(word, head, k);
				m <<= k;
				head = (head + k) % FD_POOL_BITS;
				avail -= k;
			}
			q = fd_recip_div(m, c.batch, c.recip, &rem);
			/* Accept below Q N = M - (M mod N). */
			if (likely(z < m - rem)) {
				ok = true;
				break;
			}
			z -= m - rem;
			m = rem;
		}
		if (ok) {
			z = fd_frac_divide_by(z, c.div_lo, c.div_hi,
					      c.div_shift, &f);
			m = q;
		}
		if (ahead) {
			/* fd_sampler_spell4() */
			f1 = prev * c.pow[0];
			f2 = prev * c.pow[1];
			f3 = prev * c.pow[2];
			d = dst + made + c.len - 1;
			end = d - c.run;
			for (; d != end; d--) {
				d[0] = fd_frac_digit(&prev, c.sides);
				d[c.off[0]] = fd_frac_digit(&f1, c.sides);
				d[c.off[1]] = fd_frac_digit(&f2, c.sides);
				d[c.off[2]] = fd_frac_digit(&f3, c.sides);
			}
			made += c.len;
		}
		if (!ok) {
			ahead = false;
			*dry = true;
			break;
		}
		prev = f;
		ahead = true;
		left--;
	}
	if (ahead) {
		fd_sampler_spell4(s, prev, dst + made);
		made += c.len;
	}
	s->bits += fair->count - avail;
	fair->head = head;
	fair->count = avail;
	s->z = z;
	s->m = m;
	return made;
}

/*
 * Rolls of a plain or dual die: plain ones straight from the bits, dual
 * ones two at a time while the turn and the state allow, the rest through
 * fd_sampler_roll(). Wide dice have 4-byte rolls; the tests use small ones.
 */
static u32 fd_sampler_fill_unbatched(struct fd_sampler *s,
				     struct fd_pool *fair, u8 *dst, u32 count,
				     u32 width)
{
	u32 made = 0;
	u64 v;

	if (s->plain_bits && width == 4)
		return fd_sampler_fill_plain(s, fair, dst, count, 4);
	if (s->plain_bits)
		return fd_sampler_fill_plain(s, fair, dst, count, width);
	while (made < count) {
		if (!s->large && !s->turn && count - made >= 2) {
			made += width == 4 ?
				fd_sampler_fill_dual(s, fair, dst + made * 4,
						     count - made, 4) :
				fd_sampler_fill_dual(s, fair, dst + made * width,
						     count - made, width);
			if (made == count)
				break;
		}
		if (!fd_sampler_roll(s, fair, &v))
			break;
		fd_put_roll(dst + made++ * width, v, width);
	}
	return made;
}

/**
 * fd_sampler_fill_rolls() - up to @count rolls of any die, @width bytes each
 * @s: the sampler
 * @fair: fair bits, taken as fd_sampler_roll() takes them
 * @dst: where the rolls go, as fd_put_roll() stores them
 * @count: how many are wanted
 * @width: fd_roll_width() of the die
 *
 * The same rolls as @count calls of fd_sampler_roll(): fd_sampler_fill()
 * for bytes, the two states of a dual die side by side.
 *
 * Return: how many were made; fewer than @count when @fair ran dry.
 */
u32 fd_sampler_fill_rolls(struct fd_sampler *s, struct fd_pool *fair, u8 *dst,
			  u32 count, u32 width)
{
	u32 made = 0;
	u64 v;

	if (s->dual || s->plain_bits)
		return fd_sampler_fill_unbatched(s, fair, dst, count, width);
	if (width == 1 && s->sides <= 256)
		return fd_sampler_fill(s, fair, dst, count);
	while (made < count) {
		if (!fd_sampler_roll(s, fair, &v))
			break;
		fd_put_roll(dst + made++ * width, v, width);
	}
	return made;
}
