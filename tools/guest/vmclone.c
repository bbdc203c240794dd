// SPDX-License-Identifier: GPL-2.0
/*
 * vmclone - the guest side of the VM clone test (tools/vm/clonetest.sh).
 *
 * Opens /dev/fairdie once per source and extractor below and reads rolls,
 * so that every file (and the hwrng pipeline, through /dev/hwrng) holds
 * buffered bits and sampler state. Prints them as "before NAME HEX", then
 * "@@clone ready" and waits until /sys/class/misc/fairdie/vm_forks changes:
 * meanwhile the host saves the stopped guest to a file and restores it, with
 * another VM generation ID, as two clones. Each clone then prints
 * "vm_forks OLD NEW" and the next rolls of every file, "after NAME HEX",
 * for the host to compare across clones.
 *
 * Then readers caught in the middle of their work (see "Readers caught by
 * the snapshot" below): readers asleep in their wells released by a signal,
 * close() and RESET, each followed by a fresh reader's first 64 bits; a
 * reader streaming without pause; a text line half read. Last, where the
 * module fetches RDSEED and RDRAND ahead on another CPU (driver/ahead.c),
 * "aheadstale OLD NEW": the words of its rings that the fork made stale,
 * wiped unused (the streaming reader takes from rings that held words at
 * the snapshot).
 *
 * Usage: vmclone [WAIT_SECONDS]
 * Exit status: 0 when vm_forks rose, 1 when it did not within WAIT_SECONDS
 * (default 60; the rolls are printed all the same), 2 on any other failure.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

#include "fd_names.h"

#define VM_FORKS	"/sys/class/misc/fairdie/vm_forks"
#define AHEAD_STALE	"/sys/class/misc/fairdie/ahead_stale"
#define ROLLS		32	/* d6 rolls per line: 6^-32 < 2^-82 to agree */
#define HWRNG_BYTES	64	/* a whole buffer of the hwrng core, left empty */

/*
 * The files: each hardware source with each kind of state (fair bits in a
 * pool, a Peres block, the CRNG's prefetched words), and the control: the
 * simulated coin is a deterministic stream that a VM fork does not reseed,
 * so its rolls must agree across clones.
 */
static const struct clone_file {
	const char *name;
	__u32 source;
	__u32 extractor;
} files[] = {
	{ "rdseed-vn", FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_VN },
	{ "rdseed-none", FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_NONE },
	{ "rdseed-peres", FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_PERES },
	{ "rdseed-dijkstra", FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_DIJKSTRA },
	{ "rdrand-vn", FAIRDIE_SRC_RDRAND, FAIRDIE_EXT_VN },
	{ "crng-vn", FAIRDIE_SRC_CRNG, FAIRDIE_EXT_VN },
	{ "sim-vn", FAIRDIE_SRC_SIM, FAIRDIE_EXT_VN },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NFILES		ARRAY_SIZE(files)

static void fail(const char *what)
{
	fprintf(stderr, "vmclone: %s: %s\n", what, strerror(errno));
	exit(2);
}

static unsigned long vm_forks(void)
{
	char buf[32] = "";
	int fd = open(VM_FORKS, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		fail(VM_FORKS);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		fail(VM_FORKS);
	return strtoul(buf, NULL, 10);
}

/*
 * Words of the rings fetched ahead that a VM fork made stale (wiped
 * unused), or -1 when they cannot be read.
 */
static long long ahead_stale(void)
{
	char buf[32] = "";
	int fd = open(AHEAD_STALE, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtoll(buf, NULL, 10) : -1;
}

static void read_all(int fd, unsigned char *buf, size_t len, const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n <= 0) {
			if (!n)
				errno = EIO;
			fail(what);
		}
		done += n;
	}
}

static void print_hex(const char *when, const char *name,
		      const unsigned char *buf, size_t len)
{
	size_t i;

	printf("%s %s ", when, name);
	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
}

/* Every file's next rolls, and /dev/hwrng's next bytes if fairdie feeds it. */
static void show(const char *when, const int *fd, int hwrng)
{
	unsigned char buf[HWRNG_BYTES];
	size_t i;

	for (i = 0; i < NFILES; i++) {
		if (fd[i] < 0)
			continue;
		read_all(fd[i], buf, ROLLS, files[i].name);
		print_hex(when, files[i].name, buf, ROLLS);
	}
	if (hwrng >= 0) {
		read_all(hwrng, buf, sizeof(buf), "/dev/hwrng");
		print_hex(when, "hwrng", buf, sizeof(buf));
	}
	fflush(stdout);
}

/* ------------------------------------------------------------------
 * Readers caught by the snapshot in the middle of their work.
 *
 * - blocked: a child process, starved by the fault build's starve_pid knob
 *   (every RDSEED/RDRAND try of that process underflows), holds three
 *   wide-die files whose first roll left bits in their pools and samplers,
 *   each with a thread asleep in its well in a long read. In each clone
 *   they are released one at a time, by a signal; by a signal and close();
 *   by a signal and RESET. After each, a fresh reader of the same well
 *   (another process: not starved) prints its first 64 bits, "after
 *   fresh-sig|close|reset HEX": bits a released reader gave back to its
 *   well would be the same in both clones.
 * - stream: a thread of this process reads a d6 of RDSEED and one of
 *   RDRAND (DIJKSTRA) a byte at a time without pause (which also keeps
 *   both instructions heard, so that the starved readers wait rather than
 *   fail); the first 16 RDSEED rolls read after the fork is seen are
 *   "after stream HEX".
 * - textline: a file of text lines has 5 bytes of a line read: after the
 *   fork only the line's end comes, "after textline 0a" in both clones.
 */

#define FAULT_DIR	"/sys/kernel/debug/fairdie/"
#define BLOCKED		3
#define BLOCKED_READ	8192

/*
 * Wells whose stock is small, so that a long read drains it and waits (a
 * Peres block would serve the whole read), and that nobody else reads.
 */
static const struct clone_file blocked_files[BLOCKED] = {
	{ "sig", FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_NONE },
	{ "close", FAIRDIE_SRC_RDRAND, FAIRDIE_EXT_NONE },
	{ "reset", FAIRDIE_SRC_RDRAND, FAIRDIE_EXT_VN },
};

static void knob(const char *name, long value)
{
	FILE *f;
	char path[128];

	snprintf(path, sizeof(path), FAULT_DIR "%s", name);
	f = fopen(path, "w");
	if (!f)
		fail(path);
	fprintf(f, "%ld\n", value);
	if (fclose(f))
		fail(path);
}

/* A file of @src and @ext with @sides sides (binary), or -1 on failure. */
static int open_die(__u32 src, __u32 ext, __u64 sides)
{
	int fd = open("/dev/fairdie", O_RDONLY);

	if (fd < 0)
		return -1;
	if (ioctl(fd, FAIRDIE_IOC_SET_SIDES, &sides) ||
	    ioctl(fd, FAIRDIE_IOC_SET_EXTRACTOR, &ext) ||
	    ioctl(fd, FAIRDIE_IOC_SET_SOURCE, &src)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct blocked {
	int fd;
	pthread_t thread;
	ssize_t got;
	int err;
	unsigned char buf[BLOCKED_READ];
};

static void *blocked_read(void *arg)
{
	struct blocked *b = arg;

	b->got = read(b->fd, b->buf, sizeof(b->buf));
	b->err = errno;
	return NULL;
}

static void no_op(int sig)
{
	(void)sig;
}

/* The starved child: commands on @in ('s', 'c', 'r', 'q'), answers on @out. */
static void blocked_child(int in, int out)
{
	static struct blocked b[BLOCKED];
	struct sigaction sa = { .sa_handler = no_op };
	char cmd;
	int i;

	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: read() ends */
	for (i = 0; i < BLOCKED; i++) {
		b[i].fd = open_die(blocked_files[i].source,
				   blocked_files[i].extractor, ~0ULL);
		if (b[i].fd < 0 || read(b[i].fd, b[i].buf, 8) != 8)
			_exit(2);
	}
	if (write(out, "1", 1) != 1 || read(in, &cmd, 1) != 1)
		_exit(2);
	/* Starved now: each read drains its well, then waits in it. */
	for (i = 0; i < BLOCKED; i++)
		pthread_create(&b[i].thread, NULL, blocked_read, &b[i]);
	usleep(300 * 1000);
	if (write(out, "2", 1) != 1)
		_exit(2);
	while (read(in, &cmd, 1) == 1 && cmd != 'q') {
		i = cmd == 's' ? 0 : cmd == 'c' ? 1 : 2;
		pthread_kill(b[i].thread, SIGUSR1);
		pthread_join(b[i].thread, NULL);
		printf("# blocked %s: read returned %zd (%s)\n",
		       blocked_files[i].name, b[i].got,
		       b[i].got < 0 ? strerror(b[i].err) : "bytes");
		/* A read that ended by itself was not asleep: not tested. */
		if (b[i].got == BLOCKED_READ)
			printf("@@notasleep %s\n", blocked_files[i].name);
		if (cmd == 'c')
			close(b[i].fd);
		if (cmd == 'r' && ioctl(b[i].fd, FAIRDIE_IOC_RESET))
			_exit(2);
		fflush(stdout);
		if (write(out, "3", 1) != 1)
			_exit(2);
	}
	_exit(0);
}

static pid_t child;
static int to_child, from_child;

/* Start the starved child, its readers asleep in their wells. */
static void blocked_start(void)
{
	int down[2], up[2];
	char c;

	if (pipe(down) || pipe(up))
		fail("pipe");
	fflush(stdout);
	child = fork();
	if (child < 0)
		fail("fork");
	if (!child) {
		close(down[1]);
		close(up[0]);
		blocked_child(down[0], up[1]);
	}
	close(down[0]);
	close(up[1]);
	to_child = down[1];
	from_child = up[0];
	if (read(from_child, &c, 1) != 1)
		fail("blocked readers");
	knob("starve_pid", child);
	if (write(to_child, "g", 1) != 1 || read(from_child, &c, 1) != 1)
		fail("blocked readers");
}

/* Release one blocked reader in the clone, then a fresh reader's 64 bits. */
static void blocked_release(char cmd, int i)
{
	unsigned char buf[8];
	char name[32], c;
	__u64 sides = 1ULL << 32;
	int fd;

	if (write(to_child, &cmd, 1) != 1 || read(from_child, &c, 1) != 1)
		fail("blocked readers");
	fd = open_die(blocked_files[i].source, blocked_files[i].extractor,
		      sides);
	if (fd < 0)
		fail("fresh reader");
	read_all(fd, buf, sizeof(buf), "fresh reader");
	close(fd);
	snprintf(name, sizeof(name), "fresh-%s", blocked_files[i].name);
	print_hex("after", name, buf, sizeof(buf));
}

static void blocked_end(void)
{
	knob("starve_pid", 0);
	if (write(to_child, "q", 1) != 1)
		fail("blocked readers");
	waitpid(child, NULL, 0);
}

/* Shared with the streaming thread: __atomic loads and stores. */
static int stream_forked, stream_stop, stream_n;

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
static unsigned char stream_rolls[16];
static int stream_fd[2];

static void *stream(void *arg)
{
	unsigned char b;

	(void)arg;
	while (!LOAD(stream_stop)) {
		int seen = LOAD(stream_forked), n = LOAD(stream_n);

		read_all(stream_fd[1], &b, 1, "stream");
		read_all(stream_fd[0], &b, 1, "stream");
		/* Only rolls whose read began after the fork was seen. */
		if (seen && n < (int)sizeof(stream_rolls)) {
			stream_rolls[n] = b;
			STORE(stream_n, n + 1);
		}
	}
	return NULL;
}

/* /dev/hwrng, when fairdie is the hwrng core's current source; else -1. */
static int open_hwrng(void)
{
	char cur[32] = "";
	FILE *f = fopen("/sys/class/misc/hw_random/rng_current", "r");

	if (!f)
		return -1;
	if (!fgets(cur, sizeof(cur), f))
		cur[0] = 0;
	fclose(f);
	if (strcmp(cur, "fairdie\n")) {
		printf("# /dev/hwrng: fairdie is not the current hwrng (%s)\n",
		       cur[0] ? strtok(cur, "\n") : "none");
		return -1;
	}
	return open("/dev/hwrng", O_RDONLY);
}

int main(int argc, char **argv)
{
	long wait_s = argc > 1 ? strtol(argv[1], NULL, 10) : 60;
	struct fairdie_info info = { 0 };
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	unsigned long before, after;
	long long stale;
	int fd[NFILES], hwrng, text;
	__u32 fmt = FAIRDIE_FMT_TEXT;
	unsigned char line[64], *nl;
	pthread_t streamer;
	bool blocked;
	__u64 sides = 6;
	long naps;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < NFILES; i++) {
		const struct clone_file *c = &files[i];

		fd[i] = open("/dev/fairdie", O_RDONLY);
		if (fd[i] < 0 || ioctl(fd[i], FAIRDIE_IOC_GET_INFO, &info))
			fail("/dev/fairdie");
		if (!(info.sources & (1u << c->source))) {
			printf("# %s: no %s on this machine\n", c->name,
			       fd_source_names()[c->source]);
			close(fd[i]);
			fd[i] = -1;
			continue;
		}
		if (ioctl(fd[i], FAIRDIE_IOC_SET_SIDES, &sides) ||
		    ioctl(fd[i], FAIRDIE_IOC_SET_EXTRACTOR, &c->extractor) ||
		    ioctl(fd[i], FAIRDIE_IOC_SET_SOURCE, &c->source))
			fail(c->name);
	}
	hwrng = open_hwrng();

	show("before", fd, hwrng);

	/* Half a line of text: the rest must not come after the fork. */
	text = open_die(FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_VN, ~0ULL);
	if (text < 0 || ioctl(text, FAIRDIE_IOC_SET_FORMAT, &fmt))
		fail("textline");
	read_all(text, line, 5, "textline");
	stream_fd[0] = open_die(FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_DIJKSTRA, 6);
	stream_fd[1] = open_die(FAIRDIE_SRC_RDRAND, FAIRDIE_EXT_DIJKSTRA, 6);
	if (stream_fd[0] < 0 || stream_fd[1] < 0 ||
	    pthread_create(&streamer, NULL, stream, NULL))
		fail("stream");
	blocked = !access(FAULT_DIR "starve_pid", W_OK);
	if (blocked)
		blocked_start();
	else
		printf("# no %sstarve_pid: no blocked readers\n", FAULT_DIR);

	stale = ahead_stale();
	before = vm_forks();
	printf("@@clone ready vm_forks %lu\n", before);
	fflush(stdout);

	/* The guest's clock stands still while the host saves and restores. */
	for (naps = 0; naps < wait_s * 20; naps++) {
		if (vm_forks() != before)
			break;
		nanosleep(&nap, NULL);
	}
	after = vm_forks();
	printf("vm_forks %lu %lu\n", before, after);
	STORE(stream_forked, 1);
	if (blocked) {
		blocked_release('s', 0);
		blocked_release('c', 1);
		blocked_release('r', 2);
		blocked_end();
	}
	read_all(text, line, sizeof(line), "textline");
	nl = memchr(line, '\n', sizeof(line));
	print_hex("after", "textline", line, nl ? nl + 1 - line : 0);
	while (LOAD(stream_n) < (int)sizeof(stream_rolls))
		nanosleep(&nap, NULL);
	STORE(stream_stop, 1);
	pthread_join(streamer, NULL);
	print_hex("after", "stream", stream_rolls, sizeof(stream_rolls));
	show("after", fd, hwrng);
	/* The streaming reader took from rings that held pre-fork words. */
	printf("aheadstale %lld %lld\n", stale, ahead_stale());
	return after > before ? 0 : 1;
}
