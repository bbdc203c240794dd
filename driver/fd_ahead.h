/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - a ring of raw words fetched ahead on another CPU.
 *
 * Where RDSEED holds the core for the whole of a word (about 550 ns on AMD
 * EPYC), a reader that fetches its words and then turns them into rolls
 * adds the second time to the first. One fetcher (a kthread in the module,
 * driver/ahead.c; a thread in the bench) runs the instruction on another
 * CPU and puts whole chunks of FD_WELL_CHUNK words in; the readers of the
 * source take words out, any number at a time, each word once.
 *
 * How the words cross between the CPUs decides whether this pays:
 * - the fetcher stages a chunk in a buffer of its own and copies it in
 *   whole, so that its stores do not wait, word by word, for cache lines
 *   the readers last read;
 * - what the fetcher writes (@head, @gen) and what the readers write
 *   (@tail) are on cache lines of their own, and the fetcher writes @head
 *   once a chunk.
 *
 * Every chunk carries the generation (a VM fork count) it was fetched in,
 * read before its first word: a reader takes only words of its own
 * generation and wipes the others unused, so that nothing fetched before
 * a VM fork is handed out after it. A word taken is wiped in the ring.
 *
 * The fetcher puts without a lock (one producer); the readers take under
 * a lock of their own (many consumers). The fetcher's release of @head
 * pairs with a reader's acquire of it (the words and the generation of a
 * chunk are written before @head shows them); a reader's release of @tail
 * pairs with the fetcher's acquire of it (the words of a slot are wiped
 * before the fetcher may write it again).
 */
#ifndef _FAIRDIE_AHEAD_H
#define _FAIRDIE_AHEAD_H

#include "fd_shim.h"
#include "fd_well.h"

#ifdef __KERNEL__
#include <asm/barrier.h>
#include <linux/cache.h>
/* Pairs as said above. */
#define fd_ahead_acquire(p)	smp_load_acquire(p)
/* Pairs as said above. */
#define fd_ahead_release(p, v)	smp_store_release(p, v)
/* A member that starts a cache line of its own. */
#define FD_AHEAD_LINE		____cacheline_aligned
#else
#include <stdalign.h>
#define fd_ahead_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define fd_ahead_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define FD_AHEAD_LINE		alignas(64)
#endif

/*
 * Chunks a ring holds: 16 of FD_WELL_CHUNK words, 4 KiB, about 0.28 ms of
 * a RDSEED of 116 Mbit/s. Fewer held back Peres, which turns a whole
 * block into bits at once while the fetcher goes on (0.94 of the limit
 * with 4 chunks, 0.98 with 16, on AMD EPYC). A power of 2.
 */
#define FD_AHEAD_CHUNKS		16
#define FD_AHEAD_WORDS		(FD_AHEAD_CHUNKS * FD_WELL_CHUNK)

/**
 * struct fd_ahead_ring - raw words fetched ahead
 * @head: words put in so far, a whole chunk at a time (the fetcher's)
 * @gen: the generation each slot's chunk was fetched in (the fetcher's)
 * @tail: words taken out so far (the readers', under their lock)
 * @word: the chunks; a word is zero once taken
 *
 * Counts run modulo 2^32, which FD_AHEAD_WORDS divides.
 */
struct fd_ahead_ring {
	FD_AHEAD_LINE u32 head;
	u32 gen[FD_AHEAD_CHUNKS];
	FD_AHEAD_LINE u32 tail;
	FD_AHEAD_LINE u64 word[FD_AHEAD_CHUNKS][FD_WELL_CHUNK];
};

/*
 * Words the ring holds; outside the readers' lock, only a hint (the tail
 * is read first: the head never falls behind it).
 */
static inline u32 fd_ahead_count(const struct fd_ahead_ring *r)
{
	u32 t = fd_ahead_acquire(&r->tail);

	return fd_ahead_acquire(&r->head) - t;
}

/**
 * fd_ahead_put() - the fetcher puts a chunk in
 * @r: the ring
 * @chunk: FD_WELL_CHUNK words, staged in the fetcher's own buffer; the
 *	caller wipes it
 * @gen: the generation read before the chunk's first word was fetched
 *
 * Only the one fetcher calls this; no lock.
 *
 * Return: false when no slot is free (nothing is put).
 */
static inline bool fd_ahead_put(struct fd_ahead_ring *r, const u64 *chunk,
				u32 gen)
{
	u32 h = r->head, i = h / FD_WELL_CHUNK % FD_AHEAD_CHUNKS;

	/* The slot is free once every word of the chunk before in it went. */
	if (h - fd_ahead_acquire(&r->tail) > FD_AHEAD_WORDS - FD_WELL_CHUNK)
		return false;
	memcpy(r->word[i], chunk, sizeof(r->word[i]));
	r->gen[i] = gen;
	fd_ahead_release(&r->head, h + FD_WELL_CHUNK);
	return true;
}

/**
 * fd_ahead_take() - a reader takes the oldest words of its generation
 * @r: the ring, the caller's readers' lock held
 * @gen: the reader's generation
 * @out: receives the words
 * @k: at most this many
 * @stale: incremented for every word of another generation, wiped unused
 *
 * Return: how many words were taken into @out, 0 to @k.
 */
static inline u32 fd_ahead_take(struct fd_ahead_ring *r, u32 gen, u64 *out,
				u32 k, u64 *stale)
{
	u32 h = fd_ahead_acquire(&r->head), t = r->tail, n = 0, i, off, m;

	while (n < k && t != h) {
		i = t / FD_WELL_CHUNK % FD_AHEAD_CHUNKS;
		off = t % FD_WELL_CHUNK;
		m = FD_WELL_CHUNK - off;
		if (r->gen[i] != gen) {
			/* Fetched in another generation: never handed out. */
			memzero_explicit(&r->word[i][off], m * sizeof(u64));
			*stale += m;
			t += m;
			continue;
		}
		if (m > k - n)
			m = k - n;
		memcpy(out + n, &r->word[i][off], m * sizeof(u64));
		memzero_explicit(&r->word[i][off], m * sizeof(u64));
		n += m;
		t += m;
	}
	fd_ahead_release(&r->tail, t);
	return n;
}

/**
 * fd_ahead_wipe() - drop every word the ring holds
 * @r: the ring, no fetcher running, the readers' lock held
 */
static inline void fd_ahead_wipe(struct fd_ahead_ring *r)
{
	memzero_explicit(r->word, sizeof(r->word));
	fd_ahead_release(&r->tail, fd_ahead_acquire(&r->head));
}

#endif /* _FAIRDIE_AHEAD_H */
