// SPDX-License-Identifier: GPL-2.0
/*
 * efficiency - how close the shared algorithms come to the entropy limit.
 *
 * Built from the very files of the module (driver/fd_*.c). Two tables:
 *  1. each extractor on the simulated coin at several p: fair bits out per
 *     raw bit in, against the Shannon entropy H(p) (Dijkstra rolls d6
 *     straight from the raw bits: raw bits per roll against log2(6) / H(p));
 *  2. the sampler, fair bits per roll with and without recycling, against
 *     log2(sides) and the Knuth-Yao optimum of a fresh roll;
 *  3. weighted draws, fair bits per draw against the entropy H(w) of the
 *     weights, and against log2(W), what rejection on the total costs.
 * Figures are measured, not timed: they are the same on every machine.
 * (make bench prints the BENCH lines of Documentation/design/fairdie.rst for these figures.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_dijkstra.h"
#include "fd_peres.h"
#include "fd_pool.h"
#include "fd_sampler.h"
#include "fd_sim.h"
#include "fd_vn.h"
#include "fd_weights.h"
#include "fd_wsets.h"

static struct fd_pool pool;
static struct fd_peres peres;

static double entropy(double p)
{
	return p <= 0 || p >= 1 ? 0 : -p * log2(p) - (1 - p) * log2(1 - p);
}

/* Fair bits per raw bit of an extractor over @words raw words. */
static double rate(int ext, u64 num, u64 den, u64 words)
{
	struct fd_sim sim;
	u64 in = 0, out = 0, fair, i;

	fd_sim_init(&sim, 42, num, den);
	fd_pool_clear(&pool);
	fd_peres_init(&peres);
	for (i = 0; i < words; i++) {
		u64 w = fd_sim_word(&sim);

		in += 64;
		if (ext == 0) {
			out += fd_vn_word(w, &fair);
		} else {
			out += fd_peres_feed(&peres, w, &pool);
			while (fd_peres_pending(&peres)) {
				fd_pool_clear(&pool);
				out += fd_peres_drain(&peres, &pool);
			}
			fd_pool_clear(&pool);
		}
	}
	return (double)out / in;
}

/* Raw bits per d6 roll of Dijkstra's roulette. */
static double dijkstra_cost(u64 num, u64 den, u64 rolls)
{
	struct fd_dijkstra dj;
	struct fd_sim sim;
	u64 in = 0, out, n = 0;

	fd_sim_init(&sim, 42, num, den);
	fd_dijkstra_init(&dj, 6);
	fd_pool_clear(&pool);
	while (n < rolls) {
		if (fd_dijkstra_roll(&dj, &pool, &out)) {
			n++;
			continue;
		}
		fd_pool_put(&pool, fd_sim_word(&sim), 64);
		in += 64;
	}
	return (double)(in - pool.count) / rolls;
}

/* Fair bits per roll of the sampler over @rolls rolls. */
static double sampler_cost(u64 sides, bool recycle, u64 rolls)
{
	struct fd_sampler s;
	struct fd_sim sim;
	u64 n = 0, out;

	fd_sim_init(&sim, 7, 1, 2);
	fd_sampler_init(&s, sides, recycle);
	fd_pool_clear(&pool);
	while (n < rolls) {
		if (fd_sampler_roll(&s, &pool, &out)) {
			n++;
			continue;
		}
		fd_pool_put(&pool, fd_sim_word(&sim), 64);
	}
	return (double)s.bits / rolls;
}

/*
 * Expected fair bits of the Knuth-Yao sampler for the uniform law on n
 * values: n * sum over k of k * 2^-k * (k-th binary digit of 1/n).
 */
static double knuth_yao(u64 n)
{
	long double sum = 0, w = 1;
	unsigned __int128 r = 1;
	int k;

	if (!(n & (n - 1)))
		return log2((double)n);
	for (k = 1; k < 400; k++) {
		w /= 2;
		r *= 2;
		if (r >= n) {
			r -= n;
			sum += k * w;
		}
	}
	return (double)(sum * n);
}

/* Fair bits per draw of a weighted die over @draws draws. */
static double weights_cost(const u64 *weights, u32 count, u64 draws)
{
	u64 *table = calloc(fd_weights_table_words(count), sizeof(u64));
	struct fd_weights w;
	struct fd_sampler s;
	struct fd_sim sim;
	u64 n = 0, out;

	if (!table)
		exit(EXIT_FAILURE);
	memcpy(table + 1, weights, count * sizeof(*weights));
	if (fd_weights_init(&w, table, count))
		exit(EXIT_FAILURE);
	fd_sim_init(&sim, 11, 1, 2);
	fd_sampler_init(&s, 6, true);
	fd_weights_attach(&w, &s);
	fd_pool_clear(&pool);
	while (n < draws) {
		if (fd_weights_draw(&w, &s, &pool, &out)) {
			n++;
			continue;
		}
		fd_pool_put(&pool, fd_sim_word(&sim), 64);
	}
	free(table);
	return (double)s.bits / draws;
}

int main(int argc, char **argv)
{
	static const u64 ps[][2] = { { 1, 2 }, { 6, 10 }, { 7, 10 },
				     { 8, 10 }, { 9, 10 }, { 95, 100 } };
	static const u64 sides[] = { 2, 3, 6, 10, 37, 100, 1000,
				     (1ULL << 31) + 1 };
	u64 words = argc > 1 ? strtoull(argv[1], NULL, 0) : 1 << 16;
	const u64 wpb = FD_PERES_BLOCK_BITS / 64;
	double peres_eff[3] = { 0 }, d6 = 0;
	unsigned int i;

	/* Whole Peres blocks: a partly gathered one has given nothing yet. */
	words = (words + wpb - 1) / wpb * wpb;
	printf("Extractors on a coin with P(1) = p (%llu raw bits each)\n\n",
	       (unsigned long long)words * 64);
	printf("| p    | H(p)   | VN rate | p(1-p) | VN/H  | Peres rate | Peres/H | Dijkstra d6 raw bits | log2(6)/H |\n");
	printf("|------|--------|---------|--------|-------|------------|---------|----------------------|-----------|\n");
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		double p = (double)ps[i][0] / ps[i][1], h = entropy(p);
		double vn = rate(0, ps[i][0], ps[i][1], words);
		double pe = rate(1, ps[i][0], ps[i][1], words);
		double dj = dijkstra_cost(ps[i][0], ps[i][1], words / 4);

		printf("| %.2f | %.4f | %.4f  | %.4f | %.3f | %.4f     | %.4f  | %-20.3f | %-9.3f |\n",
		       p, h, vn, p * (1 - p), vn / h, pe, pe / h, dj,
		       log2(6) / h);
		if (ps[i][0] * 10 == ps[i][1] * 5)
			peres_eff[0] = pe / h;
		if (ps[i][0] * 10 == ps[i][1] * 7)
			peres_eff[1] = pe / h;
		if (ps[i][0] * 10 == ps[i][1] * 9)
			peres_eff[2] = pe / h;
	}

	printf("\nSampler: fair bits per roll\n\n");
	printf("| sides      | log2(sides) | Knuth-Yao (fresh) | no recycling | recycling | recycling - log2 |\n");
	printf("|------------|-------------|-------------------|--------------|-----------|------------------|\n");
	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		u64 n = sides[i], rolls = n > 1000 ? 200000 : 1000000;
		double fresh = sampler_cost(n, false, rolls);
		double rec = sampler_cost(n, true, rolls);

		printf("| %-10llu | %-11.5f | %-17.5f | %-12.5f | %-9.5f | %+-16.6f |\n",
		       (unsigned long long)n, log2((double)n), knuth_yao(n),
		       fresh, rec, rec - log2((double)n));
		if (n == 6)
			d6 = rec;
	}
	printf("\nWeighted draws: fair bits per draw (10^6 draws each)\n\n");
	printf("| weights  | faces | H(w)     | bits/draw | bits - H  | log2(W)  |\n");
	printf("|----------|-------|----------|-----------|-----------|----------|\n");
	for (i = 0; i < FD_WSETS; i++) {
		u64 w[FD_WSET_MAX], total = 0;
		u32 count = fd_wset(i, w), j;
		double h = fd_wset_entropy(w, count);
		double c = weights_cost(w, count, 1000000);

		for (j = 0; j < count; j++)
			total += w[j];
		printf("| %-8s | %-5u | %-8.5f | %-9.5f | %+-9.5f | %-8.3f |\n",
		       fd_wset_names[i], count, h, c, c - h,
		       log2((double)total));
	}
	printf("\nRecycled d6: %.6f fair bits per roll; Peres at p = 0.5, 0.7, 0.9: %.4f, %.4f, %.4f of H(p)\n",
	       d6, peres_eff[0], peres_eff[1], peres_eff[2]);
	return 0;
}
