/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - /dev/fairdie as a source: a source that rolls its own
 * dice. Rolls are read in the device's binary format with its sides set by
 * FAIRDIE_IOC_SET_SIDES, which keeps the kernel sampler's recycled state:
 * the device is the engine for its own rolls, whatever their sizes.
 *
 * The one place that opens, configures and reads the device.
 */
#ifndef _FAIRDIE_CLI_DEVICE_H
#define _FAIRDIE_CLI_DEVICE_H

#include <stdbool.h>

#include "config.h"
#include "source.h"

struct fairdie_stats;

int fdc_device_open(struct fdc_source *src, const struct fdc_config *cfg);
bool fdc_source_is_device(const struct fdc_source *src);
int fdc_device_ioctl(struct fdc_source *src, unsigned long req, void *arg,
		     const char *name);
const char *fdc_device_missing(const char *path, int err, char *buf,
			       size_t size);
void fdc_device_json_stats(const struct fairdie_stats *st);

#endif /* _FAIRDIE_CLI_DEVICE_H */
