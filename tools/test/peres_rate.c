// SPDX-License-Identifier: GPL-2.0
/*
 * peres_rate - how much of the source's entropy driver/fd_peres.c keeps.
 *
 * Feeds the stream extractor with the simulated biased coin of
 * FAIRDIE_IOC_SET_SIM (splitmix64, bit = next < floor(2^64 p)) and prints,
 * for each p, the fair bits out per raw bit in, divided by the Shannon
 * entropy H(p) = -p log2 p - (1 - p) log2(1 - p); then the speed of the
 * extractor alone on a fair input, in CPU time. The last lines are for machines:
 * "BENCH <key> <value>".
 *
 * Usage: peres_rate [BLOCKS]   (blocks of FD_PERES_BLOCK_BITS per p, default 64)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fd_peres.h"

static u64 sm_state;

static u64 splitmix64(void)
{
	u64 z = (sm_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* 64 flips with P(1) = num / den, as the device's simulated coin makes them. */
static u64 coin64(u64 num, u64 den)
{
	u64 thr = (u64)(((fd_u128)num << 64) / den), w = 0;
	int i;

	for (i = 0; i < 64; i++)
		w |= (u64)(num == den || splitmix64() < thr) << i;
	return w;
}

/* CPU time, so that a busy machine does not make the extractor look slow. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct { u64 num, den; const char *key; } ps[] = {
		{ 1, 2, "p50" }, { 3, 5, "p60" }, { 7, 10, "p70" },
		{ 4, 5, "p80" }, { 9, 10, "p90" }, { 19, 20, "p95" },
	};
	long blocks = argc > 1 ? strtol(argv[1], NULL, 10) : 64;
	struct fd_peres *st = malloc(sizeof(*st));
	struct fd_pool *pool = malloc(sizeof(*pool));
	double eff[ARRAY_SIZE(ps)], t, mbps;
	unsigned int i;
	u64 *raw, n, k, out;

	if (blocks < 1 || blocks > 100000 || !st || !pool) {
		fprintf(stderr, "usage: %s [BLOCKS]  (1..100000, default 64)\n", argv[0]);
		return 2;
	}
	sm_state = 1;
	printf("Peres extractor: blocks of %d raw bits, depth %d, %zu bytes of state\n",
	       FD_PERES_BLOCK_BITS, FD_PERES_DEPTH, sizeof(*st));
	printf("%6s %8s %10s %10s\n", "p", "H(p)", "out/raw", "rate/H(p)");
	for (i = 0; i < ARRAY_SIZE(ps); i++) {
		double p = (double)ps[i].num / ps[i].den;
		double h = -p * log2(p) - (1 - p) * log2(1 - p);

		fd_peres_init(st);
		fd_pool_clear(pool);
		n = (u64)blocks * FD_PERES_BLOCK_BITS / 64;
		for (out = 0, k = 0; k < n; k++) {
			out += fd_peres_feed(st, coin64(ps[i].num, ps[i].den), pool);
			fd_pool_clear(pool);
		}
		out += fd_peres_pending(st);
		eff[i] = (double)out / (n * 64) / h;
		printf("%6.2f %8.4f %10.4f %10.4f\n", p, h, (double)out / (n * 64), eff[i]);
	}

	/* speed: the extractor alone, on a fair coin prepared beforehand */
	n = 64 * FD_PERES_BLOCK_BITS / 64;
	raw = malloc(n * sizeof(*raw));
	if (!raw)
		return 1;
	for (k = 0; k < n; k++)
		raw[k] = coin64(1, 2);
	fd_peres_init(st);
	out = 0;
	t = now();
	for (i = 0; i < 8; i++)
		for (k = 0; k < n; k++) {
			out += fd_peres_feed(st, raw[k], pool);
			fd_pool_clear(pool);
		}
	t = now() - t;
	mbps = 8.0 * n * 64 / t / 1e6;
	printf("speed at p = 0.50 (CPU time): %.0f Mbit/s raw in, %.0f Mbit/s fair out\n",
	       mbps, out / t / 1e6);

	for (i = 0; i < ARRAY_SIZE(ps); i++)
		printf("BENCH peres_eff_%s %.4f\n", ps[i].key, eff[i]);
	printf("BENCH peres_raw_mbit_per_s %.0f\n", mbps);
	free(raw);
	free(st);
	free(pool);
	return 0;
}
