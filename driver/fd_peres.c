// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - Peres' iterated von Neumann extractor.
 *
 * Von Neumann's trick reads the input in pairs and keeps the first bit of
 * each pair whose bits differ, since 01 and 10 are equally likely whatever
 * the bias. It throws away two sequences that still hold entropy, and Peres
 * (1992) showed that both can be fed to the same procedure again:
 *
 *   u  the XOR of each pair (did the pair differ?), one bit per pair;
 *   v  the common value of each pair whose bits are equal.
 *
 *   Peres(x) = vonneumann(x) . Peres(u) . Peres(v)
 *
 * with the recursion cut after a given depth and an odd last bit dropped.
 * Given u, the von Neumann bits are fair coin flips and v is an i.i.d.
 * sequence of known length, so the argument recurses: for a fixed input
 * length and number of ones in the input, every output string of a given
 * length is reached by the same number of inputs. Hence all output strings
 * of the same length are equally likely, for every bias.
 * tools/test/test_peres.c checks this by enumerating every input.
 *
 * The rate tends to the Shannon entropy of the source as the block length
 * and the depth grow; the ends of the many short sequences deep in the
 * recursion cost about 2.8% at FD_PERES_BLOCK_BITS = 196608 (4.8% at
 * 32768: the loss falls only as about the 0.3th power of the length).
 *
 * Memory: every sequence starts at a word boundary. One level reads its
 * input 128 bits at a time and writes u over the first half of its own
 * input (u word j after input words 2j and 2j + 1 were read), v into a
 * scratch area of half the input's length, and the von Neumann bits to the
 * output; with a fast PEXT, six of them split 64 pairs. Then u runs with
 * the words of its old input past it as scratch, and v with the whole old
 * input as scratch. The sub-tree of a sequence of L > 64 bits touches only
 * its own words and the first ceil(L / 128) words of its scratch (u's
 * scratch holds at least ceil(L / 256) words once L / 2 > 64), so a block
 * of n bits needs FD_PERES_SCRATCH_WORDS(n) words of scratch besides itself
 * and its output. Sequences of up to 64 bits are done in registers.
 *
 * Constant time: no branch and no address depends on the bits, only on
 * the lengths of the sequences (fd_ct_public() on each count of pairs that
 * differ); given all of them, the output bits are still uniform
 * (Documentation/design/fairdie.rst, "Constant time").
 */

#include "fd_peres.h"
#include "fd_vn.h"

#ifndef __KERNEL__
int fd_shim_pext = -1;
#endif

/* The output of one block must drain before the next block is complete. */
static_assert((FD_PERES_BLOCK_BITS / 64 - 1) * FD_PERES_MAX_OUT >= FD_PERES_BLOCK_BITS);
static_assert(FD_PERES_BLOCK_BITS % 64 == 0);
static_assert(FD_PERES_DEPTH <= FD_PERES_MAX_DEPTH);
/* Deep enough that a level more would find no sequence of two bits. */
static_assert(FD_PERES_BLOCK_BITS < 2UL << FD_PERES_DEPTH);
/* The state of a well, not of a file: a few tens of KiB at most. */
static_assert(sizeof(struct fd_peres) <= 64 * 1024);

/* The @n (1..64) bits of the bit string @buf from bit @pos on. */
static inline u64 fd_peres_get(const u64 *buf, u32 pos, unsigned int n)
{
	const u64 *w = buf + pos / 64;
	unsigned int s = pos % 64;
	u64 x = w[0] >> s;

	if (s && s + n > 64)
		x |= w[1] << (64 - s);
	return fd_low_bits(x, n);
}

/*
 * struct fd_peres_out - appends to a bit string that starts at a word
 * boundary and owns its words: the bits past its end may be clobbered.
 * @w: the word being filled
 * @acc: its bits so far (only the @n low bits may be set)
 * @n: how many, 0..63
 */
struct fd_peres_out {
	u64 *w;
	u64 acc;
	unsigned int n;
};

/*
 * Append the @k (0..64) low bits of @x; the bits of @x above them are 0.
 * Without a branch: the word being filled is stored every time, so a put
 * writes the word holding the string's bit number (its length before the
 * put) and never the one after.
 */
static inline void fd_peres_put(struct fd_peres_out *o, u64 x, unsigned int k)
{
	unsigned int m = o->n + k;
	u64 lo = o->acc | (x << o->n);
	/* x >> (64 - n), also for n = 0: the bits of @x that do not fit */
	u64 hi = (x >> 1) >> (63 - o->n);
	/* All ones when a word is complete: no branch to mispredict. */
	u64 done = -(u64)(m / 64);

	*o->w = lo;
	o->w += m / 64;
	o->acc = lo ^ ((lo ^ hi) & done);
	o->n = m % 64;
}

/* Store the last, partial word; return the length of the string. */
static inline u32 fd_peres_out_end(struct fd_peres_out *o, const u64 *start)
{
	if (o->n)
		*o->w = o->acc;
	return (o->w - start) * 64 + o->n;
}

/* Gather the even-numbered bits of @x into its low 32 bits. */
static inline u64 fd_peres_even(u64 x)
{
	x &= 0x5555555555555555ULL;
	x = (x | (x >> 1)) & 0x3333333333333333ULL;
	x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0fULL;
	x = (x | (x >> 4)) & 0x00ff00ff00ff00ffULL;
	x = (x | (x >> 8)) & 0x0000ffff0000ffffULL;
	return (x | (x >> 16)) & 0x00000000ffffffffULL;
}

/*
 * struct fd_peres_split - one level of Peres on up to 64 pairs
 * @vn: the von Neumann bits
 * @v: the common values of the equal pairs
 * @u: the XOR of each pair
 * @nvn: how many von Neumann bits
 * @nv: how many bits in @v
 */
struct fd_peres_split {
	u64 vn;
	u64 v;
	u64 u;
	unsigned int nvn;
	unsigned int nv;
};

/*
 * Split the first @np (1..32) pairs of @x with shifts under masks
 * (fd_vn_pack()): the von Neumann bits are the first bits of the pairs
 * that differ, v those of the pairs that do not. Only their counts are
 * public (fd_ct_public()): how many pairs differ, not which.
 */
static inline void fd_peres_split_pack(u64 x, unsigned int np,
				       struct fd_peres_split *s)
{
	const u64 even = 0x5555555555555555ULL;
	u64 d, e;

	x = fd_low_bits(x, 2 * np);
	d = (x ^ (x >> 1)) & even;
	e = ~d & even & fd_low_bits(~0ULL, 2 * np);
	s->nvn = hweight64(d);
	fd_ct_public(s->nvn);
	s->nv = np - s->nvn;
	s->vn = fd_vn_pack(x & d, d);
	s->v = fd_vn_pack(x & e, e);
	s->u = fd_peres_even(d);
}

/*
 * Split the first @np (1..32) pairs of @x: pair i is bits 2i and 2i + 1.
 * The first bit of each pair is its von Neumann bit if the pair differs,
 * its common value if not: with a fast PEXT (@pext), four of them do it;
 * else shifts under masks.
 */
static inline void fd_peres_split32(u64 x, unsigned int np, bool pext,
				    struct fd_peres_split *s)
{
	const u64 even = 0x5555555555555555ULL;
	u64 first, d;

	if (!pext) {
		fd_peres_split_pack(x, np, s);
		return;
	}
	x = fd_low_bits(x, 2 * np);
	first = fd_pext(x, even);
	/* The pairs that differ: their first and second bits differ. */
	d = first ^ fd_pext(x, even << 1);
	s->vn = fd_pext(first, d);
	s->nvn = hweight64(d);
	fd_ct_public(s->nvn);
	s->v = fd_pext(first, ~d & fd_low_bits(~0ULL, np));
	s->nv = np - s->nvn;
	s->u = d;
}

/*
 * The same on the first @np (33..64) pairs of the 128 bits @x0 (first),
 * @x1: with PEXT, six of them; else shifts under masks on each half.
 */
static inline void fd_peres_split64(u64 x0, u64 x1, unsigned int np,
				    bool pext, struct fd_peres_split *s)
{
	const u64 even = 0x5555555555555555ULL;
	struct fd_peres_split h;
	u64 first, d;

	x1 = fd_low_bits(x1, 2 * np - 64);
	if (pext) {
		first = fd_pext(x0, even) | fd_pext(x1, even) << 32;
		d = first ^ (fd_pext(x0, even << 1) |
			     fd_pext(x1, even << 1) << 32);
		s->vn = fd_pext(first, d);
		s->nvn = hweight64(d);
		fd_ct_public(s->nvn);
		s->v = fd_pext(first, ~d & fd_low_bits(~0ULL, np));
		s->nv = np - s->nvn;
		s->u = d;
		return;
	}
	fd_peres_split_pack(x0, 32, s);
	fd_peres_split_pack(x1, np - 32, &h);
	/* Each half holds at most 32 bits of each kind. */
	s->vn |= h.vn << s->nvn;
	s->v |= h.v << s->nv;
	s->u |= h.u << 32;
	s->nvn += h.nvn;
	s->nv += h.nv;
}

/*
 * Peres with any depth of at least 2 on 4 and on 6 bits x, which is all of
 * it: the output in the low bits, then their number, at 4 x in the first
 * word (2 + 2 bits), at 5 (x mod 12) in word x div 12 of the others (3 + 2
 * bits). They are read by shifts, and the word by masks over all six: no
 * address depends on x. tools/test/test_peres.c checks every short string
 * against the definition.
 */
#define FD_PERES_FOUR	0x0ab488989ab95ab0ULL
static const u64 fd_peres_six[6] = {
	0x0e4230eca714ca60ULL, 0x0dfbfb9fbe907be8ULL, 0x0973a84fbf1d73baULL,
	0x0473b0c6338ceb79ULL, 0x0842388ca794eb60ULL, 0x0000000000004a68ULL,
};

/* Peres on the @len (2..7) bits of @x, @depth >= 2 from 4 bits on. */
static __always_inline void fd_peres_short(u64 x, unsigned int len,
					   struct fd_peres_out *o)
{
	unsigned int i, q, e, k;
	u64 w = 0;

	if (len < 4) {
		/* One pair: its von Neumann bit, if it differs. */
		k = (x ^ (x >> 1)) & 1;
		fd_ct_public(k);
		fd_peres_put(o, x & k, k);
		return;
	}
	if (len < 6) {
		e = (FD_PERES_FOUR >> (4 * (x & 0xf))) & 0xf;
		k = e >> 2;
		e &= 3;
	} else {
		x &= 0x3f;
		q = x / 12;
		for (i = 0; i < ARRAY_SIZE(fd_peres_six); i++)
			w |= fd_peres_six[i] & -(u64)(i == q);
		e = (w >> (5 * (x - 12 * q))) & 0x1f;
		k = e >> 3;
		e &= 7;
	}
	/* The count is made of lengths of the recursion: public. */
	fd_ct_public(k);
	fd_peres_put(o, e, k);
}

/*
 * Peres with @depth levels on the @len (2..64) bits of @x, in registers.
 * Each waiting v is at most half as long as the one below it and at least
 * 2 bits long: at most 5 wait (32, 16, 8, 4 and 2 bits). The short
 * strings deep in the recursion are split like the others: a table of
 * their outputs would be indexed by their bits.
 */
static inline void fd_peres_word(u64 x, unsigned int len, unsigned int depth,
				 bool pext, struct fd_peres_out *out)
{
	struct fd_peres_out o = *out;
	struct {
		u64 x;
		u8 len;
		u8 depth;
	} stack[6];
	unsigned int top = 0;

	for (;;) {
		struct fd_peres_split s;

		if (len < 4 || (len < 8 && depth >= 2)) {
			fd_peres_short(x, len, &o);
			goto next;
		}
		fd_peres_split32(x, len / 2, pext, &s);
		fd_peres_put(&o, s.vn, s.nvn);
		if (depth > 1 && s.nv >= 2 &&
		    !FD_WARN_ON(top >= ARRAY_SIZE(stack))) {
			stack[top].x = s.v;
			stack[top].len = s.nv;
			stack[top++].depth = depth - 1;
		}
		if (depth > 1 && len >= 4) {
			x = s.u;
			len /= 2;
			depth--;
			continue;
		}
next:
		if (!top)
			break;
		top--;
		x = stack[top].x;
		len = stack[top].len;
		depth = stack[top].depth;
	}
	*out = o;
}

/*
 * One level on the @len (more than 64) bits at @in, a word boundary: the
 * von Neumann bits go to @out, u over the first half of the input, v to
 * @vbuf. 128 bits at a time: u word j is written after input words 2j and
 * 2j + 1 were read. Return the length of v.
 */
static __always_inline u32 fd_peres_level(u64 *in, u64 *vbuf, u32 len,
					  bool pext, struct fd_peres_out *out)
{
	/* In locals: stores through *o.w cannot change them. */
	struct fd_peres_out v = { .w = vbuf }, o = *out;
	u32 pairs = len / 2, full = pairs / 64, rem = pairs % 64, j;
	struct fd_peres_split s;

	for (j = 0; j < full; j++) {
		fd_peres_split64(in[2 * j], in[2 * j + 1], 64, pext, &s);
		fd_peres_put(&o, s.vn, s.nvn);
		fd_peres_put(&v, s.v, s.nv);
		in[j] = s.u;
	}
	if (rem) {
		/* Read only the words of the input. */
		if (rem > 32)
			fd_peres_split64(in[2 * j], in[2 * j + 1], rem, pext, &s);
		else
			fd_peres_split32(in[2 * j], rem, pext, &s);
		fd_peres_put(&o, s.vn, s.nvn);
		fd_peres_put(&v, s.v, s.nv);
		in[j] = s.u;
	}
	*out = o;
	return fd_peres_out_end(&v, vbuf);
}

/*
 * fd_peres_level() with PEXT and without, each a function of its own: in
 * one, the two loops' constants and cursors would not fit in registers.
 */
static noinline u32 fd_peres_level_pext(u64 *in, u64 *vbuf, u32 len,
					struct fd_peres_out *out)
{
	return fd_peres_level(in, vbuf, len, true, out);
}

static noinline u32 fd_peres_level_pack(u64 *in, u64 *vbuf, u32 len,
					struct fd_peres_out *out)
{
	return fd_peres_level(in, vbuf, len, false, out);
}

/* Words that hold @nbits bits. */
#define FD_PERES_WORDS(nbits)	(((nbits) + 63) / 64)

/*
 * struct fd_peres_task - one call of the recursion: Peres with @depth levels
 * on the @len bits at @in, with the words at @sc as scratch
 */
struct fd_peres_task {
	u64 *in;
	u64 *sc;
	u32 len;
	u32 depth;
};

/**
 * fd_peres_block() - Peres' extractor on one block of bits
 * @in: the @nbits input bits, FD_PERES_IN_WORDS(@nbits) words; clobbered
 * @nbits: how many; an odd last bit is ignored
 * @depth: levels of recursion, 0..FD_PERES_MAX_DEPTH; 1 is von Neumann
 * @scratch: FD_PERES_SCRATCH_WORDS(@nbits) words of working space
 * @out: FD_PERES_OUT_WORDS(@nbits) words for the fair bits; the bits past
 *	the returned count are undefined
 *
 * For every bias, all output strings of the same length are equally likely.
 *
 * Return: the number of fair bits written to @out (less than @nbits).
 */
unsigned int fd_peres_block(u64 *in, unsigned int nbits, unsigned int depth,
			    u64 *scratch, u64 *out)
{
	/*
	 * Depth-first, u before v. The stack holds at most one v waiting at
	 * each depth below @depth, plus the u on top: at most @depth tasks.
	 */
	struct fd_peres_task stack[FD_PERES_MAX_DEPTH];
	struct fd_peres_out o = { .w = out };
	bool pext = fd_fast_pext();
	unsigned int top = 0;

	if (FD_WARN_ON(depth > FD_PERES_MAX_DEPTH))
		depth = FD_PERES_MAX_DEPTH;
	if (depth && nbits >= 2)
		stack[top++] = (struct fd_peres_task){
			.in = in, .sc = scratch, .len = nbits, .depth = depth,
		};
	while (top) {
		struct fd_peres_task t = stack[--top];
		u32 vlen, ulen = t.len / 2;

		/* Short sequences: the whole sub-tree in registers. */
		if (t.len <= 64) {
			if (pext)
				fd_peres_word(t.in[0], t.len, t.depth, true, &o);
			else
				fd_peres_word(t.in[0], t.len, t.depth, false, &o);
			continue;
		}
		if (pext)
			vlen = fd_peres_level_pext(t.in, t.sc, t.len, &o);
		else
			vlen = fd_peres_level_pack(t.in, t.sc, t.len, &o);
		if (t.depth == 1)
			continue;
		/* v next, with the whole old input as scratch ... */
		if (vlen >= 2)
			stack[top++] = (struct fd_peres_task){
				.in = t.sc, .sc = t.in, .len = vlen,
				.depth = t.depth - 1,
			};
		/* ... after u, with the words of the old input past it. */
		stack[top++] = (struct fd_peres_task){
			.in = t.in, .sc = t.in + FD_PERES_WORDS(ulen),
			.len = ulen, .depth = t.depth - 1,
		};
	}
	return fd_peres_out_end(&o, out);
}

/**
 * fd_peres_init() - start a stream: no raw bits gathered, none pending
 * @st: the stream
 */
void fd_peres_init(struct fd_peres *st)
{
	memset(st, 0, sizeof(*st));
}

/**
 * fd_peres_drain() - hand out pending fair bits
 * @st: the stream
 * @out: the pool that receives them
 *
 * Return: how many were appended to @out: as many as are pending, but at
 * most FD_PERES_MAX_OUT and at most the room in @out.
 */
unsigned int fd_peres_drain(struct fd_peres *st, struct fd_pool *out)
{
	u32 n = fd_peres_pending(st), left, c;

	if (!n)
		return 0;
	if (n > FD_PERES_MAX_OUT)
		n = FD_PERES_MAX_OUT;
	if (n > fd_pool_room(out))
		n = fd_pool_room(out);
	left = n;
	/* Up to the pool's next word boundary, then whole words. */
	c = -(out->head + out->count) % 64;
	if (c > left)
		c = left;
	fd_pool_put(out, fd_peres_get(st->out, st->opos, c), c);
	st->opos += c;
	left -= c;
	while (left >= 64) {
		u32 tail = (out->head + out->count) % FD_POOL_BITS;

		/* Free bits from @tail on: the whole word is ours. */
		out->word[tail / 64] = fd_peres_get(st->out, st->opos, 64);
		out->count += 64;
		st->opos += 64;
		left -= 64;
	}
	fd_pool_put(out, fd_peres_get(st->out, st->opos, left), left);
	st->opos += left;
	return n;
}

/**
 * fd_peres_feed_slow() - fd_peres_feed() when a block completes or fair bits
 *	are pending
 * @st: the stream
 * @raw: the bits, the oldest in bit 0
 * @out: the pool for the fair bits
 *
 * Return: as fd_peres_feed().
 */
unsigned int fd_peres_feed_slow(struct fd_peres *st, u64 raw,
				struct fd_pool *out)
{
	/*
	 * Fair bits still pending when the next block completes mean the
	 * caller broke the rule on room; drop the raw word rather than them.
	 */
	if (FD_WARN_ON(st->nraw + 64 == FD_PERES_BLOCK_BITS &&
		       fd_peres_pending(st)))
		return fd_peres_drain(st, out);

	st->raw[st->nraw / 64] = raw;
	st->nraw += 64;
	if (st->nraw == FD_PERES_BLOCK_BITS) {
		st->nout = fd_peres_block(st->raw, FD_PERES_BLOCK_BITS,
					  FD_PERES_DEPTH, st->scratch, st->out);
		st->opos = 0;
		st->nraw = 0;
	}
	return fd_peres_drain(st, out);
}
