/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - fair output from the rolls of a die with unknown bias
 * ('fairdie extract').
 *
 * An extractor (struct fdc_extract) reads i.i.d. rolls of a K-faced die and
 * emits uniform digits, each with its base: bits, trits or base-6 digits.
 * A sink (struct fdc_sink) turns uniform digits of any base into rolls of
 * an N-sided die, or into bits, with the exact sampler of the kernel module
 * (driver/fd_sampler.c, randomness recycling). Every method but hash is
 * exact: given the shape of the output (how many digits, of which bases),
 * every digit string is exactly equally likely whatever the bias of the
 * die. test_extract.c proves it by enumeration with symbolic probabilities.
 */
#ifndef _FAIRDIE_CLI_EXTRACT_H
#define _FAIRDIE_CLI_EXTRACT_H

#include "fd_sampler.h"
#include <nettle/sha2.h>

#define FDC_EXTRACT_MAX_FACES	BIT_ULL(32)
#define FDC_EXTRACT_MAX_PRIME	61
/* tree: rolls per block; C(64, 32) < 2^64 keeps every digit in a u64. */
#define FDC_TREE_MAX_BLOCK	64
#define FDC_TREE_DEFAULT_BLOCK	64
/* hash: the declared entropy of a block is this many times its output. */
#define FDC_HASH_SAFETY		2
#define FDC_HASH_OUT_BITS	(8 * SHA256_DIGEST_SIZE)
#define FDC_HASH_MAX_BLOCK	1000000000ULL
/* Rounding allowed when --min-entropy is compared with log2(K). */
#define FDC_ENTROPY_SLACK	(1.0 / (1 << 30))

enum fdc_method {
	FDC_METHOD_PARITY,	/* von Neumann on the parities of two rolls */
	FDC_METHOD_COMPARE2,	/* von Neumann on two faces */
	FDC_METHOD_RANK3,	/* order of three distinct faces: base 6 */
	FDC_METHOD_RANK3X,	/* rank3, plus the odd one out of a tie: base 3 */
	FDC_METHOD_DIJKSTRA,	/* rotation of p faces, not all equal: base p */
	FDC_METHOD_TREE,	/* binarization tree, each node's bits ranked */
	FDC_METHOD_HASH,	/* SHA-256 of blocks: NOT exactly unbiased */
	FDC_METHOD_NONE,	/* the die is fair: each roll is a base-K digit */
	FDC_METHOD_COUNT
};

typedef void (*fdc_digit_fn)(void *ctx, u64 digit, u64 base);
typedef void (*fdc_value_fn)(void *ctx, u64 value);

/**
 * struct fdc_extract - an extractor reading rolls of a K-faced die
 * @method: what it does
 * @faces: K, 2..FDC_EXTRACT_MAX_FACES
 * @block: rolls per block (all methods but hash and none)
 * @hash_rolls: rolls per hashed block
 * @buf: the rolls of the block in progress, 0-based
 * @have: how many
 * @sha: the hash of the block in progress
 * @rolls: rolls fed in
 * @used: rolls of finished blocks
 * @digits: digits emitted
 * @bits: fair bits emitted: the sum of log2(base) over the digits
 * @emit: receives each digit
 * @ctx: its context
 */
struct fdc_extract {
	enum fdc_method method;
	u64 faces;
	unsigned int block;
	u64 hash_rolls;
	u64 buf[FDC_TREE_MAX_BLOCK];
	unsigned int have;
	struct sha256_ctx sha;
	u64 rolls;
	u64 used;
	u64 digits;
	double bits;
	fdc_digit_fn emit;
	void *ctx;
};

/**
 * struct fdc_sink - uniform digits in, rolls of an N-sided die out
 * @s: the exact sampler
 * @sides: N
 * @direct: every digit has base N: it is passed on as it is
 * @outputs: rolls emitted
 * @out: receives each roll, in [0, N)
 * @ctx: its context
 */
struct fdc_sink {
	struct fd_sampler s;
	u64 sides;
	bool direct;
	u64 outputs;
	fdc_value_fn out;
	void *ctx;
};

const char *fdc_method_name(enum fdc_method method);
int fdc_method_parse(const char *name);
unsigned int fdc_dijkstra_best_prime(u64 faces);
bool fdc_is_prime(u64 n);
u64 fdc_hash_block_rolls(double min_entropy);

int fdc_extract_init(struct fdc_extract *x, enum fdc_method method,
		     u64 faces, unsigned int prime, double min_entropy,
		     fdc_digit_fn emit, void *ctx);
void fdc_extract_feed(struct fdc_extract *x, u64 face);
u64 fdc_extract_max_base(const struct fdc_extract *x);
u64 fdc_extract_single_base(const struct fdc_extract *x);

unsigned int fdc_sink_precision(u64 sides, u64 max_base);
int fdc_sink_init_precision(struct fdc_sink *k, u64 sides, u64 max_base,
			    u64 single_base, unsigned int precision,
			    fdc_value_fn out, void *ctx);
int fdc_sink_init(struct fdc_sink *k, u64 sides, u64 max_base,
		  u64 single_base, fdc_value_fn out, void *ctx);
void fdc_sink_digit(void *sink, u64 digit, u64 base);
void fdc_sink_finish(struct fdc_sink *k);

#endif /* _FAIRDIE_CLI_EXTRACT_H */
