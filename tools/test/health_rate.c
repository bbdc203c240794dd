// SPDX-License-Identifier: GPL-2.0
/*
 * health_rate - the cost of the continuous health tests, in nanoseconds of
 * CPU time per 64-bit word: fd_health_word() (word at a time: ctz/clz for
 * the repetition count, popcount for the adaptive proportion, one compare
 * for the repeated word) under each claim a source can be judged against,
 * and, for scale, a bit-by-bit implementation of the same tests. A
 * benchmark, never a test: nothing here passes or fails.
 *
 * Usage: health_rate [SECONDS]   (per figure, default 0.5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fd_health.h"
#include "fd_sim.h"

#define WORDS	4096

static u64 mem[WORDS];

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The bit-serial tests, as SP 800-90B states them (no early exit). */
struct serial {
	u32 c, a, run, seen, count;
	unsigned int run_bit, first;
};

static int serial_word(struct serial *s, u64 w)
{
	int fired = 0;
	unsigned int i;

	for (i = 0; i < 64; i++) {
		unsigned int b = (w >> i) & 1;

		if (b == s->run_bit) {
			s->run++;
		} else {
			s->run_bit = b;
			s->run = 1;
		}
		fired |= s->run >= s->c;
		if (!s->seen) {
			s->first = b;
			s->count = 0;
		}
		s->count += b == s->first;
		if (++s->seen == FD_APT_WINDOW)
			s->seen = 0;
		fired |= s->count >= s->a;
	}
	return fired;
}

static double rate(u64 num, u64 den, bool words, bool serial, double secs)
{
	struct fd_health h;
	struct serial s = { 0 };
	unsigned long n = 0, acc = 0;
	double t0 = cpu_now(), t;
	unsigned int i;

	fd_health_init(&h, num, den, words);
	s.c = h.rct_cutoff;
	s.a = h.apt_cutoff;
	do {
		for (i = 0; i < WORDS; i++)
			acc += serial ? serial_word(&s, mem[i]) :
				(int)fd_health_word(&h, mem[i]);
		n += WORDS;
		t = cpu_now() - t0;
	} while (t < secs);
	if (acc)
		printf("# (%lu failures)\n", acc);
	return t / n * 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5, full, range, coin, ref;
	struct fd_sim sim;
	unsigned int i;

	fd_sim_init(&sim, 1, 1, 2);
	for (i = 0; i < WORDS; i++)
		mem[i] = fd_sim_word(&sim);
	full = rate(1, 2, true, false, secs);
	range = rate(19, 20, true, false, secs);
	coin = rate(1, 2, false, false, secs);
	ref = rate(1, 2, false, true, secs);
	printf("health tests, ns per 64-bit word (CPU time, fair random words):\n");
	printf("  hardware, full-entropy claim (none)    %6.2f\n", full);
	printf("  hardware, [1/20, 19/20] claim          %6.2f\n", range);
	printf("  simulated coin (no word check)         %6.2f\n", coin);
	printf("  bit-by-bit reference, same tests       %6.2f\n", ref);
	printf("  at 1 Gbit/s a word arrives every 64 ns: the tests take %.1f%% of it\n",
	       100 * full / 64);
	printf("BENCH health_ns_per_word %.2f\n", full);
	return 0;
}
