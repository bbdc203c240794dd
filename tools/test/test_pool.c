// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the bit FIFO (driver/fd_pool.h) against a plain array of bits.
 *
 *   sizes    every put size 0..64 against every take size 0..64, starting at
 *            every bit alignment 0..63 of the ring
 *   wrap     a long random mix of sizes that goes round the ring many times,
 *            also filling it to the last bit and draining it
 *   full     the last bits of room: every head alignment, every room
 *            0..130 left before a put of 1..64 bits, where the tail wraps
 *            into the words still holding the oldest bits
 *   garbage  bits above n in fd_pool_put() are ignored
 *   move     fd_pool_move() and fd_pool_put64() against the model: random
 *            head alignments and fill levels of both pools (a receiving
 *            ring filled to its last bit among them; every fourth case
 *            with both on word boundaries, where runs of words are
 *            copied), moves of 0 bits to a whole ring
 *   put-words  fd_pool_put_words() against the model: heads and fill
 *            levels on word boundaries (runs copied) and off them
 */
#include "fd_test.h"
#include "fd_pool.h"

/* The model: a queue of single bits. */
#define MODEL_BITS	(1 << 22)

struct model {
	u8 *bit;
	size_t head, tail;
};

static u64 rng = 0x5eed;

static void model_put(struct model *q, u64 v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		q->bit[q->tail++ % MODEL_BITS] = (v >> i) & 1;
}

static void model_clear(struct model *q)
{
	q->head = 0;
	q->tail = 0;
}

static u64 model_take(struct model *q, unsigned int n)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		v |= (u64)q->bit[q->head++ % MODEL_BITS] << i;
	return v;
}

/* Random bits with random garbage above bit @n. */
static u64 random_bits(void)
{
	return fd_test_rand(&rng);
}

/* Put @n bits in both; the pool must agree on count and room. */
static bool both_put(struct fd_pool *p, struct model *q, unsigned int n)
{
	u64 v = random_bits();

	fd_pool_put(p, v, n);
	model_put(q, v, n);
	return p->count == q->tail - q->head &&
	       fd_pool_room(p) == FD_POOL_BITS - p->count;
}

static bool both_take(struct fd_pool *p, struct model *q, unsigned int n)
{
	u64 a = fd_pool_take(p, n), b = model_take(q, n);

	return a == b && p->count == q->tail - q->head;
}

static void test_sizes(struct model *q)
{
	static struct fd_pool p;
	unsigned int align, ps, ts, bad = 0, cases = 0;

	for (align = 0; align < 64; align++) {
		for (ps = 0; ps <= 64; ps++) {
			for (ts = 0; ts <= 64; ts++) {
				unsigned int i, ok = 1;

				fd_pool_clear(&p);
				model_clear(q);
				/* Move the head to bit @align of a word. */
				ok &= both_put(&p, q, align);
				ok &= both_take(&p, q, align);
				/* Alternate puts and takes over ~6 words. */
				for (i = 0; i < 6; i++) {
					ok &= both_put(&p, q, ps);
					ok &= both_put(&p, q, ps);
					if (p.count >= ts)
						ok &= both_take(&p, q, ts);
				}
				while (p.count >= ts && ts)
					ok &= both_take(&p, q, ts);
				ok &= both_take(&p, q, p.count > 64 ? 64 : p.count);
				cases++;
				if (!ok && bad++ < 5)
					CHECK(0, "align %u put %u take %u: stream differs",
					      align, ps, ts);
			}
		}
	}
	CHECK(!bad, "sizes: %u of %u cases wrong", bad, cases);
	NOTE("sizes: %u (alignment, put size, take size) cases", cases);
}

static void test_wrap(struct model *q)
{
	static struct fd_pool p;
	unsigned long ops = 0, bad = 0, passes = 0;
	u64 total = 0;
	unsigned int n;

	fd_pool_clear(&p);
	model_clear(q);
	/* About twenty trips round the ring, with the pool near full. */
	while (total < 20ULL * FD_POOL_BITS) {
		n = fd_test_below(&rng, 65);
		if (fd_test_below(&rng, 3)) {
			if (n > fd_pool_room(&p))
				n = fd_pool_room(&p);
			bad += !both_put(&p, q, n);
			total += n;
		} else {
			if (n > p.count)
				n = p.count;
			bad += !both_take(&p, q, n);
		}
		ops++;
		/* Now and then fill to the last bit, then drain completely. */
		if (!(ops % 5000)) {
			while (fd_pool_room(&p))
				bad += !both_put(&p, q, fd_pool_room(&p) > 64 ?
						 64 : fd_pool_room(&p));
			bad += p.count != FD_POOL_BITS;
			while (p.count)
				bad += !both_take(&p, q, p.count > 37 ? 37 : p.count);
			passes++;
		}
	}
	CHECK(!bad, "wrap: %lu of %lu operations wrong", bad, ops);
	CHECK(passes >= 3, "wrap: filled and drained the ring %lu times", passes);
	NOTE("wrap: %lu operations, %llu bits through a ring of %u",
	     ops, total, FD_POOL_BITS);
}

static void test_full(struct model *q)
{
	static const unsigned int sizes[] = { 1, 2, 7, 31, 32, 33, 63, 64 };
	static const unsigned int aligns[] = { 0, 1, 17, 40, 63 };
	static struct fd_pool p;
	unsigned int ai, room, si, cases = 0, bad = 0;

	for (ai = 0; ai < ARRAY_SIZE(aligns); ai++) {
		for (room = 0; room <= 130; room++) {
			for (si = 0; si < ARRAY_SIZE(sizes); si++) {
				unsigned int n = sizes[si], ok = 1;

				if (n > room)
					continue;
				fd_pool_clear(&p);
				model_clear(q);
				ok &= both_put(&p, q, aligns[ai]);
				ok &= both_take(&p, q, aligns[ai]);
				while (fd_pool_room(&p) > room)
					ok &= both_put(&p, q, fd_pool_room(&p) - room > 64 ?
						       64 : fd_pool_room(&p) - room);
				ok &= both_put(&p, q, n);
				while (p.count)
					ok &= both_take(&p, q, p.count > 64 ? 64 : p.count);
				cases++;
				if (!ok && bad++ < 3)
					CHECK(0, "head at bit %u, %u bits of room, put %u: the oldest bits were overwritten",
					      aligns[ai], room, n);
			}
		}
	}
	CHECK(!bad, "full: %u of %u cases wrong", bad, cases);
	NOTE("full: %u (alignment, room, put size) cases", cases);
}

static void test_garbage(void)
{
	static struct fd_pool p;
	unsigned int n;
	bool ok = true;

	for (n = 0; n <= 64; n++) {
		fd_pool_clear(&p);
		fd_pool_put(&p, ~0ULL, n);
		fd_pool_put(&p, 0, 64);
		ok &= fd_pool_take(&p, n) == fd_low_bits(~0ULL, n);
		ok &= fd_pool_take(&p, 64) == 0;
		ok &= p.count == 0;
		ok &= fd_pool_take(&p, 0) == 0;
	}
	CHECK(ok, "garbage above n leaks into the stream");
}

/* Fill @p (and @q) to @fill bits with its head at bit @head of the ring. */
static bool both_fill(struct fd_pool *p, struct model *q, unsigned int head,
		      unsigned int fill)
{
	bool ok = true;

	fd_pool_clear(p);
	model_clear(q);
	while (head) {
		unsigned int k = head > 64 ? 64 : head;

		ok &= both_put(p, q, k);
		ok &= both_take(p, q, k);
		head -= k;
	}
	while (p->count < fill)
		ok &= both_put(p, q, fill - p->count > 64 ? 64 :
			       fill - p->count);
	return ok;
}

static void test_move(void)
{
	static struct fd_pool a, b;
	struct model qa, qb;
	unsigned int i, cases = 0, bad = 0;

	qa.bit = calloc(MODEL_BITS, 1);
	qb.bit = calloc(MODEL_BITS, 1);
	if (!qa.bit || !qb.bit) {
		CHECK(0, "move: out of memory");
		goto out;
	}
	for (i = 0; i < 3000; i++) {
		unsigned int fa = fd_test_below(&rng, FD_POOL_BITS + 1);
		unsigned int fb = fd_test_below(&rng, FD_POOL_BITS + 1 - 64);
		unsigned int ha = fd_test_below(&rng, FD_POOL_BITS);
		unsigned int hb = fd_test_below(&rng, FD_POOL_BITS);
		unsigned int n, max, k;
		bool ok = true;
		u64 v;

		/* Now and then a receiver with no room to spare. */
		if (i % 7 == 0)
			fb = FD_POOL_BITS - 64 * fd_test_below(&rng, 4) - 64;
		/* Every fourth: heads and tails on word boundaries (the copy). */
		if (i % 4 == 1) {
			ha &= ~63U;
			hb &= ~63U;
			fb &= ~63U;
		}
		ok &= both_fill(&a, &qa, ha, fa);
		ok &= both_fill(&b, &qb, hb, fb);
		if (i % 3 == 0) {
			v = random_bits();
			fd_pool_put64(&b, v);
			model_put(&qb, v, 64);
		}
		max = a.count < fd_pool_room(&b) ? a.count : fd_pool_room(&b);
		n = i % 5 ? fd_test_below(&rng, max + 1) :
		    i % 2 ? max : fd_test_below(&rng, 130 < max ? 130 : max);
		fd_pool_move(&b, &a, n);
		while (n--)
			model_put(&qb, model_take(&qa, 1), 1);
		ok &= a.count == qa.tail - qa.head &&
		      b.count == qb.tail - qb.head;
		while (ok && b.count) {
			k = b.count > 64 ? 64 : b.count;
			ok &= both_take(&b, &qb, k);
		}
		while (ok && a.count) {
			k = a.count > 64 ? 64 : a.count;
			ok &= both_take(&a, &qa, k);
		}
		cases++;
		if (!ok && bad++ < 3)
			CHECK(0, "move: case %u (%u and %u bits held) wrong",
			      i, fa, fb);
	}
	CHECK(!bad, "move: %u of %u cases wrong", bad, cases);
	NOTE("move: %u cases of fd_pool_move() and fd_pool_put64()", cases);
out:
	free(qa.bit);
	free(qb.bit);
}

/*
 * Bits that are discarded are wiped: after fd_pool_clear(), no word of the
 * ring holds any bit it held (a VM fork or a failed source discards them).
 */
static void test_clear_wipes(void)
{
	struct fd_pool p;
	unsigned int i;
	bool ok = true;

	NOTE("clear: a full ring, then one with its head moved, wiped");
	fd_pool_clear(&p);
	while (fd_pool_room(&p) >= 64)
		fd_pool_put(&p, 0x9e3779b97f4a7c15ULL, 64);
	fd_pool_take(&p, 64);
	fd_pool_take(&p, 36);
	fd_pool_clear(&p);
	for (i = 0; i < FD_POOL_WORDS; i++)
		ok &= p.word[i] == 0;
	CHECK(ok && p.count == 0 && p.head == 0,
	      "fd_pool_clear() left discarded bits in the ring");
}

/* fd_pool_put_words() against the model, heads on and off word boundaries. */
static void test_put_words(void)
{
	static struct fd_pool a;
	static u64 w[FD_POOL_WORDS];
	struct model q;
	unsigned int i, j, n, k, cases = 0, bad = 0;

	q.bit = calloc(MODEL_BITS, 1);
	if (!q.bit) {
		CHECK(0, "put-words: out of memory");
		return;
	}
	for (i = 0; i < 2000; i++) {
		unsigned int head = fd_test_below(&rng, FD_POOL_BITS);
		unsigned int fill = fd_test_below(&rng, FD_POOL_BITS + 1);
		bool ok;

		if (i % 2) {
			head &= ~63U;
			fill &= ~63U;
		}
		ok = both_fill(&a, &q, head, fill);
		n = fd_test_below(&rng, fd_pool_room(&a) / 64 + 1);
		for (j = 0; j < n; j++) {
			w[j] = random_bits();
			model_put(&q, w[j], 64);
		}
		fd_pool_put_words(&a, w, n);
		ok &= a.count == q.tail - q.head;
		while (ok && a.count) {
			k = a.count > 64 ? 64 : a.count;
			ok &= both_take(&a, &q, k);
		}
		cases++;
		if (!ok && bad++ < 3)
			CHECK(0, "put-words: case %u (%u bits held, %u words) wrong",
			      i, fill, n);
	}
	CHECK(!bad, "put-words: %u of %u cases wrong", bad, cases);
	NOTE("put-words: %u cases of fd_pool_put_words()", cases);
	free(q.bit);
}

int main(void)
{
	struct model q;

	q.bit = calloc(MODEL_BITS, 1);
	if (!q.bit)
		return EXIT_FAILURE;
	test_sizes(&q);
	test_wrap(&q);
	test_full(&q);
	test_garbage();
	test_move();
	test_put_words();
	test_clear_wipes();
	free(q.bit);
	return fd_check_summary();
}
