/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie bench - what the parts of the host benchmark share: options,
 * timing, medians, and the collected results (BENCH lines, plot data).
 */
#ifndef _FAIRDIE_BENCH_H
#define _FAIRDIE_BENCH_H

#include <stdio.h>

#include "fd_shim.h"

#define BENCH_MAX_REPS	32
#define BENCH_NSIDES	5

/**
 * struct bench_opts - what the command line chose
 * @secs: seconds per timed measurement of a source-bound method
 * @cpu_secs: seconds per timed measurement of a CPU-bound one
 * @reps: repetitions of every measurement
 * @shuf_n: rolls per run of shuf
 * @coin_bits: raw bits per extractor efficiency measurement
 * @data: file for the plot data, or NULL
 * @only: run only this section ("rdseed", "cpu", "serve", "coin",
 *	"weights"), or
 *	NULL for all
 */
struct bench_opts {
	double secs;
	double cpu_secs;
	int reps;
	long shuf_n;
	u64 coin_bits;
	const char *data;
	const char *only;
};

extern struct bench_opts bench_opt;
extern const u64 bench_sides[BENCH_NSIDES];

/**
 * struct bench_stat - the values of one figure over the repetitions
 * @v: the values
 * @n: how many
 */
struct bench_stat {
	double v[BENCH_MAX_REPS];
	int n;
};

/* Keep the compiler from dropping a result that nobody reads. */
static inline void bench_keep(u64 x)
{
	asm volatile("" : : "r" (x));
}

double bench_now(void);
double bench_cpu_now(void);
void bench_stat_add(struct bench_stat *s, double v);
double bench_median(const struct bench_stat *s);
double bench_min(const struct bench_stat *s);
double bench_max(const struct bench_stat *s);
const char *bench_si(char *buf, size_t len, double v);
const char *bench_spread(char *buf, size_t len, const struct bench_stat *s);
void bench_key(double v, const char *fmt, ...);
void bench_point(const char *method, u64 sides, double bits_per_roll,
		 double rolls_per_s);
double bench_log2(u64 sides);
void bench_para(const char * const *text);
int bench_write_data(const char *path);
void bench_print_keys(void);

double bench_rd_ratio(int side, int ext);
int bench_cpu(void);
int bench_coin(void);
int bench_weights(void);

#endif /* _FAIRDIE_BENCH_H */
