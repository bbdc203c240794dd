// SPDX-License-Identifier: GPL-2.0
/*
 * stress - load /dev/fairdie from several processes and threads at once.
 *
 * Usage: stress [SECONDS [PROCESSES [THREADS]]]   (default 30 2 4)
 *
 * Every thread owns a private open file and also shares one file with the
 * other threads of its process (a forked child shares its parent's file as
 * well). It mixes reads of every size in both formats with ioctls and
 * RESETs. On private files it checks every value and that the statistics
 * add up exactly; on shared files, where others change the configuration
 * concurrently, only that every call ends in a documented way. Prints a
 * summary and exits non-zero on any inconsistency.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

#include "fd_names.h"
#include "fd_roll.h"

static int seconds = 30;
static int shared_fd;
static atomic_ulong n_reads, n_bytes, n_ioctls, n_resets, n_errors;

static unsigned long long rng_next(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fail(const char *what, long long a, long long b)
{
	fprintf(stderr, "stress: FAIL %s (%lld, %lld)\n", what, a, b);
	atomic_fetch_add(&n_errors, 1);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static const __u64 sides_menu[] = {
	1, 2, 6, 37, 100, 256, 1000, 65537, 1ULL << 32, 0xfffffffbULL,
	(1ULL << 40) + 7, ~0ULL,
};

/* A private file: everything it returns must be exactly consistent. */
static void private_round(int fd, unsigned long long *s, unsigned char *buf,
			  __u64 *expect_outputs)
{
	__u64 sides = sides_menu[rng_next(s) % 12];
	__u32 ext = rng_next(s) % FD_NR_EXTRACTORS;
	__u32 src = rng_next(s) % 2 ? FAIRDIE_SRC_CRNG : FAIRDIE_SRC_SIM;
	__u32 fmt = FAIRDIE_FMT_BINARY, vn = FAIRDIE_EXT_VN;
	struct fairdie_stats st;
	unsigned int w, i, k;
	ssize_t n;

	if (ext == FAIRDIE_EXT_DIJKSTRA &&
	    (sides == 65537 || sides == 0xfffffffbULL || sides > (1ULL << 32)))
		ext = FAIRDIE_EXT_VN;
	/* VN first: DIJKSTRA would refuse some sides. */
	if (ioctl(fd, FAIRDIE_IOC_SET_EXTRACTOR, &vn) ||
	    ioctl(fd, FAIRDIE_IOC_SET_SIDES, &sides) ||
	    ioctl(fd, FAIRDIE_IOC_SET_EXTRACTOR, &ext) ||
	    ioctl(fd, FAIRDIE_IOC_SET_SOURCE, &src) ||
	    ioctl(fd, FAIRDIE_IOC_SET_FORMAT, &fmt)) {
		fail("private ioctl", errno, ext);
		return;
	}
	atomic_fetch_add(&n_ioctls, 5);
	w = fd_roll_width(sides);
	for (k = 0; k < 4; k++) {
		size_t len = (1 + rng_next(s) % 8192) * w;

		n = read(fd, buf, len);
		atomic_fetch_add(&n_reads, 1);
		if (n != (ssize_t)len) {
			fail("private read length", n, len);
			return;
		}
		atomic_fetch_add(&n_bytes, n);
		*expect_outputs += n / w;
		for (i = 0; i < n; i += w) {
			__u64 v = fd_get_roll(buf + i, w);

			if (v >= sides) {
				fail("value out of range", v, sides);
				return;
			}
		}
	}
	if (ioctl(fd, FAIRDIE_IOC_GET_STATS, &st)) {
		fail("GET_STATS", errno, 0);
		return;
	}
	if (st.outputs != *expect_outputs)
		fail("stats.outputs", st.outputs, *expect_outputs);
	if (ext != FAIRDIE_EXT_DIJKSTRA && st.sampler_bits > st.extracted_bits)
		fail("sampler_bits > extracted_bits", st.sampler_bits,
		     st.extracted_bits);
	if (ext != FAIRDIE_EXT_NONE && st.extracted_bits > st.source_bits)
		fail("extracted_bits > source_bits", st.extracted_bits,
		     st.source_bits);
	if (rng_next(s) % 4 == 0) {
		if (ioctl(fd, FAIRDIE_IOC_RESET))
			fail("RESET", errno, 0);
		*expect_outputs = 0;
		atomic_fetch_add(&n_resets, 1);
		if (ioctl(fd, FAIRDIE_IOC_GET_STATS, &st) || st.outputs ||
		    st.source_bits)
			fail("stats after RESET", st.outputs, st.source_bits);
	}
}

/* The shared file: others change it under our feet. */
static void shared_round(unsigned long long *s, unsigned char *buf)
{
	unsigned long op = rng_next(s) % 8;
	__u64 v64;
	__u32 v32;
	ssize_t n;
	int r = 0;

	switch (op) {
	case 0:
		v64 = sides_menu[rng_next(s) % 12];
		r = ioctl(shared_fd, FAIRDIE_IOC_SET_SIDES, &v64);
		/* Refused while the shared file uses DIJKSTRA. */
		if (r && errno == EINVAL)
			r = 0;
		break;
	case 1:
		v32 = rng_next(s) % FD_NR_FORMATS;
		r = ioctl(shared_fd, FAIRDIE_IOC_SET_FORMAT, &v32);
		break;
	case 2:
		r = ioctl(shared_fd, FAIRDIE_IOC_RESET);
		atomic_fetch_add(&n_resets, 1);
		break;
	case 3:
		v32 = rng_next(s) % FD_NR_EXTRACTORS;
		r = ioctl(shared_fd, FAIRDIE_IOC_SET_EXTRACTOR, &v32);
		/* DIJKSTRA refuses sides with a large prime factor. */
		if (r && errno == EINVAL && v32 == FAIRDIE_EXT_DIJKSTRA)
			r = 0;
		break;
	default:
		n = read(shared_fd, buf, 1 + rng_next(s) % 65536);
		atomic_fetch_add(&n_reads, 1);
		/* Binary reads may race with a change of width. */
		if (n < 0 && errno != EINVAL)
			fail("shared read", errno, 0);
		if (n > 0)
			atomic_fetch_add(&n_bytes, n);
		return;
	}
	atomic_fetch_add(&n_ioctls, 1);
	if (r)
		fail("shared ioctl", errno, op);
}

static void *worker(void *arg)
{
	unsigned long long s = (unsigned long long)(long)arg * 7919 + getpid();
	unsigned char *buf = malloc(65536 * 8);
	__u64 expect = 0;
	double end = now() + seconds;
	int fd = open("/dev/fairdie", O_RDONLY);

	if (fd < 0 || !buf) {
		fail("open", errno, 0);
		return NULL;
	}
	while (now() < end) {
		if (rng_next(&s) % 2)
			private_round(fd, &s, buf, &expect);
		else
			shared_round(&s, buf);
	}
	close(fd);
	free(buf);
	return NULL;
}

static int run_process(int threads)
{
	pthread_t t[64];
	int i;

	for (i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(long)i);
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("stress: pid %d: %lu reads, %lu bytes, %lu ioctls, %lu resets, %lu errors\n",
	       getpid(), n_reads, n_bytes, n_ioctls, n_resets, n_errors);
	return n_errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	int procs = 2, threads = 4, i, status, bad = 0;
	unsigned char probe[64];

	if (argc > 1)
		seconds = atoi(argv[1]);
	if (argc > 2)
		procs = atoi(argv[2]);
	if (argc > 3)
		threads = atoi(argv[3]);
	if (threads < 1 || threads > 64 || procs < 1 || seconds < 1) {
		fprintf(stderr, "usage: stress [SECONDS [PROCESSES [THREADS]]]\n");
		return 2;
	}
	/* Opened before the fork: parent and children share this file. */
	shared_fd = open("/dev/fairdie", O_RDONLY);
	if (shared_fd < 0) {
		perror("stress: /dev/fairdie");
		return 1;
	}
	for (i = 0; i < procs; i++)
		if (fork() == 0)
			_exit(run_process(threads));
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	/* The device still works as it should. */
	{
		__u64 six = 6;
		__u32 fmt = FAIRDIE_FMT_BINARY;

		ssize_t n = -1;

		if (ioctl(shared_fd, FAIRDIE_IOC_RESET) ||
		    ioctl(shared_fd, FAIRDIE_IOC_SET_SIDES, &six) ||
		    ioctl(shared_fd, FAIRDIE_IOC_SET_FORMAT, &fmt))
			bad++;
		else
			n = read(shared_fd, probe, sizeof(probe));
		/* The rest of a text line the threads left begun comes first. */
		if (n > 0 && n < (ssize_t)sizeof(probe) && probe[n - 1] == '\n')
			n = read(shared_fd, probe, sizeof(probe));
		if (n != sizeof(probe))
			bad++;
		for (i = 0; i < (int)sizeof(probe); i++)
			if (probe[i] >= 6)
				bad++;
	}
	printf("stress: %d processes x %d threads for %d s: %s\n", procs,
	       threads, seconds, bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
