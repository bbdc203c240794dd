// SPDX-License-Identifier: GPL-2.0
/*
 * fdread - binary rolls from /dev/fairdie on stdout, for rngtest and ent.
 *
 * Usage: fdread SIDES EXTRACTOR SOURCE BYTES
 *   EXTRACTOR: vn peres dijkstra none; SOURCE: auto rdseed rdrand crng sim
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fairdie.h>

#include "fd_names.h"

/* The number named @s by @parse, or exit with a usage error. */
static __u32 lookup(int (*parse)(const char *), const char *s)
{
	int i = parse(s);

	if (i < 0) {
		fprintf(stderr, "fdread: unknown name '%s'\n", s);
		exit(2);
	}
	return i;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long left;
	__u64 sides;
	__u32 ext, src;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: fdread SIDES EXTRACTOR SOURCE BYTES\n");
		return 2;
	}
	sides = strtoull(argv[1], NULL, 0);
	ext = lookup(fd_extractor_parse, argv[2]);
	src = lookup(fd_source_parse, argv[3]);
	left = strtoull(argv[4], NULL, 0);
	fd = open("/dev/fairdie", O_RDONLY);
	if (fd < 0 || ioctl(fd, FAIRDIE_IOC_SET_SIDES, &sides) ||
	    ioctl(fd, FAIRDIE_IOC_SET_EXTRACTOR, &ext) ||
	    ioctl(fd, FAIRDIE_IOC_SET_SOURCE, &src)) {
		fprintf(stderr, "fdread: %s\n", strerror(errno));
		return 1;
	}
	while (left) {
		size_t want = left < sizeof(buf) ? left : sizeof(buf);
		ssize_t n = read(fd, buf, want);

		if (n <= 0) {
			fprintf(stderr, "fdread: read: %s\n",
				n ? strerror(errno) : "EOF");
			return 1;
		}
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			return 1;
		left -= n;
	}
	return 0;
}
