// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - extractors for a loaded die, and the exact sink.
 *
 * Why the block methods are exact, whatever the probabilities p_1..p_K of
 * the faces: a block of rolls has probability prod p_f^(count of f), which
 * depends only on the multiset of its faces. Each method emits a digit only
 * when the block's multiset has exactly B arrangements of the kind it looks
 * at, and the digit numbers those B arrangements one to one. Given the
 * multiset (and so the base B), the B arrangements are equally likely, so
 * the digit is uniform on [0, B) and independent of everything else.
 *
 *  parity   rolls a, b with parities of a different: the pairs (a, b) and
 *           (b, a) are equally likely; bit = 1 when a is odd.
 *  compare2 a != b: (a, b) and (b, a) equally likely; bit = (a < b).
 *  rank3    a, b, c distinct: the 6 orders are equally likely; digit = the
 *           Lehmer code of the order, base 6.
 *  rank3x   as rank3, and when exactly two are equal ({x, x, y}): xxy, xyx
 *           and yxx are equally likely (p_x^2 p_y each); digit = the
 *           position of y, base 3. Three equal faces give nothing.
 *  dijkstra p rolls (p prime), not all equal: the p rotations of the block
 *           are distinct (a rotation by r != 0 fixing it would give it
 *           period gcd(r, p) = 1, all equal) and have the same multiset;
 *           digit = how far the block is rotated from its lexicographically
 *           least rotation, base p. This is Dijkstra's roulette with the
 *           faces themselves as the symbols: for K = 2 and p = 2 it is von
 *           Neumann's trick, and faces are never thrown away by mapping
 *           them to bits first.
 *  tree     blocks of n rolls (64 by default) through a binarization tree
 *           (Zhou and Bruck): the faces [lo, hi) of a node split at their
 *           middle, and each roll reaching the node writes one bit, 0 for
 *           the lower half, 1 for the upper. Given the block's face
 *           counts, the node sequences range over all binary strings of
 *           their lengths n_v with their numbers of ones w_v, every node
 *           independently (a block and its node sequences determine each
 *           other, and the counts fix every n_v and w_v), and all those
 *           blocks are equally likely. So the rank of each node's string
 *           among the C(n_v, w_v) strings like it (the combinatorial
 *           number system) is a uniform digit of base C(n_v, w_v), the
 *           digits are independent, and their bases depend only on the
 *           counts. Their product is the multinomial n! / (c_1! ... c_K!):
 *           all the block's arrangements, which is the most any exact
 *           method can take from one block (Elias). The digits go out in
 *           a fixed order (node, lower subtree, upper subtree) at the end
 *           of the block. Emitting each node's output as soon as that node
 *           has it would NOT be exact: when a node fills depends on the
 *           bits of the nodes above it, and the order would leak them.
 *           Rate: about 2.23 fair bits per roll (0.89 H) on a d6 weighted
 *           1,1,2,2,1,1 with blocks of 64; smaller blocks answer sooner
 *           and extract less.
 *  none     the die is declared fair: each roll is a base-K digit.
 *  hash     SHA-256 of blocks with twice as much declared min-entropy as
 *           the 256 bits output: close to uniform if the declaration holds,
 *           but NOT exactly unbiased, and no better than the declaration.
 *
 * The sink absorbs each digit into a uniform state Z on [0, M)
 * (fd_sampler_absorb: Z = Z B + d, M = M B) and emits Z mod N whenever the
 * sampler accepts; digits are never converted to base N by division.
 */

#include <errno.h>
#include <math.h>

#include "extract.h"

static const char *const fdc_method_names[FDC_METHOD_COUNT] = {
	[FDC_METHOD_PARITY] = "parity",
	[FDC_METHOD_COMPARE2] = "compare2",
	[FDC_METHOD_RANK3] = "rank3",
	[FDC_METHOD_RANK3X] = "rank3x",
	[FDC_METHOD_DIJKSTRA] = "dijkstra",
	[FDC_METHOD_TREE] = "tree",
	[FDC_METHOD_HASH] = "hash",
	[FDC_METHOD_NONE] = "none",
};

/* C(n, k) for n up to FDC_TREE_MAX_BLOCK: C(64, 32) < 2^64. */
static u64 fdc_binomial[FDC_TREE_MAX_BLOCK + 1][FDC_TREE_MAX_BLOCK + 1];

static void fdc_binomial_init(void)
{
	unsigned int n, k;

	if (fdc_binomial[0][0])
		return;
	for (n = 0; n <= FDC_TREE_MAX_BLOCK; n++) {
		fdc_binomial[n][0] = 1;
		for (k = 1; k <= n; k++)
			fdc_binomial[n][k] = fdc_binomial[n - 1][k - 1] +
					     (k < n ? fdc_binomial[n - 1][k] : 0);
	}
}

/**
 * fdc_method_name() - the name of a method, as --method takes it
 * @method: the method
 *
 * Return: its name.
 */
const char *fdc_method_name(enum fdc_method method)
{
	return method < FDC_METHOD_COUNT ? fdc_method_names[method] : "unknown";
}

/**
 * fdc_method_parse() - the method called @name
 * @name: its name
 *
 * Return: the method, or -1.
 */
int fdc_method_parse(const char *name)
{
	int i;

	for (i = 0; i < FDC_METHOD_COUNT; i++)
		if (!strcmp(name, fdc_method_names[i]))
			return i;
	return -1;
}

/**
 * fdc_is_prime() - whether @n is prime
 * @n: a small number
 *
 * Return: true for a prime.
 */
bool fdc_is_prime(u64 n)
{
	u64 d;

	if (n < 2)
		return false;
	for (d = 2; d * d <= n; d++)
		if (n % d == 0)
			return false;
	return true;
}

/**
 * fdc_dijkstra_best_prime() - the block length that gets the most out of a
 * fair die
 * @faces: K
 *
 * A block of p rolls gives log2(p) bits unless all p faces are equal, which
 * a fair die does with probability K^(1 - p).
 *
 * Return: the prime p <= FDC_EXTRACT_MAX_PRIME maximising
 * (1 - K^(1 - p)) log2(p) / p: 5 for a coin, 3 for K >= 3.
 */
unsigned int fdc_dijkstra_best_prime(u64 faces)
{
	unsigned int p, best = 2;
	double rate, best_rate = 0;

	for (p = 2; p <= FDC_EXTRACT_MAX_PRIME; p++) {
		if (!fdc_is_prime(p))
			continue;
		rate = (1 - pow((double)faces, 1.0 - p)) * log2(p) / p;
		if (rate > best_rate) {
			best_rate = rate;
			best = p;
		}
	}
	return best;
}

/**
 * fdc_hash_block_rolls() - rolls per hashed block
 * @min_entropy: declared min-entropy per roll, in bits
 *
 * Return: the fewest rolls whose declared entropy is at least
 * FDC_HASH_SAFETY times FDC_HASH_OUT_BITS, or 0 if that is more than
 * FDC_HASH_MAX_BLOCK or @min_entropy is not positive.
 */
u64 fdc_hash_block_rolls(double min_entropy)
{
	double n;

	if (!(min_entropy > 0))
		return 0;
	n = ceil(FDC_HASH_SAFETY * FDC_HASH_OUT_BITS / min_entropy);
	if (!(n <= FDC_HASH_MAX_BLOCK))
		return 0;
	return (u64)n;
}

/**
 * fdc_extract_init() - set up an extractor
 * @x: the extractor
 * @method: the method
 * @faces: K, the faces of the input die, 2..FDC_EXTRACT_MAX_FACES
 * @prime: dijkstra's block length, a prime up to FDC_EXTRACT_MAX_PRIME, or
 *	0 for fdc_dijkstra_best_prime(); tree's block length, 2 to
 *	FDC_TREE_MAX_BLOCK, or 0 for FDC_TREE_DEFAULT_BLOCK; ignored by the
 *	other methods
 * @min_entropy: hash: the declared min-entropy per roll in bits, at most
 *	log2(K); ignored by the other methods
 * @emit: receives each uniform digit and its base
 * @ctx: passed to @emit
 *
 * Return: 0, or -EINVAL for a parameter out of range.
 */
int fdc_extract_init(struct fdc_extract *x, enum fdc_method method,
		     u64 faces, unsigned int prime, double min_entropy,
		     fdc_digit_fn emit, void *ctx)
{
	memset(x, 0, sizeof(*x));
	if (method >= FDC_METHOD_COUNT || faces < 2 ||
	    faces > FDC_EXTRACT_MAX_FACES)
		return -EINVAL;
	x->method = method;
	x->faces = faces;
	x->emit = emit;
	x->ctx = ctx;
	switch (method) {
	case FDC_METHOD_PARITY:
	case FDC_METHOD_COMPARE2:
		x->block = 2;
		break;
	case FDC_METHOD_RANK3:
	case FDC_METHOD_RANK3X:
		x->block = 3;
		break;
	case FDC_METHOD_DIJKSTRA:
		if (!prime)
			prime = fdc_dijkstra_best_prime(faces);
		if (prime > FDC_EXTRACT_MAX_PRIME || !fdc_is_prime(prime))
			return -EINVAL;
		x->block = prime;
		break;
	case FDC_METHOD_TREE:
		if (!prime)
			prime = FDC_TREE_DEFAULT_BLOCK;
		if (prime < 2 || prime > FDC_TREE_MAX_BLOCK)
			return -EINVAL;
		x->block = prime;
		fdc_binomial_init();
		break;
	case FDC_METHOD_HASH:
		if (min_entropy > log2((double)faces) + FDC_ENTROPY_SLACK)
			return -EINVAL;
		x->hash_rolls = fdc_hash_block_rolls(min_entropy);
		if (!x->hash_rolls)
			return -EINVAL;
		sha256_init(&x->sha);
		break;
	default:
		x->block = 1;
		break;
	}
	return 0;
}

/**
 * fdc_extract_max_base() - the largest base of the digits @x emits
 * @x: the extractor
 *
 * Return: the base.
 */
u64 fdc_extract_max_base(const struct fdc_extract *x)
{
	switch (x->method) {
	case FDC_METHOD_RANK3:
	case FDC_METHOD_RANK3X:
		return 6;
	case FDC_METHOD_DIJKSTRA:
		return x->block;
	case FDC_METHOD_TREE:
		return fdc_binomial[x->block][x->block / 2];
	case FDC_METHOD_NONE:
		return x->faces;
	default:
		return 2;
	}
}

/**
 * fdc_extract_single_base() - the base of all the digits @x emits
 * @x: the extractor
 *
 * Return: the base, or 0 when the bases vary (rank3x).
 */
u64 fdc_extract_single_base(const struct fdc_extract *x)
{
	if (x->method == FDC_METHOD_RANK3X || x->method == FDC_METHOD_TREE)
		return 0;
	return fdc_extract_max_base(x);
}

static void fdc_extract_emit(struct fdc_extract *x, u64 digit, u64 base)
{
	x->digits++;
	x->bits += log2((double)base);
	x->emit(x->ctx, digit, base);
}

/*
 * One node of the binarization tree: the @n rolls of the block that reach
 * faces [@lo, @hi), in order. Emits the rank of their bit string (1 for
 * the upper half) among the strings of its length and weight, then does
 * the lower half's node, then the upper half's.
 */
static void fdc_tree_node(struct fdc_extract *x, const u64 *w, unsigned int n,
			  u64 lo, u64 hi)
{
	u64 low[FDC_TREE_MAX_BLOCK], high[FDC_TREE_MAX_BLOCK];
	u64 mid = lo + (hi - lo) / 2, rank = 0;
	unsigned int i, nl = 0, nh = 0;

	if (n < 2 || hi - lo < 2)
		return;
	for (i = 0; i < n; i++) {
		if (w[i] >= mid) {
			/* The (nh + 1)-th one, at position i. */
			high[nh++] = w[i];
			rank += fdc_binomial[i][nh];
		} else {
			low[nl++] = w[i];
		}
	}
	if (nl && nh)
		fdc_extract_emit(x, rank, fdc_binomial[n][nh]);
	fdc_tree_node(x, low, nl, lo, mid);
	fdc_tree_node(x, high, nh, mid, hi);
}

/* How far the block is rotated from its least rotation. */
static unsigned int fdc_rotation_index(const u64 *w, unsigned int p)
{
	unsigned int best = 0, r, i;

	for (r = 1; r < p; r++) {
		for (i = 0; i < p; i++) {
			u64 a = w[(r + i) % p], b = w[(best + i) % p];

			if (a != b) {
				if (a < b)
					best = r;
				break;
			}
		}
	}
	/* Rotation best is the least; the block is it rotated by p - best. */
	return (p - best) % p;
}

static void fdc_extract_block(struct fdc_extract *x)
{
	const u64 *w = x->buf;
	u64 a = w[0], b = w[1], c = w[2];
	unsigned int i;

	switch (x->method) {
	case FDC_METHOD_PARITY:
		/* Faces are 0-based here: face a + 1 is odd when a is even. */
		if ((a ^ b) & 1)
			fdc_extract_emit(x, !(a & 1), 2);
		break;
	case FDC_METHOD_COMPARE2:
		if (a != b)
			fdc_extract_emit(x, a < b, 2);
		break;
	case FDC_METHOD_RANK3:
	case FDC_METHOD_RANK3X:
		if (a != b && a != c && b != c) {
			/* Lehmer code: how many later rolls are below a, then
			 * whether c is below b.
			 */
			fdc_extract_emit(x, 2 * ((b < a) + (c < a)) + (c < b), 6);
		} else if (x->method == FDC_METHOD_RANK3X && !(a == b && b == c)) {
			/* Exactly one tie: the position of the odd one out. */
			fdc_extract_emit(x, a == b ? 2 : a == c ? 1 : 0, 3);
		}
		break;
	case FDC_METHOD_DIJKSTRA:
		for (i = 1; i < x->block; i++)
			if (w[i] != w[0])
				break;
		if (i < x->block)
			fdc_extract_emit(x, fdc_rotation_index(w, x->block),
					 x->block);
		break;
	case FDC_METHOD_TREE:
		fdc_tree_node(x, w, x->block, 0, x->faces);
		break;
	default:
		break;
	}
}

static void fdc_extract_hash(struct fdc_extract *x, u64 face)
{
	u8 enc[4], digest[SHA256_DIGEST_SIZE];
	unsigned int i;

	/* Each roll r in 1..K as the 32-bit big-endian number r - 1. */
	enc[0] = face >> 24;
	enc[1] = face >> 16;
	enc[2] = face >> 8;
	enc[3] = face;
	sha256_update(&x->sha, sizeof(enc), enc);
	if (++x->have < x->hash_rolls)
		return;
	/* This also starts the next block's hash. */
	sha256_digest(&x->sha, sizeof(digest), digest);
	x->used += x->have;
	x->have = 0;
	/* Byte 0 first, most significant bit first. */
	for (i = 0; i < FDC_HASH_OUT_BITS; i++)
		fdc_extract_emit(x, (digest[i / 8] >> (7 - i % 8)) & 1, 2);
}

/**
 * fdc_extract_feed() - one roll of the input die
 * @x: the extractor
 * @face: the roll, 0-based: in [0, K)
 */
void fdc_extract_feed(struct fdc_extract *x, u64 face)
{
	if (FD_WARN_ON(face >= x->faces))
		return;
	x->rolls++;
	switch (x->method) {
	case FDC_METHOD_NONE:
		x->used++;
		fdc_extract_emit(x, face, x->faces);
		return;
	case FDC_METHOD_HASH:
		fdc_extract_hash(x, face);
		return;
	default:
		break;
	}
	x->buf[x->have++] = face;
	if (x->have < x->block)
		return;
	fdc_extract_block(x);
	x->used += x->have;
	x->have = 0;
}

/* ------------------------------------------------------------------------
 * The sink
 */

/**
 * fdc_sink_precision() - the sampler precision the sink uses by default
 * @sides: N
 * @max_base: the largest base of the digits it will absorb
 *
 * M stays below 2^precision before each digit, so M times a base of b bits
 * must fit the sampler's arithmetic: precision + b <= 64 in 64-bit mode,
 * <= 128 in 128-bit mode. 64-bit mode is used when it leaves at least 24
 * bits above N (a rejection then wastes at most ~2^-24 of the state).
 *
 * Return: the precision.
 */
unsigned int fdc_sink_precision(u64 sides, u64 max_base)
{
	unsigned int b = fls64(max_base - 1);

	if (64 - b >= fls64(sides) + 24)
		return 64 - b;
	return 127 - b;
}

/**
 * fdc_sink_init_precision() - set up a sink with a chosen precision
 * @k: the sink
 * @sides: N, at least 2
 * @max_base: the largest base of the digits it will absorb, at least 2
 * @single_base: the base of every digit, or 0 if they vary; when it is N the
 *	digits are passed on as they are
 * @precision: the sampler's precision, see fdc_sink_precision(); the tests
 *	use small ones so that short inputs give output
 * @out: receives each roll in [0, N)
 * @ctx: passed to @out
 *
 * Return: 0, or -EINVAL for a parameter out of range.
 */
int fdc_sink_init_precision(struct fdc_sink *k, u64 sides, u64 max_base,
			    u64 single_base, unsigned int precision,
			    fdc_value_fn out, void *ctx)
{
	unsigned int b = fls64(max_base - 1);

	memset(k, 0, sizeof(*k));
	if (sides < 2 || max_base < 2 || precision < fls64(sides) ||
	    precision + b > (precision > 63 ? 128 : 64))
		return -EINVAL;
	k->sides = sides;
	k->direct = single_base == sides;
	k->out = out;
	k->ctx = ctx;
	fd_sampler_init_precision(&k->s, sides, true, precision);
	return 0;
}

/**
 * fdc_sink_init() - set up a sink
 * @k: the sink
 * @sides: N, at least 2
 * @max_base: the largest base of the digits it will absorb, at least 2
 * @single_base: the base of every digit, or 0 if they vary
 * @out: receives each roll in [0, N)
 * @ctx: passed to @out
 *
 * Return: 0, or -EINVAL for a parameter out of range.
 */
int fdc_sink_init(struct fdc_sink *k, u64 sides, u64 max_base,
		  u64 single_base, fdc_value_fn out, void *ctx)
{
	return fdc_sink_init_precision(k, sides, max_base, single_base,
				       fdc_sink_precision(sides, max_base),
				       out, ctx);
}

static void fdc_sink_out(struct fdc_sink *k, u64 v)
{
	k->outputs++;
	k->out(k->ctx, v);
}

/**
 * fdc_sink_digit() - absorb one uniform digit
 * @sink: the sink (a struct fdc_sink, void for use as an fdc_digit_fn)
 * @digit: the digit, in [0, @base)
 * @base: its base, at most the sink's max_base
 */
void fdc_sink_digit(void *sink, u64 digit, u64 base)
{
	struct fdc_sink *k = sink;
	u64 v;

	if (k->direct) {
		fdc_sink_out(k, digit);
		return;
	}
	/* M reached its target: roll until it has room again. */
	while (!fd_sampler_wants(&k->s, base))
		if (fd_sampler_try(&k->s, &v))
			fdc_sink_out(k, v);
	fd_sampler_absorb(&k->s, digit, base);
}

/**
 * fdc_sink_finish() - at the end of the input, roll what the state allows
 * @k: the sink; it takes no more digits afterwards
 *
 * Lowers the sampler's target to the least power of two above N, so that
 * the accept/reject steps go on while M > N. Each step is the sampler's
 * own, so the rolls stay exact; only what is left below the target is lost.
 */
void fdc_sink_finish(struct fdc_sink *k)
{
	u64 v;

	if (k->direct)
		return;
	k->s.precision = fls64(k->sides);
	while (k->s.m >= (fd_u128)1 << k->s.precision)
		if (fd_sampler_try(&k->s, &v))
			fdc_sink_out(k, v);
}
