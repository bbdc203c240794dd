// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - who shares the wells: users and their cap (module parameter
 * user_rate).
 *
 * Every opener's user has one struct fairdie_user, looked up when a file is
 * opened and held until it is closed, however many users there are. Its
 * rate state (driver/fd_share.c) caps the bits its readers receive from
 * every well together: a reader asks for no more than its user may receive
 * now, waits before it asks when that is nothing, and what it received is
 * charged after the fact. The charge takes the user's own spinlock, once
 * per take from a well (not per raw word); no lock is shared by two users.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "fairdie.h"
#include "fd_share.h"

static uint user_rate;
module_param(user_rate, uint, 0444);
MODULE_PARM_DESC(user_rate,
		 "Most fair bits one user's readers may receive from RDSEED/RDRAND, in kbit/s, 1..10000000; 0 for no cap (default 0)");

/* user_rate in bits per second, set once at load. */
static u64 fairdie_user_bps;

/**
 * struct fairdie_user - one user of the hardware sources
 * @node: in fairdie_users
 * @uid: the user
 * @refs: open files of the user (fairdie_share_lock)
 * @lock: protects @rate
 * @rate: what its readers received, against user_rate
 */
struct fairdie_user {
	struct hlist_node node;
	kuid_t uid;
	unsigned int refs;
	spinlock_t lock;	/* protects @rate */
	struct fd_rate rate;
};

static DEFINE_MUTEX(fairdie_share_lock);	/* protects fairdie_users */
static DEFINE_HASHTABLE(fairdie_users, 6);

/**
 * fairdie_user_get() - the record of a user, for a file it opens
 * @uid: the user
 *
 * Return: the record, held until fairdie_user_put(); NULL when memory ran
 * out.
 */
struct fairdie_user *fairdie_user_get(kuid_t uid)
{
	struct fairdie_user *u;

	mutex_lock(&fairdie_share_lock);
	hash_for_each_possible(fairdie_users, u, node, __kuid_val(uid)) {
		if (uid_eq(u->uid, uid)) {
			u->refs++;
			goto out;
		}
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (u) {
		u->uid = uid;
		u->refs = 1;
		spin_lock_init(&u->lock);
		hash_add(fairdie_users, &u->node, __kuid_val(uid));
	}
out:
	mutex_unlock(&fairdie_share_lock);
	return u;
}

/**
 * fairdie_user_put() - a file of the user is closed
 * @u: from fairdie_user_get(), or NULL
 */
void fairdie_user_put(struct fairdie_user *u)
{
	if (!u)
		return;
	mutex_lock(&fairdie_share_lock);
	if (!--u->refs) {
		hash_del(&u->node);
		kfree(u);
	}
	mutex_unlock(&fairdie_share_lock);
}

/**
 * fairdie_user_wait() - wait until a user may receive bits again
 * @u: the user, or NULL for none (the hwrng)
 * @nonblock: return -EAGAIN rather than wait
 * @allow: set to the bits it may receive now (~0U without a cap)
 *
 * The wait holds no place in any well's queue, and ends early on a
 * signal.
 *
 * Return: 0, -EAGAIN or -EINTR.
 */
int fairdie_user_wait(struct fairdie_user *u, bool nonblock, u32 *allow)
{
	u64 rate = fairdie_user_bps, wait_ns;
	ktime_t wait;

	*allow = ~0U;
	if (!u || !rate)
		return 0;
	for (;;) {
		spin_lock(&u->lock);
		wait_ns = fd_rate_wait(&u->rate, rate, 64, ktime_get_ns());
		*allow = fd_rate_allow(&u->rate, rate, ktime_get_ns());
		spin_unlock(&u->lock);
		if (!wait_ns)
			return 0;
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -EINTR;
		wait = ns_to_ktime(wait_ns);
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout_range(&wait, 100 * NSEC_PER_USEC,
					 HRTIMER_MODE_REL);
	}
}

/**
 * fairdie_user_charge() - a user's reader received @bits
 * @u: the user, or NULL for none
 * @bits: fair bits (raw bits from a DIJKSTRA well) it received
 */
void fairdie_user_charge(struct fairdie_user *u, u64 bits)
{
	if (!u || !fairdie_user_bps || !bits)
		return;
	spin_lock(&u->lock);
	fd_rate_charge(&u->rate, fairdie_user_bps, bits, ktime_get_ns());
	spin_unlock(&u->lock);
}

/**
 * fairdie_share_init() - check user_rate, at load
 *
 * Return: 0, or -EINVAL for a value out of range.
 */
int __init fairdie_share_init(void)
{
	if (user_rate > 10000000) {
		pr_err("user_rate=%u: at most 10000000 kbit/s (0: no cap)\n",
		       user_rate);
		return -EINVAL;
	}
	fairdie_user_bps = (u64)user_rate * 1000;
	return 0;
}
