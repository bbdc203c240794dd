// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_source_test - kselftest of the sources of /dev/fairdie
 *
 * Which sources the machine offers and AUTO resolves to, selecting them,
 * the simulated coin (reproducible streams), the entropy-feeding hwrng,
 * and the health tests: the failure latch with poll(), and for every
 * extractor which coins end in EIO and which work. See fairdie_test.h for
 * what the programs have in common.
 */
#include "fairdie_test.h"

/* Upper bound of the bytes a health failure may let through, and its time. */
#define HEALTH_MAX_BYTES	(16 * MIB)
#define HEALTH_MAX_MS		1000.0

/* A new open file for each test, a d6 with von Neumann's extractor. */
FD_D6_VN_FIXTURE(fairdie);

/* ---- what the machine offers ---- */

TEST_F(fairdie, sysfs_source)
{
	__u32 src = default_source(self->info.sources);
	char buf[256];

	if (!read_small_file(SYSFS_DIR "/source", buf, sizeof(buf)))
		SKIP(return, "no %s/source attribute", SYSFS_DIR);
	TH_LOG("source: '%s'", buf);
	/* It names the resolved default source, never "auto" alone. */
	ASSERT_TRUE(!!strcasestr(buf, fd_source_name(src)));
	ASSERT_NE(0, strcmp(buf, "auto"));
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

TEST_F(fairdie, default_source_resolved)
{
	__u32 src = get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE);

	TH_LOG("default source: %s", fd_source_name(src));
	ASSERT_NE((__u32)FAIRDIE_SRC_AUTO, src);
	ASSERT_EQ(default_source(self->info.sources), src);
	ASSERT_TRUE(has_src(&self->info, src));
}

/* ---- source ---- */

TEST_F(fairdie, set_source_invalid_einval)
{
	static const __u32 bad[] = { FD_NR_SOURCES, 6, 0x100, 0xffffffffU };
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

	for (src = 0; src < FD_NR_SOURCES; src++) {
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

/*
 * Report the hardware sources in @mask absent through the test build's fault
 * knob (Documentation/admin-guide/fairdie.rst, "Fault injection"), as on a
 * CPU without them. Return: false when the knob does not exist.
 */
static bool fault_absent(__u32 mask)
{
	char val[16];
	int fd = open("/sys/kernel/debug/fairdie/absent", O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	snprintf(val, sizeof(val), "%#x", mask);
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

TEST_F(fairdie, set_source_absent_enodev)
{
	static const __u32 hw[] = { FAIRDIE_SRC_RDSEED, FAIRDIE_SRC_RDRAND };
	struct fairdie_info info = self->info;
	bool tested = false, faked = false;
	size_t i;

	/* On a CPU with both, make them absent as the fault knob allows. */
	if (has_src(&info, hw[0]) && has_src(&info, hw[1])) {
		faked = fault_absent(1u << FAIRDIE_SRC_RDSEED |
				     1u << FAIRDIE_SRC_RDRAND);
		if (!faked)
			SKIP(return, "RDSEED and RDRAND both present, no fault knob: no absent source");
		memset(&info, 0, sizeof(info));
		ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &info));
		ASSERT_FALSE(has_src(&info, hw[0]) || has_src(&info, hw[1]))
			fault_absent(0);
	}
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG))
		fault_absent(0);
	for (i = 0; i < ARRAY_SIZE(hw); i++) {
		if (has_src(&info, hw[i]))
			continue;
		TH_LOG("%s absent%s", fd_source_name(hw[i]),
		       faked ? " (fault knob)" : "");
		ASSERT_EQ(ENODEV, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, hw[i]))
			fault_absent(0);
		ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE))
			fault_absent(0);
		tested = true;
	}
	if (faked) {
		/* AUTO falls back to the CRNG on a CPU without either. */
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
				     FAIRDIE_SRC_AUTO))
			fault_absent(0);
		ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE))
			fault_absent(0);
		ASSERT_TRUE(fault_absent(0));
	}
	ASSERT_TRUE(tested);
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

/*
 * Where two CPUs are online, RDSEED's readers take words the fetcher put
 * in its ring on the other CPU (ahead_words rises; read until it has, as
 * the fetcher may lag on a busy machine and leave the readers to fetch for
 * themselves); with fetch_ahead off, nobody takes any. The rolls are
 * checked as every read of read_rolls() is.
 */
TEST_F(fairdie, rdseed_fetched_ahead)
{
	unsigned long long before, after;
	char was[8];
	int i;

	if (!has_src(&self->info, FAIRDIE_SRC_RDSEED))
		SKIP(return, "no RDSEED on this CPU (GET_INFO lacks the bit)");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU online: nothing is fetched ahead");
	ASSERT_TRUE(read_small_file(PARAM_DIR "/fetch_ahead", was, sizeof(was)));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_RDSEED));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
			     FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 6));

	ASSERT_EQ(0, fetch_ahead_write("1"));
	before = sysfs_u64("ahead_words");
	ASSERT_NE(~0ULL, before);
	/* 20000 d6 rolls take about 800 words; 200 reads at most. */
	for (i = 0; i < 200; i++) {
		read_rolls(_metadata, self->fd, 6, 20000, 20000, NULL, NULL);
		after = sysfs_u64("ahead_words");
		if (after != ~0ULL && after >= before + 512)
			break;
	}
	TH_LOG("fetch_ahead on: %llu words taken from the ring in %d reads",
	       after - before, i + 1);
	EXPECT_GE(after, before + 512);

	ASSERT_EQ(0, fetch_ahead_write("0"));
	before = sysfs_u64("ahead_words");
	read_rolls(_metadata, self->fd, 6, 20000, 20000, NULL, NULL);
	EXPECT_EQ(before, sysfs_u64("ahead_words"));
	ASSERT_EQ(0, fetch_ahead_write(was));
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

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
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
			TH_LOG("extractor %s", fd_extractor_name(ext));
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

/* ---- health latch, poll ---- */

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

/* ---- entropy feeding ---- */

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
 * random.c's trust in the CPU as the command line sets it: the last
 * random.trust_cpu= ('-' or '_') with a value kstrtobool() reads. Without
 * one, the default of Debian's kernels (and of every kernel since 6.2).
 */
static bool trust_cpu(void)
{
	char line[4096], *tok, *save, *v;
	bool trust = true;
	size_t i;

	if (!read_small_file("/proc/cmdline", line, sizeof(line)))
		return false;
	for (tok = strtok_r(line, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, "--"))
			break;
		v = strchr(tok, '=');
		if (!v || v - tok != (int)strlen("random.trust_cpu"))
			continue;
		for (i = 0; tok + i < v; i++)
			if ((tok[i] == '-' ? '_' : tok[i]) != "random.trust_cpu"[i])
				break;
		if (tok + i != v)
			continue;
		v++;
		if (strchr("yYtT1", v[0]) && v[0])
			trust = true;
		else if (strchr("nNfF0", v[0]) && v[0])
			trust = false;
		else if ((v[0] == 'o' || v[0] == 'O') && v[1] &&
			 strchr("nN", v[1]))
			trust = true;
		else if ((v[0] == 'o' || v[0] == 'O') && v[1] &&
			 strchr("fF", v[1]))
			trust = false;
	}
	return trust;
}

/*
 * The entropy feeding hwrng is there when the parameters ask for it, the
 * source exists and random.c trusts the CPU's generator: hwrng=rdseed|rdrand,
 * or auto with RDSEED present.
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
	if (!trust_cpu())
		want = false;
	TH_LOG("hwrng=%s, CPU %strusted: fairdie hwrng %sexpected", param,
	       trust_cpu() ? "" : "not ", want ? "" : "not ");
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

/*
 * The coins, for every extractor: stuck at 1, stuck at 0 and absurdly
 * biased must fail; 1/20 and 19/20, the ends of the range every extractor
 * tolerates, must work. Variants are named <extractor>_<coin>.
 */
#define HEALTH_COIN(name, EXT, num, den, fails_)			\
	FIXTURE_VARIANT_ADD(health, name) {				\
		.ext = FAIRDIE_EXT_##EXT, .p1_num = num, .p1_den = den,	\
		.fails = fails_,					\
	};
#define HEALTH_COINS(ext, EXT)						\
	HEALTH_COIN(ext##_p_one, EXT, 1, 1, true)			\
	HEALTH_COIN(ext##_p_zero, EXT, 0, 1, true)			\
	HEALTH_COIN(ext##_p_999999ppm, EXT, 999999, 1000000, true)	\
	HEALTH_COIN(ext##_p_1_20, EXT, 1, 20, false)			\
	HEALTH_COIN(ext##_p_19_20, EXT, 19, 20, false)

HEALTH_COINS(vn, VN)
HEALTH_COINS(peres, PERES)
HEALTH_COINS(dijkstra, DIJKSTRA)
HEALTH_COINS(none, NONE)

FIXTURE_SETUP(health)
{
	self->fd = fd_open(_metadata, &self->info);
}

FIXTURE_TEARDOWN(health)
{
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
		SKIP(return, "extractor %s not offered", fd_extractor_name(variant->ext));
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

TEST_HARNESS_MAIN
