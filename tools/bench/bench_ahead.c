// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - driver/ahead.c in userspace: RDSEED fetched ahead on
 * another CPU into the module's ring (driver/fd_ahead.h), for the wells
 * of bench_well.c.
 *
 * One fetcher thread, pinned on a CPU of its own, stages FD_WELL_CHUNK
 * words at a time in a buffer of its own and puts them in the ring; a
 * reader's well takes words from it first (bench_well_fill(), as
 * fairdie_well_fill()), waiting for the next chunk up to the module's
 * FAIRDIE_AHEAD_WAIT_NS, and fetches for itself when the fetcher lags.
 *
 * What differs from the module: a pthread pinned by the bench (the module
 * leaves its kthread to the scheduler), which sleeps between measurements
 * until the bench wakes it (the module's sleeps until a reader asks); a
 * nap of 50 us while the ring is full that no reader cuts short; no VM
 * generation (always 0); no fault knobs; milliseconds for jiffies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <immintrin.h>

#include "bench_ahead.h"
#include "bench_well.h"
#include "fd_ahead.h"

/* As driver/ahead.c. */
#define BENCH_AHEAD_WAIT_NS	100000ULL
#define BENCH_AHEAD_BACKOFF_MS	2
/* Underflows in a row after which the fetcher reports the source broken. */
#define BENCH_AHEAD_GIVE_UP	(1U << 24)

static struct {
	struct fd_ahead_ring ring;
	pthread_spinlock_t lock;	/* the readers' */
	pthread_mutex_t sleep;	/* the fetcher's sleep between measurements */
	pthread_cond_t wake;
	pthread_t tid;
	int cpu;
	bool running;
	/* The bench's. */
	int active __attribute__((aligned(64))); /* a reader takes words */
	int stop;
	/* The fetcher's. */
	int idle __attribute__((aligned(64)));	/* it saw !active and stopped */
	int err;		/* it gave up on the source */
	u64 retries;		/* underflows, added once a chunk */
	/* The readers'. */
	u64 stall __attribute__((aligned(64)));	/* ms: gave up waiting */
	u64 taken;
} ba;

static u64 bench_ahead_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

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
	bool full = false;
	cpu_set_t set;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(ba.cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!__atomic_load_n(&ba.stop, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&ba.active, __ATOMIC_ACQUIRE)) {
			full = false;
			pthread_mutex_lock(&ba.sleep);
			while (!__atomic_load_n(&ba.active, __ATOMIC_ACQUIRE) &&
			       !__atomic_load_n(&ba.stop, __ATOMIC_ACQUIRE)) {
				__atomic_store_n(&ba.idle, 1, __ATOMIC_RELEASE);
				pthread_cond_wait(&ba.wake, &ba.sleep);
			}
			pthread_mutex_unlock(&ba.sleep);
			continue;
		}
		__atomic_store_n(&ba.idle, 0, __ATOMIC_RELEASE);
		if (full) {
			if (fd_ahead_put(&ba.ring, loc, 0)) {
				memzero_explicit(loc, sizeof(loc));
				full = false;
			} else {
				usleep(50);	/* FAIRDIE_AHEAD_NAP_US */
			}
		} else if (bench_ahead_chunk(loc)) {
			__atomic_store_n(&ba.err, -EIO, __ATOMIC_RELEASE);
			__atomic_store_n(&ba.active, 0, __ATOMIC_RELEASE);
		} else {
			full = true;
		}
	}
	memzero_explicit(loc, sizeof(loc));
	return NULL;
}

/* fairdie_ahead_take(): words fetched ahead for a well, or 0. */
static u32 bench_ahead_take(const bool *served, u64 *buf, u32 k)
{
	u64 deadline = 0, stale = 0, t;
	u32 n, spins;

	for (;;) {
		pthread_spin_lock(&ba.lock);
		n = fd_ahead_take(&ba.ring, 0, buf, k, &stale);
		pthread_spin_unlock(&ba.lock);
		if (n) {
			ba.taken += n;
			return n;
		}
		t = bench_ahead_ns();
		/* It lagged lately: do not wait for it. */
		if (t / 1000000 < READ_ONCE(ba.stall) + BENCH_AHEAD_BACKOFF_MS)
			return 0;
		if (__atomic_load_n(served, __ATOMIC_RELAXED) ||
		    __atomic_load_n(&ba.err, __ATOMIC_ACQUIRE))
			return 0;
		if (!deadline) {
			deadline = t + BENCH_AHEAD_WAIT_NS;
		} else if (t > deadline) {
			WRITE_ONCE(ba.stall, t / 1000000);
			return 0;
		}
		for (spins = 0; spins < 64 && !fd_ahead_count(&ba.ring);
		     spins++)
			_mm_pause();
	}
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
	pthread_spin_init(&ba.lock, PTHREAD_PROCESS_PRIVATE);
	pthread_mutex_init(&ba.sleep, NULL);
	pthread_cond_init(&ba.wake, NULL);
	ba.cpu = cpu;
	ba.stop = 0;
	ba.active = 0;
	ba.idle = 0;
	err = pthread_create(&ba.tid, NULL, bench_ahead_run, NULL);
	if (err)
		return -err;
	ba.running = true;
	return 0;
}

/**
 * bench_ahead_set() - let the fetcher run for the wells, or stop it
 * @on: run (the wells take from it) or stop (and wait until it has; what
 *	the ring holds is wiped)
 */
void bench_ahead_set(bool on)
{
	if (!ba.running)
		return;
	if (on) {
		ba.err = 0;
		ba.stall = 0;
		bench_well_ahead = bench_ahead_take;
		pthread_mutex_lock(&ba.sleep);
		__atomic_store_n(&ba.idle, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&ba.active, 1, __ATOMIC_RELEASE);
		pthread_cond_signal(&ba.wake);
		pthread_mutex_unlock(&ba.sleep);
		return;
	}
	bench_well_ahead = NULL;
	__atomic_store_n(&ba.active, 0, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&ba.idle, __ATOMIC_ACQUIRE))
		_mm_pause();
	pthread_spin_lock(&ba.lock);
	fd_ahead_wipe(&ba.ring);
	pthread_spin_unlock(&ba.lock);
}

/**
 * bench_ahead_stop() - end the fetcher thread
 */
void bench_ahead_stop(void)
{
	if (!ba.running)
		return;
	bench_ahead_set(false);
	pthread_mutex_lock(&ba.sleep);
	__atomic_store_n(&ba.stop, 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&ba.wake);
	pthread_mutex_unlock(&ba.sleep);
	pthread_join(ba.tid, NULL);
	ba.running = false;
	pthread_cond_destroy(&ba.wake);
	pthread_mutex_destroy(&ba.sleep);
	pthread_spin_destroy(&ba.lock);
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

/**
 * bench_ahead_taken() - words the wells took from the ring so far
 *
 * Return: the count.
 */
u64 bench_ahead_taken(void)
{
	return ba.taken;
}
