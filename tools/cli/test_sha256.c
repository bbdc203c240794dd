// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the SHA-256 of 'extract --method hash', which comes from
 * the nettle library, against the FIPS 180-4 / NIST example vectors, at
 * the lengths where padding changes, and fed in pieces of every size as
 * extract feeds it (four bytes a roll).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "fd_check.h"
#include "fd_shim.h"

#define FDT_DIGEST	SHA256_DIGEST_SIZE

static void fdt_sha256(const void *msg, size_t len, u8 *digest)
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, len, msg);
	sha256_digest(&ctx, FDT_DIGEST, digest);
}

static void fdt_hex(const u8 *d, char *out)
{
	unsigned int i;

	for (i = 0; i < FDT_DIGEST; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void fdt_vector(const char *name, const void *msg, size_t len,
		       const char *want)
{
	u8 d[FDT_DIGEST];
	char hex[2 * FDT_DIGEST + 1];

	fdt_sha256(msg, len, d);
	fdt_hex(d, hex);
	CHECK(!strcmp(hex, want), "%s: got %s want %s", name, hex, want);
}

/* Messages of byte i = 7 i + 3, digests from an independent implementation. */
static const struct {
	size_t len;
	const char *hex;
} fdt_lengths[] = {
	{ 55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b" },
	{ 56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27" },
	{ 63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
	{ 64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
	{ 65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e" },
	{ 119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
	{ 127, "a8d23e75d936f303d248888d9b165ee543f4cbafcad3c9dd2a79bd84faa11d07" },
	{ 128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6" },
	{ 1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371" },
};

/* "abcd" "bcde" "cdef" ...: @groups runs of @run letters, each starting
 * one letter after the one before (the FIPS 180-4 example messages).
 */
static size_t fdt_staircase(char *out, unsigned int groups, unsigned int run)
{
	unsigned int g, i;
	size_t n = 0;

	for (g = 0; g < groups; g++)
		for (i = 0; i < run; i++)
			out[n++] = (char)('a' + g + i);
	out[n] = '\0';
	return n;
}

static void fdt_standard_vectors(void)
{
	char two_blocks[64], long_msg[128], *million;

	fdt_vector("\"abc\"", "abc", 3,
		   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	fdt_vector("\"\"", "", 0,
		   "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK(fdt_staircase(two_blocks, 14, 4) == 56 &&
	      !strncmp(two_blocks, "abcdbcdecdef", 12) &&
	      !strcmp(two_blocks + 52, "nopq"), "448-bit message text");
	CHECK(fdt_staircase(long_msg, 14, 8) == 112 &&
	      !strncmp(long_msg, "abcdefghbcdefghi", 16) &&
	      !strcmp(long_msg + 104, "nopqrstu"), "896-bit message text");
	fdt_vector("448-bit message", two_blocks, strlen(two_blocks),
		   "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	fdt_vector("896-bit message", long_msg, strlen(long_msg),
		   "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

	million = malloc(1000000);
	if (!million)
		abort();
	memset(million, 'a', 1000000);
	fdt_vector("one million 'a'", million, 1000000,
		   "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(million);
}

static void fdt_padding_boundaries(void)
{
	u8 msg[1000];
	unsigned int i;
	char name[32];

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (u8)(7 * i + 3);
	for (i = 0; i < ARRAY_SIZE(fdt_lengths); i++) {
		snprintf(name, sizeof(name), "length %zu", fdt_lengths[i].len);
		fdt_vector(name, msg, fdt_lengths[i].len, fdt_lengths[i].hex);
	}
}

/*
 * Feeding the same message in pieces of every size gives the same digest,
 * and a context is ready for the next message after its digest (extract
 * hashes block after block with one context).
 */
static void fdt_incremental(void)
{
	u8 msg[300], whole[FDT_DIGEST], part[FDT_DIGEST];
	struct sha256_ctx ctx;
	unsigned int i, step, bad = 0;
	size_t off, n;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (u8)(i * i + 11);
	fdt_sha256(msg, sizeof(msg), whole);
	sha256_init(&ctx);
	for (step = 1; step <= 130; step++) {
		for (off = 0; off < sizeof(msg); off += n) {
			n = sizeof(msg) - off < step ? sizeof(msg) - off : step;
			sha256_update(&ctx, n, msg + off);
		}
		sha256_digest(&ctx, FDT_DIGEST, part);
		bad += !!memcmp(whole, part, sizeof(whole));
	}
	CHECK(!bad, "incremental hashing differs for %u piece sizes", bad);
}

int main(void)
{
	fdt_standard_vectors();
	fdt_padding_boundaries();
	fdt_incremental();
	return fd_check_summary();
}
