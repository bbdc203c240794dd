// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - opening /dev/fairdie, configuring it and reading rolls.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "device.h"
#include "fd_names.h"
#include "fd_roll.h"
#include "json.h"
#include "msg.h"

static int fdc_device_set_sides(struct fdc_source *src, u64 sides)
{
	__u32 ext;

	if (!ioctl(src->fd, FAIRDIE_IOC_SET_SIDES, &sides)) {
		src->sides = sides;
		return 0;
	}
	if (errno == EINVAL && !ioctl(src->fd, FAIRDIE_IOC_GET_EXTRACTOR, &ext) &&
	    ext == FAIRDIE_EXT_DIJKSTRA) {
		fdc_err("%s: cannot roll a d%llu with the dijkstra extractor (its sides must factor into primes up to 64)",
			src->name, (unsigned long long)sides);
		return -1;
	}
	fdc_err("%s: SET_SIDES %llu: %s", src->name,
		(unsigned long long)sides, strerror(errno));
	return -1;
}

static void fdc_device_read_err(struct fdc_source *src, int err)
{
	if (err == EIO)
		fdc_err("%s: read: %s (the source failed its health tests; see 'fairdie stats')",
			src->name, strerror(err));
	else
		fdc_err("%s: read: %s", src->name, strerror(err));
}

/* @n rolls of @sides: whole rolls in the binary format, checked. */
static int fdc_device_rolls(struct fdc_source *src, u64 sides, u64 *out,
			    size_t n)
{
	unsigned int width = fd_roll_width(sides);
	u8 buf[65536];
	size_t chunk, want, got, i;
	ssize_t r;

	if (src->sides != sides && fdc_device_set_sides(src, sides))
		return -1;
	while (n) {
		chunk = n < sizeof(buf) / width ? n : sizeof(buf) / width;
		want = chunk * width;
		for (got = 0; got < want; got += r) {
			r = read(src->fd, buf + got, want - got);
			if (r < 0 && errno == EINTR) {
				r = 0;
				continue;
			}
			if (r < 0) {
				fdc_device_read_err(src, errno);
				return -1;
			}
			if (!r) {
				fdc_err("%s: read: unexpected end of file",
					src->name);
				return -1;
			}
		}
		for (i = 0; i < chunk; i++) {
			out[i] = fd_get_roll(buf + i * width, width);
			if (out[i] >= sides) {
				fdc_err("%s: the device returned %llu for a %llu-sided roll",
					src->name, (unsigned long long)out[i],
					(unsigned long long)sides);
				return -1;
			}
		}
		out += chunk;
		n -= chunk;
	}
	return 0;
}

static void fdc_device_close(struct fdc_source *src)
{
	close(src->fd);
	src->fd = -1;
}

static const struct fdc_source_ops fdc_device_ops = {
	.rolls = fdc_device_rolls,
	.close = fdc_device_close,
};

/**
 * fdc_source_is_device() - whether @src is the real device
 * @src: an open source
 *
 * Return: true for a source opened by fdc_device_open().
 */
bool fdc_source_is_device(const struct fdc_source *src)
{
	return src->ops == &fdc_device_ops;
}

/**
 * fdc_device_ioctl() - an ioctl on the device, with its error message
 * @src: the source
 * @req: FAIRDIE_IOC_x
 * @arg: its argument
 * @name: the ioctl's name for the message, e.g. "GET_STATS"
 *
 * Return: 0, or -1 after printing a one-line error (errno is kept).
 */
int fdc_device_ioctl(struct fdc_source *src, unsigned long req, void *arg,
		     const char *name)
{
	int err;

	if (!fdc_source_is_device(src)) {
		fdc_err("%s: %s: not supported by this source", src->name, name);
		errno = ENOTTY;
		return -1;
	}
	if (!ioctl(src->fd, req, arg))
		return 0;
	err = errno;
	if (err == ENOTTY)
		fdc_err("%s: %s: %s (not a fairdie device, or an older one?)",
			src->name, name, strerror(err));
	else
		fdc_err("%s: %s: %s", src->name, name, strerror(err));
	errno = err;
	return -1;
}

/* Whether the module is installed for the running kernel, where DKMS or
 * 'make install' put it.
 */
static bool fdc_module_installed(const char *release)
{
	static const char *const where[] = {
		"updates/dkms/fairdie.ko", "updates/dkms/fairdie.ko.xz",
		"updates/dkms/fairdie.ko.zst", "extra/fairdie.ko",
		"extra/fairdie.ko.xz",
	};
	char path[512];
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(where); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/%s", release,
			 where[i]);
		if (!stat(path, &st))
			return true;
	}
	return false;
}

/**
 * fdc_device_missing() - why the device cannot be opened, for a newcomer
 * @path: the device's path
 * @err: the errno of open()
 * @buf: room for the text
 * @size: its size
 *
 * For the default path: whether the module is loaded, installed, or the
 * node's permissions are at fault, and what to do; for another path only
 * the error.
 *
 * Return: @buf.
 */
const char *fdc_device_missing(const char *path, int err, char *buf,
			       size_t size)
{
	struct utsname u;
	struct stat st;

	if (strcmp(path, FDC_DEFAULT_DEVICE)) {
		snprintf(buf, size, "%s: %s", fdc_quote(path), strerror(err));
		return buf;
	}
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		if (!stat("/sys/module/fairdie", &st)) {
			snprintf(buf, size,
				 "%s: %s (the fairdie module is loaded but the device node is missing: is udev running?)",
				 path, strerror(err));
			break;
		}
		if (!uname(&u) && !fdc_module_installed(u.release)) {
			snprintf(buf, size,
				 "%s: %s (the fairdie module is not installed for kernel %s: install the fairdie-dkms package or run 'make install'; or take fair bits from elsewhere: --source=getrandom, --random-source=FILE or --seed=N)",
				 path, strerror(err), u.release);
			break;
		}
		snprintf(buf, size,
			 "%s: %s (load the module: 'sudo modprobe fairdie'; or take fair bits from elsewhere: --source=getrandom, --random-source=FILE or --seed=N)",
			 path, strerror(err));
		break;
	case EACCES:
	case EPERM:
		snprintf(buf, size,
			 "%s: %s (check the permissions of the device node; the udev rule of the fairdie package makes it readable by everyone)",
			 path, strerror(err));
		break;
	default:
		snprintf(buf, size, "%s: %s", path, strerror(err));
		break;
	}
	return buf;
}

/* The names of the sources in @mask, comma-separated, into @buf. */
static void fdc_source_list(u32 mask, char *buf, size_t size)
{
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < FD_NR_SOURCES && n < size; i++)
		if (mask & (1U << i))
			n += snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
				      fd_source_name(i));
}

/* Apply the global options to the freshly opened file. */
static int fdc_device_configure(struct fdc_source *src,
				const struct fdc_config *cfg,
				const struct fairdie_info *info)
{
	char avail[128];
	int src_id = cfg->source;
	__u32 v;

	if (cfg->have_sim) {
		struct fairdie_sim sim = cfg->sim;

		if (fdc_device_ioctl(src, FAIRDIE_IOC_SET_SIM, &sim, "SET_SIM"))
			return -1;
		if (src_id < 0)
			src_id = FAIRDIE_SRC_SIM;
	}
	if (src_id >= 0) {
		v = src_id;
		if (ioctl(src->fd, FAIRDIE_IOC_SET_SOURCE, &v)) {
			if (errno == ENODEV) {
				fdc_source_list(info->sources, avail,
						sizeof(avail));
				fdc_err("%s: source '%s' is not available on this machine (available: %s)",
					src->name, fd_source_name(src_id), avail);
			} else {
				fdc_err("%s: SET_SOURCE %s: %s", src->name,
					fd_source_name(src_id), strerror(errno));
			}
			return -1;
		}
	}
	if (cfg->extractor >= 0) {
		v = cfg->extractor;
		if (fdc_device_ioctl(src, FAIRDIE_IOC_SET_EXTRACTOR, &v,
				     "SET_EXTRACTOR"))
			return -1;
	}
	v = FAIRDIE_FMT_BINARY;
	if (fdc_device_ioctl(src, FAIRDIE_IOC_SET_FORMAT, &v, "SET_FORMAT"))
		return -1;
	if (cfg->sides && fdc_device_set_sides(src, cfg->sides))
		return -1;
	return 0;
}

/**
 * fdc_device_open() - open the device and apply the global options
 * @src: the source
 * @cfg: the global options: path, source, extractor, sim coin, sides
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_device_open(struct fdc_source *src, const struct fdc_config *cfg)
{
	struct fairdie_info info;
	char why[512];

	memset(src, 0, sizeof(*src));
	fdc_source_name(src, cfg->device);
	src->fd = open(cfg->device, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0) {
		fdc_err("%s",
			fdc_device_missing(cfg->device, errno, why, sizeof(why)));
		return -1;
	}
	src->ops = &fdc_device_ops;
	memset(&info, 0, sizeof(info));
	if (ioctl(src->fd, FAIRDIE_IOC_GET_INFO, &info)) {
		fdc_err("%s: not a fairdie device (GET_INFO: %s)",
			src->name, strerror(errno));
		goto out_close;
	}
	if (info.version != FAIRDIE_ABI_VERSION) {
		fdc_err("%s: ABI version %u, this tool knows version %u",
			src->name, info.version, FAIRDIE_ABI_VERSION);
		goto out_close;
	}
	if (fdc_device_configure(src, cfg, &info))
		goto out_close;
	return 0;

out_close:
	fdc_device_close(src);
	src->ops = NULL;
	return -1;
}

/**
 * fdc_device_json_stats() - the counters of FAIRDIE_IOC_GET_STATS as JSON
 * members of the object open, in the struct's order
 * @st: the counters
 */
void fdc_device_json_stats(const struct fairdie_stats *st)
{
	const struct {
		const char *name;
		__u64 value;
	} members[] = {
		{ "source_bits", st->source_bits },
		{ "extracted_bits", st->extracted_bits },
		{ "sampler_bits", st->sampler_bits },
		{ "outputs", st->outputs },
		{ "source_retries", st->source_retries },
		{ "source_failures", st->source_failures },
		{ "health_failures", st->health_failures },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(members); i++) {
		fdc_json_key(members[i].name);
		fdc_json_u64(members[i].value);
	}
}
