// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_fault_test - the hardware sources under injected faults
 *
 * Needs the module built with FAIRDIE_FAULT=1 (the VM test build), whose
 * knobs live in /sys/kernel/debug/fairdie/ (Documentation/admin-guide,
 * "Fault injection"); debugfs is mounted if it is not. Each test starts and
 * ends with every fault off. RDRAND is used (RDSEED where there is no
 * RDRAND): the faults act on both alike.
 *
 *   underflow   a short underflow is waited out; a nonblocking read gets
 *               EAGAIN; a silent source fails with EIO after about a
 *               second, without latching; a signal ends the wait; a
 *               reader starved for 3 s while another is served waits and
 *               does not fail
 *   stuck/zeros a stuck word and zeros with CF=1 fail the health tests
 *               within the documented 1088 bits, for every extractor; the
 *               file is told once (EIO), fails again while the source is
 *               bad, and reads on without RESET once it is good
 *   bias        P(1) = 5/8 and 9/10: VN, PERES and DIJKSTRA keep working
 *               and stay uniform; NONE fails
 *   device      the device-wide health and counters follow hardware
 *               failures, not the simulated coin's, and only hardware
 *               failures are logged
 *   hwrng       a failed hwrng source delivers nothing for its 10 s back-off
 *               and then recovers; an underflowing one makes /dev/hwrng
 *               readers wait, interruptibly, and is no failure; under
 *               contention one call of the driver waits 10 ms in all, not
 *               10 ms a word, and refills what the core asked for
 */
#include <sys/klog.h>

#include "fairdie_test.h"

#define HWRNG_DEV	"/dev/hwrng"
#define HWRNG_SYSFS	"/sys/class/misc/hw_random"
/* The most raw bits a stuck source may pass: 17 words (admin guide). */
#define STUCK_MAX_BITS	1088ULL

static const __u32 all_exts[] = {
	FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES, FAIRDIE_EXT_DIJKSTRA, FAIRDIE_EXT_NONE,
};

static void faults_off(struct __test_metadata *const _metadata)
{
	ASSERT_EQ(0, knob_write("underflow_ms", "0"));
	ASSERT_EQ(0, knob_write("starve_pid", "0"));
	ASSERT_EQ(0, knob_write("flaky", "0"));
	ASSERT_EQ(0, knob_write("stuck", "0"));
	ASSERT_EQ(0, knob_write("zeros", "0"));
	ASSERT_EQ(0, knob_write("bias", "0"));
	ASSERT_EQ(0, knob_write("sources", "0x6"));
	if (have_fault_knob("ahead_lag"))
		ASSERT_EQ(0, knob_write("ahead_lag", "0"));
}

static void sysfs_str(const char *name, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", SYSFS_DIR, name);
	if (!read_small_file(path, buf, size))
		snprintf(buf, size, "?");
}

/* Lines of the kernel log that contain @what. */
static int klog_count(const char *what)
{
	int size = klogctl(10, NULL, 0), n, count = 0;	/* SIZE_BUFFER */
	char *buf, *p;

	if (size <= 0)
		return -1;
	buf = malloc(size + 1);
	if (!buf)
		return -1;
	n = klogctl(3, buf, size);			/* READ_ALL */
	if (n < 0) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	for (p = buf; (p = strstr(p, what)); p++)
		count++;
	free(buf);
	return count;
}

FIXTURE(fault) {
	int fd;
	struct fairdie_info info;
	__u32 src;
};

FIXTURE_SETUP(fault)
{
	self->fd = fd_open(_metadata, &self->info);
	ASSERT_TRUE(have_fault_knob("")) {
		TH_LOG("%s: the module was not built with FAIRDIE_FAULT=1",
		       FAULT_DIR);
	}
	if (has_src(&self->info, FAIRDIE_SRC_RDRAND))
		self->src = FAIRDIE_SRC_RDRAND;
	else if (has_src(&self->info, FAIRDIE_SRC_RDSEED))
		self->src = FAIRDIE_SRC_RDSEED;
	else
		SKIP(return, "no hardware source on this CPU");
	faults_off(_metadata);
}

FIXTURE_TEARDOWN(fault)
{
	faults_off(_metadata);
	close(self->fd);
}

/* @fd reads the hardware source through @ext, a die of @sides. */
static void hw_config(struct __test_metadata *const _metadata, int fd,
		      __u32 src, __u32 ext, __u64 sides)
{
	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, sides));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, src));
	ASSERT_EQ(0, ioctl(fd, FAIRDIE_IOC_RESET));
}

/* ---- words fetched ahead on another CPU ---- */

/*
 * A fetcher that delivers nothing (ahead_lag: its CPU taken) must not hold
 * its readers: each gives up waiting within the bound (ahead_lags rises),
 * fetches for itself, and its read completes.
 */
TEST_F_TIMEOUT(fault, ahead_lagging_fetcher_is_left, 60)
{
	unsigned long long lags, words, bits;
	char was[8];

	if (!has_src(&self->info, FAIRDIE_SRC_RDSEED))
		SKIP(return, "no RDSEED on this CPU");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: nothing is fetched ahead");
	ASSERT_TRUE(have_fault_knob("ahead_lag"));
	ASSERT_TRUE(read_small_file(PARAM_DIR "/fetch_ahead", was, sizeof(was)));
	ASSERT_EQ(0, fetch_ahead_write("1"));
	hw_config(_metadata, self->fd, FAIRDIE_SRC_RDSEED, FAIRDIE_EXT_NONE, 6);
	ASSERT_EQ(0, knob_write("ahead_lag", "1"));
	lags = sysfs_u64("ahead_lags");
	words = sysfs_u64("ahead_words");
	bits = sysfs_u64("source_bits");
	ASSERT_NE(~0ULL, lags);
	read_rolls(_metadata, self->fd, 6, 100000, 20000, NULL, NULL);
	TH_LOG("fetcher lagging: %llu waits given up, %llu words from the ring, %llu source bits",
	       sysfs_u64("ahead_lags") - lags, sysfs_u64("ahead_words") - words,
	       sysfs_u64("source_bits") - bits);
	EXPECT_GT(sysfs_u64("ahead_lags"), lags);
	/* What the ring held before is all it gave: the rest was fetched. */
	EXPECT_LE(sysfs_u64("ahead_words") - words, 512ULL);
	EXPECT_GE(sysfs_u64("source_bits") - bits, 100000ULL * 2);
	ASSERT_EQ(0, knob_write("ahead_lag", "0"));
	ASSERT_EQ(0, fetch_ahead_write(was));
}

/* ---- underflow: the retry policy ---- */

/*
 * Take what the file's well already holds, without waiting, while the
 * source underflows for this process: the next read must then wait for the
 * source. Bounded by what a well and a file hold.
 */
static size_t drain(int fd)
{
	int flags = fcntl(fd, F_GETFL);
	static char buf[WELL_MAX_BITS];
	size_t total = 0;
	ssize_t n;

	/* One read takes it all, the next one finds the source dry. */
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	while (total < 4 * sizeof(buf) &&
	       (n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	fcntl(fd, F_SETFL, flags);
	return total;
}

TEST_F(fault, underflow_brief_is_waited_out)
{
	struct fairdie_stats st;
	unsigned char buf[64];
	double t0, ms;

	hw_config(_metadata, self->fd, self->src, FAIRDIE_EXT_NONE, 256);
	ASSERT_EQ(0, knob_write("underflow_ms", "300"));
	drain(self->fd);
	t0 = now_ms();
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	ms = now_ms() - t0;
	get_stats(_metadata, self->fd, &st);
	TH_LOG("read after %.0f ms, %llu retries", ms,
	       (unsigned long long)st.source_retries);
	ASSERT_LE(200.0, ms);
	ASSERT_LT(0ULL, st.source_retries);
	ASSERT_EQ(0ULL, st.source_failures | st.health_failures);
}

TEST_F(fault, underflow_nonblock_eagain)
{
	unsigned char buf[64];
	int fd;

	fd = open(DEV_PATH, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	hw_config(_metadata, fd, self->src, FAIRDIE_EXT_NONE, 256);
	ASSERT_EQ(0, knob_write("underflow_ms", "10000"));
	/* What the well holds comes first, then EAGAIN. */
	ASSERT_GE((size_t)WELL_MAX_BITS / 8 + 2048, drain(fd));
	ASSERT_EQ(-1, read(fd, buf, sizeof(buf)));
	ASSERT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, knob_write("underflow_ms", "0"));
	ASSERT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
	close(fd);
}

TEST_F_TIMEOUT(fault, underflow_silent_fails_after_a_second, 60)
{
	unsigned long long before = sysfs_u64("source_failures");
	struct fairdie_stats st;
	unsigned char buf[64];
	double t0, ms;

	hw_config(_metadata, self->fd, self->src, FAIRDIE_EXT_VN, 6);
	ASSERT_EQ(0, knob_write("underflow_ms", "30000"));
	drain(self->fd);
	t0 = now_ms();
	ASSERT_EQ(-1, read(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EIO, errno);
	ms = now_ms() - t0;
	get_stats(_metadata, self->fd, &st);
	TH_LOG("EIO after %.0f ms, %llu retries", ms,
	       (unsigned long long)st.source_retries);
	/* A second of silence (on a clock of a tick's resolution), a nap. */
	ASSERT_LE(950.0, ms);
	ASSERT_GT(3000.0, ms);
	ASSERT_EQ(1ULL, st.source_failures);
	ASSERT_EQ(0ULL, st.health_failures);
	ASSERT_EQ(before + 1, sysfs_u64("source_failures"));
	/* Silence is no health failure: nothing latched. */
	ASSERT_EQ(0, poll_events(self->fd) & POLLERR);
	ASSERT_EQ(0, knob_write("underflow_ms", "0"));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
}

static void fault_alarm(int sig)
{
	(void)sig;
}

TEST_F_TIMEOUT(fault, underflow_wait_interrupted, 60)
{
	struct sigaction sa = { .sa_handler = fault_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 200000 } };
	unsigned char buf[64];
	double t0, ms;
	ssize_t n;
	int err;

	/* A handler without SA_RESTART, so that read() returns EINTR. */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	hw_config(_metadata, self->fd, self->src, FAIRDIE_EXT_NONE, 256);
	ASSERT_EQ(0, knob_write("underflow_ms", "30000"));
	drain(self->fd);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	t0 = now_ms();
	n = read(self->fd, buf, sizeof(buf));
	err = errno;
	ms = now_ms() - t0;
	TH_LOG("read returned %zd (%s) after %.0f ms", n, strerror(err), ms);
	ASSERT_EQ(-1, n);
	ASSERT_EQ(EINTR, err);
	ASSERT_GT(900.0, ms);
}

/*
 * Contention: this process gets nothing from the instruction for 3 s while
 * another reader is served all along. Its blocking read waits its turn and
 * never fails (silence alone fails after a second, as above).
 */
TEST_F_TIMEOUT(fault, contention_does_not_fail, 60)
{
	unsigned char buf[64];
	char pid[32];
	pid_t hammer, releaser;
	double t0, ms;
	int status;
	ssize_t n;

	hw_config(_metadata, self->fd, self->src, FAIRDIE_EXT_NONE, 256);
	snprintf(pid, sizeof(pid), "%d", getpid());
	ASSERT_EQ(0, knob_write("starve_pid", pid));
	drain(self->fd);
	hammer = fork();
	ASSERT_LE(0, hammer);
	if (!hammer) {
		static unsigned char big[4096];
		int fd = open(DEV_PATH, O_RDONLY);
		double end = now_ms() + 5000;

		if (fd < 0 || set_u32(fd, FAIRDIE_IOC_SET_SOURCE, self->src))
			_exit(1);
		while (now_ms() < end)
			if (read(fd, big, sizeof(big)) != (ssize_t)sizeof(big))
				_exit(2);
		_exit(0);
	}
	releaser = fork();
	ASSERT_LE(0, releaser);
	if (!releaser) {
		usleep(3000000);
		_exit(knob_write("starve_pid", "0") ? 1 : 0);
	}
	t0 = now_ms();
	n = read(self->fd, buf, sizeof(buf));
	ms = now_ms() - t0;
	TH_LOG("starved reader: %zd bytes after %.0f ms", n, ms);
	ASSERT_EQ((ssize_t)sizeof(buf), n) TH_LOG("%s", strerror(errno));
	ASSERT_LE(2500.0, ms);
	ASSERT_EQ(releaser, waitpid(releaser, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(hammer, waitpid(hammer, &status, 0));
	ASSERT_EQ(0, status) TH_LOG("the served reader failed");
}

/* ---- stuck words and zeros: the health latch ---- */

static void latch_case(struct __test_metadata *const _metadata, int fd,
		       __u32 src, const char *knob)
{
	unsigned long long dev_before = sysfs_u64("health_failures");
	int log_before = klog_count("source failed the");
	unsigned long long bits;
	struct fairdie_stats st;
	char health[64];
	unsigned char c;
	size_t i, bytes;
	int err;

	for (i = 0; i < ARRAY_SIZE(all_exts); i++) {
		hw_config(_metadata, fd, src, all_exts[i], 6);
		ASSERT_EQ(0, knob_write(knob, "1"));
		bytes = read_until_error(fd, MIB, &err);
		get_stats(_metadata, fd, &st);
		TH_LOG("%s, %s: EIO after %zu bytes, %llu source bits", knob,
		       fd_extractor_names()[all_exts[i]], bytes,
		       (unsigned long long)st.source_bits);
		ASSERT_EQ(EIO, err);
		/*
		 * Rolls of the fair bits the well held already may come
		 * first (a d6 roll takes more than 2 of them), charged at
		 * what they cost, at most 16 raw bits per fair bit; a stuck
		 * word is caught within 17 words of the chunk that brought
		 * it.
		 */
		ASSERT_GE((size_t)WELL_MAX_BITS / 2, bytes);
		ASSERT_GE(STUCK_MAX_BITS + WELL_CHUNK_BITS + 16 * 8 * bytes,
			  st.source_bits);
		ASSERT_EQ(1ULL, st.health_failures);
		/*
		 * Told once: the read that returned EIO leaves the file
		 * unlatched (poll() no longer says EPOLLERR), while the
		 * device's health counts it until it reads again.
		 */
		ASSERT_EQ(0, poll_events(fd) & POLLERR);
		sysfs_str("health", health, sizeof(health));
		ASSERT_EQ(0, strcmp(health, "failed 1")) TH_LOG("health: %s", health);
		/* The hwrng (kernel thread) may have failed meanwhile too. */
		ASSERT_LE(dev_before + 2 * i + 1, sysfs_u64("health_failures"));

		/*
		 * Still bad: the next read restarts the well, whose fresh
		 * start-up test fails again within its bounded words.
		 */
		bits = st.source_bits;
		ASSERT_EQ(-1, read(fd, &c, 1));
		ASSERT_EQ(EIO, errno);
		get_stats(_metadata, fd, &st);
		TH_LOG("%s, %s: EIO again after %llu more source bits", knob,
		       fd_extractor_names()[all_exts[i]],
		       (unsigned long long)(st.source_bits - bits));
		ASSERT_EQ(2ULL, st.health_failures);
		ASSERT_GE(STUCK_MAX_BITS + WELL_CHUNK_BITS, st.source_bits - bits);
		ASSERT_LE(dev_before + 2 * i + 2, sysfs_u64("health_failures"));

		/* Good again: the file reads on, with no RESET. */
		ASSERT_EQ(0, knob_write(knob, "0"));
		read_rolls(_metadata, fd, 6, 1000, 1000, NULL, NULL);
		sysfs_str("health", health, sizeof(health));
		ASSERT_EQ(0, strcmp(health, "ok")) TH_LOG("health: %s", health);
		get_stats(_metadata, fd, &st);
		ASSERT_EQ(2ULL, st.health_failures);
	}
	/* A hardware failure is worth a (rate-limited) warning. */
	if (log_before >= 0)
		ASSERT_LT(log_before, klog_count("source failed the"));
}

TEST_F_TIMEOUT(fault, stuck_word_latches, 60)
{
	latch_case(_metadata, self->fd, self->src, "stuck");
}

TEST_F_TIMEOUT(fault, zeros_with_carry_latch, 60)
{
	latch_case(_metadata, self->fd, self->src, "zeros");
}

/* ---- biased hardware: the calibrated cutoffs ---- */

static void bias_case(struct __test_metadata *const _metadata, int fd,
		      __u32 src, const char *bias)
{
	__u64 counts[6];
	struct fairdie_stats st;
	unsigned char *buf;
	size_t n = 400000, i, ones = 0, bytes;
	double z;
	int err;

	ASSERT_EQ(0, knob_write("bias", bias));

	/* Von Neumann: fair coin flips, and no false alarm. */
	hw_config(_metadata, fd, src, FAIRDIE_EXT_VN, 2);
	buf = malloc(n);
	ASSERT_TRUE(!!buf);
	ASSERT_EQ((ssize_t)n, read(fd, buf, n)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < n; i++)
		ones += buf[i];
	free(buf);
	z = (ones - n / 2.0) / sqrt(n / 4.0);
	get_stats(_metadata, fd, &st);
	TH_LOG("P(1) = %s, vn: %zu of %zu flips are 1 (%.2f sd), %llu source bits",
	       bias, ones, n, z, (unsigned long long)st.source_bits);
	ASSERT_GT(5.0, fabs(z));
	ASSERT_EQ(0ULL, st.health_failures);

	/* Peres and Dijkstra: uniform d6, no false alarm. */
	for (i = 0; i < 2; i++) {
		__u32 ext = i ? FAIRDIE_EXT_DIJKSTRA : FAIRDIE_EXT_PERES;

		memset(counts, 0, sizeof(counts));
		hw_config(_metadata, fd, src, ext, 6);
		read_rolls(_metadata, fd, 6, 60000, 10000, counts, NULL);
		check_uniform(_metadata, counts, 6, fd_extractor_names()[ext]);
		get_stats(_metadata, fd, &st);
		ASSERT_EQ(0ULL, st.health_failures);
	}

	/* No extractor: the bias would reach the output, so it fails. */
	hw_config(_metadata, fd, src, FAIRDIE_EXT_NONE, 256);
	bytes = read_until_error(fd, 16 * MIB, &err);
	get_stats(_metadata, fd, &st);
	TH_LOG("P(1) = %s, none: EIO after %zu bytes, %llu source bits", bias,
	       bytes, (unsigned long long)st.source_bits);
	ASSERT_EQ(EIO, err);
	ASSERT_EQ(1ULL, st.health_failures);
}

TEST_F_TIMEOUT(fault, bias_5_8, 120)
{
	bias_case(_metadata, self->fd, self->src, "5/8");
}

TEST_F_TIMEOUT(fault, bias_9_10, 120)
{
	bias_case(_metadata, self->fd, self->src, "9/10");
}

/* ---- the device-wide view: hardware only ---- */

TEST_F(fault, sim_failure_is_the_files_own)
{
	unsigned long long dev_before = sysfs_u64("health_failures");
	unsigned long long outputs_before = sysfs_u64("outputs");
	int log_before = klog_count("source failed the");
	struct fairdie_stats st;
	char health[64];
	size_t bytes;
	int err;

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 6, 3, 0, 1);
	bytes = read_until_error(self->fd, MIB, &err);
	ASSERT_EQ(EIO, err);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("sim p = 0: EIO after %zu bytes", bytes);
	ASSERT_EQ(1ULL, st.health_failures);
	sysfs_str("health", health, sizeof(health));
	ASSERT_EQ(0, strcmp(health, "ok")) TH_LOG("health: %s", health);
	ASSERT_EQ(dev_before, sysfs_u64("health_failures"));
	ASSERT_EQ(log_before, klog_count("source failed the"));
	/* The coin's rolls are not the device's either. */
	ASSERT_EQ(0, set_sim(self->fd, 4, 1, 2));
	read_rolls(_metadata, self->fd, 6, 10000, 10000, NULL, NULL);
	ASSERT_EQ(outputs_before, sysfs_u64("outputs"));
}

/* ---- the hwrng ---- */

/* Make fairdie the current hwrng; false when it is not registered. */
static bool hwrng_ours(void)
{
	char buf[64];
	int fd;

	sysfs_str("hwrng", buf, sizeof(buf));
	if (!strcmp(buf, "off") || !strcmp(buf, "?"))
		return false;
	fd = open(HWRNG_SYSFS "/rng_current", O_WRONLY);
	if (fd < 0)
		return false;
	if (write(fd, "fairdie", 7) != 7) {
		close(fd);
		return false;
	}
	close(fd);
	return read_small_file(HWRNG_SYSFS "/rng_current", buf, sizeof(buf)) &&
	       !strcmp(buf, "fairdie");
}

/*
 * Wait out a back-off that an earlier fault may have caused (the kernel's
 * hwrng thread reads now and then, biased or stuck words included), until
 * a read of @fd delivers.
 */
static bool hwrng_wait_ok(int fd)
{
	unsigned char buf[32];
	int i;

	for (i = 0; i < 30; i++) {
		if (read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf))
			return true;
		usleep(500000);
	}
	return false;
}

TEST_F_TIMEOUT(fault, hwrng_backoff, 90)
{
	unsigned char buf[32];
	char state[64];
	double t0, ms;
	size_t bytes;
	int fd, err;
	ssize_t n;

	if (!hwrng_ours())
		SKIP(return, "the module feeds no hwrng (hwrng=off)");
	fd = open(HWRNG_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(hwrng_wait_ok(fd));

	/* A stuck source: the pipeline fails and stops delivering. */
	ASSERT_EQ(0, knob_write("stuck", "1"));
	bytes = read_until_error(fd, MIB, &err);
	t0 = now_ms();
	sysfs_str("hwrng", state, sizeof(state));
	TH_LOG("hwrng: %s after %zu more bytes", state, bytes);
	ASSERT_EQ(EIO, err);
	ASSERT_TRUE(strstr(state, "failed") != NULL);

	/* The source is good again, but the back-off holds for 10 s. */
	ASSERT_EQ(0, knob_write("stuck", "0"));
	ASSERT_EQ(-1, read(fd, buf, sizeof(buf)));
	ASSERT_EQ(EIO, errno);
	while ((ms = now_ms() - t0) < 9000.0) {
		usleep(500000);
		n = read(fd, buf, sizeof(buf));
		if (n > 0)
			break;
	}
	TH_LOG("nothing delivered for %.0f ms after the failure", ms);
	ASSERT_LE(9000.0, ms);

	/*
	 * Then it restarts, with a fresh start-up test: within seconds, on a
	 * debug kernel under TCG too.
	 */
	ASSERT_TRUE(hwrng_wait_ok(fd)) {
		sysfs_str("hwrng", state, sizeof(state));
		TH_LOG("nothing delivered %.0f ms after the failure: %s (%s)",
		       now_ms() - t0, state, strerror(errno));
	}
	sysfs_str("hwrng", state, sizeof(state));
	ASSERT_TRUE(strstr(state, "ok") != NULL) TH_LOG("hwrng: %s", state);
	close(fd);
}

TEST_F_TIMEOUT(fault, hwrng_underflow_waits_interruptibly, 60)
{
	struct sigaction sa = { .sa_handler = fault_alarm };	/* no SA_RESTART */
	struct itimerval it = { .it_value = { .tv_usec = 500000 } };
	unsigned char buf[4096];
	char state[64];
	double t0, ms;
	ssize_t n;
	int fd, err;

	if (!hwrng_ours())
		SKIP(return, "the module feeds no hwrng (hwrng=off)");
	fd = open(HWRNG_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(hwrng_wait_ok(fd));
	close(fd);
	ASSERT_EQ(0, knob_write("underflow_ms", "30000"));
	fd = open(HWRNG_DEV, O_RDONLY | O_NONBLOCK);
	ASSERT_LE(0, fd);
	/* Whatever the pipeline holds, then nothing now. */
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	ASSERT_EQ(EAGAIN, errno);
	close(fd);

	/*
	 * Blocking: each call of the driver waits at most 10 ms and gives
	 * the core nothing, so the core, which drops its mutex between
	 * calls, sees the signal at once. An underflow is no failure.
	 */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	fd = open(HWRNG_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	t0 = now_ms();
	n = read(fd, buf, sizeof(buf));
	err = errno;
	ms = now_ms() - t0;
	TH_LOG("blocking /dev/hwrng: %zd (%s) after %.0f ms", n, strerror(err), ms);
	ASSERT_EQ(-1, n);
	ASSERT_EQ(EINTR, err);
	ASSERT_GT(1500.0, ms);
	sysfs_str("hwrng", state, sizeof(state));
	ASSERT_TRUE(strstr(state, "ok") != NULL) TH_LOG("hwrng: %s", state);

	/* The source back, the read goes through. */
	ASSERT_EQ(0, knob_write("underflow_ms", "0"));
	ASSERT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
	close(fd);
}

/*
 * Under contention (only one try in 100 succeeds, so that every word costs
 * a nap of a tick or two), a read of 8 bytes from /dev/hwrng returns in
 * tens of milliseconds: one call of the driver waits 10 ms in all (plus a
 * nap) and refills what the core asked for (64 bytes on x86). A read may
 * take a few calls, and wait for a call of the core's own thread: 250 ms
 * leaves room for a slow guest under TCG (the longest seen: 94 ms). A
 * 10 ms budget per word and a refill of 2048 fair bits, some 128 words,
 * made one call take over a second (1548 ms), while the core's reading
 * mutex was held.
 */
TEST_F_TIMEOUT(fault, hwrng_read_deadline, 120)
{
	unsigned char buf[8];
	double t0, ms, worst = 0, total = 0;
	int fd, i;

	if (!hwrng_ours())
		SKIP(return, "the module feeds no hwrng (hwrng=off)");
	fd = open(HWRNG_DEV, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(hwrng_wait_ok(fd));
	ASSERT_EQ(0, knob_write("flaky", "100"));
	/* 4096 bits: more than the pipeline and the core hold beforehand. */
	for (i = 0; i < 64; i++) {
		t0 = now_ms();
		ASSERT_EQ((ssize_t)sizeof(buf), read(fd, buf, sizeof(buf)));
		ms = now_ms() - t0;
		total += ms;
		if (ms > worst)
			worst = ms;
	}
	TH_LOG("64 reads of 8 bytes under contention: %.0f ms in all, the longest %.0f ms",
	       total, worst);
	ASSERT_GT(250.0, worst);
	close(fd);
}

TEST_HARNESS_MAIN
