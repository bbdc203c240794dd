// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_abi_test - kselftest of the ioctls of /dev/fairdie
 *
 * The device node, GET_INFO, the defaults of a new open file, every SET/GET
 * pair with its validation errors, ioctl numbers and bad arguments, RESET,
 * what a change of configuration discards, the counters, and which state
 * belongs to an open file (shared by dup() and fork(), not by two opens).
 * See fairdie_test.h for what the programs have in common.
 */
#include "fairdie_test.h"

/*
 * Each test gets a new open file. Its defaults (module parameters) are
 * recorded, then it is set to a d6 with von Neumann's extractor, which the
 * tests assume whatever the parameters were.
 */
FIXTURE(fairdie) {
	int fd;
	struct fairdie_info info;
	__u64 def_sides;
	__u32 def_ext;
};

FIXTURE_SETUP(fairdie)
{
	self->fd = fd_open(_metadata, &self->info);
	self->def_sides = get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES);
	self->def_ext = get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR);
	fd_set_d6_vn(_metadata, self->fd);
}

FIXTURE_TEARDOWN(fairdie)
{
	close(self->fd);
}

/* ---- the device node ---- */

TEST_F(fairdie, device_node)
{
	struct stat st;

	ASSERT_EQ(0, fstat(self->fd, &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	ASSERT_EQ(0, stat(DEV_PATH, &st));
	EXPECT_EQ(0444U, st.st_mode & 0777) {
		TH_LOG("mode of %s is %o", DEV_PATH, st.st_mode & 0777);
	}
}

TEST_F(fairdie, open_rdwr_einval)
{
	int fd;

	if (geteuid())
		SKIP(return, "not root: mode 0444 refuses writers before the driver");
	fd = open(DEV_PATH, O_RDWR);

	if (fd >= 0)
		close(fd);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(fairdie, open_wronly_einval)
{
	int fd;

	if (geteuid())
		SKIP(return, "not root: mode 0444 refuses writers before the driver");
	fd = open(DEV_PATH, O_WRONLY);

	if (fd >= 0)
		close(fd);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(fairdie, write_ebadf)
{
	char buf[8] = "1234567";

	ASSERT_EQ(-1, write(self->fd, buf, sizeof(buf)));
	ASSERT_EQ(EBADF, errno);
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, sysfs_directory)
{
	struct stat st;

	ASSERT_EQ(0, stat(SYSFS_DIR, &st)) {
		TH_LOG("%s: %s", SYSFS_DIR, strerror(errno));
	}
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, stat(SYSFS_DIR "/dev", &st));
}

/* ---- GET_INFO and the defaults ---- */

TEST_F(fairdie, info_version)
{
	ASSERT_EQ((__u32)FAIRDIE_ABI_VERSION, self->info.version);
	ASSERT_EQ(1U, self->info.version);
}

TEST_F(fairdie, info_sources)
{
	__u32 must = 1U << FAIRDIE_SRC_AUTO | 1U << FAIRDIE_SRC_CRNG |
		     1U << FAIRDIE_SRC_SIM;

	ASSERT_EQ(must, self->info.sources & must);
	ASSERT_EQ(0U, self->info.sources >> FD_NR_SOURCES);
}

TEST_F(fairdie, info_extractors)
{
	__u32 must = 1U << FAIRDIE_EXT_VN | 1U << FAIRDIE_EXT_NONE;

	ASSERT_EQ(must, self->info.extractors & must);
	ASSERT_EQ(0U, self->info.extractors >> FD_NR_EXTRACTORS);
	TH_LOG("extractors offered: 0x%x", self->info.extractors);
}

TEST_F(fairdie, info_reserved_zero)
{
	struct fairdie_info info;
	size_t i;

	memset(&info, 0xff, sizeof(info));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_INFO, &info));
	for (i = 0; i < ARRAY_SIZE(info.reserved); i++)
		ASSERT_EQ(0U, info.reserved[i]);
	ASSERT_EQ(0, memcmp(&info, &self->info, sizeof(info)));
}

TEST_F(fairdie, default_config)
{
	__u64 sides = 6;
	__u32 ext = FAIRDIE_EXT_VN;
	char buf[64];
	int i;

	if (read_small_file(PARAM_DIR "/sides", buf, sizeof(buf)))
		sides = strtoull(buf, NULL, 0);
	if (read_small_file(PARAM_DIR "/extractor", buf, sizeof(buf))) {
		i = fd_extractor_parse(buf);
		ASSERT_LE(0, i) TH_LOG("extractor parameter '%s'", buf);
		ext = i;
	}
	ASSERT_EQ(sides, self->def_sides);
	ASSERT_EQ(ext, self->def_ext);
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

TEST_F(fairdie, default_sim_coin)
{
	struct fairdie_sim sim;

	memset(&sim, 0xff, sizeof(sim));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(0ULL, sim.seed);
	ASSERT_NE(0ULL, sim.p1_den);
	ASSERT_EQ(sim.p1_den, 2 * sim.p1_num);
}

TEST_F(fairdie, default_stats_zero)
{
	struct fairdie_stats st;

	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.source_bits | st.extracted_bits | st.sampler_bits |
		  st.outputs | st.source_retries | st.source_failures |
		  st.health_failures);
}

TEST_F(fairdie, new_open_has_defaults)
{
	int fd2;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM));
	fd2 = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, fd2);
	EXPECT_EQ(self->def_sides, get_u64(_metadata, fd2, FAIRDIE_IOC_GET_SIDES));
	EXPECT_EQ(self->def_ext, get_u32(_metadata, fd2, FAIRDIE_IOC_GET_EXTRACTOR));
	EXPECT_EQ((__u32)FAIRDIE_FMT_BINARY, get_u32(_metadata, fd2, FAIRDIE_IOC_GET_FORMAT));
	EXPECT_EQ(default_source(self->info.sources),
		  get_u32(_metadata, fd2, FAIRDIE_IOC_GET_SOURCE));
	close(fd2);
}

/* ---- sides ---- */

TEST_F(fairdie, set_sides_zero_einval)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	ASSERT_EQ(EINVAL, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 0));
	ASSERT_EQ(20ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, set_sides_one)
{
	unsigned char buf[4096];
	size_t i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 1));
	ASSERT_EQ(1ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	memset(buf, 0xff, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(0, buf[i]);
}

TEST_F(fairdie, set_sides_max)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, U64_MAX_VAL));
	ASSERT_EQ(U64_MAX_VAL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	read_rolls(_metadata, self->fd, U64_MAX_VAL, 4096, 512, NULL, NULL);
}

TEST_F(fairdie, set_sides_roundtrip)
{
	static const __u64 sides[] = {
		2, 3, 7, 255, 256, 257, 65535, 65536, 65537, 1ULL << 32,
		(1ULL << 32) + 1, 1ULL << 63, U64_MAX_VAL - 1, 6,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides[i]));
		ASSERT_EQ(sides[i], get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	}
}

/* ---- extractor ---- */

TEST_F(fairdie, set_extractor_invalid_einval)
{
	static const __u32 bad[] = { FD_NR_EXTRACTORS, 5, 0x100, 0xffffffffU };
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, bad[i]));
	ASSERT_EQ((__u32)FAIRDIE_EXT_NONE,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
}

TEST_F(fairdie, set_extractor_offered)
{
	__u32 ext;

	for (ext = 0; ext < FD_NR_EXTRACTORS; ext++) {
		if (has_ext(&self->info, ext)) {
			ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
			ASSERT_EQ(ext, get_u32(_metadata, self->fd,
					       FAIRDIE_IOC_GET_EXTRACTOR));
			read_rolls(_metadata, self->fd, 6, 1000, 1000, NULL, NULL);
		} else {
			TH_LOG("extractor %s not offered", fd_extractor_name(ext));
			ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, ext));
		}
	}
}

TEST_F(fairdie, dijkstra_rejects_sides)
{
	static const __u64 bad[] = { 67, 2 * 67, 65537, U64_MAX_VAL };
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, bad[i]));
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
					  FAIRDIE_EXT_DIJKSTRA));
		ASSERT_EQ((__u32)FAIRDIE_EXT_VN,
			  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	}
}

TEST_F(fairdie, dijkstra_set_sides_einval)
{
	static const __u64 bad[] = { 67, 2 * 67, 65537, U64_MAX_VAL };
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 10));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ASSERT_EQ(EINVAL, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, bad[i]));
		ASSERT_EQ(10ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	}
}

TEST_F(fairdie, dijkstra_accepts_smooth_sides)
{
	/* Every prime factor is at most 64. */
	static const __u64 good[] = {
		1, 2, 61, 64, 2 * 3 * 5 * 7 * 11 * 13, 59 * 61, 1ULL << 63,
		3ULL * 3 * 3 * 5 * 7 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37,
	};
	size_t i;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, good[i])) {
			TH_LOG("sides %llu", (unsigned long long)good[i]);
		}
		ASSERT_EQ(good[i], get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
		read_rolls(_metadata, self->fd, good[i], 64, 64, NULL, NULL);
	}
}

/* ---- format ---- */

TEST_F(fairdie, set_format_invalid_einval)
{
	static const __u32 bad[] = { FD_NR_FORMATS, 3, 0xffffffffU };
	size_t i;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, bad[i]));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

TEST_F(fairdie, set_format_roundtrip)
{
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_BINARY));
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
}

/* ---- simulated coin ---- */

TEST_F(fairdie, set_sim_den_zero_einval)
{
	struct fairdie_sim sim;

	ASSERT_EQ(0, set_sim(self->fd, 7, 3, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 0, 0));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 1, 0));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(7ULL, sim.seed);
	ASSERT_EQ(3ULL, sim.p1_num);
	ASSERT_EQ(10ULL, sim.p1_den);
}

TEST_F(fairdie, set_sim_num_gt_den_einval)
{
	struct fairdie_sim sim;

	ASSERT_EQ(0, set_sim(self->fd, 7, 3, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, 11, 10));
	ASSERT_EQ(EINVAL, set_sim(self->fd, 8, U64_MAX_VAL, U64_MAX_VAL - 1));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
	ASSERT_EQ(7ULL, sim.seed);
	ASSERT_EQ(3ULL, sim.p1_num);
	ASSERT_EQ(10ULL, sim.p1_den);
}

TEST_F(fairdie, set_sim_roundtrip)
{
	static const struct fairdie_sim coins[] = {
		{ 0, 0, 1 }, { 1, 1, 1 }, { 42, 7, 10 }, { U64_MAX_VAL, 1, U64_MAX_VAL },
		{ 0x123456789abcdefULL, U64_MAX_VAL, U64_MAX_VAL }, { 5, 999999, 1000000 },
	};
	struct fairdie_sim sim;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(coins); i++) {
		ASSERT_EQ(0, set_sim(self->fd, coins[i].seed, coins[i].p1_num,
				     coins[i].p1_den));
		ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_SIM, &sim));
		ASSERT_EQ(0, memcmp(&coins[i], &sim, sizeof(sim)));
	}
	/* Accepted whatever the source; the source stays what it was. */
	ASSERT_EQ(default_source(self->info.sources),
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

/* ---- ioctl numbers and arguments ---- */

static void expect_enotty(struct __test_metadata *const _metadata, int fd,
			  const unsigned long *cmds, size_t n)
{
	__u64 buf[64];
	size_t i;

	for (i = 0; i < n; i++) {
		memset(buf, 0, sizeof(buf));
		buf[0] = 6;
		ASSERT_EQ(ENOTTY, xioctl(fd, cmds[i], buf)) {
			TH_LOG("command 0x%lx", cmds[i]);
		}
	}
}

TEST_F(fairdie, ioctl_wrong_size_enotty)
{
	static const unsigned long cmds[] = {
		_IOW(FAIRDIE_IOC_MAGIC, 0x01, __u32),
		_IOR(FAIRDIE_IOC_MAGIC, 0x02, __u32),
		_IOW(FAIRDIE_IOC_MAGIC, 0x03, __u64),
		_IOR(FAIRDIE_IOC_MAGIC, 0x04, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x05, __u8),
		_IOR(FAIRDIE_IOC_MAGIC, 0x08, __u16),
		_IOR(FAIRDIE_IOC_MAGIC, 0x00, __u64[2]),
		_IOW(FAIRDIE_IOC_MAGIC, 0x09, __u64[2]),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0a, __u64[4]),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0b, __u64[9]),
		_IOW(FAIRDIE_IOC_MAGIC, 0x0c, __u32),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_wrong_direction_enotty)
{
	static const unsigned long cmds[] = {
		_IOR(FAIRDIE_IOC_MAGIC, 0x01, __u64),
		_IOWR(FAIRDIE_IOC_MAGIC, 0x01, __u64),
		_IO(FAIRDIE_IOC_MAGIC, 0x01),
		_IOW(FAIRDIE_IOC_MAGIC, 0x02, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x00, struct fairdie_info),
		_IOR(FAIRDIE_IOC_MAGIC, 0x03, __u32),
		_IOWR(FAIRDIE_IOC_MAGIC, 0x09, struct fairdie_sim),
		_IOW(FAIRDIE_IOC_MAGIC, 0x0b, struct fairdie_stats),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_unknown_enotty)
{
	static const unsigned long cmds[] = {
		_IO(FAIRDIE_IOC_MAGIC, 0x0d),
		_IOR(FAIRDIE_IOC_MAGIC, 0x0d, __u64),
		_IOW(FAIRDIE_IOC_MAGIC, 0x7f, __u32),
		_IOR(FAIRDIE_IOC_MAGIC, 0xff, __u64),
		_IOR(FAIRDIE_IOC_MAGIC + 1, 0x02, __u64),
		_IOW(FAIRDIE_IOC_MAGIC - 1, 0x01, __u64),
		_IO(0, 0),
	};

	expect_enotty(_metadata, self->fd, cmds, ARRAY_SIZE(cmds));
}

static const unsigned long pointer_cmds[] = {
	FAIRDIE_IOC_GET_INFO, FAIRDIE_IOC_SET_SIDES, FAIRDIE_IOC_GET_SIDES,
	FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_IOC_GET_EXTRACTOR,
	FAIRDIE_IOC_SET_SOURCE, FAIRDIE_IOC_GET_SOURCE, FAIRDIE_IOC_SET_FORMAT,
	FAIRDIE_IOC_GET_FORMAT, FAIRDIE_IOC_SET_SIM, FAIRDIE_IOC_GET_SIM,
	FAIRDIE_IOC_GET_STATS,
};

TEST_F(fairdie, ioctl_null_efault)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pointer_cmds); i++) {
		ASSERT_EQ(EFAULT, xioctl(self->fd, pointer_cmds[i], NULL)) {
			TH_LOG("command 0x%lx", pointer_cmds[i]);
		}
	}
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, ioctl_bad_pointer_efault)
{
	void *bad[2];
	size_t i, j;

	bad[0] = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(bad[0] != MAP_FAILED);
	bad[1] = KERNEL_PTR;
	for (j = 0; j < ARRAY_SIZE(bad); j++) {
		for (i = 0; i < ARRAY_SIZE(pointer_cmds); i++) {
			ASSERT_EQ(EFAULT, xioctl(self->fd, pointer_cmds[i], bad[j])) {
				TH_LOG("command 0x%lx, pointer %p", pointer_cmds[i], bad[j]);
			}
		}
	}
	munmap(bad[0], 4096);
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, reset_any_argument)
{
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, 0UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, 12345UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, ~0UL));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET, KERNEL_PTR));
}

TEST_F(fairdie, reset_keeps_config)
{
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 12));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	ASSERT_EQ(12ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ((__u32)FAIRDIE_EXT_NONE,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	ASSERT_EQ((__u32)FAIRDIE_FMT_TEXT,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ((__u32)FAIRDIE_SRC_CRNG,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_SOURCE));
}

/*
 * Changing extractor or source discards the bits held: the next roll takes
 * new source bits, where without the change it is made from bits already
 * held. Changing sides keeps them (set_sides_keeps_bits).
 */
static void check_discard(struct __test_metadata *const _metadata, int fd,
			  unsigned long cmd, __u32 val, const char *what)
{
	struct fairdie_stats st;
	__u64 before;
	char c;

	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	before = st.source_bits;
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	ASSERT_EQ(before, st.source_bits) TH_LOG("no bits buffered at all");
	ASSERT_EQ(0, cmd == FAIRDIE_IOC_SET_SIDES ? set_u64(fd, cmd, val) :
		  set_u32(fd, cmd, val));
	ASSERT_EQ(1, read(fd, &c, 1));
	get_stats(_metadata, fd, &st);
	ASSERT_LT(before, st.source_bits) TH_LOG("%s kept the buffered bits", what);
}

/*
 * Changing sides keeps the fair bits and the sampler's state: alternating
 * d6 and d100, one roll per read, costs about their entropy (4.614 bits per
 * roll with NONE), not a refill of the pool per change.
 */
TEST_F(fairdie, set_sides_keeps_bits)
{
	struct fairdie_stats st;
	__u64 before;
	char c;
	int i;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 6));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
			     FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
			     FAIRDIE_SRC_CRNG));
	ASSERT_EQ(1, read(self->fd, &c, 1));
	get_stats(_metadata, self->fd, &st);
	before = st.source_bits;
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 100));
	ASSERT_EQ(1, read(self->fd, &c, 1));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(before, st.source_bits) TH_LOG("SET_SIDES dropped the buffered bits");
	for (i = 0; i < 2000; i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES,
				     i % 2 ? 6 : 100));
		ASSERT_EQ(1, read(self->fd, &c, 1));
		ASSERT_LT((unsigned char)c, i % 2 ? 6 : 100);
	}
	get_stats(_metadata, self->fd, &st);
	/* 2000 rolls at 4.614 bits, plus at most one pool refill ahead. */
	ASSERT_LE(st.source_bits - before, (__u64)(2000 * 465 / 100 + 2048))
		TH_LOG("%llu source bits for 2000 mixed rolls",
		       (unsigned long long)(st.source_bits - before));
}

TEST_F(fairdie, set_extractor_discards_bits)
{
	check_discard(_metadata, self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
		      FAIRDIE_EXT_NONE, "SET_EXTRACTOR");
}

TEST_F(fairdie, set_source_discards_bits)
{
	check_discard(_metadata, self->fd, FAIRDIE_IOC_SET_SOURCE,
		      FAIRDIE_SRC_CRNG, "SET_SOURCE");
}

/* ---- statistics counters ---- */

TEST_F(fairdie, stats_reset_zeroes)
{
	struct fairdie_stats st;

	read_rolls(_metadata, self->fd, 6, 5000, 5000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_LT(0ULL, st.source_bits);
	ASSERT_LT(0ULL, st.outputs);
	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_RESET));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.source_bits | st.extracted_bits | st.sampler_bits |
		  st.outputs | st.source_retries | st.source_failures |
		  st.health_failures);
}

TEST_F(fairdie, stats_only_grow)
{
	struct fairdie_stats prev, st;
	int i;

	get_stats(_metadata, self->fd, &prev);
	for (i = 0; i < 20; i++) {
		read_rolls(_metadata, self->fd, 6, 500, 500, NULL, NULL);
		get_stats(_metadata, self->fd, &st);
		ASSERT_LE(prev.source_bits, st.source_bits);
		ASSERT_LE(prev.extracted_bits, st.extracted_bits);
		ASSERT_LE(prev.sampler_bits, st.sampler_bits);
		ASSERT_EQ(prev.outputs + 500, st.outputs);
		ASSERT_LE(prev.source_retries, st.source_retries);
		ASSERT_LE(prev.source_failures, st.source_failures);
		ASSERT_LE(prev.health_failures, st.health_failures);
		prev = st;
	}
	/* Changing the configuration does not clear the counters. */
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(prev.outputs, st.outputs);
}

/* ---- per-open-file state ---- */

TEST_F(fairdie, two_fds_independent)
{
	struct text_check t = { .sides = 1000 };
	struct fairdie_stats st;
	char buf[4000];
	int fd2;

	fd2 = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_u64(fd2, FAIRDIE_IOC_SET_SIDES, 1000));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_u32(fd2, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(6ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ((__u32)FAIRDIE_FMT_BINARY,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_FORMAT));
	ASSERT_EQ((__u32)FAIRDIE_EXT_VN,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	read_rolls(_metadata, self->fd, 6, 4000, 4000, NULL, NULL);
	ASSERT_EQ((ssize_t)sizeof(buf), read(fd2, buf, sizeof(buf)));
	text_feed(&t, buf, sizeof(buf));
	ASSERT_FALSE(t.bad) TH_LOG("%s", t.first_bad);
	read_rolls(_metadata, self->fd, 6, 4000, 4000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(8000ULL, st.outputs);
	get_stats(_metadata, fd2, &st);
	ASSERT_EQ(t.lines, st.outputs - (t.digits ? 1 : 0));
	close(fd2);
}

TEST_F(fairdie, fork_shares_state)
{
	struct fairdie_stats st;
	int status;
	pid_t pid;

	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 20));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		unsigned char buf[100];
		__u64 sides = 0;

		if (ioctl(self->fd, FAIRDIE_IOC_GET_SIDES, &sides) || sides != 20)
			_exit(1);
		sides = 30;
		if (ioctl(self->fd, FAIRDIE_IOC_SET_SIDES, &sides))
			_exit(2);
		if (read(self->fd, buf, sizeof(buf)) != sizeof(buf))
			_exit(3);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(30ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(100ULL, st.outputs);
}

TEST_F(fairdie, dup_shares_state)
{
	int fd2 = dup(self->fd);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_u64(fd2, FAIRDIE_IOC_SET_SIDES, 99));
	ASSERT_EQ(99ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	close(fd2);
}

TEST_HARNESS_MAIN
