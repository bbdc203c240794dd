// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the queue of a well: fair between parties, then between a
 * party's readers. Below it the well's pipeline (fd_well.c), which it
 * hands bits from; beside it the policy's heap and rate (fd_share.c).
 *
 * Readers that find the well without the bits they want wait until their
 * read ends. Every bit fed in goes, whoever fetched it, to the party whose
 * readers received the fewest bits (its @vt, counted from about the well's
 * clock when it started waiting), and within that party to the waiting
 * reader that received the fewest (its @received, counted from about the
 * party's clock): two levels of fair queuing, as CFS does with run time and
 * group scheduling. A party with 16 readers waiting is one party: it gets
 * what a party with one gets, and its readers share it. Each level keeps a
 * heap (the parties of the well, the readers of a party) of those waiting
 * and not served since they came, so a turn costs O(log n) steps, n the
 * readers waiting.
 *
 * A reader served keeps its place, moved by what it received; it is not
 * served again until it comes back for more (fd_well_enter()), or stops
 * waiting when its read ends having taken bits.
 * A reader away (making its rolls, or back in userspace after a nonblocking
 * read that found nothing) at the head of the queue holds the bits for it:
 * it is told (its @notify), and the others wait. One back in userspace
 * loses its place FD_WELL_AWAY_NS after it left, or after the first reader
 * away held the others back, whichever is earlier: readers present are
 * never held back longer than that by readers back in userspace, however
 * many come in a row. One served and still first, in its read (woken, it
 * waits for a CPU, then makes its rolls), holds the bits FD_WELL_ROLLS_NS
 * from its turn or from when it left at most, then loses its place:
 * without that wait a reader that sleeps would lose its turns to one that
 * spins. While the bits wait so, the readers present fetch ahead, up to
 * the well's room (fd_well_need()): the wait delays their turns, it does
 * not idle the source.
 */

#include "fd_queue.h"

static void fd_share_node(struct fd_well *w, struct fd_heap_node *n, u64 key)
{
	n->key = key;
	n->seq = w->seq++;
}

/*
 * Credit kept by a reader that starts waiting again, last served at
 * @since: the turns it missed while the machine kept it away, or a little
 * after it was idle.
 */
static u64 fd_share_lag(u64 since, u64 now)
{
	return now - since < FD_WELL_RETURN_NS ? FD_WELL_LAG_BITS :
						 FD_WELL_SLACK_BITS;
}

/* A party's first reader starts waiting: the party counts from the clock. */
static void fd_share_party_wait(struct fd_well *w, struct fd_share_party *pt)
{
	if (!pt->taken_before)
		pt->vt = w->vclock + FD_WELL_DEBIT_BITS;
	else if (pt->vt + FD_WELL_SLACK_BITS < w->vclock)
		pt->vt = w->vclock - FD_WELL_SLACK_BITS;
	fd_share_node(w, &pt->node, pt->vt);
	fd_heap_insert(&w->parties, &pt->node);
	pt->in_heap = true;
}

/* @c goes into its party's heap, and the party into the well's. */
static void fd_share_push(struct fd_well *w, struct fd_well_client *c)
{
	struct fd_share_party *pt = c->party;

	fd_share_node(w, &c->node, c->received);
	fd_heap_insert(&pt->clients, &c->node);
	c->in_heap = true;
	if (!pt->in_heap)
		fd_share_party_wait(w, pt);
}

/* @c out of its party's heap; the party out of the well's if none is left. */
static void fd_share_pull(struct fd_well *w, struct fd_well_client *c)
{
	struct fd_share_party *pt = c->party;

	if (!c->in_heap)
		return;
	fd_heap_remove(&pt->clients, &c->node);
	c->in_heap = false;
	if (!pt->clients.root && pt->in_heap) {
		fd_heap_remove(&w->parties, &pt->node);
		pt->in_heap = false;
	}
}

/**
 * fd_well_enter() - a reader starts a read: it waits for bits
 * @w: the well, after fd_well_begin()
 * @c: the reader, joined to @w
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
	struct fd_share_party *pt = c->party;

	c->present = true;
	c->pipe = p;
	WRITE_ONCE(c->served, false);
	if (c->queued) {
		w->demand -= c->want;
	} else {
		/*
		 * Credit for the turns the machine kept it from, little for
		 * time idle, and a debit for a reader new to the well (CFS's
		 * START_DEBIT).
		 */
		if (!c->taken_before)
			c->received = pt->clock + FD_WELL_DEBIT_BITS;
		else if (c->received + fd_share_lag(c->served_at, now) <
			 pt->clock)
			c->received = pt->clock -
				      fd_share_lag(c->served_at, now);
		c->since = now;
		c->queued = true;
	}
	if (!c->in_heap)
		fd_share_push(w, c);
	c->want = p->want_bits;
	w->demand += c->want;
}

/**
 * fd_well_leave() - a reader stops taking bits for now, served or not
 * @w: the well
 * @c: the reader
 * @now: the time, in ns
 *
 * It keeps its place until its read ends (fd_well_end_read()), away: one
 * served goes back into its party's heap, so that while it makes its rolls
 * its turn still comes (and its party's, which stays waiting). Bits held
 * for it wait FD_WELL_AWAY_NS from now at most.
 */
void fd_well_leave(struct fd_well *w, struct fd_well_client *c, u64 now)
{
	c->present = false;
	c->pipe = NULL;
	WRITE_ONCE(c->served, false);
	WRITE_ONCE(c->notified, false);
	c->since = now;
	if (c->queued && !c->in_heap)
		fd_share_push(w, c);
}

/**
 * fd_well_dequeue() - a reader stops waiting
 * @w: the well
 * @c: the reader, waiting or not
 */
void fd_well_dequeue(struct fd_well *w, struct fd_well_client *c)
{
	if (!c->queued)
		return;
	fd_share_pull(w, c);
	w->demand -= c->want;
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
 * When @c, away, loses its place: a reader in a read that took bits (it
 * waits for a CPU, or makes its rolls) FD_WELL_ROLLS_NS after it was
 * served or left; one back in userspace
 * FD_WELL_AWAY_NS after it left or after the first reader away held the
 * others back, whichever is earlier.
 */
static u64 fd_share_away_end(const struct fd_well *w,
			     const struct fd_well_client *c)
{
	u64 from = c->since;

	if (c->took)
		return c->since + FD_WELL_ROLLS_NS;
	if (w->holding && w->hold_start < from)
		from = w->hold_start;
	return from + FD_WELL_AWAY_NS;
}

/* Whether @c, away, has held the others back long enough. */
static bool fd_share_away_over(const struct fd_well *w,
			       const struct fd_well_client *c, u64 now)
{
	return now >= fd_share_away_end(w, c);
}

/*
 * The reader whose turn is next: the first of the first party. On the way,
 * readers of a past epoch (the well failed since they joined) and readers
 * away too long stop waiting.
 */
static struct fd_well_client *fd_share_head(struct fd_well *w, u64 now)
{
	struct fd_well_client *c;

	while (w->parties.root) {
		struct fd_share_party *pt = container_of(w->parties.root,
							 struct fd_share_party,
							 node);

		c = container_of(pt->clients.root, struct fd_well_client, node);
		if (c->epoch != w->epoch ||
		    ((!c->present || c->served) &&
		     fd_share_away_over(w, c, now))) {
			fd_well_dequeue(w, c);
			continue;
		}
		return c;
	}
	return NULL;
}

/*
 * Bits to a present reader, counted; nothing moves only if its pool is
 * full. It keeps its place, moved by what it received, and its party's:
 * served, it is not served again until it comes back for more, and while
 * it is first, the bits wait for it (it makes its rolls).
 */
static void fd_well_hand(struct fd_well *w, struct fd_well_client *c, u64 now)
{
	struct fd_share_party *pt = c->party;
	u32 n = fd_well_take(w, c->pipe);

	if (w->vclock < pt->vt)
		w->vclock = pt->vt;
	if (pt->clock < c->received)
		pt->clock = c->received;
	fd_heap_remove(&pt->clients, &c->node);
	c->received += n;
	fd_share_node(w, &c->node, c->received);
	fd_heap_insert(&pt->clients, &c->node);
	fd_heap_remove(&w->parties, &pt->node);
	pt->vt += n;
	pt->taken_before = true;
	fd_share_node(w, &pt->node, pt->vt);
	fd_heap_insert(&w->parties, &pt->node);
	c->since = now;
	c->served_at = now;
	c->taken_before = true;
	WRITE_ONCE(c->took, true);
	WRITE_ONCE(c->served, true);
}

/**
 * fd_well_serve() - hand the bits held to the waiting readers
 * @w: the well, after fd_well_begin()
 * @now: the time, in ns
 *
 * The reader whose turn is next (fd_share_head()) goes first: if it is
 * present, it takes up to what it asks for and is told (its @notify); then
 * the next one. It keeps its place, but is served again only once it came
 * back for more (fd_well_enter()). When the first is away, the bits wait
 * for it, and it is told once; @w->holding is then set and @w->hold_until
 * says when to serve again, as it loses its place then.
 *
 * Return: how many readers were served.
 */
u32 fd_well_serve(struct fd_well *w, u64 now)
{
	struct fd_well_client *c;
	u32 served = 0;

	while ((c = fd_share_head(w, now))) {
		/* Away, or served and not back yet: the bits wait for it. */
		if (!c->present || c->served) {
			if (!w->holding) {
				w->holding = true;
				w->hold_start = now;
			}
			w->hold_until = fd_share_away_end(w, c);
			if (!c->present && c->notify && !c->notified &&
			    fd_well_level(w) >= fd_well_batch(c)) {
				WRITE_ONCE(c->notified, true);
				c->notify(c);
			}
			return served;
		}
		if (fd_well_level(w) < fd_well_batch(c))
			break;
		fd_well_hand(w, c, now);
		served++;
		if (c->notify)
			c->notify(c);
	}
	w->holding = false;
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
	if (!c->in_heap || !c->present || c->served || !fd_well_level(w) ||
	    c->epoch != w->epoch || fd_share_head(w, now) != c)
		return false;
	fd_well_hand(w, c, now);
	return true;
}

/**
 * fd_well_first() - whether a reader's turn is next
 * @w: the well
 * @c: the reader
 *
 * Return: true when @c is the first of the first party, O(1).
 */
bool fd_well_first(const struct fd_well *w, const struct fd_well_client *c)
{
	const struct fd_share_party *pt;

	if (!w->parties.root || !c->in_heap)
		return false;
	pt = container_of(w->parties.root, struct fd_share_party, node);
	return pt->clients.root == &c->node;
}

/**
 * fd_well_need() - fair bits the waiting readers want beyond what is held
 * @w: the well
 *
 * While the bits wait for a reader away or in its read (@w->holding),
 * every bit the well has room for is wanted: the readers present fetch
 * ahead meanwhile, and are served from what gathered once it is back or
 * lost its place. Without that, the source stood idle through each wait
 * (in the VM's well.share the well held its bits for a reader more than
 * half of the time).
 *
 * Return: how many; a reader fetches raw words for them
 * (fd_well_words()), and waits for its turn when there are none.
 */
u32 fd_well_need(const struct fd_well *w)
{
	u64 level = fd_well_level(w), need;

	if (!w->holding && w->demand <= level)
		return 0;
	need = w->holding ? fd_pool_room(&w->pipe.pool) : w->demand - level;
	/* Not more than the pool takes: words beyond it would be dropped. */
	if (w->pipe.extractor != FAIRDIE_EXT_PERES &&
	    need > fd_pool_room(&w->pipe.pool))
		need = fd_pool_room(&w->pipe.pool);
	return need > ~0U ? ~0U : (u32)need;
}

/* The next node of a heap in preorder, NULL after the last. */
static struct fd_heap_node *fd_heap_next(struct fd_heap_node *n)
{
	if (n->left)
		return n->left;
	if (n->right)
		return n->right;
	for (; n->parent; n = n->parent)
		if (n->parent->left == n && n->parent->right)
			return n->parent->right;
	return NULL;
}

/**
 * fd_well_notify_all() - call the @notify of every reader waiting
 * @w: the well
 *
 * O(n): for the rare events every waiter must hear of (a health failure,
 * a VM fork), never for a turn. A @notify must not change the queue.
 */
void fd_well_notify_all(struct fd_well *w)
{
	struct fd_heap_node *pn, *cn;

	for (pn = w->parties.root; pn; pn = fd_heap_next(pn)) {
		struct fd_share_party *pt = container_of(pn,
							 struct fd_share_party,
							 node);

		for (cn = pt->clients.root; cn; cn = fd_heap_next(cn)) {
			struct fd_well_client *c;

			c = container_of(cn, struct fd_well_client, node);
			if (c->notify)
				c->notify(c);
		}
	}
}
