// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - shuffles, samples, craps and roulette on the engine: on
 * every string of fair bits up to a length, on random bits, and on the
 * test double's scripted dice.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "fd_check.h"
#include "test_enum.h"

static u64 fdt_gcd(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static u64 fdt_factorial(u64 n)
{
	u64 f = 1;

	while (n > 1)
		f *= n--;
	return f;
}

/*
 * A control for the exhaustive test: "swap item i with any of the n
 * items", n^n equally likely sequences of exact draws for n! permutations.
 * Biased for n >= 3, so the test must say so.
 */
static int fdt_naive_shuffle(struct fdc_engine *e, u64 *perm, u64 n, u64 k)
{
	u64 i, tmp, j;

	(void)k;
	for (i = 0; i < n; i++) {
		if (fdc_engine_draw(e, n, &j))
			return -1;
		tmp = perm[i];
		perm[i] = perm[j];
		perm[j] = tmp;
	}
	return 0;
}

/* The sparse sample of fdc_sample() as a shuffle of the first k items. */
static int fdt_sparse_shuffle(struct fdc_engine *e, u64 *perm, u64 n, u64 k)
{
	u64 pick[8], i;

	if (fdc_sample(e, n, k, pick))
		return -1;
	for (i = 0; i < k; i++)
		perm[i] = pick[i];
	return 0;
}

/*
 * The sample of k of a stream of n items as shuf.c draws it: a reservoir
 * started from the first m items read at once (m = fdt_res_m), then a
 * draw per item (fdc_reservoir_slot()).
 */
static u64 fdt_res_m;
static bool fdt_res_give_back;

static int fdt_reservoir(struct fdc_engine *e, u64 *perm, u64 n, u64 k)
{
	u64 res[8], m = fdt_res_m < n ? fdt_res_m : n, i, slot;
	u64 filled = k < m ? k : m;

	e->give_back = fdt_res_give_back;
	if (fdc_reservoir_start(e, m, k, res))
		return -1;
	for (i = m; i < n; i++) {
		if (fdc_reservoir_slot(e, i, k, &slot))
			return -1;
		if (i < k) {
			res[i] = res[slot];
			res[slot] = i;
			filled++;
		} else if (slot < k) {
			res[slot] = i;
		}
	}
	for (i = 0; i < filled; i++)
		perm[i] = res[i];
	return 0;
}

typedef int (*fdt_shuffle_fn)(struct fdc_engine *e, u64 *perm, u64 n,
			      u64 k);

/*
 * The reservoir with the values it does not need given back to the state
 * (fdc_engine_give_back(), sources without end): the bits a run takes then
 * depend on its outcome, so the check at every depth does not apply. The
 * probability of each ordered sample over every string of @depth bits,
 * each run weighing 2^-(bits it took), must be within the probability of
 * the runs left unfinished of the exact one.
 */
static void fdt_reservoir_given_back(u64 n, u64 k, u64 m,
				     unsigned int precision,
				     unsigned int depth)
{
	u64 nout = fdt_factorial(n) / fdt_factorial(n - k), s, r, i, j, less;
	double *mass = calloc(nout, sizeof(*mass)), done = 0, worst = 0;
	struct fdc_engine eng;
	u8 bits[FDT_MAX_DEPTH];
	u64 perm[8], bad = 0;
	int saved_err;

	if (!mass || depth > FDT_MAX_DEPTH || n > 8)
		abort();
	fdt_res_m = m;
	fdt_res_give_back = true;
	saved_err = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		if (fdc_fake_bits_open(&eng, bits, depth, precision))
			abort();
		eng.draw_max = 1;
		if (fdt_reservoir(&eng, perm, n, k)) {
			fdc_engine_close(&eng);
			continue;
		}
		/* The strings that share the bits it took are counted once. */
		if (s >> fdc_engine_bits_used(&eng)) {
			fdc_engine_close(&eng);
			continue;
		}
		fdc_engine_close(&eng);
		for (i = 0, r = 0; i < k; i++) {
			for (j = 0, less = 0; j < i; j++)
				less += perm[j] < perm[i];
			r = r * (n - i) + perm[i] - less;
		}
		if (r >= nout) {
			bad++;
			continue;
		}
		mass[r] += ldexp(1, -(int)fdc_engine_bits_used(&eng));
	}
	fd_check_stderr_on(saved_err);
	fdt_res_give_back = false;
	for (r = 0; r < nout; r++)
		done += mass[r];
	for (r = 0; r < nout; r++)
		if (fabs(mass[r] - 1.0 / nout) > worst)
			worst = fabs(mass[r] - 1.0 / nout);
	CHECK(!bad && done > 0.99 && worst <= 1 - done + ldexp(1, -40),
	      "reservoir given back, %llu of %llu from the first %llu: off by %g, %g unfinished",
	      (unsigned long long)k, (unsigned long long)n,
	      (unsigned long long)m, worst, 1 - done);
	printf("given back: %llu of %llu from the first %llu, 2^%u bits: ",
	       (unsigned long long)k, (unsigned long long)n,
	       (unsigned long long)m, depth);
	printf("each within %.2g of 1/%llu, %.2g unfinished\n", worst,
	       (unsigned long long)nout, 1 - done);
	free(mass);
}

/*
 * Feed the shuffle of @n (its first @k items drawn) every string of @depth
 * fair bits, with the sampler's state topped up to 2^@precision; the
 * outcome is the ordered sample (fdt_enum_check()). At least 99% of the
 * strings must finish: a sampler that never finished where it should
 * reject would pass the check alone. @draw_max 1 takes each draw alone; 0
 * leaves the engine's products.
 *
 * Return: whether they are, at every depth.
 */
static bool fdt_shuffle_enumerate(u64 n, u64 k, unsigned int precision,
				  u64 draw_max, unsigned int depth,
				  fdt_shuffle_fn shuffle, bool quiet)
{
	u64 nout = fdt_factorial(n) / fdt_factorial(n - k), s, r, u, each;
	u64 (*hist)[FDT_MAX_DEPTH + 1] = calloc(nout, sizeof(*hist));
	u64 bad_run = 0, done = 0;
	unsigned int bad_depths;
	struct fdc_engine eng;
	u8 bits[FDT_MAX_DEPTH];
	u64 perm[8], i;
	int saved_err;
	bool ok;

	if (!hist || depth > FDT_MAX_DEPTH || n > 8)
		abort();
	/* Strings that run out print the engine's error: not wanted here. */
	saved_err = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		if (fdc_fake_bits_open(&eng, bits, depth, precision))
			abort();
		if (draw_max)
			eng.draw_max = draw_max;
		for (i = 0; i < n; i++)
			perm[i] = i;
		if (shuffle(&eng, perm, n, k)) {
			fdc_engine_close(&eng);
			continue;
		}
		u = fdc_engine_bits_used(&eng);
		fdc_engine_close(&eng);
		/* The rank of the first k items among the ordered samples. */
		for (i = 0, r = 0; i < k; i++) {
			u64 less = 0, j;

			for (j = 0; j < i; j++)
				less += perm[j] < perm[i];
			r = r * (n - i) + perm[i] - less;
		}
		if (r >= nout || u > depth) {
			bad_run++;
			continue;
		}
		hist[r][u]++;
		done++;
	}
	fd_check_stderr_on(saved_err);
	each = fdt_enum_check(hist, nout, depth, &bad_run, &bad_depths);
	ok = !bad_run && !bad_depths && each &&
	     done >= (1ULL << depth) / 100 * 99;
	if (!quiet) {
		CHECK(ok,
		      "%llu of %llu, precision %u, draw_max %llu, %u bits: %llu bad runs, unequal at %u depths",
		      (unsigned long long)k, (unsigned long long)n, precision,
		      (unsigned long long)draw_max, depth,
		      (unsigned long long)bad_run, bad_depths);
		printf("exact: %llu of %llu, 2^%-2u state, %s: 2^%u bit strings, %5.1f%% finish;",
		       (unsigned long long)k, (unsigned long long)n, precision,
		       draw_max == 1 ? "draws alone" : "products   ", depth,
		       100.0 * done / (1ULL << depth));
		printf(" each of the %llu from %llu\n", (unsigned long long)nout,
		       (unsigned long long)each);
	}
	free(hist);
	return ok;
}

static void fdt_shuffle_exhaustive(void)
{
	static const struct {
		u64 n, k;
		unsigned int precision;
		u64 draw_max;
		unsigned int depth;
	} runs[] = {
		/* Each draw alone, the state barely above the die. */
		{ 3, 3, 2, 1, 16 }, { 3, 3, 4, 1, 16 },
		{ 4, 4, 3, 1, 16 }, { 4, 4, 5, 1, 16 },
		{ 5, 5, 3, 1, 18 }, { 5, 5, 5, 1, 17 },
		/* Products of the sizes, split in mixed radix. */
		{ 3, 3, 3, 0, 16 }, { 4, 4, 5, 0, 16 }, { 5, 5, 7, 0, 18 },
		{ 5, 5, 10, 0, 20 }, { 6, 6, 10, 0, 20 },
		/* Partial shuffles. */
		{ 5, 2, 5, 0, 16 }, { 6, 3, 7, 1, 18 }, { 6, 3, 8, 0, 18 },
	};
	static const struct {
		u64 n, k, m;
		unsigned int precision, depth;
	} res_runs[] = {
		/* A draw per item from the first; the reservoir fills, then
		 * replaces; k = n is a whole shuffle, inside out.
		 */
		{ 4, 2, 0, 4, 16 }, { 5, 2, 0, 5, 18 }, { 5, 3, 0, 5, 18 },
		{ 4, 4, 0, 4, 16 }, { 6, 1, 0, 5, 18 },
		/* Started from a sample of the first m lines. */
		{ 5, 2, 3, 5, 18 }, { 6, 2, 4, 5, 18 }, { 5, 3, 2, 5, 18 },
		{ 5, 5, 2, 5, 18 },
	};
	unsigned int i;
	bool ok;

	for (i = 0; i < ARRAY_SIZE(runs); i++)
		fdt_shuffle_enumerate(runs[i].n, runs[i].k, runs[i].precision,
				      runs[i].draw_max, runs[i].depth,
				      fdc_shuffle, false);
	/* The sparse sample is exact too. */
	fdt_shuffle_enumerate(5, 2, 5, 0, 16, fdt_sparse_shuffle, false);
	fdt_shuffle_enumerate(6, 3, 6, 1, 18, fdt_sparse_shuffle, false);
	/*
	 * io_reservoir: shuffle -n K and sample of lines, in O(K) memory,
	 * started from the first m lines: every ordered sample equally likely.
	 */
	for (i = 0; i < ARRAY_SIZE(res_runs); i++) {
		fdt_res_m = res_runs[i].m;
		printf("reservoir from the first %llu: ",
		       (unsigned long long)fdt_res_m);
		fdt_shuffle_enumerate(res_runs[i].n, res_runs[i].k,
				      res_runs[i].precision, 1,
				      res_runs[i].depth, fdt_reservoir, false);
	}
	fdt_reservoir_given_back(5, 2, 0, 5, 18);
	fdt_reservoir_given_back(6, 1, 0, 5, 18);
	fdt_reservoir_given_back(6, 2, 3, 5, 18);
	/* The control: the same check must see the naive shuffle's bias. */
	ok = fdt_shuffle_enumerate(3, 3, 3, 1, 14, fdt_naive_shuffle, true);
	CHECK(!ok, "the naive shuffle of 3 passed the exhaustive check");
	printf("control: naive shuffle of 3 (27 draw sequences): %s\n",
	       ok ? "uniform" : "NOT uniform");
}

/*
 * The shuffle of 10 with the engine's settings on random fair bits: each
 * item in each place (81 degrees of freedom) and the first three places
 * together (720 cells, 719 dof), chi-square below the 1e-6 quantile.
 */
static void fdt_shuffle_ten(void)
{
	static u64 first3[720];
	u64 where[10][10] = { { 0 } }, i, k, n = 200000;
	double chi_where = 0, chi_first = 0, e;
	struct fdc_engine eng;
	u64 perm[10];
	int bad = 0;

	fdc_source_open_seed(&eng.src, 10);
	fdc_engine_open_source(&eng, 0);
	for (i = 0; i < n; i++) {
		for (k = 0; k < 10; k++)
			perm[k] = k;
		bad |= fdc_shuffle(&eng, perm, 10, 10);
		for (k = 0; k < 10; k++)
			where[perm[k]][k]++;
		/* Mixed radix of three different items: 10 * 9 * 8 cells. */
		k = perm[1] - (perm[1] > perm[0]);
		k = (perm[0] * 9 + k) * 8 + perm[2] - (perm[2] > perm[0]) -
		    (perm[2] > perm[1]);
		first3[k]++;
	}
	e = n / 10.0;
	for (i = 0; i < 10; i++)
		for (k = 0; k < 10; k++)
			chi_where += (where[i][k] - e) * (where[i][k] - e) / e;
	e = n / 720.0;
	for (k = 0; k < 720; k++)
		chi_first += (first3[k] - e) * (first3[k] - e) / e;
	CHECK(!bad && chi_where < 156.5 && chi_first < 913.9,
	      "shuffle of 10: chi-square %.1f (81 dof), %.1f (719 dof)",
	      chi_where, chi_first);
	printf("shuffle of 10, %llu times: item x place chi-square %.1f (81 dof, limit 156.5);",
	       (unsigned long long)n, chi_where);
	printf(" first three places %.1f (719 dof, limit 913.9)\n", chi_first);
	fdc_engine_close(&eng);
}

/* What a shuffle costs: about log2(n!) fair bits. */
static void fdt_shuffle_cost(void)
{
	struct fdc_engine eng;
	double need = fdc_log2_factorial(52), per;
	u64 perm[52], *big, used, i, k, n = 1000;
	int bad = 0;

	/* 52! = 8.0658175170943878e67 */
	CHECK(fabs(need - log2(8.0658175170943878e67)) < 0.000001 &&
	      !fdc_log2_factorial(1) && !fdc_log2_factorial(0) &&
	      fabs(fdc_log2_factorial(3) - log2(6)) < 0.000000001,
	      "log2(52!) = %.6f", need);

	/* A fresh 52-card shuffle: log2(52!) and the state, at most 64 bits. */
	fdc_source_open_seed(&eng.src, 52);
	fdc_engine_open_source(&eng, 0);
	for (k = 0; k < 52; k++)
		perm[k] = k;
	bad |= fdc_shuffle(&eng, perm, 52, 52);
	used = fdc_engine_bits_used(&eng);
	CHECK(!bad && used > need && used < need + 64,
	      "52 cards: %llu bits used", (unsigned long long)used);
	printf("shuffle of 52: %llu fair bits used (log2(52!) = %.2f)\n",
	       (unsigned long long)used, need);

	/* Shuffle after shuffle, the state carries over: ~log2(52!) each. */
	for (i = 1; i < n; i++) {
		for (k = 0; k < 52; k++)
			perm[k] = k;
		bad |= fdc_shuffle(&eng, perm, 52, 52);
	}
	per = (double)fdc_engine_bits_used(&eng) / n;
	CHECK(!bad && per < need + 0.1 && per > need - 0.1,
	      "%.3f fair bits per 52-card shuffle, log2(52!) = %.3f", per,
	      need);
	printf("%llu shuffles of 52: %.3f fair bits each\n",
	       (unsigned long long)n, per);
	fdc_engine_close(&eng);

	/*
	 * One shuffle of 10, 52, 100 and 1000 items from a fresh state, on
	 * several seeds: the sampler takes in at most log2(N!) + 64 bits (the
	 * state it fills to 2^63 is all it keeps over), and what the state
	 * still holds at the end accounts for the rest: the draws spend
	 * log2(N!) and less than a bit more.
	 */
	for (i = 0; i < 16; i++) {
		static const u64 sizes[] = { 10, 52, 100, 1000 };
		u64 size = sizes[i % 4];
		double spent;

		big = malloc(size * sizeof(*big));
		if (!big)
			abort();
		fdc_source_open_seed(&eng.src, 1000 + i);
		fdc_engine_open_source(&eng, 0);
		need = fdc_log2_factorial(size);
		for (k = 0; k < size; k++)
			big[k] = k;
		bad = fdc_shuffle(&eng, big, size, size);
		used = fdc_engine_bits_used(&eng);
		spent = used - fdc_engine_bits_held(&eng);
		CHECK(!bad && used <= need + 64 && spent > need - 0.000001 &&
		      spent < need + 1,
		      "shuffle of %llu: %llu bits taken, %.2f spent, log2(N!) = %.2f",
		      (unsigned long long)size, (unsigned long long)used, spent,
		      need);
		if (i >= 12)
			printf("shuffle of %llu, seed %llu: %llu bits taken, %.2f spent (%.2f)\n",
			       (unsigned long long)size,
			       (unsigned long long)(1000 + i),
			       (unsigned long long)used, spent, need);
		fdc_engine_close(&eng);
		free(big);
	}

	/* 100000 items: within 0.02% of log2(100000!). */
	big = malloc(100000 * sizeof(*big));
	if (!big)
		abort();
	fdc_source_open_seed(&eng.src, 100000);
	fdc_engine_open_source(&eng, 0);
	need = fdc_log2_factorial(100000);
	for (k = 0; k < 100000; k++)
		big[k] = k;
	bad |= fdc_shuffle(&eng, big, 100000, 100000);
	used = fdc_engine_bits_used(&eng);
	CHECK(!bad && used < need * 1.0002 && used > need,
	      "shuffle of 100000: %llu bits used, log2(N!) = %.0f",
	      (unsigned long long)used, need);
	printf("shuffle of 100000: %llu fair bits used, log2(100000!) = %.0f\n",
	       (unsigned long long)used, need);
	fdc_engine_close(&eng);
	free(big);
}

/* Draws of any size: the edges, and sizes that need 128-bit arithmetic. */
static void fdt_draw_sizes(void)
{
	u64 top[3] = { 0 }, huge = 3ULL << 62, v, i, n = 30000, odd = 0;
	struct fdc_engine eng;
	double chi = 0, e = n / 3.0;
	int bad = 0;

	fdc_source_open_seed(&eng.src, 3);
	fdc_engine_open_source(&eng, 0);
	bad |= fdc_engine_draw(&eng, 1, &v) || v != 0 || eng.bits_read;
	CHECK(!bad, "a draw of 1 value is 0 and reads nothing");
	printf("one error message expected:\n");
	CHECK(fdc_engine_draw(&eng, 0, &v) == -1, "a draw of 0 values");
	for (i = 0; i < n && !bad; i++) {
		/* 3 * 2^62 values: a 128-bit state; then a d7. */
		bad |= fdc_engine_draw(&eng, huge, &v) || v >= huge;
		top[v >> 62]++;
		bad |= fdc_engine_draw(&eng, 7, &v) || v >= 7;
		odd += v & 1;
	}
	for (i = 0; i < 3; i++)
		chi += (top[i] - e) * (top[i] - e) / e;
	/* 2 dof: 1e-6 quantile 27.6; d7 odd 3/7 of the time, 5 sigma. */
	CHECK(!bad && chi < 27.6 &&
	      fabs(odd - n * 3.0 / 7) < 5 * sqrt(n * 12.0 / 49),
	      "draws of 3*2^62 and 7: chi-square %.1f, %llu odd", chi,
	      (unsigned long long)odd);
	fdc_engine_close(&eng);
}

static void fdt_shuffle_random(void)
{
	struct fdc_engine eng;
	u64 where[6][6] = { { 0 } }, i, k, n = 60000, bad = 0;
	double chi2 = 0, expect = n / 6.0;
	u64 perm[6], big[1000], pick[1000];
	unsigned char mark[1000] = { 0 };

	if (fdc_fake_open(&eng, 99))
		abort();
	for (i = 0; i < n; i++) {
		for (k = 0; k < 6; k++)
			perm[k] = k;
		bad += !!fdc_shuffle(&eng, perm, 6, 6);
		for (k = 0; k < 6; k++)
			where[perm[k]][k]++;
	}
	/* Each item lands in each place 1/6 of the time: 36 cells with 25
	 * to 30 degrees of freedom; above 65 has probability under 1e-4.
	 */
	for (i = 0; i < 6; i++)
		for (k = 0; k < 6; k++)
			chi2 += (where[i][k] - expect) * (where[i][k] - expect) /
				expect;
	CHECK(!bad && chi2 < 65, "shuffle positions chi-square %.1f", chi2);
	printf("shuffle of 6, %llu times: item x place chi-square %.2f (36 cells)\n",
	       (unsigned long long)n, chi2);

	for (k = 0; k < 1000; k++)
		big[k] = k;
	bad += !!fdc_shuffle(&eng, big, 1000, 1000);
	for (k = 0; k < 1000; k++)
		bad += big[k] >= 1000 || mark[big[k]]++;
	CHECK(!bad, "shuffle of 1000 is not a permutation");
	big[0] = 0;
	bad = fdc_shuffle(&eng, big, 0, 0) || fdc_shuffle(&eng, big, 1, 1) ||
	      big[0] != 0;
	CHECK(!bad, "shuffles of 0 and 1 items");
	fdc_engine_close(&eng);

	/* The dense and the sparse sample: the same from the same bits. */
	for (i = 0; i < 3; i++) {
		struct fdc_engine a, b;

		fdc_source_open_seed(&a.src, i);
		fdc_engine_open_source(&a, 0);
		fdc_source_open_seed(&b.src, i);
		fdc_engine_open_source(&b, 0);
		for (k = 0; k < 1000; k++)
			big[k] = k;
		bad |= fdc_shuffle(&a, big, 1000, 300) ||
		       fdc_sample(&b, 1000, 300, pick) ||
		       memcmp(big, pick, 300 * sizeof(*big));
		fdc_engine_close(&a);
		fdc_engine_close(&b);
	}
	CHECK(!bad, "300 of 1000: the dense and the sparse sample differ");
}

static void fdt_craps_rules(void)
{
	static const struct {
		unsigned int throws[6];
		size_t n;
		int outcome;
		size_t used;
	} games[] = {
		{ { 7 }, 1, 1, 1 },
		{ { 11 }, 1, 1, 1 },
		{ { 2 }, 1, 0, 1 },
		{ { 3 }, 1, 0, 1 },
		{ { 12 }, 1, 0, 1 },
		{ { 4, 4 }, 2, 1, 2 },
		{ { 4, 7 }, 2, 0, 2 },
		{ { 8, 11, 2, 12, 3, 8 }, 6, 1, 6 },
		{ { 10, 5, 6, 7, 10 }, 5, 0, 4 },
		{ { 6, 5, 4 }, 3, -1, 3 },
		{ { 9 }, 1, -1, 1 },
	};
	unsigned int i;
	size_t used;
	int r;

	for (i = 0; i < ARRAY_SIZE(games); i++) {
		r = fdc_craps_outcome(games[i].throws, games[i].n, &used);
		CHECK(r == games[i].outcome && used == games[i].used,
		      "craps game %u: outcome %d after %zu throws", i, r, used);
	}
}

/*
 * P(win) from the rules, with the weights the throws are drawn with
 * (fdc_sum_weights(), checked against 6 - |t - 7| ways): come-out 7 or
 * 11, or a point p followed by p before 7, with probability
 * P(p) * P(p) / (P(p) + P(7)).
 */
static void fdt_craps_exact(void)
{
	u64 w[11], num, den, g, bad = 0;
	unsigned int p;

	fdc_sum_weights(2, 6, w);
	for (p = 2; p <= 12; p++)
		bad += w[p - 2] != 6 - (p > 7 ? p - 7 : 7 - p);
	CHECK(!bad, "craps: the weights of 2..12 are not 1, 2, ..., 6, ..., 1");
	num = w[7 - 2] + w[11 - 2];
	den = 36;
	for (p = 4; p <= 10; p++) {
		u64 wp = w[p - 2], n2, d2;

		if (p == 7)
			continue;
		/* (w/36)^2 / ((w + w7)/36) = w^2 / (36 (w + w7)) */
		n2 = wp * wp;
		d2 = 36 * (wp + w[7 - 2]);
		num = num * d2 + n2 * den;
		den = den * d2;
		g = fdt_gcd(num, den);
		num /= g;
		den /= g;
	}
	CHECK(num == FDC_CRAPS_WIN_NUM && den == FDC_CRAPS_WIN_DEN,
	      "craps P(win) = %llu/%llu", (unsigned long long)num,
	      (unsigned long long)den);
}

/*
 * The double of the device draws a throw's total as a roll of 36 (the
 * inverse method): the first value of total t's interval, the ways of the
 * totals below it, scripts it.
 */
static u64 fdt_craps_total(unsigned int t)
{
	u64 x = 0, s;

	for (s = 2; s < t; s++)
		x += 6 - (s > 7 ? s - 7 : 7 - s);
	return x;
}

static void fdt_craps_play(void)
{
	/* 8: the point; 5; 8 again: win. Then 2: craps. Then 12 and 7. */
	static const unsigned int totals[] = { 8, 5, 8, 2, 12, 7 };
	u64 script[ARRAY_SIZE(totals)];
	struct fdc_engine dev;
	char trace[128] = "";
	u64 throws = 0, wins = 0, i, n = 200000, bits, made, log_bad = 0;
	const u64 *log;
	size_t log_len;
	bool win;
	FILE *f;
	int ret;
	double frac, exact = (double)FDC_CRAPS_WIN_NUM / FDC_CRAPS_WIN_DEN;

	for (i = 0; i < ARRAY_SIZE(totals); i++)
		script[i] = fdt_craps_total(totals[i]);
	if (fdc_fake_open(&dev, 0))
		abort();
	fdc_fake_script(&dev, script, ARRAY_SIZE(script));
	f = fmemopen(trace, sizeof(trace), "w");
	ret = fdc_craps_game(&dev, &win, &throws, f);
	fclose(f);
	CHECK(!ret && win && throws == 3 && !strcmp(trace, "8 5 8 win"),
	      "scripted craps: '%s', %llu throws", trace,
	      (unsigned long long)throws);
	ret = fdc_craps_game(&dev, &win, &throws, NULL);
	CHECK(!ret && !win && throws == 4, "scripted craps: 2");
	f = fmemopen(trace, sizeof(trace), "w");
	ret = fdc_craps_game(&dev, &win, &throws, f) ||
	      fdc_craps_game(&dev, &win, &throws, f);
	fclose(f);
	CHECK(!ret && win && throws == 6 && !strcmp(trace, "12 lose7 win"),
	      "scripted craps: 12, then 7: '%s'", trace);
	/* One roll of the double per throw, of 36 values: the total whole. */
	log_len = fdc_fake_log(&dev, &log);
	for (i = 0; i < log_len; i++)
		log_bad += log[i] != 36;
	CHECK(log_len == 6 && !log_bad,
	      "scripted craps: %zu draws, %llu not of 36 values", log_len,
	      (unsigned long long)log_bad);
	fdc_engine_close(&dev);

	if (fdc_fake_open(&dev, 2024))
		abort();
	for (i = 0, ret = 0; i < n && !ret; i++) {
		ret = fdc_craps_game(&dev, &win, &throws, NULL);
		wins += win;
	}
	fdc_engine_close(&dev);
	frac = (double)wins / n;
	/* 5 standard deviations: 5 * sqrt(p (1 - p) / n) = 0.0056 */
	CHECK(!ret && fabs(frac - exact) < 5 * sqrt(exact * (1 - exact) / n),
	      "craps win fraction %.5f, exact %.5f", frac, exact);
	printf("craps, %llu games: win fraction %.5f, exact %.5f\n",
	       (unsigned long long)n, frac, exact);

	/*
	 * The module's weighted sampler on seeded fair bits, as the tool
	 * plays --seed: the same fraction, and the fair bits a throw took,
	 * totals made ahead included, against 3.28 (the entropy is 3.2744)
	 * and the 5.17 of two d6.
	 */
	fdc_source_open_seed(&dev.src, 495);
	fdc_engine_open_source(&dev, 0);
	for (i = 0, ret = 0, wins = 0, throws = 0; i < n && !ret; i++) {
		ret = fdc_craps_game(&dev, &win, &throws, NULL);
		wins += win;
	}
	ret |= fdc_engine_cost(&dev, &bits, &made);
	fdc_engine_close(&dev);
	frac = (double)wins / n;
	CHECK(!ret && fabs(frac - exact) < 5 * sqrt(exact * (1 - exact) / n),
	      "craps on fair bits: win fraction %.5f, exact %.5f", frac, exact);
	CHECK(!ret && made >= throws && made - throws <= FDC_CACHE_MAX &&
	      (double)bits / made <= 3.28 &&
	      (double)bits / made >= FDC_CRAPS_ENTROPY - 0.01,
	      "craps: %.4f fair bits a throw, entropy %.4f", (double)bits / made,
	      FDC_CRAPS_ENTROPY);
	printf("craps on fair bits, %llu games: win fraction %.5f;",
	       (unsigned long long)n, frac);
	printf(" %llu throws, %.4f fair bits each (entropy %.4f, two d6 %.4f)\n",
	       (unsigned long long)throws, (double)bits / made,
	       FDC_CRAPS_ENTROPY, 2 * log2(6));
}

static void fdt_roulette(void)
{
	static const unsigned int reds[] = {
		1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36
	};
	unsigned int p, i, red = 0, black = 0, bad = 0;

	for (p = 0; p < FDC_ROULETTE_POCKETS; p++) {
		enum fdc_colour c = fdc_roulette_colour(p);
		bool listed = false;

		for (i = 0; i < ARRAY_SIZE(reds); i++)
			listed |= reds[i] == p;
		red += c == FDC_RED;
		black += c == FDC_BLACK;
		bad += (c == FDC_RED) != listed || (c == FDC_GREEN) != !p;
	}
	CHECK(!bad && red == 18 && black == 18,
	      "roulette: %u red, %u black, %u wrong", red, black, bad);
	CHECK(!strcmp(fdc_colour_name(fdc_roulette_colour(0)), "green") &&
	      !strcmp(fdc_colour_name(fdc_roulette_colour(32)), "red") &&
	      !strcmp(fdc_colour_name(fdc_roulette_colour(15)), "black"),
	      "roulette colour names");
}

int main(void)
{
	fdt_shuffle_exhaustive();
	fdt_shuffle_ten();
	fdt_shuffle_cost();
	fdt_draw_sizes();
	fdt_shuffle_random();
	fdt_craps_rules();
	fdt_craps_exact();
	fdt_craps_play();
	fdt_roulette();
	return fd_check_summary();
}
