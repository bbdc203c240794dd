// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the sources of fair bits in userspace: a file or pipe
 * (--random-source=FILE, '-' for standard input), getrandom(2)
 * (--source=getrandom), splitmix64 from a seed (--seed=N) and the stream of
 * a sealed draw (ChaCha20's keystream, 'fairdie reveal' and 'verify').
 *
 * They hand out bits only: the engine makes the rolls. --seed=N gives the
 * bits of splitmix64 seeded with N: reproducible runs for teaching and
 * simulation, NOT for anything that needs secrecy (the seed gives away
 * every roll).
 */

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <stdlib.h>
#include <unistd.h>

#include <nettle/chacha.h>

#include "fd_sim.h"
#include "msg.h"
#include "source.h"

/* Bytes in memory order to bits, the first byte's lowest bit first. */
static void fdc_bytes_to_words(u64 *words, size_t nbytes)
{
	size_t i;

	/* Zero the tail of a partial last word, then fix the byte order. */
	if (nbytes % 8)
		memset((u8 *)words + nbytes, 0, 8 - nbytes % 8);
	for (i = 0; i < (nbytes + 7) / 8; i++)
		words[i] = le64toh(words[i]);
}

static long fdc_file_bits(struct fdc_source *src, u64 *words, size_t max)
{
	size_t want = max / 8, got = 0;
	ssize_t r;

	/* A pipe may deliver less than asked: whatever is there will do. */
	while (!got) {
		r = read(src->fd, words, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fdc_err("%s: %s", src->name, strerror(errno));
			return -1;
		}
		if (!r)
			return 0;
		got = r;
	}
	fdc_bytes_to_words(words, got);
	return (long)got * 8;
}

static void fdc_file_close(struct fdc_source *src)
{
	if (src->fd > STDERR_FILENO)
		close(src->fd);
	src->fd = -1;
}

static const struct fdc_source_ops fdc_file_ops = {
	.bits = fdc_file_bits,
	.close = fdc_file_close,
};

/**
 * fdc_source_open_file() - fair bits from a file or a pipe
 * @src: the source
 * @path: the file; "-" is standard input
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_source_open_file(struct fdc_source *src, const char *path)
{
	memset(src, 0, sizeof(*src));
	src->ops = &fdc_file_ops;
	if (!strcmp(path, "-")) {
		fdc_source_name(src, "standard input");
		src->fd = STDIN_FILENO;
		return 0;
	}
	fdc_source_name(src, path);
	src->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0) {
		fdc_err("%s: %s", src->name, strerror(errno));
		return -1;
	}
	return 0;
}

static long fdc_getrandom_bits(struct fdc_source *src, u64 *words, size_t max)
{
	ssize_t r;

	(void)src;
	do {
		r = getrandom(words, max / 8, 0);
	} while (r < 0 && errno == EINTR);
	if (r <= 0) {
		fdc_err("getrandom: %s", strerror(r ? errno : EIO));
		return -1;
	}
	fdc_bytes_to_words(words, r);
	return (long)r * 8;
}

static const struct fdc_source_ops fdc_getrandom_ops = {
	.bits = fdc_getrandom_bits,
};

/**
 * fdc_source_open_getrandom() - fair bits from getrandom(2), the kernel's
 *	CRNG (blocks until it is initialised)
 * @src: the source
 *
 * Return: 0.
 */
int fdc_source_open_getrandom(struct fdc_source *src)
{
	memset(src, 0, sizeof(*src));
	src->ops = &fdc_getrandom_ops;
	fdc_source_name(src, "getrandom");
	src->fd = -1;
	return 0;
}

static long fdc_seed_bits(struct fdc_source *src, u64 *words, size_t max)
{
	size_t i;

	for (i = 0; i < max / 64; i++)
		words[i] = fd_splitmix64(&src->state);
	return (long)(max / 64 * 64);
}

static const struct fdc_source_ops fdc_seed_ops = {
	.bits = fdc_seed_bits,
};

/**
 * fdc_source_open_seed() - the bits of splitmix64 seeded with @seed, 64 at
 *	a time: reproducible, and not for security
 * @src: the source
 * @seed: the seed
 */
void fdc_source_open_seed(struct fdc_source *src, u64 seed)
{
	memset(src, 0, sizeof(*src));
	src->ops = &fdc_seed_ops;
	fdc_source_name(src, "seed");
	src->fd = -1;
	src->state = seed;
}

/*
 * The most bytes of the stream made at a time: one block, 512 bits, more
 * than most draws need ('sample 6 49' takes about 34 bits; verify replays
 * a year of them, and a second block made and thrown away was 1 % of its
 * time).
 */
#define FDC_STREAM_BYTES	CHACHA_BLOCK_SIZE

static long fdc_stream_bits(struct fdc_source *src, u64 *words, size_t max)
{
	size_t n = max / 8 < FDC_STREAM_BYTES ? max / 8 : FDC_STREAM_BYTES;

	/*
	 * Whole blocks only: nettle starts every call on a new block, so the
	 * keystream is the same whatever the engine asks for at a time. A
	 * draw seldom needs more than the first few.
	 */
	n -= n % CHACHA_BLOCK_SIZE;
	memset(words, 0, n);
	chacha_crypt(src->priv, n, (u8 *)words, (const u8 *)words);
	fdc_bytes_to_words(words, n);
	return (long)n * 8;
}

static void fdc_stream_close(struct fdc_source *src)
{
	free(src->priv);
	src->priv = NULL;
}

static const struct fdc_source_ops fdc_stream_ops = {
	.bits = fdc_stream_bits,
	.close = fdc_stream_close,
};

/**
 * fdc_source_open_stream() - the bits of a sealed draw: ChaCha20's
 *	keystream (20 rounds, 64-bit nonce of zeros, block counter from 0)
 *	under @key, its bytes in order, each byte's lowest bit first, as
 *	--random-source reads a file holding them
 * @src: the source
 * @key: the 32-byte key (Documentation/userspace-api/fairdie.rst says how
 *	'fairdie reveal' makes it)
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_source_open_stream(struct fdc_source *src, const u8 key[32])
{
	static const u8 nonce[CHACHA_NONCE_SIZE];
	struct chacha_ctx *ctx;

	memset(src, 0, sizeof(*src));
	ctx = malloc(sizeof(*ctx));
	if (!ctx) {
		fdc_err("out of memory");
		return -1;
	}
	chacha_set_key(ctx, key);
	chacha_set_nonce(ctx, nonce);
	src->ops = &fdc_stream_ops;
	src->priv = ctx;
	src->fd = -1;
	/* A name of our own needs no quoting (verify opens one a draw). */
	memcpy(src->name, "sealed draw", sizeof("sealed draw"));
	return 0;
}

/**
 * fdc_source_name() - name a source after a path or argument from outside
 * @src: the source
 * @name: the path; messages show it escaped as fdc_quote() does
 */
void fdc_source_name(struct fdc_source *src, const char *name)
{
	snprintf(src->name, sizeof(src->name), "%s", fdc_quote(name));
}

/**
 * fdc_source_close() - close a source of any kind
 * @src: the source; closing it twice does nothing
 */
void fdc_source_close(struct fdc_source *src)
{
	if (src->ops && src->ops->close)
		src->ops->close(src);
	src->ops = NULL;
}
