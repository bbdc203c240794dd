// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the ioctls of /dev/fairdie: a file's configuration, its
 * statistics, its weighted die and the raw words of its source. See
 * Documentation/userspace-api/fairdie.rst for the ABI.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "fairdie.h"

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

/*
 * FAIRDIE_IOC_GET_RAW
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
static long fairdie_get_raw(struct fairdie_file *f, void __user *argp)
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

/**
 * fairdie_ioctl() - the ioctls of an open file
 * @file: the open file
 * @cmd: the command, matched on its full number
 * @arg: its argument, a user address (compat_ptr_ioctl() converts it)
 *
 * Return: 0 or a negative errno; -ENOTTY for an unknown command.
 */
long fairdie_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
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
