// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - a well: one pipeline of raw words shared by many readers.
 *
 * Every function here is called with the caller's lock of the well held.
 * Disjoint bits of one stream of fair bits are independent, whoever takes
 * them: a reader's rolls are exact whatever the others take. Bits given
 * back are uniform and independent of every roll made (fd_pipe_giveback()),
 * so the stream stays one of fair bits.
 *
 * Sharing: who of the readers waiting is served next is the queue's
 * business, driver/fd_queue.c; it only decides which reader's pool the
 * next bits go to, never looking at them.
 *
 * Health: the start-up test runs when the well is first used and after each
 * failure. A failure latches the well: readers that joined it before fail
 * (their files stay failed until reset), and the first reader that joins it
 * afterwards restarts it with a fresh start-up test.
 */

#include "fd_well.h"

/**
 * fd_well_init() - an empty well, started at first use
 * @w: the well
 * @extractor: enum fairdie_extractor
 * @peres: Peres' state, for FAIRDIE_EXT_PERES; NULL otherwise
 */
void fd_well_init(struct fd_well *w, u32 extractor, struct fd_peres *peres)
{
	memset(w, 0, sizeof(*w));
	w->pipe.well = true;
	w->pipe.extractor = extractor;
	w->pipe.peres = peres;
}

/* Discard the bits held, and the extractor's state. */
static void fd_well_discard(struct fd_well *w)
{
	fd_pool_clear(&w->pipe.pool);
	if (w->pipe.peres)
		fd_peres_init(w->pipe.peres);
}

/**
 * fd_well_join() - a reader starts using the well (again)
 * @w: the well
 * @c: the reader's record of it, waiting in no well's queue
 * @party: its party's record of this well; NULL for the well's own (the
 *	party of every reader that names none)
 *
 * A reader that joins after a health failure restarts the well, with a
 * fresh start-up test, when it first takes from it. It starts on this
 * well's clock, as a reader new to it: what it received from another well
 * (or from this one before) counts for nothing here. Its generation is its
 * own state's, and stays: only fd_well_flush() moves it.
 */
void fd_well_join(struct fd_well *w, struct fd_well_client *c,
		  struct fd_share_party *party)
{
	c->epoch = w->epoch;
	if (FD_WARN_ON(c->queued))
		return;
	c->party = party ? party : &w->anon;
	c->received = 0;
	c->taken_before = false;
}

/**
 * fd_well_begin() - check the well before a reader takes or feeds
 * @w: the well
 * @c: the reader's record of it
 * @generation: the caller's current generation; the well's bits of another
 *	one are discarded
 *
 * A reader whose state was made in another generation (a VM fork came
 * since its last flush) neither takes nor feeds: bits that went to it now
 * would join that state, which it must discard (fd_well_flush()) first.
 *
 * Return: 0; -ESTALE when @c's generation is not @generation; or -EIO when
 * the well failed since @c joined it.
 */
int fd_well_begin(struct fd_well *w, struct fd_well_client *c,
		  u32 generation)
{
	if (w->generation != generation) {
		fd_well_discard(w);
		w->generation = generation;
	}
	if (c->generation != generation)
		return -ESTALE;
	if (c->epoch != w->epoch)
		return -EIO;
	if (!w->started || w->pipe.failed) {
		fd_pipe_configure(&w->pipe, 2, w->pipe.extractor);
		fd_pipe_restart_hw(&w->pipe);
		w->started = true;
	}
	return 0;
}

/**
 * fd_well_words() - how many raw words a reader fetches for @bits
 * @w: the well
 * @bits: the fair bits the reader wants
 *
 * Return: a number of words, 1 to FD_WELL_CHUNK, at the extractor's rate
 * on a fair source.
 */
u32 fd_well_words(const struct fd_well *w, u32 bits)
{
	/* Von Neumann keeps a quarter of a fair source's bits. */
	u32 per_word = w->pipe.extractor == FAIRDIE_EXT_VN ? 16 : 56;
	u32 n = (bits + per_word - 1) / per_word;

	return n < 1 ? 1 : n > FD_WELL_CHUNK ? FD_WELL_CHUNK : n;
}

/**
 * fd_well_feed() - raw words a reader fetched, into the well
 * @w: the well, after fd_well_begin()
 * @words: the words, in the order the source gave them
 * @n: how many
 *
 * Return: 0, or -EIO when they fail the health tests: the well is then
 * latched (@w->epoch counts it) and emptied.
 */
int fd_well_feed(struct fd_well *w, const u64 *words, u32 n)
{
	u32 startup = w->pipe.startup_words;
	int err = fd_pipe_feed_words(&w->pipe, words, n);

	w->startup_bits += 64ULL * (startup - w->pipe.startup_words);

	if (err) {
		w->epoch++;
		fd_well_discard(w);
	}
	return err;
}

/**
 * fd_well_take() - fair bits for a reader
 * @w: the well, after fd_well_begin()
 * @p: the reader's pipeline: up to @p->want_bits go into its pool
 *
 * The reader's counters take what it took: fair bits count as extracted
 * bits and as the raw bits they cost at the well's rate so far (raw bits
 * taken from the source beyond its start-up tests, per fair bit made, the
 * fraction carried to the next take); a DIJKSTRA well's raw bits count as
 * raw bits.
 *
 * Return: how many bits were moved.
 */
u32 fd_well_take(struct fd_well *w, struct fd_pipe *p)
{
	u32 n = fd_pipe_take(&w->pipe, &p->pool, p->want_bits);
	u64 made = w->pipe.extracted_bits, rem;
	u64 raw = w->pipe.source_bits - w->startup_bits;

	if (w->pipe.extractor == FAIRDIE_EXT_DIJKSTRA || !made) {
		p->source_bits += n;
		return n;
	}
	/*
	 * The start-up tests are the device's, not charged to a reader (at
	 * the rate so far they would be, again and again); the remainder
	 * carries to the next take, so that no rounding adds up.
	 */
	p->extracted_bits += n;
	p->source_bits += (u64)fd_div128((fd_u128)n * raw + p->cost_rem, made,
					 &rem);
	p->cost_rem = rem;
	return n;
}

/**
 * fd_well_giveback() - a reader's unused bits back to the well
 * @w: the well
 * @c: the reader's record of it
 * @generation: the caller's current generation
 * @p: the reader's pipeline; its pool and sampler state are emptied
 *
 * Only bits of the well's current life go back: not after a health
 * failure, nor when @c's state or the well's bits were made in another
 * generation than @generation; they are wiped then.
 *
 * Return: whether they went back.
 */
bool fd_well_giveback(struct fd_well *w, const struct fd_well_client *c,
		      u32 generation, struct fd_pipe *p)
{
	bool ok = c->epoch == w->epoch && w->started && !w->pipe.failed &&
		  c->generation == generation && w->generation == generation;

	if (ok)
		fd_pipe_giveback(p, &w->pipe.pool);
	fd_pool_clear(&p->pool);
	fd_sampler_reset(&p->sampler);
	return ok;
}

/**
 * fd_well_flush() - a reader discards everything it holds, and moves to
 *	@generation
 * @w: the well it takes from, or NULL for a pipeline of its own
 * @c: its record of @w (of its state's generation, with no well)
 * @generation: the caller's current generation
 * @p: its pipeline: pool, sampler state, extractor state
 * @sides: the number of faces it rolls from now on
 * @extractor: its extractor from now on
 *
 * The one place where a reader's generation moves: its unused bits go back
 * to @w when they are of @generation (fd_well_giveback()), and are wiped
 * otherwise, and the pipeline is set up for @sides and @extractor, empty.
 * So everything a reader holds was made in its generation: what a VM fork
 * made stale is never taken from, fed, handed out or given back, only
 * flushed. The caller discards what it made from the pipeline (staged
 * output) with it.
 *
 * Return: whether its bits went back to @w.
 */
bool fd_well_flush(struct fd_well *w, struct fd_well_client *c,
		   u32 generation, struct fd_pipe *p, u64 sides, u32 extractor)
{
	bool back = false;

	if (w)
		back = fd_well_giveback(w, c, generation, p);
	fd_pipe_configure(p, sides, extractor);
	c->generation = generation;
	return back;
}

/**
 * fd_well_level() - fair bits the well holds for its readers
 * @w: the well
 *
 * Return: how many.
 */
u32 fd_well_level(const struct fd_well *w)
{
	u32 n = w->pipe.pool.count;

	if (w->pipe.extractor == FAIRDIE_EXT_PERES && w->pipe.peres)
		n += fd_peres_pending(w->pipe.peres);
	return n;
}
