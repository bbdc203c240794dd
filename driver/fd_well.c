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
 * Sharing: readers that find the well without the bits they want wait in a
 * queue until their read ends, and what is fed in goes to the waiting
 * reader that received the fewest bits so far (counted from when it
 * started waiting, little less than the others were: fair queuing, as CFS
 * does with run time), up to what it asks for at a time; whoever fetched
 * the words. So readers get equal shares, and a reader that spins on
 * nonblocking reads cannot take the share of one that sleeps. Bits held
 * for a reader that is away (making its rolls, or back in userspace after
 * a nonblocking read that found none) wait FD_WELL_TURN_NS for it at
 * most; then the next reader is served and the one away stops waiting.
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
 * @c: the reader's record of it
 *
 * A reader that joins after a health failure restarts the well, with a
 * fresh start-up test, when it first takes from it. Its generation is its
 * own state's, and stays: only fd_well_flush() moves it.
 */
void fd_well_join(struct fd_well *w, struct fd_well_client *c)
{
	c->epoch = w->epoch;
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

/* Fair bits the well holds for its readers. */
static u32 fd_well_level(const struct fd_well *w)
{
	u32 n = w->pipe.pool.count;

	if (w->pipe.extractor == FAIRDIE_EXT_PERES && w->pipe.peres)
		n += fd_peres_pending(w->pipe.peres);
	return n;
}

/**
 * fd_well_enter() - a reader starts a read: it waits for bits
 * @w: the well, after fd_well_begin()
 * @c: the reader
 * @p: its pipeline; bits served to it go into its pool, up to
 *	@p->want_bits at a time
 * @now: the time, in ns
 *
 * A reader already waiting keeps its place; it is present until
 * fd_well_leave(), and only a present reader is served.
 */
void fd_well_enter(struct fd_well *w, struct fd_well_client *c,
		   struct fd_pipe *p, u64 now)
{
	c->present = true;
	c->pipe = p;
	WRITE_ONCE(c->served, false);
	if (c->queued) {
		w->demand -= c->want;
	} else {
		/*
		 * Little credit for the time it did not wait, and a debit for
		 * a reader new to the well (CFS's START_DEBIT).
		 */
		if (!c->taken_before)
			c->received = w->vclock + FD_WELL_DEBIT_BITS;
		else if (c->received + FD_WELL_SLACK_BITS < w->vclock)
			c->received = w->vclock - FD_WELL_SLACK_BITS;
		c->since = now;
		c->next = NULL;
		c->queued = true;
		if (w->tail)
			w->tail->next = c;
		else
			w->head = c;
		w->tail = c;
	}
	c->want = p->want_bits;
	w->demand += c->want;
}

/**
 * fd_well_leave() - a reader stops taking bits for now, served or not
 * @c: the reader
 * @now: the time, in ns
 *
 * It keeps its place until its read ends (fd_well_end_read()); bits held
 * for it wait FD_WELL_TURN_NS from now.
 */
void fd_well_leave(struct fd_well_client *c, u64 now)
{
	c->present = false;
	c->pipe = NULL;
	WRITE_ONCE(c->served, false);
	WRITE_ONCE(c->notified, false);
	c->since = now;
}

/**
 * fd_well_dequeue() - a reader stops waiting
 * @w: the well
 * @c: the reader, waiting or not
 */
void fd_well_dequeue(struct fd_well *w, struct fd_well_client *c)
{
	struct fd_well_client **pp, *prev = NULL;

	if (!c->queued)
		return;
	for (pp = &w->head; *pp != c; pp = &(*pp)->next) {
		if (FD_WARN_ON(!*pp))
			return;
		prev = *pp;
	}
	*pp = c->next;
	if (w->tail == c)
		w->tail = prev;
	w->demand -= c->want;
	c->next = NULL;
	c->queued = false;
}

/**
 * fd_well_end_read() - a reader's read ends
 * @w: the well
 * @c: the reader
 *
 * A reader that took bits during the read stops waiting: its turn is over.
 * One that found none (a nonblocking read) keeps its place.
 */
void fd_well_end_read(struct fd_well *w, struct fd_well_client *c)
{
	if (c->took)
		fd_well_dequeue(w, c);
	WRITE_ONCE(c->took, false);
}

/*
 * Bits the reader waits for before it is served: what it asks for, or a
 * batch of a long read's. Handed a word at a time, a reader that must wake
 * up, make its rolls and come back for each would get less than one that
 * is away while the bits gather for it.
 */
static u32 fd_well_batch(const struct fd_well_client *c)
{
	return c->want < FD_WELL_BATCH_BITS ? c->want : FD_WELL_BATCH_BITS;
}

/*
 * The waiting reader that received the fewest bits, the first of equals;
 * not one served that has not come back for more. On the way, readers of
 * a past epoch (the well failed since they joined) and readers away for
 * FD_WELL_TURN_NS stop waiting: one pass over the queue does all its
 * cleaning.
 */
static struct fd_well_client *fd_well_next(struct fd_well *w, u64 now)
{
	struct fd_well_client **pp = &w->head, *c, *prev = NULL, *best = NULL;

	while ((c = *pp)) {
		if (c->epoch != w->epoch ||
		    (!c->present && now - c->since >= FD_WELL_TURN_NS)) {
			*pp = c->next;
			if (w->tail == c)
				w->tail = prev;
			w->demand -= c->want;
			c->next = NULL;
			c->queued = false;
			continue;
		}
		if (!c->served && (!best || c->received < best->received))
			best = c;
		prev = c;
		pp = &c->next;
	}
	return best;
}

/* Bits to a present reader, counted; nothing moves only if its pool is full. */
static void fd_well_hand(struct fd_well *w, struct fd_well_client *c)
{
	u32 n = fd_well_take(w, c->pipe);

	if (w->vclock < c->received)
		w->vclock = c->received;
	c->received += n;
	c->taken_before = true;
	WRITE_ONCE(c->took, true);
	WRITE_ONCE(c->served, true);
}

/**
 * fd_well_serve() - hand the bits held to the waiting readers
 * @w: the well, after fd_well_begin()
 * @now: the time, in ns
 *
 * The waiting reader that received the fewest bits goes first: if it is
 * present, it takes up to what it asks for and is told (its @notify); then
 * the next one. It keeps its place, but is served again only once it came
 * back for more (fd_well_enter()). A reader whose epoch is past (the well
 * failed since it joined) stops waiting, unserved. When the first is away,
 * the bits wait for it, and it is told once; away for FD_WELL_TURN_NS, it
 * stops waiting and the next one goes first.
 *
 * Return: how many readers were served.
 */
u32 fd_well_serve(struct fd_well *w, u64 now)
{
	struct fd_well_client *c;
	u32 served = 0;

	while ((c = fd_well_next(w, now))) {
		if (!c->present) {
			if (fd_well_level(w) >= fd_well_batch(c) &&
			    c->notify && !c->notified) {
				WRITE_ONCE(c->notified, true);
				c->notify(c);
			}
			break;
		}
		if (fd_well_level(w) < fd_well_batch(c))
			break;
		fd_well_hand(w, c);
		served++;
		if (c->notify)
			c->notify(c);
	}
	return served;
}

/**
 * fd_well_serve_early() - a reader that stops waiting takes what is there
 * @w: the well, after fd_well_begin()
 * @c: the reader, present
 * @now: the time, in ns
 *
 * A reader that cannot wait for a whole batch (a nonblocking read whose
 * source underflows, a read at its deadline) takes what the well holds, if
 * its turn is next.
 *
 * Return: whether it was served.
 */
bool fd_well_serve_early(struct fd_well *w, struct fd_well_client *c,
			 u64 now)
{
	if (!c->queued || !c->present || c->served || !fd_well_level(w) ||
	    c->epoch != w->epoch || fd_well_next(w, now) != c)
		return false;
	fd_well_hand(w, c);
	return true;
}

/**
 * fd_well_need() - fair bits the waiting readers want beyond what is held
 * @w: the well
 *
 * Return: how many; a reader fetches raw words for them
 * (fd_well_words()), and waits for its turn when there are none.
 */
u32 fd_well_need(const struct fd_well *w)
{
	u64 level = fd_well_level(w), need;

	if (w->demand <= level)
		return 0;
	need = w->demand - level;
	/* Not more than the pool takes: words beyond it would be dropped. */
	if (w->pipe.extractor != FAIRDIE_EXT_PERES &&
	    need > fd_pool_room(&w->pipe.pool))
		need = fd_pool_room(&w->pipe.pool);
	return need > ~0U ? ~0U : (u32)need;
}
