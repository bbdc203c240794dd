// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - weighted draws (driver/fd_weights.c).
 *
 * The draw the read path makes, fd_weights_fill() into faces of the die's
 * width, on a pool topped up from a precomputed bit stream in memory (1 MiB
 * of splitmix64 output, read round and round), as the sampler's own CPU
 * figure is measured: draws per second on one core, and the fair bits a
 * draw costs against the entropy H(w) of the weights.
 */

#include <stdlib.h>

#include "bench.h"
#include "fd_roll.h"
#include "fd_sim.h"
#include "fd_weights.h"
#include "fd_wsets.h"

#define BENCH_W_WORDS	131072		/* 1 MiB */

static u64 *bench_w_mem;

/* Draws per second of @w on one core; *@bits gets fair bits per draw. */
static double bench_weights_rate(const struct fd_weights *w, double *bits)
{
	static struct fd_pool pool;
	static u8 out[4096 * 2];
	u32 width = fd_roll_width(w->count), per = sizeof(out) / width, i, n;
	struct fd_sampler s;
	u64 acc = 0, draws = 0, mi = 0;
	double t0, t;

	fd_pool_clear(&pool);
	fd_sampler_init(&s, 6, true);
	fd_weights_attach(w, &s);
	t0 = bench_cpu_now();
	do {
		for (i = 0; i < per; i += n) {
			n = fd_weights_fill(w, &s, &pool, out + i * width,
					    per - i, width);
			if (i + n < per)
				while (fd_pool_room(&pool) >= 64)
					fd_pool_put(&pool, bench_w_mem[mi++ %
						    BENCH_W_WORDS], 64);
		}
		acc += out[mi % sizeof(out)];
		draws += per;
		t = bench_cpu_now() - t0;
	} while (t < bench_opt.cpu_secs);
	bench_keep(acc);
	*bits = (double)s.bits / draws;
	return draws / t;
}

/**
 * bench_weights() - the weighted draws: speed and fair bits per draw
 *
 * Return: 0, or -1 when memory ran out.
 */
int bench_weights(void)
{
	u64 state = 0x452821e638d01377ULL, weights[FD_WSET_MAX];
	struct fd_weights w;
	unsigned int i;
	int rep;

	bench_w_mem = malloc(BENCH_W_WORDS * sizeof(*bench_w_mem));
	if (!bench_w_mem)
		return -1;
	for (i = 0; i < BENCH_W_WORDS; i++)
		bench_w_mem[i] = fd_splitmix64(&state);

	printf("## Weighted draws on a precomputed bit stream (one core)\n\n");
	printf("fd_weights_fill(), the read path's weighted draw, on fair bits from\n");
	printf("memory: draws per second, and fair bits per draw against the entropy\n");
	printf("H(w) of the weights (target: within 0.01 bit).\n\n");
	printf("| weights | faces | H(w) | fair bits/draw | minus H | draws/s median (min-max) |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < FD_WSETS; i++) {
		u32 count = fd_wset(i, weights);
		size_t words = fd_weights_table_words(count);
		u64 *table = calloc(words, sizeof(*table));
		struct bench_stat st = { 0 };
		double h = fd_wset_entropy(weights, count), bits = 0;
		char a[64];

		if (!table)
			return -1;
		memcpy(table + 1, weights, count * sizeof(*weights));
		if (fd_weights_init(&w, table, count)) {
			free(table);
			return -1;
		}
		for (rep = 0; rep < bench_opt.reps; rep++)
			bench_stat_add(&st, bench_weights_rate(&w, &bits));
		printf("| %s | %u | %.5f | %.5f | %+.5f | %s |\n",
		       fd_wset_names[i], count, h, bits, bits - h,
		       bench_spread(a, sizeof(a), &st));
		bench_key(bits, "weights_bits_per_draw_%s", fd_wset_names[i]);
		bench_key(h, "weights_entropy_%s", fd_wset_names[i]);
		bench_key(bench_median(&st), "weights_draws_per_s_%s",
			  fd_wset_names[i]);
		free(table);
	}
	printf("\n");
	free(bench_w_mem);
	bench_w_mem = NULL;
	return 0;
}
