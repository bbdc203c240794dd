// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - RDSEED and RDRAND words fetched ahead on another CPU.
 *
 * Where the instruction holds the core for the whole of a word (RDSEED on
 * AMD EPYC: about 550 ns), a reader that fetches its words and then turns
 * them into rolls adds the second time to the first. Here one kthread per
 * hardware source runs the instruction while readers ask for words and
 * puts them, a chunk of FD_WELL_CHUNK at a time, in a ring of 4 KiB
 * (driver/fd_ahead.h); a reader's well takes them from the ring
 * (fairdie_well_fetch()) and turns them into bits meanwhile, so that its
 * rate is the instruction's.
 *
 * A blocking reader never runs the instruction while the fetcher delivers:
 * two CPUs running it at once get less out of it than one on such hosts.
 * It waits for the next chunk up to FAIRDIE_AHEAD_WAIT_NS (a nonblocking
 * reader takes what the ring holds and does not wait); past that the
 * fetcher lags (its CPU is taken: two readers on two CPUs leave it none,
 * or the instruction underflows), and for FAIRDIE_AHEAD_BACKOFF_TICKS no
 * reader waits for it, they run the instruction themselves as without it,
 * and the fetcher keeps off it.
 *
 * The rules of every raw word hold for the ring's:
 * - a word is taken once, by one reader, and wiped in the ring;
 * - a chunk carries the VM generation read before its first word: a reader
 *   takes only words of the current generation and the others are wiped
 *   unused, so nothing fetched before a VM fork is handed out after it; the
 *   reader's well then checks the generation again, as for the words it
 *   fetched itself (fairdie_well_fill());
 * - the reader feeds the words to its well, through the same health tests.
 *
 * The fetcher runs only while a reader asked in the last
 * FAIRDIE_AHEAD_IDLE_TICKS, and naps while the ring is full: it does not run
 * for nobody. With one CPU online nothing is taken or woken. Fault
 * injection (the test build) is never hidden: while a fault knob is set
 * for a source, its readers run the instruction themselves and the fetcher
 * keeps nothing. Module parameter fetch_ahead switches it off.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "fairdie.h"
#include "fault.h"
#include "fd_ahead.h"
#include "fd_retry.h"

static bool fetch_ahead = true;
module_param(fetch_ahead, bool, 0644);
MODULE_PARM_DESC(fetch_ahead,
		 "Fetch RDSEED/RDRAND words ahead on another CPU for the readers (default on)");

/*
 * How long a reader waits for the next chunk before it fetches for itself:
 * about six chunks of RDSEED at 550 ns a word. A fetcher slower than that
 * gains the reader nothing.
 */
#define FAIRDIE_AHEAD_WAIT_NS		(100 * NSEC_PER_USEC)
/* Clock ticks in which no reader waits for a fetcher that lagged. */
#define FAIRDIE_AHEAD_BACKOFF_TICKS	2
/* Clock ticks with no reader asking after which the fetcher sleeps. */
#define FAIRDIE_AHEAD_IDLE_TICKS	2
/*
 * The fetcher's nap while the ring is full: about a quarter of it at
 * RDSEED's pace. A reader that finds it half empty wakes the fetcher
 * sooner: where the reader is faster than a nap is short (a VM's
 * emulated timer), it would otherwise wait for it.
 */
#define FAIRDIE_AHEAD_NAP_US		50

/**
 * struct fairdie_ahead - the fetcher of one hardware source
 * @ring: the words fetched ahead
 * @lock: serialises the readers' takes (the fetcher puts without it)
 * @task: the kthread, NULL if there is none
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @asked: jiffies, when a reader last asked for words
 * @stall: jiffies, when a reader last gave up waiting for the fetcher
 * @idle: the kthread sleeps or naps (or is about to)
 */
struct fairdie_ahead {
	struct fd_ahead_ring ring;
	spinlock_t lock;	/* protects @ring's taking side */
	struct task_struct *task;
	u32 source;
	unsigned long asked ____cacheline_aligned;
	unsigned long stall;
	bool idle;
};

static struct fairdie_ahead fairdie_aheads[2];
/*
 * Words readers took from the rings; words wiped for a VM fork; times a
 * reader gave up waiting for a fetcher that lagged.
 */
static atomic64_t fairdie_ahead_taken, fairdie_ahead_stale, fairdie_ahead_lags;

static struct fairdie_ahead *fairdie_ahead_of(u32 source)
{
	return &fairdie_aheads[source == FAIRDIE_SRC_RDRAND];
}

/* Whether readers of @a's source may use the fetcher at all now. */
static bool fairdie_ahead_usable(struct fairdie_ahead *a)
{
	return a->task && READ_ONCE(fetch_ahead) && num_online_cpus() > 1 &&
	       !fairdie_fault_bypass(a->source);
}

/* Whether the fetcher has readers: one asked in the last idle ticks. */
static bool fairdie_ahead_wanted(struct fairdie_ahead *a)
{
	return fairdie_ahead_usable(a) &&
	       time_before(jiffies, READ_ONCE(a->asked) +
			   FAIRDIE_AHEAD_IDLE_TICKS);
}

/*
 * Fill the fetcher's own buffer @loc from *@n on, a chunk in all, with
 * *@gen the generation read before its first word. Return: false when the
 * instruction underflows (what was fetched stays in @loc for later).
 */
static bool fairdie_ahead_fill(struct fairdie_ahead *a, u64 *loc, u32 *n,
			       u32 *gen)
{
	u32 t;

	if (!*n)
		*gen = fairdie_vmfork_generation();
	while (*n < FD_WELL_CHUNK) {
		for (t = 0; t < FD_HW_TRIES; t++) {
			if (fairdie_source_try(a->source, &loc[*n]))
				break;
			cpu_relax();
		}
		if (t == FD_HW_TRIES)
			return false;
		(*n)++;
	}
	return true;
}

/*
 * The ring is full: nap FAIRDIE_AHEAD_NAP_US to twice that, or until a
 * reader that took half of it wakes the fetcher (usleep_range() would
 * sleep on).
 */
static void fairdie_ahead_nap(struct fairdie_ahead *a)
{
	ktime_t nap = ns_to_ktime(FAIRDIE_AHEAD_NAP_US * NSEC_PER_USEC);

	WRITE_ONCE(a->idle, true);
	/* Its barrier pairs with the reader's between take and look. */
	set_current_state(TASK_IDLE);
	if (!kthread_should_stop() &&
	    fd_ahead_count(&a->ring) >= FD_AHEAD_WORDS / 2)
		schedule_hrtimeout_range(&nap,
					 FAIRDIE_AHEAD_NAP_US * NSEC_PER_USEC,
					 HRTIMER_MODE_REL);
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(a->idle, false);
}

static int fairdie_ahead_thread(void *data)
{
	struct fairdie_ahead *a = data;
	u64 loc[FD_WELL_CHUNK];
	u32 n = 0, gen = 0;

	/*
	 * Only a CPU that nothing else wants; its naps (TASK_IDLE) do not
	 * count in the load average.
	 */
	sched_set_normal(current, MAX_NICE);
	while (!kthread_should_stop()) {
		if (!fairdie_ahead_wanted(a)) {
			/* What it holds is dropped: it may be stale later. */
			memzero_explicit(loc, sizeof(loc));
			n = 0;
			WRITE_ONCE(a->idle, true);
			/* Its barrier pairs with the reader's after @asked. */
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop() && !fairdie_ahead_wanted(a))
				schedule();
			__set_current_state(TASK_RUNNING);
			WRITE_ONCE(a->idle, false);
			continue;
		}
		if (fairdie_fault_ahead_lags()) {
			/* Test build: a fetcher whose CPU is taken. */
			usleep_idle_range(FD_HW_NAP_US, 2 * FD_HW_NAP_US);
		} else if (time_before(jiffies, READ_ONCE(a->stall) +
				       FAIRDIE_AHEAD_BACKOFF_TICKS)) {
			/* The readers fetch for themselves now: keep off. */
			usleep_idle_range(FD_HW_NAP_US / 2, FD_HW_NAP_US);
		} else if (n == FD_WELL_CHUNK) {
			if (fd_ahead_put(&a->ring, loc, gen)) {
				memzero_explicit(loc, sizeof(loc));
				n = 0;
			} else {
				fairdie_ahead_nap(a);
			}
		} else if (!fairdie_ahead_fill(a, loc, &n, &gen)) {
			/* Underflowing: nap as a reader would. */
			usleep_idle_range(FD_HW_NAP_US, 2 * FD_HW_NAP_US);
		} else if (fairdie_fault_bypass(a->source)) {
			/* A fault knob set meanwhile: its words are not kept. */
			memzero_explicit(loc, sizeof(loc));
			n = 0;
		}
		cond_resched();
	}
	memzero_explicit(loc, sizeof(loc));
	return 0;
}

/*
 * Take what the ring holds of the current generation, under its lock.
 */
static u32 fairdie_ahead_grab(struct fairdie_ahead *a, u64 *buf, u32 k)
{
	u64 stale = 0;
	u32 n;

	spin_lock(&a->lock);
	n = fd_ahead_take(&a->ring, fairdie_vmfork_generation(), buf, k,
			  &stale);
	spin_unlock(&a->lock);
	if (unlikely(stale))
		atomic64_add(stale, &fairdie_ahead_stale);
	if (n)
		atomic64_add(n, &fairdie_ahead_taken);
	return n;
}

/**
 * fairdie_ahead_take() - raw words fetched ahead, for a reader's well
 * @source: the well's source
 * @served: the reader's turn came: stop waiting
 * @nonblock: take what the ring holds, do not wait for the fetcher
 * @buf: receives the words
 * @k: at most this many, at most FD_WELL_CHUNK
 *
 * Takes the oldest words of the current VM generation from the source's
 * ring; while the ring is empty, waits for the fetcher's next chunk (up to
 * FAIRDIE_AHEAD_WAIT_NS, spinning: a chunk comes every 20 us or so), and
 * wakes it when it sleeps or naps with the ring half empty. The caller
 * feeds the words to its well's health tests, as words it fetched itself.
 *
 * Return: how many words were taken; 0 when the caller runs the
 * instruction itself (not a hardware source, fetch_ahead off, one CPU
 * online, a fault knob set, the fetcher lags, the reader's turn came, a
 * signal, another task wants the CPU, or @nonblock and the ring is
 * empty).
 */
u32 fairdie_ahead_take(u32 source, const bool *served, bool nonblock,
		       u64 *buf, u32 k)
{
	struct fairdie_ahead *a;
	unsigned long now;
	u64 deadline = 0, t;
	u32 n, spins;

	if (source != FAIRDIE_SRC_RDSEED && source != FAIRDIE_SRC_RDRAND)
		return 0;
	a = fairdie_ahead_of(source);
	if (!fairdie_ahead_usable(a))
		return 0;
	for (;;) {
		/* Still wanted: the fetcher sleeps two ticks after the last. */
		now = jiffies;
		if (READ_ONCE(a->asked) != now)
			WRITE_ONCE(a->asked, now);
		n = fairdie_ahead_grab(a, buf, k);
		/*
		 * Asleep or napping, and half the ring gone: wake it. The
		 * barrier orders the take (or @asked) before the look at
		 * @idle, as the fetcher orders @idle before its look at the
		 * ring (or @asked).
		 */
		smp_mb();
		if (READ_ONCE(a->idle) &&
		    fd_ahead_count(&a->ring) < FD_AHEAD_WORDS / 2)
			wake_up_process(a->task);
		if (n || nonblock)
			return n;
		/* It lagged lately: do not wait for it. */
		if (time_before(jiffies, READ_ONCE(a->stall) +
				FAIRDIE_AHEAD_BACKOFF_TICKS))
			return 0;
		if (READ_ONCE(*served) || need_resched() ||
		    signal_pending(current))
			return 0;
		/* A slow clock source: read once in 64 looks at the ring. */
		t = ktime_get_ns();
		if (!deadline) {
			deadline = t + FAIRDIE_AHEAD_WAIT_NS;
		} else if (t > deadline) {
			WRITE_ONCE(a->stall, jiffies);
			atomic64_inc(&fairdie_ahead_lags);
			return 0;
		}
		for (spins = 0; spins < 64 && !fd_ahead_count(&a->ring);
		     spins++)
			cpu_relax();
	}
}

/**
 * fairdie_ahead_words() - words readers took from the fetchers' rings
 * @stale: receives the words wiped unused, fetched before a VM fork
 * @lags: receives the times a reader gave up waiting for a fetcher
 *
 * Return: the words taken, since the module was loaded.
 */
u64 fairdie_ahead_words(u64 *stale, u64 *lags)
{
	*stale = atomic64_read(&fairdie_ahead_stale);
	*lags = atomic64_read(&fairdie_ahead_lags);
	return atomic64_read(&fairdie_ahead_taken);
}

/**
 * fairdie_ahead_init() - start a fetcher for each hardware source present
 *
 * A fetcher that cannot be started is only missing: its readers run the
 * instruction themselves.
 */
void fairdie_ahead_init(void)
{
	static const u32 sources[] = { FAIRDIE_SRC_RDSEED, FAIRDIE_SRC_RDRAND };
	struct task_struct *t;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(sources); i++) {
		struct fairdie_ahead *a = fairdie_ahead_of(sources[i]);

		spin_lock_init(&a->lock);
		a->source = sources[i];
		a->asked = jiffies - HZ;
		a->stall = jiffies - HZ;
		if (!(fairdie_sources_present() & BIT(sources[i])))
			continue;
		t = kthread_run(fairdie_ahead_thread, a, "fairdie_ahead/%s",
				fairdie_source_name(sources[i]));
		if (IS_ERR(t)) {
			pr_warn("no fetcher for %s: %ld\n",
				fairdie_source_name(sources[i]), PTR_ERR(t));
			continue;
		}
		a->task = t;
	}
}

/**
 * fairdie_ahead_exit() - stop the fetchers and wipe their rings
 *
 * Called once no reader is left (the device is gone).
 */
void fairdie_ahead_exit(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(fairdie_aheads); i++) {
		struct fairdie_ahead *a = &fairdie_aheads[i];

		if (a->task)
			kthread_stop(a->task);
		a->task = NULL;
		spin_lock(&a->lock);
		fd_ahead_wipe(&a->ring);
		spin_unlock(&a->lock);
	}
}
