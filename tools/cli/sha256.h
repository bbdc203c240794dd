/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - SHA-256 (FIPS 180-4), for the hash extractor of
 * 'fairdie extract --method hash'.
 */
#ifndef _FAIRDIE_CLI_SHA256_H
#define _FAIRDIE_CLI_SHA256_H

#include <stddef.h>

#include "fd_shim.h"

#define FDC_SHA256_DIGEST_SIZE	32
#define FDC_SHA256_BLOCK_SIZE	64

/**
 * struct fdc_sha256 - a hash in progress
 * @state: the eight working words H0..H7
 * @bytes: message bytes hashed so far
 * @block: the partial block not yet compressed
 * @used: bytes held in @block
 */
struct fdc_sha256 {
	u32 state[8];
	u64 bytes;
	u8 block[FDC_SHA256_BLOCK_SIZE];
	unsigned int used;
};

void fdc_sha256_init(struct fdc_sha256 *ctx);
void fdc_sha256_update(struct fdc_sha256 *ctx, const void *data, size_t len);
void fdc_sha256_final(struct fdc_sha256 *ctx,
		      u8 digest[FDC_SHA256_DIGEST_SIZE]);
void fdc_sha256(const void *data, size_t len,
		u8 digest[FDC_SHA256_DIGEST_SIZE]);

#endif /* _FAIRDIE_CLI_SHA256_H */
