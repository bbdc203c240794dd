// SPDX-License-Identifier: GPL-2.0
/*
 * test_ahead - the ring of words fetched ahead, driver/fd_ahead.h: every
 * word is taken once, in order, and wiped in the ring; a full ring takes
 * nothing in; words of another generation are never handed out; the
 * counts wrap around 2^32; and, with a fetcher thread and two readers
 * under a lock, each of a million words reaches exactly one reader.
 */
#include <pthread.h>

#include "fd_ahead.h"
#include "fd_test.h"

#define ODD	0x9e3779b97f4a7c15ULL

/* The word numbered @i: never zero, so that a wiped slot shows. */
static u64 word_of(u64 i)
{
	return (i + 1) * ODD;
}

static void fill_chunk(u64 *c, u64 first)
{
	u32 i;

	for (i = 0; i < FD_WELL_CHUNK; i++)
		c[i] = word_of(first + i);
}

static bool ring_zero_at(const struct fd_ahead_ring *r, u32 from, u32 to)
{
	u32 t;

	for (t = from; t != to; t++)
		if (r->word[t / FD_WELL_CHUNK % FD_AHEAD_CHUNKS]
			   [t % FD_WELL_CHUNK])
			return false;
	return true;
}

/* One reader, one generation, starting at @start (words, a chunk's multiple). */
static void test_order(u32 start)
{
	static struct fd_ahead_ring r;
	u64 chunk[FD_WELL_CHUNK], out[FD_WELL_CHUNK], stale = 0;
	u64 put = 0, got = 0, state = start;
	u32 round, k, n, i, before;
	bool ok = true, full_ok = true, wiped = true;

	memset(&r, 0, sizeof(r));
	r.head = start;
	r.tail = start;
	for (round = 0; round < 20000; round++) {
		/* Fill until full; the put that fails changes nothing. */
		if (fd_test_below(&state, 3)) {
			fill_chunk(chunk, put);
			if (fd_ahead_put(&r, chunk, 7)) {
				put += FD_WELL_CHUNK;
			} else {
				full_ok &= fd_ahead_count(&r) >
					   FD_AHEAD_WORDS - FD_WELL_CHUNK;
			}
			full_ok &= fd_ahead_count(&r) <= FD_AHEAD_WORDS;
			continue;
		}
		k = 1 + fd_test_below(&state, FD_WELL_CHUNK);
		before = r.tail;
		n = fd_ahead_take(&r, 7, out, k, &stale);
		ok &= n == (k < put - got ? k : put - got);
		for (i = 0; i < n; i++)
			ok &= out[i] == word_of(got + i);
		got += n;
		wiped &= ring_zero_at(&r, before, r.tail);
	}
	CHECK(ok, "start %u: words out of order, lost or repeated", start);
	CHECK(full_ok, "start %u: a full ring took a chunk in, or held more than it can",
	      start);
	CHECK(wiped, "start %u: a word taken was left in the ring", start);
	CHECK(!stale, "start %u: %llu words of the reader's own generation dropped",
	      start, (unsigned long long)stale);
	CHECK(got > 100000, "start %u: only %llu words went through", start,
	      (unsigned long long)got);
}

/* Chunks of two generations: a reader gets only its own, the rest wiped. */
static void test_generations(void)
{
	static struct fd_ahead_ring r;
	u64 chunk[FD_WELL_CHUNK], out[FD_WELL_CHUNK * 4], stale = 0;
	u32 c, n, i;
	bool own = true;

	memset(&r, 0, sizeof(r));
	/* Chunks 0-2 in generation 1 (before a VM fork), 3-4 in 2. */
	for (c = 0; c < 5; c++) {
		fill_chunk(chunk, c * FD_WELL_CHUNK);
		CHECK(fd_ahead_put(&r, chunk, c < 3 ? 1 : 2), "put chunk %u", c);
	}
	/* A reader of generation 1 takes 10 words, then the VM forks. */
	n = fd_ahead_take(&r, 1, out, 10, &stale);
	CHECK(n == 10 && out[9] == word_of(9) && !stale,
	      "generation 1: took %u words, %llu dropped", n,
	      (unsigned long long)stale);
	n = fd_ahead_take(&r, 2, out, ARRAY_SIZE(out), &stale);
	CHECK(n == 2 * FD_WELL_CHUNK,
	      "generation 2: took %u words, not its 2 chunks", n);
	for (i = 0; i < n; i++)
		own &= out[i] == word_of(3 * FD_WELL_CHUNK + i);
	CHECK(own, "generation 2 got a word fetched before the fork");
	CHECK(stale == 3 * FD_WELL_CHUNK - 10,
	      "%llu words dropped, not the %u left of generation 1",
	      (unsigned long long)stale, 3 * FD_WELL_CHUNK - 10);
	CHECK(ring_zero_at(&r, 0, 5 * FD_WELL_CHUNK),
	      "a word dropped for the fork was left in the ring");
	/* An old reader finds nothing left of its generation. */
	fill_chunk(chunk, 1000);
	fd_ahead_put(&r, chunk, 2);
	stale = 0;
	n = fd_ahead_take(&r, 1, out, 5, &stale);
	CHECK(n == 0 && stale == FD_WELL_CHUNK,
	      "generation 1 after the fork: took %u, dropped %llu", n,
	      (unsigned long long)stale);
	/* Wiped: nothing is left to take. */
	fill_chunk(chunk, 2000);
	fd_ahead_put(&r, chunk, 2);
	fd_ahead_wipe(&r);
	CHECK(!fd_ahead_count(&r) && !fd_ahead_take(&r, 2, out, 5, &stale) &&
	      ring_zero_at(&r, 0, FD_AHEAD_WORDS),
	      "fd_ahead_wipe() left words");
}

#define THREAD_WORDS	(1U << 20)

static struct {
	struct fd_ahead_ring ring;
	pthread_mutex_t lock;
	u8 seen[THREAD_WORDS];
	u32 got[2];
	bool order_ok[2];
	int done;
} th = { .lock = PTHREAD_MUTEX_INITIALIZER, .order_ok = { true, true } };

static void *fetcher(void *arg)
{
	u64 chunk[FD_WELL_CHUNK];
	u32 next = 0;

	(void)arg;
	while (next < THREAD_WORDS) {
		fill_chunk(chunk, next);
		while (!fd_ahead_put(&th.ring, chunk, 3))
			sched_yield();
		next += FD_WELL_CHUNK;
	}
	__atomic_store_n(&th.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The number of the word @w, found again with @inv, ODD's inverse. */
static u64 number_of(u64 w, u64 inv)
{
	return w * inv - 1;
}

static void *reader(void *arg)
{
	long me = (long)arg;
	u64 out[FD_WELL_CHUNK], stale = 0, state = me + 1, inv = 1, i, x, last = 0;
	u32 n;
	bool first = true;

	/* The inverse of the odd multiplier modulo 2^64 (Newton's steps). */
	for (i = 0; i < 6; i++)
		inv *= 2 - ODD * inv;
	for (;;) {
		bool done = __atomic_load_n(&th.done, __ATOMIC_ACQUIRE);

		pthread_mutex_lock(&th.lock);
		n = fd_ahead_take(&th.ring, 3, out,
				  1 + fd_test_below(&state, FD_WELL_CHUNK),
				  &stale);
		pthread_mutex_unlock(&th.lock);
		for (i = 0; i < n; i++) {
			x = number_of(out[i], inv);
			if (x >= THREAD_WORDS || out[i] != word_of(x)) {
				th.order_ok[me] = false;
				continue;
			}
			__atomic_add_fetch(&th.seen[x], 1, __ATOMIC_RELAXED);
			if (!first && x <= last)
				th.order_ok[me] = false;
			first = false;
			last = x;
		}
		th.got[me] += n;
		if (!n && done && !fd_ahead_count(&th.ring))
			break;
	}
	if (stale)
		th.order_ok[me] = false;
	return NULL;
}

static void test_threads(void)
{
	pthread_t f, r[2];
	u32 i, once = 0;

	pthread_create(&r[0], NULL, reader, (void *)0L);
	pthread_create(&r[1], NULL, reader, (void *)1L);
	pthread_create(&f, NULL, fetcher, NULL);
	pthread_join(f, NULL);
	pthread_join(r[0], NULL);
	pthread_join(r[1], NULL);
	for (i = 0; i < THREAD_WORDS; i++)
		once += th.seen[i] == 1;
	NOTE("threads: reader 0 took %u words, reader 1 %u", th.got[0],
	     th.got[1]);
	CHECK(once == THREAD_WORDS && th.got[0] + th.got[1] == THREAD_WORDS,
	      "threads: %u of %u words reached exactly one reader (%u taken)",
	      once, THREAD_WORDS, th.got[0] + th.got[1]);
	CHECK(th.order_ok[0] && th.order_ok[1],
	      "threads: a reader got words out of order or not from the ring");
}

int main(void)
{
	test_order(0);
	/* The counts wrap around 2^32 in the middle of the run. */
	test_order(0U - 5 * FD_WELL_CHUNK);
	test_generations();
	test_threads();
	return fd_check_summary();
}
