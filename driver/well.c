// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the wells: one device-wide pipeline per hardware source and
 * extractor, shared by every open file of that pair and by the hwrng.
 *
 *   RDSEED words -> health tests -> extractor -> fair bits -> readers
 *
 * A reader takes from its well about the bits it needs. When the well
 * runs dry, the reader fetches raw words itself, without the well's lock
 * (so that readers on several CPUs run the instruction side by side), then
 * takes the lock to run them through the well's health tests and
 * extractor and takes its share of what came out; what is left serves the
 * next reader. A closing file gives its unused fair bits and its recycled
 * state back (fd_pipe_giveback()). Disjoint bits of one stream of fair
 * bits are independent whoever reads them, so every file's rolls stay
 * exact: see Documentation/design/fairdie.rst, "The wells".
 *
 * The start-up test runs once per well: when it is first used and after
 * each health failure. A failure latches the well: every reader that was
 * using it gets EIO (and its file stays failed until FAIRDIE_IOC_RESET),
 * and the well restarts, with a fresh start-up test, for the first reader
 * that joined it after the failure (a file opened or reset since).
 *
 * A VM fork (vmgenid) discards every well's bits before the next use.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "fairdie.h"

/* Raw words a reader fetches at most before it feeds the well. */
#define FAIRDIE_WELL_CHUNK	32

/**
 * struct fairdie_well - the shared pipeline of one source and extractor
 * @lock: serialises the pipeline; never held while the source is asked
 * @pipe: health tests, start-up test, extractor and the fair bits made
 *	(raw bits that passed the tests, for DIJKSTRA)
 * @epoch: health failures so far; a reader that joined before the last
 *	one is failed
 * @generation: the VM generation (fairdie_vmfork_generation()) the bits
 *	held belong to
 * @started: the pipeline was set up (at first use)
 */
struct fairdie_well {
	struct mutex lock;	/* protects every field below */
	struct fd_pipe pipe;
	u32 epoch;
	u32 generation;
	bool started;
};

/* Wells of RDSEED and RDRAND, for each extractor. */
static struct fairdie_well fairdie_wells[2][FD_EXTRACTORS];
/* Peres' state of the two PERES wells (10 KiB each), never allocated. */
static struct fd_peres fairdie_well_peres[2];

static u32 fairdie_well_index(u32 source)
{
	return source == FAIRDIE_SRC_RDRAND;
}

/**
 * fairdie_well_get() - the well of a hardware source and an extractor
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @extractor: enum fairdie_extractor
 *
 * Return: the well, never NULL.
 */
struct fairdie_well *fairdie_well_get(u32 source, u32 extractor)
{
	if (WARN_ON_ONCE(extractor >= FD_EXTRACTORS))
		extractor = FAIRDIE_EXT_VN;
	return &fairdie_wells[fairdie_well_index(source)][extractor];
}

/* Discard the bits held, and the extractor's state. */
static void fairdie_well_discard(struct fairdie_well *w)
{
	lockdep_assert_held(&w->lock);
	fd_pool_clear(&w->pipe.pool);
	if (w->pipe.peres)
		fd_peres_init(w->pipe.peres);
}

/*
 * Whether @client may take from the well now; restarts a failed well for
 * a reader that joined it after the failure.
 */
static int fairdie_well_check(struct fairdie_well *w,
			      struct fairdie_well_client *client)
{
	u32 gen = fairdie_vmfork_generation();

	lockdep_assert_held(&w->lock);
	if (w->generation != gen) {
		fairdie_well_discard(w);
		w->generation = gen;
	}
	if (client->epoch != w->epoch)
		return -EIO;
	if (!w->started || w->pipe.failed) {
		fd_pipe_configure(&w->pipe, 2, w->pipe.extractor);
		fd_pipe_restart_hw(&w->pipe);
		w->started = true;
	}
	client->generation = gen;
	return 0;
}

/* The well failed: latch it and say so, once per failure. */
static void fairdie_well_failed(struct fairdie_well *w, u32 source)
{
	lockdep_assert_held(&w->lock);
	w->epoch++;
	fairdie_well_discard(w);
	atomic64_inc(&fairdie_counters.health_failures);
	pr_warn_ratelimited("%s source failed the %s test (well %s, pid %d); its readers fail with EIO until FAIRDIE_IOC_RESET\n",
			    fairdie_source_name(source),
			    fd_health_name(w->pipe.failure),
			    fairdie_extractor_name(w->pipe.extractor),
			    task_pid_nr(current));
}

/* Raw words to fetch for @bits fair bits, at the extractor's rate. */
static u32 fairdie_well_words(u32 extractor, u32 bits)
{
	/* Von Neumann keeps a quarter of a fair source's bits. */
	u32 per_word = extractor == FAIRDIE_EXT_VN ? 16 : 56;
	u32 n = DIV_ROUND_UP(bits, per_word);

	return clamp_t(u32, n, 1, FAIRDIE_WELL_CHUNK);
}

/**
 * fairdie_well_join() - start using a well (again)
 * @w: the well
 * @client: the reader's record of it
 *
 * A reader that joins after a health failure restarts the well, with a
 * fresh start-up test, when it first takes from it.
 */
void fairdie_well_join(struct fairdie_well *w,
		       struct fairdie_well_client *client)
{
	mutex_lock(&w->lock);
	client->epoch = w->epoch;
	client->generation = w->generation;
	mutex_unlock(&w->lock);
}

/**
 * fairdie_well_fill() - fair bits from a well into a reader's pipeline
 * @w: the well
 * @client: the reader's record of it, joined with fairdie_well_join()
 * @source: the well's source, FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @raw: how the reader fetches raw words of @source (its @word and
 *	@interrupted)
 * @ctx: passed to @raw
 * @nonblock: the source must not wait
 * @p: the reader's pipeline; about @p->want_bits go into its pool
 *
 * Return: 0 once at least one bit was added; -EIO with @p->failed set
 * when the well failed its health tests since @client joined it (or now);
 * or the source's error (-EAGAIN, -EINTR, -EIO).
 */
int fairdie_well_fill(struct fairdie_well *w,
		      struct fairdie_well_client *client, u32 source,
		      const struct fd_source_ops *raw, void *ctx,
		      bool nonblock, struct fd_pipe *p)
{
	u32 want = p->want_bits, got, n, k, gen;
	u64 buf[FAIRDIE_WELL_CHUNK];
	int err, serr;

	for (;;) {
		mutex_lock(&w->lock);
		err = fairdie_well_check(w, client);
		got = err ? 0 : fd_pipe_take(&w->pipe, &p->pool, want);
		gen = w->generation;
		k = fairdie_well_words(w->pipe.extractor, want);
		mutex_unlock(&w->lock);
		if (err)
			goto out_failed;
		if (got) {
			p->extracted_bits += got;
			return 0;
		}

		/* Dry: fetch what this reader needs, the lock released. */
		if (raw->interrupted(ctx))
			return -EINTR;
		serr = 0;
		for (n = 0; n < k && !serr; n++)
			serr = raw->word(ctx, nonblock, &buf[n]);
		if (serr)
			n--;
		p->source_bits += 64ULL * n;
		atomic64_add(64ULL * n, &fairdie_counters.source_bits);

		mutex_lock(&w->lock);
		err = fairdie_well_check(w, client);
		/* Words fetched before a VM fork are not used after it. */
		if (!err && n && gen == w->generation) {
			err = fd_pipe_feed_words(&w->pipe, buf, n);
			if (err)
				fairdie_well_failed(w, source);
		}
		got = err ? 0 : fd_pipe_take(&w->pipe, &p->pool, want);
		mutex_unlock(&w->lock);
		memzero_explicit(buf, sizeof(buf));
		if (err)
			goto out_failed;
		if (got) {
			p->extracted_bits += got;
			return 0;
		}
		if (serr)
			return serr;
	}

out_failed:
	p->failed = true;
	p->failure = w->pipe.failure;
	return -EIO;
}

/**
 * fairdie_well_giveback() - a reader's unused bits back to its well
 * @w: the well
 * @client: the reader's record of it
 * @p: the reader's pipeline; its pool and sampler state are emptied
 *
 * Only bits of the well's current life go back: not after a health
 * failure, nor across a VM fork.
 */
void fairdie_well_giveback(struct fairdie_well *w,
			   struct fairdie_well_client *client,
			   struct fd_pipe *p)
{
	mutex_lock(&w->lock);
	if (client->epoch == w->epoch && !w->pipe.failed && w->started &&
	    client->generation == w->generation &&
	    w->generation == fairdie_vmfork_generation())
		fd_pipe_giveback(p, &w->pipe.pool);
	mutex_unlock(&w->lock);
	fd_pool_clear(&p->pool);
	fd_sampler_reset(&p->sampler);
}

/**
 * fairdie_wells_init() - set up the wells, empty; each starts when first
 *	used
 */
void fairdie_wells_init(void)
{
	u32 s, e;

	for (s = 0; s < ARRAY_SIZE(fairdie_wells); s++) {
		for (e = 0; e < FD_EXTRACTORS; e++) {
			struct fairdie_well *w = &fairdie_wells[s][e];

			mutex_init(&w->lock);
			w->pipe.extractor = e;
			if (e == FAIRDIE_EXT_PERES)
				w->pipe.peres = &fairdie_well_peres[s];
		}
	}
}

/**
 * fairdie_wells_exit() - wipe the wells
 */
void fairdie_wells_exit(void)
{
	u32 s, e;

	for (s = 0; s < ARRAY_SIZE(fairdie_wells); s++)
		for (e = 0; e < FD_EXTRACTORS; e++)
			mutex_destroy(&fairdie_wells[s][e].lock);
	memzero_explicit(fairdie_wells, sizeof(fairdie_wells));
	memzero_explicit(fairdie_well_peres, sizeof(fairdie_well_peres));
}
