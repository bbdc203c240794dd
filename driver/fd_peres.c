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
 * and its output. Sequences of up to 64 bits are done in registers, and
 * those of up to 8 bits from a table.
 */

#include "fd_peres.h"

#ifndef __KERNEL__
int fd_shim_pext = -1;
#endif

/*
 * The four pairs of an input byte (pair i is bits 2i and 2i + 1): bits 0-3
 * of fd_peres_byte[byte] hold the von Neumann bits (the first bit of each
 * pair that differs, in order), bits 4-7 the common values of the pairs
 * that do not differ (in order), bits 8-10 how many pairs differ.
 */
static const u16 fd_peres_byte[256] = {
	0x000, 0x101, 0x100, 0x010, 0x101, 0x203, 0x202, 0x111,
	0x100, 0x201, 0x200, 0x110, 0x020, 0x111, 0x110, 0x030,
	0x101, 0x203, 0x202, 0x111, 0x203, 0x307, 0x306, 0x213,
	0x202, 0x305, 0x304, 0x212, 0x121, 0x213, 0x212, 0x131,
	0x100, 0x201, 0x200, 0x110, 0x201, 0x303, 0x302, 0x211,
	0x200, 0x301, 0x300, 0x210, 0x120, 0x211, 0x210, 0x130,
	0x040, 0x121, 0x120, 0x050, 0x121, 0x213, 0x212, 0x131,
	0x120, 0x211, 0x210, 0x130, 0x060, 0x131, 0x130, 0x070,
	0x101, 0x203, 0x202, 0x111, 0x203, 0x307, 0x306, 0x213,
	0x202, 0x305, 0x304, 0x212, 0x121, 0x213, 0x212, 0x131,
	0x203, 0x307, 0x306, 0x213, 0x307, 0x40f, 0x40e, 0x317,
	0x306, 0x40d, 0x40c, 0x316, 0x223, 0x317, 0x316, 0x233,
	0x202, 0x305, 0x304, 0x212, 0x305, 0x40b, 0x40a, 0x315,
	0x304, 0x409, 0x408, 0x314, 0x222, 0x315, 0x314, 0x232,
	0x141, 0x223, 0x222, 0x151, 0x223, 0x317, 0x316, 0x233,
	0x222, 0x315, 0x314, 0x232, 0x161, 0x233, 0x232, 0x171,
	0x100, 0x201, 0x200, 0x110, 0x201, 0x303, 0x302, 0x211,
	0x200, 0x301, 0x300, 0x210, 0x120, 0x211, 0x210, 0x130,
	0x201, 0x303, 0x302, 0x211, 0x303, 0x407, 0x406, 0x313,
	0x302, 0x405, 0x404, 0x312, 0x221, 0x313, 0x312, 0x231,
	0x200, 0x301, 0x300, 0x210, 0x301, 0x403, 0x402, 0x311,
	0x300, 0x401, 0x400, 0x310, 0x220, 0x311, 0x310, 0x230,
	0x140, 0x221, 0x220, 0x150, 0x221, 0x313, 0x312, 0x231,
	0x220, 0x311, 0x310, 0x230, 0x160, 0x231, 0x230, 0x170,
	0x080, 0x141, 0x140, 0x090, 0x141, 0x223, 0x222, 0x151,
	0x140, 0x221, 0x220, 0x150, 0x0a0, 0x151, 0x150, 0x0b0,
	0x141, 0x223, 0x222, 0x151, 0x223, 0x317, 0x316, 0x233,
	0x222, 0x315, 0x314, 0x232, 0x161, 0x233, 0x232, 0x171,
	0x140, 0x221, 0x220, 0x150, 0x221, 0x313, 0x312, 0x231,
	0x220, 0x311, 0x310, 0x230, 0x160, 0x231, 0x230, 0x170,
	0x0c0, 0x161, 0x160, 0x0d0, 0x161, 0x233, 0x232, 0x171,
	0x160, 0x231, 0x230, 0x170, 0x0e0, 0x171, 0x170, 0x0f0,
};

/*
 * Peres with any depth of at least 3 on the whole of a string of @len = 2,
 * 4, 6 or 8 bits x: entry FD_PERES_SMALL(len) + x holds the output bits in
 * bits 0-7 and their number in bits 8-11. Deeper levels of such strings
 * have nothing left to split. tools/test/test_peres.c checks every entry
 * against the definition.
 */
#define FD_PERES_SMALL_MAX	8
#define FD_PERES_SMALL(len)	(((1U << (len)) - 4) / 3)
static const u16 fd_peres_small[FD_PERES_SMALL(FD_PERES_SMALL_MAX + 2)] = {
	0x000, 0x101, 0x100, 0x000, 0x000, 0x203, 0x202, 0x101,
	0x201, 0x203, 0x202, 0x201, 0x200, 0x201, 0x200, 0x200,
	0x100, 0x203, 0x202, 0x000, 0x000, 0x203, 0x202, 0x101,
	0x201, 0x203, 0x202, 0x305, 0x200, 0x201, 0x200, 0x304,
	0x100, 0x307, 0x306, 0x000, 0x101, 0x307, 0x306, 0x203,
	0x303, 0x307, 0x306, 0x303, 0x302, 0x305, 0x304, 0x302,
	0x201, 0x307, 0x306, 0x101, 0x100, 0x305, 0x304, 0x202,
	0x301, 0x303, 0x302, 0x301, 0x300, 0x301, 0x300, 0x300,
	0x200, 0x305, 0x304, 0x100, 0x000, 0x303, 0x302, 0x101,
	0x301, 0x203, 0x202, 0x201, 0x300, 0x201, 0x200, 0x200,
	0x100, 0x203, 0x202, 0x000, 0x000, 0x307, 0x306, 0x203,
	0x305, 0x307, 0x306, 0x40d, 0x304, 0x305, 0x304, 0x40c,
	0x202, 0x40f, 0x40e, 0x101, 0x303, 0x40f, 0x40e, 0x40b,
	0x40b, 0x50f, 0x50e, 0x51b, 0x40a, 0x50d, 0x50c, 0x51a,
	0x403, 0x51f, 0x51e, 0x303, 0x302, 0x40d, 0x40c, 0x40a,
	0x409, 0x50b, 0x50a, 0x519, 0x408, 0x509, 0x508, 0x518,
	0x402, 0x51d, 0x51c, 0x302, 0x201, 0x407, 0x406, 0x203,
	0x405, 0x40f, 0x40e, 0x305, 0x404, 0x40d, 0x40c, 0x304,
	0x202, 0x307, 0x306, 0x201, 0x301, 0x407, 0x406, 0x409,
	0x403, 0x507, 0x506, 0x513, 0x402, 0x505, 0x504, 0x512,
	0x401, 0x517, 0x516, 0x301, 0x303, 0x51f, 0x51e, 0x40b,
	0x517, 0x40f, 0x40e, 0x517, 0x516, 0x40d, 0x40c, 0x516,
	0x403, 0x51f, 0x51e, 0x303, 0x302, 0x51d, 0x51c, 0x40a,
	0x515, 0x40b, 0x40a, 0x515, 0x514, 0x409, 0x408, 0x514,
	0x402, 0x51d, 0x51c, 0x302, 0x301, 0x507, 0x506, 0x409,
	0x503, 0x507, 0x506, 0x403, 0x502, 0x505, 0x504, 0x402,
	0x401, 0x407, 0x406, 0x301, 0x300, 0x405, 0x404, 0x408,
	0x401, 0x503, 0x502, 0x511, 0x400, 0x501, 0x500, 0x510,
	0x400, 0x515, 0x514, 0x300, 0x301, 0x51b, 0x51a, 0x409,
	0x513, 0x407, 0x406, 0x513, 0x512, 0x405, 0x404, 0x512,
	0x401, 0x51b, 0x51a, 0x301, 0x300, 0x519, 0x518, 0x408,
	0x511, 0x403, 0x402, 0x511, 0x510, 0x401, 0x400, 0x510,
	0x400, 0x519, 0x518, 0x300, 0x300, 0x505, 0x504, 0x408,
	0x501, 0x503, 0x502, 0x401, 0x500, 0x501, 0x500, 0x400,
	0x400, 0x405, 0x404, 0x300, 0x200, 0x307, 0x306, 0x201,
	0x305, 0x407, 0x406, 0x40d, 0x304, 0x405, 0x404, 0x40c,
	0x200, 0x40f, 0x40e, 0x200, 0x303, 0x50f, 0x50e, 0x40b,
	0x50b, 0x50f, 0x50e, 0x40b, 0x50a, 0x50d, 0x50c, 0x40a,
	0x403, 0x40f, 0x40e, 0x303, 0x302, 0x50d, 0x50c, 0x40a,
	0x509, 0x50b, 0x50a, 0x409, 0x508, 0x509, 0x508, 0x408,
	0x402, 0x40d, 0x40c, 0x302, 0x100, 0x407, 0x406, 0x203,
	0x405, 0x307, 0x306, 0x305, 0x404, 0x305, 0x304, 0x304,
	0x202, 0x307, 0x306, 0x000,
};

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
 * Split the first @np (1..32) pairs of @x with the table, four pairs at a
 * time.
 */
static inline void fd_peres_split_table(u64 x, unsigned int np,
					struct fd_peres_split *s)
{
	unsigned int i, nvn = 0;
	u64 vn = 0, v = 0;

	x = fd_low_bits(x, 2 * np);
	for (i = 0; i < np; i += 4) {
		unsigned int e = fd_peres_byte[(x >> (2 * i)) & 0xff];

		vn |= (u64)(e & 0xf) << nvn;
		v |= (u64)((e >> 4) & 0xf) << (i - nvn);
		nvn += e >> 8;
	}
	s->vn = vn;
	s->nvn = nvn;
	s->v = v;
	/* Pairs past the end read as 00: they only put zeros atop v. */
	s->nv = np - nvn;
	s->u = fd_peres_even(x ^ (x >> 1));
}

/*
 * Split the first @np (1..32) pairs of @x: pair i is bits 2i and 2i + 1.
 * The first bit of each pair is its von Neumann bit if the pair differs,
 * its common value if not: with a fast PEXT (@pext), four of them do it;
 * else the table.
 */
static inline void fd_peres_split32(u64 x, unsigned int np, bool pext,
				    struct fd_peres_split *s)
{
	const u64 even = 0x5555555555555555ULL;
	u64 first, d;

	if (!pext) {
		fd_peres_split_table(x, np, s);
		return;
	}
	x = fd_low_bits(x, 2 * np);
	first = fd_pext(x, even);
	d = fd_pext(x ^ (x >> 1), even);
	s->vn = fd_pext(first, d);
	s->nvn = hweight64(d);
	s->v = fd_pext(first, ~d & fd_low_bits(~0ULL, np));
	s->nv = np - s->nvn;
	s->u = d;
}

/*
 * The same on the first @np (33..64) pairs of the 128 bits @x0 (first),
 * @x1: with PEXT, six of them; else the table on each half.
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
		d = fd_pext(x0 ^ (x0 >> 1), even) |
		    fd_pext(x1 ^ (x1 >> 1), even) << 32;
		s->vn = fd_pext(first, d);
		s->nvn = hweight64(d);
		s->v = fd_pext(first, ~d & fd_low_bits(~0ULL, np));
		s->nv = np - s->nvn;
		s->u = d;
		return;
	}
	fd_peres_split_table(x0, 32, s);
	fd_peres_split_table(x1, np - 32, &h);
	/* Each half holds at most 32 bits of each kind. */
	s->vn |= h.vn << s->nvn;
	s->v |= h.v << s->nv;
	s->u |= h.u << 32;
	s->nvn += h.nvn;
	s->nv += h.nv;
}

/*
 * Peres with @depth levels on the @len (2..64) bits of @x, in registers.
 * Each waiting v is at most half as long as the one below it and at least
 * 2 bits long: at most 5 wait (32, 16, 8, 4 and 2 bits). Strings of up to
 * 8 bits with 3 levels or more left come whole from fd_peres_small[].
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

		if (len <= FD_PERES_SMALL_MAX && depth >= 3) {
			unsigned int e;

			len &= ~1U;
			e = fd_peres_small[FD_PERES_SMALL(len) +
					   fd_low_bits(x, len)];
			fd_peres_put(&o, e & 0xff, e >> 8);
		} else {
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
		}
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
static inline u32 fd_peres_level(u64 *in, u64 *vbuf, u32 len, bool pext,
				 struct fd_peres_out *out)
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
			vlen = fd_peres_level(t.in, t.sc, t.len, true, &o);
		else
			vlen = fd_peres_level(t.in, t.sc, t.len, false, &o);
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
