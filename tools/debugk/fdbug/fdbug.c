// SPDX-License-Identifier: GPL-2.0
/*
 * fdbug - a module that does one thing wrong on purpose, to show that the
 * debug kernel's checkers fire and that a VM run fails when they do
 * (tools/debugk/canary.sh).  Test builds only: it is built from its own
 * directory, never part of fairdie.ko, and never installed.
 *
 *   insmod fdbug.ko bug=oob     reads past a kmalloc'd buffer (KASAN)
 *   insmod fdbug.ko bug=leak    loses kmalloc'd buffers (kmemleak)
 *   insmod fdbug.ko bug=shift   shifts by more than the width (UBSAN)
 *   insmod fdbug.ko bug=sleep   may sleep with preemption off
 *                               (DEBUG_ATOMIC_SLEEP)
 *   insmod fdbug.ko bug=abba    takes two mutexes in both orders (lockdep)
 *   insmod fdbug.ko bug=stack   dumps its stack for no reason (a report
 *                               with no headline of its own)
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "the bug to commit: oob, leak, shift, sleep, abba or stack");

/* Kept in a global so that the compiler cannot see the values. */
static unsigned int fdbug_index = 16;
static unsigned int fdbug_width = 40;
static int fdbug_one = 1;
static void *fdbug_sink;

static DEFINE_MUTEX(fdbug_a);
static DEFINE_MUTEX(fdbug_b);

static noinline int fdbug_oob(void)
{
	char *p = kmalloc(16, GFP_KERNEL);
	int v;

	if (!p)
		return -ENOMEM;
	memset(p, 0, 16);
	v = READ_ONCE(p[READ_ONCE(fdbug_index)]);
	kfree(p);
	pr_info("fdbug: read %d past the end\n", v);
	return 0;
}

/*
 * Sixteen buffers: a stale copy of a pointer on some stack can hide one
 * from kmemleak (a false negative it documents), not all of them.
 */
static noinline int fdbug_leak(void)
{
	int i;

	for (i = 0; i < 16; i++) {
		char *p = kmalloc(64, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		strscpy(p, "fdbug: leaked on purpose", 64);
		/* Lose the only reference. */
		WRITE_ONCE(fdbug_sink, p);
	}
	WRITE_ONCE(fdbug_sink, NULL);
	return 0;
}

static noinline int fdbug_shift(void)
{
	WRITE_ONCE(fdbug_index, READ_ONCE(fdbug_one) << READ_ONCE(fdbug_width));
	return 0;
}

static noinline int fdbug_sleep(void)
{
	preempt_disable();
	might_sleep();
	preempt_enable();
	return 0;
}

static noinline int fdbug_abba(void)
{
	mutex_lock(&fdbug_a);
	mutex_lock(&fdbug_b);
	mutex_unlock(&fdbug_b);
	mutex_unlock(&fdbug_a);

	mutex_lock(&fdbug_b);
	mutex_lock(&fdbug_a);
	mutex_unlock(&fdbug_a);
	mutex_unlock(&fdbug_b);
	return 0;
}

static int __init fdbug_init(void)
{
	if (!strcmp(bug, "oob"))
		return fdbug_oob();
	if (!strcmp(bug, "leak"))
		return fdbug_leak();
	if (!strcmp(bug, "shift"))
		return fdbug_shift();
	if (!strcmp(bug, "sleep"))
		return fdbug_sleep();
	if (!strcmp(bug, "abba"))
		return fdbug_abba();
	if (!strcmp(bug, "stack")) {
		dump_stack();
		return 0;
	}
	pr_err("fdbug: unknown bug '%s'\n", bug);
	return -EINVAL;
}

static void __exit fdbug_exit(void)
{
}

module_init(fdbug_init);
module_exit(fdbug_exit);
MODULE_DESCRIPTION("Test only: commits one bug on purpose for the debug kernel's checkers");
MODULE_LICENSE("GPL");
