/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - a first-in first-out store of bits.
 *
 * Extractors append the fair bits they make, the sampler takes them in the
 * order they came. Bit i of the stream is bit (i % 64) of word i / 64 of the
 * ring: least significant bit first.
 */
#ifndef _FAIRDIE_POOL_H
#define _FAIRDIE_POOL_H

#include "fd_shim.h"

#define FD_POOL_WORDS	256			/* 2 KiB */
#define FD_POOL_BITS	(FD_POOL_WORDS * 64)

/**
 * struct fd_pool - a ring of bits
 * @word: the ring
 * @head: stream index (mod FD_POOL_BITS) of the oldest bit held
 * @count: how many bits are held
 */
struct fd_pool {
	u64 word[FD_POOL_WORDS];
	u32 head;
	u32 count;
};

/* Empty: the bits discarded are wiped, not only forgotten. */
static inline void fd_pool_clear(struct fd_pool *p)
{
	memzero_explicit(p->word, sizeof(p->word));
	p->head = 0;
	p->count = 0;
}

static inline u32 fd_pool_room(const struct fd_pool *p)
{
	return FD_POOL_BITS - p->count;
}

/**
 * fd_pool_put() - append the @n low bits of @bits, least significant first
 * @p: the pool, with at least @n bits of room
 * @bits: the bits; those above @n are ignored
 * @n: how many, 0..64
 */
static inline void fd_pool_put(struct fd_pool *p, u64 bits, unsigned int n)
{
	u32 tail = (p->head + p->count) % FD_POOL_BITS;
	u32 w = tail / 64, s = tail % 64, w2 = (w + 1) % FD_POOL_WORDS;
	u64 mask = fd_low_bits(~0ULL, n);

	if (FD_WARN_ON(n > 64 || n > fd_pool_room(p)) || !n)
		return;
	bits &= mask;
	/* Merge: the same words may hold the oldest bits of a full ring. */
	p->word[w] = (p->word[w] & ~(mask << s)) | (bits << s);
	if (s + n > 64)
		p->word[w2] = (p->word[w2] & ~(mask >> (64 - s))) |
			      (bits >> (64 - s));
	p->count += n;
}

/**
 * fd_pool_bits_at() - the 64 bits of a ring from stream index @head on
 * @word: the ring
 * @head: the stream index, mod FD_POOL_BITS
 *
 * Without a branch: the next word is always read, and shifted out of the
 * way when @head is on a word boundary. Bits past the ones held are
 * whatever the ring holds there.
 *
 * Return: the bits, the one at @head in bit 0.
 */
static __always_inline u64 fd_pool_bits_at(const u64 *word, u32 head)
{
	u32 w = head / 64, s = head % 64;

	/* x << (64 - s), also for s = 0: nothing */
	return (word[w] >> s) |
	       ((word[(w + 1) % FD_POOL_WORDS] << 1) << (63 - s));
}

/**
 * fd_pool_take() - remove the @n oldest bits
 * @p: the pool, holding at least @n bits
 * @n: how many, 0..64
 *
 * Return: the bits, the oldest in bit 0.
 */
static inline u64 fd_pool_take(struct fd_pool *p, unsigned int n)
{
	u64 v;

	if (FD_WARN_ON(n > 64 || n > p->count) || !n)
		return 0;
	v = fd_pool_bits_at(p->word, p->head);
	p->head = (p->head + n) % FD_POOL_BITS;
	p->count -= n;
	return fd_low_bits(v, n);
}

/**
 * fd_pool_put64() - fd_pool_put() of 64 bits
 * @p: the pool, with at least 64 bits of room
 * @bits: the bits
 *
 * When the pool ends on a word boundary, the word after it is all free:
 * one store, no merge.
 */
static inline void fd_pool_put64(struct fd_pool *p, u64 bits)
{
	u32 tail = (p->head + p->count) % FD_POOL_BITS;

	if (tail % 64 || FD_WARN_ON(fd_pool_room(p) < 64)) {
		fd_pool_put(p, bits, 64);
		return;
	}
	p->word[tail / 64] = bits;
	p->count += 64;
}

/**
 * fd_pool_put_words() - fd_pool_put64() of @n words in turn
 * @p: the pool, with at least 64 @n bits of room
 * @words: the words
 * @n: how many
 *
 * When the pool ends on a word boundary, runs of them up to the end of
 * the ring are one copy each.
 */
static inline void fd_pool_put_words(struct fd_pool *p, const u64 *words,
				     u32 n)
{
	u32 tail = (p->head + p->count) % FD_POOL_BITS, k;

	if (tail % 64 || FD_WARN_ON(fd_pool_room(p) < 64ULL * n)) {
		while (n--)
			fd_pool_put64(p, *words++);
		return;
	}
	while (n) {
		k = FD_POOL_WORDS - tail / 64;
		if (k > n)
			k = n;
		memcpy(p->word + tail / 64, words, k * sizeof(*words));
		p->count += 64 * k;
		tail = (tail + 64 * k) % FD_POOL_BITS;
		words += k;
		n -= k;
	}
}

/**
 * fd_pool_move() - move the @n oldest bits of @src to the end of @dst
 * @dst: the pool that receives them, with at least @n bits of room
 * @src: the pool they come from, another one, holding at least @n bits
 * @n: how many
 *
 * The bits of fd_pool_put(@dst, fd_pool_take(@src, k), k) repeated, in
 * the same order: up to @dst's next word boundary, then whole words, each
 * one store (runs of them one copy when @src's head is on a boundary as
 * well), then the rest.
 */
static inline void fd_pool_move(struct fd_pool *dst, struct fd_pool *src,
				u32 n)
{
	u32 c = -(dst->head + dst->count) % 64, head, tail;
	u64 v;

	if (FD_WARN_ON(n > src->count || n > fd_pool_room(dst)))
		return;
	if (c > n)
		c = n;
	fd_pool_put(dst, fd_pool_take(src, c), c);
	n -= c;
	head = src->head;
	tail = (dst->head + dst->count) % FD_POOL_BITS;
	src->count -= n & ~63U;
	dst->count += n & ~63U;
	/* @src's head on a word boundary too: runs of words, copied. */
	while (!(head % 64) && n >= 64) {
		u32 k = n / 64, hw = head / 64, tw = tail / 64;

		/* Up to the end of either ring. */
		if (k > FD_POOL_WORDS - hw)
			k = FD_POOL_WORDS - hw;
		if (k > FD_POOL_WORDS - tw)
			k = FD_POOL_WORDS - tw;
		memcpy(dst->word + tw, src->word + hw, k * sizeof(u64));
		head = (head + 64 * k) % FD_POOL_BITS;
		tail = (tail + 64 * k) % FD_POOL_BITS;
		n -= 64 * k;
	}
	for (; n >= 64; n -= 64) {
		v = fd_pool_bits_at(src->word, head);
		dst->word[tail / 64] = v;
		head = (head + 64) % FD_POOL_BITS;
		tail = (tail + 64) % FD_POOL_BITS;
	}
	src->head = head;
	fd_pool_put(dst, fd_pool_take(src, n), n);
}

#endif /* _FAIRDIE_POOL_H */
