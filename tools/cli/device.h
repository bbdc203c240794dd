/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the one place that talks to /dev/fairdie.
 *
 * Commands ask for rolls of a given size in one of two ways:
 *
 * - fdc_dev_rolls(): each value is one roll the device made with exactly
 *   that many sides. This layer sets the device's sides when they change
 *   and reads whole rolls in the device's binary format; rolls read ahead
 *   are kept per size. Best when one size is rolled again and again: the
 *   device's own sampler recycles its state between rolls.
 * - fdc_dev_draw(): exact draws whose size changes from one to the next
 *   (a shuffle, 3d6+1d4), from one uniform state kept in userspace and fed
 *   with fair bits: the device stays set to 2^32 sides (draw.c). The
 *   device discards its state at every change of sides, so the first way
 *   would pay for a fresh state at every die.
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

/* The values the tool knows; FAIRDIE_IOC_GET_INFO says which the device offers. */
#define FDC_SOURCES		(FAIRDIE_SRC_SIM + 1)
#define FDC_EXTRACTORS		(FAIRDIE_EXT_NONE + 1)
#define FDC_FORMATS		(FAIRDIE_FMT_TEXT + 1)

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

/* Draws read rolls of 2^FDC_DRAW_DIGIT_BITS sides: fair bits as they are. */
#define FDC_DRAW_DIGIT_BITS	32
/*
 * Before a draw of n values the uniform state reaches M >= 2^(fls64(n - 1)
 * + FDC_DRAW_SLACK), at least 2^FDC_DRAW_SLACK n, so that a step rejects
 * with probability below n / M <= 2^-FDC_DRAW_SLACK. Each draw then wastes
 * under 0.001 bit, and the state left over at the end holds about
 * FDC_DRAW_SLACK + 1 bits.
 */
#define FDC_DRAW_SLACK		12

/**
 * struct fdc_draw - exact draws of any size from one uniform state
 * @z: the state Z, uniform on [0, @m) given every draw made so far
 * @m: its range M, at least 1
 * @digits: rolls of 2^@digit_bits sides read and not yet taken
 * @pos: the next one
 * @len: how many were read
 * @acc: fair bits of the digit being taken, not yet absorbed, low first
 * @nacc: how many
 * @digit_bits: the device is read with 2^@digit_bits sides (1 to 32)
 * @unit: rolls are read a multiple of this many at a time when read-ahead
 *	is allowed: 64 bits, the driver's granularity (see draw.c)
 * @slack: FDC_DRAW_SLACK, or less in the tests
 * @expect: fair bits the callers expect to be read in all (read-ahead)
 * @bits_read: fair bits read from the device
 * @bits_used: fair bits absorbed into the state
 * @draws: values drawn
 */
struct fdc_draw {
	fd_u128 z;
	fd_u128 m;
	u64 *digits;
	size_t pos;
	size_t len;
	u64 acc;
	unsigned int nacc;
	unsigned int digit_bits;
	unsigned int unit;
	unsigned int slack;
	u64 expect;
	u64 bits_read;
	u64 bits_used;
	u64 draws;
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
 * @draw: the state of fdc_dev_draw()
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
	struct fdc_draw draw;
	void *priv;
};

void fdc_config_init(struct fdc_config *cfg);
int fdc_dev_open(struct fdc_dev *dev, const struct fdc_config *cfg);
void fdc_dev_close(struct fdc_dev *dev);
int fdc_dev_rolls(struct fdc_dev *dev, u64 sides, u64 *out, size_t n);
int fdc_dev_read(struct fdc_dev *dev, u64 sides, u64 *out, size_t n);

void fdc_draw_init(struct fdc_draw *d);
void fdc_draw_free(struct fdc_draw *d);
int fdc_dev_draw(struct fdc_dev *dev, u64 n, u64 *out);
void fdc_dev_draw_expect(struct fdc_dev *dev, double bits);
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
