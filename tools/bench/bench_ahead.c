// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - RDSEED fetched ahead on another CPU, a model of a design
 * the module does not have yet (Documentation/design/fairdie.rst, "Fetching
 * on another CPU").
 *
 * One fetcher thread, pinned on a CPU of its own, runs the instruction into
 * a buffer of its own, FD_WELL_CHUNK words at a time, and hands each chunk
 * over whole into a ring of BENCH_AHEAD_CHUNKS; the reader, pinned on
 * another CPU, takes a chunk at a time and never runs the instruction
 * itself while the fetcher delivers. Staging the chunk before the hand-over
 * keeps the cache lines the reader last read from stalling the fetcher on
 * each store, and the ring's depth (4 KiB, about 0.28 ms of a RDSEED of 116
 * Mbit/s) covers Peres, which turns a whole block into bits at once.
 *
 * What the model leaves out: the VM generation of each chunk (always 0
 * here), the fetcher's sleep when no reader asks (here it spins on a flag
 * between measurements), and a fetcher that lags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>
#include <immintrin.h>

#include "bench_ahead.h"
#include "fd_well.h"

/* Chunks the ring holds: 16 of FD_WELL_CHUNK (32) words, 4 KiB. */
#define BENCH_AHEAD_CHUNKS	16
/* Underflows in a row after which the fetcher reports the source broken. */
#define BENCH_AHEAD_GIVE_UP	(1U << 24)

/*
 * What each side writes is on cache lines of its own: a line both write
 * would travel between the CPUs at every word.
 */
static struct {
	/* Set up before the thread starts, then read only. */
	pthread_t tid;
	int cpu;
	bool running;
	/* The bench's. */
	int active __attribute__((aligned(64))); /* a reader takes words */
	int stop;
	/* The fetcher's. */
	u32 head __attribute__((aligned(64)));	/* chunks put in */
	int idle;		/* it saw !active and stopped */
	int err;		/* it gave up on the source */
	u64 retries;		/* underflows, added once a chunk */
	/* The reader's. */
	u32 tail __attribute__((aligned(64)));	/* chunks taken out */
	u32 pos;		/* the next word of buf */
	u64 buf[FD_WELL_CHUNK];	/* the chunk it takes words from */
	u64 ring[BENCH_AHEAD_CHUNKS][FD_WELL_CHUNK] __attribute__((aligned(64)));
} ba;

/* A chunk from RDSEED into @loc, the fetcher's own buffer. */
static int bench_ahead_chunk(u64 *loc)
{
	unsigned long long v;
	u32 i, tries, retries = 0;

	for (i = 0; i < FD_WELL_CHUNK; i++) {
		for (tries = 0; !_rdseed64_step(&v); tries++) {
			if (tries == BENCH_AHEAD_GIVE_UP)
				return -EIO;
			_mm_pause();
		}
		retries += tries;
		loc[i] = v;
	}
	if (retries)
		ba.retries += retries;
	return 0;
}

static void *bench_ahead_run(void *arg)
{
	u64 loc[FD_WELL_CHUNK];
	cpu_set_t set;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(ba.cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!__atomic_load_n(&ba.stop, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&ba.active, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&ba.idle, 1, __ATOMIC_RELEASE);
			usleep(50);
			continue;
		}
		__atomic_store_n(&ba.idle, 0, __ATOMIC_RELEASE);
		if (ba.head - __atomic_load_n(&ba.tail, __ATOMIC_ACQUIRE) >=
		    BENCH_AHEAD_CHUNKS) {
			_mm_pause();
			continue;
		}
		if (bench_ahead_chunk(loc)) {
			__atomic_store_n(&ba.err, -EIO, __ATOMIC_RELEASE);
			__atomic_store_n(&ba.active, 0, __ATOMIC_RELEASE);
			continue;
		}
		memcpy(ba.ring[ba.head % BENCH_AHEAD_CHUNKS], loc, sizeof(loc));
		__atomic_store_n(&ba.head, ba.head + 1, __ATOMIC_RELEASE);
	}
	memset(loc, 0, sizeof(loc));
	return NULL;
}

/**
 * bench_ahead_start() - start the fetcher, idle until bench_ahead_set()
 * @cpu: the CPU it runs on, not the reader's
 *
 * Return: 0 or an errno.
 */
int bench_ahead_start(int cpu)
{
	int err;

	if (ba.running)
		return 0;
	ba.cpu = cpu;
	ba.stop = 0;
	ba.active = 0;
	ba.idle = 0;
	ba.pos = FD_WELL_CHUNK;
	err = pthread_create(&ba.tid, NULL, bench_ahead_run, NULL);
	if (err)
		return -err;
	ba.running = true;
	return 0;
}

/**
 * bench_ahead_set() - let the fetcher run for a reader, or stop it
 * @on: run (an empty ring) or stop (and wait until it has)
 */
void bench_ahead_set(bool on)
{
	if (!ba.running)
		return;
	if (on) {
		ba.head = 0;
		ba.tail = 0;
		ba.err = 0;
		ba.pos = FD_WELL_CHUNK;
		__atomic_store_n(&ba.idle, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&ba.active, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&ba.active, 0, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&ba.idle, __ATOMIC_ACQUIRE))
		_mm_pause();
}

/**
 * bench_ahead_stop() - end the fetcher thread
 */
void bench_ahead_stop(void)
{
	if (!ba.running)
		return;
	__atomic_store_n(&ba.stop, 1, __ATOMIC_RELEASE);
	pthread_join(ba.tid, NULL);
	ba.running = false;
	memset(ba.ring, 0, sizeof(ba.ring));
	memset(ba.buf, 0, sizeof(ba.buf));
}

/**
 * bench_ahead_word() - a struct bench_src word: the next one fetched ahead
 * @src: the reader's source; its words are counted
 * @w: receives the word
 *
 * Return: 0, or -EIO when the fetcher gave up on the source.
 */
int bench_ahead_word(struct bench_src *src, u64 *w)
{
	u32 t = ba.tail;

	if (ba.pos == FD_WELL_CHUNK) {
		while (__atomic_load_n(&ba.head, __ATOMIC_ACQUIRE) == t) {
			if (__atomic_load_n(&ba.err, __ATOMIC_ACQUIRE))
				return -EIO;
			_mm_pause();
		}
		memcpy(ba.buf, ba.ring[t % BENCH_AHEAD_CHUNKS], sizeof(ba.buf));
		__atomic_store_n(&ba.tail, t + 1, __ATOMIC_RELEASE);
		ba.pos = 0;
	}
	src->words++;
	*w = ba.buf[ba.pos++];
	return 0;
}

/**
 * bench_ahead_retries() - underflows the fetcher retried so far
 *
 * Return: the count.
 */
u64 bench_ahead_retries(void)
{
	return ba.retries;
}
