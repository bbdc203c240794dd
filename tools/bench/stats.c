// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the statistics of the host benchmark: clocks, medians
 * and spreads over repetitions, SI prefixes, and the collected results
 * (the BENCH lines for machines, the plot data).
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

#define BENCH_MAX_KEYS		512
#define BENCH_MAX_POINTS	128

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * CPU seconds of this thread: the CPU-bound figures are per core, and a
 * machine shared with other work would otherwise halve them at random.
 */
double bench_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void bench_stat_add(struct bench_stat *s, double v)
{
	if (s->n < BENCH_MAX_REPS)
		s->v[s->n++] = v;
}

static int bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_median(const struct bench_stat *s)
{
	double v[BENCH_MAX_REPS];

	if (!s->n)
		return NAN;
	memcpy(v, s->v, s->n * sizeof(v[0]));
	qsort(v, s->n, sizeof(v[0]), bench_cmp);
	return s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
}

double bench_min(const struct bench_stat *s)
{
	double m = INFINITY;
	int i;

	for (i = 0; i < s->n; i++)
		m = fmin(m, s->v[i]);
	return s->n ? m : NAN;
}

double bench_max(const struct bench_stat *s)
{
	double m = -INFINITY;
	int i;

	for (i = 0; i < s->n; i++)
		m = fmax(m, s->v[i]);
	return s->n ? m : NAN;
}

/* @v with an SI prefix and three significant digits: "1.23 M". */
const char *bench_si(char *buf, size_t len, double v)
{
	static const char prefix[] = " kMGT";
	int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, "%.3g%s%c", v, i ? " " : "", i ? prefix[i] : '\0');
	return buf;
}

/* Print a paragraph given as a NULL-terminated list of pieces. */
void bench_para(const char * const *text)
{
	for (; *text; text++)
		printf("%s%s", *text, text[1] ? " " : "\n\n");
}

/* "median (min-max)" with SI prefixes. */
const char *bench_spread(char *buf, size_t len, const struct bench_stat *s)
{
	char a[32], b[32], c[32];

	snprintf(buf, len, "%s (%s-%s)", bench_si(a, sizeof(a), bench_median(s)),
		 bench_si(b, sizeof(b), bench_min(s)),
		 bench_si(c, sizeof(c), bench_max(s)));
	return buf;
}

double bench_log2(u64 sides)
{
	return log2((double)sides);
}

static struct {
	char key[80];
	double v;
} bench_keys[BENCH_MAX_KEYS];
static int bench_nkeys;

/* Record the figure "BENCH <key> <v>", printed at the end. */
void bench_key(double v, const char *fmt, ...)
{
	va_list ap;

	if (bench_nkeys == BENCH_MAX_KEYS)
		return;
	va_start(ap, fmt);
	vsnprintf(bench_keys[bench_nkeys].key, sizeof(bench_keys[0].key), fmt,
		  ap);
	va_end(ap);
	bench_keys[bench_nkeys++].v = v;
}

static struct {
	const char *method;
	u64 sides;
	double bits;
	double rate;
} bench_points[BENCH_MAX_POINTS];
static int bench_npoints;

/* Record one point of the plot: a method, a die, its two figures. */
void bench_point(const char *method, u64 sides, double bits_per_roll,
		 double rolls_per_s)
{
	if (bench_npoints == BENCH_MAX_POINTS)
		return;
	bench_points[bench_npoints].method = method;
	bench_points[bench_npoints].sides = sides;
	bench_points[bench_npoints].bits = bits_per_roll;
	bench_points[bench_npoints++].rate = rolls_per_s;
}

/*
 * The plot data: one block per method, in the order first seen, each
 * opening with the method's name; "?" marks a figure not measured.
 */
int bench_write_data(const char *path)
{
	FILE *f = fopen(path, "w");
	int i, j;

	if (!f) {
		fprintf(stderr, "bench: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# method sides bits_per_roll rolls_per_s\n");
	for (i = 0; i < bench_npoints; i++) {
		const char *m = bench_points[i].method;

		for (j = 0; j < i; j++)
			if (!strcmp(bench_points[j].method, m))
				break;
		if (j < i)
			continue;
		fprintf(f, "\"%s\" sides bits rate\n", m);
		for (j = i; j < bench_npoints; j++) {
			if (strcmp(bench_points[j].method, m))
				continue;
			fprintf(f, "\"%s\" %llu ", m,
				(unsigned long long)bench_points[j].sides);
			if (isnan(bench_points[j].bits))
				fprintf(f, "?");
			else
				fprintf(f, "%.6g", bench_points[j].bits);
			fprintf(f, " %.6g\n", bench_points[j].rate);
		}
		fprintf(f, "\n\n");
	}
	return fclose(f) ? -1 : 0;
}

/* The BENCH lines, in the order recorded. */
void bench_print_keys(void)
{
	int i;

	printf("## Figures for machines\n\n```\n");
	for (i = 0; i < bench_nkeys; i++)
		printf("BENCH %s %.6g\n", bench_keys[i].key, bench_keys[i].v);
	printf("```\n");
}
