// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the cost of the arithmetic, and the extractors' yield.
 *
 * CPU cost: the sampler, the extractors, the health tests and the whole
 * read path fed from a precomputed bit stream in memory (1 MiB of
 * splitmix64 output, read round and round), so that nothing waits for a
 * source: outputs per second on one core.
 *
 * Yield: raw bits of the simulated biased coin of driver/fd_sim.c through
 * each extractor; fair bits out per raw bit in, as a fraction of the
 * Shannon entropy H(p) of the coin.
 */

#include <math.h>
#include <stdlib.h>

#include "bench.h"
#include "pipe.h"
#include "fd_sim.h"
#include "fd_vn.h"
#include "fd_weights.h"
#include "fd_wsets.h"

#define BENCH_MEM_WORDS	131072		/* 1 MiB */

static u64 *bench_mem;

static int bench_mem_word(struct bench_src *src, u64 *w)
{
	*w = bench_mem[src->words++ % BENCH_MEM_WORDS];
	return 0;
}

static int bench_mem_init(void)
{
	u64 state = 0x243f6a8885a308d3ULL;
	u32 i;

	if (bench_mem)
		return 0;
	bench_mem = malloc(BENCH_MEM_WORDS * sizeof(*bench_mem));
	if (!bench_mem)
		return -1;
	for (i = 0; i < BENCH_MEM_WORDS; i++)
		bench_mem[i] = fd_splitmix64(&state);
	return 0;
}

/*
 * The sampler alone: as the read path drives it, fd_sampler_fill_rolls()
 * into rolls of the die's width, on a pool that is topped up from memory,
 * as fd_pipe_refill() would, whenever it runs dry. Returns rolls per
 * second; *@bits gets the fair bits per roll.
 */
static double bench_sampler(u64 sides, double *bits)
{
	static struct fd_pool pool;
	static u8 out[4096 * 8];
	u32 width = fd_roll_width(sides), per = sizeof(out) / width, i, n;
	struct fd_sampler s;
	u64 acc = 0, rolls = 0, mi = 0;
	double t0, t;

	fd_pool_clear(&pool);
	fd_sampler_init(&s, sides, true);
	t0 = bench_cpu_now();
	do {
		for (i = 0; i < per; i += n) {
			n = fd_sampler_fill_rolls(&s, &pool, out + i * width,
						  per - i, width);
			if (i + n < per)
				while (pool.count < FD_PIPE_REFILL_BITS)
					fd_pool_put(&pool, bench_mem[mi++ %
						    BENCH_MEM_WORDS], 64);
		}
		acc += out[mi % sizeof(out)];
		rolls += per;
		t = bench_cpu_now() - t0;
	} while (t < bench_opt.cpu_secs);
	bench_keep(acc);
	*bits = (double)s.bits / rolls;
	return rolls / t;
}

/*
 * The whole read path on the memory source, reading 4 KiB at a time
 * through a well of its own, as the module reads RDSEED; after
 * SET_WEIGHTS with @wts unless it is NULL (then @sides is its count of
 * faces). Returns rolls/s; *@src_rate gets source bits/s, *@sbpr source
 * bits per roll.
 */
static double bench_mem_pipeline(u64 sides, u32 ext,
				 const struct fd_weights *wts,
				 double *src_rate, double *sbpr)
{
	struct bench_src src = { .word = bench_mem_word, .tested = true };
	struct bench_well *w = bench_well_new(ext);
	struct bench_pipe *f = malloc(sizeof(*f));
	static u8 buf[4096];
	double t0, t;
	u64 rolls0, bits0;
	size_t len;

	*src_rate = NAN;
	*sbpr = NAN;
	if (!f || !w)
		goto fail;
	bench_pipe_open(f, &src, sides, ext, w);
	if (wts)
		bench_pipe_set_weights(f, wts);
	len = sizeof(buf) / f->width * f->width;
	if (bench_pipe_read(f, buf, len) < 0)
		goto fail;
	rolls0 = f->outputs;
	bits0 = f->pipe.source_bits;
	t0 = bench_cpu_now();
	do {
		if (bench_pipe_read(f, buf, len) < 0)
			goto fail;
		t = bench_cpu_now() - t0;
	} while (t < bench_opt.cpu_secs);
	*src_rate = (f->pipe.source_bits - bits0) / t;
	*sbpr = (double)(f->pipe.source_bits - bits0) / (f->outputs - rolls0);
	t = (f->outputs - rolls0) / t;
	free(f);
	bench_well_free(w);
	return t;
fail:
	free(f);
	bench_well_free(w);
	return NAN;
}

/*
 * Alternating d6 and d100 through the read path, the die changed before
 * every roll as SET_SIDES does, one roll per read: source bits per roll.
 */
static double bench_mixed(void)
{
	struct bench_src src = { .word = bench_mem_word, .tested = true };
	struct bench_well *w = bench_well_new(FAIRDIE_EXT_NONE);
	struct bench_pipe *f = malloc(sizeof(*f));
	u64 bits0, rolls = 200000, i;
	double r = NAN;
	u8 b;

	if (!f || !w)
		goto out;
	bench_pipe_open(f, &src, 6, FAIRDIE_EXT_NONE, w);
	if (bench_pipe_read(f, &b, 1) != 1)
		goto out;
	bits0 = f->pipe.source_bits;
	for (i = 0; i < rolls; i++) {
		bench_pipe_set_sides(f, i % 2 ? 100 : 6);
		if (bench_pipe_read(f, &b, 1) != 1)
			goto out;
	}
	r = (double)(f->pipe.source_bits - bits0) / rolls;
out:
	free(f);
	bench_well_free(w);
	return r;
}

/* Nanoseconds per 64-bit word through one stage alone. */
static double bench_stage_ns(int which)
{
	static struct fd_pool pool;
	struct fd_health h;
	struct fd_peres *st = NULL;
	u64 acc = 0, words = 0, fair;
	double t0, t;
	u32 i;

	if (which == 2) {
		st = malloc(sizeof(*st));
		if (!st)
			return NAN;
		fd_peres_init(st);
	}
	fd_health_init(&h, 1, 2, true);
	fd_pool_clear(&pool);
	t0 = bench_cpu_now();
	do {
		for (i = 0; i < 4096; i++) {
			u64 w = bench_mem[(words + i) % BENCH_MEM_WORDS];

			switch (which) {
			case 0:
				acc += fd_health_word(&h, w);
				break;
			case 3:
				/* A well's runs: FD_WELL_CHUNK words at a time. */
				if (!(i % FD_WELL_CHUNK)) {
					u32 k = (words + i) % BENCH_MEM_WORDS, done;

					acc += fd_health_words(&h, bench_mem + k,
							       FD_WELL_CHUNK,
							       &done);
				}
				break;
			case 1:
				acc += fd_vn_word(w, &fair);
				acc ^= fair;
				break;
			default:
				acc += fd_peres_feed(st, w, &pool);
				fd_pool_clear(&pool);
				break;
			}
		}
		words += 4096;
		t = bench_cpu_now() - t0;
	} while (t < bench_opt.cpu_secs);
	bench_keep(acc);
	free(st);
	return t * 1e9 / words;
}

/* The model of the RDSEED ratios, see bench_cpu_model(). */
#define BENCH_MODEL_RDSEED	64e6

static const char * const bench_cpu_notes[] = {
	"Rolls per second on one core, on the thread's CPU clock. Sampler:",
	"fd_sampler_fill_rolls(), into rolls of the die's width, with the pool",
	"topped up from memory. Pipeline: the whole read path (a well: its",
	"lock, health tests, extractor; then the file's pool and sampler;",
	"reads of 4 KiB) on a memory source.",
	NULL
};

static const char * const bench_model_notes[] = {
	"Model, not a measurement: the read path draws a word from RDSEED, then",
	"spends CPU on it, so a source of R bits/s and a pipeline that handles",
	"C source bits/s on one core give R C / (R + C) source bits/s; the ratio",
	"is then bit yield x C / (R + C), with C and the bit yield measured above",
	"from memory and R = 64 Mbit/s, a fast RDSEED. The measured column is",
	"this host's RDSEED section, when it ran.",
	NULL
};

/* Per die and extractor: source bits/s and bits per roll from memory. */
static double bench_cpu_src[BENCH_NSIDES][3], bench_cpu_sbpr[BENCH_NSIDES][3];

static void bench_cpu_model(void)
{
	static const char * const ext_names[] = { "none", "vn", "peres" };
	int i, e;

	printf("| sides | extractor | pipeline source bits/s (C) | bit yield ");
	printf("| model ratio at 64 Mbit/s | measured ratio, this host |\n");
	printf("|---:|---|---:|---:|---:|---:|\n");
	for (i = 0; i < BENCH_NSIDES; i++) {
		u64 s = bench_sides[i];

		for (e = 0; e < 3; e++) {
			double c = bench_cpu_src[i][e];
			double y = bench_log2(s) / bench_cpu_sbpr[i][e];
			double model = y * c / (BENCH_MODEL_RDSEED + c);
			char a[32];

			printf("| %llu | %s | %s | %.4f | %.3f | %.3f |\n",
			       (unsigned long long)s, ext_names[e],
			       bench_si(a, sizeof(a), c), y, model,
			       bench_rd_ratio(i, e));
			bench_key(model, "d%llu_%s_ratio_model64",
				  (unsigned long long)s, ext_names[e]);
		}
	}
	printf("\n");
}

static const char * const bench_cpu_weights_notes[] = {
	"The read path after SET_WEIGHTS with the sums of 2d6 (fd_wsets.h),",
	"extractor none, on the memory source as the pipeline figures above:",
	"health tests, the well, the pools and fd_weights_fill(). Model ratio:",
	"as above, with bit yield = H(w) / source bits per draw.",
	NULL
};

/*
 * The weighted 2d6 draws through the whole read path from memory:
 * cpu_weights_2d6_ns_per_word and weights_2d6_ratio_model64.
 */
static int bench_cpu_weights(void)
{
	u64 weights[FD_WSET_MAX], *table;
	struct bench_stat src = { 0 };
	double sr, sbpr = NAN, h, c, y, model;
	struct fd_weights w;
	u32 count;
	char a[32];
	int rep;

	count = fd_wset(0, weights);
	h = fd_wset_entropy(weights, count);
	table = calloc(fd_weights_table_words(count), sizeof(*table));
	if (!table)
		return -1;
	memcpy(table + 1, weights, count * sizeof(*weights));
	if (fd_weights_init(&w, table, count)) {
		free(table);
		return -1;
	}
	for (rep = 0; rep < bench_opt.reps; rep++) {
		bench_mem_pipeline(count, FAIRDIE_EXT_NONE, &w, &sr, &sbpr);
		bench_stat_add(&src, sr);
	}
	free(table);
	c = bench_median(&src);
	y = h / sbpr;
	model = y * c / (BENCH_MODEL_RDSEED + c);
	printf("### Weighted draws through the read path (%s)\n\n",
	       fd_wset_names[0]);
	bench_para(bench_cpu_weights_notes);
	printf("| weights | source bits/s (C) | ns per word | bit yield ");
	printf("| model ratio at 64 Mbit/s |\n");
	printf("|---|---:|---:|---:|---:|\n");
	printf("| %s | %s | %.2f | %.4f | %.3f |\n\n", fd_wset_names[0],
	       bench_si(a, sizeof(a), c), 64e9 / c, y, model);
	bench_key(64e9 / c, "cpu_weights_%s_ns_per_word", fd_wset_names[0]);
	bench_key(model, "weights_%s_ratio_model64", fd_wset_names[0]);
	return 0;
}

/**
 * bench_cpu() - the CPU cost section
 *
 * Return: 0, or -1 when memory ran out.
 */
int bench_cpu(void)
{
	static const char * const stage_names[] = {
		"health tests", "von Neumann", "Peres",
		"health tests, a well's runs of 32 words",
	};
	static const char * const stage_keys[] = {
		"health", "vn", "peres", "health_run",
	};
	static const u32 exts[] = {
		FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN, FAIRDIE_EXT_PERES,
	};
	static const char * const ext_names[] = { "none", "vn", "peres" };
	struct bench_stat st, samp_ns[2] = { 0 };
	double bits = 0, d6_bits = 0, d100_bits = 0, mixed;
	char a[64];
	int i, e, rep;

	if (bench_mem_init())
		return -1;
	printf("## CPU cost on a precomputed bit stream (one core)\n\n");
	bench_para(bench_cpu_notes);
	printf("| sides | sampler rolls/s median (min-max) | fair bits/roll ");
	printf("| minus log2(sides) | pipeline none | pipeline vn ");
	printf("| pipeline peres |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < BENCH_NSIDES; i++) {
		u64 s = bench_sides[i];
		struct bench_stat pipe[3] = { 0 }, src[3] = { 0 };
		double sbpr[3] = { 0 };

		memset(&st, 0, sizeof(st));
		for (rep = 0; rep < bench_opt.reps; rep++) {
			double r, sr, sb;

			bench_stat_add(&st, r = bench_sampler(s, &bits));
			if (s == 6)
				bench_stat_add(&samp_ns[0], 1e9 / r);
			if (s == 100)
				bench_stat_add(&samp_ns[1], 1e9 / r);
			for (e = 0; e < 3; e++) {
				bench_stat_add(&pipe[e],
					       bench_mem_pipeline(s, exts[e], NULL,
								  &sr, &sb));
				bench_stat_add(&src[e], sr);
				sbpr[e] = sb;
			}
		}
		if (s == 6)
			d6_bits = bits;
		if (s == 100)
			d100_bits = bits;
		printf("| %llu | %s | %.5f | %+.5f |", (unsigned long long)s,
		       bench_spread(a, sizeof(a), &st), bits,
		       bits - bench_log2(s));
		for (e = 0; e < 3; e++) {
			printf(" %s |", bench_spread(a, sizeof(a), &pipe[e]));
			bench_key(bench_median(&pipe[e]),
				  "cpu_d%llu_pipeline_%s_rolls_per_s",
				  (unsigned long long)s, ext_names[e]);
			bench_cpu_src[i][e] = bench_median(&src[e]);
			bench_cpu_sbpr[i][e] = sbpr[e];
			if (s == 6)
				bench_key(bench_cpu_src[i][e],
					  "cpu_%s_source_bits_per_s",
					  ext_names[e]);
		}
		printf("\n");
		bench_key(bench_median(&st), "cpu_d%llu_sampler_rolls_per_s",
			  (unsigned long long)s);
		bench_key(bits, "d%llu_sampler_bits_per_roll",
			  (unsigned long long)s);
	}

	printf("\nPipeline from memory, health tests on, d6: ");
	for (e = 0; e < 3; e++)
		printf("%s %s bit/s of source%s", ext_names[e],
		       bench_si(a, sizeof(a), bench_cpu_src[1][e]),
		       e < 2 ? ", " : " (targets: none >= 1 G, peres >= 500 M).\n\n");

	printf("Cost per stage, ns per 64-bit source word on one core ");
	printf("(the sampler: per 64 fair bits it takes, d6 and d100):\n\n");
	printf("| stage | ns per word median (min-max) | input bits/s |\n");
	printf("|---|---:|---:|\n");
	for (i = 0; i < (int)ARRAY_SIZE(stage_keys); i++) {
		char b[32];

		memset(&st, 0, sizeof(st));
		for (rep = 0; rep < bench_opt.reps; rep++)
			bench_stat_add(&st, bench_stage_ns(i));
		printf("| %s | %.2f (%.2f-%.2f) | %s |\n", stage_names[i],
		       bench_median(&st), bench_min(&st), bench_max(&st),
		       bench_si(b, sizeof(b), 64e9 / bench_median(&st)));
		bench_key(bench_median(&st), "cpu_stage_%s_ns_per_word",
			  stage_keys[i]);
		bench_key(64e9 / bench_median(&st), "cpu_%s_in_bits_per_s",
			  stage_keys[i]);
	}
	for (i = 0; i < 2; i++) {
		double per = 64 / (i ? d100_bits : d6_bits), ns;
		char b[32];

		ns = bench_median(&samp_ns[i]) * per;
		printf("| sampler d%d | %.2f (%.2f-%.2f) | %s |\n",
		       i ? 100 : 6, ns, bench_min(&samp_ns[i]) * per,
		       bench_max(&samp_ns[i]) * per,
		       bench_si(b, sizeof(b), 64e9 / ns));
		bench_key(ns, "cpu_stage_sampler_d%d_ns_per_word", i ? 100 : 6);
	}
	for (e = 0; e < 3; e++) {
		printf("| whole pipeline d6 %s | %.2f | %s |\n", ext_names[e],
		       64e9 / bench_cpu_src[1][e],
		       bench_si(a, sizeof(a), bench_cpu_src[1][e]));
		bench_key(64e9 / bench_cpu_src[1][e],
			  "cpu_pipeline_d6_%s_ns_per_word", ext_names[e]);
	}
	printf("\n");

	mixed = bench_mixed();
	printf("Mixed dice: d6 and d100 alternating through the read path, the ");
	printf("die changed before every one-byte read, NONE: %.4f source ", mixed);
	printf("bits per roll (entropy %.4f, target <= 4.65).\n\n",
	       (bench_log2(6) + bench_log2(100)) / 2);
	bench_key(mixed, "d6_mixed_bits_per_roll");

	printf("### RDSEED ratios from the CPU cost (model)\n\n");
	bench_para(bench_model_notes);
	bench_cpu_model();
	return bench_cpu_weights();
}

static double bench_entropy(double p)
{
	return -p * log2(p) - (1 - p) * log2(1 - p);
}

/**
 * bench_coin() - extractor yield on the simulated coin
 *
 * Return: 0, or -1 when memory ran out.
 */
int bench_coin(void)
{
	static const u64 pct[] = { 50, 70, 90 };
	static struct fd_pool pool;
	struct fd_peres *st = malloc(sizeof(*st));
	u64 blocks = bench_opt.coin_bits / FD_PERES_BLOCK_BITS, words, k;
	int i;

	if (!st)
		return -1;
	if (!blocks)
		blocks = 1;
	words = blocks * FD_PERES_BLOCK_BITS / 64;
	printf("## Extractor yield on the simulated coin (driver/fd_sim.c)\n\n");
	printf("%llu raw bits per coin (%llu Peres blocks of %d bits). ",
	       (unsigned long long)(words * 64), (unsigned long long)blocks,
	       FD_PERES_BLOCK_BITS);
	printf("Yield = fair bits out / raw bits in / H(p). ");
	printf("Peres state: %zu bytes.\n\n", sizeof(struct fd_peres));
	printf("| P(1) | H(p) | von Neumann | (ideal p(1-p)/H) | Peres | target |\n");
	printf("|---:|---:|---:|---:|---:|---|\n");
	for (i = 0; i < (int)ARRAY_SIZE(pct); i++) {
		double p = pct[i] / 100.0, h = bench_entropy(p), vn, pe;
		u64 vn_bits = 0, pe_bits = 0, fair;
		struct fd_sim sim;

		fd_sim_init(&sim, 1 + i, pct[i], 100);
		fd_peres_init(st);
		fd_pool_clear(&pool);
		for (k = 0; k < words; k++) {
			u64 w = fd_sim_word(&sim);

			vn_bits += fd_vn_word(w, &fair);
			pe_bits += fd_peres_feed(st, w, &pool);
			fd_pool_clear(&pool);
		}
		/* The last block's bits, not handed out yet. */
		while (fd_peres_pending(st)) {
			pe_bits += fd_peres_drain(st, &pool);
			fd_pool_clear(&pool);
		}
		vn = vn_bits / (words * 64.0) / h;
		pe = pe_bits / (words * 64.0) / h;
		printf("| %.2f | %.4f | %.4f | %.4f | %.4f | >= 0.92: %s |\n", p,
		       h, vn, p * (1 - p) / h, pe, pe >= 0.92 ? "met" : "NOT met");
		bench_key(pe, "peres_eff_p%llu", (unsigned long long)pct[i]);
		bench_key(vn, "vn_eff_p%llu", (unsigned long long)pct[i]);
	}
	bench_key(sizeof(struct fd_peres), "peres_state_bytes");
	printf("\n");
	free(st);
	return 0;
}
