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
 * recursion cost about 5% at FD_PERES_BLOCK_BITS = 32768.
 *
 * Memory: one level reads its input 64 bits at a time and writes u over
 * the first half of its own input (u is written half as fast as the input
 * is read), v into a scratch area of half the input's length, and the von
 * Neumann bits to the output. Then u runs with the second half of its old
 * input as scratch, and v with the whole old input as scratch. The sub-tree
 * of a sequence of length L touches only its own L bits and the first L / 2
 * bits of its scratch, so a block of n bits needs n / 2 bits of scratch
 * besides itself and its output.
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

/* The output of one block must drain before the next block is complete. */
static_assert((FD_PERES_BLOCK_BITS / 64 - 1) * FD_PERES_MAX_OUT >= FD_PERES_BLOCK_BITS);
static_assert(FD_PERES_BLOCK_BITS % 64 == 0);
static_assert(FD_PERES_DEPTH <= FD_PERES_MAX_DEPTH);

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
 * struct fd_bitw - appends to a bit string in memory without changing any
 * bit outside it: another string may share its first or last word.
 * @w: the word being filled
 * @acc: the new bits of *@w, not stored yet
 * @n: how many low bits of *@w are settled (new or kept)
 * @keep: the bits of *@w below the string, to be left as they are
 */
struct fd_bitw {
	u64 *w;
	u64 acc;
	unsigned int n;
	u64 keep;
};

static inline void fd_bitw_init(struct fd_bitw *b, u64 *buf, u32 pos)
{
	b->w = buf + pos / 64;
	b->n = pos % 64;
	b->acc = 0;
	b->keep = fd_low_bits(~0ULL, b->n);
}

/* Append the @n (0..64) low bits of @x; the bits of @x above them are 0. */
static inline void fd_bitw_put(struct fd_bitw *b, u64 x, unsigned int n)
{
	b->acc |= x << b->n;
	if (b->n + n < 64) {
		b->n += n;
		return;
	}
	*b->w = (*b->w & b->keep) | b->acc;
	b->w++;
	b->keep = 0;
	b->acc = b->n ? x >> (64 - b->n) : 0;
	b->n = b->n + n - 64;
}

/* Store the last, partial word. */
static inline void fd_bitw_flush(struct fd_bitw *b)
{
	u64 mine = fd_low_bits(~0ULL, b->n) & ~b->keep;

	if (mine)
		*b->w = (*b->w & ~mine) | b->acc;
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
 * struct fd_peres_split - one level of Peres on up to 32 pairs
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
 * Split the first @np (1..32) pairs of @x. The first bit of each pair is
 * its von Neumann bit if the pair differs, its common value if not: with a
 * fast PEXT, four of them do it; else a table does four pairs at a time.
 */
static inline void fd_peres_split(u64 x, unsigned int np, struct fd_peres_split *s)
{
	const u64 even = 0x5555555555555555ULL;
	unsigned int i, nvn = 0;
	u64 vn = 0, v = 0;

	x = fd_low_bits(x, 2 * np);
	if (fd_fast_pext()) {
		u64 first = fd_pext(x, even), d = fd_pext(x ^ (x >> 1), even);

		s->vn = fd_pext(first, d);
		s->nvn = hweight64(d);
		s->v = fd_pext(first, ~d & fd_low_bits(~0ULL, np));
		s->nv = np - s->nvn;
		s->u = d;
		return;
	}
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
 * Peres with @depth levels on the @len (2..64) bits of @x, in registers.
 * Each waiting v is at most half as long as the one below it and at least
 * 2 bits long: at most 5 wait (32, 16, 8, 4 and 2 bits).
 */
static void fd_peres_word(u64 x, unsigned int len, unsigned int depth,
			  struct fd_bitw *out)
{
	struct {
		u64 x;
		u8 len;
		u8 depth;
	} stack[6];
	unsigned int top = 0;

	for (;;) {
		struct fd_peres_split s;

		fd_peres_split(x, len / 2, &s);
		fd_bitw_put(out, s.vn, s.nvn);
		if (depth > 1 && s.nv >= 2 && !FD_WARN_ON(top >= ARRAY_SIZE(stack))) {
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
		if (!top)
			return;
		top--;
		x = stack[top].x;
		len = stack[top].len;
		depth = stack[top].depth;
	}
}

/*
 * struct fd_peres_task - one call of the recursion: Peres with @depth levels
 * on the @len bits of buffer @in from bit @in_pos on, with room for v in
 * buffer @sc from bit @sc_pos on
 */
struct fd_peres_task {
	u32 in_pos;
	u32 sc_pos;
	u32 len;
	u8 depth;
	u8 in;
	u8 sc;
};

/*
 * One level of @t: the von Neumann bits go to @out, u over the first half of
 * the input, v to the scratch. Return the length of v.
 */
static u32 fd_peres_level(u64 *const buf[2], const struct fd_peres_task *t,
			  struct fd_bitw *out)
{
	const u64 *in = buf[t->in];
	u32 pairs = t->len / 2, done = 0, vlen = 0;
	struct fd_bitw u, v;

	fd_bitw_init(&u, buf[t->in], t->in_pos);
	fd_bitw_init(&v, buf[t->sc], t->sc_pos);
	while (done < pairs) {
		unsigned int np = pairs - done < 32 ? pairs - done : 32;
		struct fd_peres_split s;

		fd_peres_split(fd_peres_get(in, t->in_pos + 2 * done, 2 * np), np, &s);
		fd_bitw_put(out, s.vn, s.nvn);
		fd_bitw_put(&v, s.v, s.nv);
		/* Only after the input was read: u may overwrite it. */
		fd_bitw_put(&u, s.u, np);
		done += np;
		vlen += s.nv;
	}
	fd_bitw_flush(&u);
	fd_bitw_flush(&v);
	return vlen;
}

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
	u64 *const buf[2] = { in, scratch };
	/*
	 * Depth-first, u before v. The stack holds at most one v waiting at
	 * each depth below @depth, plus the u on top: at most @depth tasks.
	 */
	struct fd_peres_task stack[FD_PERES_MAX_DEPTH];
	unsigned int top = 0;
	struct fd_bitw o;

	if (FD_WARN_ON(depth > FD_PERES_MAX_DEPTH))
		depth = FD_PERES_MAX_DEPTH;
	fd_bitw_init(&o, out, 0);
	if (depth && nbits >= 2)
		stack[top++] = (struct fd_peres_task){
			.len = nbits, .depth = depth, .in = 0, .sc = 1,
		};
	while (top) {
		struct fd_peres_task t = stack[--top];
		u32 vlen;

		/* Short sequences: the whole sub-tree in registers. */
		if (t.len <= 64) {
			fd_peres_word(fd_peres_get(buf[t.in], t.in_pos, t.len),
				      t.len, t.depth, &o);
			continue;
		}
		vlen = fd_peres_level(buf, &t, &o);
		if (t.depth == 1)
			continue;
		if (vlen >= 2)
			stack[top++] = (struct fd_peres_task){
				.in = t.sc, .in_pos = t.sc_pos, .len = vlen,
				.sc = t.in, .sc_pos = t.in_pos,
				.depth = t.depth - 1,
			};
		stack[top++] = (struct fd_peres_task){
			.in = t.in, .in_pos = t.in_pos, .len = t.len / 2,
			.sc = t.in, .sc_pos = t.in_pos + t.len / 2,
			.depth = t.depth - 1,
		};
	}
	fd_bitw_flush(&o);
	return (o.w - out) * 64 + o.n;
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
	u32 n = fd_peres_pending(st), left;

	if (n > FD_PERES_MAX_OUT)
		n = FD_PERES_MAX_OUT;
	if (n > fd_pool_room(out))
		n = fd_pool_room(out);
	for (left = n; left; ) {
		unsigned int c = left < 64 ? left : 64;

		fd_pool_put(out, fd_peres_get(st->out, st->opos, c), c);
		st->opos += c;
		left -= c;
	}
	return n;
}

/**
 * fd_peres_feed() - add 64 raw bits to a stream
 * @st: the stream
 * @raw: the bits, the oldest in bit 0
 * @out: the pool for the fair bits, with at least FD_PERES_MAX_OUT bits of
 *	room
 *
 * Every FD_PERES_BLOCK_BITS / 64 calls complete a block, whose fair bits
 * are handed out by this and the next calls (or by fd_peres_drain()), at
 * most FD_PERES_MAX_OUT per call. The bits are the same, in the same order,
 * as fd_peres_block() with FD_PERES_DEPTH makes from the raw block. Callers
 * that want fair bits should drain pending ones before feeding more.
 *
 * Return: the number of fair bits appended to @out.
 */
unsigned int fd_peres_feed(struct fd_peres *st, u64 raw, struct fd_pool *out)
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
