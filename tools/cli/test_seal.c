// SPDX-License-Identifier: GPL-2.0
/*
 * test_seal - the test vectors of sealed draws (seal_vectors.txt): for
 * each request, secret and public value, the commitment, the stream's key,
 * the stream's first bytes and the outcome are computed again and must be
 * those written in the file.
 *
 *	test_seal FILE		check FILE
 *	test_seal --print	write the vectors (made from the table below)
 *
 * The format, one "name: value" per line, a blank line between vectors:
 *	request:    the arguments, separated by single blanks
 *	input:      a line of the FILE operand (repeated, one per line)
 *	secret:     64 hex digits
 *	public:     the public value's name, or none
 *	value:      the public value (absent for none)
 *	commitment: 64 hex digits
 *	stream_key: 64 hex digits
 *	stream:     the stream's first 256 bytes, hex
 *	outcome:    a line of the outcome (repeated)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sealog.h"

#define FDC_VEC_STREAM	256

struct fdc_vec {
	const char *request;
	const char *input;
	const char *public;
	const char *value;
};

static const struct fdc_vec fdc_vecs[] = {
	{ "sample 6 49", NULL, "none", NULL },
	{ "sample 6 49", NULL, "drand quicknet round 1234567",
	  "a8b1c0d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0" },
	{ "sample 3 18446744073709551615", NULL, "none", NULL },
	{ "shuffle 10", NULL, "NIST beacon pulse 2026-12-01T20:00Z",
	  "the pulse's outputValue, as published" },
	{ "shuffle names.txt", "Ada\nBrian\nClaude\nDonald\nEdsger\n", "none",
	  NULL },
	{ "roll 3d6 -n 4", NULL, "none", NULL },
	{ "roll 4d6k3 d20+4 2d10x3", NULL, "drand quicknet round 42", "00ff" },
	{ "roll --weights 1,2,3,4 -n 5", NULL, "none", NULL },
	{ "pick -n 3 prizes.txt", "1 car\n10 bicycle\n100 book token\n",
	  "none", NULL },
};

/* Split @s on blanks into @argv (modified in place). */
static size_t fdc_split(char *s, const char **argv, size_t max)
{
	size_t n = 0;
	char *t;

	for (t = strtok(s, " "); t && n + 1 < max; t = strtok(NULL, " "))
		argv[n++] = t;
	argv[n] = NULL;
	return n;
}

/* Compute the derived fields of one vector into @f. */
static int fdc_vec_compute(FILE *f, const char *request, const char *input,
			   const u8 *secret, const char *public,
			   const char *value)
{
	char copy[256], hex[2 * FDC_VEC_STREAM + 1], *out, *p, *nl;
	const char *argv[32];
	struct fdc_request req = { .argv = argv };
	u8 h[FDC_HASH_BYTES], key[FDC_HASH_BYTES];
	u64 words[FDC_VEC_STREAM / 8];
	struct fdc_source src;
	size_t len, got = 0;
	long r;

	snprintf(copy, sizeof(copy), "%s", request);
	req.argc = fdc_split(copy, argv, ARRAY_SIZE(argv));
	if (input) {
		req.input = input;
		req.input_len = strlen(input);
	}
	if (fdc_request_check(&req, false))
		return -1;
	fdc_commitment(h, secret, public, &req);
	fdc_hex(hex, h, FDC_HASH_BYTES);
	fprintf(f, "commitment: %s\n", hex);
	fdc_stream_key(key, secret, value, &req);
	fdc_hex(hex, key, FDC_HASH_BYTES);
	fprintf(f, "stream_key: %s\n", hex);
	if (fdc_source_open_stream(&src, key))
		return -1;
	while (got < FDC_VEC_STREAM * 8) {
		r = src.ops->bits(&src, words + got / 64,
				  FDC_VEC_STREAM * 8 - got);
		if (r <= 0)
			return -1;
		got += r;
	}
	fdc_source_close(&src);
	/* Back to bytes in stream order: least significant byte first. */
	for (len = 0; len < FDC_VEC_STREAM; len++) {
		h[0] = words[len / 8] >> (8 * (len % 8));
		fdc_hex(hex + 2 * len, h, 1);
	}
	fprintf(f, "stream: %s\n", hex);
	if (fdc_draw_sealed(key, &req, &out, &len))
		return -1;
	for (p = out; p < out + len; p = nl + 1) {
		nl = memchr(p, '\n', out + len - p);
		if (!nl)
			return -1;
		fprintf(f, "outcome: %.*s\n", (int)(nl - p), p);
	}
	free(out);
	return 0;
}

static int fdc_print(void)
{
	char shex[2 * FDC_SECRET_BYTES + 1];
	u8 secret[FDC_SECRET_BYTES];
	const char *p, *nl;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(fdc_vecs); i++) {
		const struct fdc_vec *v = &fdc_vecs[i];

		/* Secrets anyone can write down: bytes i, i + 7, i + 14, ... */
		for (j = 0; j < FDC_SECRET_BYTES; j++)
			secret[j] = i + 7 * j;
		fdc_hex(shex, secret, FDC_SECRET_BYTES);
		printf("%srequest: %s\n", i ? "\n" : "", v->request);
		for (p = v->input; p && *p; p = nl + 1) {
			nl = strchr(p, '\n');
			printf("input: %.*s\n", (int)(nl - p), p);
		}
		printf("secret: %s\npublic: %s\n", shex, v->public);
		if (v->value)
			printf("value: %s\n", v->value);
		if (fdc_vec_compute(stdout, v->request, v->input, secret,
				    v->public, v->value))
			return 1;
	}
	return 0;
}

/* Check one vector, its lines in @text: 0 when every field agrees. */
static int fdc_check(char *text, int no)
{
	char *request = NULL, *public = NULL, *value = NULL, *line, *save;
	char input[1024] = "", want[8192] = "", *got = NULL;
	u8 secret[FDC_SECRET_BYTES];
	bool have_secret = false, have_input = false;
	size_t glen = 0;
	FILE *f;
	int ret;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "request: ", 9)) {
			request = line + 9;
		} else if (!strncmp(line, "input: ", 7)) {
			strncat(input, line + 7, sizeof(input) - strlen(input) - 2);
			strcat(input, "\n");
			have_input = true;
		} else if (!strncmp(line, "secret: ", 8)) {
			have_secret = !fdc_unhex(secret, line + 8,
						 FDC_SECRET_BYTES);
		} else if (!strncmp(line, "public: ", 8)) {
			public = line + 8;
		} else if (!strncmp(line, "value: ", 7)) {
			value = line + 7;
		} else {
			strncat(want, line, sizeof(want) - strlen(want) - 2);
			strcat(want, "\n");
		}
	}
	if (!request || !public || !have_secret) {
		printf("FAIL: vector %d: request, secret or public missing\n", no);
		return 1;
	}
	f = open_memstream(&got, &glen);
	ret = fdc_vec_compute(f, request, have_input ? input : NULL, secret,
			      public, value);
	fclose(f);
	if (ret || strcmp(got, want)) {
		printf("FAIL: vector %d (%s):\n--- file\n%s--- computed\n%s",
		       no, request, want, got);
		free(got);
		return 1;
	}
	printf("ok: vector %d (%s)\n", no, request);
	free(got);
	return 0;
}

int main(int argc, char **argv)
{
	char *buf, *p, *end;
	int no = 0, failed = 0;
	size_t len;

	if (argc == 2 && !strcmp(argv[1], "--print"))
		return fdc_print();
	if (argc != 2 || fdc_read_file(argv[1], &buf, &len)) {
		fprintf(stderr, "usage: test_seal FILE | --print\n");
		return 2;
	}
	for (p = buf; p < buf + len; p = end + 2) {
		end = strstr(p, "\n\n");
		if (!end)
			end = buf + len - 1;
		*end = 0;
		failed += fdc_check(p, ++no);
		if (end >= buf + len - 1)
			break;
	}
	if (no != ARRAY_SIZE(fdc_vecs)) {
		printf("FAIL: %d vectors in %s, want %zu\n", no, argv[1],
		       ARRAY_SIZE(fdc_vecs));
		failed++;
	}
	free(buf);
	printf("%d vectors, %d failed\n", no, failed);
	return failed ? 1 : 0;
}
