// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_raw_test - the evidence interfaces: FAIRDIE_IOC_GET_RAW, and the
 * fault build's modulo_bias knob that a certification report must catch
 *
 *   root only   EPERM for root without CAP_SYS_ADMIN and for nobody
 *   arguments   EINVAL for a count of 0 or above FAIRDIE_RAW_MAX_WORDS and
 *               for unknown flags; ENODEV for the kernel CRNG; EFAULT
 *   sim         the simulated coin's words are fd_sim.c's stream from the
 *               seed, after the 16 words of the start-up test; a call goes
 *               on where the last one ended, FAIRDIE_RAW_RESTART starts
 *               over; a stuck coin (p = 0 or 1) fails with EIO, latched
 *               until a restart finds a good coin
 *   hardware    RDSEED or RDRAND words: varied, balanced; the file's reads
 *               and counters untouched
 *   stuck       (fault build) a stuck instruction gives EIO, latched until
 *               FAIRDIE_RAW_RESTART, counted in sysfs health_failures;
 *               another file's reads of the same source go on
 *   modulo      (fault build) modulo_bias=1 makes a d6 come up 0 and 1
 *               twice as often as 2..5; 0 makes it fair again
 */
#include <linux/capability.h>

#include "fairdie_test.h"

#define STARTUP_WORDS	16

/* GET_RAW of @n words into @w with @flags; 0 or the errno. */
static int get_raw(int fd, __u64 *w, __u32 n, __u32 flags)
{
	struct fairdie_raw r = {
		.words = (uintptr_t)w, .count = n, .flags = flags,
	};

	return xioctl(fd, FAIRDIE_IOC_GET_RAW, &r);
}

/* splitmix64 and the simulated coin, as uapi/linux/fairdie.h defines it. */
static __u64 splitmix64(__u64 *s)
{
	__u64 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct coin {
	__u64 state;
	__u64 threshold;
	bool one;
};

/* floor(2^64 num / den) by long division, for num < den < 2^63. */
static void coin_init(struct coin *c, __u64 seed, __u64 num, __u64 den)
{
	__u64 rem = num, q = 0;
	int i;

	for (i = 0; i < 64; i++) {
		rem <<= 1;
		q <<= 1;
		if (rem >= den) {
			rem -= den;
			q |= 1;
		}
	}
	c->state = seed;
	c->one = num == den;
	c->threshold = c->one ? 0 : q;
}

static __u64 coin_word(struct coin *c)
{
	__u64 w = 0;
	int i;

	if (c->one) {
		c->state += 64 * 0x9e3779b97f4a7c15ULL;
		return ~0ULL;
	}
	for (i = 0; i < 64; i++)
		w |= (__u64)(splitmix64(&c->state) < c->threshold) << i;
	return w;
}

/* A hardware source of this machine, RDRAND first (faster under TCG). */
static __u32 hw_source(const struct fairdie_info *info)
{
	if (has_src(info, FAIRDIE_SRC_RDRAND))
		return FAIRDIE_SRC_RDRAND;
	if (has_src(info, FAIRDIE_SRC_RDSEED))
		return FAIRDIE_SRC_RDSEED;
	return 0;
}

FD_D6_VN_FIXTURE(raw);

TEST_F(raw, root_without_cap_sys_admin_refused)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];
	__u64 w[4];
	pid_t pid;
	int status;

	ASSERT_EQ(0, set_sim(self->fd, 1, 1, 2));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
			     FAIRDIE_SRC_SIM));
	ASSERT_EQ(0, get_raw(self->fd, w, 4, 0));
	/* The harness runs each test in a process of its own. */
	ASSERT_EQ(0, syscall(SYS_capget, &hdr, data));
	data[CAP_SYS_ADMIN / 32].effective &= ~(1U << (CAP_SYS_ADMIN % 32));
	ASSERT_EQ(0, syscall(SYS_capset, &hdr, data));
	EXPECT_EQ(EPERM, get_raw(self->fd, w, 4, 0));
	EXPECT_EQ(EPERM, get_raw(self->fd, w, 4, FAIRDIE_RAW_RESTART));
	/* Checked first: a bad argument tells nobody anything either. */
	EXPECT_EQ(EPERM, get_raw(self->fd, w, 0, 0));

	/* And a user who is not root at all, on a file of its own. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(DEV_PATH, O_RDONLY);
		if (fd < 0)
			_exit(3);
		if (set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_SIM))
			_exit(4);
		_exit(get_raw(fd, w, 4, 0) == EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("the child for nobody exited with %d", status);
	}
}

TEST_F(raw, bad_arguments)
{
	struct fairdie_raw r;
	__u64 *w;

	w = calloc(FAIRDIE_RAW_MAX_WORDS + 1, sizeof(*w));
	ASSERT_TRUE(!!w);
	ASSERT_EQ(0, set_sim(self->fd, 2, 1, 2));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
			     FAIRDIE_SRC_SIM));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, 0, 0));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, FAIRDIE_RAW_MAX_WORDS + 1, 0));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, ~0U, 0));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, 1, 2));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, 1, 1U << 31));
	EXPECT_EQ(EINVAL, get_raw(self->fd, w, 1, FAIRDIE_RAW_RESTART | 4));
	EXPECT_EQ(EFAULT, get_raw(self->fd, KERNEL_PTR, 8, 0));
	EXPECT_EQ(EFAULT, xioctl(self->fd, FAIRDIE_IOC_GET_RAW, KERNEL_PTR));
	/* The largest count works, and says how many it wrote. */
	memset(&r, 0, sizeof(r));
	r.words = (uintptr_t)w;
	r.count = FAIRDIE_RAW_MAX_WORDS;
	EXPECT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_GET_RAW, &r));
	EXPECT_EQ((__u32)FAIRDIE_RAW_MAX_WORDS, r.count);
	EXPECT_EQ(0ULL, w[FAIRDIE_RAW_MAX_WORDS]);
	/* The kernel CRNG has no raw words. */
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
			     FAIRDIE_SRC_CRNG));
	EXPECT_EQ(ENODEV, get_raw(self->fd, w, 1, 0));
	free(w);
}

TEST_F(raw, sim_words_are_the_coin_after_its_startup_test)
{
	static const struct {
		__u64 seed, num, den;
	} coins[] = {
		{ 0, 1, 2 }, { 12345, 1, 2 }, { 7, 3, 10 }, { ~0ULL, 19, 20 },
	};
	__u64 got[200], want[200];
	struct fairdie_stats before, after;
	struct coin c;
	size_t k;
	int i;

	for (k = 0; k < ARRAY_SIZE(coins); k++) {
		ASSERT_EQ(0, set_sim(self->fd, coins[k].seed, coins[k].num,
				     coins[k].den));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
				     FAIRDIE_SRC_SIM));
		coin_init(&c, coins[k].seed, coins[k].num, coins[k].den);
		for (i = 0; i < STARTUP_WORDS; i++)
			coin_word(&c);
		for (i = 0; i < 200; i++)
			want[i] = coin_word(&c);
		get_stats(_metadata, self->fd, &before);
		/* The first call starts the source, restart or not. */
		ASSERT_EQ(0, get_raw(self->fd, got, 120, 0));
		ASSERT_EQ(0, get_raw(self->fd, got + 120, 80, 0));
		for (i = 0; i < 199 && got[i] == want[i]; i++)
			;
		ASSERT_EQ(want[i], got[i]) {
			TH_LOG("coin %zu, word %d: %#llx, expected %#llx", k, i,
			       (unsigned long long)got[i],
			       (unsigned long long)want[i]);
		}
		/* A restart starts the stream over, start-up test first. */
		ASSERT_EQ(0, get_raw(self->fd, got, 50, FAIRDIE_RAW_RESTART));
		EXPECT_EQ(0, memcmp(got, want, 50 * sizeof(*got)));
		/* The file's counters describe its reads only. */
		get_stats(_metadata, self->fd, &after);
		EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	}
}

TEST_F(raw, stuck_sim_coin_fails_until_a_good_restart)
{
	__u64 w[64];

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE,
			     FAIRDIE_SRC_SIM));
	ASSERT_EQ(0, set_sim(self->fd, 5, 1, 1));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 64, 0));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 1, 0));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 1, FAIRDIE_RAW_RESTART));
	ASSERT_EQ(0, set_sim(self->fd, 5, 0, 1));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 64, FAIRDIE_RAW_RESTART));
	/* A new coin restarts the source: a good one passes. */
	ASSERT_EQ(0, set_sim(self->fd, 5, 1, 2));
	EXPECT_EQ(0, get_raw(self->fd, w, 64, 0));
	ASSERT_EQ(0, set_sim(self->fd, 5, 1, 1));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 64, 0));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 1, 0));
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_RESET, NULL));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 1, 0));
	ASSERT_EQ(0, set_sim(self->fd, 5, 1, 2));
	EXPECT_EQ(0, get_raw(self->fd, w, 64, 0));
	ASSERT_EQ(6, read(self->fd, w, 6));
}

TEST_F(raw, hardware_words_vary_and_reads_are_untouched)
{
	__u32 src = hw_source(&self->info);
	struct fairdie_stats before, after;
	unsigned long long ones = 0, same = 0, bits0;
	__u64 *w, *v;
	unsigned char roll[6];
	int i;

	if (!src)
		SKIP(return, "no hardware source on this CPU");
	w = calloc(2 * FAIRDIE_RAW_MAX_WORDS, sizeof(*w));
	ASSERT_TRUE(!!w);
	v = w + FAIRDIE_RAW_MAX_WORDS;
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, src));
	ASSERT_EQ(6, read(self->fd, roll, 6));
	get_stats(_metadata, self->fd, &before);
	bits0 = sysfs_u64("source_bits");
	ASSERT_EQ(0, get_raw(self->fd, w, FAIRDIE_RAW_MAX_WORDS, 0));
	ASSERT_EQ(0, get_raw(self->fd, v, FAIRDIE_RAW_MAX_WORDS,
			     FAIRDIE_RAW_RESTART));
	for (i = 0; i < FAIRDIE_RAW_MAX_WORDS; i++) {
		ones += __builtin_popcountll(w[i]);
		same += w[i] == v[i];
		same += i && w[i] == w[i - 1];
	}
	TH_LOG("%s: %llu ones in %d bits, %llu repeated words",
	       fd_source_name(src), ones, 64 * FAIRDIE_RAW_MAX_WORDS, same);
	/* 262144 bits: 10 sigma is 2560. */
	EXPECT_LT(ones, 131072ULL + 2560);
	EXPECT_GT(ones, 131072ULL - 2560);
	EXPECT_EQ(0ULL, same);
	/* Counted device-wide, with the start-up tests' words. */
	EXPECT_LE(bits0 + 64ULL * 2 * (FAIRDIE_RAW_MAX_WORDS + STARTUP_WORDS),
		  sysfs_u64("source_bits"));
	get_stats(_metadata, self->fd, &after);
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
	ASSERT_EQ(6, read(self->fd, roll, 6));
	free(w);
}

TEST_F(raw, stuck_instruction_gives_eio_and_spares_the_reads)
{
	__u32 src = hw_source(&self->info);
	unsigned long long fails;
	unsigned char buf[64];
	__u64 w[64];
	int other;

	if (!src)
		SKIP(return, "no hardware source on this CPU");
	if (!have_fault_knob(""))
		SKIP(return, "the module was not built with FAIRDIE_FAULT=1");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, src));
	other = open(DEV_PATH, O_RDONLY);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, set_u32(other, FAIRDIE_IOC_SET_SOURCE, src));
	ASSERT_EQ(0, get_raw(self->fd, w, 64, FAIRDIE_RAW_RESTART));
	fails = sysfs_u64("health_failures");

	/* Only this source: the hwrng may be reading the other. */
	snprintf((char *)buf, sizeof(buf), "%#x", 1U << src);
	ASSERT_EQ(0, knob_write("sources", (char *)buf));
	ASSERT_EQ(0, knob_write("stuck", "1"));
	EXPECT_EQ(EIO, get_raw(self->fd, w, 64, 0));
	ASSERT_EQ(0, knob_write("stuck", "0"));
	ASSERT_EQ(0, knob_write("sources", "0x6"));
	EXPECT_LE(fails + 1, sysfs_u64("health_failures"));
	/* Latched: the source must restart, start-up test and all. */
	EXPECT_EQ(EIO, get_raw(self->fd, w, 64, 0));
	EXPECT_EQ(0, get_raw(self->fd, w, 64, FAIRDIE_RAW_RESTART));
	/* The well was never fed the stuck words: its readers go on. */
	EXPECT_EQ((ssize_t)sizeof(buf), read(other, buf, sizeof(buf)));
	EXPECT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	close(other);
}

TEST_F(raw, modulo_bias_knob_skews_a_d6)
{
	const size_t n = 48000;
	__u64 counts[6] = { 0 };

	if (!have_fault_knob(""))
		SKIP(return, "the module was not built with FAIRDIE_FAULT=1");
	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 6, 99, 1, 2);
	ASSERT_EQ(0, knob_write("modulo_bias", "1"));
	read_rolls(_metadata, self->fd, 6, n, 4096, counts, NULL);
	ASSERT_EQ(0, knob_write("modulo_bias", "0"));
	TH_LOG("3 bits mod 6: %llu %llu %llu %llu %llu %llu",
	       counts[0], counts[1], counts[2], counts[3], counts[4],
	       counts[5]);
	/* Expected n/4 for faces 0 and 1, n/8 for the others. */
	EXPECT_GT(counts[0], n / 4 - n / 40);
	EXPECT_GT(counts[1], n / 4 - n / 40);
	EXPECT_LT(counts[2], n / 8 + n / 40);
	EXPECT_LT(counts[5], n / 8 + n / 40);
	/* Off again, the same file is fair. */
	memset(counts, 0, sizeof(counts));
	read_rolls(_metadata, self->fd, 6, n, 4096, counts, NULL);
	check_uniform(_metadata, counts, 6, "d6 after modulo_bias=0");
}

TEST_HARNESS_MAIN
