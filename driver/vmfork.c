// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - safe across VM clones.
 *
 * A snapshot of a running guest holds every bit fairdie has buffered: fair
 * bits in a pool, a Peres block half done, the sampler's recycled uniform
 * state, output staged but not read, CRNG words fetched ahead, the hwrng
 * pipeline. Two guests restored from one snapshot would deliver the same
 * rolls until those buffers drain.
 *
 * The hypervisor says when a guest has been cloned or restored by changing
 * its VM generation ID (QEMU's vmgenid device); the kernel's vmgenid driver
 * then reseeds the CRNG and calls the VM-fork notifier chain. fairdie joins
 * that chain and counts the forks in a generation number. Every holder of
 * buffered randomness remembers the generation its state belongs to and,
 * finding it stale before its next use, discards that state, as random.c's
 * per-CPU CRNG states discard theirs when the base CRNG's generation moves
 * on. Only bits are discarded: configuration, counters and the health
 * tests' state are kept.
 *
 * The rule: state carries the generation it was made in, and only its
 * flush (fairdie_well_flush(), the one discard path of files and the hwrng
 * alike) moves it to a newer one, emptying it. A well takes no bits from,
 * and hands none to, a reader of an older generation (fd_well_begin()),
 * and takes none back from it (fd_well_giveback()); files and the hwrng
 * look at the generation after making output and before delivering it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/notifier.h>
#include <linux/random.h>
#include <linux/sysfs.h>

#include "fairdie.h"

/* VM forks seen since the module was loaded (sysfs vm_forks). */
static atomic_t fairdie_vmforks = ATOMIC_INIT(0);
/* The generation number: the forks that discard buffered bits. */
static atomic_t fairdie_vmfork_gen = ATOMIC_INIT(0);

#ifdef FAIRDIE_FAULT
/*
 * Test builds only (driver/fault.c): /sys/kernel/debug/fairdie/vmfork_keep
 * set to 1 makes every holder keep its bits across a VM fork, the bug the
 * clone test (tools/vm/clonetest.sh) must catch. vm_forks still counts.
 */
static bool fairdie_vmfork_keep;
#else
#define fairdie_vmfork_keep	false
#endif

/*
 * Called by the vmgenid driver, in process context, after it has reseeded
 * the CRNG. The buffered bits are discarded by their holders, under their
 * own locks, before their next use: here a number changes, nothing else.
 */
static int fairdie_vmfork_notify(struct notifier_block *nb,
				 unsigned long action, void *data)
{
	atomic_inc(&fairdie_vmforks);
	if (!fairdie_vmfork_keep)
		atomic_inc(&fairdie_vmfork_gen);
	pr_info("VM fork: buffered random bits are discarded before the next roll\n");
	return NOTIFY_DONE;
}

static struct notifier_block fairdie_vmfork_nb = {
	.notifier_call = fairdie_vmfork_notify,
};

/**
 * fairdie_vmfork_generation() - the number of VM forks seen
 *
 * Buffered randomness made under one generation must not be used under
 * another: record the generation with the state, and compare before use
 * (fairdie_vmfork_stale()).
 *
 * Return: the current generation.
 */
u32 fairdie_vmfork_generation(void)
{
	return atomic_read(&fairdie_vmfork_gen);
}

/**
 * fairdie_vmfork_stale() - whether state was made in an older generation
 * @gen: the generation the caller's state was made in
 *
 * On true the caller discards every buffered bit (fairdie_well_flush())
 * before its next use, and only that moves it to the current generation:
 * the guest has been cloned or restored since they were made.
 *
 * Return: true if a VM fork happened since @gen was recorded.
 */
bool fairdie_vmfork_stale(u32 gen)
{
	return unlikely(gen != fairdie_vmfork_generation());
}

static ssize_t vm_forks_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", atomic_read(&fairdie_vmforks));
}
DEVICE_ATTR_RO(vm_forks);

/**
 * fairdie_vmfork_init() - join the VM-fork notifier chain
 *
 * Without CONFIG_VMGENID the kernel cannot tell a clone from its parent:
 * nothing to join, and vm_forks stays 0.
 *
 * Return: 0 or a negative errno.
 */
int fairdie_vmfork_init(void)
{
#ifdef FAIRDIE_FAULT
	/* The fault injection directory, made by fairdie_fault_init(). */
	struct dentry *dir = debugfs_lookup(KBUILD_MODNAME, NULL);

	if (dir) {
		debugfs_create_bool("vmfork_keep", 0600, dir,
				    &fairdie_vmfork_keep);
		dput(dir);
	}
#endif
	if (!IS_ENABLED(CONFIG_VMGENID))
		return 0;
	return register_random_vmfork_notifier(&fairdie_vmfork_nb);
}

/**
 * fairdie_vmfork_exit() - leave the VM-fork notifier chain
 */
void fairdie_vmfork_exit(void)
{
	if (IS_ENABLED(CONFIG_VMGENID))
		unregister_random_vmfork_notifier(&fairdie_vmfork_nb);
}
