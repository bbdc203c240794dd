/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - Peres' iterated von Neumann extractor.
 *
 * Raw bits are gathered into blocks of FD_PERES_BLOCK_BITS; each full block
 * is turned into fair bits at once, which are then handed out to a pool at
 * most FD_PERES_MAX_OUT at a time. See fd_peres.c for the algorithm.
 */
#ifndef _FAIRDIE_PERES_H
#define _FAIRDIE_PERES_H

#include "fd_shim.h"
#include "fd_pool.h"

/*
 * Raw bits per block: longer blocks lose less entropy at their ends (0.952
 * of H(p) at 32768 bits, 0.968 at 131072, 0.972 here); the state, about 2.5
 * bits per raw bit of a block, stays under 64 KiB.
 */
#define FD_PERES_BLOCK_BITS	196608
/*
 * Levels of recursion in the stream: enough to exhaust a block (a sequence
 * at depth k has at most FD_PERES_BLOCK_BITS / 2^(k - 1) bits).
 */
#define FD_PERES_DEPTH		17
/* The deepest recursion fd_peres_block() accepts. */
#define FD_PERES_MAX_DEPTH	18
/* The most bits one call hands to a pool. */
#define FD_PERES_MAX_OUT	8192

/* Words fd_peres_block() needs for @nbits input bits ... */
#define FD_PERES_IN_WORDS(nbits)	(((nbits) + 63) / 64)
/* ... for its output ... */
#define FD_PERES_OUT_WORDS(nbits)	(((nbits) + 63) / 64)
/* ... and for its scratch. */
#define FD_PERES_SCRATCH_WORDS(nbits)	((((nbits) / 2) + 63) / 64)

/**
 * struct fd_peres - the state of one Peres stream
 * @raw: the block being gathered; clobbered when it is extracted
 * @scratch: working space of the extraction
 * @out: the fair bits of the last block
 * @nraw: raw bits gathered in @raw
 * @nout: fair bits in @out
 * @opos: how many of them were handed out already
 *
 * Everything lives here: no pointers, no allocation; 60 KiB, so it belongs
 * to a device-wide well, not to an open file. fd_peres_block() uses about
 * 800 bytes of stack besides.
 */
struct fd_peres {
	u64 raw[FD_PERES_IN_WORDS(FD_PERES_BLOCK_BITS)];
	u64 scratch[FD_PERES_SCRATCH_WORDS(FD_PERES_BLOCK_BITS)];
	u64 out[FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS)];
	u32 nraw;
	u32 nout;
	u32 opos;
};

/**
 * fd_peres_pending() - fair bits extracted but not handed out yet
 * @st: the stream
 *
 * Return: how many; fd_peres_drain() hands them out.
 */
static inline u32 fd_peres_pending(const struct fd_peres *st)
{
	return st->nout - st->opos;
}

unsigned int fd_peres_block(u64 *in, unsigned int nbits, unsigned int depth,
			    u64 *scratch, u64 *out);
void fd_peres_init(struct fd_peres *st);
unsigned int fd_peres_drain(struct fd_peres *st, struct fd_pool *out);
unsigned int fd_peres_feed_slow(struct fd_peres *st, u64 raw,
				struct fd_pool *out);

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
 * Inline for the usual word, which only joins the block being gathered.
 *
 * Return: the number of fair bits appended to @out.
 */
static inline unsigned int fd_peres_feed(struct fd_peres *st, u64 raw,
					 struct fd_pool *out)
{
	if (likely(st->nraw + 64 < FD_PERES_BLOCK_BITS &&
		   !fd_peres_pending(st))) {
		st->raw[st->nraw / 64] = raw;
		st->nraw += 64;
		return 0;
	}
	return fd_peres_feed_slow(st, raw, out);
}

#endif /* _FAIRDIE_PERES_H */
