// SPDX-License-Identifier: GPL-2.0
/*
 * Proof by enumeration that von Neumann's extractor (driver/fd_vn.c) is
 * exact, with the bias kept symbolic.
 *
 * An input of n bits with k ones has probability p^k (1-p)^(n-k). The
 * probability of an output string y is then sum_k c_k(y) p^k (1-p)^(n-k),
 * where c_k(y) counts the inputs with k ones that give y. These n + 1
 * polynomials are linearly independent, so two outputs are equally likely
 * for every bias p iff their count vectors c(y) are equal. The test checks
 * that all outputs of each length have the same vector.
 *
 * The driver calls fd_vn_word() on whole 64-bit words, so an input of n
 * bits (n even, up to 24) is a window of a word whose other 64 - n bits are
 * pairs 00 or 11, which give nothing (checked below: fd_vn_word() of such
 * a word returns only the window's bits). Windows of up to 20 bits are tried
 * at the bottom, in the middle and at the top of the word, over 00 and over
 * 11 padding; those of 22 and 24 bits at the bottom over 00.
 * Beyond one word the stream is the concatenation of the words' outputs,
 * and a concatenation of independent exact outputs is exact.
 *
 *   exhaustive  every window of n = 2..24 bits as above
 *   reference   fd_vn_word() equals a pair-by-pair reference on every value
 *               of each byte of the word (random other bytes) and on
 *               millions of random words of several biases
 *   rate        on simulated coins the output rate is p(1-p) per input bit
 *               and the output bits are balanced (within 6 sd)
 *
 * All of it with either packing of the bits (shifts under masks, PEXT).
 */
#include <math.h>

#include "fd_test.h"
#include "fd_sim.h"
#include "fd_vn.h"

#define NMAX	24

static u64 rng = 0x7e5;

/* The definition, one pair at a time. */
static unsigned int ref_vn(u64 raw, u64 *out)
{
	unsigned int i, n = 0;
	u64 v = 0;

	for (i = 0; i < 32; i++) {
		unsigned int a = (raw >> (2 * i)) & 1;
		unsigned int b = (raw >> (2 * i + 1)) & 1;

		if (a != b)
			v |= (u64)a << n++;
	}
	*out = v;
	return n;
}

/*
 * counts[m][y][k]: inputs with k ones giving the m-bit output y. Outputs of
 * an n-bit window have at most n / 2 bits.
 */
static u32 *counts;

static u32 *cell(unsigned int m, u64 y, unsigned int k)
{
	return &counts[(((size_t)1 << m) + y) * (NMAX + 1) + k];
}

/* Enumerate windows of @n bits at bit @shift over the padding @pad. */
static bool exhaustive(unsigned int n, unsigned int shift, u64 pad,
		       unsigned long *outputs)
{
	size_t size = ((size_t)2 << (n / 2)) * (NMAX + 1);
	u64 x, window = fd_low_bits(~0ULL, n) << shift;
	unsigned int m, k;
	bool ok = true;

	memset(counts, 0, size * sizeof(*counts));
	for (x = 0; x < (1ULL << n); x++) {
		u64 y;

		m = fd_vn_word((pad & ~window) | (x << shift), &y);
		if (m > n / 2 || (m < 64 && y >> m)) {
			ok = false;
			continue;
		}
		(*cell(m, y, hweight64(x)))++;
	}
	*outputs = 0;
	for (m = 0; m <= n / 2; m++) {
		u64 y;

		for (y = 0; y < (1ULL << m); y++) {
			for (k = 0; k <= n; k++)
				ok &= *cell(m, y, k) == *cell(m, 0, k);
			(*outputs)++;
		}
	}
	return ok;
}

static void test_exhaustive(void)
{
	static const u64 pads[] = { 0, ~0ULL };
	unsigned int n, pi, where;
	unsigned long inputs = 0;

	counts = calloc(((size_t)2 << (NMAX / 2)) * (NMAX + 1), sizeof(*counts));
	if (!counts)
		abort();
	for (n = 2; n <= NMAX; n += 2) {
		for (pi = 0; pi < ARRAY_SIZE(pads); pi++) {
			for (where = 0; where < 3; where++) {
				/* Bottom, an odd byte boundary, top: pairs stay aligned. */
				unsigned int shift = where == 0 ? 0 : where == 1 ?
					((64 - n) / 2 & ~1u) | 2 : 64 - n;
				unsigned long outputs;
				u64 y;

				if (n > 20 && (pi || where))
					continue;	/* time: 22 and 24 once */
				if (shift + n > 64)
					shift = 64 - n;
				CHECK(exhaustive(n, shift, pads[pi], &outputs),
				      "n = %u at bit %u over %s: outputs not equally likely for every p",
				      n, shift, pi ? "11" : "00");
				inputs += 1UL << n;
				/* The padding alone gives nothing. */
				CHECK(fd_vn_word(pads[pi] & ~(fd_low_bits(~0ULL, n) << shift),
						 &y) == 0,
				      "padding of n = %u gives bits", n);
			}
		}
	}
	free(counts);
	NOTE("exhaustive: windows of 2..%u bits, %lu inputs", NMAX, inputs);
}

static unsigned long compare(u64 raw)
{
	u64 a, b;
	unsigned int na = fd_vn_word(raw, &a), nb = ref_vn(raw, &b);

	return na != nb || a != b;
}

/* Random word whose bits are 1 with probability thr / 2^64. */
static u64 biased_word(u64 thr)
{
	u64 w = 0;
	int i;

	for (i = 0; i < 64; i++)
		w |= (u64)(fd_test_rand(&rng) < thr) << i;
	return w;
}

static void test_reference(void)
{
	static const u64 thr[] = {
		1ULL << 63, 0x1999999999999999ULL, 0xe666666666666666ULL,
	};
	unsigned long bad = 0, checks = 0, i;
	unsigned int byte, v, t;

	for (byte = 0; byte < 8; byte++) {
		for (v = 0; v < 256; v++) {
			for (t = 0; t < 16; t++, checks++) {
				u64 raw = fd_test_rand(&rng);

				raw &= ~(0xffULL << (8 * byte));
				bad += compare(raw | (u64)v << (8 * byte));
			}
		}
	}
	for (i = 0; i < 3000000; i++, checks++)
		bad += compare(fd_test_rand(&rng));
	for (t = 0; t < ARRAY_SIZE(thr); t++)
		for (i = 0; i < 100000; i++, checks++)
			bad += compare(biased_word(thr[t]));
	bad += compare(0) + compare(~0ULL) + compare(0x5555555555555555ULL) +
	       compare(0xaaaaaaaaaaaaaaaaULL);
	checks += 4;
	CHECK(!bad, "reference: %lu of %lu words differ", bad, checks);
	NOTE("reference: %lu words equal to the pair-by-pair definition", checks);
}

static void test_rate(void)
{
	static const struct {
		u64 num, den;
	} ps[] = { { 1, 2 }, { 7, 10 }, { 9, 10 }, { 1, 20 }, { 1, 3 } };
	const unsigned int words = 1 << 18;
	unsigned int pi, i;

	for (pi = 0; pi < ARRAY_SIZE(ps); pi++) {
		double p = (double)ps[pi].num / ps[pi].den, q = 1 - p;
		double pairs = 32.0 * words, keep = 2 * p * q, rate, sd, bal;
		u64 out_bits = 0, ones = 0, y;
		struct fd_sim sim;

		fd_sim_init(&sim, 77 + pi, ps[pi].num, ps[pi].den);
		for (i = 0; i < words; i++) {
			unsigned int m = fd_vn_word(fd_sim_word(&sim), &y);

			out_bits += m;
			ones += hweight64(y);
		}
		rate = out_bits / (64.0 * words);
		/* Kept pairs are binomial(pairs, 2pq); rate = kept / (2 pairs). */
		sd = sqrt(pairs * keep * (1 - keep)) / (2 * pairs);
		CHECK(fabs(rate - p * q) <= 6 * sd,
		      "p = %llu/%llu: rate %.6f, expected %.6f", ps[pi].num,
		      ps[pi].den, rate, p * q);
		bal = (double)ones / out_bits;
		CHECK(fabs(bal - 0.5) <= 6 * 0.5 / sqrt(out_bits),
		      "p = %llu/%llu: output ones %.6f", ps[pi].num,
		      ps[pi].den, bal);
		NOTE("rate: p = %llu/%llu: %.6f fair bits per input bit (p(1-p) = %.6f), ones %.5f",
		     ps[pi].num, ps[pi].den, rate, p * q, bal);
	}
}

int main(void)
{
	double t0 = fd_test_now();

	int pext;

	/* Both packings: the shifts under masks, and PEXT where it runs. */
	for (pext = 0; pext <= !!__builtin_cpu_supports("bmi2"); pext++) {
		fd_shim_pext = pext;
		NOTE("packing with %s", pext ? "PEXT" : "shifts under masks");
		test_exhaustive();
		test_reference();
		test_rate();
	}
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
