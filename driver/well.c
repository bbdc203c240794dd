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
 * next reader. While the source underflows, no more blocking readers try it
 * than there are CPUs, besides the one whose turn is next; the others sleep
 * until served or given a place to fetch (fairdie_well_fetchers()). A
 * closing file gives its unused fair bits and its recycled state back
 * (fd_pipe_giveback()). Disjoint bits of one stream of fair
 * bits are independent whoever reads them, so every file's rolls stay
 * exact: see Documentation/design/fairdie.rst, "The wells".
 *
 * The start-up test runs once per well: when it is first used and after
 * each health failure. A failure latches the well: every reader that was
 * using it gets EIO (once: its next read rejoins the well, main.c),
 * and the well restarts, with a fresh start-up test, for the first reader
 * that joined it after the failure (a file opened or reset since).
 *
 * A VM fork (vmgenid) discards every well's bits before the next use, and
 * every reader's before it takes or gives back again (fairdie_well_flush()).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "fairdie.h"
#include "fd_retry.h"
#include "fd_queue.h"

/**
 * struct fairdie_well - a well of the module
 * @lock: serialises the well; never held while the source is asked
 * @index: which of the wells it is, for the parties' records
 * @well: the pipeline, its bits and its queue of readers
 * @hold_timer: fires when a reader away loses its place
 *	(@well.hold_until), to serve the readers it held back
 * @hold_work: serves them, the lock taken (the timer cannot take it)
 * @hold_armed: when @hold_timer is armed for, 0 if it is not
 * @fetching: readers that hold a place to fetch raw words
 *	(fairdie_well_fetchers() at most)
 * @idle: readers asleep in fairdie_well_fill() without such a place, the
 *	last to sleep first
 * @dry_until: the source counts as underflowing until then (ns)
 */
struct fairdie_well {
	struct mutex lock;	/* protects every field below */
	u32 index;
	struct fd_well well;
	struct hrtimer hold_timer;
	struct work_struct hold_work;
	u64 hold_armed;
	u32 fetching;
	struct fd_well_client *idle;
	u64 dry_until;
};

/* Wells of RDSEED and RDRAND, for each extractor. */
static struct fairdie_well fairdie_wells[2][FD_EXTRACTORS];
/* Peres' state of the two PERES wells, never allocated. */
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

/**
 * fairdie_well_join() - start using a well (again)
 * @w: the well
 * @client: the reader's record of it, in no well's queue
 * @party: the reader's party (driver/share.c); NULL for the well's own
 *
 * A reader that joins after a health failure restarts the well, with a
 * fresh start-up test, when it first takes from it. It starts on the
 * well's clock, and shares its party's place.
 */
void fairdie_well_join(struct fairdie_well *w, struct fd_well_client *client,
		       struct fairdie_party *party)
{
	mutex_lock(&w->lock);
	fd_well_join(&w->well, client, fairdie_party_sched(party, w->index));
	mutex_unlock(&w->lock);
}

/* The well failed its health tests: say so, once per failure. */
static void fairdie_well_failed(struct fairdie_well *w, u32 source)
{
	atomic64_inc(&fairdie_counters.health_failures);
	pr_warn_ratelimited("%s source failed the %s test (well %s, pid %d); its readers get EIO\n",
			    fairdie_source_name(source),
			    fd_health_name(w->well.pipe.failure),
			    fairdie_extractor_name(w->well.pipe.extractor),
			    task_pid_nr(current));
}

/**
 * fairdie_well_wake() - wake a reader waiting in a well, if it is in a read
 * @c: the reader; its @waiter is the task in fairdie_well_fill()
 *
 * The one way a waiting reader is woken: its turn came (the well's
 * @notify of a reader served, called with the well's lock held after
 * @served was set), or the well failed or changed generation
 * (fairdie_well_kick()). The reader sets its task state before it reads
 * @served, so the wake-up cannot be lost.
 */
void fairdie_well_wake(struct fd_well_client *c)
{
	if (c->present && c->waiter)
		wake_up_process(c->waiter);
}

/*
 * How long a well's source counts as underflowing after a word asked
 * without a nap was refused.
 */
#define FAIRDIE_WELL_DRY_NS	(10 * NSEC_PER_MSEC)

/*
 * Blocking readers that fetch raw words for a well at once while its source
 * underflows: one per CPU, and the reader whose turn is next whatever the
 * count (fd_well_first()). The others sleep until they are served or
 * called to fetch; a place is held only while its reader tries the
 * instruction, not while it naps. A nonblocking reader needs no place: it
 * would spin in userspace otherwise. Were every waiting reader to spin on
 * the instruction,
 * the CPUs would go to the readers in proportion to their number: a reader
 * served would wait behind a party's 16 spinning files for a CPU to make
 * its rolls and come back, and its party's turns would go to those present
 * meanwhile. A source that gives words at once costs little CPU a word:
 * then every reader fetches, and none waits for a wake-up.
 */
static u32 fairdie_well_fetchers(const struct fairdie_well *w)
{
	if (ktime_get_ns() >= w->dry_until)
		return U32_MAX;
	return num_online_cpus();
}

static void fairdie_well_idle_add(struct fairdie_well *w,
				  struct fd_well_client *c)
{
	c->idle_next = w->idle;
	if (w->idle)
		w->idle->idle_pprev = &c->idle_next;
	w->idle = c;
	c->idle_pprev = &w->idle;
}

static void fairdie_well_idle_del(struct fd_well_client *c)
{
	if (!c->idle_pprev)
		return;
	*c->idle_pprev = c->idle_next;
	if (c->idle_next)
		c->idle_next->idle_pprev = c->idle_pprev;
	c->idle_next = NULL;
	c->idle_pprev = NULL;
}

/* A reader gives back its place to fetch. */
static void fairdie_well_unfetch(struct fairdie_well *w,
				 struct fd_well_client *c)
{
	if (!c->fetcher)
		return;
	WRITE_ONCE(c->fetcher, false);
	w->fetching--;
}

/*
 * While the waiting readers want bits beyond those held and a place to
 * fetch is free, a reader asleep takes it and is woken, the last to sleep
 * first (the first to sleep likely has its turn soonest): O(1) a place.
 */
static void fairdie_well_call_fetchers(struct fairdie_well *w)
{
	struct fd_well_client *c;

	lockdep_assert_held(&w->lock);
	while (w->idle && w->fetching < fairdie_well_fetchers(w) &&
	       fd_well_need(&w->well)) {
		c = w->idle;
		fairdie_well_idle_del(c);
		WRITE_ONCE(c->fetcher, true);
		w->fetching++;
		fairdie_well_wake(c);
	}
}

/*
 * Serve the waiting readers (each is woken by its @notify); when a reader
 * away holds the others back, serve again when it loses its place. Then
 * call readers asleep to fetch, if bits are wanted.
 */
static u32 fairdie_well_serve(struct fairdie_well *w)
{
	u32 served = fd_well_serve(&w->well, ktime_get_ns());

	lockdep_assert_held(&w->lock);
	if (w->well.holding && w->hold_armed != w->well.hold_until) {
		w->hold_armed = w->well.hold_until;
		hrtimer_start(&w->hold_timer, ns_to_ktime(w->hold_armed),
			      HRTIMER_MODE_ABS);
	}
	fairdie_well_call_fetchers(w);
	return served;
}

/*
 * The queue changed (a reader left it) or bits came back: serve the
 * waiting readers now rather than at their next look. Not before the well
 * started, after a failure or across a VM fork: then every reader waiting
 * is woken, and the next reader's fd_well_begin() deals with it.
 */
static void fairdie_well_kick(struct fairdie_well *w)
{
	lockdep_assert_held(&w->lock);
	if (w->well.started && !w->well.pipe.failed &&
	    w->well.generation == fairdie_vmfork_generation())
		fairdie_well_serve(w);
	else
		fd_well_notify_all(&w->well);
}

static enum hrtimer_restart fairdie_well_hold_end(struct hrtimer *t)
{
	struct fairdie_well *w = container_of(t, struct fairdie_well,
					      hold_timer);

	queue_work(system_highpri_wq, &w->hold_work);
	return HRTIMER_NORESTART;
}

static void fairdie_well_hold_work(struct work_struct *work)
{
	struct fairdie_well *w = container_of(work, struct fairdie_well,
					      hold_work);

	mutex_lock(&w->lock);
	w->hold_armed = 0;
	fairdie_well_kick(w);
	mutex_unlock(&w->lock);
}

/*
 * Until its turn comes (@client->served), it is called to fetch
 * (@client->fetcher), a signal, the deadline of its read
 * (@client->wake_at) or a kick of the well: never a tick.
 */
static void fairdie_well_sleep(struct fd_well_client *client)
{
	ktime_t until = ns_to_ktime(client->wake_at);

	set_current_state(TASK_INTERRUPTIBLE);
	if (READ_ONCE(client->served) || READ_ONCE(client->fetcher) ||
	    signal_pending(current)) {
		__set_current_state(TASK_RUNNING);
		return;
	}
	if (client->wake_at)
		schedule_hrtimeout_range(&until, 100 * NSEC_PER_USEC,
					 HRTIMER_MODE_ABS);
	else
		schedule();
	__set_current_state(TASK_RUNNING);
}

/* A reader leaves the well's queue: the turns of those after it come. */
static void fairdie_well_quit(struct fairdie_well *w,
			      struct fd_well_client *client)
{
	lockdep_assert_held(&w->lock);
	fd_well_leave(&w->well, client, ktime_get_ns());
	fd_well_dequeue(&w->well, client);
	fairdie_well_kick(w);
}

/*
 * A reader that gave up its place to fetch rests FD_HW_NAP_US, or until
 * its turn comes or a signal, holding no CPU.
 */
static void fairdie_well_nap(struct fd_well_client *client)
{
	ktime_t nap = ns_to_ktime(FD_HW_NAP_US * NSEC_PER_USEC);

	set_current_state(TASK_INTERRUPTIBLE);
	if (!READ_ONCE(client->served) && !signal_pending(current))
		schedule_hrtimeout_range(&nap, FD_HW_NAP_US * NSEC_PER_USEC,
					 HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
}

/*
 * One round of raw words for the readers' turns, fetched without the lock
 * (several readers run the instruction at once on their CPUs); the fetch
 * stops early once the reader's own turn came. Each word is first asked for
 * without a nap. When the source underflows, a nonblocking reader returns;
 * the blocking reader whose turn is next asks again at once, so that it is
 * on a CPU when its bits come. Another gives up its place, calls a reader
 * asleep to take it and naps; it goes on only if a place is free
 * again (places held through naps left the CPUs idle: a quarter of the
 * throughput in the VM). Once the source gave it nothing for
 * FD_HW_SILENT_US / 2 (over any number of rounds), it waits in the source
 * as a lone reader does, where a source silent for everyone fails. Words
 * fetched ahead on another CPU (driver/ahead.c) come first.
 */
static u32 fairdie_well_fetch(struct fairdie_well *w,
			      struct fd_well_client *client, u32 source,
			      const struct fd_source_ops *raw, void *ctx,
			      bool nonblock, u64 *buf, u32 k, int *serr)
{
	bool more = true, pass;
	u64 now;
	u32 n;

	*serr = 0;
	n = fairdie_ahead_take(source, &client->served, nonblock, buf, k);
	if (n) {
		client->dry_since = 0;
		atomic64_add(64ULL * n, &fairdie_counters.source_bits);
		return n;
	}
	for (n = 0; more && n < k && !READ_ONCE(client->served); n++) {
		for (;;) {
			*serr = raw->word(ctx, true, &buf[n]);
			if (!*serr)
				client->dry_since = 0;
			if (*serr != -EAGAIN)
				break;
			now = ktime_get_ns();
			mutex_lock(&w->lock);
			w->dry_until = now + FAIRDIE_WELL_DRY_NS;
			if (nonblock) {
				mutex_unlock(&w->lock);
				break;
			}
			if (!client->dry_since)
				client->dry_since = now;
			pass = now - client->dry_since < FD_HW_SILENT_US * 500;
			/* The reader whose turn is next does not nap. */
			if (pass && fd_well_first(&w->well, client)) {
				mutex_unlock(&w->lock);
				if (READ_ONCE(client->served) ||
				    raw->interrupted(ctx)) {
					*serr = -EINTR;
					break;
				}
				cond_resched();
				continue;
			}
			if (pass) {
				fairdie_well_unfetch(w, client);
				fairdie_well_call_fetchers(w);
			}
			mutex_unlock(&w->lock);
			if (!pass) {
				*serr = raw->word(ctx, false, &buf[n]);
				break;
			}
			fairdie_well_nap(client);
			if (READ_ONCE(client->served) || raw->interrupted(ctx)) {
				*serr = -EINTR;
				break;
			}
			mutex_lock(&w->lock);
			more = w->fetching < fairdie_well_fetchers(w) ||
			       fd_well_first(&w->well, client);
			if (more) {
				client->fetcher = true;
				w->fetching++;
			}
			mutex_unlock(&w->lock);
			if (!more) {
				/* It waits for a place asleep. */
				*serr = 0;
				break;
			}
		}
		if (*serr || !more)
			break;
	}
	atomic64_add(64ULL * n, &fairdie_counters.source_bits);
	return n;
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
 * The reader waits in the well's queue for its turn (fd_well_serve()).
 * While the well holds less than the queue wants, or its bits wait for a
 * reader away (fd_well_need()), it fetches raw words and feeds them in; the
 * bits go to whoever's turn it is. A blocking reader waits for its turn; a
 * nonblocking one returns -EAGAIN, keeping its place, once the source
 * underflows or the bits held wait for another reader.
 *
 * Return: 0 once at least one bit was added; -ESTALE when a VM fork came
 * since @client's state was made (the caller flushes it with
 * fairdie_well_flush(), and may try again); -EIO with @p->failed set when
 * the well failed its health tests since @client joined it (or now); or
 * the source's error (-EAGAIN, -EINTR, -EIO).
 */
int fairdie_well_fill(struct fairdie_well *w, struct fd_well_client *client,
		      u32 source, const struct fd_source_ops *raw, void *ctx,
		      bool nonblock, struct fd_pipe *p)
{
	u64 buf[FD_WELL_CHUNK];
	int err = 0, serr = 0;
	u32 n, k, gen;

	mutex_lock(&w->lock);
	client->waiter = current;
	for (;;) {
		gen = fairdie_vmfork_generation();
		err = fd_well_begin(&w->well, client, gen);
		if (err)
			break;
		fd_well_enter(&w->well, client, p, ktime_get_ns());
		fairdie_well_serve(w);
		if (client->served)
			break;
		k = fd_well_need(&w->well);
		if (k && !nonblock && !client->fetcher &&
		    (w->fetching < fairdie_well_fetchers(w) ||
		     fd_well_first(&w->well, client))) {
			client->fetcher = true;
			w->fetching++;
		}
		if (!k || (!nonblock && !client->fetcher)) {
			/*
			 * The bits held wait for readers ahead, or enough
			 * readers fetch: sleep until served or called.
			 */
			fairdie_well_unfetch(w, client);
			serr = -EAGAIN;
			if (nonblock)
				break;
			fairdie_well_idle_add(w, client);
			mutex_unlock(&w->lock);
			fairdie_well_sleep(client);
			mutex_lock(&w->lock);
			fairdie_well_idle_del(client);
			serr = signal_pending(current) ||
			       raw->interrupted(ctx) ? -EINTR : 0;
			if (serr || client->served)
				break;
			continue;
		}

		/*
		 * Too little for the queue: fetch, the lock released, about
		 * what this reader asks for (the others fetch for themselves),
		 * so that its own turn does not wait for a long fetch.
		 */
		k = fd_well_words(&w->well, min(k, p->want_bits));
		mutex_unlock(&w->lock);
		if (raw->interrupted(ctx)) {
			n = 0;
			serr = -EINTR;
		} else {
			n = fairdie_well_fetch(w, client, source, raw, ctx,
					       nonblock, buf, k, &serr);
		}
		mutex_lock(&w->lock);
		err = fd_well_begin(&w->well, client,
				    fairdie_vmfork_generation());
		/* Words fetched before a VM fork are not used after it. */
		if (!err && n && gen == w->well.generation) {
			err = fd_well_feed(&w->well, buf, n);
			if (err)
				fairdie_well_failed(w, source);
		}
		memzero_explicit(buf, sizeof(buf));
		if (err) {
			/* The others waiting learn of it. */
			fd_well_notify_all(&w->well);
			break;
		}
		fairdie_well_serve(w);
		if (client->served)
			break;
		/* A nap cut short with no signal (nor deadline): go on. */
		if (serr == -EINTR && !nonblock && !raw->interrupted(ctx))
			serr = 0;
		/* A nonblocking read goes on while the source gives words. */
		if (serr)
			break;
	}

	/* Its place to fetch goes to a reader asleep, if one is wanted. */
	fairdie_well_unfetch(w, client);
	/* Giving up for now: what its turn has gathered is its. */
	if (!err && (serr == -EAGAIN || serr == -EINTR))
		fd_well_serve_early(&w->well, client, ktime_get_ns());
	/* A VM fork came: what it holds, and was handed, waits for a flush. */
	if (client->served && err != -ESTALE) {
		fd_well_leave(&w->well, client, ktime_get_ns());
		fairdie_well_call_fetchers(w);
		mutex_unlock(&w->lock);
		return 0;
	}
	/*
	 * A nonblocking reader keeps its place, if it can be told when its
	 * bits are there (the hwrng cannot: its core sleeps for seconds after
	 * an empty read); a failed one loses it.
	 */
	if (!err && serr == -EAGAIN && client->keeps_place) {
		fd_well_leave(&w->well, client, ktime_get_ns());
		fairdie_well_call_fetchers(w);
	} else {
		fairdie_well_quit(w, client);
	}
	mutex_unlock(&w->lock);
	if (!err || err == -ESTALE)
		return err ?: serr;
	p->failed = true;
	p->failure = w->well.pipe.failure;
	return -EIO;
}

/**
 * fairdie_well_step_out() - a reader gives up its place in the queue
 * @w: the well
 * @client: the reader's record of it
 *
 * For a reader that must wait for something else first (its user's
 * user_rate): the readers after it are served meanwhile.
 */
void fairdie_well_step_out(struct fairdie_well *w,
			   struct fd_well_client *client)
{
	mutex_lock(&w->lock);
	if (client->queued)
		fairdie_well_quit(w, client);
	mutex_unlock(&w->lock);
}

/**
 * fairdie_well_end_read() - a reader's read ends
 * @w: the well
 * @client: the reader's record of it
 *
 * A reader that took bits during the read stops waiting in the well's
 * queue (fd_well_end_read()); one that found none keeps its place.
 */
void fairdie_well_end_read(struct fairdie_well *w,
			   struct fd_well_client *client)
{
	/* Set only while the reader was in fairdie_well_fill(), locked. */
	if (!READ_ONCE(client->took))
		return;
	mutex_lock(&w->lock);
	fd_well_end_read(&w->well, client);
	fairdie_well_kick(w);
	mutex_unlock(&w->lock);
}

/**
 * fairdie_well_giveback() - a reader's unused bits back to its well
 * @w: the well
 * @client: the reader's record of it
 * @p: the reader's pipeline; its pool and sampler state are emptied
 *
 * Only bits of the well's current life go back: not after a health
 * failure, nor when @client's state or the well's bits were made before a
 * VM fork; they are wiped then.
 */
void fairdie_well_giveback(struct fairdie_well *w,
			   struct fd_well_client *client, struct fd_pipe *p)
{
	mutex_lock(&w->lock);
	fd_well_leave(&w->well, client, ktime_get_ns());
	fd_well_dequeue(&w->well, client);
	fd_well_giveback(&w->well, client, fairdie_vmfork_generation(), p);
	fairdie_well_kick(w);
	mutex_unlock(&w->lock);
}

/**
 * fairdie_well_flush() - discard everything a reader holds: the one way a
 *	VM fork's stale state goes
 * @w: the reader's well, or NULL for a pipeline of its own (CRNG, SIM)
 * @client: the reader's record of @w; its generation becomes the current
 *	one
 * @p: the reader's pipeline, set up empty for @sides and @extractor
 * @sides: the number of faces it rolls from now on
 * @extractor: its extractor from now on
 *
 * Unused bits go back to @w only when they and the well are of the current
 * VM generation (fd_well_flush()); otherwise they are wiped. The caller
 * discards what it made from @p (staged output) at the same time.
 */
void fairdie_well_flush(struct fairdie_well *w, struct fd_well_client *client,
			struct fd_pipe *p, u64 sides, u32 extractor)
{
	if (!w) {
		fd_well_flush(NULL, client, fairdie_vmfork_generation(), p,
			      sides, extractor);
		return;
	}
	mutex_lock(&w->lock);
	fd_well_leave(&w->well, client, ktime_get_ns());
	fd_well_dequeue(&w->well, client);
	fd_well_flush(&w->well, client, fairdie_vmfork_generation(), p, sides,
		      extractor);
	fairdie_well_kick(w);
	mutex_unlock(&w->lock);
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
			w->index = s * FD_EXTRACTORS + e;
			hrtimer_setup(&w->hold_timer, fairdie_well_hold_end,
				      CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
			INIT_WORK(&w->hold_work, fairdie_well_hold_work);
			fd_well_init(&w->well, e, e == FAIRDIE_EXT_PERES ?
				     &fairdie_well_peres[s] : NULL);
		}
	}
}

/**
 * fairdie_wells_exit() - wipe the wells
 */
void fairdie_wells_exit(void)
{
	u32 s, e;

	for (s = 0; s < ARRAY_SIZE(fairdie_wells); s++) {
		for (e = 0; e < FD_EXTRACTORS; e++) {
			struct fairdie_well *w = &fairdie_wells[s][e];

			/* No reader is left: nothing arms the timer again. */
			hrtimer_cancel(&w->hold_timer);
			cancel_work_sync(&w->hold_work);
			hrtimer_cancel(&w->hold_timer);
			mutex_destroy(&w->lock);
		}
	}
	memzero_explicit(fairdie_wells, sizeof(fairdie_wells));
	memzero_explicit(fairdie_well_peres, sizeof(fairdie_well_peres));
}
