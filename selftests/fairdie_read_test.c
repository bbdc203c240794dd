// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_read_test - kselftest of reads from /dev/fairdie
 *
 * Binary rolls (widths, lengths, faults), text rolls (lines cut anywhere),
 * switching formats, non-blocking, large, interrupted and concurrent
 * reads. See fairdie_test.h for what the programs have in common.
 */
#include "fairdie_test.h"

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

/* A new open file for each test, a d6 with von Neumann's extractor. */
FD_D6_VN_FIXTURE(fairdie);

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

		ASSERT_EQ(w, fd_roll_width(sides));
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides));
		/* An odd number of rolls leaves a part-used state behind. */
		ASSERT_EQ((ssize_t)(63 * w), read(self->fd, buf, 63 * w)) {
			TH_LOG("sides %llu, width %zu: %s", (unsigned long long)sides,
			       w, strerror(errno));
		}
		for (j = 0; j < 63; j++)
			ASSERT_LT(fd_get_roll(buf + j * w, w), sides);
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
		w = fd_roll_width(sides[i]);
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
		ssize_t n;

		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
		ASSERT_EQ(1 + i % 3, read(self->fd, text, 1 + i % 3));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_BINARY));
		/* The rest of a line already begun comes first, alone. */
		if (text[i % 3] != '\n') {
			n = read(self->fd, buf, sizeof(buf));
			ASSERT_LT(0, n);
			ASSERT_EQ('\n', buf[n - 1]);
		}
		read_rolls(_metadata, self->fd, 1000, 512, 512, NULL, NULL);
	}
	/* And back: the text starts on a line of its own. */
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	ASSERT_TRUE(buf[0] >= '1' && buf[0] <= '9');
}

/* ---- what reads count ---- */

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

/* ---- non-blocking, large, interrupted and concurrent reads ---- */

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
			TH_LOG("source %s: %s", fd_source_name(srcs[i]), strerror(errno));
		}
	}
	close(fd);
}

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

TEST_HARNESS_MAIN
