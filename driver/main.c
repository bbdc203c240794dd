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
 * This file holds the module: its parameters, the misc device and what
 * loading and unloading do. An open file and its read path are file.c's,
 * the ioctls ioctl.c's, the sysfs attributes sysfs.c's;
 * Documentation/design/fairdie.rst shows the whole layout, and
 * Documentation/userspace-api/fairdie.rst the ABI.
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

/* The hwrng source, or FAIRDIE_SRC_AUTO for none. */
static u32 fairdie_hwrng_source;

static const struct file_operations fairdie_fops = {
	.owner = THIS_MODULE,
	.open = fairdie_open,
	.release = fairdie_release,
	.read = fairdie_read,
	.poll = fairdie_poll,
	.unlocked_ioctl = fairdie_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

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
	ext = fairdie_extractor_parse(extractor);
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
	fairdie_default_sides = sides;
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
	fairdie_ahead_init();
	if (fairdie_hwrng_source != FAIRDIE_SRC_AUTO) {
		err = fairdie_hwrng_register(fairdie_hwrng_source,
					     hwrng_quality);
		if (err) {
			pr_err("cannot register the hwrng: %d\n", err);
			goto out_ahead_exit;
		}
	}
	err = misc_register(&fairdie_misc);
	if (err) {
		pr_err("cannot register /dev/%s: %d\n", KBUILD_MODNAME, err);
		goto out_unregister_hwrng;
	}
	pr_info("ready: %llu sides, %s, source %s, hwrng %s\n", sides,
		fairdie_extractor_name(fairdie_default_extractor),
		fairdie_source_name(fairdie_source_resolve(fairdie_default_source)),
		fairdie_hwrng_state());
	return 0;

out_unregister_hwrng:
	fairdie_hwrng_unregister();
out_ahead_exit:
	fairdie_ahead_exit();
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
	fairdie_ahead_exit();
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
