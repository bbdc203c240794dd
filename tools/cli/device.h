/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the one place that talks to /dev/fairdie.
 *
 * Commands ask for rolls of a given size with fdc_dev_rolls(); this layer
 * sets the device's sides when they change and reads whole rolls in the
 * device's binary format. Each value handed out is one roll the device made
 * with exactly that many sides: nothing is ever split or combined. Rolls
 * read ahead are kept per size, so interleaved sizes (3d6+1d4) do not make
 * the device throw its state away at every die.
 *
 * The operations go through struct fdc_dev_ops so that the tests can put a
 * deterministic double in place of the device (device_fake.c).
 */
#ifndef _FAIRDIE_CLI_DEVICE_H
#define _FAIRDIE_CLI_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/fairdie.h>

#include "fd_shim.h"

#define FDC_DEFAULT_DEVICE	"/dev/fairdie"

/* Sizes read ahead are kept for this many different numbers of sides. */
#define FDC_CACHE_SLOTS		4
/* At most this many rolls are read ahead for one size. */
#define FDC_CACHE_MAX		4096

/**
 * struct fdc_config - what the global options ask of the open file
 * @device: path of the device
 * @source: FAIRDIE_SRC_x, or -1 to keep the module's default
 * @extractor: FAIRDIE_EXT_x, or -1 to keep the module's default
 * @sides: sides to set at open, 0 to keep the module's default
 * @have_sim: @sim was given
 * @sim: the simulated coin (--sim)
 */
struct fdc_config {
	const char *device;
	int source;
	int extractor;
	u64 sides;
	bool have_sim;
	struct fairdie_sim sim;
};

struct fdc_dev;

/**
 * struct fdc_dev_ops - what a device does
 * @set_sides: make the next rolls have @sides faces
 * @read: @n rolls in [0, sides) of the sides last set
 * @close: release what open took
 *
 * Both return 0, or -1 after printing a one-line error.
 */
struct fdc_dev_ops {
	int (*set_sides)(struct fdc_dev *dev, u64 sides);
	int (*read)(struct fdc_dev *dev, u64 *vals, size_t n);
	void (*close)(struct fdc_dev *dev);
};

/**
 * struct fdc_cache - rolls of one size read ahead
 * @sides: their number of sides, 0 when the slot is free
 * @vals: the rolls, FDC_CACHE_MAX of room
 * @pos: the next one to hand out
 * @len: how many were read
 * @ahead: how many to read ahead at the next refill; it grows while the
 *	same size keeps being asked for, so a lone roll reads one value
 * @last_use: when the slot was last used, for eviction
 */
struct fdc_cache {
	u64 sides;
	u64 *vals;
	size_t pos;
	size_t len;
	size_t ahead;
	u64 last_use;
};

/**
 * struct fdc_dev - an open device
 * @ops: the device's operations
 * @path: its path, for messages
 * @fd: the open file, -1 for a test double
 * @sides: the sides the device is set to, 0 when not known
 * @max_ahead: the most rolls read ahead per size (1: no read-ahead)
 * @rolls: rolls read from the device
 * @set_sides_calls: times the sides were changed
 * @cache: rolls read ahead, per size
 * @tick: a clock for @cache's eviction
 * @priv: the test double's state
 */
struct fdc_dev {
	const struct fdc_dev_ops *ops;
	const char *path;
	int fd;
	u64 sides;
	size_t max_ahead;
	u64 rolls;
	u64 set_sides_calls;
	struct fdc_cache cache[FDC_CACHE_SLOTS];
	u64 tick;
	void *priv;
};

void fdc_config_init(struct fdc_config *cfg);
int fdc_dev_open(struct fdc_dev *dev, const struct fdc_config *cfg);
void fdc_dev_close(struct fdc_dev *dev);
int fdc_dev_rolls(struct fdc_dev *dev, u64 sides, u64 *out, size_t n);
int fdc_dev_ioctl(struct fdc_dev *dev, unsigned long req, void *arg,
		  const char *name);
unsigned int fdc_roll_width(u64 sides);

const char *fdc_source_name(unsigned int src);
int fdc_source_parse(const char *name);
const char *fdc_extractor_name(unsigned int ext);
int fdc_extractor_parse(const char *name);

/* The test double (device_fake.c). */
int fdc_fake_open(struct fdc_dev *dev, u64 seed);
void fdc_fake_script(struct fdc_dev *dev, const u64 *vals, size_t n);
size_t fdc_fake_log(struct fdc_dev *dev, const u64 **sides);

#endif /* _FAIRDIE_CLI_DEVICE_H */
