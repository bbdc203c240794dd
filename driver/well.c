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
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>

#include "fairdie.h"
#include "fd_well.h"

/**
 * struct fairdie_well - a well of the module
 * @lock: serialises the well; never held while the source is asked
 * @well: the pipeline, its bits and its queue of readers
 * @wait: readers waiting for their turn
 */
struct fairdie_well {
	struct mutex lock;	/* protects @well */
	struct fd_well well;
	wait_queue_head_t wait;
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
 * @client: the reader's record of it
 *
 * A reader that joins after a health failure restarts the well, with a
 * fresh start-up test, when it first takes from it.
 */
void fairdie_well_join(struct fairdie_well *w, struct fd_well_client *client)
{
	mutex_lock(&w->lock);
	fd_well_join(&w->well, client);
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

/*
 * The queue changed (a reader left it) or bits came back: serve the
 * waiting readers now rather than at their next look, and wake them. Not
 * before the well started, after a failure or across a VM fork: the next
 * reader's fd_well_begin() deals with those.
 */
static void fairdie_well_kick(struct fairdie_well *w)
{
	lockdep_assert_held(&w->lock);
	if (w->well.started && !w->well.pipe.failed &&
	    w->well.generation == fairdie_vmfork_generation())
		fd_well_serve(&w->well, ktime_get_ns());
	wake_up_all(&w->wait);
}

/* A reader leaves the well's queue: the turns of those after it come. */
static void fairdie_well_quit(struct fairdie_well *w,
			      struct fd_well_client *client)
{
	lockdep_assert_held(&w->lock);
	fd_well_leave(client, ktime_get_ns());
	fd_well_dequeue(&w->well, client);
	fairdie_well_kick(w);
}

/*
 * One round of raw words for the readers' turns, fetched without the lock
 * (several readers run the instruction at once on their CPUs); the fetch
 * stops early once the reader's own turn came.
 */
static u32 fairdie_well_fetch(struct fd_well_client *client,
			      const struct fd_source_ops *raw, void *ctx,
			      bool nonblock, u64 *buf, u32 k, int *serr)
{
	u32 n;

	*serr = 0;
	for (n = 0; n < k && !READ_ONCE(client->served); n++) {
		*serr = raw->word(ctx, nonblock, &buf[n]);
		if (*serr)
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
 * While the well holds less than the queue wants, it fetches raw words and
 * feeds them in; the bits go to whoever's turn it is. A blocking reader
 * waits for its turn; a nonblocking one returns -EAGAIN, keeping its place,
 * once the source underflows or the bits held wait for another reader.
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
	long left;

	mutex_lock(&w->lock);
	for (;;) {
		gen = fairdie_vmfork_generation();
		err = fd_well_begin(&w->well, client, gen);
		if (err)
			break;
		fd_well_enter(&w->well, client, p, ktime_get_ns());
		if (fd_well_serve(&w->well, ktime_get_ns()))
			wake_up_all(&w->wait);
		if (client->served)
			break;
		k = fd_well_need(&w->well);
		if (!k) {
			/* The bits held wait for a reader ahead. */
			serr = -EAGAIN;
			if (nonblock)
				break;
			mutex_unlock(&w->lock);
			/* A tick at most: a turn held for a reader away passes. */
			left = wait_event_interruptible_timeout(w->wait,
								READ_ONCE(client->served),
								1);
			mutex_lock(&w->lock);
			serr = left < 0 || raw->interrupted(ctx) ? -EINTR : 0;
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
			n = fairdie_well_fetch(client, raw, ctx, nonblock,
					       buf, k, &serr);
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
		if (err)
			break;
		if (fd_well_serve(&w->well, ktime_get_ns()))
			wake_up_all(&w->wait);
		if (client->served)
			break;
		/* A nap cut short with no signal (nor deadline): go on. */
		if (serr == -EINTR && !nonblock && !raw->interrupted(ctx))
			serr = 0;
		/* A nonblocking read goes on while the source gives words. */
		if (serr)
			break;
	}

	/* Giving up for now: what its turn has gathered is its. */
	if (!err && (serr == -EAGAIN || serr == -EINTR))
		fd_well_serve_early(&w->well, client, ktime_get_ns());
	/* A VM fork came: what it holds, and was handed, waits for a flush. */
	if (client->served && err != -ESTALE) {
		fd_well_leave(client, ktime_get_ns());
		mutex_unlock(&w->lock);
		return 0;
	}
	/*
	 * A nonblocking reader keeps its place, if it can be told when its
	 * bits are there (the hwrng cannot: its core sleeps for seconds after
	 * an empty read); a failed one loses it.
	 */
	if (!err && serr == -EAGAIN && client->notify)
		fd_well_leave(client, ktime_get_ns());
	else
		fairdie_well_quit(w, client);
	mutex_unlock(&w->lock);
	if (!err || err == -ESTALE)
		return err ?: serr;
	p->failed = true;
	p->failure = w->well.pipe.failure;
	return -EIO;
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
	fd_well_leave(client, ktime_get_ns());
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
	fd_well_leave(client, ktime_get_ns());
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
			init_waitqueue_head(&w->wait);
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

	for (s = 0; s < ARRAY_SIZE(fairdie_wells); s++)
		for (e = 0; e < FD_EXTRACTORS; e++)
			mutex_destroy(&fairdie_wells[s][e].lock);
	memzero_explicit(fairdie_wells, sizeof(fairdie_wells));
	memzero_explicit(fairdie_well_peres, sizeof(fairdie_well_peres));
}

/* ---------------------------------------------------------------------
 * A cap on each user's share of the hardware sources (module parameter
 * user_rate): a token bucket per user, of one second of the rate, that the
 * raw words a user's readers fetch take from. A full bucket is the same as
 * none, so a slot is reused once its bucket has refilled.
 */

#define FAIRDIE_USER_SLOTS	64

/**
 * struct fairdie_user - the bucket of one user
 * @uid: the user, the opener of the files
 * @bits: raw bits the user may still fetch now, scaled by NSEC_PER_SEC
 * @stamp: when @bits was last brought up to date, in ns
 * @used: the slot holds a user
 */
struct fairdie_user {
	kuid_t uid;
	u64 bits;
	u64 stamp;
	bool used;
};

static DEFINE_SPINLOCK(fairdie_users_lock);	/* protects fairdie_users */
static struct fairdie_user fairdie_users[FAIRDIE_USER_SLOTS];
/* Users beyond the slots share one bucket. */
static struct fairdie_user fairdie_users_rest;

/* Refill @u at @rate bits per second up to one second's worth. */
static void fairdie_user_refill(struct fairdie_user *u, u64 rate, u64 now)
{
	u64 cap = rate * NSEC_PER_SEC;

	if (!u->used || now - u->stamp >= NSEC_PER_SEC)
		u->bits = cap;
	else
		u->bits = min(cap, u->bits + (now - u->stamp) * rate);
	u->stamp = now;
}

static struct fairdie_user *fairdie_user_find(kuid_t uid, u64 rate, u64 now)
{
	struct fairdie_user *free = NULL, *u;
	int i;

	lockdep_assert_held(&fairdie_users_lock);
	for (i = 0; i < FAIRDIE_USER_SLOTS; i++) {
		u = &fairdie_users[i];
		if (u->used && uid_eq(u->uid, uid))
			return u;
		if (u->used) {
			fairdie_user_refill(u, rate, now);
			if (u->bits < rate * NSEC_PER_SEC)
				continue;
		}
		if (!free)
			free = u;
	}
	if (!free)
		return &fairdie_users_rest;
	free->used = false;
	free->uid = uid;
	fairdie_user_refill(free, rate, now);
	free->used = true;
	return free;
}

/**
 * fairdie_user_charge() - count raw bits against a user's share
 * @uid: the user
 * @rate: the cap, raw bits per second; 0 for none
 * @bits: the raw bits about to be fetched
 * @nonblock: fail with -EAGAIN rather than wait
 *
 * A user over the cap waits (interruptibly) until the bucket holds
 * @bits again.
 *
 * Return: 0, -EAGAIN or -EINTR.
 */
int fairdie_user_charge(kuid_t uid, u64 rate, u32 bits, bool nonblock)
{
	u64 need = (u64)bits * NSEC_PER_SEC, now, wait_ns;
	struct fairdie_user *u;
	ktime_t wait;

	if (!rate)
		return 0;
	for (;;) {
		spin_lock(&fairdie_users_lock);
		now = ktime_get_ns();
		u = fairdie_user_find(uid, rate, now);
		fairdie_user_refill(u, rate, now);
		/* A charge above a whole bucket takes a full one. */
		if (u->bits >= min(need, rate * NSEC_PER_SEC)) {
			u->bits -= min(u->bits, need);
			spin_unlock(&fairdie_users_lock);
			return 0;
		}
		wait_ns = div64_u64(need - u->bits + rate - 1, rate);
		spin_unlock(&fairdie_users_lock);
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -EINTR;
		wait = ns_to_ktime(wait_ns);
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout_range(&wait, NSEC_PER_MSEC, HRTIMER_MODE_REL);
	}
}
