// SPDX-License-Identifier: GPL-2.0
/*
 * fdfault - fault injection against /dev/fairdie, run in the debug-kernel VM
 * by tools/debugk/guest.sh (failslab and fail_page_alloc set up there).
 *
 *   fdfault sweep            every operation (open, each ioctl, read, poll)
 *                            with its 1st, 2nd, 3rd ... fault point failed
 *                            through /proc/thread-self/fail-nth, until the
 *                            operation runs out of fault points
 *   fdfault load KO [PARAMS] the same for loading the module (finit_module);
 *                            the module must not be loaded
 *   fdfault storm KO [PARAMS]
 *                            this task marked make-it-fail (the debugfs
 *                            knobs have task-filter set): every allocation
 *                            it makes fails; open and load must fail, an
 *                            already open file must keep working or fail
 *                            with ENOMEM
 *
 * An operation under injection must succeed or fail with ENOMEM (open may
 * also see ENFILE from the VFS); never anything else.  After each failure
 * the device must work again.  Prints one line per operation; exit status
 * 0 when all is well.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/fairdie.h>

#define DEV "/dev/fairdie"
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define MAX_NTH 5000

static int failures;

static void __printf(1, 2) bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

static int xopen(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		fprintf(stderr, "fdfault: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	return fd;
}

/* Arm fail-nth: the nth fault point this thread reaches fails. */
static void arm(int nth_fd, unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	if (pwrite(nth_fd, s, len, 0) != len) {
		perror("fdfault: write fail-nth");
		exit(2);
	}
}

/* Disarm; true if the armed fault was injected. */
static int disarm(int nth_fd)
{
	char s[16] = "";
	int injected;

	if (pread(nth_fd, s, sizeof(s) - 1, 0) <= 0) {
		perror("fdfault: read fail-nth");
		exit(2);
	}
	injected = strtoul(s, NULL, 10) == 0;
	arm(nth_fd, 0);
	return injected;
}

/* One operation on a file; returns 0 or -errno. */
struct op {
	const char *name;
	int (*run)(int fd, unsigned long req);
	unsigned long req;
	int needs_fd;
};

static int run_ioctl(int fd, unsigned long req)
{
	union {
		struct fairdie_info info;
		struct fairdie_sim sim;
		struct fairdie_stats stats;
		__u64 u64;
		__u32 u32;
	} arg;
	int r;

	memset(&arg, 0, sizeof(arg));
	/* Set requests get the value the file already has: always valid. */
	switch (req) {
	case FAIRDIE_IOC_SET_SIDES:
		r = ioctl(fd, FAIRDIE_IOC_GET_SIDES, &arg);
		break;
	case FAIRDIE_IOC_SET_EXTRACTOR:
		r = ioctl(fd, FAIRDIE_IOC_GET_EXTRACTOR, &arg);
		break;
	case FAIRDIE_IOC_SET_SOURCE:
		r = ioctl(fd, FAIRDIE_IOC_GET_SOURCE, &arg);
		break;
	case FAIRDIE_IOC_SET_FORMAT:
		r = ioctl(fd, FAIRDIE_IOC_GET_FORMAT, &arg);
		break;
	case FAIRDIE_IOC_SET_SIM:
		arg.sim.seed = 1;
		arg.sim.p1_num = 1;
		arg.sim.p1_den = 3;
		r = 0;
		break;
	default:
		r = 0;
	}
	if (r < 0)
		return -1000 - errno;	/* the preparation failed: a bug */
	return ioctl(fd, req, &arg) < 0 ? -errno : 0;
}

static int run_read(int fd, unsigned long len)
{
	static char buf[4096];
	ssize_t n = read(fd, buf, len);

	return n < 0 ? -errno : 0;
}

static int run_poll(int fd, unsigned long unused)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	(void)unused;
	return poll(&p, 1, 0) < 0 ? -errno : 0;
}

static int run_open(int fd, unsigned long unused)
{
	(void)fd;
	(void)unused;
	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

#define IOC(x) { #x, run_ioctl, FAIRDIE_IOC_##x, 1 }
static const struct op ops[] = {
	{ "open", run_open, 0, 0 },
	IOC(GET_INFO), IOC(SET_SIDES), IOC(GET_SIDES),
	IOC(SET_EXTRACTOR), IOC(GET_EXTRACTOR), IOC(SET_SOURCE),
	IOC(GET_SOURCE), IOC(SET_FORMAT), IOC(GET_FORMAT), IOC(SET_SIM),
	IOC(GET_SIM), IOC(GET_STATS), IOC(RESET),
	{ "read-1", run_read, 1, 1 },
	{ "read-4096", run_read, 4096, 1 },
	{ "poll", run_poll, 0, 1 },
};

static int ok_errno(const struct op *op, int e)
{
	return e == ENOMEM || (!op->needs_fd && e == ENFILE);
}

/* The device works: open, a few rolls, the stats ioctl. */
static void check_works(const char *after)
{
	struct fairdie_stats st;
	char buf[64];
	int fd = open(DEV, O_RDONLY);

	if (fd < 0) {
		bad("%s: open after injection: errno %d", after, errno);
		return;
	}
	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		bad("%s: read after injection: errno %d", after, errno);
	if (ioctl(fd, FAIRDIE_IOC_GET_STATS, &st) < 0)
		bad("%s: GET_STATS after injection: errno %d", after, errno);
	close(fd);
}

static void sweep_op(int nth_fd, const struct op *op)
{
	unsigned int n, fails = 0;
	int fd = -1, r, injected;

	for (n = 1; n <= MAX_NTH; n++) {
		if (op->needs_fd)
			fd = xopen(DEV, O_RDONLY);
		arm(nth_fd, n);
		r = op->run(fd, op->req);
		injected = disarm(nth_fd);
		if (fd >= 0)
			close(fd);
		if (r <= -1000) {
			bad("%s: preparing the call failed: errno %d",
			    op->name, -r - 1000);
			return;
		}
		if (r < 0) {
			fails++;
			if (!ok_errno(op, -r))
				bad("%s: fault %u gave errno %d", op->name, n, -r);
		}
		if (!injected)
			break;
	}
	if (n > MAX_NTH)
		bad("%s: still reaching fault points after %d", op->name,
		    MAX_NTH);
	printf("%-14s %3u fault points, %3u made it fail (ENOMEM), the rest recovered\n",
	       op->name, n - 1, fails);
	check_works(op->name);
}

/* finit_module() of an open .ko: 0 or -errno. */
static int load_fd(int fd, const char *params)
{
	return syscall(SYS_finit_module, fd, params, 0) < 0 ? -errno : 0;
}

/* The same, opening the file first: nothing armed may fail the open. */
static int load(const char *ko, const char *params)
{
	int fd = xopen(ko, O_RDONLY | O_CLOEXEC);
	int r = load_fd(fd, params);

	close(fd);
	return r;
}

static void unload(void)
{
	if (syscall(SYS_delete_module, "fairdie", O_NONBLOCK) < 0)
		bad("delete_module: errno %d", errno);
}

static void sweep_load(int nth_fd, const char *ko, const char *params)
{
	unsigned int n, fails = 0;
	int r, injected;

	for (n = 1; n <= MAX_NTH; n++) {
		int fd = xopen(ko, O_RDONLY | O_CLOEXEC);

		arm(nth_fd, n);
		r = load_fd(fd, params);
		injected = disarm(nth_fd);
		close(fd);
		if (r == 0)
			unload();
		else if (r == -ENOMEM)
			fails++;
		else
			bad("load: fault %u gave errno %d", n, -r);
		if (!injected)
			break;
	}
	if (n > MAX_NTH)
		bad("load: still reaching fault points after %d", MAX_NTH);
	printf("%-14s %3u fault points, %3u made it fail (ENOMEM), the rest recovered\n",
	       "load", n - 1, fails);
}

static void make_it_fail(int mif, int on)
{
	if (write(mif, on ? "1" : "0", 1) != 1) {
		perror("fdfault: make-it-fail");
		exit(2);
	}
}

static void storm(const char *ko, const char *params)
{
	int mif = xopen("/proc/thread-self/make-it-fail", O_WRONLY);
	int fd = xopen(DEV, O_RDONLY);
	unsigned int i;
	int r;

	make_it_fail(mif, 1);
	r = run_open(-1, 0);
	if (r != -ENOMEM && r != -ENFILE)
		bad("%s: open gave %d, want -ENOMEM", __func__, r);
	for (i = 1; i < ARRAY_SIZE(ops); i++) {
		r = ops[i].run(fd, ops[i].req);
		if (r < 0 && r != -ENOMEM)
			bad("%s: %s: errno %d", __func__, ops[i].name, -r);
	}
	make_it_fail(mif, 0);
	close(fd);
	check_works("storm");
	unload();
	fd = xopen(ko, O_RDONLY | O_CLOEXEC);
	make_it_fail(mif, 1);
	r = load_fd(fd, params);
	make_it_fail(mif, 0);
	close(fd);
	if (r != -ENOMEM)
		bad("%s: load gave %d, want -ENOMEM", __func__, r);
	r = load(ko, params);
	if (r != 0)
		bad("%s: load afterwards: errno %d", __func__, -r);
	printf("%s: open and load refused with ENOMEM, the open file kept working\n",
	       __func__);
	check_works("storm");
}

int main(int argc, char **argv)
{
	const char *params = argc > 3 ? argv[3] : "";
	unsigned int i;
	int nth_fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/*
	 * Every page of ours in memory and mapped now: a page fault that
	 * needs memory while failures are armed would fail in our place
	 * (and, with make-it-fail, be retried forever).
	 */
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		perror("fdfault: mlockall");
		return 2;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: fdfault sweep | load KO [PARAMS] | storm KO [PARAMS]\n");
		return 2;
	}
	nth_fd = xopen("/proc/thread-self/fail-nth", O_RDWR);
	if (!strcmp(argv[1], "sweep")) {
		for (i = 0; i < ARRAY_SIZE(ops); i++)
			sweep_op(nth_fd, &ops[i]);
	} else if (!strcmp(argv[1], "load") && argc > 2) {
		sweep_load(nth_fd, argv[2], params);
	} else if (!strcmp(argv[1], "storm") && argc > 2) {
		storm(argv[2], params);
	} else {
		fprintf(stderr, "fdfault: unknown command %s\n", argv[1]);
		return 2;
	}
	printf("fdfault %s: %d failure(s)\n", argv[1], failures);
	return failures ? 1 : 0;
}
