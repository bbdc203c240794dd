// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - who shares the wells: parties, users and the users' cap
 * (module parameter user_rate).
 *
 * A party is a user in a cgroup (v2): the opener of a file and the cgroup
 * it was in when it opened it. The wells are fair between parties, then
 * between one party's files (driver/fd_share.c): two containers running as
 * root are two parties, and a user with 16 files gets what a user with one
 * gets. Each party keeps its place on each well in its own record, found
 * when a file is opened and held until it is closed.
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

#include <linux/cgroup.h>
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

/* The cap, kbit/s; root may change it while the module is loaded. */
static unsigned int user_rate;

static int fairdie_user_rate_set(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err || v > 10000000) {
		pr_err("user_rate=%s: at most 10000000 kbit/s (0: no cap)\n",
		       val);
		return -EINVAL;
	}
	WRITE_ONCE(user_rate, v);
	return 0;
}

static const struct kernel_param_ops fairdie_user_rate_ops = {
	.set = fairdie_user_rate_set,
	.get = param_get_uint,
};

module_param_cb(user_rate, &fairdie_user_rate_ops, &user_rate, 0644);
MODULE_PARM_DESC(user_rate,
		 "Most fair bits one user's readers may receive from RDSEED/RDRAND, in kbit/s, 0..10000000; 0 for no cap (default 0)");

/* user_rate in bits per second. */
static u64 fairdie_user_bps(void)
{
	return (u64)READ_ONCE(user_rate) * 1000;
}

/**
 * struct fairdie_user - one user of the hardware sources
 * @node: in fairdie_users
 * @uid: the user
 * @refs: parties of the user (fairdie_share_lock)
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

/**
 * struct fairdie_party - a user in a cgroup, on every well
 * @node: in fairdie_parties
 * @uid: the user
 * @cgroup: the cgroup's id (cgroup v2); 0 without cgroups
 * @refs: open files of the party (fairdie_share_lock)
 * @user: the user's record
 * @sched: its place on each well (fairdie_well_index()), under that
 *	well's lock
 */
struct fairdie_party {
	struct hlist_node node;
	kuid_t uid;
	u64 cgroup;
	unsigned int refs;
	struct fairdie_user *user;
	struct fd_share_party sched[FAIRDIE_WELLS];
};

/* Protects fairdie_users, fairdie_parties and their counts. */
static DEFINE_MUTEX(fairdie_share_lock);
static DEFINE_HASHTABLE(fairdie_users, 6);
static DEFINE_HASHTABLE(fairdie_parties, 6);

static struct fairdie_user *fairdie_user_get(kuid_t uid)
{
	struct fairdie_user *u;

	lockdep_assert_held(&fairdie_share_lock);
	hash_for_each_possible(fairdie_users, u, node, __kuid_val(uid)) {
		if (uid_eq(u->uid, uid)) {
			u->refs++;
			return u;
		}
	}
	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (u) {
		u->uid = uid;
		u->refs = 1;
		spin_lock_init(&u->lock);
		hash_add(fairdie_users, &u->node, __kuid_val(uid));
	}
	return u;
}

static void fairdie_user_put(struct fairdie_user *u)
{
	lockdep_assert_held(&fairdie_share_lock);
	if (!--u->refs) {
		hash_del(&u->node);
		kfree(u);
	}
}

/* The cgroup (v2) of the caller, 0 without cgroups. */
static u64 fairdie_current_cgroup(void)
{
#ifdef CONFIG_CGROUPS
	u64 id;

	rcu_read_lock();
	id = cgroup_id(task_dfl_cgroup(current));
	rcu_read_unlock();
	return id;
#else
	return 0;
#endif
}

/**
 * fairdie_party_get() - the party of a file being opened: its opener, in
 *	the caller's cgroup
 * @uid: the opener
 *
 * Return: the record, held until fairdie_party_put(); NULL when memory ran
 * out.
 */
struct fairdie_party *fairdie_party_get(kuid_t uid)
{
	u64 cgroup = fairdie_current_cgroup();
	u64 key = cgroup * 0x9e3779b97f4a7c15ULL ^ __kuid_val(uid);
	struct fairdie_party *pt;

	mutex_lock(&fairdie_share_lock);
	hash_for_each_possible(fairdie_parties, pt, node, key) {
		if (uid_eq(pt->uid, uid) && pt->cgroup == cgroup) {
			pt->refs++;
			goto out;
		}
	}
	pt = kzalloc(sizeof(*pt), GFP_KERNEL_ACCOUNT);
	if (!pt)
		goto out;
	pt->user = fairdie_user_get(uid);
	if (!pt->user) {
		kfree(pt);
		pt = NULL;
		goto out;
	}
	pt->uid = uid;
	pt->cgroup = cgroup;
	pt->refs = 1;
	hash_add(fairdie_parties, &pt->node, key);
out:
	mutex_unlock(&fairdie_share_lock);
	return pt;
}

/**
 * fairdie_party_put() - a file of the party is closed
 * @pt: from fairdie_party_get(), or NULL; none of its files waits in a
 *	well's queue any more
 */
void fairdie_party_put(struct fairdie_party *pt)
{
	if (!pt)
		return;
	mutex_lock(&fairdie_share_lock);
	if (!--pt->refs) {
		hash_del(&pt->node);
		fairdie_user_put(pt->user);
		kfree(pt);
	}
	mutex_unlock(&fairdie_share_lock);
}

/**
 * fairdie_party_sched() - a party's place on a well
 * @pt: the party, or NULL for none (the hwrng)
 * @well: the well's index, below FAIRDIE_WELLS
 *
 * Return: its record for fd_well_join(); NULL for @pt NULL (the well's
 * own party).
 */
struct fd_share_party *fairdie_party_sched(struct fairdie_party *pt, u32 well)
{
	if (!pt || WARN_ON_ONCE(well >= FAIRDIE_WELLS))
		return NULL;
	return &pt->sched[well];
}

/**
 * fairdie_user_wait() - wait until a party's user may receive bits again
 * @pt: the party, or NULL for none (the hwrng)
 * @nonblock: return -EAGAIN rather than wait
 * @allow: set to the bits it may receive now (~0U without a cap)
 *
 * The wait holds no place in any well's queue, and ends early on a
 * signal.
 *
 * Return: 0, -EAGAIN or -EINTR.
 */
int fairdie_user_wait(struct fairdie_party *pt, bool nonblock, u32 *allow)
{
	u64 rate = fairdie_user_bps(), wait_ns;
	struct fairdie_user *u;
	ktime_t wait;

	*allow = ~0U;
	if (!pt || !rate)
		return 0;
	u = pt->user;
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
 * fairdie_user_charge() - a reader of a party received @bits
 * @pt: the party, or NULL for none
 * @bits: fair bits (raw bits from a DIJKSTRA well) it received
 */
void fairdie_user_charge(struct fairdie_party *pt, u64 bits)
{
	u64 rate = fairdie_user_bps();
	struct fairdie_user *u;

	if (!pt || !rate || !bits)
		return;
	u = pt->user;
	spin_lock(&u->lock);
	fd_rate_charge(&u->rate, rate, bits, ktime_get_ns());
	spin_unlock(&u->lock);
}
