// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - an open file of /dev/fairdie: its pipeline and its read path
 *
 *   source -> health tests -> extractor -> fair bits -> exact sampler -> format
 *
 * open(), read(), poll() and release(), and the helpers through which the
 * ioctls (ioctl.c) change a file's configuration. A file of RDSEED or
 * RDRAND takes its fair bits from the device-wide well of its source and
 * extractor (well.c); the CRNG and the simulated coin feed a pipeline of
 * the file's own. See Documentation/userspace-api/fairdie.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
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

/* The configuration a new open file starts with (module parameters). */
u64 fairdie_default_sides = 6;
u32 fairdie_default_extractor;
u32 fairdie_default_source;

/* ---------------------------------------------------------------------
 * The pipeline of one open file.
 */

/**
 * fairdie_drop_unread() - drop the output made but not yet read
 * @f: the open file, locked
 * @forked: a VM fork came since the output was made
 *
 * Whole rolls, or whole lines, are dropped and wiped. The rest of a text
 * line already begun is kept and delivered first, whatever the
 * configuration is now: it is a finished roll of the die in force when it
 * was made, and the text stream stays a sequence of whole lines. After a
 * VM fork that rest was made in an older generation: it is dropped too,
 * and only the line's end, a newline, comes, so the stream stays whole
 * lines.
 */
void fairdie_drop_unread(struct fairdie_file *f, bool forked)
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
			fairdie_well_join(w, &f->client, f->party);
	}
}

/**
 * fairdie_flush() - discard every bit and partial roll in flight
 * @f: the open file, locked
 * @forked: a VM fork came since its state was made
 *
 * The next roll is made from the current configuration only: the fair bits
 * and the recycled state go back to the well they came from, unused, if
 * they were made in the current VM generation. After a VM fork the rest of
 * a text line begun is dropped too: this is the one way a file's state
 * leaves an older generation (fairdie_well_flush()). Statistics are kept.
 */
void fairdie_flush(struct fairdie_file *f, bool forked)
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
		fairdie_well_wake(c);
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

/**
 * fairdie_restart_source() - restart the file's source
 * @f: the open file, locked
 *
 * Clears the failure latch, re-arms the health tests for the source's
 * claimed entropy and its start-up test, and restarts the simulated coin
 * from its seed. The coin is judged by its own bias, the kernel CRNG (a
 * DRBG) not at all; a hardware source's tests are its well's, which the
 * file joins again: a well that failed restarts, with a fresh start-up
 * test, when the file next takes from it.
 */
void fairdie_restart_source(struct fairdie_file *f)
{
	lockdep_assert_held(&f->lock);

	fairdie_set_failed(f, false);
	if (f->source == FAIRDIE_SRC_SIM)
		fd_pipe_restart(&f->pipe, f->sim_cfg.p1_num, f->sim_cfg.p1_den,
				true, false);
	else
		fd_pipe_restart(&f->pipe, 1, 2, false, false);
	if (f->well)
		fairdie_well_join(f->well, &f->client, f->party);
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
	fairdie_well_join(f->well, &f->client, f->party);
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

/*
 * Bits from the file's well, within what its user may receive (user_rate):
 * a reader over the cap waits before it joins the queue, and asks for no
 * more than its user's allowance.
 */
static int fairdie_well_fill_file(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct fairdie_file *f = ctx;
	u32 before = p->pool.count, want = p->want_bits, allow;
	int err;

	lockdep_assert_held(&f->lock);
	err = fairdie_user_wait(f->party, true, &allow);
	if (err == -EAGAIN) {
		/* Over the cap: no place held in the queue meanwhile. */
		fairdie_well_step_out(f->well, &f->client);
		if (!nonblock)
			err = fairdie_user_wait(f->party, false, &allow);
	}
	if (err)
		return err;
	p->want_bits = clamp(allow, 64U, want);
	err = fairdie_well_fill(f->well, &f->client, f->source,
				&fairdie_source_ops, f, nonblock, p);
	p->want_bits = want;
	fairdie_user_charge(f->party, p->pool.count - before);
	return err;
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

/**
 * fairdie_open() - open /dev/fairdie: a file with the module's defaults
 * @inode: the device's inode
 * @file: the new file; opening for writing is refused
 *
 * Return: 0, -EINVAL for a file opened for writing, or -ENOMEM.
 */
int fairdie_open(struct inode *inode, struct file *file)
{
	struct fairdie_file *f;

	/* Like /dev/hwrng: there is nothing to write. */
	if (file->f_mode & FMODE_WRITE)
		return -EINVAL;

	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return -ENOMEM;
	f->party = fairdie_party_get(file->f_cred->uid);
	if (!f->party) {
		kfree(f);
		return -ENOMEM;
	}
	mutex_init(&f->lock);
	init_waitqueue_head(&f->wait);
	f->client.notify = fairdie_turn_came;
	f->client.keeps_place = true;
	timer_setup(&f->dry_timer, fairdie_dry_end, 0);
	mutex_lock(&f->lock);
	f->sides = fairdie_default_sides;
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

/**
 * fairdie_release() - the last close: unused bits go back to the well
 * @inode: the device's inode
 * @file: the file
 *
 * Return: 0.
 */
int fairdie_release(struct inode *inode, struct file *file)
{
	struct fairdie_file *f = file->private_data;

	/* Nothing can re-arm it now: the file has no reader nor poller left. */
	timer_shutdown_sync(&f->dry_timer);
	/* What the file did not use serves the next reader of its well. */
	if (f->well)
		fairdie_well_giveback(f->well, &f->client, &f->pipe);
	fairdie_set_failed(f, false);
	fairdie_party_put(f->party);
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

/**
 * fairdie_read() - rolls, in the file's format
 * @file: the open file
 * @buf: the user's buffer
 * @len: its length; a multiple of the roll's width in the binary format
 * @ppos: unused (the device is not seekable)
 *
 * A blocking read returns @len bytes unless a signal or an error comes
 * first: see Documentation/userspace-api/fairdie.rst for every case.
 *
 * Return: the bytes read, or a negative errno when there are none.
 */
ssize_t fairdie_read(struct file *file, char __user *buf, size_t len,
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

/**
 * fairdie_poll() - whether a read would go through now
 * @file: the open file
 * @wait: the poll table
 *
 * Readable means that a non-blocking read would not fail with EAGAIN now:
 * the file is not held by another read or an ioctl, and its source did not
 * just run dry. Whoever frees it wakes the waiters.
 *
 * Return: EPOLLERR while the failure latch is set, else EPOLLIN |
 * EPOLLRDNORM when readable, else 0.
 */
__poll_t fairdie_poll(struct file *file, poll_table *wait)
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

