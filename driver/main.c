// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - exactly fair dice from the CPU's hardware random number generator
 *
 * /dev/fairdie is a misc device. Each open file picks its number of sides,
 * extractor, source and output format with ioctls, and every read returns
 * rolls that are exactly uniform:
 *
 *   source -> health tests -> extractor -> fair bits -> exact sampler -> format
 *
 * The extractors, the sampler and the health tests are freestanding files
 * (driver/fd_*.c) shared with the userspace tests that prove them exact.
 * This file holds the device: module parameters, open files, the ioctls,
 * the read path and sysfs. See Documentation/userspace-api/fairdie.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "fairdie.h"
#include "fault.h"

struct fairdie_counters fairdie_counters;

/* ---------------------------------------------------------------------
 * Module parameters: the configuration a new open file starts with.
 */

static unsigned long long sides = 6;
module_param(sides, ullong, 0444);
MODULE_PARM_DESC(sides, "Default number of sides, 1..2^64-1 (default 6)");

static char *extractor = "vn";
module_param(extractor, charp, 0444);
MODULE_PARM_DESC(extractor,
		 "Default extractor: vn, peres, dijkstra or none (default vn)");

static char *source = "auto";
module_param(source, charp, 0444);
MODULE_PARM_DESC(source,
		 "Default source: auto, rdseed, rdrand or crng (default auto)");

/* Crediting entropy to the kernel is the administrator's choice. */
static char *hwrng = "off";
module_param(hwrng, charp, 0444);
MODULE_PARM_DESC(hwrng,
		 "Feed and credit the kernel's entropy pool: off, auto (rdseed if present, else off), rdseed or rdrand (default off)");

static ushort hwrng_quality = 1000;
module_param(hwrng_quality, ushort, 0444);
MODULE_PARM_DESC(hwrng_quality,
		 "Entropy credited per 1024 bits fed to the pool, 1..1024 (default 1000); at most 2 with hwrng=rdrand, whose bits are a DRBG's output");

/* Sharing the hardware among users is the administrator's choice too. */
static uint user_rate;
module_param(user_rate, uint, 0444);
MODULE_PARM_DESC(user_rate,
		 "Most raw RDSEED/RDRAND bits one user's open files may fetch, in kbit/s, 1..10000000; 0 for no cap (default 0)");

/* user_rate in bits per second. */
u64 fairdie_user_bps;

static const char * const fairdie_extractor_names[FD_EXTRACTORS] = {
	[FAIRDIE_EXT_VN] = "vn",
	[FAIRDIE_EXT_PERES] = "peres",
	[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
	[FAIRDIE_EXT_NONE] = "none",
};

/* Defaults parsed from the parameters at load time. */
static u32 fairdie_default_extractor;
static u32 fairdie_default_source;
/* The hwrng source, or FAIRDIE_SRC_AUTO for none. */
static u32 fairdie_hwrng_source;

/**
 * fairdie_extractor_name() - the name of an extractor, as module parameters
 *	take it
 * @extractor: enum fairdie_extractor
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *fairdie_extractor_name(u32 extractor)
{
	return extractor < FD_EXTRACTORS ? fairdie_extractor_names[extractor] :
					   "?";
}

static int fairdie_parse_name(const char *s, const char * const *names,
			      int count)
{
	int i = __sysfs_match_string(names, count, s);

	return i < 0 ? -EINVAL : i;
}

/* ---------------------------------------------------------------------
 * The pipeline of one open file.
 */

/*
 * Drop the output made but not yet read: whole rolls, or whole lines, and
 * wipe it. The rest of a text line already begun is kept and delivered
 * first, whatever the configuration is now: it is a finished roll of the
 * die in force when it was made, and the text stream stays a sequence of
 * whole lines. After a VM fork (@forked) that rest was made in an older
 * generation: it is dropped too, and only the line's end, a newline,
 * comes, so the stream stays whole lines.
 */
static void fairdie_drop_unread(struct fairdie_file *f, bool forked)
{
	u32 pos = f->stage_pos;
	bool begun;
	u8 *nl;

	lockdep_assert_held(&f->lock);

	begun = pos ? f->stage[pos - 1] != '\n' : f->stage_tail;
	nl = memchr(f->stage + pos, '\n', f->stage_len - pos);
	if (f->stage_text && begun && nl && !forked) {
		f->stage_len = nl + 1 - (f->stage + pos);
		memmove(f->stage, f->stage + pos, f->stage_len);
		memzero_explicit(f->stage + f->stage_len,
				 sizeof(f->stage) - f->stage_len);
		f->stage_pos = 0;
		f->stage_tail = true;
		return;
	}
	memzero_explicit(f->stage, sizeof(f->stage));
	f->stage_pos = 0;
	f->stage_len = 0;
	f->stage_tail = false;
	if (f->stage_text && begun && nl) {
		f->stage[0] = '\n';
		f->stage_len = 1;
		f->stage_tail = true;
	}
}

/* The device-wide health and counters are those of RDSEED and RDRAND. */
static bool fairdie_source_is_hw(u32 source)
{
	return source == FAIRDIE_SRC_RDSEED || source == FAIRDIE_SRC_RDRAND;
}

/* A hardware source is read through the well of its source and extractor. */
static void fairdie_attach_well(struct fairdie_file *f)
{
	struct fairdie_well *w = NULL;

	if (fairdie_source_is_hw(f->source))
		w = fairdie_well_get(f->source, f->extractor);
	if (w != f->well) {
		f->well = w;
		if (w)
			fairdie_well_join(w, &f->client);
	}
}

/*
 * Discard every bit and partial roll in flight, so that the next roll is
 * made from the current configuration only: the fair bits and the
 * recycled state go back to the well they came from, unused, if they were
 * made in the current VM generation. The same after a VM fork (@forked),
 * which drops the rest of a text line begun too: this is the one way a
 * file's state leaves an older generation (fairdie_well_flush()).
 * Statistics are kept.
 */
static void fairdie_flush(struct fairdie_file *f, bool forked)
{
	lockdep_assert_held(&f->lock);

	fairdie_well_flush(f->well, &f->client, &f->pipe, f->sides,
			   f->extractor);
	fairdie_attach_well(f);
	f->width = fd_roll_width(f->sides);
	fairdie_drop_unread(f, forked);
	/* The CRNG's words not yet used are discarded, and wiped. */
	memzero_explicit(f->crng, sizeof(f->crng));
	f->crng_pos = ARRAY_SIZE(f->crng);
}

/*
 * The guest was cloned or restored since the file's state was made
 * (driver/vmfork.c): discard it before the next roll is made or staged
 * output copied. The simulated coin is a deterministic test stream: it goes
 * on where it was.
 */
static bool fairdie_vmfork_check(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);

	if (!fairdie_vmfork_stale(f->client.generation))
		return false;
	fairdie_flush(f, true);
	return true;
}

/**
 * fairdie_unlock() - release the file's lock and wake poll(), which waits
 *	for it to be free (the caller of a read or an ioctl)
 * @f: the open file, locked
 */
void fairdie_unlock(struct fairdie_file *f)
{
	mutex_unlock(&f->lock);
	if (fairdie_fault_lose_wakeup())
		return;
	if (wq_has_sleeper(&f->wait))
		wake_up_interruptible_poll(&f->wait, EPOLLIN | EPOLLRDNORM);
}

/* How long poll() reports a file not readable after its source ran dry. */
#define FAIRDIE_DRY_JIFFIES	(msecs_to_jiffies(1) + 1)

static void fairdie_dry_end(struct timer_list *t)
{
	struct fairdie_file *f = timer_container_of(f, t, dry_timer);

	WRITE_ONCE(f->dry, false);
	wake_up_interruptible_poll(&f->wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * The file's turn in its well came. Its reader, if in a read, may be
 * napping while the source underflows: the nap ends. Otherwise (a
 * nonblocking reader went back to userspace) the turn holds bits for it:
 * poll() says readable now. Called with the well's lock held.
 */
static void fairdie_turn_came(struct fd_well_client *c)
{
	struct fairdie_file *f = container_of(c, struct fairdie_file, client);

	if (c->present) {
		wake_up_process(f->reader);
		return;
	}
	WRITE_ONCE(f->dry, false);
	wake_up_interruptible_poll(&f->wait, EPOLLIN | EPOLLRDNORM);
}

/*
 * A non-blocking read found the source dry (an underflowing RDSEED, a CRNG
 * not yet initialised): poll() says not readable until the timer fires.
 * A timer already pending is left as it is (timer_reduce() returns without
 * a lock then), so that a loop of poll() calls arms it once a tick, not on
 * every call, and cannot keep pushing its expiry away.
 */
static void fairdie_set_dry(struct fairdie_file *f)
{
	WRITE_ONCE(f->dry, true);
	timer_reduce(&f->dry_timer, jiffies + FAIRDIE_DRY_JIFFIES);
}

/*
 * Whether the file counts in the device's health ("failed N" in sysfs): from
 * a hardware source's failure until the file reads again without one, is
 * reset, changes source or is closed.
 */
static void fairdie_count_failed(struct fairdie_file *f, bool failed)
{
	failed = failed && fairdie_source_is_hw(f->source);
	if (f->failed_hw == failed)
		return;
	f->failed_hw = failed;
	if (failed)
		atomic_inc(&fairdie_counters.failed_files);
	else
		atomic_dec(&fairdie_counters.failed_files);
}

/* The failure latch: reads fail with EIO, poll() says EPOLLERR. */
static void fairdie_set_failed(struct fairdie_file *f, bool failed)
{
	/* fairdie_poll() reads it without the lock. */
	WRITE_ONCE(f->failed, failed);
	fairdie_count_failed(f, failed);
}

/*
 * Restart the source: clear the failure latch, re-arm the health tests
 * for the source's claimed entropy and its startup test, and restart the
 * simulated coin from its seed. The coin is judged by its own bias, the
 * kernel CRNG (a DRBG) not at all; a hardware source's tests are its
 * well's, which the file joins again: a well that failed restarts, with a
 * fresh start-up test, when the file next takes from it.
 */
static void fairdie_restart_source(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);

	fairdie_set_failed(f, false);
	if (f->source == FAIRDIE_SRC_SIM)
		fd_pipe_restart(&f->pipe, f->sim_cfg.p1_num, f->sim_cfg.p1_den,
				true, false);
	else
		fd_pipe_restart(&f->pipe, 1, 2, false, false);
	if (f->well)
		fairdie_well_join(f->well, &f->client);
	fd_sim_restart(&f->sim);
	fairdie_raw_forget(f);
}

/*
 * A file learns of its well's health failure once: from the read that
 * returns EIO (the one that met the failure, or the next one when the
 * failure ended a read that had delivered rolls already; poll() reports
 * EPOLLERR until then). That read also leaves the file ready to try
 * again: its next read rejoins the well, which restarts with a fresh
 * start-up test, and fails again, after that test's bounded number of
 * words, if the source is still bad. What the file held is discarded, as
 * by a RESET; its stats are kept. The simulated coin is a test stream,
 * judged per file: it stays failed until RESET.
 */
static void fairdie_failure_told(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);

	if (!f->failed || !f->well)
		return;
	fairdie_flush(f, false);
	/* Still counted in the device's health until a read goes through. */
	WRITE_ONCE(f->failed, false);
	fd_pipe_restart(&f->pipe, 1, 2, false, false);
	fairdie_well_join(f->well, &f->client);
}

static bool fairdie_interrupted(void *ctx)
{
	/* Long refills (a heavily biased coin) stay polite and killable. */
	cond_resched();
	return signal_pending(current);
}

static const struct fd_source_ops fairdie_source_ops = {
	.word = fairdie_source_word,
	.interrupted = fairdie_interrupted,
};

static int fairdie_well_fill_file(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct fairdie_file *f = ctx;

	lockdep_assert_held(&f->lock);
	f->reader = current;
	return fairdie_well_fill(f->well, &f->client, f->source,
				 &fairdie_source_ops, f, nonblock, p);
}

static const struct fd_source_ops fairdie_well_ops = {
	.fill = fairdie_well_fill_file,
};

/* Where the file's pipeline takes its bits: its well, or its source. */
static const struct fd_source_ops *fairdie_ops(struct fairdie_file *f)
{
	return f->well ? &fairdie_well_ops : &fairdie_source_ops;
}

/*
 * Latch a health test failure of the pipeline in the file. A hardware
 * source's failure is its well's, counted and reported there; any user can
 * make the simulated coin fail, and that is counted in the file's stats
 * only.
 */
static int fairdie_check_health(struct fairdie_file *f, int err)
{
	if (err != -EIO || !f->pipe.failed || f->failed)
		return err;
	f->stats.health_failures++;
	fairdie_set_failed(f, true);
	return err;
}

/*
 * The fault build's modulo_bias knob (driver/fault.c): the bits a roll of
 * the file's fair die takes when made the wrong way, or 0 (always, in a
 * module built without fault injection).
 */
static u32 fairdie_modulo_bits(struct fairdie_file *f)
{
	if (f->weights || f->extractor == FAIRDIE_EXT_DIJKSTRA)
		return 0;
	return fairdie_fault_modulo_bits(f->sides);
}

static int fairdie_roll(struct fairdie_file *f, bool nonblock, u64 *out)
{
	u32 bits = fairdie_modulo_bits(f);

	if (bits)
		return fairdie_check_health(f,
			fairdie_fault_modulo_roll(&f->pipe, fairdie_ops(f), f,
						  nonblock, f->sides, bits,
						  out));
	return fairdie_check_health(f, fd_pipe_roll(&f->pipe, fairdie_ops(f),
						    f, nonblock, out));
}

/*
 * Rolls of 8, 16 or 32 bits (256, 65536 or 2^32 sides) in the binary format
 * are fair bits as they are: stage them a word at a time.
 */
static int fairdie_stage_words(struct fairdie_file *f, bool nonblock,
			       size_t room, u64 *made)
{
	int err = 0;
	u64 w;

	if (f->extractor == FAIRDIE_EXT_DIJKSTRA ||
	    f->pipe.sampler.pow2_bits != 8 * f->width)
		return 0;
	/* The CRNG with no extractor: its bytes are the rolls. */
	if (f->extractor == FAIRDIE_EXT_NONE &&
	    f->source == FAIRDIE_SRC_CRNG && !f->pipe.pool.count) {
		size_t n = room / sizeof(w) * sizeof(w);

		get_random_bytes(f->stage, n);
		f->stage_len = n;
		fd_pipe_count_direct(&f->pipe, 8 * n);
		*made += n / f->width;
	}
	while (f->stage_len + sizeof(w) <= room) {
		err = fd_pipe_fair64(&f->pipe, fairdie_ops(f), f, nonblock,
				     &w);
		if (err)
			break;
		memcpy(f->stage + f->stage_len, &w, sizeof(w));
		f->stage_len += sizeof(w);
		*made += sizeof(w) / f->width;
	}
	memzero_explicit(&w, sizeof(w));
	return err ? fairdie_check_health(f, err) : 0;
}

/*
 * Stage new output for userspace: whole binary rolls up to @want bytes, or
 * text lines until @want bytes or the stage is nearly full. Stops early on
 * an error, keeping what was made.
 */
static int fairdie_stage(struct fairdie_file *f, bool nonblock, size_t want)
{
	size_t room = sizeof(f->stage);
	/* The fault build's wrong scaling takes the roll-by-roll road. */
	bool fast = !fairdie_modulo_bits(f);
	u64 v, made = 0;
	int err = 0;

	f->stage_pos = 0;
	f->stage_len = 0;
	f->stage_text = f->format == FAIRDIE_FMT_TEXT;
	f->stage_tail = false;
	/* A short read takes little from the well that others share. */
	if (f->well)
		fd_pipe_set_demand(&f->pipe, 8ULL * min(room, want));
	if (f->format == FAIRDIE_FMT_BINARY) {
		room = min(room, want) / f->width * f->width;
		if (fast)
			err = fairdie_stage_words(f, nonblock, room, &made);
	}
	/* Binary rolls: many at a time, the same rolls. */
	if (!err && fast && f->format == FAIRDIE_FMT_BINARY &&
	    f->stage_len < room) {
		u32 n;

		err = fd_pipe_fill(&f->pipe, fairdie_ops(f), f, nonblock,
				   f->stage + f->stage_len,
				   (room - f->stage_len) / f->width, &n);
		err = fairdie_check_health(f, err);
		f->stage_len += n * f->width;
		made += n;
	}
	while (!err && f->stage_len < room) {
		/* A text line needs up to 21 bytes, and scnprintf() a NUL. */
		if (f->format == FAIRDIE_FMT_TEXT &&
		    (f->stage_len >= want || room - f->stage_len < 22))
			break;
		err = fairdie_roll(f, nonblock, &v);
		if (err)
			break;
		made++;
		if (f->format == FAIRDIE_FMT_BINARY) {
			fd_put_roll(f->stage + f->stage_len, v, f->width);
			f->stage_len += f->width;
		} else {
			f->stage_len += scnprintf(f->stage + f->stage_len,
						  room - f->stage_len,
						  "%llu\n", v + 1);
		}
	}
	f->stats.outputs += made;
	if (fairdie_source_is_hw(f->source))
		atomic64_add(made, &fairdie_counters.outputs);
	return err;
}

/* ---------------------------------------------------------------------
 * File operations.
 */

/*
 * Peres' extractor keeps 60 KiB of state. A hardware source's is its
 * well's; a file reading the kernel CRNG or the simulated coin with PERES
 * allocates its own at its first read, charged to the opener's memory
 * cgroup like the file, and keeps it until it is closed.
 */
static int fairdie_peres_ready(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);

	if (f->well || f->extractor != FAIRDIE_EXT_PERES || f->pipe.peres)
		return 0;
	f->pipe.peres = __vmalloc(sizeof(struct fd_peres), GFP_KERNEL_ACCOUNT);
	if (!f->pipe.peres)
		return -ENOMEM;
	fd_peres_init(f->pipe.peres);
	return 0;
}

static void fairdie_peres_free(struct fd_peres *peres)
{
	if (peres)
		kvfree_sensitive(peres, sizeof(*peres));
}

static int fairdie_open(struct inode *inode, struct file *file)
{
	struct fairdie_file *f;

	/* Like /dev/hwrng: there is nothing to write. */
	if (file->f_mode & FMODE_WRITE)
		return -EINVAL;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	init_waitqueue_head(&f->wait);
	f->client.notify = fairdie_turn_came;
	timer_setup(&f->dry_timer, fairdie_dry_end, 0);
	mutex_lock(&f->lock);
	f->sides = sides;
	f->extractor = fairdie_default_extractor;
	f->source = fairdie_source_resolve(fairdie_default_source);
	f->format = FAIRDIE_FMT_BINARY;
	f->uid = file->f_cred->uid;
	f->sim_cfg.p1_num = 1;
	f->sim_cfg.p1_den = 2;
	fd_sim_init(&f->sim, 0, 1, 2);
	fairdie_flush(f, false);
	fairdie_restart_source(f);
	mutex_unlock(&f->lock);

	file->private_data = f;
	atomic_inc(&fairdie_counters.open_files);
	return nonseekable_open(inode, file);
}

static int fairdie_release(struct inode *inode, struct file *file)
{
	struct fairdie_file *f = file->private_data;

	/* Nothing can re-arm it now: the file has no reader nor poller left. */
	timer_shutdown_sync(&f->dry_timer);
	/* What the file did not use serves the next reader of its well. */
	if (f->well)
		fairdie_well_giveback(f->well, &f->client, &f->pipe);
	fairdie_set_failed(f, false);
	atomic_dec(&fairdie_counters.open_files);
	mutex_destroy(&f->lock);
	fairdie_peres_free(f->pipe.peres);
	kvfree(f->weights);
	kfree_sensitive(f);
	return 0;
}

/*
 * Take the file for a read. The CRNG source first waits, as getrandom(2)
 * does, until the kernel's CRNG is initialised; the wait is interruptible
 * and does not hold the lock.
 */
static int fairdie_read_lock(struct fairdie_file *f, bool nonblock)
{
	int err;

	for (;;) {
		/* Another reader or an ioctl may hold the lock for a while. */
		if (nonblock) {
			if (!mutex_trylock(&f->lock))
				return -EAGAIN;
		} else if (mutex_lock_interruptible(&f->lock)) {
			return -ERESTARTSYS;
		}
		if (f->source != FAIRDIE_SRC_CRNG || rng_is_initialized())
			return 0;
		fairdie_unlock(f);
		if (nonblock) {
			fairdie_set_dry(f);
			return -EAGAIN;
		}
		err = wait_for_random_bytes();
		if (err)
			return err;
	}
}

/*
 * Copy staged output to userspace. Text is a stream of bytes: what was
 * copied is delivered. A binary roll is delivered whole or not at all, and
 * a roll that a fault cut is dropped, never delivered twice (dropping it
 * does not depend on its value, so the rolls delivered stay exact).
 */
static size_t fairdie_copy(struct fairdie_file *f, char __user *buf,
			   size_t len, int *err)
{
	size_t n = min_t(size_t, len, f->stage_len - f->stage_pos);
	size_t left = copy_to_user(buf, f->stage + f->stage_pos, n);

	n -= left;
	if (f->stage_text) {
		f->stage_pos += n;
	} else {
		n -= n % f->width;
		f->stage_pos += left ? n + f->width : n;
	}
	if (left)
		*err = -EFAULT;
	return n;
}

static ssize_t fairdie_read(struct file *file, char __user *buf, size_t len,
			    loff_t *ppos)
{
	struct fairdie_file *f = file->private_data;
	bool nonblock = file->f_flags & O_NONBLOCK;
	size_t done = 0;
	int err;

	err = fairdie_read_lock(f, nonblock);
	if (err)
		return err;

	if (f->failed) {
		err = -EIO;
		goto out_unlock;
	}
	err = fairdie_peres_ready(f);
	if (err)
		goto out_unlock;
	/* Nothing made before a VM fork is delivered after it. */
	fairdie_vmfork_check(f);
	/*
	 * The rest of a text line begun before a switch to the binary format
	 * comes alone, and binary rolls from the next read on.
	 */
	if (f->stage_text && f->format == FAIRDIE_FMT_BINARY &&
	    f->stage_pos < f->stage_len) {
		done = fairdie_copy(f, buf, len, &err);
		goto out_unlock;
	}
	if (f->format == FAIRDIE_FMT_BINARY && len % f->width) {
		err = -EINVAL;
		goto out_unlock;
	}

	while (done < len) {
		/* Nothing made before a VM fork is delivered after it. */
		fairdie_vmfork_check(f);
		if (f->stage_pos == f->stage_len) {
			if (done && signal_pending(current))
				break;
			err = fairdie_stage(f, nonblock, len - done);
			/*
			 * Staged across a VM fork, or stopped by it (-ESTALE):
			 * discarded, and made again.
			 */
			if (fairdie_vmfork_check(f) &&
			    (!err || err == -ESTALE)) {
				err = 0;
				continue;
			}
			if (!f->stage_len)
				break;
		}
		done += fairdie_copy(f, buf + done, len - done, &err);
		if (err)
			break;
		cond_resched();
	}

out_unlock:
	/* Only a flush answers -ESTALE, and it moved the file on. */
	if (WARN_ON_ONCE(err == -ESTALE))
		err = -EIO;
	if (err == -EAGAIN && !done)
		fairdie_set_dry(f);
	if (f->well)
		fairdie_well_end_read(f->well, &f->client);
	if (err == -EIO && !done)
		fairdie_failure_told(f);
	else if (done && !f->failed)
		fairdie_count_failed(f, false);
	fairdie_unlock(f);
	/* A partial read wins over the error that ended it. */
	if (done)
		return done;
	if (err == -EINTR)
		return -ERESTARTSYS;
	return err;
}

/*
 * Readable means that a non-blocking read would not fail with EAGAIN now:
 * the file is not held by another read or an ioctl, and its source did not
 * just run dry. Whoever frees it wakes the waiters.
 */
static __poll_t fairdie_poll(struct file *file, poll_table *wait)
{
	struct fairdie_file *f = file->private_data;

	poll_wait(file, &f->wait, wait);
	/* Pairs with the barrier of wq_has_sleeper() in fairdie_unlock(). */
	smp_mb();
	if (READ_ONCE(f->failed))
		return EPOLLERR;
	if (READ_ONCE(f->source) == FAIRDIE_SRC_CRNG && !rng_is_initialized()) {
		/*
		 * Look again soon: the CRNG tells no module when it is ready
		 * (6.1 exports no notifier for it), so the dry timer wakes the
		 * pollers each tick until it is.
		 */
		fairdie_set_dry(f);
		return 0;
	}
	if (mutex_is_locked(&f->lock))
		return 0;
	/* Bits its well gathered for it wait for it (fairdie_turn_came()). */
	if (READ_ONCE(f->dry) && !READ_ONCE(f->client.notified))
		return 0;
	return EPOLLIN | EPOLLRDNORM;
}

/* ---------------------------------------------------------------------
 * ioctls. Arguments are copied in before the lock is taken and checked in
 * full before anything changes: a failed call changes nothing. Waiting for
 * the lock (held by a long read of the same file) can be interrupted, and
 * the call is then restarted.
 */

static long fairdie_get_info(void __user *argp)
{
	struct fairdie_info info = {
		.version = FAIRDIE_ABI_VERSION,
		.sources = fairdie_sources_present(),
		.extractors = BIT(FAIRDIE_EXT_VN) | BIT(FAIRDIE_EXT_PERES) |
			      BIT(FAIRDIE_EXT_DIJKSTRA) | BIT(FAIRDIE_EXT_NONE),
	};

	return copy_to_user(argp, &info, sizeof(info)) ? -EFAULT : 0;
}

static long fairdie_set_sides(struct fairdie_file *f, void __user *argp)
{
	struct fd_weights *weights;
	u64 n;

	if (copy_from_user(&n, argp, sizeof(n)))
		return -EFAULT;
	if (!n)
		return -EINVAL;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	if (!fd_pipe_supported(n, f->extractor)) {
		fairdie_unlock(f);
		return -EINVAL;
	}
	/* Unread fair bits and the sampler's state serve the new die. */
	f->sides = n;
	fd_pipe_set_sides(&f->pipe, n);
	f->width = fd_roll_width(n);
	fairdie_drop_unread(f, false);
	/* A weighted die is left: freed once the lock is dropped. */
	weights = f->weights;
	f->weights = NULL;
	fairdie_unlock(f);
	kvfree(weights);
	return 0;
}

static long fairdie_set_extractor(struct fairdie_file *f, void __user *argp)
{
	u32 ext;

	if (copy_from_user(&ext, argp, sizeof(ext)))
		return -EFAULT;
	if (ext >= FD_EXTRACTORS)
		return -EINVAL;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	if (!fd_pipe_supported(f->sides, ext) ||
	    (f->weights && ext == FAIRDIE_EXT_DIJKSTRA)) {
		fairdie_unlock(f);
		return -EINVAL;
	}
	f->extractor = ext;
	fairdie_flush(f, false);
	fairdie_unlock(f);
	return 0;
}

static long fairdie_set_source(struct fairdie_file *f, void __user *argp)
{
	u32 src;

	if (copy_from_user(&src, argp, sizeof(src)))
		return -EFAULT;
	if (src >= FAIRDIE_SOURCES)
		return -EINVAL;
	if (!(fairdie_sources_present() & BIT(src)))
		return -ENODEV;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	/* fairdie_poll() reads it without the lock. */
	WRITE_ONCE(f->source, fairdie_source_resolve(src));
	fairdie_flush(f, false);
	fairdie_restart_source(f);
	fairdie_unlock(f);
	return 0;
}

static long fairdie_set_format(struct fairdie_file *f, void __user *argp)
{
	u32 fmt;

	if (copy_from_user(&fmt, argp, sizeof(fmt)))
		return -EFAULT;
	if (fmt >= FAIRDIE_FORMATS)
		return -EINVAL;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	/* The same format changes nothing; another drops unread output. */
	if (fmt != f->format) {
		f->format = fmt;
		fairdie_drop_unread(f, false);
	}
	fairdie_unlock(f);
	return 0;
}

static long fairdie_set_sim(struct fairdie_file *f, void __user *argp)
{
	struct fairdie_sim sim;
	struct fd_sim coin;

	if (copy_from_user(&sim, argp, sizeof(sim)))
		return -EFAULT;
	if (!fd_sim_init(&coin, sim.seed, sim.p1_num, sim.p1_den))
		return -EINVAL;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	f->sim_cfg = sim;
	f->sim = coin;
	if (f->source == FAIRDIE_SRC_SIM) {
		fairdie_flush(f, false);
		fairdie_restart_source(f);
	}
	fairdie_unlock(f);
	return 0;
}

/*
 * Back to the state of a fresh open, configuration kept; only the rest of
 * a text line already begun survives, so the stream stays whole lines.
 */
static long fairdie_reset(struct fairdie_file *f)
{
	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	fairdie_flush(f, false);
	fairdie_restart_source(f);
	memset(&f->stats, 0, sizeof(f->stats));
	fd_pipe_clear_counters(&f->pipe);
	fairdie_unlock(f);
	return 0;
}

/* GET_SIDES, GET_EXTRACTOR, GET_SOURCE and GET_FORMAT. */
static long fairdie_get_config(struct fairdie_file *f, unsigned int cmd,
			       void __user *argp)
{
	union {
		u64 sides;
		u32 value;
	} u;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	switch (cmd) {
	case FAIRDIE_IOC_GET_SIDES:
		u.sides = f->sides;
		break;
	case FAIRDIE_IOC_GET_EXTRACTOR:
		u.value = f->extractor;
		break;
	case FAIRDIE_IOC_GET_SOURCE:
		u.value = f->source;
		break;
	case FAIRDIE_IOC_GET_FORMAT:
		u.value = f->format;
		break;
	default:
		fairdie_unlock(f);
		return -ENOTTY;
	}
	fairdie_unlock(f);
	/* The command encodes the size of its argument. */
	return copy_to_user(argp, &u, _IOC_SIZE(cmd)) ? -EFAULT : 0;
}

static long fairdie_get_sim(struct fairdie_file *f, void __user *argp)
{
	struct fairdie_sim sim;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	sim = f->sim_cfg;
	fairdie_unlock(f);
	return copy_to_user(argp, &sim, sizeof(sim)) ? -EFAULT : 0;
}

static long fairdie_get_stats(struct fairdie_file *f, void __user *argp)
{
	struct fd_pipe_counters c;
	struct fairdie_stats st;

	if (mutex_lock_interruptible(&f->lock))
		return -ERESTARTSYS;
	st = f->stats;
	fd_pipe_counters(&f->pipe, &c);
	fairdie_unlock(f);
	st.source_bits = c.source_bits;
	st.extracted_bits = c.extracted_bits;
	st.sampler_bits = c.sampler_bits;
	return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
}

/* ---------------------------------------------------------------------
 * Weighted dice.
 */

static_assert(FAIRDIE_MAX_FACES == FD_WEIGHTS_MAX_FACES);

/*
 * A weighted die from the user's weights, checked and built before the
 * file is locked, so that bad input changes nothing. The die and its
 * table are one allocation, charged to the opener: 24 bytes per face and
 * at least 4 KiB, at most 1.5 MiB for FAIRDIE_MAX_FACES faces.
 */
static struct fd_weights *fairdie_weights_new(const struct fairdie_weights *arg)
{
	struct fd_weights *w;
	u64 *table;
	size_t words;
	int err;

	if (arg->flags || !arg->count || arg->count > FAIRDIE_MAX_FACES)
		return ERR_PTR(-EINVAL);
	words = fd_weights_table_words(arg->count);
	w = kvmalloc(sizeof(*w) + words * sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!w)
		return ERR_PTR(-ENOMEM);
	table = (u64 *)(w + 1);
	if (copy_from_user(table + 1, u64_to_user_ptr(arg->weights),
			   arg->count * sizeof(u64))) {
		kvfree(w);
		return ERR_PTR(-EFAULT);
	}
	err = fd_weights_init(w, table, arg->count);
	if (err) {
		kvfree(w);
		return ERR_PTR(err);
	}
	return w;
}

static long fairdie_set_weights(struct fairdie_file *f, void __user *argp)
{
	struct fairdie_weights arg;
	struct fd_weights *w;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	w = fairdie_weights_new(&arg);
	if (IS_ERR(w))
		return PTR_ERR(w);

	if (mutex_lock_interruptible(&f->lock)) {
		kvfree(w);
		return -ERESTARTSYS;
	}
	/* Dijkstra's roulette rolls uniform dice only. */
	if (f->extractor == FAIRDIE_EXT_DIJKSTRA) {
		fairdie_unlock(f);
		kvfree(w);
		return -EINVAL;
	}
	/* As for SET_SIDES, what is in flight serves the new die. */
	swap(f->weights, w);
	f->sides = f->weights->count;
	fd_pipe_set_weights(&f->pipe, f->weights);
	f->width = fd_roll_width(f->sides);
	fairdie_drop_unread(f, false);
	fairdie_unlock(f);
	kvfree(w);
	return 0;
}

/*
 * The weights are copied to a buffer under the lock and out to the user
 * after it: a fault on the user's buffer (swapped out, or resolved by a
 * userfaultfd handler that takes its time) never holds up the file's
 * readers and other ioctls.
 */
static long fairdie_get_weights(struct fairdie_file *f, void __user *argp)
{
	struct fairdie_weights arg;
	u32 i, n = 0, room;
	u64 *buf = NULL;
	long err = 0;

	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if (arg.flags)
		return -EINVAL;
	room = min_t(u32, arg.count, FAIRDIE_MAX_FACES);
	if (room) {
		buf = kvmalloc_array(room, sizeof(*buf), GFP_KERNEL_ACCOUNT);
		if (!buf)
			return -ENOMEM;
	}

	if (mutex_lock_interruptible(&f->lock)) {
		kvfree(buf);
		return -ERESTARTSYS;
	}
	if (f->weights)
		n = f->weights->count;
	room = min(room, n);
	for (i = 0; i < room; i++)
		buf[i] = fd_weights_weight(f->weights, i);
	fairdie_unlock(f);

	if (room && copy_to_user(u64_to_user_ptr(arg.weights), buf,
				 room * sizeof(*buf)))
		err = -EFAULT;
	kvfree(buf);
	if (err)
		return err;
	arg.count = n;
	return copy_to_user(argp, &arg, sizeof(arg)) ? -EFAULT : 0;
}

static long fairdie_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct fairdie_file *f = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case FAIRDIE_IOC_GET_INFO:
		return fairdie_get_info(argp);
	case FAIRDIE_IOC_SET_SIDES:
		return fairdie_set_sides(f, argp);
	case FAIRDIE_IOC_GET_SIDES:
		return fairdie_get_config(f, cmd, argp);
	case FAIRDIE_IOC_SET_EXTRACTOR:
		return fairdie_set_extractor(f, argp);
	case FAIRDIE_IOC_GET_EXTRACTOR:
		return fairdie_get_config(f, cmd, argp);
	case FAIRDIE_IOC_SET_SOURCE:
		return fairdie_set_source(f, argp);
	case FAIRDIE_IOC_GET_SOURCE:
		return fairdie_get_config(f, cmd, argp);
	case FAIRDIE_IOC_SET_FORMAT:
		return fairdie_set_format(f, argp);
	case FAIRDIE_IOC_GET_FORMAT:
		return fairdie_get_config(f, cmd, argp);
	case FAIRDIE_IOC_SET_SIM:
		return fairdie_set_sim(f, argp);
	case FAIRDIE_IOC_GET_SIM:
		return fairdie_get_sim(f, argp);
	case FAIRDIE_IOC_GET_STATS:
		return fairdie_get_stats(f, argp);
	case FAIRDIE_IOC_RESET:
		return fairdie_reset(f);
	case FAIRDIE_IOC_SET_WEIGHTS:
		return fairdie_set_weights(f, argp);
	case FAIRDIE_IOC_GET_WEIGHTS:
		return fairdie_get_weights(f, argp);
	case FAIRDIE_IOC_GET_RAW:
		return fairdie_get_raw(f, argp);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations fairdie_fops = {
	.owner = THIS_MODULE,
	.open = fairdie_open,
	.release = fairdie_release,
	.read = fairdie_read,
	.poll = fairdie_poll,
	.unlocked_ioctl = fairdie_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/* ---------------------------------------------------------------------
 * sysfs: /sys/class/misc/fairdie/, see Documentation/ABI/.
 */

static ssize_t source_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	u32 src = fairdie_source_resolve(fairdie_default_source);

	return sysfs_emit(buf, "%s\n", fairdie_source_name(src));
}
static DEVICE_ATTR_RO(source);

static ssize_t available_sources_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	u32 present = fairdie_sources_present();
	int len = 0, i;

	for (i = 0; i < FAIRDIE_SOURCES; i++)
		if (present & BIT(i))
			len += sysfs_emit_at(buf, len, "%s%s", len ? " " : "",
					     fairdie_source_name(i));
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(available_sources);

static ssize_t health_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	int failed = atomic_read(&fairdie_counters.failed_files);

	if (failed)
		return sysfs_emit(buf, "failed %d\n", failed);
	return sysfs_emit(buf, "ok\n");
}
static DEVICE_ATTR_RO(health);

static ssize_t hwrng_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", fairdie_hwrng_state());
}
static DEVICE_ATTR_RO(hwrng);

static ssize_t source_bits_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&fairdie_counters.source_bits));
}
static DEVICE_ATTR_RO(source_bits);

static ssize_t outputs_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&fairdie_counters.outputs));
}
static DEVICE_ATTR_RO(outputs);

static ssize_t health_failures_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&fairdie_counters.health_failures));
}
static DEVICE_ATTR_RO(health_failures);

static ssize_t source_failures_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&fairdie_counters.source_failures));
}
static DEVICE_ATTR_RO(source_failures);

static ssize_t open_files_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&fairdie_counters.open_files));
}
static DEVICE_ATTR_RO(open_files);

static struct attribute *fairdie_attrs[] = {
	&dev_attr_source.attr,
	&dev_attr_available_sources.attr,
	&dev_attr_health.attr,
	&dev_attr_hwrng.attr,
	&dev_attr_source_bits.attr,
	&dev_attr_outputs.attr,
	&dev_attr_health_failures.attr,
	&dev_attr_source_failures.attr,
	&dev_attr_open_files.attr,
	&dev_attr_vm_forks.attr,
	NULL
};
ATTRIBUTE_GROUPS(fairdie);

static struct miscdevice fairdie_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = KBUILD_MODNAME,
	.fops = &fairdie_fops,
	.mode = 0444,
	.groups = fairdie_groups,
};

/* ---------------------------------------------------------------------
 * Module load and unload.
 */

static int __init fairdie_parse_hwrng(void)
{
	u32 present = fairdie_sources_present();

	/*
	 * 0 means no credit to the 6.1 hwrng core and full credit to later
	 * ones: refuse it; hwrng=off is the way to credit nothing.
	 */
	if (!hwrng_quality || hwrng_quality > 1024) {
		pr_err("hwrng_quality=%u: from 1 to 1024 bits per 1024 (hwrng=off credits nothing)\n",
		       hwrng_quality);
		return -EINVAL;
	}
	if (sysfs_streq(hwrng, "off")) {
		fairdie_hwrng_source = FAIRDIE_SRC_AUTO;
	} else if (sysfs_streq(hwrng, "auto")) {
		fairdie_hwrng_source = present & BIT(FAIRDIE_SRC_RDSEED) ?
				       FAIRDIE_SRC_RDSEED : FAIRDIE_SRC_AUTO;
	} else if (sysfs_streq(hwrng, "rdseed") ||
		   sysfs_streq(hwrng, "rdrand")) {
		fairdie_hwrng_source = fairdie_source_parse(hwrng);
		if (!(present & BIT(fairdie_hwrng_source))) {
			pr_err("hwrng=%s: not available on this machine\n",
			       hwrng);
			return -ENODEV;
		}
	} else {
		pr_err("hwrng=%s: not one of auto, off, rdseed, rdrand\n",
		       hwrng);
		return -EINVAL;
	}
	/*
	 * Never more than random.c grants the same instruction: nothing
	 * at all when it does not trust the CPU's generator.
	 */
	if (fairdie_hwrng_source != FAIRDIE_SRC_AUTO && !fairdie_trust_cpu()) {
		pr_notice("hwrng=%s: not registered, since random.c does not trust the CPU's generator\n",
			  hwrng);
		fairdie_hwrng_source = FAIRDIE_SRC_AUTO;
	}
	if (fairdie_hwrng_source == FAIRDIE_SRC_RDRAND &&
	    hwrng_quality > FAIRDIE_RDRAND_QUALITY) {
		pr_notice("hwrng=rdrand: RDRAND is a DRBG's output, credited at most %u bits per 1024, not %u\n",
			  FAIRDIE_RDRAND_QUALITY, hwrng_quality);
		hwrng_quality = FAIRDIE_RDRAND_QUALITY;
	}
	return 0;
}

static int __init fairdie_parse_params(void)
{
	int ext, src;

	if (!sides) {
		pr_err("sides=0: a die needs at least one side\n");
		return -EINVAL;
	}
	ext = fairdie_parse_name(extractor, fairdie_extractor_names,
				 FD_EXTRACTORS);
	if (ext < 0) {
		pr_err("extractor=%s: not one of vn, peres, dijkstra, none\n",
		       extractor);
		return -EINVAL;
	}
	if (!fd_pipe_supported(sides, ext)) {
		pr_err("extractor=dijkstra needs sides whose prime factors are all <= 64, not %llu\n",
		       sides);
		return -EINVAL;
	}
	src = fairdie_source_parse(source);
	if (src < 0) {
		pr_err("source=%s: not one of auto, rdseed, rdrand, crng\n",
		       source);
		return -EINVAL;
	}
	if (!(fairdie_sources_present() & BIT(src))) {
		pr_err("source=%s: not available on this machine\n", source);
		return -ENODEV;
	}
	if (user_rate > 10000000) {
		pr_err("user_rate=%u: at most 10000000 kbit/s (0: no cap)\n",
		       user_rate);
		return -EINVAL;
	}
	fairdie_user_bps = (u64)user_rate * 1000;
	fairdie_default_extractor = ext;
	fairdie_default_source = src;
	return fairdie_parse_hwrng();
}

static int __init fairdie_init(void)
{
	int err;

	fairdie_sources_probe();
	err = fairdie_parse_params();
	if (err)
		return err;
	err = fairdie_fault_init();
	if (err)
		return err;
	fairdie_wells_init();
	err = fairdie_vmfork_init();
	if (err) {
		pr_err("cannot join the VM fork notifier chain: %d\n", err);
		goto out_wells_exit;
	}
	if (fairdie_hwrng_source != FAIRDIE_SRC_AUTO) {
		err = fairdie_hwrng_register(fairdie_hwrng_source,
					     hwrng_quality);
		if (err) {
			pr_err("cannot register the hwrng: %d\n", err);
			goto out_vmfork_exit;
		}
	}
	err = misc_register(&fairdie_misc);
	if (err) {
		pr_err("cannot register /dev/%s: %d\n", KBUILD_MODNAME, err);
		goto out_unregister_hwrng;
	}
	pr_info("ready: %llu sides, %s, source %s, hwrng %s\n", sides,
		fairdie_extractor_names[fairdie_default_extractor],
		fairdie_source_name(fairdie_source_resolve(fairdie_default_source)),
		fairdie_hwrng_state());
	return 0;

out_unregister_hwrng:
	fairdie_hwrng_unregister();
out_vmfork_exit:
	fairdie_vmfork_exit();
out_wells_exit:
	fairdie_wells_exit();
	fairdie_fault_exit();
	return err;
}

static void __exit fairdie_exit(void)
{
	/* sysfs goes first: its hwrng attribute looks at the pipeline. */
	misc_deregister(&fairdie_misc);
	fairdie_hwrng_unregister();
	fairdie_vmfork_exit();
	fairdie_wells_exit();
	fairdie_fault_exit();
}

module_init(fairdie_init);
module_exit(fairdie_exit);

MODULE_DESCRIPTION("Exactly fair dice from the CPU's hardware random number generator");
MODULE_AUTHOR("The fairdie authors");
MODULE_LICENSE("GPL");
/* The release, as dkms.conf's PACKAGE_VERSION: /sys/module/fairdie/version. */
MODULE_VERSION("1.0");
