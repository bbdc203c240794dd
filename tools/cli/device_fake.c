// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - a stand-in for /dev/fairdie in the host tests.
 *
 * Rolls are either scripted (handed out in order, each checked against the
 * sides asked for) or drawn exactly from splitmix64 by rejection. Every
 * value handed out is logged with its number of sides, so that a test can
 * check which dice a command rolled.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "device.h"
#include "fd_sim.h"

/**
 * struct fdc_fake - state of the double
 * @state: splitmix64 state
 * @script: scripted rolls, or NULL
 * @script_len: how many
 * @script_pos: the next one
 * @log: sides of every roll handed out
 * @log_len: how many
 * @log_cap: room in @log
 */
struct fdc_fake {
	u64 state;
	const u64 *script;
	size_t script_len;
	size_t script_pos;
	u64 *log;
	size_t log_len;
	size_t log_cap;
};

static int fdc_fake_set_sides(struct fdc_dev *dev, u64 sides)
{
	(void)dev;
	(void)sides;
	return 0;
}

/* Exactly uniform on [0, sides): reject the 2^64 mod sides lowest words. */
static u64 fdc_fake_uniform(struct fdc_fake *f, u64 sides)
{
	u64 floor = -sides % sides, x;

	do {
		x = fd_splitmix64(&f->state);
	} while (x < floor);
	return x % sides;
}

static int fdc_fake_read(struct fdc_dev *dev, u64 *vals, size_t n)
{
	struct fdc_fake *f = dev->priv;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!f->script) {
			vals[i] = fdc_fake_uniform(f, dev->sides);
		} else if (f->script_pos < f->script_len) {
			vals[i] = f->script[f->script_pos++];
			if (vals[i] >= dev->sides) {
				fdc_err("fake: scripted roll %llu is not below %llu sides",
					(unsigned long long)vals[i],
					(unsigned long long)dev->sides);
				return -1;
			}
		} else {
			fdc_err("fake: the script of %zu rolls ran out",
				f->script_len);
			return -1;
		}
		if (f->log_len == f->log_cap) {
			size_t cap = f->log_cap ? 2 * f->log_cap : 1024;
			u64 *log = realloc(f->log, cap * sizeof(*log));

			if (!log) {
				fdc_err("out of memory");
				return -1;
			}
			f->log = log;
			f->log_cap = cap;
		}
		f->log[f->log_len++] = dev->sides;
	}
	return 0;
}

static void fdc_fake_close(struct fdc_dev *dev)
{
	struct fdc_fake *f = dev->priv;

	free(f->log);
	free(f);
	dev->priv = NULL;
}

static const struct fdc_dev_ops fdc_fake_ops = {
	.set_sides = fdc_fake_set_sides,
	.read = fdc_fake_read,
	.close = fdc_fake_close,
};

/**
 * fdc_fake_open() - open the double, drawing from splitmix64(@seed)
 * @dev: the device
 * @seed: the generator's seed
 *
 * Return: 0, or -1 when out of memory.
 */
int fdc_fake_open(struct fdc_dev *dev, u64 seed)
{
	struct fdc_fake *f = calloc(1, sizeof(*f));

	if (!f) {
		fdc_err("out of memory");
		return -1;
	}
	memset(dev, 0, sizeof(*dev));
	fdc_draw_init(&dev->draw);
	f->state = seed;
	dev->path = "fake";
	dev->fd = -1;
	dev->ops = &fdc_fake_ops;
	dev->priv = f;
	dev->max_ahead = FDC_CACHE_MAX;
	return 0;
}

/**
 * fdc_fake_script() - hand out @vals in order instead of random rolls
 * @dev: a device opened with fdc_fake_open()
 * @vals: the rolls, 0-based; the caller keeps them alive
 * @n: how many; asking for more is an error
 *
 * Also turns read-ahead off, so that the rolls go out in the order asked,
 * and starts the log afresh.
 */
void fdc_fake_script(struct fdc_dev *dev, const u64 *vals, size_t n)
{
	struct fdc_fake *f = dev->priv;

	f->script = vals;
	f->script_len = n;
	f->script_pos = 0;
	f->log_len = 0;
	dev->max_ahead = 1;
}

/**
 * fdc_fake_log() - the sides of every roll handed out so far
 * @dev: a device opened with fdc_fake_open()
 * @sides: the log
 *
 * Return: its length.
 */
size_t fdc_fake_log(struct fdc_dev *dev, const u64 **sides)
{
	struct fdc_fake *f = dev->priv;

	*sides = f->log;
	return f->log_len;
}
