// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - fair bits from somewhere else than the device:
 * --random-source=FILE, --source=getrandom and --seed=N.
 *
 * Such a source stands in for the device behind struct fdc_dev_ops, so
 * every command works with it unchanged. It hands out fair bits only; the
 * rolls are made here, exactly and with randomness recycling:
 *
 * - a die of 2^k sides takes k bits as they are;
 * - any other die is a draw from the one uniform state of draw.c
 *   (fdc_dev_draw()), which absorbs the bits it needs straight from the
 *   source (fdc_bits_take()). Nothing is read ahead: a run takes from the
 *   file only the bits its rolls consume, and running out is an error that
 *   says how many were used, never a short output.
 *
 * --seed=N takes the bits of splitmix64 seeded with N: reproducible runs for
 * teaching and simulation, and NOT for anything that needs secrecy (the
 * seed gives away every roll).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli.h"
#include "fd_sim.h"

/**
 * struct fdc_bits - a source of fair bits in userspace
 * @kind: which source
 * @fd: the file of --random-source
 * @state: splitmix64's state for --seed
 * @buf: bytes read and not yet taken
 * @pos: the next byte
 * @len: how many
 * @acc: bits of the byte being taken, low first
 * @nacc: how many
 */
struct fdc_bits {
	enum fdc_user_source kind;
	int fd;
	u64 state;
	u8 buf[4096];
	size_t pos;
	size_t len;
	u64 acc;
	unsigned int nacc;
};

/* Refill @b->buf; 0, or -1 after printing a one-line error. */
static int fdc_bits_refill(struct fdc_dev *dev, struct fdc_bits *b)
{
	ssize_t r;
	u64 w;
	size_t i;

	b->pos = 0;
	b->len = 0;
	switch (b->kind) {
	case FDC_USRC_SEED:
		for (i = 0; i < sizeof(b->buf); i += sizeof(w)) {
			w = fd_splitmix64(&b->state);
			memcpy(b->buf + i, &w, sizeof(w));
		}
		b->len = sizeof(b->buf);
		return 0;
	case FDC_USRC_GETRANDOM:
		do {
			r = getrandom(b->buf, sizeof(b->buf), 0);
		} while (r < 0 && errno == EINTR);
		if (r <= 0) {
			fdc_err("getrandom: %s", strerror(r ? errno : EIO));
			return -1;
		}
		b->len = r;
		return 0;
	default:
		do {
			r = read(b->fd, b->buf, sizeof(b->buf));
		} while (r < 0 && errno == EINTR);
		if (r < 0) {
			fdc_err("%s: %s", dev->path, strerror(errno));
			return -1;
		}
		if (!r) {
			fdc_err("%s: the random source ran out after %llu bits (this run needs more)",
				dev->path, (unsigned long long)dev->bits_used);
			return -1;
		}
		b->len = r;
		return 0;
	}
}

/**
 * fdc_bits_take() - fair bits from the userspace source of @dev
 * @dev: a device opened on a userspace source
 * @k: how many, at most 64
 * @v: the bits
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_bits_take(struct fdc_dev *dev, unsigned int k, u64 *v)
{
	struct fdc_bits *b = dev->bits;
	unsigned int got = 0, t;

	*v = 0;
	while (got < k) {
		if (!b->nacc) {
			if (b->pos == b->len && fdc_bits_refill(dev, b))
				return -1;
			b->acc = b->buf[b->pos++];
			b->nacc = 8;
		}
		t = k - got < b->nacc ? k - got : b->nacc;
		*v |= fd_low_bits(b->acc, t) << got;
		b->acc >>= t;
		b->nacc -= t;
		got += t;
		dev->bits_used += t;
	}
	return 0;
}

static int fdc_bits_set_sides(struct fdc_dev *dev, u64 sides)
{
	(void)dev;
	(void)sides;
	return 0;
}

static int fdc_bits_read(struct fdc_dev *dev, u64 *vals, size_t n)
{
	u64 sides = dev->sides;
	size_t i;

	for (i = 0; i < n; i++) {
		if (sides == 1) {
			vals[i] = 0;
		} else if (!(sides & (sides - 1))) {
			if (fdc_bits_take(dev, fls64(sides) - 1, &vals[i]))
				return -1;
		} else if (fdc_dev_draw(dev, sides, &vals[i])) {
			return -1;
		}
	}
	return 0;
}

static void fdc_bits_close(struct fdc_dev *dev)
{
	struct fdc_bits *b = dev->bits;

	if (b->kind == FDC_USRC_FILE && b->fd >= 0)
		close(b->fd);
	free(b);
	dev->bits = NULL;
}

static const struct fdc_dev_ops fdc_bits_ops = {
	.set_sides = fdc_bits_set_sides,
	.read = fdc_bits_read,
	.close = fdc_bits_close,
};

/**
 * fdc_bits_open() - use a userspace source of fair bits instead of the
 * device
 * @dev: the device, zeroed by the caller
 * @cfg: the global options: which source, its file or seed
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_bits_open(struct fdc_dev *dev, const struct fdc_config *cfg)
{
	struct fdc_bits *b = calloc(1, sizeof(*b));

	if (!b) {
		fdc_err("out of memory");
		return -1;
	}
	b->kind = cfg->user_source;
	b->fd = -1;
	switch (b->kind) {
	case FDC_USRC_FILE:
		dev->path = cfg->random_file;
		b->fd = open(cfg->random_file, O_RDONLY | O_CLOEXEC);
		if (b->fd < 0) {
			fdc_err("%s: %s", cfg->random_file, strerror(errno));
			free(b);
			return -1;
		}
		break;
	case FDC_USRC_GETRANDOM:
		dev->path = "getrandom";
		break;
	default:
		dev->path = "seed";
		b->state = cfg->seed;
		break;
	}
	dev->fd = -1;
	dev->ops = &fdc_bits_ops;
	dev->bits = b;
	/* Rolls are made here from bits: nothing to gain by reading ahead. */
	dev->max_ahead = 1;
	return 0;
}
