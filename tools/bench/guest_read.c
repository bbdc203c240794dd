// SPDX-License-Identifier: GPL-2.0
/*
 * guest_read - the kernel side of the fairdie benchmarks, run in the VM.
 *
 * 1. Read throughput of /dev/fairdie configured for 256 sides, no
 *    extractor and the kernel CRNG as source (each byte read is one roll),
 *    against /dev/urandom, in the same boot, the two alternating so that
 *    both see the same machine. Prints the MB/s of each and their ratio.
 *
 * 2. Small reads: 1-byte reads per second of /dev/fairdie configured for a
 *    d6, no extractor and the kernel CRNG, against 1-byte reads of
 *    /dev/urandom, alternating in the same boot as above: the fixed cost
 *    of one read() of the device.
 *
 * 3. Memory taken by one open file of /dev/fairdie for each extractor,
 *    reading RDSEED (RDRAND without it, the simulated coin without
 *    either) through its well, which holds Peres' state: the growth of the kernel's unreclaimable slab (which also counts
 *    kmalloc() allocations too big for a slab cache, served by whole pages)
 *    and of vmalloc space while many files are open, divided by their
 *    number, and the slab caches that grew by about one object per file.
 *    kernel_file_bytes_<extractor> is the sum of those objects (the VFS's
 *    own struct file left out) plus, rounded to pages, what the caches do
 *    not explain when it is a page or more per file.
 *
 * 4. One-roll opens: fresh opens that each read one d6 from RDSEED (RDRAND
 *    without it) and close, for each extractor, after a few to warm the
 *    well up: raw bits per open, device-wide, from the sysfs counter
 *    source_bits (kernel_open_bits_<extractor>).
 *
 * 5. Sharing a slow source (the fault injection build: underflow_permille
 *    makes most tries of the instruction fail): 4 readers of one well, two
 *    blocking and two spinning on O_NONBLOCK, each one's bytes over the
 *    mean (share_min_over_mean, share_max_over_mean); and a light reader
 *    taking one roll every 10 ms beside a hog, its read times
 *    (light_p99_ms; a die of 2^32 - 5 sides with VN, see bench_light());
 *    then parties: one user with 16 blocking readers beside three users
 *    with one each, each user's bytes over a fair share, the smallest
 *    (well_share_user_min), and two cgroups (v2, mounted if need be) of
 *    root with 8 readers and 1 (well_share_cgroup_min).
 *
 * Output: tables for humans, and "BENCH <key> <value>" lines. Built
 * static, so that the busybox guest needs no libraries.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_REPS	32
#define MAX_FILES	4000
#define MAX_CACHES	512

static const char *dev_path = "/dev/fairdie";

#define SYSFS_DIR	"/sys/class/misc/fairdie"
#define FAULT_DIR	"/sys/kernel/debug/fairdie"
/* The slow source of the sharing figures: 98% of tries underflow. */
#define SLOW_PERMILLE	"980"
#define SHARE_READERS	4
#define LIGHT_PERIOD_MS	10
#define LIGHT_SIDES	4294967291ULL

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of @n values; @v is sorted in place. */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int set_u32(int fd, unsigned long cmd, __u32 v, const char *what)
{
	if (ioctl(fd, cmd, &v)) {
		fprintf(stderr, "guest_read: %s %u: %s\n", what, v,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int set_sides(int fd, __u64 sides)
{
	if (ioctl(fd, FAIRDIE_IOC_SET_SIDES, &sides)) {
		fprintf(stderr, "guest_read: SET_SIDES %llu: %s\n",
			(unsigned long long)sides, strerror(errno));
		return -1;
	}
	return 0;
}

/* Read @total bytes from @fd in reads of @chunk; return the seconds taken. */
static double time_read(int fd, char *buf, size_t chunk, size_t total)
{
	size_t done = 0;
	double t0 = now();

	while (done < total) {
		size_t want = total - done < chunk ? total - done : chunk;
		ssize_t n = read(fd, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "guest_read: read: %s\n",
				n ? strerror(errno) : "end of file");
			return -1;
		}
		done += n;
	}
	return now() - t0;
}

/*
 * A comparison of /dev/fairdie, set to a die of @sides with no extractor
 * and the kernel CRNG, with /dev/urandom: @reps timed rounds of @total
 * bytes from each in reads of @chunk, after an untimed round of @warmup
 * bytes each. A rate is @total * @scale per second (MB/s, reads/s).
 */
struct vs_urandom {
	__u64 sides;
	size_t chunk;
	size_t total;
	size_t warmup;
	double scale;
	const char *title;	/* the table's heading */
	const char *unit;	/* of the rates */
	const char *fd_row;	/* the table's row for /dev/fairdie */
	int prec;		/* decimals of the rates in the table */
	int key_prec;		/* and in the BENCH lines */
	bool each_rep;		/* a line per repetition too */
	const char *fd_key;	/* BENCH keys of the medians */
	const char *ur_key;
	const char *ratio_key;
};

static int bench_vs_urandom(const struct vs_urandom *b, int reps)
{
	double fd_rate[MAX_REPS], ur_rate[MAX_REPS], ratio[MAX_REPS];
	double units = b->total * b->scale;
	int fd, ur, r, ret = -1;
	char *buf;

	buf = malloc(b->chunk);
	fd = open(dev_path, O_RDONLY);
	ur = open("/dev/urandom", O_RDONLY);
	if (!buf || fd < 0 || ur < 0) {
		fprintf(stderr, "guest_read: cannot open %s or /dev/urandom: %s\n",
			dev_path, strerror(errno));
		goto out;
	}
	if (set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG, "SET_SOURCE") ||
	    set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE,
		    "SET_EXTRACTOR") ||
	    set_sides(fd, b->sides))
		goto out;

	/* One untimed round each: caches, page tables, the CRNG's state. */
	if (time_read(fd, buf, b->chunk, b->warmup) < 0 ||
	    time_read(ur, buf, b->chunk, b->warmup) < 0)
		goto out;

	for (r = 0; r < reps; r++) {
		/* Alternate which goes first, so that drift hits both. */
		int first = r % 2 ? ur : fd;
		int second = r % 2 ? fd : ur;
		double t1 = time_read(first, buf, b->chunk, b->total);
		double t2 = time_read(second, buf, b->chunk, b->total);

		if (t1 <= 0 || t2 <= 0)
			goto out;
		fd_rate[r] = units / (r % 2 ? t2 : t1);
		ur_rate[r] = units / (r % 2 ? t1 : t2);
		ratio[r] = fd_rate[r] / ur_rate[r];
		if (b->each_rep)
			printf("- repetition %d: fairdie %.*f %s, urandom %.*f %s, ratio %.3f\n",
			       r + 1, b->prec, fd_rate[r], b->unit, b->prec,
			       ur_rate[r], b->unit, ratio[r]);
	}

	printf("\n### %s\n\n", b->title);
	printf("| device | %s median | min | max |\n", b->unit);
	printf("|---|---:|---:|---:|\n");
	{
		/* Sorted by median(): [0] is the least, [reps - 1] the most. */
		double a = median(fd_rate, reps), c = median(ur_rate, reps);
		double q = median(ratio, reps);

		printf("| %s | %.*f | %.*f | %.*f |\n", b->fd_row, b->prec, a,
		       b->prec, fd_rate[0], b->prec, fd_rate[reps - 1]);
		printf("| /dev/urandom | %.*f | %.*f | %.*f |\n", b->prec, c,
		       b->prec, ur_rate[0], b->prec, ur_rate[reps - 1]);
		printf("| ratio (per repetition) | %.3f | %.3f | %.3f |\n\n", q,
		       ratio[0], ratio[reps - 1]);
		printf("BENCH %s %.*f\n", b->fd_key, b->key_prec, a);
		printf("BENCH %s %.*f\n", b->ur_key, b->key_prec, c);
		printf("BENCH %s %.4f\n", b->ratio_key, q);
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (ur >= 0)
		close(ur);
	free(buf);
	return ret;
}

/* Large reads of 256-sided rolls: the read path's throughput. */
static int bench_throughput(int reps, size_t mib, size_t chunk)
{
	char title[128];
	struct vs_urandom b = {
		.sides = 256, .chunk = chunk, .total = mib << 20,
		.warmup = chunk * 16, .scale = 1e-6,
		.title = title, .unit = "MB/s",
		.fd_row = "/dev/fairdie (256 sides, none, crng)",
		.prec = 1, .key_prec = 2, .each_rep = true,
		.fd_key = "kernel_fairdie_mb_per_s",
		.ur_key = "kernel_urandom_mb_per_s",
		.ratio_key = "kernel_read_vs_urandom",
	};

	snprintf(title, sizeof(title),
		 "Kernel read path (VM, %d x %zu MiB, reads of %zu bytes)",
		 reps, mib, chunk);
	return bench_vs_urandom(&b, reps);
}

/* 1-byte reads of a d6: the fixed cost of one read() of the device. */
static int bench_small_reads(int reps, long count)
{
	char title[128];
	struct vs_urandom b = {
		.sides = 6, .chunk = 1, .total = count,
		.warmup = count / 10 + 1, .scale = 1,
		.title = title, .unit = "reads/s",
		.fd_row = "/dev/fairdie (d6, none, crng)",
		.prec = 0, .key_prec = 0,
		.fd_key = "kernel_small_reads_per_s",
		.ur_key = "kernel_urandom_small_reads_per_s",
		.ratio_key = "kernel_small_read_vs_urandom",
	};

	snprintf(title, sizeof(title),
		 "Small reads (VM, %d x %ld reads of 1 byte)", reps, count);
	return bench_vs_urandom(&b, reps);
}

/* A value of /proc/meminfo, in kB; -1 if absent. */
static long meminfo_kb(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ':') {
			v = strtol(line + len + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

struct cache {
	char name[64];
	long objs;
	long objsize;
};

/* Read /proc/slabinfo (version 2.1); return the number of caches. */
static int read_slabinfo(struct cache *c, int max)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		long active, num, size;

		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %ld %ld", c[n].name, &active, &num,
			   &size) != 4)
			continue;
		c[n].objs = active;
		c[n].objsize = size;
		n++;
	}
	fclose(f);
	return n;
}

static struct cache before_c[MAX_CACHES], after_c[MAX_CACHES];

/*
 * Release the empty slabs of every cache (SLUB's /sys/kernel/slab/x/shrink):
 * the objects freed by an earlier round would otherwise serve the next
 * one's files without any cache growing. Best effort.
 */
static void shrink_slabs(void)
{
	char path[512];
	struct dirent *d;
	DIR *dir = opendir("/sys/kernel/slab");
	int fd;

	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 d->d_name);
		fd = open(path, O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, "1", 1) < 0)
			errno = 0;
		close(fd);
	}
	closedir(dir);
}

/* The hardware source the wells are measured on; SIM when there is none. */
static __u32 hw_source = FAIRDIE_SRC_SIM;

static const char * const src_names[FAIRDIE_SRC_SIM + 1] = {
	[FAIRDIE_SRC_AUTO] = "auto",
	[FAIRDIE_SRC_RDSEED] = "rdseed",
	[FAIRDIE_SRC_RDRAND] = "rdrand",
	[FAIRDIE_SRC_CRNG] = "crng",
	[FAIRDIE_SRC_SIM] = "sim",
};

static const char * const ext_names[FAIRDIE_EXT_NONE + 1] = {
	[FAIRDIE_EXT_VN] = "vn",
	[FAIRDIE_EXT_PERES] = "peres",
	[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
	[FAIRDIE_EXT_NONE] = "none",
};

/*
 * Open @nfiles files with extractor @ext, read a few rolls from each so that
 * their state is in use, and measure what the kernel allocated for them.
 */
static int bench_footprint_one(int ext, int nfiles, int *fds)
{
	long su0, su1, vm0, vm1, slab_bytes = 0, page = sysconf(_SC_PAGESIZE);
	double extra;
	int nb, na, i, j, opened = 0, ret = -1;
	char buf[8];

	/* Let deferred frees from earlier rounds settle. */
	sync();
	usleep(200000);
	shrink_slabs();
	nb = read_slabinfo(before_c, MAX_CACHES);
	su0 = meminfo_kb("SUnreclaim");
	vm0 = meminfo_kb("VmallocUsed");

	for (i = 0; i < nfiles; i++) {
		fds[i] = open(dev_path, O_RDONLY);
		if (fds[i] < 0) {
			fprintf(stderr, "guest_read: open #%d: %s\n", i,
				strerror(errno));
			goto out;
		}
		opened++;
		/* 6 sides: every extractor, Dijkstra included, takes it. */
		if (set_u32(fds[i], FAIRDIE_IOC_SET_SOURCE, hw_source,
			    "SET_SOURCE") ||
		    set_sides(fds[i], 6) ||
		    set_u32(fds[i], FAIRDIE_IOC_SET_EXTRACTOR, ext,
			    "SET_EXTRACTOR"))
			goto out;
		if (read(fds[i], buf, sizeof(buf)) != sizeof(buf)) {
			fprintf(stderr, "guest_read: read #%d: %s\n", i,
				strerror(errno));
			goto out;
		}
	}

	usleep(200000);
	su1 = meminfo_kb("SUnreclaim");
	vm1 = meminfo_kb("VmallocUsed");
	na = read_slabinfo(after_c, MAX_CACHES);

	printf("| %s | %.0f | %.0f |", ext_names[ext],
	       (su1 - su0) * 1024.0 / nfiles, (vm1 - vm0) * 1024.0 / nfiles);
	/* Slab caches that grew by at least 90% of one object per file. */
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb; j++)
			if (!strcmp(after_c[i].name, before_c[j].name))
				break;
		if (j == nb)
			continue;
		if (after_c[i].objs - before_c[j].objs >= nfiles * 9 / 10) {
			printf(" %s (%ld B) +%ld;", after_c[i].name,
			       after_c[i].objsize,
			       after_c[i].objs - before_c[j].objs);
			/* The VFS's struct file, not the module's. */
			if (strcmp(after_c[i].name, "filp"))
				slab_bytes += after_c[i].objsize;
		}
	}
	printf(" |\n");
	/*
	 * The module's objects: one per file in the caches that grew, plus
	 * whole pages for what the caches do not explain (a kmalloc() too
	 * large for a cache, vmalloc()), when that is a page or more.
	 */
	extra = (su1 - su0 + vm1 - vm0) * 1024.0 / nfiles - slab_bytes;
	if (extra >= page)
		slab_bytes += (long)((extra + page / 2) / page) * page;
	printf("BENCH kernel_file_bytes_%s %ld\n", ext_names[ext], slab_bytes);
	ret = 0;
out:
	for (i = 0; i < opened; i++)
		close(fds[i]);
	return ret;
}

static int bench_footprint(int nfiles)
{
	static const int order[] = {
		FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
		FAIRDIE_EXT_DIJKSTRA,
	};
	struct rlimit rl;
	int *fds, i, ret = 0;

	/* Room for the files, if the hard limit allows. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)nfiles + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		if (rl.rlim_cur < (rlim_t)nfiles + 16)
			nfiles = rl.rlim_cur - 16;
	}
	fds = calloc(nfiles, sizeof(*fds));
	if (!fds)
		return -1;
	printf("\n### Kernel memory per open file (VM, %d files each, source %s)\n\n",
	       nfiles, src_names[hw_source]);
	printf("| extractor | SUnreclaim B/file | VmallocUsed B/file ");
	printf("| slab caches grown by ~1 object/file |\n");
	printf("|---|---:|---:|---|\n");
	for (i = 0; i < (int)ARRAY_SIZE(order); i++)
		if (bench_footprint_one(order[i], nfiles, fds))
			ret = -1;
	free(fds);
	return ret;
}

/* RDSEED, else RDRAND, else SIM (no well then). */
static void find_hw_source(void)
{
	struct fairdie_info info = { 0 };
	int fd = open(dev_path, O_RDONLY);

	if (fd < 0)
		return;
	if (!ioctl(fd, FAIRDIE_IOC_GET_INFO, &info)) {
		if (info.sources & (1U << FAIRDIE_SRC_RDSEED))
			hw_source = FAIRDIE_SRC_RDSEED;
		else if (info.sources & (1U << FAIRDIE_SRC_RDRAND))
			hw_source = FAIRDIE_SRC_RDRAND;
	}
	close(fd);
}

/* A file of @hw_source, @ext, @sides; -1 on any failure (said). */
static int open_hw(int ext, __u64 sides, int flags)
{
	int fd = open(dev_path, O_RDONLY | flags);

	if (fd < 0) {
		fprintf(stderr, "guest_read: open %s: %s\n", dev_path,
			strerror(errno));
		return -1;
	}
	if (set_sides(fd, sides) ||
	    set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, ext, "SET_EXTRACTOR") ||
	    set_u32(fd, FAIRDIE_IOC_SET_SOURCE, hw_source, "SET_SOURCE")) {
		close(fd);
		return -1;
	}
	return fd;
}

/* A device-wide counter of sysfs; -1 if unreadable. */
static long long sysfs_counter(const char *name)
{
	char path[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", SYSFS_DIR, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Open, read one d6, close, @n times. */
static int one_roll_opens(int ext, int n)
{
	unsigned char c;
	int i, fd;

	for (i = 0; i < n; i++) {
		fd = open_hw(ext, 6, 0);
		if (fd < 0)
			return -1;
		if (read(fd, &c, 1) != 1) {
			fprintf(stderr, "guest_read: one-roll read: %s\n",
				strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

/*
 * Raw bits per open that reads one d6 and closes, device-wide, for each
 * extractor: @n opens after 8 that warm the well up (its start-up test).
 */
static int bench_open_bits(int n)
{
	static const int order[] = {
		FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
		FAIRDIE_EXT_DIJKSTRA,
	};
	long long b0, b1;
	int i;

	if (hw_source == FAIRDIE_SRC_SIM) {
		printf("\nNo hardware source in the VM: no one-roll opens.\n");
		return 0;
	}
	printf("\n### One-roll opens (VM, %s, %d opens each)\n\n",
	       src_names[hw_source], n);
	printf("Each open reads one d6 and closes; raw bits taken from the ");
	printf("source device-wide (sysfs source_bits) per open, after 8 ");
	printf("opens that warm the well up.\n\n");
	printf("| extractor | raw bits per open |\n|---|---:|\n");
	for (i = 0; i < (int)ARRAY_SIZE(order); i++) {
		if (one_roll_opens(order[i], 8))
			return -1;
		b0 = sysfs_counter("source_bits");
		if (one_roll_opens(order[i], n))
			return -1;
		b1 = sysfs_counter("source_bits");
		if (b0 < 0 || b1 < 0) {
			fprintf(stderr, "guest_read: no %s/source_bits\n",
				SYSFS_DIR);
			return -1;
		}
		printf("| %s | %.1f |\n", ext_names[order[i]],
		       (double)(b1 - b0) / n);
		printf("BENCH kernel_open_bits_%s %.2f\n", ext_names[order[i]],
		       (double)(b1 - b0) / n);
	}
	printf("\nTargets: none <= 64, vn <= 256.\n");
	return 0;
}

static int knob_write(const char *name, const char *val)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", FAULT_DIR, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* The slow source: on (SLOW_PERMILLE) or off; -1 without the knob. */
static int slow_source(bool on)
{
	struct stat st;

	if (stat(FAULT_DIR, &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	return knob_write("underflow_permille", on ? SLOW_PERMILLE : "0");
}

/*
 * One of the sharing readers: d6 NONE, reads of 64 rolls for @secs after
 * @go is readable, blocking or spinning on O_NONBLOCK; writes the bytes
 * it read to @out.
 */
static void share_reader(bool spin, int go, int out, double secs)
{
	unsigned long long total = 0;
	unsigned char buf[64];
	int fd = open_hw(FAIRDIE_EXT_NONE, 6, spin ? O_NONBLOCK : 0);
	double end;
	ssize_t n;
	char c;

	if (fd < 0 || read(go, &c, 1) != 1)
		_exit(1);
	end = now() + secs;
	while (now() < end) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			total += n;
		else if (!(n < 0 && (errno == EAGAIN || errno == EINTR)))
			_exit(1);
	}
	if (write(out, &total, sizeof(total)) != sizeof(total))
		_exit(1);
	_exit(0);
}

/* 4 readers of one well on the slow source, for @secs each. */
static int bench_share(int secs)
{
	unsigned long long got[SHARE_READERS];
	double mean = 0, lo = 1e300, hi = 0, r;
	int go[2], out[2], i, status, ret = -1;
	pid_t pid[SHARE_READERS];

	if (pipe(go) || pipe(out))
		return -1;
	for (i = 0; i < SHARE_READERS; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return -1;
		if (!pid[i]) {
			close(go[1]);
			share_reader(i >= SHARE_READERS / 2, go[0], out[1],
				     secs);
		}
	}
	close(go[0]);
	close(out[1]);
	if (write(go[1], "gggg", SHARE_READERS) != SHARE_READERS)
		fprintf(stderr, "guest_read: cannot start the readers\n");
	close(go[1]);
	for (i = 0; i < SHARE_READERS; i++)
		if (waitpid(pid[i], &status, 0) != pid[i] || status)
			goto out;
	for (i = 0; i < SHARE_READERS; i++) {
		if (read(out[0], &got[i], sizeof(got[i])) != sizeof(got[i]))
			goto out;
		mean += got[i] / (double)SHARE_READERS;
	}
	if (!mean)
		goto out;
	printf("| reader | bytes in %d s | over the mean |\n", secs);
	printf("|---|---:|---:|\n");
	for (i = 0; i < SHARE_READERS; i++) {
		r = got[i] / mean;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		printf("| %d (%s) | %llu | %.3f |\n", i,
		       i >= SHARE_READERS / 2 ? "O_NONBLOCK, spinning" : "blocking",
		       got[i], r);
	}
	printf("\nTarget: every share within 0.8-1.25 of the mean.\n\n");
	printf("BENCH share_min_over_mean %.4f\n", lo);
	printf("BENCH share_max_over_mean %.4f\n", hi);
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "guest_read: a sharing reader failed\n");
	close(out[0]);
	return ret;
}

#define CGROUP_ROOT	"/sys/fs/cgroup"

/* cgroup v2 mounted, and two cgroups of our own; 0 or -1. */
static int cgroups_make(void)
{
	struct stat st;

	if (stat(CGROUP_ROOT "/cgroup.procs", &st) &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL))
		return -1;
	if ((mkdir(CGROUP_ROOT "/fdbench0", 0755) && errno != EEXIST) ||
	    (mkdir(CGROUP_ROOT "/fdbench1", 0755) && errno != EEXIST))
		return -1;
	return 0;
}

/* The calling process into cgroup @i of cgroups_make(). */
static int cgroup_enter(int i)
{
	char path[64], pid[16];
	int fd, n, ret;

	snprintf(path, sizeof(path), CGROUP_ROOT "/fdbench%d/cgroup.procs", i);
	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, pid, n) == n ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * A reader of a party: a user (@uid, 0 for root) or a cgroup (@cgroup,
 * -1 for none); d6 NONE, blocking reads of 64 rolls for @secs after @go
 * is readable; writes its index and the bytes it read to @out.
 */
static void party_reader(int idx, uid_t uid, int cgroup, int go, int out,
			 double secs)
{
	unsigned long long res[2] = { idx, 0 };
	unsigned char buf[64];
	double end;
	ssize_t n;
	char c;
	int fd;

	if (cgroup >= 0 && cgroup_enter(cgroup))
		_exit(1);
	if (uid && (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
		_exit(1);
	fd = open_hw(FAIRDIE_EXT_NONE, 6, 0);
	if (fd < 0 || read(go, &c, 1) != 1)
		_exit(1);
	end = now() + secs;
	while (now() < end) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			res[1] += n;
		else if (!(n < 0 && errno == EINTR))
			_exit(1);
	}
	if (write(out, res, sizeof(res)) != sizeof(res))
		_exit(1);
	_exit(0);
}

/*
 * @n readers of one well on the slow source for @secs, reader i of party
 * @party[i] of @np: a user of its own (uid 1001 + party) or, with
 * @cgroups, a cgroup of its own as root. Prints each party's share over a
 * fair one and @key, the smallest.
 */
static int bench_party(int n, const int *party, int np, bool cgroups,
		       int secs, const char *key)
{
	unsigned long long got[8] = { 0 }, total = 0, res[2];
	int go[2], out[2], i, status, ret = -1;
	double lo = 1e300, r;
	pid_t pid[32];

	if (n > 32 || np > 8 || (cgroups && cgroups_make()) ||
	    pipe(go) || pipe(out))
		return -1;
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (pid[i] < 0)
			return -1;
		if (!pid[i]) {
			close(go[1]);
			party_reader(i, cgroups ? 0 : 1001 + party[i],
				     cgroups ? party[i] : -1, go[0], out[1],
				     secs);
		}
	}
	close(go[0]);
	close(out[1]);
	for (i = 0; i < n; i++)
		if (write(go[1], "g", 1) != 1)
			fprintf(stderr, "guest_read: cannot start the readers\n");
	close(go[1]);
	for (i = 0; i < n; i++)
		if (waitpid(pid[i], &status, 0) != pid[i] || status)
			goto out;
	for (i = 0; i < n; i++) {
		if (read(out[0], res, sizeof(res)) != sizeof(res) ||
		    res[0] >= (unsigned long long)n)
			goto out;
		got[party[res[0]]] += res[1];
		total += res[1];
	}
	if (!total)
		goto out;
	printf("| %s | files | bytes in %d s | over a fair share |\n",
	       cgroups ? "cgroup (root)" : "user", secs);
	printf("|---|---:|---:|---:|\n");
	for (i = 0; i < np; i++) {
		int files = 0, j;

		for (j = 0; j < n; j++)
			files += party[j] == i;
		r = got[i] * (double)np / total;
		lo = r < lo ? r : lo;
		printf("| %d | %d | %llu | %.3f |\n", i, files, got[i], r);
	}
	printf("\nTarget: every party at least 0.8 of a fair share.\n\n");
	printf("BENCH %s %.4f\n", key, lo);
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "guest_read: a party's reader failed\n");
	close(out[0]);
	if (cgroups) {
		rmdir(CGROUP_ROOT "/fdbench0");
		rmdir(CGROUP_ROOT "/fdbench1");
	}
	return ret;
}

/* Users, then cgroups of root: the wells are fair between parties. */
static int bench_parties(int secs)
{
	int users[19], groups[9], i;

	for (i = 0; i < 19; i++)
		users[i] = i < 16 ? 0 : i - 15;
	for (i = 0; i < 9; i++)
		groups[i] = i < 8 ? 0 : 1;
	printf("One user with 16 files beside three users with one each, ");
	printf("blocking readers of one well (d6 none, reads of 64 rolls), ");
	printf("for %d s:\n\n", secs);
	if (bench_party(19, users, 4, false, secs, "well_share_user_min"))
		return -1;
	printf("Two cgroups (v2) of root, one with 8 files, one with 1, ");
	printf("for %d s:\n\n", secs);
	return bench_party(9, groups, 2, true, secs, "well_share_cgroup_min");
}

/*
 * One roll every LIGHT_PERIOD_MS for @secs beside a hog (blocking reads
 * of 4 KiB), both reading the same well on the slow source: the light
 * reader's read times. Both roll a die of LIGHT_SIDES with VN, as
 * selftests/fairdie_well_test.c does: 32 fair bits a roll, so that a
 * reader goes back to the source every few rolls whatever the design (a
 * file of its own would refill 2048 bits every 64 rolls), and the 99th
 * percentile measures that path rather than rolls already buffered.
 */
static int bench_light(int secs)
{
	int n = secs * 1000 / LIGHT_PERIOD_MS, i, fd, status, ret = -1;
	double *lat = calloc(n, sizeof(*lat)), next, t0;
	unsigned char c[4];
	pid_t hog;

	if (!lat || n < 1)
		return -1;
	fd = open_hw(FAIRDIE_EXT_VN, LIGHT_SIDES, 0);
	if (fd >= 0 && read(fd, c, sizeof(c)) != sizeof(c)) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		free(lat);
		return -1;
	}
	hog = fork();
	if (hog < 0)
		goto out;
	if (!hog) {
		static unsigned char big[4096];
		int h = open_hw(FAIRDIE_EXT_VN, LIGHT_SIDES, 0);
		double end = now() + secs + 1.5;

		if (h < 0)
			_exit(1);
		while (now() < end)
			if (read(h, big, sizeof(big)) < 0 && errno != EINTR)
				_exit(2);
		_exit(0);
	}
	usleep(500000);
	next = now() * 1e3;
	for (i = 0; i < n; i++) {
		next += LIGHT_PERIOD_MS;
		while ((t0 = now() * 1e3) < next)
			usleep((next - t0) * 1000);
		if (read(fd, c, sizeof(c)) != sizeof(c)) {
			fprintf(stderr, "guest_read: light read: %s\n",
				strerror(errno));
			break;
		}
		lat[i] = now() * 1e3 - t0;
		if (next < now() * 1e3)
			next = now() * 1e3;
	}
	if (waitpid(hog, &status, 0) != hog || status || i < n)
		goto out;
	qsort(lat, n, sizeof(*lat), cmp_double);
	printf("Light reader, one roll every %d ms for %d s beside a hog (reads ",
	       LIGHT_PERIOD_MS, secs);
	printf("of 4 KiB), both d%llu vn: read time median %.2f ms, p99 %.2f ms, ",
	       LIGHT_SIDES, lat[n / 2], lat[(n * 99 + 99) / 100 - 1]);
	printf("max %.2f ms (target: p99 <= 20 ms).\n\n", lat[n - 1]);
	printf("BENCH light_p99_ms %.3f\n", lat[(n * 99 + 99) / 100 - 1]);
	ret = 0;
out:
	close(fd);
	free(lat);
	return ret;
}

/* The sharing figures, on the slow source of the fault injection build. */
static int bench_sharing(int secs)
{
	int ret;

	if (hw_source == FAIRDIE_SRC_SIM) {
		printf("\nNo hardware source in the VM: no sharing figures.\n");
		return 0;
	}
	/* The wells' start-up tests, before the source slows down. */
	if (one_roll_opens(FAIRDIE_EXT_NONE, 2) ||
	    one_roll_opens(FAIRDIE_EXT_VN, 2))
		return -1;
	if (slow_source(true)) {
		fprintf(stderr, "guest_read: no %s/underflow_permille: the module is not the fault injection build\n",
			FAULT_DIR);
		return -1;
	}
	printf("\n### Sharing a slow source (VM, %s, %s/1000 tries underflow)\n\n",
	       src_names[hw_source], SLOW_PERMILLE);
	printf("Four readers of one well (d6 none, reads of 64 rolls), two ");
	printf("blocking and two spinning on O_NONBLOCK, for %d s:\n\n", secs);
	ret = bench_share(secs);
	if (!ret)
		ret = bench_light(secs);
	if (!ret)
		ret = bench_parties(secs);
	slow_source(false);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: guest_read [OPTIONS]\n"
		"  -r, --reps N      repetitions of the throughput test (default 5)\n"
		"  -m, --mib N       MiB read from each device per repetition (default 32)\n"
		"  -c, --chunk N     bytes per read() (default 65536)\n"
		"  -s, --small N     1-byte reads per repetition, 0 skips them (default 100000)\n"
		"  -f, --files N     open files for the footprint, 0 skips it (default 1000)\n"
		"  -o, --opens N     one-roll opens per extractor, 0 skips them (default 300)\n"
		"  -S, --share S     seconds of the sharing figures, 0 skips them (default 10)\n"
		"  -d, --device PATH the device (default /dev/fairdie)\n"
		"  -h, --help        this text\n");
}

static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "guest_read: '%s': not a number in %ld..%ld\n",
			s, min, max);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "mib", required_argument, NULL, 'm' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "small", required_argument, NULL, 's' },
		{ "files", required_argument, NULL, 'f' },
		{ "opens", required_argument, NULL, 'o' },
		{ "share", required_argument, NULL, 'S' },
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long reps = 5, mib = 32, chunk = 65536, files = 1000, small = 100000;
	long opens = 300, share = 10;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "r:m:c:s:f:o:S:d:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'r':
			reps = parse_num(optarg, 1, MAX_REPS);
			break;
		case 'm':
			mib = parse_num(optarg, 1, 4096);
			break;
		case 'c':
			chunk = parse_num(optarg, 1, 1 << 24);
			break;
		case 's':
			small = parse_num(optarg, 0, 100000000);
			break;
		case 'f':
			files = parse_num(optarg, 0, MAX_FILES);
			break;
		case 'o':
			opens = parse_num(optarg, 0, 100000);
			break;
		case 'S':
			share = parse_num(optarg, 0, 600);
			break;
		case 'd':
			dev_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_hw_source();
	if (bench_throughput(reps, mib, chunk))
		ret = 1;
	if (small && bench_small_reads(reps, small))
		ret = 1;
	/*
	 * First, while the wells hold only what the warm-up opens left: the
	 * footprint's files give their unused bits back to them.
	 */
	if (opens && bench_open_bits(opens))
		ret = 1;
	if (files && bench_footprint(files))
		ret = 1;
	if (share && bench_sharing(share))
		ret = 1;
	return ret;
}
