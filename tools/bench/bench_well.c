// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - driver/well.c in userspace: a pthread mutex per well,
 * the module's fd_well.c under it, the raw words fetched without it.
 *
 * What differs from the module is what cannot exist here: no VM fork
 * generation (always 0), no device-wide counters, no log message on a
 * health failure.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_well.h"

u32 (*bench_well_ahead)(const bool *served, u64 *buf, u32 k);

/**
 * bench_well_new() - an empty well, started at first use
 * @extractor: enum fairdie_extractor
 *
 * Return: the well, or NULL when memory ran out.
 */
struct bench_well *bench_well_new(u32 extractor)
{
	struct bench_well *w = malloc(sizeof(*w));

	if (!w)
		return NULL;
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wait, NULL);
	fd_well_init(&w->well, extractor,
		     extractor == FAIRDIE_EXT_PERES ? &w->peres : NULL);
	return w;
}

/**
 * bench_well_free() - the end of a well
 * @w: the well, or NULL
 */
void bench_well_free(struct bench_well *w)
{
	if (!w)
		return;
	pthread_cond_destroy(&w->wait);
	pthread_mutex_destroy(&w->lock);
	free(w);
}

/**
 * bench_well_join() - fairdie_well_join(): a reader starts using the well
 * @w: the well
 * @c: the reader's record of it
 */
void bench_well_join(struct bench_well *w, struct fd_well_client *c)
{
	pthread_mutex_lock(&w->lock);
	fd_well_join(&w->well, c, NULL);
	pthread_mutex_unlock(&w->lock);
}

static u64 bench_well_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* fairdie_well_quit(): the reader stops waiting, the others may go on. */
static void bench_well_quit(struct bench_well *w, struct fd_well_client *c)
{
	fd_well_leave(&w->well, c, bench_well_now());
	fd_well_dequeue(&w->well, c);
	pthread_cond_broadcast(&w->wait);
}

/* Serve the waiting readers; wake them if any was. */
static void bench_well_serve(struct bench_well *w)
{
	if (fd_well_serve(&w->well, bench_well_now()))
		pthread_cond_broadcast(&w->wait);
}

/**
 * bench_well_fill() - fairdie_well_fill(): fair bits into a reader's pipe
 * @w: the well
 * @c: the reader's record of it
 * @raw: how the reader fetches raw words (@word and @interrupted)
 * @ctx: passed to @raw
 * @p: the reader's pipeline; about @p->want_bits go into its pool
 *
 * The reader waits in the well's queue (fd_well_serve()); while the well
 * holds less than the queue wants, it fetches words (FD_WELL_CHUNK at
 * most) with the lock released and feeds them in. The reader's source_bits
 * count what its fair bits cost at the well's rate (fd_well_take()); the
 * words it fetched are its source's to count. The bench's readers block.
 *
 * Return: 0 once at least one bit was added; -EIO with @p->failed set when
 * the well failed its health tests; or the source's error.
 */
int bench_well_fill(struct bench_well *w, struct fd_well_client *c,
		    const struct fd_source_ops *raw, void *ctx,
		    struct fd_pipe *p)
{
	u64 buf[FD_WELL_CHUNK];
	int err = 0, serr = 0;
	u32 n, m, k;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		err = fd_well_begin(&w->well, c, 0);
		if (err)
			break;
		fd_well_enter(&w->well, c, p, bench_well_now());
		bench_well_serve(w);
		if (c->served)
			break;
		k = fd_well_need(&w->well);
		if (!k) {
			/* The bits held wait for a reader ahead. */
			struct timespec ts;
			u64 t = bench_well_now() + 1000000;

			ts.tv_sec = t / 1000000000ULL;
			ts.tv_nsec = t % 1000000000ULL;
			pthread_cond_timedwait(&w->wait, &w->lock, &ts);
			continue;
		}

		/* Too little for the queue: fetch what this reader asks for. */
		k = fd_well_words(&w->well, k < p->want_bits ? k : p->want_bits);
		pthread_mutex_unlock(&w->lock);
		serr = raw->interrupted(ctx) ? -EINTR : 0;
		/* Words fetched ahead on another CPU come first. */
		n = bench_well_ahead ? bench_well_ahead(&c->served, buf, k) : 0;
		for (m = n ? k : 0; !serr && m < k &&
		     !__atomic_load_n(&c->served, __ATOMIC_RELAXED); m++) {
			serr = raw->word(ctx, false, &buf[m]);
			if (serr)
				break;
		}
		if (!n)
			n = m;
		pthread_mutex_lock(&w->lock);
		err = fd_well_begin(&w->well, c, 0);
		if (!err && n)
			err = fd_well_feed(&w->well, buf, n);
		if (err)
			break;
		bench_well_serve(w);
		if (c->served || serr)
			break;
	}

	if (c->served) {
		fd_well_leave(&w->well, c, bench_well_now());
		pthread_mutex_unlock(&w->lock);
		return 0;
	}
	bench_well_quit(w, c);
	pthread_mutex_unlock(&w->lock);
	if (!err)
		return serr;
	p->failed = true;
	p->failure = w->well.pipe.failure;
	return -EIO;
}

/**
 * bench_well_end_read() - fairdie_well_end_read(): a reader's read ends
 * @w: the well
 * @c: the reader's record of it
 */
void bench_well_end_read(struct bench_well *w, struct fd_well_client *c)
{
	if (!c->took)
		return;
	pthread_mutex_lock(&w->lock);
	fd_well_end_read(&w->well, c);
	pthread_cond_broadcast(&w->wait);
	pthread_mutex_unlock(&w->lock);
}

/**
 * bench_well_giveback() - fairdie_well_giveback(): a closing reader's bits
 * @w: the well
 * @c: the reader's record of it
 * @p: the reader's pipeline; its pool and sampler state are emptied
 */
void bench_well_giveback(struct bench_well *w, struct fd_well_client *c,
			 struct fd_pipe *p)
{
	pthread_mutex_lock(&w->lock);
	bench_well_quit(w, c);
	fd_well_giveback(&w->well, c, 0, p);
	pthread_mutex_unlock(&w->lock);
}

/* The reader bench_well_serve_ns() served last: its wake-up. */
static __thread struct fd_well_client *bench_well_served;

static void bench_well_notify(struct fd_well_client *c)
{
	bench_well_served = c;
}

/* The CPU time of the calling thread, in s. */
static double bench_well_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/**
 * bench_well_serve_ns() - the CPU a well's queue spends per batch served,
 *	with @readers blocked readers waiting
 * @readers: how many, each of a party of its own (the worst case: both
 *	heaps of driver/fd_share.c as large as they get)
 * @secs: about how long to measure
 *
 * Each round puts one batch (FD_WELL_BATCH_BITS fair bits) into the well,
 * as a reader's feed does, and serves it (fd_well_serve()); the reader
 * served takes its bits and comes back for more (fd_well_enter()), as a
 * blocked reader in a long read does. The source is left out: what is
 * measured is the queue's work, under the well's lock, per batch.
 *
 * Return: ns of CPU per round; a negative value when memory ran out.
 */
double bench_well_serve_ns(u32 readers, double secs)
{
	struct fd_well *w = malloc(sizeof(*w));
	struct fd_well_client *c = calloc(readers, sizeof(*c));
	struct fd_share_party *pt = calloc(readers, sizeof(*pt));
	struct fd_pipe *p = calloc(readers, sizeof(*p));
	u64 rounds = 0, seed = 1, t = 1;
	double t0, ns = -1;
	u32 i, k;

	if (!w || !c || !pt || !p)
		goto out;
	fd_well_init(w, FAIRDIE_EXT_NONE, NULL);
	w->started = true;
	for (i = 0; i < readers; i++) {
		fd_well_join(w, &c[i], &pt[i]);
		c[i].notify = bench_well_notify;
		p[i].want_bits = FD_WELL_BATCH_BITS;
		fd_well_enter(w, &c[i], &p[i], t);
	}
	t0 = bench_well_cpu();
	do {
		for (k = 0; k < 1000; k++, rounds++, t += 1000) {
			struct fd_well_client *s;

			for (i = 0; i < FD_WELL_BATCH_BITS / 64; i++) {
				seed = seed * 6364136223846793005ULL + 1;
				fd_pool_put(&w->pipe.pool, seed, 64);
			}
			bench_well_served = NULL;
			if (fd_well_serve(w, t) != 1 || !bench_well_served)
				goto out;
			s = bench_well_served;
			i = s - c;
			while (p[i].pool.count)
				fd_pool_take(&p[i].pool, 64);
			fd_well_leave(w, s, t);
			fd_well_enter(w, s, &p[i], t);
		}
	} while (bench_well_cpu() - t0 < secs);
	ns = (bench_well_cpu() - t0) * 1e9 / rounds;
out:
	free(p);
	free(pt);
	free(c);
	free(w);
	return ns;
}
