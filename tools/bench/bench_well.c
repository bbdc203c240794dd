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

#include "bench_well.h"

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
	fd_well_join(&w->well, c);
	pthread_mutex_unlock(&w->lock);
}

/**
 * bench_well_fill() - fairdie_well_fill(): fair bits into a reader's pipe
 * @w: the well
 * @c: the reader's record of it
 * @raw: how the reader fetches raw words (@word and @interrupted)
 * @ctx: passed to @raw
 * @p: the reader's pipeline; about @p->want_bits go into its pool
 *
 * Take from the well; when it is dry, fetch the words this reader needs
 * (FD_WELL_CHUNK at most) with the lock released, then feed and take. The
 * reader's source_bits count what its fair bits cost at the well's rate
 * (fd_well_take()); the words it fetched are its source's to count.
 *
 * Return: 0 once at least one bit was added; -EIO with @p->failed set when
 * the well failed its health tests; or the source's error.
 */
int bench_well_fill(struct bench_well *w, struct fd_well_client *c,
		    const struct fd_source_ops *raw, void *ctx,
		    struct fd_pipe *p)
{
	u64 buf[FD_WELL_CHUNK];
	u32 got, n, k;
	int err, serr;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		err = fd_well_begin(&w->well, c, 0);
		got = err ? 0 : fd_well_take(&w->well, p);
		k = fd_well_words(&w->well, p->want_bits);
		pthread_mutex_unlock(&w->lock);
		if (err)
			goto out_failed;
		if (got)
			return 0;

		/* Dry: fetch what this reader needs, the lock released. */
		if (raw->interrupted(ctx))
			return -EINTR;
		serr = 0;
		for (n = 0; n < k && !serr; n++)
			serr = raw->word(ctx, false, &buf[n]);
		if (serr)
			n--;

		pthread_mutex_lock(&w->lock);
		err = fd_well_begin(&w->well, c, 0);
		if (!err && n)
			err = fd_well_feed(&w->well, buf, n);
		got = err ? 0 : fd_well_take(&w->well, p);
		pthread_mutex_unlock(&w->lock);
		if (err)
			goto out_failed;
		if (got)
			return 0;
		if (serr)
			return serr;
	}

out_failed:
	p->failed = true;
	p->failure = w->well.pipe.failure;
	return -EIO;
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
	fd_well_giveback(&w->well, c, 0, p);
	pthread_mutex_unlock(&w->lock);
}
