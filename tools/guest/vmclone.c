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
 * Usage: vmclone [WAIT_SECONDS]
 * Exit status: 0 when vm_forks rose, 1 when it did not within WAIT_SECONDS
 * (default 60; the rolls are printed all the same), 2 on any other failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/fairdie.h>

#include "fd_names.h"

#define VM_FORKS	"/sys/class/misc/fairdie/vm_forks"
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
	int fd[NFILES], hwrng;
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
	show("after", fd, hwrng);
	return after > before ? 0 : 1;
}
