// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - opening /dev/fairdie, configuring it and reading rolls.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "device.h"

static const char *const fdc_source_names[FDC_SOURCES] = {
	[FAIRDIE_SRC_AUTO] = "auto",
	[FAIRDIE_SRC_RDSEED] = "rdseed",
	[FAIRDIE_SRC_RDRAND] = "rdrand",
	[FAIRDIE_SRC_CRNG] = "crng",
	[FAIRDIE_SRC_SIM] = "sim",
};

static const char *const fdc_extractor_names[FDC_EXTRACTORS] = {
	[FAIRDIE_EXT_VN] = "vn",
	[FAIRDIE_EXT_PERES] = "peres",
	[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
	[FAIRDIE_EXT_NONE] = "none",
};

/**
 * fdc_source_name() - the name of a source, as --source takes it
 * @src: FAIRDIE_SRC_x
 *
 * Return: the name, or "unknown".
 */
const char *fdc_source_name(unsigned int src)
{
	return src < FDC_SOURCES ? fdc_source_names[src] : "unknown";
}

/**
 * fdc_source_parse() - the source named @name
 * @name: auto, rdseed, rdrand, crng or sim
 *
 * Return: FAIRDIE_SRC_x, or -1.
 */
int fdc_source_parse(const char *name)
{
	int i;

	for (i = 0; i < FDC_SOURCES; i++)
		if (!strcmp(name, fdc_source_names[i]))
			return i;
	return -1;
}

/**
 * fdc_extractor_name() - the name of an extractor, as --extractor takes it
 * @ext: FAIRDIE_EXT_x
 *
 * Return: the name, or "unknown".
 */
const char *fdc_extractor_name(unsigned int ext)
{
	return ext < FDC_EXTRACTORS ? fdc_extractor_names[ext] : "unknown";
}

/**
 * fdc_extractor_parse() - the extractor named @name
 * @name: vn, peres, dijkstra or none
 *
 * Return: FAIRDIE_EXT_x, or -1.
 */
int fdc_extractor_parse(const char *name)
{
	int i;

	for (i = 0; i < FDC_EXTRACTORS; i++)
		if (!strcmp(name, fdc_extractor_names[i]))
			return i;
	return -1;
}

/**
 * fdc_config_init() - the settings before any option: all module defaults
 * @cfg: the settings
 */
void fdc_config_init(struct fdc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->device = FDC_DEFAULT_DEVICE;
	cfg->source = -1;
	cfg->extractor = -1;
}

/**
 * fdc_roll_width() - bytes per roll in the binary format
 * @sides: the number of sides
 *
 * Return: 1, 2, 4 or 8, the smallest width that holds @sides - 1.
 */
unsigned int fdc_roll_width(u64 sides)
{
	u64 max = sides - 1;

	if (max <= 0xff)
		return 1;
	if (max <= 0xffff)
		return 2;
	if (max <= 0xffffffffULL)
		return 4;
	return 8;
}

/**
 * fdc_dev_ioctl() - an ioctl on the real device, with its error message
 * @dev: the device
 * @req: FAIRDIE_IOC_x
 * @arg: its argument
 * @name: the ioctl's name for the message, e.g. "GET_STATS"
 *
 * Return: 0, or -1 after printing a one-line error (errno is kept).
 */
int fdc_dev_ioctl(struct fdc_dev *dev, unsigned long req, void *arg,
		  const char *name)
{
	int err;

	if (dev->fd < 0) {
		fdc_err("%s: %s: not supported by this device", dev->path, name);
		errno = ENOTTY;
		return -1;
	}
	if (!ioctl(dev->fd, req, arg))
		return 0;
	err = errno;
	if (err == ENOTTY)
		fdc_err("%s: %s: %s (not a fairdie device, or an older one?)",
			dev->path, name, strerror(err));
	else
		fdc_err("%s: %s: %s", dev->path, name, strerror(err));
	errno = err;
	return -1;
}

/* ------------------------------------------------------------------------
 * The real device
 */

static int fdc_real_set_sides(struct fdc_dev *dev, u64 sides)
{
	__u32 ext;

	if (!ioctl(dev->fd, FAIRDIE_IOC_SET_SIDES, &sides))
		return 0;
	if (errno == EINVAL && !ioctl(dev->fd, FAIRDIE_IOC_GET_EXTRACTOR, &ext) &&
	    ext == FAIRDIE_EXT_DIJKSTRA) {
		fdc_err("%s: cannot roll a d%llu with the dijkstra extractor (its sides must factor into primes up to 64)",
			dev->path, (unsigned long long)sides);
		return -1;
	}
	fdc_err("%s: SET_SIDES %llu: %s", dev->path,
		(unsigned long long)sides, strerror(errno));
	return -1;
}

static void fdc_read_err(struct fdc_dev *dev, int err)
{
	if (err == EIO)
		fdc_err("%s: read: %s (the source failed its health tests; see 'fairdie stats')",
			dev->path, strerror(err));
	else
		fdc_err("%s: read: %s", dev->path, strerror(err));
}

static int fdc_real_read(struct fdc_dev *dev, u64 *vals, size_t n)
{
	unsigned int width = fdc_roll_width(dev->sides);
	u8 buf[65536];
	size_t chunk, want, got, i;
	ssize_t r;

	while (n) {
		chunk = n < sizeof(buf) / width ? n : sizeof(buf) / width;
		want = chunk * width;
		for (got = 0; got < want; got += r) {
			r = read(dev->fd, buf + got, want - got);
			if (r < 0 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r < 0) {
				fdc_read_err(dev, errno);
				return -1;
			}
			if (!r) {
				fdc_err("%s: read: unexpected end of file", dev->path);
				return -1;
			}
		}
		for (i = 0; i < chunk; i++) {
			const u8 *p = buf + i * width;
			u64 v;

			switch (width) {
			case 1:
				v = *p;
				break;
			case 2: {
				u16 w;

				memcpy(&w, p, sizeof(w));
				v = w;
				break;
			}
			case 4: {
				u32 w;

				memcpy(&w, p, sizeof(w));
				v = w;
				break;
			}
			default:
				memcpy(&v, p, sizeof(v));
				break;
			}
			vals[i] = v;
		}
		vals += chunk;
		n -= chunk;
	}
	return 0;
}

static void fdc_real_close(struct fdc_dev *dev)
{
	close(dev->fd);
	dev->fd = -1;
}

static const struct fdc_dev_ops fdc_real_ops = {
	.set_sides = fdc_real_set_sides,
	.read = fdc_real_read,
	.close = fdc_real_close,
};

static void fdc_open_err(const char *path, int err)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		fdc_err("%s: %s (is the module loaded? try 'sudo modprobe fairdie')",
			path, strerror(err));
		break;
	case EACCES:
	case EPERM:
		fdc_err("%s: %s (check the permissions of the device node)",
			path, strerror(err));
		break;
	default:
		fdc_err("%s: %s", path, strerror(err));
		break;
	}
}

/* Apply the global options to the freshly opened file. */
static int fdc_dev_configure(struct fdc_dev *dev, const struct fdc_config *cfg,
			     const struct fairdie_info *info)
{
	__u32 v;
	int src = cfg->source;

	if (cfg->have_sim) {
		struct fairdie_sim sim = cfg->sim;

		if (fdc_dev_ioctl(dev, FAIRDIE_IOC_SET_SIM, &sim, "SET_SIM"))
			return -1;
		if (src < 0)
			src = FAIRDIE_SRC_SIM;
	}
	if (src >= 0) {
		v = src;
		if (ioctl(dev->fd, FAIRDIE_IOC_SET_SOURCE, &v)) {
			if (errno == ENODEV) {
				char avail[64] = "";
				unsigned int i;

				for (i = 0; i < FDC_SOURCES; i++) {
					if (!(info->sources & (1U << i)))
						continue;
					strcat(avail, avail[0] ? ", " : "");
					strcat(avail, fdc_source_name(i));
				}
				fdc_err("%s: source '%s' is not available on this machine (available: %s)",
					dev->path, fdc_source_name(src), avail);
			} else {
				fdc_err("%s: SET_SOURCE %s: %s", dev->path,
					fdc_source_name(src), strerror(errno));
			}
			return -1;
		}
	}
	if (cfg->extractor >= 0) {
		v = cfg->extractor;
		if (fdc_dev_ioctl(dev, FAIRDIE_IOC_SET_EXTRACTOR, &v,
				  "SET_EXTRACTOR"))
			return -1;
	}
	v = FAIRDIE_FMT_BINARY;
	if (fdc_dev_ioctl(dev, FAIRDIE_IOC_SET_FORMAT, &v, "SET_FORMAT"))
		return -1;
	if (cfg->sides) {
		if (dev->ops->set_sides(dev, cfg->sides))
			return -1;
		dev->sides = cfg->sides;
	}
	return 0;
}

/**
 * fdc_dev_open() - open the device and apply the global options
 * @dev: the device
 * @cfg: the global options
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dev_open(struct fdc_dev *dev, const struct fdc_config *cfg)
{
	struct fairdie_info info;

	memset(dev, 0, sizeof(*dev));
	dev->path = cfg->device;
	dev->max_ahead = FDC_CACHE_MAX;
	dev->fd = -1;
	fdc_draw_init(&dev->draw);
#ifdef FDC_FAKE_DEVICE
	/* Test builds only: "fake:SEED" is the deterministic double. */
	if (!strncmp(cfg->device, "fake:", 5)) {
		u64 seed;

		if (fdc_parse_u64(cfg->device + 5, &seed)) {
			fdc_err("%s: expected fake:SEED", cfg->device);
			return -1;
		}
		return fdc_fake_open(dev, seed);
	}
#endif
	dev->fd = open(cfg->device, O_RDONLY | O_CLOEXEC);
	if (dev->fd < 0) {
		fdc_open_err(cfg->device, errno);
		return -1;
	}
	dev->ops = &fdc_real_ops;
	memset(&info, 0, sizeof(info));
	if (fdc_dev_ioctl(dev, FAIRDIE_IOC_GET_INFO, &info, "GET_INFO"))
		goto out_close;
	if (info.version != FAIRDIE_ABI_VERSION) {
		fdc_err("%s: ABI version %u, this tool knows version %u",
			dev->path, info.version, FAIRDIE_ABI_VERSION);
		goto out_close;
	}
	if (fdc_dev_configure(dev, cfg, &info))
		goto out_close;
	return 0;

out_close:
	fdc_real_close(dev);
	return -1;
}

/**
 * fdc_dev_close() - close the device and free what was read ahead
 * @dev: the device
 */
void fdc_dev_close(struct fdc_dev *dev)
{
	unsigned int i;

	for (i = 0; i < FDC_CACHE_SLOTS; i++) {
		free(dev->cache[i].vals);
		dev->cache[i].vals = NULL;
	}
	fdc_draw_free(&dev->draw);
	if (dev->ops && dev->ops->close)
		dev->ops->close(dev);
	dev->ops = NULL;
}

/**
 * fdc_dev_read() - @n rolls of @sides straight from the device
 * @dev: the device
 * @sides: the number of faces, at least 1; set on the device if it changed
 * @out: the rolls, each in [0, @sides)
 * @n: how many
 *
 * No read-ahead and no cache: exactly @n rolls are read.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dev_read(struct fdc_dev *dev, u64 sides, u64 *out, size_t n)
{
	size_t i;

	if (dev->sides != sides) {
		if (dev->ops->set_sides(dev, sides))
			return -1;
		dev->sides = sides;
		dev->set_sides_calls++;
	}
	if (dev->ops->read(dev, out, n))
		return -1;
	for (i = 0; i < n; i++) {
		if (out[i] >= sides) {
			fdc_err("%s: the device returned %llu for a %llu-sided roll",
				dev->path, (unsigned long long)out[i],
				(unsigned long long)sides);
			return -1;
		}
	}
	dev->rolls += n;
	return 0;
}

static struct fdc_cache *fdc_cache_slot(struct fdc_dev *dev, u64 sides)
{
	struct fdc_cache *c, *victim = &dev->cache[0];
	unsigned int i;

	dev->tick++;
	for (i = 0; i < FDC_CACHE_SLOTS; i++) {
		c = &dev->cache[i];
		if (c->sides == sides) {
			c->last_use = dev->tick;
			return c;
		}
		if (c->last_use < victim->last_use)
			victim = c;
	}
	victim->sides = sides;
	victim->pos = 0;
	victim->len = 0;
	victim->ahead = 0;
	victim->last_use = dev->tick;
	return victim;
}

/**
 * fdc_dev_rolls() - @n rolls of a die with @sides faces
 * @dev: the device
 * @sides: the number of faces, at least 1
 * @out: the rolls, each in [0, @sides)
 * @n: how many
 *
 * Each roll is one value the device produced with its sides set to @sides,
 * possibly read ahead by an earlier call for the same size.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_dev_rolls(struct fdc_dev *dev, u64 sides, u64 *out, size_t n)
{
	struct fdc_cache *c;
	size_t take, want;

	if (!sides) {
		fdc_err("%s: a die needs at least one side", dev->path);
		return -1;
	}
	c = fdc_cache_slot(dev, sides);
	take = c->len - c->pos < n ? c->len - c->pos : n;
	if (take) {
		memcpy(out, c->vals + c->pos, take * sizeof(*out));
		c->pos += take;
		out += take;
		n -= take;
		if (!n)
			return 0;
	}

	/* Big requests go straight to the device. */
	if (n >= dev->max_ahead)
		return fdc_dev_read(dev, sides, out, n);

	if (!c->vals) {
		c->vals = malloc(FDC_CACHE_MAX * sizeof(*c->vals));
		if (!c->vals) {
			fdc_err("out of memory");
			return -1;
		}
	}
	want = n > c->ahead ? n : c->ahead;
	if (want > dev->max_ahead)
		want = dev->max_ahead;
	if (fdc_dev_read(dev, sides, c->vals, want))
		return -1;
	memcpy(out, c->vals, n * sizeof(*out));
	c->pos = n;
	c->len = want;
	/* This size is asked for again and again: read further ahead. */
	c->ahead = c->ahead ? 2 * c->ahead : 16;
	if (c->ahead > dev->max_ahead)
		c->ahead = dev->max_ahead;
	return 0;
}
