// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_weights_test - kselftest of the weighted dice of /dev/fairdie
 *
 * FAIRDIE_IOC_SET_WEIGHTS and FAIRDIE_IOC_GET_WEIGHTS: every validation
 * error (and that it changes nothing), the round trip, the way back to a
 * fair die, reads in both formats, a chi-square of weighted reads against
 * the exact probabilities, and the fair bits a draw costs against the
 * entropy of the weights. See fairdie_test.h for what the programs have
 * in common.
 */
#include <pthread.h>
#include <linux/userfaultfd.h>

#include "fairdie_test.h"

FD_D6_VN_FIXTURE(fairdie);

static const __u64 sum2d6[] = { 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 };

static int set_weights(int fd, const __u64 *w, __u32 count, __u32 flags)
{
	struct fairdie_weights arg = {
		.weights = (uintptr_t)w, .count = count, .flags = flags,
	};

	return xioctl(fd, FAIRDIE_IOC_SET_WEIGHTS, &arg);
}

/* GET_WEIGHTS into @w, room for @room; returns the count it reports. */
static __u32 get_weights(struct __test_metadata *const _metadata, int fd,
			 __u64 *w, __u32 room)
{
	struct fairdie_weights arg = {
		.weights = (uintptr_t)w, .count = room, .flags = 0,
	};

	EXPECT_EQ(0, xioctl(fd, FAIRDIE_IOC_GET_WEIGHTS, &arg));
	EXPECT_EQ(0U, arg.flags);
	return arg.count;
}

/* The die of the file is still the d6 of the fixture. */
static void still_d6(struct __test_metadata *const _metadata, int fd)
{
	ASSERT_EQ(6ULL, get_u64(_metadata, fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ(0U, get_weights(_metadata, fd, NULL, 0));
}

static double entropy(const __u64 *w, size_t count)
{
	double total = 0, h = 0;
	size_t i;

	for (i = 0; i < count; i++)
		total += w[i];
	for (i = 0; i < count; i++)
		if (w[i])
			h -= w[i] / total * log2(w[i] / total);
	return h;
}

/* The CRNG without an extractor: the fastest source, every bit counted. */
static void fast_source(struct __test_metadata *const _metadata, int fd)
{
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
}

/* ---- validation ---- */

TEST_F(fairdie, fair_die_has_no_weights)
{
	__u64 w[4] = { 7, 7, 7, 7 };

	ASSERT_EQ(0U, get_weights(_metadata, self->fd, w, 4));
	ASSERT_EQ(7ULL, w[0]);
}

TEST_F(fairdie, set_weights_flags_einval)
{
	ASSERT_EQ(EINVAL, set_weights(self->fd, sum2d6, 11, 1));
	ASSERT_EQ(EINVAL, set_weights(self->fd, sum2d6, 11, 1U << 31));
	still_d6(_metadata, self->fd);
}

TEST_F(fairdie, set_weights_count_einval)
{
	static __u64 many[FAIRDIE_MAX_FACES + 1];

	many[0] = 1;
	ASSERT_EQ(EINVAL, set_weights(self->fd, sum2d6, 0, 0));
	ASSERT_EQ(EINVAL, set_weights(self->fd, many, FAIRDIE_MAX_FACES + 1, 0));
	ASSERT_EQ(EINVAL, set_weights(self->fd, many, ~0U, 0));
	still_d6(_metadata, self->fd);
}

TEST_F(fairdie, set_weights_all_zero_einval)
{
	static const __u64 zero[3];

	ASSERT_EQ(EINVAL, set_weights(self->fd, zero, 3, 0));
	still_d6(_metadata, self->fd);
}

TEST_F(fairdie, set_weights_sum_overflow_einval)
{
	static const __u64 over[] = { 1ULL << 63, 1ULL << 63 };
	static const __u64 over3[] = { U64_MAX_VAL - 1, 1, 1 };
	static const __u64 top[] = { U64_MAX_VAL - 1, 0, 1 };

	ASSERT_EQ(EINVAL, set_weights(self->fd, over, 2, 0));
	ASSERT_EQ(EINVAL, set_weights(self->fd, over3, 3, 0));
	still_d6(_metadata, self->fd);
	/* Exactly 2^64 - 1 fits. */
	ASSERT_EQ(0, set_weights(self->fd, top, 3, 0));
	ASSERT_EQ(3ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
}

TEST_F(fairdie, set_weights_bad_pointer_efault)
{
	ASSERT_EQ(EFAULT, set_weights(self->fd, NULL, 3, 0));
	ASSERT_EQ(EFAULT, set_weights(self->fd, KERNEL_PTR, 3, 0));
	ASSERT_EQ(EFAULT, xioctl(self->fd, FAIRDIE_IOC_SET_WEIGHTS, NULL));
	still_d6(_metadata, self->fd);
}

TEST_F(fairdie, get_weights_errors)
{
	struct fairdie_weights arg = { .count = 0, .flags = 1 };

	ASSERT_EQ(EINVAL, xioctl(self->fd, FAIRDIE_IOC_GET_WEIGHTS, &arg));
	ASSERT_EQ(EFAULT, xioctl(self->fd, FAIRDIE_IOC_GET_WEIGHTS, NULL));
	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	arg.flags = 0;
	arg.count = 11;
	arg.weights = (uintptr_t)KERNEL_PTR;
	ASSERT_EQ(EFAULT, xioctl(self->fd, FAIRDIE_IOC_GET_WEIGHTS, &arg));
}

struct slow_get {
	int fd;
	void *dst;
	int err;
	int done[2];	/* a pipe: one byte when the ioctl returned */
};

static void *slow_get_weights(void *p)
{
	struct slow_get *g = p;
	struct fairdie_weights arg = {
		.weights = (uintptr_t)g->dst, .count = 11, .flags = 0,
	};

	g->err = xioctl(g->fd, FAIRDIE_IOC_GET_WEIGHTS, &arg);
	return NULL;
}

static void *get_sides_then_say(void *p)
{
	struct slow_get *g = p;
	__u64 sides = 0;

	g->err = xioctl(g->fd, FAIRDIE_IOC_GET_SIDES, &sides);
	if (write(g->done[1], "x", 1) != 1)
		g->err = errno;
	return NULL;
}

/*
 * GET_WEIGHTS copies out after unlocking the file: while its copy waits
 * for a page fault (held by a userfaultfd here, until another ioctl of the
 * same file returned), that ioctl goes through. Copying out under the
 * lock would hold it back until the fault was resolved; the test then
 * resolves it after 20 s and fails.
 */
TEST_F_TIMEOUT(fairdie, get_weights_copies_out_unlocked, 60)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_zeropage zero = { .mode = 0 };
	struct slow_get getter = { .fd = self->fd }, other = { .fd = self->fd };
	struct pollfd pfd;
	struct uffd_msg msg;
	pthread_t t1, t2;
	long page = sysconf(_SC_PAGESIZE);
	__u64 *dst;
	int uffd, said;

	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		SKIP(return, "no userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	dst = mmap(NULL, page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(dst != MAP_FAILED);
	reg.range.start = (uintptr_t)dst;
	reg.range.len = page;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
	ASSERT_EQ(0, pipe(other.done));

	getter.dst = dst;
	ASSERT_EQ(0, pthread_create(&t1, NULL, slow_get_weights, &getter));
	/* The copy out faults: the event says GET_WEIGHTS waits in it. */
	pfd = (struct pollfd){ .fd = uffd, .events = POLLIN };
	ASSERT_EQ(1, poll(&pfd, 1, 20000));
	ASSERT_EQ((ssize_t)sizeof(msg), read(uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);

	ASSERT_EQ(0, pthread_create(&t2, NULL, get_sides_then_say, &other));
	pfd = (struct pollfd){ .fd = other.done[0], .events = POLLIN };
	said = poll(&pfd, 1, 20000);
	TH_LOG("GET_SIDES %s while GET_WEIGHTS waited in its fault",
	       said == 1 ? "returned" : "was held back");

	zero.range.start = (uintptr_t)dst;
	zero.range.len = page;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_ZEROPAGE, &zero));
	ASSERT_EQ(0, pthread_join(t1, NULL));
	ASSERT_EQ(0, pthread_join(t2, NULL));
	ASSERT_EQ(1, said);
	ASSERT_EQ(0, other.err);
	ASSERT_EQ(0, getter.err);
	ASSERT_EQ(0, memcmp(dst, sum2d6, sizeof(sum2d6)));
	close(other.done[0]);
	close(other.done[1]);
	munmap(dst, page);
	close(uffd);
}

/* A bad SET_WEIGHTS leaves the weights in force as they were. */
TEST_F(fairdie, bad_weights_change_nothing)
{
	static const __u64 zero[2];
	__u64 w[11];

	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(EINVAL, set_weights(self->fd, zero, 2, 0));
	ASSERT_EQ(EINVAL, set_weights(self->fd, sum2d6, 11, 2));
	ASSERT_EQ(EFAULT, set_weights(self->fd, NULL, 2, 0));
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, w, 11));
	ASSERT_EQ(0, memcmp(w, sum2d6, sizeof(w)));
}

TEST_F(fairdie, dijkstra_weights_einval)
{
	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
			     FAIRDIE_EXT_DIJKSTRA));
	ASSERT_EQ(EINVAL, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(0U, get_weights(_metadata, self->fd, NULL, 0));
	/* And the other way round. */
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_VN));
	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(EINVAL, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR,
				  FAIRDIE_EXT_DIJKSTRA));
	ASSERT_EQ((__u32)FAIRDIE_EXT_VN,
		  get_u32(_metadata, self->fd, FAIRDIE_IOC_GET_EXTRACTOR));
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, NULL, 0));
}

/* ---- configuration ---- */

TEST_F(fairdie, weights_roundtrip)
{
	__u64 w[16];
	size_t i;

	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(11ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	memset(w, 0xa5, sizeof(w));
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, w, 16));
	ASSERT_EQ(0, memcmp(w, sum2d6, sizeof(sum2d6)));
	for (i = 11; i < 16; i++)
		ASSERT_EQ(0xa5a5a5a5a5a5a5a5ULL, w[i]);
	/* At most count weights are copied; count says how many there are. */
	memset(w, 0xa5, sizeof(w));
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, w, 4));
	ASSERT_EQ(0, memcmp(w, sum2d6, 4 * sizeof(__u64)));
	ASSERT_EQ(0xa5a5a5a5a5a5a5a5ULL, w[4]);
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, NULL, 0));
	/* RESET keeps the configuration, weights included. */
	ASSERT_EQ(0, xioctl(self->fd, FAIRDIE_IOC_RESET, NULL));
	ASSERT_EQ(11U, get_weights(_metadata, self->fd, NULL, 0));
}

TEST_F(fairdie, set_sides_ends_weights)
{
	__u8 buf[64];
	size_t i;

	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 3));
	ASSERT_EQ(0U, get_weights(_metadata, self->fd, NULL, 0));
	ASSERT_EQ(3ULL, get_u64(_metadata, self->fd, FAIRDIE_IOC_GET_SIDES));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_LT(buf[i], 3);
}

/* A second file keeps its own die. */
TEST_F(fairdie, weights_per_file)
{
	int fd2 = open(DEV_PATH, O_RDONLY);

	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
	ASSERT_EQ(0U, get_weights(_metadata, fd2, NULL, 0));
	close(fd2);
}

/* ---- reads ---- */

/* Binary faces in the width of count - 1; a weight of zero never comes. */
TEST_F(fairdie, weighted_binary_reads)
{
	static __u64 w[300], counts[300];
	char odd[3];
	size_t i;

	fast_source(_metadata, self->fd);
	for (i = 0; i < 300; i++)
		w[i] = i % 3 ? i : 0;
	ASSERT_EQ(0, set_weights(self->fd, w, 300, 0));
	/* A width of 2 bytes: an odd read length is refused. */
	ASSERT_EQ(-1, read(self->fd, odd, sizeof(odd)));
	ASSERT_EQ(EINVAL, errno);
	read_rolls(_metadata, self->fd, 300, 50000, 4096, counts, NULL);
	for (i = 0; i < 300; i++)
		if (!w[i])
			ASSERT_EQ(0ULL, counts[i]);
}

TEST_F(fairdie, weighted_text_reads)
{
	static const __u64 w[] = { 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 };
	struct text_check t = { .sides = 12 };
	unsigned long long v;
	char buf[4096], *p, *nl;
	ssize_t n;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_FORMAT, FAIRDIE_FMT_TEXT));
	ASSERT_EQ(0, set_weights(self->fd, w, 12, 0));
	n = read(self->fd, buf, sizeof(buf));
	ASSERT_EQ((ssize_t)sizeof(buf), n);
	text_feed(&t, buf, n);
	ASSERT_FALSE(t.bad) {
		TH_LOG("%s", t.first_bad);
	}
	/* Only faces 2 and 12 have weight. */
	for (p = buf; (nl = memchr(p, '\n', buf + n - p)); p = nl + 1) {
		*nl = '\0';
		v = strtoull(p, NULL, 10);
		ASSERT_TRUE(v == 2 || v == 12) {
			TH_LOG("face %llu", v);
		}
	}
}

/* One face of weight: no bits at all. */
TEST_F(fairdie, weight_one_costs_nothing)
{
	static const __u64 w[] = { 0, 0, 1, 0 };
	struct fairdie_stats st;
	__u8 buf[1000];
	size_t i;

	fast_source(_metadata, self->fd);
	ASSERT_EQ(0, set_weights(self->fd, w, 4, 0));
	ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
	for (i = 0; i < sizeof(buf); i++)
		ASSERT_EQ(2, buf[i]);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(0ULL, st.sampler_bits);
}

/* The most faces, in 2-byte rolls. */
TEST_F(fairdie, weights_max_faces)
{
	static __u64 w[FAIRDIE_MAX_FACES];
	size_t i;

	fast_source(_metadata, self->fd);
	for (i = 0; i < FAIRDIE_MAX_FACES; i++)
		w[i] = i + 1;
	ASSERT_EQ(0, set_weights(self->fd, w, FAIRDIE_MAX_FACES, 0));
	read_rolls(_metadata, self->fd, FAIRDIE_MAX_FACES, 10000, 4096,
		   NULL, NULL);
	ASSERT_EQ((__u32)FAIRDIE_MAX_FACES,
		  get_weights(_metadata, self->fd, NULL, 0));
}

/* ---- exact probabilities and cost ---- */

static void weighted_chi2(struct __test_metadata *const _metadata, int fd,
			  const __u64 *w, size_t count, size_t n,
			  const char *what)
{
	__u64 *counts = calloc(count, sizeof(*counts));
	double *expect = calloc(count, sizeof(*expect));
	__u64 *cells = calloc(count, sizeof(*cells));
	double total = 0, stat, crit;
	size_t i, k = 0;

	ASSERT_TRUE(counts && expect && cells);
	ASSERT_EQ(0, set_weights(fd, w, count, 0));
	read_rolls(_metadata, fd, count, n, 65536, counts, NULL);
	for (i = 0; i < count; i++)
		total += w[i];
	/* The cells of positive weight; the others must stay empty. */
	for (i = 0; i < count; i++) {
		if (!w[i]) {
			ASSERT_EQ(0ULL, counts[i]);
			continue;
		}
		cells[k] = counts[i];
		expect[k++] = n * (w[i] / total);
	}
	stat = fd_chi2_stat(cells, expect, k);
	crit = fd_chi2_crit(k - 1, CHI2_ALPHA);
	TH_LOG("%s: chi-square %.1f, df %zu, critical %.1f at alpha %g",
	       what, stat, k - 1, crit, CHI2_ALPHA);
	ASSERT_LT(stat, crit);
	free(counts);
	free(expect);
	free(cells);
}

TEST_F_TIMEOUT(fairdie, chi2_2d6_sum, 120)
{
	fast_source(_metadata, self->fd);
	weighted_chi2(_metadata, self->fd, sum2d6, 11, 300000, "2d6 sum");
}

TEST_F_TIMEOUT(fairdie, chi2_loaded_with_zeros_vn, 120)
{
	static const __u64 w[] = { 10, 0, 1, 3, 0, 7, 1000 };

	/* Through von Neumann's extractor from the file's default source. */
	weighted_chi2(_metadata, self->fd, w, ARRAY_SIZE(w), 50000,
		      "loaded die, VN");
}

/*
 * Fair bits per draw over @n draws, against the information of the faces
 * drawn, sum of log2(W / w_f): its mean is the entropy H(w), and the
 * difference is the sampler's own loss alone, without the spread of the
 * faces (some 0.005 bit at 3 x 10^5 draws of the Zipf law).
 */
static void draw_cost(struct __test_metadata *const _metadata, int fd,
		      const __u64 *w, size_t count, size_t n, const char *what)
{
	__u64 *counts = calloc(count, sizeof(*counts));
	double h = entropy(w, count), per, info = 0, total = 0;
	struct fairdie_stats st;
	size_t i;

	ASSERT_TRUE(!!counts);
	fast_source(_metadata, fd);
	ASSERT_EQ(0, set_weights(fd, w, count, 0));
	read_rolls(_metadata, fd, count, n, 65536, counts, NULL);
	get_stats(_metadata, fd, &st);
	ASSERT_EQ(n, st.outputs);
	for (i = 0; i < count; i++)
		total += w[i];
	for (i = 0; i < count; i++)
		if (counts[i])
			info += counts[i] * log2(total / w[i]);
	per = (double)st.sampler_bits / n;
	info /= n;
	TH_LOG("%s: %.5f fair bits per draw over %zu draws; information of the faces drawn %.5f, entropy %.5f",
	       what, per, n, info, h);
	ASSERT_GE(info + 0.01, per);
	ASSERT_LE(info - 0.01, per);
	free(counts);
}

TEST_F_TIMEOUT(fairdie, cost_2d6_sum, 120)
{
	draw_cost(_metadata, self->fd, sum2d6, 11, 500000, "2d6 sum");
}

TEST_F_TIMEOUT(fairdie, cost_zipf1000, 120)
{
	static __u64 w[1000];
	size_t i;

	for (i = 0; i < 1000; i++)
		w[i] = (1000000 + (i + 1) / 2) / (i + 1);
	draw_cost(_metadata, self->fd, w, 1000, 300000, "zipf1000");
}

/*
 * A d6 and the sum of 2d6 in turn: the state kept across the changes
 * serves both, so the pair costs log2(6) + H(2d6) bits; starting afresh
 * at each change would cost some 60 bits more.
 */
TEST_F_TIMEOUT(fairdie, mixed_keeps_state, 120)
{
	const size_t pairs = 20000;
	struct fairdie_stats st;
	double per, want = log2(6) + entropy(sum2d6, 11);
	__u8 b;
	size_t i;

	fast_source(_metadata, self->fd);
	for (i = 0; i < pairs; i++) {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, 6));
		ASSERT_EQ(1, read(self->fd, &b, 1));
		ASSERT_LT(b, 6);
		ASSERT_EQ(0, set_weights(self->fd, sum2d6, 11, 0));
		ASSERT_EQ(1, read(self->fd, &b, 1));
		ASSERT_LT(b, 11);
	}
	get_stats(_metadata, self->fd, &st);
	per = (double)st.sampler_bits / pairs;
	TH_LOG("d6 + 2d6 sum: %.4f fair bits per pair, %.4f expected", per, want);
	ASSERT_GE(want + 0.05, per);
}

TEST_HARNESS_MAIN
