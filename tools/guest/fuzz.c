// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz - hostile input for /dev/fairdie.
 *
 * Usage: fuzz [ITERATIONS [SEED]]   (default 200000 1)
 *
 * ioctls: random command numbers, and every direction, size and number
 * around fairdie's own magic, with random payloads and bad pointers (NULL,
 * unmapped, kernel addresses, a page boundary). read/write: random lengths,
 * bad and partly bad buffers, O_NONBLOCK, writes. Only documented errors may
 * come back (ENOTTY, EINVAL, EFAULT, ENODEV for ioctls; EINVAL, EFAULT, EIO,
 * EAGAIN for reads; EBADF for writes), and afterwards the device must still
 * roll valid dice. The kernel log is checked by the VM bench.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/fairdie.h>

static unsigned long long state;

static unsigned long long rnd(void)
{
	unsigned long long z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long bad_errors;

static void report_unexpected(const char *what, unsigned long cmd, int err)
{
	if (bad_errors++ < 20)
		fprintf(stderr, "fuzz: %s 0x%lx: unexpected %s\n", what, cmd,
			strerror(err));
}

int main(int argc, char **argv)
{
	long iterations = argc > 1 ? atol(argv[1]) : 200000, i;
	unsigned char *page, *edge, buf[4096];
	unsigned long ioctls = 0, reads = 0, writes = 0;
	long ps = sysconf(_SC_PAGESIZE);
	int fd, fds[4], k;

	state = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	/* Two pages, the second unmapped: a buffer that runs off the end. */
	page = mmap(NULL, 2 * ps, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	munmap(page + ps, ps);
	edge = page + ps - 16;

	for (k = 0; k < 4; k++) {
		fds[k] = open("/dev/fairdie", k % 2 ? O_RDONLY | O_NONBLOCK :
							O_RDONLY);
		if (fds[k] < 0) {
			perror("fuzz: /dev/fairdie");
			return 1;
		}
	}

	for (i = 0; i < iterations; i++) {
		unsigned long long r = rnd();
		unsigned long cmd;
		void *arg;
		ssize_t n;

		fd = fds[r & 3];
		switch ((r >> 2) % 8) {
		case 0:	/* anything at all */
			cmd = (unsigned long)rnd();
			break;
		case 1: case 2: case 3: case 4:	/* near our own numbers */
			cmd = _IOC((rnd() % 4), FAIRDIE_IOC_MAGIC, rnd() % 32,
				   rnd() % 64);
			break;
		default: /* a read or a write instead */
			cmd = 0;
			break;
		}
		switch ((r >> 8) % 6) {
		case 0:
			arg = NULL;
			break;
		case 1:
			arg = (void *)(unsigned long)(rnd() | 0xffff800000000000ULL);
			break;
		case 2:
			arg = edge;
			break;
		case 3:
			arg = page + ps;	/* unmapped */
			break;
		default:
			for (k = 0; k < 64; k++)
				buf[k] = rnd();
			/* Mostly small, sane values, so SETs succeed too. */
			if (rnd() % 2)
				memset(buf + 1, 0, 63);
			arg = buf;
			break;
		}

		if (cmd) {
			ioctls++;
			if (ioctl(fd, cmd, arg) == 0)
				continue;
			if (errno != ENOTTY && errno != EINVAL &&
			    errno != EFAULT && errno != ENODEV)
				report_unexpected("ioctl", cmd, errno);
			continue;
		}
		if ((r >> 12) % 8 == 0) {
			writes++;
			n = write(fd, arg, rnd() % 64);
			if (n >= 0 || errno != EBADF)
				report_unexpected("write", 0, n >= 0 ? 0 : errno);
			continue;
		}
		reads++;
		n = read(fd, arg == buf ? (void *)buf : arg, rnd() % 128);
		if (n < 0 && errno != EINVAL && errno != EFAULT &&
		    errno != EIO && errno != EAGAIN)
			report_unexpected("read", 0, errno);
		if (n < 0 && errno == EIO)
			ioctl(fd, FAIRDIE_IOC_RESET);
	}

	/* Still a working die. */
	for (k = 0; k < 4; k++) {
		__u64 six = 6;
		__u32 zero = 0, crng = FAIRDIE_SRC_CRNG;

		if (ioctl(fds[k], FAIRDIE_IOC_RESET) ||
		    ioctl(fds[k], FAIRDIE_IOC_SET_SIDES, &six) ||
		    ioctl(fds[k], FAIRDIE_IOC_SET_EXTRACTOR, &zero) ||
		    ioctl(fds[k], FAIRDIE_IOC_SET_SOURCE, &crng) ||
		    ioctl(fds[k], FAIRDIE_IOC_SET_FORMAT, &zero) ||
		    read(fds[k], buf, 600) != 600) {
			report_unexpected("final check", k, errno);
			continue;
		}
		for (i = 0; i < 600; i++)
			if (buf[i] >= 6)
				report_unexpected("final value", buf[i], 0);
	}
	printf("fuzz: %lu ioctls, %lu reads, %lu writes, %lu unexpected\n",
	       ioctls, reads, writes, bad_errors);
	return bad_errors ? 1 : 0;
}
