// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie_uniform_test - kselftest of the uniformity and efficiency of /dev/fairdie
 *
 * Chi-square of the faces (and of pairs of faces) for every extractor,
 * biased coins, several die sizes and the real sources; the fair bits a
 * roll costs and what each extractor keeps of its source. See
 * fairdie_test.h for what the programs have in common.
 */
#include "fairdie_test.h"

/* A new open file for each test, a d6 with von Neumann's extractor. */
FD_D6_VN_FIXTURE(fairdie);

/* ---- uniformity ---- */

/* The high bits of 8-byte rolls are as random as the low ones. */
TEST_F(fairdie, binary_wide_spread)
{
	static const __u64 sides[] = { U64_MAX_VAL, 1ULL << 63, 3ULL << 62 };
	unsigned char buf[8 * 4096];
	__u64 counts[16];
	unsigned int k;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(sides); i++) {
		memset(counts, 0, sizeof(counts));
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides[i]));
		ASSERT_EQ((ssize_t)sizeof(buf), read(self->fd, buf, sizeof(buf)));
		/* 16 equal slices of [0, sides); both remainders are tiny. */
		for (j = 0; j < 4096; j++) {
			__u64 v = fd_get_roll(buf + j * 8, 8);

			ASSERT_LT(v, sides[i]);
			k = (unsigned int)((double)v / (double)sides[i] * 16);
			counts[k < 16 ? k : 15]++;
		}
		check_uniform(_metadata, counts, 16, "top four bits");
	}
}

TEST_F(fairdie, sim_vn_fair)
{
	__u64 counts[2] = { 0 };

	sim_config(_metadata, self->fd, FAIRDIE_EXT_VN, 2, 1, 7, 10);
	read_rolls(_metadata, self->fd, 2, 20000, 20000, counts, NULL);
	check_uniform(_metadata, counts, 2, "p = 7/10, von Neumann");
}

/* ---- efficiency ---- */

/* source >= extracted >= sampler >= the entropy of the rolls, for VN. */
TEST_F_TIMEOUT(fairdie, stats_vn_bit_flow, 120)
{
	const size_t n = 100000;
	struct fairdie_stats st;

	read_rolls(_metadata, self->fd, 6, n, 10000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("source %llu extracted %llu sampler %llu outputs %llu",
	       (unsigned long long)st.source_bits,
	       (unsigned long long)st.extracted_bits,
	       (unsigned long long)st.sampler_bits,
	       (unsigned long long)st.outputs);
	ASSERT_EQ(n, st.outputs);
	ASSERT_GE(st.source_bits, st.extracted_bits);
	ASSERT_GE(st.extracted_bits, st.sampler_bits);
	/* Von Neumann keeps at most one bit of every pair. */
	ASSERT_GE(st.source_bits / 2, st.extracted_bits);
	ASSERT_LE(n * log2(6) * 0.99, (double)st.sampler_bits);
	ASSERT_GE(n * (log2(6) + 0.01), (double)st.sampler_bits);
}

TEST_F(fairdie, stats_none_bit_flow)
{
	const size_t n = 50000;
	struct fairdie_stats st;

	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	read_rolls(_metadata, self->fd, 6, n, 10000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("source %llu extracted %llu sampler %llu outputs %llu",
	       (unsigned long long)st.source_bits,
	       (unsigned long long)st.extracted_bits,
	       (unsigned long long)st.sampler_bits,
	       (unsigned long long)st.outputs);
	ASSERT_EQ(n, st.outputs);
	ASSERT_GE(st.source_bits, st.extracted_bits);
	ASSERT_GE(st.extracted_bits, st.sampler_bits);
	ASSERT_LE(n * log2(6) * 0.99, (double)st.sampler_bits);
	/* NONE passes bits through: only what is buffered is not yet used. */
	ASSERT_GE(st.sampler_bits + 65536, st.source_bits);
}

TEST_F(fairdie, stats_dijkstra_no_fair_bits)
{
	struct fairdie_stats st;

	if (!has_ext(&self->info, FAIRDIE_EXT_DIJKSTRA))
		SKIP(return, "DIJKSTRA extractor not offered");
	ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_DIJKSTRA));
	read_rolls(_metadata, self->fd, 6, 5000, 5000, NULL, NULL);
	get_stats(_metadata, self->fd, &st);
	ASSERT_EQ(5000ULL, st.outputs);
	ASSERT_EQ(0ULL, st.extracted_bits);
	ASSERT_EQ(0ULL, st.sampler_bits);
	/* A d6 needs at least log2(6) bits of a fair source. */
	ASSERT_LE(5000 * log2(6), (double)st.source_bits);
}

/* Fair bits per roll, amortized, over @n rolls from the CRNG without extractor. */
static void sampler_cost(struct __test_metadata *const _metadata, int fd,
			 __u64 sides, size_t n)
{
	struct fairdie_stats st;
	double per_roll;

	ASSERT_EQ(0, set_u64(fd, FAIRDIE_IOC_SET_SIDES, sides));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_EXTRACTOR, FAIRDIE_EXT_NONE));
	ASSERT_EQ(0, set_u32(fd, FAIRDIE_IOC_SET_SOURCE, FAIRDIE_SRC_CRNG));
	read_rolls(_metadata, fd, sides, n, 65536, NULL, NULL);
	get_stats(_metadata, fd, &st);
	ASSERT_EQ(n, st.outputs);
	per_roll = (double)st.sampler_bits / n;
	TH_LOG("d%llu: %.5f fair bits per roll over %zu rolls, log2(sides) = %.5f",
	       (unsigned long long)sides, per_roll, n, log2(sides));
	ASSERT_GE(log2(sides) + 0.01, per_roll);
	ASSERT_LE(log2(sides) - 0.01, per_roll);
}

TEST_F_TIMEOUT(fairdie, sampler_cost_d6, 120)
{
	sampler_cost(_metadata, self->fd, 6, 1000000);
}

TEST_F_TIMEOUT(fairdie, sampler_cost_d100, 120)
{
	sampler_cost(_metadata, self->fd, 100, 300000);
}

/*
 * Extractor rates from the file's own counters, SIM coin with P(1) = @num /
 * @den, over @n d6 rolls: fair bits out of the extractor per source bit.
 * The source bits also hold the startup test and what is still buffered,
 * so long reads keep that below a few tenths of a percent.
 */
static double extractor_rate(struct __test_metadata *const _metadata, int fd,
			     __u32 ext, __u64 num, __u64 den, size_t n)
{
	struct fairdie_stats st;

	sim_config(_metadata, fd, ext, 6, 2026, num, den);
	ASSERT_EQ(0, ioctl(fd, FAIRDIE_IOC_RESET));
	read_rolls(_metadata, fd, 6, n, 65536, NULL, NULL);
	get_stats(_metadata, fd, &st);
	EXPECT_EQ(n, st.outputs);
	return (double)st.extracted_bits / st.source_bits;
}

static double binary_entropy(double p)
{
	return -p * log2(p) - (1 - p) * log2(1 - p);
}

static const __u64 rate_p[][2] = { { 1, 2 }, { 7, 10 }, { 9, 10 } };

/* von Neumann keeps p(1 - p) fair bits per source bit. */
TEST_F_TIMEOUT(fairdie, vn_rate, 300)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rate_p); i++) {
		double p = (double)rate_p[i][0] / rate_p[i][1];
		double r = extractor_rate(_metadata, self->fd, FAIRDIE_EXT_VN,
					  rate_p[i][0], rate_p[i][1], 200000);

		TH_LOG("VN at p = %.2f: %.5f fair bits per source bit, p(1-p) = %.5f",
		       p, r, p * (1 - p));
		ASSERT_LE(0.98 * p * (1 - p), r);
		ASSERT_GE(1.02 * p * (1 - p), r);
	}
}

/* Peres keeps at least 0.92 H(p) (Documentation/design/fairdie.rst, Targets). */
TEST_F_TIMEOUT(fairdie, peres_rate, 300)
{
	struct fairdie_info info;
	unsigned int i;

	ASSERT_EQ(0, ioctl(self->fd, FAIRDIE_IOC_GET_INFO, &info));
	if (!(info.extractors & (1u << FAIRDIE_EXT_PERES)))
		SKIP(return, "PERES not offered");
	for (i = 0; i < ARRAY_SIZE(rate_p); i++) {
		double p = (double)rate_p[i][0] / rate_p[i][1];
		double r = extractor_rate(_metadata, self->fd,
					  FAIRDIE_EXT_PERES, rate_p[i][0],
					  rate_p[i][1], 1000000);

		TH_LOG("Peres at p = %.2f: %.4f fair bits per source bit, %.4f of H(p)",
		       p, r, r / binary_entropy(p));
		ASSERT_LE(0.92 * binary_entropy(p), r);
	}
}

/* ---------------------------------------------------------------------
 * Uniformity: chi-square of the faces (and of disjoint pairs of faces for
 * small dice, which catches state carried wrongly from roll to roll) for
 * each extractor, biased coins and a few die sizes.
 */

FIXTURE(uniform) {
	int fd;
	struct fairdie_info info;
};

FIXTURE_VARIANT(uniform) {
	__u32 ext;
	__u32 src;
	__u64 p1_num;
	__u64 p1_den;
	__u64 sides;
	size_t rolls;
};

/* Enough rolls to see a face 0.01 off its due probability. */
#define UNIFORM_ROLLS	500000

/*
 * The table: each extractor on the simulated coin with P(1) = 1/2, 7/10
 * and 9/10 (NONE at 1/2 only: it passes a bias through), each coin with a
 * d6, a d37 and a d100; then the machine's own sources. Variants are named
 * <extractor>_<coin>_d<sides>, e.g. peres_p70_d37.
 */
#define UNIFORM(name, EXT, SRC, num, den, sides_)			\
	FIXTURE_VARIANT_ADD(uniform, name) {				\
		.ext = FAIRDIE_EXT_##EXT, .src = FAIRDIE_SRC_##SRC,	\
		.p1_num = num, .p1_den = den, .sides = sides_,		\
		.rolls = UNIFORM_ROLLS,					\
	};
#define UNIFORM_DICE(ext, EXT, coin, num, den)				\
	UNIFORM(ext##_##coin##_d6, EXT, SIM, num, den, 6)		\
	UNIFORM(ext##_##coin##_d37, EXT, SIM, num, den, 37)		\
	UNIFORM(ext##_##coin##_d100, EXT, SIM, num, den, 100)
#define UNIFORM_COINS(ext, EXT)						\
	UNIFORM_DICE(ext, EXT, p50, 1, 2)				\
	UNIFORM_DICE(ext, EXT, p70, 7, 10)				\
	UNIFORM_DICE(ext, EXT, p90, 9, 10)

UNIFORM_COINS(vn, VN)
UNIFORM_COINS(peres, PERES)
UNIFORM_COINS(dijkstra, DIJKSTRA)
UNIFORM_DICE(none, NONE, p50, 1, 2)
UNIFORM(vn_auto_d6, VN, AUTO, 0, 0, 6)
UNIFORM(none_auto_d6, NONE, AUTO, 0, 0, 6)
UNIFORM(none_crng_d6, NONE, CRNG, 0, 0, 6)
UNIFORM(none_crng_d100, NONE, CRNG, 0, 0, 100)

FIXTURE_SETUP(uniform)
{
	self->fd = fd_open(_metadata, &self->info);
}

FIXTURE_TEARDOWN(uniform)
{
	close(self->fd);
}

TEST_F_TIMEOUT(uniform, chi_square, 180)
{
	__u64 sides = variant->sides, *counts, *pairs = NULL;
	struct fairdie_stats st;
	double t0;

	if (!has_ext(&self->info, variant->ext))
		SKIP(return, "extractor %s not offered", fd_extractor_name(variant->ext));
	if (variant->src == FAIRDIE_SRC_SIM) {
		sim_config(_metadata, self->fd, variant->ext, sides,
			   0x5eed0000 + sides, variant->p1_num, variant->p1_den);
	} else {
		ASSERT_EQ(0, set_u64(self->fd, FAIRDIE_IOC_SET_SIDES, sides));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_EXTRACTOR, variant->ext));
		ASSERT_EQ(0, set_u32(self->fd, FAIRDIE_IOC_SET_SOURCE, variant->src));
	}
	counts = calloc(sides, sizeof(*counts));
	ASSERT_TRUE(!!counts);
	if (sides <= 37) {
		pairs = calloc(sides * sides, sizeof(*pairs));
		ASSERT_TRUE(!!pairs);
	}
	t0 = now_ms();
	read_rolls(_metadata, self->fd, sides, variant->rolls, 65536, counts, pairs);
	get_stats(_metadata, self->fd, &st);
	TH_LOG("%zu rolls in %.0f ms, %llu source bits",
	       variant->rolls, now_ms() - t0, (unsigned long long)st.source_bits);
	ASSERT_EQ(variant->rolls, st.outputs);
	check_uniform(_metadata, counts, sides, "faces");
	if (pairs)
		check_uniform(_metadata, pairs, sides * sides, "pairs of faces");
	free(pairs);
	free(counts);
}

TEST_HARNESS_MAIN
