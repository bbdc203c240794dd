// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - a fixed amount of work through the read path, for
 * counting instructions (make insn runs it under callgrind).
 *
 *   cpu_words MODE READS
 *
 * MODE: none (d6, NONE), peres (d6, PERES) or weights (the sums of 2d6,
 * NONE). The read path of bench_cpu.c's pipeline figures: a well of its
 * own, reads of 4 KiB, the 1 MiB splitmix64 memory source. Prints the
 * source words the READS reads took after the first one; instructions
 * per word are then the difference of two runs over the difference of
 * their words, which leaves the set-up out.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"
#include "fd_sim.h"
#include "fd_weights.h"
#include "fd_wsets.h"

#define CPU_WORDS_MEM	131072		/* 1 MiB, as bench_cpu.c */

static u64 *cpu_words_mem;

static int cpu_words_word(struct bench_src *src, u64 *w)
{
	*w = cpu_words_mem[src->words++ % CPU_WORDS_MEM];
	return 0;
}

int main(int argc, char **argv)
{
	struct bench_src src = { .word = cpu_words_word, .tested = true };
	u64 weights[FD_WSET_MAX], *table = NULL, state = 0x243f6a8885a308d3ULL;
	static u8 buf[4096];
	struct bench_well *w;
	struct bench_pipe *f;
	struct fd_weights wt;
	long reads, i;
	u32 ext, count;
	size_t len;
	u64 bits0;

	if (argc != 3 || (strcmp(argv[1], "none") && strcmp(argv[1], "peres") &&
			  strcmp(argv[1], "weights"))) {
		fprintf(stderr, "usage: cpu_words none|peres|weights READS\n");
		return 2;
	}
	reads = atol(argv[2]);
	ext = strcmp(argv[1], "peres") ? FAIRDIE_EXT_NONE : FAIRDIE_EXT_PERES;
	cpu_words_mem = malloc(CPU_WORDS_MEM * sizeof(*cpu_words_mem));
	w = bench_well_new(ext);
	f = malloc(sizeof(*f));
	if (!cpu_words_mem || !w || !f)
		return 1;
	for (i = 0; i < CPU_WORDS_MEM; i++)
		cpu_words_mem[i] = fd_splitmix64(&state);
	bench_pipe_open(f, &src, 6, ext, w);
	if (!strcmp(argv[1], "weights")) {
		count = fd_wset(0, weights);
		table = calloc(fd_weights_table_words(count), sizeof(*table));
		if (!table)
			return 1;
		memcpy(table + 1, weights, count * sizeof(*weights));
		if (fd_weights_init(&wt, table, count))
			return 1;
		bench_pipe_set_weights(f, &wt);
	}
	len = sizeof(buf) / f->width * f->width;
	if (bench_pipe_read(f, buf, len) < 0)
		return 1;
	bits0 = f->pipe.source_bits;
	for (i = 0; i < reads; i++)
		if (bench_pipe_read(f, buf, len) < 0)
			return 1;
	printf("words %llu\n",
	       (unsigned long long)((f->pipe.source_bits - bits0) / 64));
	free(table);
	free(f);
	bench_well_free(w);
	free(cpu_words_mem);
	return 0;
}
