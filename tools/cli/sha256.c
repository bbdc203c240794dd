// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - SHA-256, written from FIPS 180-4 sections 4.1.2, 4.2.2,
 * 5.1.1, 5.3.3 and 6.2. Messages are whole bytes; words are big-endian.
 */

#include "sha256.h"

/* First 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4 4.2.2); test_sha256 recomputes them.
 */
static const u32 fdc_sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* First 32 bits of the fractional parts of the square roots of the first
 * eight primes (FIPS 180-4 5.3.3).
 */
static const u32 fdc_sha256_h0[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

static inline u32 fdc_rotr32(u32 x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline u32 fdc_load_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static inline void fdc_store_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* The compression function on one 512-bit block (FIPS 180-4 6.2.2). */
static void fdc_sha256_block(u32 state[8], const u8 *block)
{
	u32 w[64], a, b, c, d, e, f, g, h, t1, t2, s0, s1;
	unsigned int t;

	for (t = 0; t < 16; t++)
		w[t] = fdc_load_be32(block + 4 * t);
	for (t = 16; t < 64; t++) {
		s0 = fdc_rotr32(w[t - 15], 7) ^ fdc_rotr32(w[t - 15], 18) ^
		     (w[t - 15] >> 3);
		s1 = fdc_rotr32(w[t - 2], 17) ^ fdc_rotr32(w[t - 2], 19) ^
		     (w[t - 2] >> 10);
		w[t] = s1 + w[t - 7] + s0 + w[t - 16];
	}

	a = state[0];
	b = state[1];
	c = state[2];
	d = state[3];
	e = state[4];
	f = state[5];
	g = state[6];
	h = state[7];
	for (t = 0; t < 64; t++) {
		/* T1 = h + Sigma1(e) + Ch(e, f, g) + K[t] + W[t] */
		t1 = h + (fdc_rotr32(e, 6) ^ fdc_rotr32(e, 11) ^
			  fdc_rotr32(e, 25)) +
		     ((e & f) ^ (~e & g)) + fdc_sha256_k[t] + w[t];
		/* T2 = Sigma0(a) + Maj(a, b, c) */
		t2 = (fdc_rotr32(a, 2) ^ fdc_rotr32(a, 13) ^
		      fdc_rotr32(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

/**
 * fdc_sha256_init() - start a new hash
 * @ctx: the hash
 */
void fdc_sha256_init(struct fdc_sha256 *ctx)
{
	memcpy(ctx->state, fdc_sha256_h0, sizeof(ctx->state));
	ctx->bytes = 0;
	ctx->used = 0;
}

/**
 * fdc_sha256_update() - append bytes to the message
 * @ctx: the hash
 * @data: the bytes
 * @len: how many
 */
void fdc_sha256_update(struct fdc_sha256 *ctx, const void *data, size_t len)
{
	const u8 *p = data;
	size_t n;

	ctx->bytes += len;
	if (ctx->used) {
		n = FDC_SHA256_BLOCK_SIZE - ctx->used;
		if (n > len)
			n = len;
		memcpy(ctx->block + ctx->used, p, n);
		ctx->used += n;
		p += n;
		len -= n;
		if (ctx->used < FDC_SHA256_BLOCK_SIZE)
			return;
		fdc_sha256_block(ctx->state, ctx->block);
		ctx->used = 0;
	}
	while (len >= FDC_SHA256_BLOCK_SIZE) {
		fdc_sha256_block(ctx->state, p);
		p += FDC_SHA256_BLOCK_SIZE;
		len -= FDC_SHA256_BLOCK_SIZE;
	}
	memcpy(ctx->block, p, len);
	ctx->used = len;
}

/**
 * fdc_sha256_final() - pad the message and produce the digest
 * @ctx: the hash; start it again with fdc_sha256_init() to reuse it
 * @digest: the 32-byte digest, H0 first, each word big-endian
 */
void fdc_sha256_final(struct fdc_sha256 *ctx,
		      u8 digest[FDC_SHA256_DIGEST_SIZE])
{
	u64 bits = ctx->bytes * 8;
	unsigned int i;

	/* A 1 bit, zeros up to 56 mod 64 bytes, then the length in bits. */
	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > FDC_SHA256_BLOCK_SIZE - 8) {
		memset(ctx->block + ctx->used, 0,
		       FDC_SHA256_BLOCK_SIZE - ctx->used);
		fdc_sha256_block(ctx->state, ctx->block);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0,
	       FDC_SHA256_BLOCK_SIZE - 8 - ctx->used);
	fdc_store_be32(ctx->block + 56, bits >> 32);
	fdc_store_be32(ctx->block + 60, (u32)bits);
	fdc_sha256_block(ctx->state, ctx->block);

	for (i = 0; i < 8; i++)
		fdc_store_be32(digest + 4 * i, ctx->state[i]);
	memset(ctx, 0, sizeof(*ctx));
}

/**
 * fdc_sha256() - hash a whole message at once
 * @data: the message
 * @len: its length in bytes
 * @digest: the 32-byte digest
 */
void fdc_sha256(const void *data, size_t len,
		u8 digest[FDC_SHA256_DIGEST_SIZE])
{
	struct fdc_sha256 ctx;

	fdc_sha256_init(&ctx);
	fdc_sha256_update(&ctx, data, len);
	fdc_sha256_final(&ctx, digest);
}
