/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie_test.h - what the kselftest programs of /dev/fairdie share
 *
 * Each program tests one concern (fairdie_abi_test: the ioctls and the
 * per-file state; fairdie_read_test: reads in both formats, large,
 * interrupted and concurrent ones; fairdie_source_test: sources, the
 * simulated coin and the health tests; fairdie_uniform_test: uniformity
 * and efficiency). Every test gets an open file of its own from its
 * fixture, opened by fd_open(): without /dev/fairdie (module not loaded)
 * every test SKIPs and the program exits with KSFT_SKIP, as kselftest
 * expects; any other failure to open fails the test. Tests also SKIP
 * when an optional feature is absent (an extractor not implemented, a CPU
 * source the machine lacks, a module parameter not there).
 *
 * Statistical tests use Pearson's chi-square at a significance level of
 * CHI2_ALPHA (1e-6) each; with some 60 of them, a correct module fails one
 * about once in 16000 runs of the suite. The critical values are exact
 * (tools/include/fd_chi2.h).
 *
 * Sizes are chosen to keep the suite within a few minutes under QEMU TCG,
 * which runs the kernel some 10 to 50 times slower than native.
 *
 * Everything here is static inline: each program is one translation unit,
 * as kselftest_harness.h requires.
 */
#ifndef _FAIRDIE_SELFTEST_H
#define _FAIRDIE_SELFTEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

#include "fd_chi2.h"
#include "fd_names.h"
#include "fd_roll.h"

/* The harness has a signal handler with an unused parameter: -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#define DEV_PATH	"/dev/fairdie"
#define SYSFS_DIR	"/sys/class/misc/fairdie"
#define PARAM_DIR	"/sys/module/fairdie/parameters"
#define FAULT_DIR	"/sys/kernel/debug/fairdie"

#define CHI2_ALPHA	0.000001
#define U64_MAX_VAL	(~0ULL)
#define MIB		((size_t)1024 * 1024)
/*
 * A well holds at most 16 Kibit of fair bits, and for PERES the output of
 * one 192-Kibit block besides; a reader fetches at most 32 raw words before
 * they are tested (admin guide, "The wells").
 */
#define WELL_MAX_BITS	(16384 + 196608)
#define WELL_CHUNK_BITS	2048
/* The last page of the address space: the kernel's, for 64 and 32-bit tasks. */
#define KERNEL_PTR	((void *)(uintptr_t)-4096)

/* ---------------------------------------------------------------------
 * Helpers
 */

/* ioctl() that returns 0 on success and the errno value on failure. */
static inline int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? errno : 0;
}

static inline int set_u64(int fd, unsigned long cmd, __u64 val)
{
	return xioctl(fd, cmd, &val);
}

static inline int set_u32(int fd, unsigned long cmd, __u32 val)
{
	return xioctl(fd, cmd, &val);
}

static inline int set_sim(int fd, __u64 seed, __u64 num, __u64 den)
{
	struct fairdie_sim sim = { .seed = seed, .p1_num = num, .p1_den = den };

	return xioctl(fd, FAIRDIE_IOC_SET_SIM, &sim);
}

static inline __u64 get_u64(struct __test_metadata *const _metadata, int fd,
		     unsigned long cmd)
{
	__u64 val = 0;

	ASSERT_EQ(0, xioctl(fd, cmd, &val));
	return val;
}

static inline __u32 get_u32(struct __test_metadata *const _metadata, int fd,
		     unsigned long cmd)
{
	__u32 val = 0;

	ASSERT_EQ(0, xioctl(fd, cmd, &val));
	return val;
}

static inline void get_stats(struct __test_metadata *const _metadata, int fd,
		      struct fairdie_stats *st)
{
	memset(st, 0xa5, sizeof(*st));
	ASSERT_EQ(0, xioctl(fd, FAIRDIE_IOC_GET_STATS, st));
	ASSERT_EQ(0ULL, st->reserved[0] | st->reserved[1] | st->reserved[2]);
}

static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Read @n binary rolls of a die with @sides faces in reads of at most
 * @chunk rolls, check every one is below @sides, and add them up in
 * @counts[sides] when @counts is not NULL; when @pairs is not NULL, count
 * the disjoint pairs (roll 2i, roll 2i + 1) in @pairs[sides * sides] too.
 */
static inline void read_rolls(struct __test_metadata *const _metadata, int fd,
		       __u64 sides, size_t n, size_t chunk, __u64 *counts,
		       __u64 *pairs)
{
	size_t width = fd_roll_width(sides), done = 0, i;
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
			__u64 v = fd_get_roll(buf + i * width, width);

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

/* Fail unless @counts[k] passes the uniformity test; @what names it. */
static inline void check_uniform(struct __test_metadata *const _metadata,
			  const __u64 *counts, size_t k, const char *what)
{
	double stat = fd_chi2_uniform(counts, k);
	double crit = fd_chi2_crit(k - 1, CHI2_ALPHA);

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

static inline void text_bad(struct text_check *t, const char *why)
{
	if (!t->bad)
		snprintf(t->first_bad, sizeof(t->first_bad), "line %llu: %s",
			 (unsigned long long)t->lines, why);
	t->bad = true;
}

static inline void text_feed(struct text_check *t, const char *buf, size_t len)
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
static inline bool read_small_file(const char *path, char *buf, size_t size)
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

/* A device attribute as a number; ~0 if it cannot be read. */
static inline unsigned long long sysfs_u64(const char *name)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "%s/%s", SYSFS_DIR, name);
	if (!read_small_file(path, buf, sizeof(buf)))
		return ~0ULL;
	return strtoull(buf, NULL, 10);
}

/* Write the module parameter fetch_ahead: 0 or an errno. */
static inline int fetch_ahead_write(const char *val)
{
	int fd = open(PARAM_DIR "/fetch_ahead", O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : EIO;
}

/* Write @val to the fault build's knob @name: 0 or an errno. */
static inline int knob_write(const char *name, const char *val)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", FAULT_DIR, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : EIO;
}

/*
 * Whether the fault build's knob @name is there ("" for the knobs' folder:
 * a FAIRDIE_FAULT=1 build); debugfs is mounted first if it is not.
 */
static inline bool have_fault_knob(const char *name)
{
	char path[128];
	struct stat st;

	if (stat(FAULT_DIR, &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(path, sizeof(path), "%s/%s", FAULT_DIR, name);
	return !stat(path, &st);
}

/* The source AUTO resolves to on a machine offering @sources. */
static inline __u32 auto_source(__u32 sources)
{
	if (sources & (1U << FAIRDIE_SRC_RDSEED))
		return FAIRDIE_SRC_RDSEED;
	if (sources & (1U << FAIRDIE_SRC_RDRAND))
		return FAIRDIE_SRC_RDRAND;
	return FAIRDIE_SRC_CRNG;
}

/* The source a new open file starts with, from the module parameter. */
static inline __u32 default_source(__u32 sources)
{
	char buf[64];
	int i;

	if (read_small_file(PARAM_DIR "/source", buf, sizeof(buf))) {
		i = fd_source_parse(buf);
		if (i > FAIRDIE_SRC_AUTO)
			return i;
	}
	return auto_source(sources);
}

/*
 * Configure @fd for the simulated coin: sides, extractor, then the coin and
 * the source, so that the stream starts from the seed with nothing buffered.
 */
static inline void sim_config(struct __test_metadata *const _metadata, int fd,
		       __u32 ext, __u64 sides, __u64 seed, __u64 num, __u64 den)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, sides));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
	ASSERT_EQ(0, set_sim(fd, seed, num, den));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
}

/* Configure @fd for bytes from the kernel CRNG: sides 256, no extractor. */
static inline void crng_bytes_config(struct __test_metadata *const _metadata, int fd)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, 256));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
}

/*
 * Read until a read fails; return the bytes read before, and the errno of
 * the failure in @err (0 if @max bytes went through without one).
 */
static inline size_t read_until_error(int fd, size_t max, int *err)
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

static inline short poll_events(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLRDNORM };

	if (poll(&pfd, 1, 0) < 0)
		return -1;
	return pfd.revents;
}

static inline bool has_ext(const struct fairdie_info *info, __u32 ext)
{
	return info->extractors & (1U << ext);
}

static inline bool has_src(const struct fairdie_info *info, __u32 src)
{
	return info->sources & (1U << src);
}

/* ---------------------------------------------------------------------
 * Opening the device, and skipping when it is not there
 */

/*
 * Open /dev/fairdie for a fixture and read what it offers into @info.
 * Without the device the test is SKIPped (the kselftest convention for a
 * driver that is not loaded, as rtctest does). The 6.1 harness these
 * programs build against goes on to the test body after a SKIP() in a
 * FIXTURE_SETUP (later ones return), so the skip leaves the setup the way
 * a failed ASSERT does, through the harness's jump buffer: the body and
 * the teardown do not run.
 */
static inline int fd_open(struct __test_metadata *const _metadata,
			  struct fairdie_info *info)
{
	int fd = open(DEV_PATH, O_RDONLY);

	if (fd == -1 && errno == ENOENT)
		SKIP(longjmp(_metadata->env, 1),
		     "%s not found (is the fairdie module loaded?)", DEV_PATH);
	ASSERT_LE(0, fd) {
		TH_LOG("open %s: %s", DEV_PATH, strerror(errno));
	}
	memset(info, 0, sizeof(*info));
	ASSERT_EQ(0, xioctl(fd, FAIRDIE_IOC_GET_INFO, info));
	return fd;
}

/*
 * The open file most tests start from: a d6 with von Neumann's extractor,
 * whatever the module parameters make the default.
 */
static inline void fd_set_d6_vn(struct __test_metadata *const _metadata,
				int fd)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_VN));
}

/*
 * FD_D6_VN_FIXTURE(name) - define the fixture @name most programs use: each
 * test gets a new open file, set to a d6 with von Neumann's extractor, which
 * the tests assume whatever the module parameters were; the teardown closes
 * it. The fixture holds the file (fd) and what the device offers (info).
 */
#define FD_D6_VN_FIXTURE(name)					\
	FIXTURE(name) {						\
		int fd;						\
		struct fairdie_info info;			\
	};							\
								\
	FIXTURE_SETUP(name)					\
	{							\
		self->fd = fd_open(_metadata, &self->info);	\
		fd_set_d6_vn(_metadata, self->fd);		\
	}							\
								\
	FIXTURE_TEARDOWN(name)					\
	{							\
		close(self->fd);				\
	}

/*
 * kselftest wants the exit status KSFT_SKIP when every test of a program
 * skipped (no device); the 6.1 harness exits with KSFT_PASS then. Turn
 * that exit into KSFT_SKIP, in the harness's own process only.
 */
static pid_t fd_main_pid;

static void fd_exit_all_skipped(void)
{
	if (getpid() != fd_main_pid || !ksft_plan ||
	    ksft_get_xskip_cnt() != (int)ksft_plan)
		return;
	fflush(stdout);
	fflush(stderr);
	_exit(KSFT_SKIP);
}

static void __attribute__((constructor)) fd_exit_all_skipped_init(void)
{
	fd_main_pid = getpid();
	atexit(fd_exit_all_skipped);
}

#endif /* _FAIRDIE_SELFTEST_H */
