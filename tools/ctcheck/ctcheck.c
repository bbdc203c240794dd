// SPDX-License-Identifier: GPL-2.0
/*
 * ctcheck - the extractors and the health tests touch raw bits with no
 * branch and no memory address that depends on them.
 *
 * Run under valgrind's memcheck: the raw words are marked undefined
 * (VALGRIND_MAKE_MEM_UNDEFINED), so memcheck follows every value computed
 * from them and reports a conditional jump or move that depends on one
 * ("Conditional jump or move depends on uninitialised value(s)") and an
 * address computed from one ("Use of uninitialised value of size N").
 * The code declares the few values that are public by design with
 * fd_ct_public() (driver/fd_shim.h), which this build (FD_CTCHECK) turns
 * into VALGRIND_MAKE_MEM_DEFINED. The bits go the way the read path and
 * the hwrng take them: health tests word by word and in runs, von
 * Neumann and Peres (both splits, table and PEXT) into a pool, words out
 * of the pool, whole Peres blocks at every depth.
 *
 *   ctcheck          the functions of driver/; memcheck must report nothing
 *   ctcheck planted  a table lookup and a branch on the raw bits; memcheck
 *                    must report both (the check can fail)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif

#include "fd_health.h"
#include "fd_peres.h"
#include "fd_pool.h"
#include "fd_vn.h"

#define WORDS	(FD_PERES_BLOCK_BITS / 64 * 2 + 100)

static u64 raw[WORDS];
static u64 sink;

static u64 rnd(u64 *s)
{
	u64 x = *s += 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Fresh raw words, a coin of bias about @p1 / 8, marked undefined. */
static void make_raw(u64 seed, unsigned int p1)
{
	u64 s = seed;
	unsigned int i, b;

	for (i = 0; i < WORDS; i++) {
		u64 w = 0;

		if (p1 == 4) {
			w = rnd(&s);
		} else {
			for (b = 0; b < 64; b++)
				w |= (u64)((rnd(&s) & 7) < p1) << b;
		}
		raw[i] = w;
	}
	VALGRIND_MAKE_MEM_UNDEFINED(raw, sizeof(raw));
}

/* Fold fair bits into a sink, with no branch: they stay secret. */
static void keep(u64 x)
{
	sink ^= x;
}

/* The health tests, word by word and in runs, then a stuck source. */
static void check_health(void)
{
	struct fd_health h;
	enum fd_health_result r;
	u32 done, i;

	fd_health_init(&h, 1, 2, true);
	for (i = 0; i < 4096; i++) {
		r = fd_health_word(&h, raw[i]);
		if (r != FD_HEALTH_OK)
			break;
	}
	fd_health_init(&h, 3, 8, true);
	for (i = 0; i + 64 <= 8192; i += 64) {
		r = fd_health_words(&h, raw + i, 64, &done);
		if (r != FD_HEALTH_OK)
			break;
	}
	/* Failures too: a stuck word, repeated, and a run of zeros. */
	for (i = 0; i < 64; i++)
		raw[i] = 0;
	VALGRIND_MAKE_MEM_UNDEFINED(raw, 64 * sizeof(u64));
	fd_health_init(&h, 1, 2, true);
	r = fd_health_words(&h, raw, 64, &done);
	keep(r + done);
	fd_health_init(&h, 1, 2, false);
	for (i = 0; i < 64 && fd_health_word(&h, raw[i]) == FD_HEALTH_OK; i++)
		;
}

static struct fd_pool pool;

static void drain_pool(void)
{
	while (pool.count >= 64)
		keep(fd_pool_take(&pool, 64));
	keep(fd_pool_take(&pool, pool.count));
}

static void check_vn(void)
{
	u64 out;
	u32 i, n;

	fd_pool_clear(&pool);
	for (i = 0; i < WORDS; i++) {
		n = fd_vn_word(raw[i], &out);
		fd_pool_put(&pool, out, n);
		if (fd_pool_room(&pool) < 64)
			drain_pool();
	}
	drain_pool();
}

static struct fd_peres peres;
static u64 scratch[FD_PERES_SCRATCH_WORDS(FD_PERES_BLOCK_BITS)];
static u64 out[FD_PERES_OUT_WORDS(FD_PERES_BLOCK_BITS)];
static u64 in[FD_PERES_IN_WORDS(FD_PERES_BLOCK_BITS)];

static void check_peres(int pext)
{
	static const unsigned int len[] = { 2, 7, 8, 9, 30, 64, 65, 127, 128,
					    200, 1000, 4099 };
	unsigned int i, d, k, n;

	fd_shim_pext = pext;
	/* Short blocks at every depth. */
	for (k = 0; k < ARRAY_SIZE(len); k++) {
		for (d = 1; d <= FD_PERES_MAX_DEPTH; d += d < 6 ? 1 : 6) {
			memcpy(in, raw + k * 80 + d, 80 * sizeof(u64));
			n = fd_peres_block(in, len[k], d, scratch, out);
			for (i = 0; i < n / 64; i++)
				keep(out[i]);
		}
	}
	/* The stream, two blocks and more, into a pool. */
	fd_peres_init(&peres);
	fd_pool_clear(&pool);
	for (i = 0; i < WORDS; i++) {
		fd_peres_feed(&peres, raw[i], &pool);
		drain_pool();
	}
	while (fd_peres_pending(&peres)) {
		fd_peres_drain(&peres, &pool);
		drain_pool();
	}
}

static noinline void tick(void)
{
	asm volatile("" ::: "memory");
	sink++;
}

/*
 * What the check must catch: a table indexed by raw bits, as von Neumann's
 * and Peres' byte tables were, and a branch on them.
 */
static void planted(void)
{
	static const u8 table[256] = { 1, 2, 3 };
	u32 i;

	for (i = 0; i < 8; i++) {
		keep(table[raw[i] & 0xff]);
		if (raw[i + 8] & 1)
			tick();
	}
}

int main(int argc, char **argv)
{
	unsigned int p1;

	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ctcheck: run me under valgrind --tool=memcheck\n");
		return 2;
	}
	if (argc > 1 && !strcmp(argv[1], "planted")) {
		make_raw(1, 4);
		planted();
		return 0;
	}
	for (p1 = 1; p1 <= 4; p1 += 3) {
		make_raw(p1, p1);
		check_vn();
		check_peres(0);
		check_peres(1);
		check_health();
	}
	VALGRIND_MAKE_MEM_DEFINED(&sink, sizeof(sink));
	printf("ctcheck: ran (sink %llx)\n", (unsigned long long)sink);
	return 0;
}
