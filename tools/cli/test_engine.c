// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the engine and its sources: rolls of changing sizes from
 * one recycled state, exact on every string of fair bits up to a length,
 * made alone and in batches; the rolls made ahead per size; the order in
 * which a file's bits are taken, and running out of them.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "fd_check.h"
#include "test_enum.h"

/*
 * Feed every string of @depth fair bits to the engine, its state topped up
 * to 2^@precision (batches of at most 2^@batch_bits when @batch_bits), and
 * make the rolls of @sides[0..@n-1], @together at a time when they all have
 * one size; the outcome is the rolls in mixed radix (fdt_enum_check()).
 * At least 95% of all strings must finish (a sampler that stalls where it
 * should reject would pass the check alone).
 */
static void fdt_engine_enumerate(const char *name, const u64 *sides,
				 unsigned int n, bool together,
				 unsigned int precision,
				 unsigned int batch_bits, unsigned int depth)
{
	u64 nout = 1, s, r, u, bad_run = 0, done = 0, v[8], i, each;
	u64 (*hist)[FDT_MAX_DEPTH + 1];
	unsigned int bad_depths;
	struct fdc_engine eng;
	u8 bits[FDT_MAX_DEPTH];
	int saved_err, err;
	bool ok;

	for (i = 0; i < n; i++)
		nout *= sides[i];
	hist = calloc(nout, sizeof(*hist));
	if (!hist || depth > FDT_MAX_DEPTH || n > 8)
		abort();
	saved_err = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		if (fdc_fake_bits_open(&eng, bits, depth, precision))
			abort();
		eng.batch_bits = batch_bits;
		if (together) {
			eng.max_ahead = FDC_CACHE_MAX;
			err = fdc_engine_rolls(&eng, sides[0], v, n);
		} else {
			for (i = 0, err = 0; i < n && !err; i++)
				err = fdc_engine_draw(&eng, sides[i], &v[i]);
		}
		u = fdc_engine_bits_used(&eng);
		fdc_engine_close(&eng);
		if (err)
			continue;
		for (i = 0, r = 0; i < n; i++) {
			bad_run += v[i] >= sides[i];
			r = r * sides[i] + v[i];
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
	     done >= (1ULL << depth) / 100 * 95;
	CHECK(ok, "%s: %llu bad runs, unequal at %u depths, %llu of 2^%u finish",
	      name, (unsigned long long)bad_run, bad_depths,
	      (unsigned long long)done, depth);
	printf("exact: %-34s 2^%u bit strings, %5.1f%% finish;", name, depth,
	       100.0 * done / (1ULL << depth));
	printf(" each of the %llu outcomes from %llu\n",
	       (unsigned long long)nout, (unsigned long long)each);
	free(hist);
}

static void fdt_exhaustive(void)
{
	static const u64 mixed[] = { 3, 2, 5 }, grow[] = { 2, 3, 7, 6 };
	static const u64 six[] = { 6, 6, 6, 6 }, shrink[] = { 7, 5, 3 };

	fdt_engine_enumerate("d3, d2, d5 alone, 2^3 state", mixed, 3, false,
			     3, 0, 16);
	fdt_engine_enumerate("d3, d2, d5 alone, 2^6 state", mixed, 3, false,
			     6, 0, 17);
	fdt_engine_enumerate("d2, d3, d7, d6 alone, 2^4 state", grow, 4,
			     false, 4, 0, 18);
	fdt_engine_enumerate("d7, d5, d3 alone, 2^8 state", shrink, 3, false,
			     8, 0, 20);
	/* Many of one size: the module's batches, 6^2 at a time. */
	fdt_engine_enumerate("3 d6 together, batches of 36", six, 3, true,
			     7, 6, 18);
	fdt_engine_enumerate("4 d6 together, no batches", six, 4, true, 5, 0,
			     20);
	/*
	 * A source that runs out (issue 31: 64 bits gave one d6): the state,
	 * topped up far beyond a d6, still gives exact rolls from its last
	 * bits. With the default state of 2^62 and 15 bits, no roll was made.
	 */
	fdt_engine_enumerate("io_last_bits: 4 d6 from 15 bits", six, 4, true,
			     0, 0, 15);
	fdt_engine_enumerate("io_last_bits: 4 d6 from 15 bits, batches", six,
			     4, true, 0, 6, 15);
}

/*
 * Rolls of one size are made ahead, more and more while the size keeps
 * coming back, for several sizes at once; a lone draw is made alone.
 */
static void fdt_cache(void)
{
	struct fdc_engine eng;
	const u64 *log;
	u64 v[40], i;
	size_t len, bad = 0;

	if (fdc_fake_open(&eng, 5))
		abort();
	/* The first call makes what it asks for, the next ones 16, 32, ... */
	fdc_engine_rolls(&eng, 6, v, 3);
	len = fdc_fake_log(&eng, &log);
	CHECK(len == 3, "a first roll of 3 d6 made %zu", len);
	for (i = 0; i < 4; i++)
		fdc_engine_rolls(&eng, 6, v, 1);
	len = fdc_fake_log(&eng, &log);
	CHECK(len == 3 + 16, "then 4 more made %zu in all", len);
	/* Other sizes in between keep their own slots. */
	for (i = 0; i < 12; i++) {
		fdc_engine_roll(&eng, 4, v);
		fdc_engine_roll(&eng, 6, v + 1);
		bad += v[0] >= 4 || v[1] >= 6;
	}
	len = fdc_fake_log(&eng, &log);
	CHECK(!bad && len == 3 + 16 + 1 + 16,
	      "d4 and d6 in turn: %zu made", len);
	/* A draw is made alone, nothing ahead. */
	fdc_engine_draw(&eng, 6, v);
	CHECK(fdc_fake_log(&eng, &log) == len + 1 && log[len] == 6,
	      "a draw makes one roll");
	/* Nine sizes in turn: the least recently used slot goes. */
	for (i = 0; i < 9; i++)
		fdc_engine_roll(&eng, 10 + i, v);
	len = fdc_fake_log(&eng, &log);
	fdc_engine_roll(&eng, 10, v);
	CHECK(fdc_fake_log(&eng, &log) == len + 1,
	      "a size evicted is made again");
	CHECK(eng.rolls == 3 + 4 + 24 + 1 + 9 + 1, "%llu rolls handed out",
	      (unsigned long long)eng.rolls);
	fdc_engine_close(&eng);
}

/* Mixed dice on random bits: exact in law, and about log2(sides) each. */
static void fdt_random(void)
{
	static const u64 sides[] = { 6, 4, 20, 100, 1ULL << 33, 3 };
	u64 hist[6][100] = { { 0 } }, n = 60000, i, j, v, bad = 0;
	double chi, e, need = 0, worst = 0;
	struct fdc_engine eng;

	fdc_source_open_seed(&eng.src, 11);
	fdc_engine_open_source(&eng, 0);
	eng.max_ahead = 1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < ARRAY_SIZE(sides); j++) {
			bad |= fdc_engine_roll(&eng, sides[j], &v) ||
			       v >= sides[j];
			/* The huge die: its value in 100 equal classes. */
			hist[j][sides[j] > 100 ? v / (sides[j] / 100) : v]++;
		}
	}
	for (j = 0; j < ARRAY_SIZE(sides); j++) {
		u64 k = sides[j] > 100 ? 100 : sides[j];

		need += n * log2((double)sides[j]);
		e = (double)n / k;
		for (i = 0, chi = 0; i < k; i++)
			chi += (hist[j][i] - e) * (hist[j][i] - e) / e;
		/* k - 1 dof: mean k - 1, sd sqrt(2 (k - 1)); 6 sd is rare */
		chi = (chi - (k - 1)) / sqrt(2.0 * (k - 1));
		worst = chi > worst ? chi : worst;
	}
	CHECK(!bad && worst < 6, "mixed dice: a chi-square %.1f sd above its mean",
	      worst);
	CHECK(fdc_engine_bits_used(&eng) < need * 1.001 + 64,
	      "mixed dice: %llu bits used, log2 of the sides %.0f",
	      (unsigned long long)fdc_engine_bits_used(&eng), need);
	printf("mixed dice d6 d4 d20 d100 d2^33 d3 x %llu:", (unsigned long long)n);
	printf(" %llu fair bits used, sum of log2(sides) %.0f\n",
	       (unsigned long long)fdc_engine_bits_used(&eng), need);
	fdc_engine_close(&eng);

	/* Made ahead in batches: the same law, and fast. */
	fdc_source_open_seed(&eng.src, 12);
	fdc_engine_open_source(&eng, 0);
	memset(hist, 0, sizeof(hist));
	for (i = 0; i < 600000; i++) {
		bad |= fdc_engine_roll(&eng, 6, &v) || v >= 6;
		hist[0][v]++;
	}
	for (i = 0, chi = 0, e = 100000; i < 6; i++)
		chi += (hist[0][i] - e) * (hist[0][i] - e) / e;
	/* 5 dof: the 1e-6 quantile is 35.9. */
	CHECK(!bad && chi < 35.9, "600000 d6 made ahead: chi-square %.1f", chi);
	fdc_engine_close(&eng);
}

/* A file's bits: each byte's lowest bit first; running out is an error. */
static void fdt_file_source(void)
{
	char path[] = "/tmp/fdt_engine_XXXXXX";
	unsigned char bytes[4] = { 0x01, 0x80, 0xc3, 0x5a };
	struct fdc_engine eng;
	struct fdc_config cfg;
	u64 v[32], i;
	int fd = mkstemp(path), bad = 0, saved;

	if (fd < 0 || write(fd, bytes, sizeof(bytes)) != sizeof(bytes))
		abort();
	close(fd);
	fdc_config_init(&cfg);
	cfg.user_source = FDC_USRC_FILE;
	cfg.random_file = path;
	/* Coins: the bits in order. */
	bad |= fdc_engine_open(&eng, &cfg);
	for (i = 0; i < 32; i++)
		bad |= fdc_engine_roll(&eng, 2, &v[i]) ||
		       v[i] != ((bytes[i / 8] >> (i % 8)) & 1);
	saved = fd_check_stderr_off();
	bad |= fdc_engine_roll(&eng, 2, v) != -1;
	fd_check_stderr_on(saved);
	CHECK(!bad && eng.bits_read == 32,
	      "a file's bits, lowest of each byte first, then an error");
	fdc_engine_close(&eng);
	/* A d256 is a byte; nothing is made ahead from a file. */
	bad = fdc_engine_open(&eng, &cfg);
	for (i = 0; i < 4; i++)
		bad |= fdc_engine_roll(&eng, 256, &v[i]) || v[i] != bytes[i];
	CHECK(!bad && eng.max_ahead == 1, "a d256 from a file is its byte");
	fdc_engine_close(&eng);
	unlink(path);
	cfg.random_file = path;
	saved = fd_check_stderr_off();
	CHECK(fdc_engine_open(&eng, &cfg) == -1, "a missing file");
	fd_check_stderr_on(saved);
}

int main(void)
{
	fdt_exhaustive();
	fdt_cache();
	fdt_random();
	fdt_file_source();
	return fd_check_summary();
}
