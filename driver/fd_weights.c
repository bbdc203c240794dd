// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - exact weighted draws from the sampler's recycled uniform state.
 *
 * Invariant (the sampler's): Z is uniform on [0, M) and independent of
 * every face already drawn. A draw tops M up with fair bits, as a uniform
 * roll does, and accepts when Z < Q W, Q = M div W: then X = Z mod W is
 * uniform on [0, W) and Z div W uniform on [0, Q), independent of X; on
 * reject Z - Q W is uniform on [0, M - Q W) and the step is repeated.
 *
 * X falls in [c_f, c_f + w_f) with probability exactly w_f / W, and given
 * that face, X - c_f is uniform on [0, w_f). So the pair (Z div W,
 * X - c_f) is uniform on [0, Q) x [0, w_f), and the state kept,
 * Z' = (Z div W) w_f + (X - c_f), is uniform on [0, Q w_f): given the
 * face, the state is uniform on a range, which is all the next roll
 * needs, whatever range it is. A face of weight 0 has an empty interval
 * and is never drawn.
 *
 * The bits a draw costs: on average log2(W) go into X and
 * log2(w_f) come back, E[log2(W / w_f)] = H(w); what the sampler itself
 * loses to rejection is tiny. Like the sampler's fair dice, a small W is
 * rolled in batches of W^k, whose base-W digits are independent rolls of
 * W: each digit is one draw, its residue absorbed in turn, the digits not
 * drawn yet kept in the sampler's pending digits (uniform and independent
 * of everything, so fd_sampler_set_sides() folds them back).
 *
 * The range only grows back to at most Q w_f <= M w_f / W < M, so the
 * state never needs more bits than the sampler gives it.
 */

#include "fd_weights.h"
#include "fd_roll.h"

/*
 * The guide has at least this many entries (4 KiB): a die of a total up
 * to that has one entry per value of X, which names its face outright,
 * and the search never loops (nor mispredicts a branch).
 */
#define FD_WEIGHTS_MIN_GUIDE	1024	/* 2^10 */

/* Totals up to 2^-FD_WEIGHTS_LOW_SHIFT of the target let M run low. */
#define FD_WEIGHTS_LOW_SHIFT	24

/**
 * fd_weights_table_words() - size of the table fd_weights_init() fills
 * @count: number of faces, 1..FD_WEIGHTS_MAX_FACES
 *
 * Return: the number of 64-bit words: @count + 1 cumulative sums and the
 * guide, four 32-bit entries per face rounded up to a power of two (at
 * least FD_WEIGHTS_MIN_GUIDE): few faces share a bucket, so that the
 * search seldom loops.
 */
size_t fd_weights_table_words(u32 count)
{
	size_t guide = FD_WEIGHTS_MIN_GUIDE;

	while (guide < (size_t)4 * count)
		guide *= 2;
	return (size_t)count + 1 + guide / 2;
}

/**
 * fd_weights_init() - check weights and build their table
 * @w: the weighted die to set up
 * @table: fd_weights_table_words(@count) words, owned by the caller, which
 *	hold the weights in words 1..@count on entry (word 0 is ignored);
 *	they become the cumulative sums and the guide
 * @count: number of faces, 1..FD_WEIGHTS_MAX_FACES
 *
 * Return: 0; or -EINVAL when @count is out of range, every weight is zero
 * or the sum does not fit in 64 bits. @w is not touched on an error (the
 * table is).
 */
int fd_weights_init(struct fd_weights *w, u64 *table, u32 count)
{
	u64 sum = 0, start;
	u32 i, f, first = count, nb;
	unsigned int g = 10, bits;
	u32 *guide;

	if (!count || count > FD_WEIGHTS_MAX_FACES)
		return -EINVAL;
	for (i = 1; i <= count; i++) {
		if (table[i] > ~0ULL - sum)
			return -EINVAL;
		if (table[i] && first == count)
			first = i - 1;
		sum += table[i];
		table[i] = sum;
	}
	if (!sum)
		return -EINVAL;
	table[0] = 0;

	while ((1U << g) < 4 * count)
		g++;
	bits = fls64(sum - 1);
	guide = (u32 *)(table + count + 1);
	w->guide_shift = bits > g ? bits - g : 0;
	nb = ((sum - 1) >> w->guide_shift) + 1;
	for (i = 0, f = 0; i < nb; i++) {
		start = (u64)i << w->guide_shift;
		while (table[f + 1] <= start)
			f++;
		guide[i] = f;
	}
	/* Packed entries (FD_WEIGHTS_PACKED_W): nb is W, at most 1024. */
	w->guide_mask = ~0U;
	if (count <= 256 && !w->guide_shift) {
		for (i = 0; i < nb; i++) {
			f = guide[i];
			guide[i] = f | (u32)(table[f + 1] - table[f]) <<
				   FD_WEIGHTS_PACKED_W |
				   (u32)(i - table[f]) << FD_WEIGHTS_PACKED_L;
		}
		w->guide_mask = 0xff;
	}
	w->total = sum;
	w->count = count;
	w->first = first;
	w->cum = table;
	w->guide = guide;
	return 0;
}

/**
 * fd_weights_weight() - the weight of one face
 * @w: the weighted die
 * @face: the face, below @w->count
 *
 * Return: its weight, as given to fd_weights_init().
 */
u64 fd_weights_weight(const struct fd_weights *w, u32 face)
{
	return w->cum[face + 1] - w->cum[face];
}

/**
 * fd_weights_attach() - make a sampler ready to draw from @w
 * @w: the weighted die
 * @s: the sampler, which keeps its uniform state
 *
 * The sampler's die becomes the uniform die of W faces (its precision and
 * width follow), as fd_sampler_set_sides() does for any change of die;
 * fd_sampler_set_sides() afterwards returns it to a fair die, the state
 * kept again. Its draws are never plain runs of fair bits, even for a
 * power-of-two W: @s->pow2_bits says so, for the callers that look.
 */
void fd_weights_attach(const struct fd_weights *w, struct fd_sampler *s)
{
	fd_sampler_set_sides(s, w->total);
	s->pow2_bits = 0;
}

/* The face whose interval holds @x, from its guide entry on. */
static __always_inline u32 fd_weights_find(const u64 *cum, const u32 *guide,
					   unsigned int shift, u32 mask, u64 x)
{
	u32 f = guide[x >> shift] & mask;

	while (cum[f + 1] <= x)
		f++;
	return f;
}

/*
 * The 64-bit state of a draw in the caller's registers: the sampler's Z,
 * M, the digits of a batch not drawn yet and the bits taken.
 */
struct fd_weights_regs {
	u64 z;
	u64 m;
	u64 digits;
	u64 bits;
	unsigned int ndigits;
};

/*
 * The roll of the sampler's batch die, W^k (W itself when k is 1), on a
 * 64-bit state (M < 2^64, precision at most 63): *@x gets the batch, the
 * state Z div W^k and Q. False when @fair ran dry before M reached its
 * target: the state keeps the bits it took.
 */
static __always_inline bool fd_weights_batch(const struct fd_weights *w,
					     const struct fd_sampler *s,
					     struct fd_pool *fair,
					     struct fd_weights_regs *g,
					     u64 *x)
{
	u64 n = s->batch, r = s->batch_recip, z = g->z, m = g->m, q, rem;
	u64 target = 1ULL << s->precision, low = target;
	unsigned int k;

	/*
	 * Any M >= W^k allows a step: a small die tops M up only once it
	 * fell below 2^-8 of its target, every few draws, while rejection
	 * stays below W^k / M <= 2^-7 (2^-16 without batches). Those bits
	 * are then taken all at once, so that the state never depends on
	 * how the pool was refilled.
	 */
	if (w->total <= target >> FD_WEIGHTS_LOW_SHIFT && n <= target >> 8)
		low = target >> 8;
	for (;;) {
		if (m < low) {
			/* k <= 63 and M 2^k < 2^64 */
			k = s->precision + 1 - fls64(m);
			if (unlikely(k > fair->count)) {
				if (low < target) {
					g->z = z;
					g->m = m;
					return false;
				}
				k = fair->count;
			}
			if (k) {
				z += m * fd_pool_take(fair, k);
				m <<= k;
				g->bits += k;
			}
			if (unlikely(m < target)) {
				g->z = z;
				g->m = m;
				return false;
			}
		}
		q = fd_recip_div(m, n, r, &rem);
		/* Accept below Q W^k = M - (M mod W^k). */
		if (likely(z < m - rem))
			break;
		z -= m - rem;
		m = rem;
	}
	g->z = fd_recip_div(z, n, r, x);
	g->m = q;
	return true;
}

/*
 * The face of a uniform roll @x of W, given the state (Z, Q) the roll left
 * independent of it: the state becomes (Z w_f + X - c_f, Q w_f), uniform
 * given the face. Q w_f <= M w_f / W < 2^64: the residue always fits.
 */
static __always_inline u32 fd_weights_face(const struct fd_weights *w,
					   struct fd_weights_regs *g, u64 x)
{
	u32 f = fd_weights_find(w->cum, w->guide, w->guide_shift,
				 w->guide_mask, x);
	u64 c = w->cum[f], wf = w->cum[f + 1] - c;

	g->z = g->z * wf + (x - c);
	g->m *= wf;
	return f;
}

/*
 * The face of digit @x of a batch, into *@dst, and its residue l = x - c_f
 * folded in below the digits above it: S += l T, T *= w_f. The die's
 * table is in registers (a byte stored may alias anything). When @packed
 * (a guide shift of 0 and at most 256 faces), the guide entry of x holds
 * all three (FD_WEIGHTS_PACKED_W): one load.
 */
static __always_inline void fd_weights_fold(const u64 *cum, const u32 *guide,
					    unsigned int shift, u64 x, u64 *s,
					    u64 *t, u8 *dst, bool packed)
{
	u32 e, f;
	u64 c;

	if (packed) {
		e = guide[x];
		*s += (u64)(e >> FD_WEIGHTS_PACKED_L) * *t;
		*t *= (e >> FD_WEIGHTS_PACKED_W) & 0x7ff;
		*dst = e;
		return;
	}
	f = fd_weights_find(cum, guide, shift, ~0U, x);
	c = cum[f];
	*s += (x - c) * *t;
	*t *= cum[f + 1] - c;
	*dst = f;
}

/*
 * Whole batches of a die of at most 256 faces, as bytes, while @count
 * leaves room for one, with the die's constants, the state and the pool's
 * cursor in locals (a face stored through a byte pointer may alias any
 * field, which would then be read again for every batch). Each batch is
 * fd_weights_batch()'s step, whose fd_frac_divide() leaves the batch's
 * fraction f, and its faces: each digit is spelt as fd_sampler_spell()
 * spells it and turned into its face at once. Face by face from the least
 * significant digit the state would become (((Z w_0 + l_0) w_1 + l_1) ...);
 * the digits come from the most significant down instead, in two chains,
 * so each chain keeps the sum S of its residues l_i times the weights of
 * the digits above i in it, and T, their product: then the state is
 * ((Z T_b + S_b) T_a + S_a, Q T_b T_a), the same numbers. Every partial
 * value is at most the final one, below 2^64. When @packed (a guide shift
 * of 0), the guide has an entry for every X, which names its face, its
 * weight and the residue: no search. *@dry is set when @fair ran dry
 * first.
 */
static __always_inline u32 fd_weights_run(const struct fd_weights *w,
					  const struct fd_sampler *s,
					  struct fd_pool *fair,
					  struct fd_weights_regs *g, u8 *dst,
					  u32 count, bool *dry, bool packed)
{
	const u64 *word = fair->word, *cum = w->cum;
	const u32 *guide = w->guide;
	u32 head = fair->head, avail = fair->count, made = 0;
	u64 z = g->z, m = g->m, n = s->batch, r = s->batch_recip;
	u64 sides = s->sides, div_lo = s->div_lo, split = s->frac_split;
	u64 target = 1ULL << s->precision, low = target, q, rem, f, f2, x;
	u64 sa, ta, sb, tb;
	unsigned int div_hi = s->div_hi, sh = s->div_shift, len = s->batch_len;
	unsigned int shift = w->guide_shift, top = 64 - s->precision, k, i;
	u8 *hi, *lo;

	if (w->total <= target >> FD_WEIGHTS_LOW_SHIFT && n <= target >> 8)
		low = target >> 8;
	*dry = false;
	while (count - made >= len) {
		/* fd_weights_batch() */
		for (;;) {
			if (m < low) {
				/* M >= 1: k in 1..63 */
				k = __builtin_clzll(m) - top + 1;
				if (unlikely(k > avail)) {
					if (low < target)
						goto dry;
					k = avail;
				}
				if (k) {
					z += m * ((fd_pool_bits_at(word, head) <<
						   (64 - k)) >> (64 - k));
					m <<= k;
					head = (head + k) % FD_POOL_BITS;
					avail -= k;
				}
				if (unlikely(m < target))
					goto dry;
			}
			q = fd_recip_div(m, n, r, &rem);
			if (likely(z < m - rem))
				break;
			z -= m - rem;
			m = rem;
		}
		z = fd_frac_divide_by(z, div_lo, div_hi, sh, &f);
		m = q;
		/* its faces, two chains */
		sa = 0;
		ta = 1;
		sb = 0;
		tb = 1;
		f2 = f * split;
		hi = dst + made + len - 1;
		lo = hi - (len - len / 2);
		for (i = 0; i < len / 2; i++) {
			x = fd_frac_digit(&f, sides);
			fd_weights_fold(cum, guide, shift, x, &sa, &ta, hi - i,
					packed);
			x = fd_frac_digit(&f2, sides);
			fd_weights_fold(cum, guide, shift, x, &sb, &tb, lo - i,
					packed);
		}
		/* An odd count: the first chain has one digit more. */
		if (len & 1) {
			x = fd_frac_digit(&f, sides);
			fd_weights_fold(cum, guide, shift, x, &sa, &ta, hi - i,
					packed);
		}
		z = (z * tb + sb) * ta + sa;
		m = m * tb * ta;
		made += len;
	}
	if (0) {
dry:
		*dry = true;
	}
	g->bits += fair->count - avail;
	fair->head = head;
	fair->count = avail;
	g->z = z;
	g->m = m;
	return made;
}

static noinline u32 fd_weights_run_packed(const struct fd_weights *w,
					  const struct fd_sampler *s,
					  struct fd_pool *fair,
					  struct fd_weights_regs *g, u8 *dst,
					  u32 count, bool *dry)
{
	return fd_weights_run(w, s, fair, g, dst, count, dry, true);
}

static noinline u32 fd_weights_run_search(const struct fd_weights *w,
					  const struct fd_sampler *s,
					  struct fd_pool *fair,
					  struct fd_weights_regs *g, u8 *dst,
					  u32 count, bool *dry)
{
	return fd_weights_run(w, s, fair, g, dst, count, dry, false);
}

/*
 * One draw on a 64-bit state. X comes from a roll of the sampler's batch
 * die: its k base-W digits are independent uniform rolls of W, the first
 * drawn at once, the others kept in the sampler's pending digits for the
 * next draws, which then take no bits at all. False when @fair ran dry
 * before M reached its target: the state keeps the bits it took.
 */
static __always_inline bool fd_weights_step64(const struct fd_weights *w,
					      const struct fd_sampler *s,
					      struct fd_pool *fair,
					      struct fd_weights_regs *g,
					      u64 *face)
{
	u64 x;

	if (g->ndigits) {
		g->digits = fd_recip_div_small(g->digits, w->total,
					       s->sides_recip, &x);
		g->ndigits--;
	} else {
		if (!fd_weights_batch(w, s, fair, g, &x))
			return false;
		if (s->batch_len > 1) {
			g->digits = fd_recip_div_small(x, w->total,
						       s->sides_recip, &x);
			g->ndigits = s->batch_len - 1;
		}
	}
	*face = fd_weights_face(w, g, x);
	return true;
}

/* Whether the draw runs on 64 bits: a small precision and a state that fits. */
static bool fd_weights_narrow(const struct fd_sampler *s)
{
	return s->precision <= 63 && !(s->m >> 64);
}

/*
 * The same on a 128-bit state, for W above 2^32 or a wide state kept.
 * False also when a rejection left a kept state narrow: the draw then
 * continues on 64 bits, as it would if the pool ran dry there and it were
 * called again, so that the face never depends on how the pool was
 * refilled.
 */
static bool fd_weights_step128(const struct fd_weights *w,
			       struct fd_sampler *s, struct fd_pool *fair,
			       u64 *face)
{
	fd_u128 z = s->z, m = s->m, q, target = (fd_u128)1 << s->precision;
	u64 n = w->total, rem, x, wf;
	unsigned int k, c;
	u32 f;

	for (;;) {
		if (s->precision <= 63 && !(m >> 64)) {
			s->z = z;
			s->m = m;
			return false;
		}
		if (m < target) {
			k = s->precision + 1 -
			    (m >> 64 ? 64 + fls64(m >> 64) : fls64(m));
			while (k && fair->count) {
				c = k > 64 ? 64 : k;
				if (c > fair->count)
					c = fair->count;
				/* M 2^c <= 2^128: no carry out */
				z += m * fd_pool_take(fair, c);
				m <<= c;
				s->bits += c;
				k -= c;
			}
			if (m < target) {
				s->z = z;
				s->m = m;
				return false;
			}
		}
		q = fd_div128(m, n, &rem);
		if (z < m - rem)
			break;
		z -= m - rem;
		m = rem;
	}
	z = fd_div128(z, n, &x);
	f = fd_weights_find(w->cum, w->guide, w->guide_shift, w->guide_mask,
			    x);
	wf = fd_weights_weight(w, f);
	s->z = z * wf + (x - w->cum[f]);
	s->m = q * wf;
	*face = f;
	return true;
}

/**
 * fd_weights_draw() - draw one face, taking fair bits from @fair as needed
 * @w: the weighted die
 * @s: the sampler, attached to @w by fd_weights_attach()
 * @fair: fair bits; the draw takes what it needs, in order
 * @face: the face drawn, in [0, @w->count), of positive weight
 *
 * Face f comes with probability exactly w_f / W, independent of every
 * roll and draw before; the state kept is uniform given the face, so
 * uniform rolls and draws may follow in any order.
 *
 * Return: true and *@face set when a draw is complete. False when @fair
 * ran dry first: the bits taken are kept in the state, and the call is
 * repeated once @fair has been refilled.
 */
bool fd_weights_draw(const struct fd_weights *w, struct fd_sampler *s,
		     struct fd_pool *fair, u64 *face)
{
	struct fd_weights_regs g;
	bool ok = false;

	if (w->total == 1) {
		*face = w->first;
		return true;
	}
	if (!fd_weights_narrow(s)) {
		/* Digits pending on a wide state go back into it first. */
		if (s->ndigits)
			fd_weights_attach(w, s);
		ok = fd_weights_step128(w, s, fair, face);
		s->large = s->precision > 63 || (s->m >> 64);
	}
	if (!ok && fd_weights_narrow(s)) {
		g.z = s->z;
		g.m = s->m;
		g.digits = s->digits;
		g.ndigits = s->ndigits;
		g.bits = s->bits;
		ok = fd_weights_step64(w, s, fair, &g, face);
		s->z = g.z;
		s->m = g.m;
		s->digits = g.digits;
		s->ndigits = g.ndigits;
		s->bits = g.bits;
		s->large = false;
	}
	/* Without recycling every draw starts afresh: exact, if wasteful. */
	if (ok && !s->recycle)
		fd_sampler_reset(s);
	return ok;
}

/**
 * fd_weights_fill() - up to @count draws, in the binary format
 * @w: the weighted die
 * @s: the sampler, attached to @w by fd_weights_attach()
 * @fair: fair bits, taken as fd_weights_draw() takes them
 * @dst: where the faces go, as fd_put_roll() stores them
 * @count: how many are wanted
 * @width: fd_roll_width(@w->count)
 *
 * The same faces as @count calls of fd_weights_draw(), with the state in
 * registers.
 *
 * Return: how many were made; fewer than @count when @fair ran dry.
 */
u32 fd_weights_fill(const struct fd_weights *w, struct fd_sampler *s,
		    struct fd_pool *fair, u8 *dst, u32 count, u32 width)
{
	unsigned int len = s->batch_len, i;
	u32 digit[64], made = 0;
	struct fd_weights_regs g;
	u64 v;

	if (w->total == 1 || !s->recycle || !fd_weights_narrow(s)) {
		while (made < count && fd_weights_draw(w, s, fair, &v))
			fd_put_roll(dst + made++ * width, v, width);
		return made;
	}
	g.z = s->z;
	g.m = s->m;
	g.digits = s->digits;
	g.ndigits = s->ndigits;
	g.bits = s->bits;
	while (made < count) {
		/* A whole batch at once: its digits, then a face for each. */
		if (len > 1 && !g.ndigits && count - made >= len &&
		    width == 1) {
			bool dry;

			made += w->guide_mask == ~0U ?
				fd_weights_run_search(w, s, fair, &g,
						      dst + made, count - made,
						      &dry) :
				fd_weights_run_packed(w, s, fair, &g,
						      dst + made, count - made,
						      &dry);
			if (dry)
				break;
			continue;
		}
		if (len > 1 && !g.ndigits && count - made >= len) {
			if (!fd_weights_batch(w, s, fair, &g, &v))
				break;
			fd_sampler_spell(s, v, digit);
			for (i = 0; i < len; i++)
				fd_put_roll(dst + (made + i) * width,
					    fd_weights_face(w, &g, digit[i]),
					    width);
			made += len;
			continue;
		}
		if (!fd_weights_step64(w, s, fair, &g, &v))
			break;
		if (width == 1)
			dst[made++] = v;
		else
			fd_put_roll(dst + made++ * width, v, width);
	}
	s->z = g.z;
	s->m = g.m;
	s->digits = g.digits;
	s->ndigits = g.ndigits;
	s->bits = g.bits;
	s->large = false;
	return made;
}
