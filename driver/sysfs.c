// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - sysfs: /sys/class/misc/fairdie/, the device-wide view of the
 * hardware sources (documented in Documentation/ABI/).
 */

#include <linux/device.h>
#include <linux/sysfs.h>

#include "fairdie.h"

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

static ssize_t ahead_words_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	u64 stale, lags;

	return sysfs_emit(buf, "%llu\n", fairdie_ahead_words(&stale, &lags));
}
static DEVICE_ATTR_RO(ahead_words);

static ssize_t ahead_stale_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	u64 stale, lags;

	fairdie_ahead_words(&stale, &lags);
	return sysfs_emit(buf, "%llu\n", stale);
}
static DEVICE_ATTR_RO(ahead_stale);

static ssize_t ahead_lags_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	u64 stale, lags;

	fairdie_ahead_words(&stale, &lags);
	return sysfs_emit(buf, "%llu\n", lags);
}
static DEVICE_ATTR_RO(ahead_lags);

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
	&dev_attr_ahead_words.attr,
	&dev_attr_ahead_stale.attr,
	&dev_attr_ahead_lags.attr,
	NULL
};

static const struct attribute_group fairdie_group = {
	.attrs = fairdie_attrs,
};

/* The attributes of /dev/fairdie's device, for misc_register(). */
const struct attribute_group *fairdie_groups[] = {
	&fairdie_group,
	NULL
};
