// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_test - kselftest of the /dev/fairdie device ABI
 *
 * Every test gets an open file of its own from its fixture. The device is
 * not optional hardware: if it cannot be opened every test fails. Tests SKIP
 * only when an optional feature is absent (an extractor not implemented, a
 * CPU source the machine lacks, a module parameter not there).
 *
 * Statistical tests use Pearson's chi-square at a significance level of
 * CHI2_ALPHA (1e-6) each; with some 60 of them, a correct module fails one
 * about once in 16000 runs of the suite. The critical values are exact, not
 * approximations: chi2_crit() inverts the chi-square survival function (in
 * closed form for integer degrees of freedom) by bisection.
 *
 * Sizes are chosen to keep the suite within a few minutes under QEMU TCG,
 * which runs the kernel some 10 to 50 times slower than native.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

/* The harness has a signal handler with an unused parameter: -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#define DEV_PATH	"/dev/fairdie"
#define SYSFS_DIR	"/sys/class/misc/fairdie"
#define PARAM_DIR	"/sys/module/fairdie/parameters"

#define CHI2_ALPHA	0.000001
#define U64_MAX_VAL	(~0ULL)
#define MIB		((size_t)1024 * 1024)

/* The values this program knows; the device says which it offers. */
#define N_SOURCES	(FAIRDIE_SRC_SIM + 1)
#define N_EXTRACTORS	(FAIRDIE_EXT_NONE + 1)
#define N_FORMATS	(FAIRDIE_FMT_TEXT + 1)
/* The last page of the address space: the kernel's, for 64 and 32-bit tasks. */
#define KERNEL_PTR	((void *)(uintptr_t)-4096)

/* Upper bound of the bytes a health failure may let through, and its time. */
#define HEALTH_MAX_BYTES	(16 * MIB)
#define HEALTH_MAX_MS		1000.0

/* ---------------------------------------------------------------------
 * Helpers
 */

static const char * const src_names[N_SOURCES] = {
	[FAIRDIE_SRC_AUTO] = "auto",
	[FAIRDIE_SRC_RDSEED] = "rdseed",
	[FAIRDIE_SRC_RDRAND] = "rdrand",
	[FAIRDIE_SRC_CRNG] = "crng",
	[FAIRDIE_SRC_SIM] = "sim",
};

static const char * const ext_names[N_EXTRACTORS] = {
	[FAIRDIE_EXT_VN] = "vn",
	[FAIRDIE_EXT_PERES] = "peres",
	[FAIRDIE_EXT_DIJKSTRA] = "dijkstra",
	[FAIRDIE_EXT_NONE] = "none",
};

/* ioctl() that returns 0 on success and the errno value on failure. */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

static int set_u64(int fd, unsigned long cmd, __u64 val)
{
	return xioctl(fd, cmd, &val);
}

static int set_u32(int fd, unsigned long cmd, __u32 val)
{
	return xioctl(fd, cmd, &val);
}

static int set_sim(int fd, __u64 seed, __u64 num, __u64 den)
{
	struct fairdie_sim sim = { .seed = seed, .p1_num = num, .p1_den = den };

	return xioctl(fd, FAIRDIE_IOC_SET_SIM, &sim);
}

static __u64 get_u64(struct __test_metadata *const _metadata, int fd,
		     unsigned long cmd)
{
	__u64 val = 0;

	ASSERT_EQ(0, xioctl(fd, cmd, &val));
	return val;
}

static __u32 get_u32(struct __test_metadata *const _metadata, int fd,
		     unsigned long cmd)
{
	__u32 val = 0;

	ASSERT_EQ(0, xioctl(fd, cmd, &val));
	return val;
}

static void get_stats(struct __test_metadata *const _metadata, int fd,
		      struct fairdie_stats *st)
{
	memset(st, 0xa5, sizeof(*st));
	ASSERT_EQ(0, xioctl(fd, FAIRDIE_IOC_GET_STATS, st));
	ASSERT_EQ(0ULL, st->reserved[0] | st->reserved[1] | st->reserved[2]);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Width in bytes of one binary roll: the smallest of 1, 2, 4, 8 holding sides - 1. */
static size_t roll_width(__u64 sides)
{
	__u64 max = sides - 1;

	if (max <= 0xff)
		return 1;
	if (max <= 0xffff)
		return 2;
	if (max <= 0xffffffffULL)
		return 4;
	return 8;
}

static __u64 roll_at(const unsigned char *buf, size_t width, size_t i)
{
	__u8 v8;
	__u16 v16;
	__u32 v32;
	__u64 v64;

	switch (width) {
	case 1:
		memcpy(&v8, buf + i, 1);
		return v8;
	case 2:
		memcpy(&v16, buf + 2 * i, 2);
		return v16;
	case 4:
		memcpy(&v32, buf + 4 * i, 4);
		return v32;
	default:
		memcpy(&v64, buf + 8 * i, 8);
		return v64;
	}
}

/*
 * Read @n binary rolls of a die with @sides faces in reads of at most
 * @chunk rolls, check every one is below @sides, and add them up in
 * @counts[sides] when @counts is not NULL; when @pairs is not NULL, count
 * the disjoint pairs (roll 2i, roll 2i + 1) in @pairs[sides * sides] too.
 */
static void read_rolls(struct __test_metadata *const _metadata, int fd,
		       __u64 sides, size_t n, size_t chunk, __u64 *counts,
		       __u64 *pairs)
{
	size_t width = roll_width(sides), done = 0, i;
	unsigned char *buf;
	__u64 prev = 0;

	buf = malloc(chunk * width);
	ASSERT_TRUE(!!buf);
	while (done < n) {
		size_t want = n - done < chunk ? n - done : chunk;
		ssize_t got = read(fd, buf, want * width);

		ASSERT_EQ((ssize_t)(want * width), got) {
			TH_LOG("read of %zu bytes after %zu rolls: %s", want * width,
			       done, got < 0 ? strerror(errno) : "short");
		}
		for (i = 0; i < want; i++) {
			__u64 v = roll_at(buf, width, i);

			ASSERT_LT(v, sides) {
				TH_LOG("roll %zu is %llu, sides %llu", done + i,
				       (unsigned long long)v, (unsigned long long)sides);
			}
			if (counts)
				counts[v]++;
			if (pairs && (done + i) % 2)
				pairs[prev * sides + v]++;
			prev = v;
		}
		done += want;
	}
	free(buf);
}

/*
 * Survival function of the chi-square distribution, P(X > x), for @df degrees
 * of freedom, in closed form: for even df a Poisson sum, for odd df erfc plus
 * a finite series (Abramowitz and Stegun 26.4.4 and 26.4.5). Terms are formed
 * in the log domain so that large x and df neither overflow nor underflow.
 */
static double chi2_sf(double x, unsigned int df)
{
	double h = x / 2, sum = 0;
	unsigned int i;

	if (x <= 0)
		return 1;
	if (df % 2 == 0) {
		for (i = 0; i < df / 2; i++)
			sum += exp(-h + i * log(h) - lgamma(i + 1.0));
		return sum;
	}
	sum = erfc(sqrt(h));
	for (i = 1; i <= df / 2; i++) {
		/* log of 1 * 3 * ... * (2i - 1) = (2i)! / (2^i i!) */
		double log_dfact = lgamma(2.0 * i + 1) - i * log(2.0) - lgamma(i + 1.0);

		sum += exp(-h + (i - 0.5) * log(x) + 0.5 * log(2 / M_PI) - log_dfact);
	}
	return sum;
}

/* The x with P(X > x) = @alpha, by bisection (chi2_sf() decreases in x). */
static double chi2_crit(unsigned int df, double alpha)
{
	double lo = 0, hi = df + 16.0;
	int i;

	while (chi2_sf(hi, df) > alpha)
		hi *= 2;
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (chi2_sf(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* Pearson's statistic of @k cells that should each hold @total / @k. */
static double chi2_uniform(const __u64 *counts, size_t k)
{
	double total = 0, expect, stat = 0;
	size_t i;

	for (i = 0; i < k; i++)
		total += counts[i];
	expect = total / k;
	for (i = 0; i < k; i++)
		stat += (counts[i] - expect) * (counts[i] - expect) / expect;
	return stat;
}

/* Fail unless @counts[k] passes the uniformity test; @what names it. */
static void check_uniform(struct __test_metadata *const _metadata,
			  const __u64 *counts, size_t k, const char *what)
{
	double stat = chi2_uniform(counts, k);
	double crit = chi2_crit(k - 1, CHI2_ALPHA);

	TH_LOG("%s: chi-square %.1f, df %zu, critical %.1f at alpha %g",
	       what, stat, k - 1, crit, CHI2_ALPHA);
	ASSERT_LT(stat, crit);
}

/*
 * Check a stream of text rolls, possibly cut anywhere: each line is a
 * decimal face in [1, sides] without leading zeros, ended by '\n'.
 */
struct text_check {
	__u64 sides;
	__u64 lines;
	__u64 val;
	unsigned int digits;
	bool bad;
	char first_bad[32];
};

static void text_bad(struct text_check *t, const char *why)
{
	if (!t->bad)
		snprintf(t->first_bad, sizeof(t->first_bad), "line %llu: %s",
			 (unsigned long long)t->lines, why);
	t->bad = true;
}

static void text_feed(struct text_check *t, const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (c == '\n') {
			if (!t->digits)
				text_bad(t, "empty");
			else if (t->val < 1 || t->val > t->sides)
				text_bad(t, "out of range");
			t->lines++;
			t->val = 0;
			t->digits = 0;
		} else if (c >= '0' && c <= '9') {
			unsigned int d = c - '0';

			if (!t->digits && !d)
				text_bad(t, "leading zero");
			else if (t->val > (U64_MAX_VAL - d) / 10)
				text_bad(t, "overflow");
			t->val = t->val * 10 + d;
			t->digits++;
		} else {
			text_bad(t, "not a digit");
		}
	}
}

/* Read the content of a small sysfs file, without its final newline. */
static bool read_small_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return true;
}

/* Index of @name in @names[n] ignoring case, or -1. */
static int name_index(const char * const *names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(names[i], name))
			return i;
	return -1;
}

/* The source AUTO resolves to on a machine offering @sources. */
static __u32 auto_source(__u32 sources)
{
	if (sources & (1U << FAIRDIE_SRC_RDSEED))
		return FAIRDIE_SRC_RDSEED;
	if (sources & (1U << FAIRDIE_SRC_RDRAND))
		return FAIRDIE_SRC_RDRAND;
	return FAIRDIE_SRC_CRNG;
}

/* The source a new open file starts with, from the module parameter. */
static __u32 default_source(__u32 sources)
{
	char buf[64];
	int i;

	if (read_small_file(PARAM_DIR "/source", buf, sizeof(buf))) {
		i = name_index(src_names, N_SOURCES, buf);
		if (i > FAIRDIE_SRC_AUTO)
			return i;
	}
	return auto_source(sources);
}

/*
 * Configure @fd for the simulated coin: sides, extractor, then the coin and
 * the source, so that the stream starts from the seed with nothing buffered.
 */
static void sim_config(struct __test_metadata *const _metadata, int fd,
		       __u32 ext, __u64 sides, __u64 seed, __u64 num, __u64 den)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, sides));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
	ASSERT_EQ(0, set_sim(fd, seed, num, den));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
}

/* Configure @fd for bytes from the kernel CRNG: sides 256, no extractor. */
static void crng_bytes_config(struct __test_metadata *const _metadata, int fd)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, 256));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
}

/*
 * Read until a read fails; return the bytes read before, and the errno of
 * the failure in @err (0 if @max bytes went through without one).
 */
static size_t read_until_error(int fd, size_t max, int *err)
{
	char buf[4096];
	size_t total = 0;

	*err = 0;
	while (total < max) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			*err = errno;
			break;
		}
		if (!n)
			break;
		total += n;
	}
	return total;
}

static short poll_events(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLRDNORM };

	if (poll(&pfd, 1, 0) < 0)
		return -1;
	return pfd.revents;
}

/* A length for a read that cannot finish soon, within half the free memory. */
static size_t huge_read_len(void)
{
	struct sysinfo si;
	size_t len = 1024 * MIB;

	if (!sysinfo(&si) && (double)si.freeram * si.mem_unit / 2 < len)
		len = (size_t)((double)si.freeram * si.mem_unit / 2) & ~(MIB - 1);
	return len < 64 * MIB ? 64 * MIB : len;
}

/* Set by the SIGALRM handler; atomic builtins keep it signal-safe. */
static int alarm_seen;

static void on_alarm(int sig)
{
	(void)sig;
	__atomic_store_n(&alarm_seen, 1, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------
 * The device: open, configuration ioctls, reads, stats, health, signals
 */

/*
 * Each test gets a new open file. Its defaults (module parameters) are
 * recorded, then it is set to a d6 with von Neumann's extractor, which the
 * tests assume whatever the parameters were.
 */
FIXTURE(fairdie) {
	int fd;
	struct fairdie_info info;
	__u64 def_sides;
	__u32 def_ext;
};

FIXTURE_SETUP(fairdie)
{
	self->fd = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, self->fd) {
		TH_LOG("open %s: %s (is the fairdie module loaded?)", DEV_PATH,
		       strerror(errno));
	}
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &self->info));
	self->def_sides = get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES);
	self->def_ext = get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR);
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_VN));
}

FIXTURE_TEARDOWN(fairdie)
{
	if (self->fd >= 0)
		close(self->fd);
}

static bool has_ext(const struct fairdie_info *info, __u32 ext)
{
	return info->extractors & (1U << ext);
}

static bool has_src(const struct fairdie_info *info, __u32 src)
{
	return info->sources & (1U << src);
}

TEST_F(fairdie, device_node)
{
	struct stat st;

	ASSERT_EQ(0, fstat(self->fd, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(0, stat(DEV_PATH, &st));
	EXPECT_EQ(0444U, st.st_mode & 0777) {
		TH_LOG("mode of %s is %o", DEV_PATH, st.st_mode & 0777);
	}
}

TEST_F(fairdie, open_rdwr_einval)
{
	int fd;

	if (geteuid())
		SKIP(return, "not root: mode 0444 refuses writers before the driver");
	fd = open(DEV_PATH, O_RDWR);

	if (fd >= 0)
		close(fd);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(fairdie, open_wronly_einval)
{
	int fd;

	if (geteuid())
		SKIP(return, "not root: mode 0444 refuses writers before the driver");
	fd = open(DEV_PATH, O_WRONLY);

	if (fd >= 0)
		close(fd);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(fairdie, write_ebadf)
{
	char buf[8] = "1234567";

	ASSERT_EQ(-1, write(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EBADF, errno);
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, sysfs_directory)
{
	struct stat st;

	ASSERT_EQ(0, stat(SYSFS_DIR, &st)) {
		TH_LOG("%s: %s", SYSFS_DIR, strerror(errno));
	}
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, stat(SYSFS_DIR "/dev", &st));
}

TEST_F(fairdie, sysfs_source)
{
	__u32 src = default_source(self->info.sources);
	char buf[256];

	if (!read_small_file(SYSFS_DIR "/source", buf, sizeof(buf)))
		SKIP(return, "no %s/source attribute", SYSFS_DIR);
	TH_LOG("source: '%s'", buf);
	/* It names the resolved default source, never "auto" alone. */
	ASSERT_TRUE(!!strcasestr(buf, src_names[src]));
	ASSERT_NE(0, strcmp(buf, "auto"));
}

TEST_F(fairdie, info_version)
{
	ASSERT_EQ((__u32)FAIRDIE_ABI_VERSION, self->info.version);
	ASSERT_EQ(1U, self->info.version);
}

TEST_F(fairdie, info_sources)
{
	__u32 must = 1U << FAIRDIE_SRC_AUTO | 1U << FAIRDIE_SRC_CRNG |
		     1U << FAIRDIE_SRC_SIM;

	ASSERT_EQ(must, self->info.sources & must);
	ASSERT_EQ(0U, self->info.sources >> N_SOURCES);
}

TEST_F(fairdie, info_extractors)
{
	__u32 must = 1U << FAIRDIE_EXT_VN | 1U << FAIRDIE_EXT_NONE;

	ASSERT_EQ(must, self->info.extractors & must);
	ASSERT_EQ(0U, self->info.extractors >> N_EXTRACTORS);
	TH_LOG("extractors offered: 0x%x", self->info.extractors);
}

TEST_F(fairdie, info_reserved_zero)
{
	struct fairdie_info info;
	size_t i;

	memset(&info, 0xff, sizeof(info));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &info));
	for (i = 0; i < ARRAY_SIZE(info.reserved); i++)
		ASSERT_EQ(0U, info.reserved[i]);
	ASSERT_EQ(0, memcmp(&info, &self->info, sizeof(info)));
}

/*
 * The "flags" line of /proc/cpuinfo, as a list of space-separated words with
 * a space at each end so that " word " finds whole words; false if none.
 */
static bool cpu_flags(char *buf, size_t size)
{
	bool found = false;
	FILE *f;
	char *p;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (!found && fgets(buf + 1, size - 2, f))
		found = !strncmp(buf + 1, "flags", 5);
	fclose(f);
	if (!found)
		return false;
	buf[0] = ' ';
	for (p = buf; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	strcat(buf, " ");
	return true;
}

/* The CPU sources offered are those the kernel sees in the CPU. */
TEST_F(fairdie, info_cpu_sources)
{
	static char flags[16384];
	struct utsname uts;
	bool rdrand, rdseed;

	ASSERT_EQ(0, uname(&uts));
	if (strcmp(uts.machine, "x86_64") && strcmp(uts.machine, "i686"))
		SKIP(return, "CPU sources are only checked on x86");
	ASSERT_TRUE(cpu_flags(flags, sizeof(flags)));
	rdrand = !!strstr(flags, " rdrand ");
	rdseed = !!strstr(flags, " rdseed ");
	TH_LOG("cpu: rdrand %d rdseed %d; sources 0x%x", rdrand, rdseed,
	       self->info.sources);
	ASSERT_EQ(rdrand, has_src(&self->info, FAIRDIE_SRC_RDRAND));
	ASSERT_EQ(rdseed, has_src(&self->info, FAIRDIE_SRC_RDSEED));
}

TEST_F(fairdie, default_config)
{
	__u64 sides = 6;
	__u32 ext = FAIRDIE_EXT_VN;
	char buf[64];
	int i;

	if (read_small_file(PARAM_DIR "/sides", buf, sizeof(buf)))
		sides = strtoull(buf, NULL, 0);
	if (read_small_file(PARAM_DIR "/extractor", buf, sizeof(buf))) {
		i = name_index(ext_names, N_EXTRACTORS, buf);
		ASSERT_LE(0, i) TH_LOG("extractor parameter '%s'", buf);
		ext = i;
	}
	ASSERT_EQ(sides, self->def_sides);
	ASSERT_EQ(ext, self->def_ext);
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

TEST_F(fairdie, default_source_resolved)
{
	__u32 src = get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE);

	TH_LOG("default source: %s", src < N_SOURCES ? src_names[src] : "?");
	ASSERT_NE((__u32)FAIRDIE_SRC_AUTO, src);
	ASSERT_EQ(default_source(self->info.sources), src);
	ASSERT_TRUE(has_src(&self->info, src));
}

TEST_F(fairdie, default_sim_coin)
{
	struct fairdie_sim sim;

	memset(&sim, 0xff, sizeof(sim));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(0ULL, sim.seed);
	ASSERT_NE(0ULL, sim.p1_den);
	ASSERT_EQ(sim.p1_den, 2 * sim.p1_num);
}

TEST_F(fairdie, default_stats_zero)
{
	struct fairdie_stats st;

	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.source_bits | st.extracted_bits | st.sampler_bits |
		  st.outputs | st.source_retries | st.source_failures |
		  st.health_failures);
}

TEST_F(fairdie, new_open_has_defaults)
{
	int fd2;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	fd2 = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(self->def_sides, get_u64(_metadata, fd2, FAIRDIE_IOC_GET_SIDES));
	EXPECT_EQ(self->def_ext, get_u32(_metadata, fd2, FAIRDIE_IOC_GET_EXTRACTOR));
	EXPECT_EQ((__u32)FAIRDIE_FMT_BINARY, get_u32(_metadata, fd2, FAIRDIE_IOC_GET_FORMAT));
	EXPECT_EQ(default_source(self->info.sources),
		  get_u32(_metadata, fd2, FAIRDIE_IOC_GET_SOURCE));
	close(fd2);
}

/* ---- sides ---- */

TEST_F(fairdie, set_sides_zero_einval)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	ASSERT_EQ(EINVAL, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 0));
	ASSERT_EQ(20ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, set_sides_one)
{
	unsigned char buf[4096];
	size_t i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1));
	ASSERT_EQ(1ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(0, buf[i]);
}

TEST_F(fairdie, set_sides_max)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, U64_MAX_VAL));
	ASSERT_EQ(U64_MAX_VAL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	read_rolls(_metadata, self->fd, U64_MAX_VAL, 4096, 512, NULL, NULL);
}

TEST_F(fairdie, set_sides_roundtrip)
{
	static const __u64 sides[] = {
		2, 3, 7, 255, 256, 257, 65535, 65536, 65537, 1ULL << 32,
		(1ULL << 32) + 1, 1ULL << 63, U64_MAX_VAL - 1, 6,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides[i]));
		ASSERT_EQ(sides[i], get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	}
}

/* ---- extractor ---- */

TEST_F(fairdie, set_extractor_invalid_einval)
{
	static const __u32 bad[] = { N_EXTRACTORS, 5, 0x100, 0xffffffffU };
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, bad[i]));
	ASSERT_EQ((__u32)FAIRDIE_EXT_NONE,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
}

TEST_F(fairdie, set_extractor_offered)
{
	__u32 ext;

	for (ext = 0; ext < N_EXTRACTORS; ext++) {
		if (has_ext(&self->info, ext)) {
			ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
			ASSERT_EQ(ext, get_u32(_metadata, self->fd,
					       FAIRDIE_IOC_GET_EXTRACTOR));
			read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
		} else {
			TH_LOG("extractor %s not offered", ext_names[ext]);
			ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
		}
	}
}

TEST_F(fairdie, dijkstra_rejects_sides)
{
	static const __u64 bad[] = { 67, 2 * 67, 65537, U64_MAX_VAL };
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, bad[i]));
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
					  FAIRDIE_EXT_DIJKSTRA));
		ASSERT_EQ((__u32)FAIRDIE_EXT_VN,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	}
}

TEST_F(fairdie, dijkstra_set_sides_einval)
{
	static const __u64 bad[] = { 67, 2 * 67, 65537, U64_MAX_VAL };
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 10));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(EINVAL, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, bad[i]));
		ASSERT_EQ(10ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	}
}

TEST_F(fairdie, dijkstra_accepts_smooth_sides)
{
	/* Every prime factor is at most 64. */
	static const __u64 good[] = {
		1, 2, 61, 64, 2 * 3 * 5 * 7 * 11 * 13, 59 * 61, 1ULL << 63,
		3ULL * 3 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37,
	};
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, good[i])) {
			TH_LOG("sides %llu", (unsigned long long)good[i]);
		}
		ASSERT_EQ(good[i], get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
		read_rolls(_metadata, self->fd, good[i], 64, 64, NULL, NULL);
	}
}

/* ---- source ---- */

TEST_F(fairdie, set_source_invalid_einval)
{
	static const __u32 bad[] = { N_SOURCES, 6, 0x100, 0xffffffffU };
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, bad[i]));
	ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

TEST_F(fairdie, set_source_offered)
{
	__u32 src, want;

	for (src = 0; src < N_SOURCES; src++) {
		if (!has_src(&self->info, src))
			continue;
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, src));
		want = src == FAIRDIE_SRC_AUTO ? auto_source(self->info.sources) : src;
		ASSERT_EQ(want, get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
		read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
	}
}

TEST_F(fairdie, set_source_auto_resolves)
{
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	ASSERT_EQ((__u32)FAIRDIE_SRC_SIM,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_AUTO));
	ASSERT_EQ(auto_source(self->info.sources),
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

TEST_F(fairdie, set_source_absent_enodev)
{
	static const __u32 hw[] = { FAIRDIE_SRC_RDSEED, FAIRDIE_SRC_RDRAND };
	bool tested = false;
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	for (i = 0; i < ARRAY_SIZE(hw); i++) {
		if (has_src(&self->info, hw[i]))
			continue;
		TH_LOG("%s absent", src_names[hw[i]]);
		ASSERT_EQ(ENODEV, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, hw[i]));
		ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
		tested = true;
	}
	if (!tested)
		SKIP(return, "RDSEED and RDRAND both present: no absent source");
}

TEST_F(fairdie, rdseed_source)
{
	if (!has_src(&self->info, FAIRDIE_SRC_RDSEED))
		SKIP(return, "no RDSEED on this CPU (GET_INFO lacks the bit)");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_RDSEED));
	ASSERT_EQ((__u32)FAIRDIE_SRC_RDSEED,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
	read_rolls(_metadata, self->fd, 6, 10000, 10000, NULL, NULL);
}

/* ---- format ---- */

TEST_F(fairdie, set_format_invalid_einval)
{
	static const __u32 bad[] = { N_FORMATS, 3, 0xffffffffU };
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, bad[i]));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

TEST_F(fairdie, set_format_roundtrip)
{
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_BINARY));
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

/* ---- simulated coin ---- */

TEST_F(fairdie, set_sim_den_zero_einval)
{
	struct fairdie_sim sim;

	ASSERT_EQ(0, set_sim(self->fd, 7, 3, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 0, 0));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 1, 0));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(7ULL, sim.seed);
	ASSERT_EQ(3ULL, sim.p1_num);
	ASSERT_EQ(10ULL, sim.p1_den);
}

TEST_F(fairdie, set_sim_num_gt_den_einval)
{
	struct fairdie_sim sim;

	ASSERT_EQ(0, set_sim(self->fd, 7, 3, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 11, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, U64_MAX_VAL, U64_MAX_VAL - 1));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(7ULL, sim.seed);
	ASSERT_EQ(3ULL, sim.p1_num);
	ASSERT_EQ(10ULL, sim.p1_den);
}

TEST_F(fairdie, set_sim_roundtrip)
{
	static const struct fairdie_sim coins[] = {
		{ 0, 0, 1 }, { 1, 1, 1 }, { 42, 7, 10 }, { U64_MAX_VAL, 1, U64_MAX_VAL },
		{ 0x123456789abcdefULL, U64_MAX_VAL, U64_MAX_VAL }, { 5, 999999, 1000000 },
	};
	struct fairdie_sim sim;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(coins); i++) {
		ASSERT_EQ(0, set_sim(self->fd, coins[i].seed, coins[i].p1_num,
				     coins[i].p1_den));
		ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
		ASSERT_EQ(0, memcmp(&coins[i], &sim, sizeof(sim)));
	}
	/* Accepted whatever the source; the source stays what it was. */
	ASSERT_EQ(default_source(self->info.sources),
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

/* ---- ioctl numbers and arguments ---- */

static void expect_enotty(struct __test_metadata *const _metadata, int fd,
			  const unsigned long *cmds, size_t n)
{
	__u64 buf[64];
	size_t i;

	for (i = 0; i < n; i++) {
		memset(buf, 0, sizeof(buf));
		buf[0] = 6;
		ASSERT_EQ(ENOTTY, xioctl(fd, cmds[i], buf)) {
			TH_LOG("command 0x%lx", cmds[i]);
		}
	}
}

TEST_F(fairdie, ioctl_wrong_size_enotty)
{
	static const unsigned long cmds[] = {
		_IOW(FAIRDIE_IOC_MAGIC, 0x01, __u32),
		_IOR(FAIRDIE_IOC_MAGIC, 0x02, __u32),
		_IOW(FAIRDIE_IOC_MAGIC, 0x03, __u64),
		_IOR(FAIRDIE_IOC_MAGIC, 0x04, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x05, __u8),
		_IOR(FAIRDIE_IOC_MAGIC, 0x08, __u16),
		_IOR(FAIRDIE_IOC_MAGIC, 0x00, __u64[2]),
		_IOW(FAIRDIE_IOC_MAGIC, 0x09, __u64[2]),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0a, __u64[4]),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0b, __u64[9]),
		_IOW(FAIRDIE_IOC_MAGIC, 0x0c, __u32),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_wrong_direction_enotty)
{
	static const unsigned long cmds[] = {
		_IOR(FAIRDIE_IOC_MAGIC, 0x01, __u64),
		_IOWR(FAIRDIE_IOC_MAGIC, 0x01, __u64),
		_IO(FAIRDIE_IOC_MAGIC, 0x01),
		_IOW(FAIRDIE_IOC_MAGIC, 0x02, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x00, struct fairdie_info),
		_IOR(FAIRDIE_IOC_MAGIC, 0x03, __u32),
		_IOWR(FAIRDIE_IOC_MAGIC, 0x09, struct fairdie_sim),
		_IOW(FAIRDIE_IOC_MAGIC, 0x0b, struct fairdie_stats),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_unknown_enotty)
{
	static const unsigned long cmds[] = {
		_IO(FAIRDIE_IOC_MAGIC, 0x0d),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0d, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x7f, __u32),
		_IOR(FAIRDIE_IOC_MAGIC, 0xff, __u64),
		_IOR(FAIRDIE_IOC_MAGIC + 1, 0x02, __u64),
		_IOW(FAIRDIE_IOC_MAGIC - 1, 0x01, __u64),
		_IO(0, 0),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
}

static const unsigned long pointer_cmds[] = {
	FAIRDIE_IOC_GET_INFO, FAIRDIE_IOC_SET_SIDES, FAIRDIE_IOC_GET_SIDES,
	FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_IOC_GET_EXTRACTOR,
	FAIRDIE_IOC_SET_SOURCE, FAIRDIE_IOC_GET_SOURCE, FAIRDIE_IOC_SET_FORMAT,
	FAIRDIE_IOC_GET_FORMAT, FAIRDIE_IOC_SET_SIM, FAIRDIE_IOC_GET_SIM,
	FAIRDIE_IOC_GET_STATS,
};

TEST_F(fairdie, ioctl_null_efault)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pointer_cmds); i++) {
		ASSERT_EQ(EFAULT, xioctl(self->fd, pointer_cmds[i], NULL)) {
			TH_LOG("command 0x%lx", pointer_cmds[i]);
		}
	}
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_bad_pointer_efault)
{
	void *bad[2];
	size_t i, j;

	bad[0] = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(bad[0] != MAP_FAILED);
	bad[1] = KERNEL_PTR;
	for (j = 0; j < ARRAY_SIZE(bad); j++) {
		for (i = 0; i < ARRAY_SIZE(pointer_cmds); i++) {
			ASSERT_EQ(EFAULT, xioctl(self->fd, pointer_cmds[i], bad[j])) {
				TH_LOG("command 0x%lx, pointer %p", pointer_cmds[i], bad[j]);
			}
		}
	}
	munmap(bad[0], 4096);
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, reset_any_argument)
{
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, 0UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, 12345UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, ~0UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, KERNEL_PTR));
}

TEST_F(fairdie, reset_keeps_config)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 12));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ(12ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ((__u32)FAIRDIE_EXT_NONE,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

/* ---- binary reads ---- */

TEST_F(fairdie, read_zero_length)
{
	char buf[1];
	struct fairdie_stats st;

	ASSERT_EQ(0, read(self->fd, buf, 0));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, read(self->fd, buf, 0));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.outputs);
}

/* Each die size in turn, without RESET: changing sides flushes the old rolls. */
TEST_F(fairdie, binary_width)
{
	static const struct { __u64 sides; size_t width; } cases[] = {
		{ 1, 1 }, { 2, 1 }, { 6, 1 }, { 256, 1 }, { 257, 2 }, { 65536, 2 },
		{ 65537, 4 }, { 1ULL << 32, 4 }, { (1ULL << 32) + 1, 8 },
		{ U64_MAX_VAL, 8 }, { 1000, 2 }, { 3, 1 },
	};
	struct fairdie_stats st;
	unsigned char buf[8 * 64];
	__u64 outputs = 0;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		__u64 sides = cases[i].sides;
		size_t w = cases[i].width;

		ASSERT_EQ(w, roll_width(sides));
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides));
		/* An odd number of rolls leaves a part-used state behind. */
		ASSERT_EQ((ssize_t)(63 * w), read(self->fd, buf, 63 * w)) {
			TH_LOG("sides %llu, width %zu: %s", (unsigned long long)sides,
			       w, strerror(errno));
		}
		for (j = 0; j < 63; j++)
			ASSERT_LT(roll_at(buf, w, j), sides);
		outputs += 63;
		get_stats(_metadata, self->fd, &st);
		ASSERT_EQ(outputs, st.outputs) {
			TH_LOG("sides %llu: %llu outputs in all", (unsigned long long)sides,
			       (unsigned long long)st.outputs);
		}
	}
}

TEST_F(fairdie, binary_bad_length_einval)
{
	static const __u64 sides[] = { 257, 65537, (1ULL << 32) + 1 };
	struct fairdie_stats st;
	char buf[64];
	size_t i, w;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides[i]));
		w = roll_width(sides[i]);
		ASSERT_EQ(-1, read(self->fd, buf, w + 1));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, read(self->fd, buf, w - 1));
		ASSERT_EQ(EINVAL, errno);
		ASSERT_EQ(-1, read(self->fd, buf, 4 * w + w / 2));
		ASSERT_EQ(EINVAL, errno);
	}
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.outputs);
	/* Any length is a multiple of width 1. */
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(7, read(self->fd, buf, 7));
}

TEST_F(fairdie, binary_all_faces_seen)
{
	__u64 counts[256] = { 0 };
	size_t i;

	read_rolls(_metadata, self->fd, 6, 6000, 6000, counts, NULL);
	for (i = 0; i < 6; i++)
		ASSERT_LT(0ULL, counts[i]);
	memset(counts, 0, sizeof(counts));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 256));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	read_rolls(_metadata, self->fd, 256, 65536, 65536, counts, NULL);
	for (i = 0; i < 256; i++)
		ASSERT_LT(0ULL, counts[i]);
}

/* The high bits of 8-byte rolls are as random as the low ones. */
TEST_F(fairdie, binary_wide_spread)
{
	static const __u64 sides[] = { U64_MAX_VAL, 1ULL << 63, 3ULL << 62 };
	unsigned char buf[8 * 4096];
	__u64 counts[16];
	unsigned int k;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		memset(counts, 0, sizeof(counts));
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides[i]));
		ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
		/* 16 equal slices of [0, sides); both remainders are tiny. */
		for (j = 0; j < 4096; j++) {
			__u64 v = roll_at(buf, 8, j);

			ASSERT_LT(v, sides[i]);
			k = (unsigned int)((double)v / (double)sides[i] * 16);
			counts[k < 16 ? k : 15]++;
		}
		check_uniform(_metadata, counts, 16, "top four bits");
	}
}

TEST_F(fairdie, read_null_efault)
{
	/* syscall(): glibc's read() is declared never to take NULL. */
	ASSERT_EQ(-1, syscall(SYS_read, self->fd, NULL, 64));
	ASSERT_EQ(EFAULT, errno);
	ASSERT_EQ(-1, read(self->fd, KERNEL_PTR, 64));
	ASSERT_EQ(EFAULT, errno);
}

/* A buffer whose second page is not writable: the first page counts. */
TEST_F(fairdie, read_partial_fault)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf;
	ssize_t n;
	int err;

	buf = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(buf != MAP_FAILED);
	ASSERT_EQ(0, mprotect(buf + page, page, PROT_NONE));
	n = read(self->fd, buf, 2 * page);
	err = errno;
	munmap(buf, 2 * page);
	TH_LOG("read across an unwritable page: %zd (%s)", n,
	       n < 0 ? strerror(err) : "bytes");
	/* Either the bytes of the first page, or EFAULT if none. */
	ASSERT_TRUE(n > 0 ? n <= page : n == -1 && err == EFAULT);
}

/* ---- text reads ---- */

TEST_F(fairdie, text_lines_valid)
{
	struct text_check t = { .sides = 6 };
	__u64 counts[6] = { 0 };
	char buf[4000];
	ssize_t i, n;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	n = read(self->fd, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), n);
	text_feed(&t, buf, n);
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	/* A d6 is one digit and a newline. */
	ASSERT_EQ(2000ULL, t.lines);
	for (i = 0; i < n; i += 2)
		counts[buf[i] - '1']++;
	for (i = 0; i < 6; i++)
		ASSERT_LT(0ULL, counts[i]);
}

TEST_F(fairdie, text_byte_at_a_time)
{
	struct text_check t = { .sides = 1000 };
	char c;
	int i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	for (i = 0; i < 3000; i++) {
		ASSERT_EQ(1, read(self->fd, &c, 1));
		text_feed(&t, &c, 1);
	}
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	TH_LOG("%llu lines in 3000 one-byte reads", (unsigned long long)t.lines);
	/* Faces of 1 to 4 digits: between 600 and 1500 lines. */
	ASSERT_LE(600ULL, t.lines);
	ASSERT_GE(1500ULL, t.lines);
}

TEST_F(fairdie, text_odd_read_sizes)
{
	struct text_check t = { .sides = 37 };
	char buf[257];
	size_t len;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 37));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	for (len = 1; len <= sizeof(buf); len += 7) {
		ASSERT_EQ((ssize_t)len, read(self->fd, buf, len));
		text_feed(&t, buf, len);
	}
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	ASSERT_LT(1000ULL, t.lines);
}

TEST_F(fairdie, text_sides_one)
{
	char buf[1000];
	size_t i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(i % 2 ? '\n' : '1', buf[i]);
}

TEST_F(fairdie, text_sides_max)
{
	struct text_check t = { .sides = U64_MAX_VAL };
	char buf[21 * 500];
	__u64 twenty = 0;
	ssize_t n, i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, U64_MAX_VAL));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	n = read(self->fd, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), n);
	text_feed(&t, buf, n);
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	/* Most faces have 19 or 20 digits. */
	for (i = 0; i + 20 < n; i++)
		if (buf[i + 20] == '\n' && (i == 0 || buf[i - 1] == '\n'))
			twenty++;
	TH_LOG("%llu lines, %llu of 20 digits", (unsigned long long)t.lines,
	       (unsigned long long)twenty);
	ASSERT_LT(t.lines / 4, twenty);
}

TEST_F(fairdie, text_outputs_counted)
{
	struct fairdie_stats st;
	char buf[2000];

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(1000ULL, st.outputs);
	ASSERT_LT(0ULL, st.sampler_bits);
}

/* Text staged but not read yet is dropped: binary reads start clean. */
TEST_F(fairdie, format_switch_midstream)
{
	unsigned char buf[2 * 512];
	char text[3];
	int i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000));
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
		ASSERT_EQ(1 + i % 3, read(self->fd, text, 1 + i % 3));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_BINARY));
		read_rolls(_metadata, self->fd, 1000, 512, 512, NULL, NULL);
	}
	/* And back: the text starts on a line of its own. */
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	ASSERT_TRUE(buf[0] >= '1' && buf[0] <= '9');
}

/*
 * Changing sides, extractor or source discards the bits held: the next roll
 * takes new source bits, where without the change it is made from bits
 * already held.
 */
static void check_discard(struct __test_metadata *const _metadata, int fd,
			  unsigned long cmd, __u32 val, const char *what)
{
	struct fairdie_stats st;
	__u64 before;
	char c;

	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	before = st.source_bits;
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	ASSERT_EQ(before, st.source_bits) TH_LOG("no bits buffered at all");
	ASSERT_EQ(0, cmd == FAIRDIE_IOC_SET_SIDES ? set_u64(fd, cmd, val) :
		  set_u32(fd, cmd, val));
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	ASSERT_LT(before, st.source_bits) TH_LOG("%s kept the buffered bits", what);
}

TEST_F(fairdie, set_sides_discards_bits)
{
	check_discard(_metadata, self->fd, FAIRDIE_IOC_SET_SIDES, 6, "SET_SIDES");
}

TEST_F(fairdie, set_extractor_discards_bits)
{
	check_discard(_metadata, self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
		      FAIRDIE_EXT_NONE, "SET_EXTRACTOR");
}

TEST_F(fairdie, set_source_discards_bits)
{
	check_discard(_metadata, self->fd, FAIRDIE_IOC_SET_SOURCE,
		      FAIRDIE_SRC_CRNG, "SET_SOURCE");
}

/* ---- statistics counters ---- */

TEST_F(fairdie, stats_outputs_binary)
{
	struct fairdie_stats st;

	read_rolls(_metadata, self->fd, 6, 12345, 1000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(12345ULL, st.outputs);
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 70000));
	read_rolls(_metadata, self->fd, 70000, 1000, 1000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(13345ULL, st.outputs);
}

/* source >= extracted >= sampler >= the entropy of the rolls, for VN. */
TEST_F_TIMEOUT(fairdie, stats_vn_bit_flow, 120)
{
	const size_t n = 100000;
	struct fairdie_stats st;

	read_rolls(_metadata, self->fd, 6, n, 10000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("source %llu extracted %llu sampler %llu outputs %llu",
	       (unsigned long long)st.source_bits,
	       (unsigned long long)st.extracted_bits,
	       (unsigned long long)st.sampler_bits,
	       (unsigned long long)st.outputs);
	ASSERT_EQ(n, st.outputs);
	ASSERT_GE(st.source_bits, st.extracted_bits);
	ASSERT_GE(st.extracted_bits, st.sampler_bits);
	/* Von Neumann keeps at most one bit of every pair. */
	ASSERT_GE(st.source_bits / 2, st.extracted_bits);
	ASSERT_LE(n * log2(6) * 0.99, (double)st.sampler_bits);
	ASSERT_GE(n * (log2(6) + 0.01), (double)st.sampler_bits);
}

TEST_F(fairdie, stats_none_bit_flow)
{
	const size_t n = 50000;
	struct fairdie_stats st;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	read_rolls(_metadata, self->fd, 6, n, 10000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("source %llu extracted %llu sampler %llu outputs %llu",
	       (unsigned long long)st.source_bits,
	       (unsigned long long)st.extracted_bits,
	       (unsigned long long)st.sampler_bits,
	       (unsigned long long)st.outputs);
	ASSERT_EQ(n, st.outputs);
	ASSERT_GE(st.source_bits, st.extracted_bits);
	ASSERT_GE(st.extracted_bits, st.sampler_bits);
	ASSERT_LE(n * log2(6) * 0.99, (double)st.sampler_bits);
	/* NONE passes bits through: only what is buffered is not yet used. */
	ASSERT_GE(st.sampler_bits + 65536, st.source_bits);
}

TEST_F(fairdie, stats_dijkstra_no_fair_bits)
{
	struct fairdie_stats st;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	read_rolls(_metadata, self->fd, 6, 5000, 5000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(5000ULL, st.outputs);
	ASSERT_EQ(0ULL, st.extracted_bits);
	ASSERT_EQ(0ULL, st.sampler_bits);
	/* A d6 needs at least log2(6) bits of a fair source. */
	ASSERT_LE(5000 * log2(6), (double)st.source_bits);
}

TEST_F(fairdie, stats_reset_zeroes)
{
	struct fairdie_stats st;

	read_rolls(_metadata, self->fd, 6, 5000, 5000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_LT(0ULL, st.source_bits);
	ASSERT_LT(0ULL, st.outputs);
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.source_bits | st.extracted_bits | st.sampler_bits |
		  st.outputs | st.source_retries | st.source_failures |
		  st.health_failures);
}

TEST_F(fairdie, stats_only_grow)
{
	struct fairdie_stats prev, st;
	int i;

	get_stats(_metadata, self->fd, &prev);
	for (i = 0; i < 20; i++) {
		read_rolls(_metadata, self->fd, 6, 500, 500, NULL, NULL);
		get_stats(_metadata, self->fd, &st);
		ASSERT_LE(prev.source_bits, st.source_bits);
		ASSERT_LE(prev.extracted_bits, st.extracted_bits);
		ASSERT_LE(prev.sampler_bits, st.sampler_bits);
		ASSERT_EQ(prev.outputs + 500, st.outputs);
		ASSERT_LE(prev.source_retries, st.source_retries);
		ASSERT_LE(prev.source_failures, st.source_failures);
		ASSERT_LE(prev.health_failures, st.health_failures);
		prev = st;
	}
	/* Changing the configuration does not clear the counters. */
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(prev.outputs, st.outputs);
}

/* Fair bits per roll, amortized, over @n rolls from the CRNG without extractor. */
static void sampler_cost(struct __test_metadata *const _metadata, int fd,
			 __u64 sides, size_t n)
{
	struct fairdie_stats st;
	double per_roll;

	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, sides));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	read_rolls(_metadata, fd, sides, n, 65536, NULL, NULL);
	get_stats(_metadata, fd, &st);
	ASSERT_EQ(n, st.outputs);
	per_roll = (double)st.sampler_bits / n;
	TH_LOG("d%llu: %.5f fair bits per roll over %zu rolls, log2(sides) = %.5f",
	       (unsigned long long)sides, per_roll, n, log2(sides));
	ASSERT_GE(log2(sides) + 0.01, per_roll);
	ASSERT_LE(log2(sides) - 0.01, per_roll);
}

TEST_F_TIMEOUT(fairdie, sampler_cost_d6, 120)
{
	sampler_cost(_metadata, self->fd, 6, 1000000);
}

TEST_F_TIMEOUT(fairdie, sampler_cost_d100, 120)
{
	sampler_cost(_metadata, self->fd, 100, 300000);
}

/*
 * Extractor rates from the file's own counters, SIM coin with P(1) = @num /
 * @den, over @n d6 rolls: fair bits out of the extractor per source bit.
 * The source bits also hold the startup test and what is still buffered,
 * so long reads keep that below a few tenths of a percent.
 */
static double extractor_rate(struct __test_metadata *const _metadata, int fd,
			     __u32 ext, __u64 num, __u64 den, size_t n)
{
	struct fairdie_stats st;

	sim_config(_metadata, fd, ext, 6, 2026, num, den);
	ASSERT_EQ(0, ioctl(fd, FAIRDIE_IOC_RESET));
	read_rolls(_metadata, fd, 6, n, 65536, NULL, NULL);
	get_stats(_metadata, fd, &st);
	EXPECT_EQ(n, st.outputs);
	return (double)st.extracted_bits / st.source_bits;
}

static double binary_entropy(double p)
{
	return -p * log2(p) - (1 - p) * log2(1 - p);
}

static const __u64 rate_p[][2] = { { 1, 2 }, { 7, 10 }, { 9, 10 } };

/* von Neumann keeps p(1 - p) fair bits per source bit. */
TEST_F_TIMEOUT(fairdie, vn_rate, 300)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rate_p); i++) {
		double p = (double)rate_p[i][0] / rate_p[i][1];
		double r = extractor_rate(_metadata, self->fd, FAIRDIE_EXT_VN,
					  rate_p[i][0], rate_p[i][1], 200000);

		TH_LOG("VN at p = %.2f: %.5f fair bits per source bit, p(1-p) = %.5f",
		       p, r, p * (1 - p));
		ASSERT_LE(0.98 * p * (1 - p), r);
		ASSERT_GE(1.02 * p * (1 - p), r);
	}
}

/* Peres keeps at least 0.92 H(p) (Documentation/design/fairdie.rst, Targets). */
TEST_F_TIMEOUT(fairdie, peres_rate, 300)
{
	struct fairdie_info info;
	unsigned int i;

	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_GET_INFO, &info));
	if (!(info.extractors & (1u << FAIRDIE_EXT_PERES)))
		SKIP(return, "PERES not offered");
	for (i = 0; i < ARRAY_SIZE(rate_p); i++) {
		double p = (double)rate_p[i][0] / rate_p[i][1];
		double r = extractor_rate(_metadata, self->fd,
					  FAIRDIE_EXT_PERES, rate_p[i][0],
					  rate_p[i][1], 1000000);

		TH_LOG("Peres at p = %.2f: %.4f fair bits per source bit, %.4f of H(p)",
		       p, r, r / binary_entropy(p));
		ASSERT_LE(0.92 * binary_entropy(p), r);
	}
}

/* ---- the simulated coin ---- */

TEST_F(fairdie, sim_none_biased)
{
	__u64 counts[2] = { 0 };
	double frac;

	sim_config(_metadata, self->fd, FAIRDIE_EXT_NONE, 2, 1, 7, 10);
	read_rolls(_metadata, self->fd, 2, 20000, 20000, counts, NULL);
	frac = counts[1] / 20000.0;
	TH_LOG("p = 7/10, no extractor: %.4f of the rolls are 1", frac);
	ASSERT_LE(0.68, frac);
	ASSERT_GE(0.72, frac);
}

TEST_F(fairdie, sim_vn_fair)
{
	__u64 counts[2] = { 0 };

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 2, 1, 7, 10);
	read_rolls(_metadata, self->fd, 2, 20000, 20000, counts, NULL);
	check_uniform(_metadata, counts, 2, "p = 7/10, von Neumann");
}

TEST_F(fairdie, sim_reproducible_after_reset)
{
	unsigned char a[4096], b[4096];

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 6, 12345, 3, 5);
	ASSERT_EQ((ssize_t)sizeof(a), read(self->fd, a, sizeof(a)));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ((ssize_t)sizeof(b), read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, memcmp(a, b, sizeof(a)));
}

TEST_F(fairdie, sim_reproducible_across_opens)
{
	unsigned char a[4096], b[4096];
	__u32 ext;
	int fd2;

	for (ext = 0; ext < N_EXTRACTORS; ext++) {
		if (!has_ext(&self->info, ext))
			continue;
		fd2 = open(DEV_PATH, O_RDONLY);
		ASSERT_LE(0, fd2);
		sim_config(_metadata, self->fd, ext, 10, 99, 2, 3);
		sim_config(_metadata, fd2, ext, 10, 99, 2, 3);
		ASSERT_EQ((ssize_t)sizeof(a), read(self->fd, a, sizeof(a)));
		ASSERT_EQ((ssize_t)sizeof(b), read(fd2, b, sizeof(b)));
		close(fd2);
		ASSERT_EQ(0, memcmp(a, b, sizeof(a))) {
			TH_LOG("extractor %s", ext_names[ext]);
		}
	}
}

TEST_F(fairdie, sim_seed_changes_output)
{
	unsigned char a[4096], b[4096];

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 256, 1, 1, 2);
	ASSERT_EQ((ssize_t)sizeof(a), read(self->fd, a, sizeof(a)));
	ASSERT_EQ(0, set_sim(self->fd, 2, 1, 2));
	ASSERT_EQ((ssize_t)sizeof(b), read(self->fd, b, sizeof(b)));
	ASSERT_NE(0, memcmp(a, b, sizeof(a)));
	/* And back to seed 1 gives the first stream again. */
	ASSERT_EQ(0, set_sim(self->fd, 1, 1, 2));
	ASSERT_EQ((ssize_t)sizeof(b), read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, memcmp(a, b, sizeof(a)));
}

TEST_F(fairdie, sim_coin_takes_effect_when_selected)
{
	unsigned char a[4096], b[4096];
	int fd2 = open(DEV_PATH, O_RDONLY);

	ASSERT_LE(0, fd2);
	/* Coin set while SIM is the source... */
	sim_config(_metadata, self->fd, FAIRDIE_EXT_NONE, 256, 77, 1, 2);
	ASSERT_EQ((ssize_t)sizeof(a), read(self->fd, a, sizeof(a)));
	/* ...and set first, SIM selected later. */
	ASSERT_EQ(0, set_u64(fd2, FAIRDIE_IOC_SET_SIDES, 256));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(0, set_sim(fd2, 77, 1, 2));
	ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG, get_u32(_metadata, fd2, FAIRDIE_IOC_GET_SOURCE));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	ASSERT_EQ((ssize_t)sizeof(b), read(fd2, b, sizeof(b)));
	close(fd2);
	ASSERT_EQ(0, memcmp(a, b, sizeof(a)));
}

TEST_F(fairdie, sim_reselect_restarts_stream)
{
	unsigned char a[4096], b[4096];

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 20, 31337, 1, 3);
	ASSERT_EQ((ssize_t)sizeof(a), read(self->fd, a, sizeof(a)));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ((ssize_t)sizeof(b), read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	ASSERT_EQ((ssize_t)sizeof(b), read(self->fd, b, sizeof(b)));
	ASSERT_EQ(0, memcmp(a, b, sizeof(a)));
}

/* ---- health latch, poll, non-blocking reads ---- */

TEST_F(fairdie, poll_healthy)
{
	short ev = poll_events(self->fd);

	ASSERT_EQ(POLLIN | POLLRDNORM, ev & (POLLIN | POLLRDNORM));
	ASSERT_EQ(0, ev & (POLLERR | POLLHUP | POLLNVAL));
}

/* Run a stuck coin into EIO; return with the latch set. */
static void latch_health_failure(struct __test_metadata *const _metadata, int fd)
{
	int err;

	sim_config(_metadata, fd, FAIRDIE_EXT_VN, 6, 3, 1, 1);
	read_until_error(fd, HEALTH_MAX_BYTES, &err);
	ASSERT_EQ(EIO, err);
	ASSERT_NE(0, poll_events(fd) & POLLERR);
}

TEST_F(fairdie, health_cleared_by_source_change)
{
	latch_health_failure(_metadata, self->fd);
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(0, poll_events(self->fd) & POLLERR);
	read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
}

TEST_F(fairdie, health_cleared_by_set_sim)
{
	latch_health_failure(_metadata, self->fd);
	ASSERT_EQ(0, set_sim(self->fd, 3, 1, 2));
	ASSERT_EQ(0, poll_events(self->fd) & POLLERR);
	read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
}

TEST_F(fairdie, health_kept_by_other_config)
{
	char buf[16];

	latch_health_failure(_metadata, self->fd);
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EIO, errno);
	ASSERT_NE(0, poll_events(self->fd) & POLLERR);
}

TEST_F(fairdie, nonblock_read)
{
	static const __u32 srcs[] = { FAIRDIE_SRC_CRNG, FAIRDIE_SRC_SIM };
	unsigned char buf[65536];
	size_t i;
	int fd;

	fd = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(srcs); i++) {
		ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, srcs[i]));
		ASSERT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf))) {
			TH_LOG("source %s: %s", src_names[srcs[i]], strerror(errno));
		}
	}
	close(fd);
}

/* ---- large and interrupted reads ---- */

TEST_F_TIMEOUT(fairdie, read_16mib_full, 120)
{
	const size_t len = 16 * MIB;
	__u64 counts[256] = { 0 };
	unsigned char *buf;
	double t0, ms;
	size_t i;

	buf = malloc(len);
	ASSERT_TRUE(!!buf);
	crng_bytes_config(_metadata, self->fd);
	t0 = now_ms();
	ASSERT_EQ((ssize_t)len, read(self->fd, buf, len));
	ms = now_ms() - t0;
	TH_LOG("16 MiB in %.0f ms (%.1f MB/s)", ms, len / ms / 1e3);
	for (i = 0; i < len; i++)
		counts[buf[i]]++;
	free(buf);
	check_uniform(_metadata, counts, 256, "16 MiB of bytes");
}

TEST_F_TIMEOUT(fairdie, read_interrupted_by_signal, 60)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	size_t len = huge_read_len();
	double t0, ms;
	char *buf;
	ssize_t n;
	int err;

	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ASSERT_TRUE(buf != MAP_FAILED);
	crng_bytes_config(_metadata, self->fd);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	__atomic_store_n(&alarm_seen, 0, __ATOMIC_RELAXED);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	t0 = now_ms();
	n = read(self->fd, buf, len);
	err = errno;
	ms = now_ms() - t0;
	munmap(buf, len);
	TH_LOG("read of %zu MiB returned %zd after %.0f ms", len / MIB, n, ms);
	ASSERT_TRUE(__atomic_load_n(&alarm_seen, __ATOMIC_RELAXED));
	/* The bytes produced so far, or EINTR if none. */
	ASSERT_TRUE(n > 0 ? n < (ssize_t)len : n == -1 && err == EINTR);
	/* The signal came at 200 ms; a page-sized step later the read ends. */
	ASSERT_GT(1500.0, ms);
}

TEST_F_TIMEOUT(fairdie, read_killed_child, 60)
{
	size_t len = huge_read_len();
	int pipefd[2], status;
	double t0, ms;
	pid_t pid, w;
	char c;

	crng_bytes_config(_metadata, self->fd);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (buf == MAP_FAILED)
			_exit(1);
		if (write(pipefd[1], "r", 1) != 1)
			_exit(1);
		while (read(self->fd, buf, len) > 0)
			;
		_exit(2);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	usleep(200000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	t0 = now_ms();
	do {
		w = waitpid(pid, &status, WNOHANG);
		if (!w)
			usleep(5000);
		ms = now_ms() - t0;
	} while (!w && ms < 10000);
	if (!w) {
		TH_LOG("child still alive %.0f ms after SIGKILL", ms);
		waitpid(pid, &status, 0);
	}
	TH_LOG("child reading %zu MiB died %.0f ms after SIGKILL", len / MIB, ms);
	ASSERT_EQ(pid, w);
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGKILL, WTERMSIG(status));
	ASSERT_GT(1500.0, ms);
}

/* ---- per-open-file state ---- */

TEST_F(fairdie, two_fds_independent)
{
	struct text_check t = { .sides = 1000 };
	struct fairdie_stats st;
	char buf[4000];
	int fd2;

	fd2 = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_u64(fd2, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ((__u32)FAIRDIE_EXT_VN,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	read_rolls(_metadata, self->fd, 6, 4000, 4000, NULL, NULL);
	ASSERT_EQ((ssize_t)sizeof(buf), read(fd2, buf, sizeof(buf)));
	text_feed(&t, buf, sizeof(buf));
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	read_rolls(_metadata, self->fd, 6, 4000, 4000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(8000ULL, st.outputs);
	get_stats(_metadata, fd2, &st);
	ASSERT_EQ(t.lines, st.outputs - (t.digits ? 1 : 0));
	close(fd2);
}

TEST_F(fairdie, fork_shares_state)
{
	struct fairdie_stats st;
	int status;
	pid_t pid;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned char buf[100];
		__u64 sides = 0;

		if (ioctl(self->fd, FAIRDIE_IOC_GET_SIDES, &sides) || sides != 20)
			_exit(1);
		sides = 30;
		if (ioctl(self->fd, FAIRDIE_IOC_SET_SIDES, &sides))
			_exit(2);
		if (read(self->fd, buf, sizeof(buf)) != sizeof(buf))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(30ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(100ULL, st.outputs);
}

TEST_F(fairdie, dup_shares_state)
{
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_u64(fd2, FAIRDIE_IOC_SET_SIDES, 99));
	ASSERT_EQ(99ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	close(fd2);
}

/* Two processes reading one open file at once: every roll is counted once. */
TEST_F_TIMEOUT(fairdie, fork_concurrent_reads, 60)
{
	const size_t n = 50000;
	struct fairdie_stats st;
	int status;
	pid_t pid;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 37));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned char buf[1000];
		size_t done, i;

		for (done = 0; done < n; done += sizeof(buf)) {
			if (read(self->fd, buf, sizeof(buf)) != sizeof(buf))
				_exit(1);
			for (i = 0; i < sizeof(buf); i++)
				if (buf[i] >= 37)
					_exit(2);
		}
		_exit(0);
	}
	read_rolls(_metadata, self->fd, 37, n, 1000, NULL, NULL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(2 * n, st.outputs);
}

/* Whether "fairdie" is a word of the hwrng core's rng_available. */
static bool hwrng_listed(struct __test_metadata *const _metadata)
{
	char buf[1024], *tok, *save;

	ASSERT_TRUE(read_small_file("/sys/class/misc/hw_random/rng_available",
				    buf, sizeof(buf)));
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, "fairdie"))
			return true;
	return false;
}

/*
 * The entropy feeding hwrng is there when the parameters ask for it and the
 * source exists: hwrng=rdseed|rdrand, or auto with RDSEED present.
 */
TEST_F(fairdie, hwrng_registration)
{
	char param[64], cur[128], buf[64];
	bool want;
	int fd;

	if (!read_small_file(PARAM_DIR "/hwrng", param, sizeof(param)))
		SKIP(return, "no hwrng module parameter");
	if (!strcmp(param, "auto"))
		want = has_src(&self->info, FAIRDIE_SRC_RDSEED);
	else
		want = strcmp(param, "off") != 0;
	TH_LOG("hwrng=%s: fairdie hwrng %sexpected", param, want ? "" : "not ");
	ASSERT_EQ(want, hwrng_listed(_metadata));
	if (!want || !read_small_file("/sys/class/misc/hw_random/rng_current",
				      cur, sizeof(cur)))
		return;
	TH_LOG("rng_current: %s", cur);
	if (strcmp(cur, "fairdie"))
		return;
	fd = open("/dev/hwrng", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
	close(fd);
}

/* ---------------------------------------------------------------------
 * Health tests of the simulated coin: every extractor, stuck and bad coins
 * must end in EIO, any coin with 1/20 <= p <= 19/20 must work.
 */

FIXTURE(health) {
	int fd;
	struct fairdie_info info;
};

FIXTURE_VARIANT(health) {
	__u32 ext;
	__u64 p1_num;
	__u64 p1_den;
	bool fails;
};

FIXTURE_VARIANT_ADD(health, vn_p_one) {
	.ext = FAIRDIE_EXT_VN, .p1_num = 1, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, vn_p_zero) {
	.ext = FAIRDIE_EXT_VN, .p1_num = 0, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, vn_p_999999ppm) {
	.ext = FAIRDIE_EXT_VN, .p1_num = 999999, .p1_den = 1000000, .fails = true,
};

FIXTURE_VARIANT_ADD(health, vn_p_1_20) {
	.ext = FAIRDIE_EXT_VN, .p1_num = 1, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, vn_p_19_20) {
	.ext = FAIRDIE_EXT_VN, .p1_num = 19, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, peres_p_one) {
	.ext = FAIRDIE_EXT_PERES, .p1_num = 1, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, peres_p_zero) {
	.ext = FAIRDIE_EXT_PERES, .p1_num = 0, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, peres_p_999999ppm) {
	.ext = FAIRDIE_EXT_PERES, .p1_num = 999999, .p1_den = 1000000, .fails = true,
};

FIXTURE_VARIANT_ADD(health, peres_p_1_20) {
	.ext = FAIRDIE_EXT_PERES, .p1_num = 1, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, peres_p_19_20) {
	.ext = FAIRDIE_EXT_PERES, .p1_num = 19, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, dijkstra_p_one) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .p1_num = 1, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, dijkstra_p_zero) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .p1_num = 0, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, dijkstra_p_999999ppm) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .p1_num = 999999, .p1_den = 1000000, .fails = true,
};

FIXTURE_VARIANT_ADD(health, dijkstra_p_1_20) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .p1_num = 1, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, dijkstra_p_19_20) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .p1_num = 19, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, none_p_one) {
	.ext = FAIRDIE_EXT_NONE, .p1_num = 1, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, none_p_zero) {
	.ext = FAIRDIE_EXT_NONE, .p1_num = 0, .p1_den = 1, .fails = true,
};

FIXTURE_VARIANT_ADD(health, none_p_999999ppm) {
	.ext = FAIRDIE_EXT_NONE, .p1_num = 999999, .p1_den = 1000000, .fails = true,
};

FIXTURE_VARIANT_ADD(health, none_p_1_20) {
	.ext = FAIRDIE_EXT_NONE, .p1_num = 1, .p1_den = 20,
};

FIXTURE_VARIANT_ADD(health, none_p_19_20) {
	.ext = FAIRDIE_EXT_NONE, .p1_num = 19, .p1_den = 20,
};

FIXTURE_SETUP(health)
{
	self->fd = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, self->fd) {
		TH_LOG("open %s: %s (is the fairdie module loaded?)", DEV_PATH,
		       strerror(errno));
	}
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &self->info));
}

FIXTURE_TEARDOWN(health)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F_TIMEOUT(health, verdict, 90)
{
	struct fairdie_stats st;
	double t0, ms;
	size_t bytes;
	int i, err;
	char c;

	if (!has_ext(&self->info, variant->ext))
		SKIP(return, "extractor %s not offered", ext_names[variant->ext]);
	sim_config(_metadata, self->fd, variant->ext, 6, 11, variant->p1_num,
		   variant->p1_den);
	if (!variant->fails) {
		read_rolls(_metadata, self->fd, 6, 10000, 10000, NULL, NULL);
		get_stats(_metadata, self->fd, &st);
		ASSERT_EQ(0ULL, st.health_failures);
		ASSERT_EQ(0, poll_events(self->fd) & POLLERR);
		return;
	}

	t0 = now_ms();
	bytes = read_until_error(self->fd, HEALTH_MAX_BYTES, &err);
	ms = now_ms() - t0;
	get_stats(_metadata, self->fd, &st);
	TH_LOG("EIO after %zu bytes, %.1f ms, %llu source bits", bytes, ms,
	       (unsigned long long)st.source_bits);
	ASSERT_EQ(EIO, err);
	ASSERT_GT(HEALTH_MAX_MS, ms);
	ASSERT_LE(1ULL, st.health_failures);
	/* "A few thousand" source bits, allowing for buffered words. */
	ASSERT_GE(65536ULL, st.source_bits);

	/* Latched: poll says so and reads keep failing, at once. */
	ASSERT_NE(0, poll_events(self->fd) & POLLERR);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(-1, read(self->fd, &c, 1));
		ASSERT_EQ(EIO, errno);
	}

	/* RESET clears the latch and the counters. */
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ(0, poll_events(self->fd) & POLLERR);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.health_failures);

	/* With a fair coin, reads work again. */
	ASSERT_EQ(0, set_sim(self->fd, 12, 1, 2));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
}

/* ---------------------------------------------------------------------
 * Uniformity: chi-square of the faces (and of disjoint pairs of faces for
 * small dice, which catches state carried wrongly from roll to roll) for
 * each extractor, biased coins and a few die sizes.
 */

FIXTURE(uniform) {
	int fd;
	struct fairdie_info info;
};

FIXTURE_VARIANT(uniform) {
	__u32 ext;
	__u32 src;
	__u64 p1_num;
	__u64 p1_den;
	__u64 sides;
	size_t rolls;
};

/* Enough rolls to see a face 0.01 off its due probability. */
#define ROLLS_D6	500000
#define ROLLS_D37	500000
#define ROLLS_D100	500000

FIXTURE_VARIANT_ADD(uniform, vn_p50_d6) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, vn_p50_d37) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, vn_p50_d100) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, vn_p70_d6) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, vn_p70_d37) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, vn_p70_d100) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, vn_p90_d6) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, vn_p90_d37) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, vn_p90_d100) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, peres_p50_d6) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, peres_p50_d37) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, peres_p50_d100) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, peres_p70_d6) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, peres_p70_d37) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, peres_p70_d100) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, peres_p90_d6) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, peres_p90_d37) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, peres_p90_d100) {
	.ext = FAIRDIE_EXT_PERES, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p50_d6) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p50_d37) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p50_d100) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p70_d6) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p70_d37) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p70_d100) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 7, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p90_d6) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p90_d37) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, dijkstra_p90_d100) {
	.ext = FAIRDIE_EXT_DIJKSTRA, .src = FAIRDIE_SRC_SIM, .p1_num = 9, .p1_den = 10,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, none_p50_d6) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, none_p50_d37) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 37, .rolls = ROLLS_D37,
};

FIXTURE_VARIANT_ADD(uniform, none_p50_d100) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_SIM, .p1_num = 1, .p1_den = 2,
	.sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_VARIANT_ADD(uniform, vn_auto_d6) {
	.ext = FAIRDIE_EXT_VN, .src = FAIRDIE_SRC_AUTO, .sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, none_auto_d6) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_AUTO, .sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, none_crng_d6) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_CRNG, .sides = 6, .rolls = ROLLS_D6,
};

FIXTURE_VARIANT_ADD(uniform, none_crng_d100) {
	.ext = FAIRDIE_EXT_NONE, .src = FAIRDIE_SRC_CRNG, .sides = 100, .rolls = ROLLS_D100,
};

FIXTURE_SETUP(uniform)
{
	self->fd = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, self->fd) {
		TH_LOG("open %s: %s (is the fairdie module loaded?)", DEV_PATH,
		       strerror(errno));
	}
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &self->info));
}

FIXTURE_TEARDOWN(uniform)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F_TIMEOUT(uniform, chi_square, 180)
{
	__u64 sides = variant->sides, *counts, *pairs = NULL;
	struct fairdie_stats st;
	double t0;

	if (!has_ext(&self->info, variant->ext))
		SKIP(return, "extractor %s not offered", ext_names[variant->ext]);
	if (variant->src == FAIRDIE_SRC_SIM) {
		sim_config(_metadata, self->fd, variant->ext, sides,
			   0x5eed0000 + sides, variant->p1_num, variant->p1_den);
	} else {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, variant->ext));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, variant->src));
	}
	counts = calloc(sides, sizeof(*counts));
	ASSERT_TRUE(!!counts);
	if (sides <= 37) {
		pairs = calloc(sides * sides, sizeof(*pairs));
		ASSERT_TRUE(!!pairs);
	}
	t0 = now_ms();
	read_rolls(_metadata, self->fd, sides, variant->rolls, 65536, counts, pairs);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("%zu rolls in %.0f ms, %llu source bits",
	       variant->rolls, now_ms() - t0, (unsigned long long)st.source_bits);
	ASSERT_EQ(variant->rolls, st.outputs);
	check_uniform(_metadata, counts, sides, "faces");
	if (pairs)
		check_uniform(_metadata, pairs, sides * sides, "pairs of faces");
	free(pairs);
	free(counts);
}

TEST_HARNESS_MAIN
