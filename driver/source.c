// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - where the raw bits come from.
 *
 * RDSEED and RDRAND are reached through the kernel's arch_get_random_*()
 * helpers: on x86 one RDSEED or RDRAND instruction per call, elsewhere the
 * architecture's own seed and random number instructions. Both may underflow
 * (RDSEED often does): fd_retry.h bounds in real time how long a request
 * waits, interruptibly, and says when a silent instruction is failed: when
 * no reader of the module got a word from it for a second. Contention alone
 * (another reader draining RDSEED) never fails a request.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/hw_random.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <asm/archrandom.h>

#include "fairdie.h"
#include "fault.h"
#include "fd_retry.h"

/* The number of tries when probing for an instruction at load time. */
#define FAIRDIE_HW_PROBES	64
/*
 * The longest one hwrng read waits for the instruction, all its words
 * together: the hwrng core holds its reading mutex meanwhile, and calls
 * again when given nothing.
 */
#define FAIRDIE_HWRNG_WAIT_US	10000

/*
 * When each instruction last delivered a word to anyone, in nanoseconds of
 * the coarse monotonic clock (a tick's resolution, cheap to read).
 */
static atomic64_t fairdie_heard_rdseed, fairdie_heard_rdrand;

/*
 * The hardware sources the CPU offers, probed once at load: the answer
 * cannot change while the module is loaded.
 */
static u32 fairdie_hw_mask __ro_after_init;

#ifdef CONFIG_X86
static bool __init fairdie_hw_present(bool seed)
{
	return boot_cpu_has(seed ? X86_FEATURE_RDSEED : X86_FEATURE_RDRAND);
}
#else
static bool __init fairdie_hw_present(bool seed)
{
	unsigned long v;
	int i;

	/* Ask the architecture; an underflow is retried. */
	for (i = 0; i < FAIRDIE_HW_PROBES; i++) {
		if (seed ? arch_get_random_seed_longs(&v, 1) :
			   arch_get_random_longs(&v, 1))
			return true;
	}
	return false;
}
#endif

/**
 * fairdie_sources_probe() - find out once which instructions the CPU has
 *
 * Called at load, before anything asks fairdie_sources_present().
 */
void __init fairdie_sources_probe(void)
{
	if (fairdie_hw_present(true))
		fairdie_hw_mask |= BIT(FAIRDIE_SRC_RDSEED);
	if (fairdie_hw_present(false))
		fairdie_hw_mask |= BIT(FAIRDIE_SRC_RDRAND);
}

/**
 * fairdie_sources_present() - the sources this machine offers
 *
 * The instructions found at load, less those that fault injection hides.
 *
 * Return: a bitmask of (1 << FAIRDIE_SRC_x); AUTO, CRNG and SIM always.
 */
u32 fairdie_sources_present(void)
{
	u32 mask = BIT(FAIRDIE_SRC_AUTO) | BIT(FAIRDIE_SRC_CRNG) |
		   BIT(FAIRDIE_SRC_SIM) | fairdie_hw_mask;

	return mask & ~fairdie_fault_absent();
}

/**
 * fairdie_source_resolve() - replace AUTO with the best source present
 * @source: enum fairdie_source
 *
 * Return: @source itself unless it is AUTO; then RDSEED if present, else
 * RDRAND if present, else CRNG.
 */
u32 fairdie_source_resolve(u32 source)
{
	u32 present;

	if (source != FAIRDIE_SRC_AUTO)
		return source;
	present = fairdie_sources_present();
	if (present & BIT(FAIRDIE_SRC_RDSEED))
		return FAIRDIE_SRC_RDSEED;
	if (present & BIT(FAIRDIE_SRC_RDRAND))
		return FAIRDIE_SRC_RDRAND;
	return FAIRDIE_SRC_CRNG;
}

/* Note that @heard delivered a word now; written at most once a tick. */
static void fairdie_hw_heard(atomic64_t *heard)
{
	u64 now = ktime_get_coarse_ns();

	if (atomic64_read(heard) != now)
		atomic64_set(heard, now);
}

static bool fairdie_rdseed_once(void *ctx, u64 *word)
{
	unsigned long v;
	bool ok;

	BUILD_BUG_ON(sizeof(v) != sizeof(*word));
	if (fairdie_fault_once(FAIRDIE_SRC_RDSEED, word, &ok)) {
		if (ok)
			fairdie_hw_heard(&fairdie_heard_rdseed);
		return ok;
	}
	if (!arch_get_random_seed_longs(&v, 1))
		return false;
	*word = v;
	/* No copy of the bits stays behind on this stack. */
	memzero_explicit(&v, sizeof(v));
	fairdie_hw_heard(&fairdie_heard_rdseed);
	return true;
}

static bool fairdie_rdrand_once(void *ctx, u64 *word)
{
	unsigned long v;
	bool ok;

	if (fairdie_fault_once(FAIRDIE_SRC_RDRAND, word, &ok)) {
		if (ok)
			fairdie_hw_heard(&fairdie_heard_rdrand);
		return ok;
	}
	if (!arch_get_random_longs(&v, 1))
		return false;
	*word = v;
	/* No copy of the bits stays behind on this stack. */
	memzero_explicit(&v, sizeof(v));
	fairdie_hw_heard(&fairdie_heard_rdrand);
	return true;
}

static void fairdie_hw_relax(void *ctx)
{
	cpu_relax();
}

/*
 * Who waits for the instruction: a file's reader, whose wait its turn in
 * its well ends (@served), or the hwrng core's thread (@rng).
 */
struct fairdie_hw_waiter {
	const bool *served;
	struct hwrng *rng;
};

/*
 * A file's reader sleeps interruptibly: a signal ends its wait, and so does
 * its turn in its well (the reader's fd_well_client.served: the well sets
 * it, then wakes the reader), which the caller tells apart from a signal.
 * Not usleep_range_state(), which sleeps again after a signal until its
 * time is up, and so spins while the signal is pending. The hwrng core's
 * thread has no signals: it naps until the hwrng is unregistered.
 */
static int fairdie_hw_nap(void *ctx)
{
	ktime_t nap = ns_to_ktime(FD_HW_NAP_US * NSEC_PER_USEC);
	const struct fairdie_hw_waiter *waiter = ctx;
	const bool *served = waiter->served;

	if (waiter->rng)
		return hwrng_msleep(waiter->rng, 1) ? -EINTR : 0;
	set_current_state(TASK_INTERRUPTIBLE);
	if (signal_pending(current) || (served && READ_ONCE(*served))) {
		__set_current_state(TASK_RUNNING);
		return -EINTR;
	}
	schedule_hrtimeout_range(&nap, FD_HW_NAP_US * NSEC_PER_USEC,
				 HRTIMER_MODE_REL);
	return signal_pending(current) || (served && READ_ONCE(*served)) ?
	       -EINTR : 0;
}

/* Microseconds on the clock of the heard stamps. */
static u64 fairdie_hw_now(void *ctx)
{
	return div_u64(ktime_get_coarse_ns(), NSEC_PER_USEC);
}

static u64 fairdie_rdseed_heard(void *ctx)
{
	return div_u64(atomic64_read(&fairdie_heard_rdseed), NSEC_PER_USEC);
}

static u64 fairdie_rdrand_heard(void *ctx)
{
	return div_u64(atomic64_read(&fairdie_heard_rdrand), NSEC_PER_USEC);
}

/* The hardware sources' operations, the one table of them. */
static const struct fd_hw_ops fairdie_hw_ops[FAIRDIE_SOURCES] = {
	[FAIRDIE_SRC_RDSEED] = {
		.once = fairdie_rdseed_once,
		.relax = fairdie_hw_relax,
		.nap = fairdie_hw_nap,
		.now = fairdie_hw_now,
		.heard = fairdie_rdseed_heard,
	},
	[FAIRDIE_SRC_RDRAND] = {
		.once = fairdie_rdrand_once,
		.relax = fairdie_hw_relax,
		.nap = fairdie_hw_nap,
		.now = fairdie_hw_now,
		.heard = fairdie_rdrand_heard,
	},
};

/**
 * fairdie_source_hw() - 64 raw bits from RDSEED or RDRAND
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @nonblock: give up with -EAGAIN rather than sleep
 * @served: if not NULL, a wait ends (-EINTR) once this is true (the
 *	reader's turn in its well came meanwhile)
 * @word: receives the bits
 * @retries: incremented for every underflow
 *
 * A blocking request waits, interruptibly, as long as the instruction
 * delivers words to any reader of the module: contention alone never fails
 * it.
 *
 * Return: 0, -EAGAIN (nonblocking and the source underflows), -EINTR (a
 * signal, or @served, while waiting) or -EIO (no reader got a word from the instruction
 * for FD_HW_SILENT_US, a second), see fd_retry.h.
 */
int fairdie_source_hw(u32 source, bool nonblock, const bool *served,
		      u64 *word, u64 *retries)
{
	struct fairdie_hw_waiter waiter = { .served = served };
	int err;

	if (WARN_ON_ONCE(source >= FAIRDIE_SOURCES ||
			 !fairdie_hw_ops[source].once))
		return -ENODEV;
	err = fd_hw_fetch(&fairdie_hw_ops[source], &waiter, nonblock,
			  FD_HW_WAIT_ALIVE, word, retries);
	if (err == -EIO)
		pr_warn_ratelimited("%s delivered nothing to anyone for a second\n",
				    fairdie_source_name(source));
	return err;
}

/**
 * fairdie_hwrng_deadline() - when a read of the hwrng that starts now must
 *	stop waiting for the instruction
 *
 * Return: the deadline for fairdie_source_hwrng(), FAIRDIE_HWRNG_WAIT_US
 * from now.
 */
u64 fairdie_hwrng_deadline(void)
{
	return fairdie_hw_now(NULL) + FAIRDIE_HWRNG_WAIT_US;
}

/**
 * fairdie_hwrng_late() - whether a read of the hwrng is past its deadline
 * @deadline: from fairdie_hwrng_deadline() at the start of the read
 *
 * Return: true once it is.
 */
bool fairdie_hwrng_late(u64 deadline)
{
	return fairdie_hw_now(NULL) >= deadline;
}

/**
 * fairdie_source_hwrng() - fairdie_source_hw() for the hwrng pipeline
 * @rng: the hwrng; a nap ends early when it is being unregistered
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @nonblock: give up with -EAGAIN rather than sleep
 * @deadline: from fairdie_hwrng_deadline() at the start of the read
 * @word: receives the bits
 * @retries: incremented for every underflow
 *
 * A blocking request waits until @deadline at most (plus a nap): the hwrng
 * core holds its reading mutex meanwhile. Past it, a word still gets one
 * round of FD_HW_TRIES tries, without a nap.
 *
 * Return: as fairdie_source_hw(), with -EAGAIN also when the wait was spent
 * while the source is alive (the core then calls again), -EINTR when the
 * hwrng is being unregistered.
 */
int fairdie_source_hwrng(struct hwrng *rng, u32 source, bool nonblock,
			 u64 deadline, u64 *word, u64 *retries)
{
	struct fairdie_hw_waiter waiter = { .rng = rng };
	u64 now = fairdie_hw_now(NULL);
	int err;

	if (WARN_ON_ONCE(source >= FAIRDIE_SOURCES ||
			 !fairdie_hw_ops[source].once))
		return -ENODEV;
	err = fd_hw_fetch(&fairdie_hw_ops[source], &waiter, nonblock,
			  deadline > now ? deadline - now : 0, word, retries);
	return err == -ETIMEDOUT ? -EAGAIN : err;
}

/**
 * fairdie_source_try() - one try of RDSEED or RDRAND, for the fetcher
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @word: receives the bits
 *
 * Return: true if the instruction gave a word (not an underflow).
 */
bool fairdie_source_try(u32 source, u64 *word)
{
	return source == FAIRDIE_SRC_RDSEED ? fairdie_rdseed_once(NULL, word) :
	       fairdie_rdrand_once(NULL, word);
}

/**
 * fairdie_source_word() - 64 raw bits from the file's source
 * @ctx: the open file (struct fairdie_file), locked
 * @nonblock: give up with -EAGAIN rather than sleep
 * @word: receives the bits
 *
 * Return: 0, -EAGAIN (nonblocking and the source underflows), -EINTR (a
 * signal while waiting for the source) or -EIO (the source stayed silent).
 */
int fairdie_source_word(void *ctx, bool nonblock, u64 *word)
{
	struct fairdie_file *f = ctx;
	int err;

	lockdep_assert_held(&f->lock);

	switch (f->source) {
	case FAIRDIE_SRC_RDSEED:
	case FAIRDIE_SRC_RDRAND:
		err = fairdie_source_hw(f->source, nonblock,
					&f->client.served, word,
					&f->stats.source_retries);
		if (err == -EIO) {
			f->stats.source_failures++;
			atomic64_inc(&fairdie_counters.source_failures);
		}
		return err;
	case FAIRDIE_SRC_CRNG:
		/* One call for many words: as cheap per byte as urandom. */
		if (f->crng_pos >= ARRAY_SIZE(f->crng)) {
			get_random_bytes(f->crng, sizeof(f->crng));
			f->crng_pos = 0;
		}
		*word = f->crng[f->crng_pos++];
		return 0;
	case FAIRDIE_SRC_SIM:
		*word = fd_sim_word(&f->sim);
		return 0;
	default:
		WARN_ON_ONCE(1);
		return -EIO;
	}
}
