// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - FAIRDIE_IOC_GET_RAW: the raw words of an open file's source, as
 * the health tests see them, before any extractor. The evidence a test lab
 * asks for: NIST SP 800-90B's raw samples and restart data, and a gaming
 * lab's "raw output collection" (fairdie collect).
 *
 * What keeps it from weakening anything else:
 * - root only (CAP_SYS_ADMIN): the words are the raw material of everyone's
 *   rolls, and reading them costs the hardware's throughput;
 * - each word is fresh from the instruction (fairdie_source_hw()), never
 *   taken from a well nor given to one, and handed to this caller only: no
 *   other reader, nor the hwrng, ever gets it;
 * - its health tests are its own (struct fairdie_raw_state): a failure
 *   latches them, not the well nor the file's reads, and the well's and the
 *   reads' tests go on judging the words they take themselves;
 * - the words are copied out only when every one of them passed: a failing
 *   source gives EIO and no word.
 * The simulated coin (SIM) gives the file's own coin's words, for tests; the
 * kernel CRNG, a DRBG with no raw noise of its own, gives ENODEV.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "fairdie.h"

/* The device-wide health and counters are those of RDSEED and RDRAND. */
static bool fairdie_raw_hw(u32 source)
{
	return source == FAIRDIE_SRC_RDSEED || source == FAIRDIE_SRC_RDRAND;
}

/*
 * Start the source afresh, as the read path does: health tests with the
 * same cutoffs as the file's (the well's) for this source and extractor,
 * the start-up test to run again, the failure latch cleared, and the
 * simulated coin back at its seed.
 */
static void fairdie_raw_start(struct fairdie_file *f)
{
	struct fairdie_raw_state *r = &f->raw;

	if (f->source == FAIRDIE_SRC_SIM) {
		/* Judged by its own bias, its words not compared. */
		fd_health_init(&r->health, f->sim_cfg.p1_num,
			       f->sim_cfg.p1_den, false);
		fd_sim_restart(&f->sim);
	} else {
		/* Full entropy for NONE, else what the extractors tolerate. */
		fd_health_init(&r->health, 1, 2, true);
		if (f->extractor != FAIRDIE_EXT_NONE)
			fd_health_set_claim(&r->health, FD_PMAX_NUM,
					    FD_PMAX_DEN);
	}
	r->source = f->source;
	r->extractor = f->extractor;
	r->startup = FD_STARTUP_BITS / 64;
	r->failed = false;
}

/**
 * fairdie_raw_forget() - have the next FAIRDIE_IOC_GET_RAW start afresh
 * @f: the open file, locked
 *
 * Called when the file's source restarts (a change of source or simulated
 * coin, FAIRDIE_IOC_RESET): the raw words' failure latch is cleared with
 * the file's, and their start-up test runs again.
 */
void fairdie_raw_forget(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);
	f->raw.source = FAIRDIE_SRC_AUTO;
	f->raw.failed = false;
}

/* One word fresh from the source: 0, -EINTR or -EIO (a silent source). */
static int fairdie_raw_word(struct fairdie_file *f, u64 *w)
{
	u64 retries = 0;
	int err;

	if (f->source == FAIRDIE_SRC_SIM) {
		*w = fd_sim_word(&f->sim);
		return 0;
	}
	err = fairdie_source_hw(f->source, false, NULL, w, &retries);
	if (err == -EIO)
		atomic64_inc(&fairdie_counters.source_failures);
	return err;
}

/*
 * One word through the tests. A failure latches them and is counted where
 * a hardware source's failures are (sysfs health_failures).
 */
static int fairdie_raw_test(struct fairdie_file *f, u64 w)
{
	struct fairdie_raw_state *r = &f->raw;
	enum fd_health_result res = fd_health_word(&r->health, w);

	if (res == FD_HEALTH_OK)
		return 0;
	r->failed = true;
	if (fairdie_raw_hw(f->source)) {
		atomic64_inc(&fairdie_counters.health_failures);
		pr_warn_ratelimited("%s source failed the %s test (GET_RAW, pid %d); its raw words fail with EIO until a restart\n",
				    fairdie_source_name(f->source),
				    fd_health_name(res), task_pid_nr(current));
	}
	return -EIO;
}

/* @n words of the file's source, each tested, into @words. */
static int fairdie_raw_fill(struct fairdie_file *f, u32 flags, u64 *words,
			    u32 n)
{
	struct fairdie_raw_state *r = &f->raw;
	u64 w = 0, fetched = 0;
	int err = 0;
	u32 i = 0;

	lockdep_assert_held(&f->lock);

	if (!fairdie_raw_hw(f->source) && f->source != FAIRDIE_SRC_SIM)
		return -ENODEV;
	if ((flags & FAIRDIE_RAW_RESTART) || r->source != f->source ||
	    r->extractor != f->extractor)
		fairdie_raw_start(f);
	if (r->failed)
		return -EIO;
	while (i < n) {
		if (!(fetched % 64)) {
			cond_resched();
			if (signal_pending(current)) {
				err = -EINTR;
				break;
			}
		}
		err = fairdie_raw_word(f, &w);
		if (err)
			break;
		fetched++;
		err = fairdie_raw_test(f, w);
		if (err)
			break;
		/* The start-up test's words are tested and discarded. */
		if (r->startup) {
			r->startup--;
			continue;
		}
		words[i++] = w;
	}
	memzero_explicit(&w, sizeof(w));
	if (fairdie_raw_hw(f->source))
		atomic64_add(64 * fetched, &fairdie_counters.source_bits);
	return err;
}

/**
 * fairdie_get_raw() - FAIRDIE_IOC_GET_RAW
 * @f: the open file
 * @argp: the user's struct fairdie_raw
 *
 * Fills the user's buffer with @count raw words of the file's source
 * (RDSEED, RDRAND or the simulated coin), each tested by health tests of
 * its own; with FAIRDIE_RAW_RESTART, the source is restarted first, its
 * start-up test run again. The call waits for the source, interruptibly,
 * whatever O_NONBLOCK says. See Documentation/userspace-api/fairdie.rst.
 *
 * Return: 0; -EPERM without CAP_SYS_ADMIN; -EINVAL for a count out of
 * 1..FAIRDIE_RAW_MAX_WORDS or an unknown flag; -ENODEV for the kernel
 * CRNG; -EIO when the source failed its health tests (latched until a
 * restart) or stayed silent; -EINTR on a signal; -EFAULT, -ENOMEM. On an
 * error no word is written.
 */
long fairdie_get_raw(struct fairdie_file *f, void __user *argp)
{
	struct fairdie_raw arg;
	size_t size;
	u64 *words;
	long err;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if ((arg.flags & ~FAIRDIE_RAW_RESTART) || !arg.count ||
	    arg.count > FAIRDIE_RAW_MAX_WORDS)
		return -EINVAL;
	size = arg.count * sizeof(*words);
	words = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (!words)
		return -ENOMEM;

	if (mutex_lock_interruptible(&f->lock)) {
		kvfree(words);
		return -ERESTARTSYS;
	}
	err = fairdie_raw_fill(f, arg.flags, words, arg.count);
	fairdie_unlock(f);

	if (!err && (copy_to_user(u64_to_user_ptr(arg.words), words, size) ||
		     copy_to_user(argp, &arg, sizeof(arg))))
		err = -EFAULT;
	kvfree_sensitive(words, size);
	return err;
}
