// SPDX-License-Identifier: GPL-2.0
/*
 * test_seal - the test vectors of sealed draws (seal_vectors.txt): for
 * each request, secret and public value, the commitment, the stream's key,
 * the stream's first bytes and the outcome are computed again and must be
 * those written in the file.
 *
 *	test_seal FILE		check FILE, then verify's reader (below)
 *	test_seal --print	write the vectors (made from the table below)
 *
 * verify reads a record in the canonical layout without jansson
 * (fdc_record_read()): on a log of every kind of record, and on each of
 * its lines with any byte changed to one of a few telling ones or deleted,
 * that reading and jansson's must give the same members, or both refuse.
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
#include <unistd.h>

#include <nettle/eddsa.h>

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

static bool fdc_same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The two readings of a record hold the same members. */
static bool fdc_same_record(const struct fdc_record *a,
			    const struct fdc_record *b)
{
	size_t i;

	if (a->seq != b->seq || !fdc_same_str(a->type, b->type) ||
	    !fdc_same_str(a->prev, b->prev) || !fdc_same_str(a->key, b->key) ||
	    !fdc_same_str(a->public, b->public) ||
	    !fdc_same_str(a->commitment, b->commitment) ||
	    !fdc_same_str(a->secret, b->secret) ||
	    !fdc_same_str(a->source, b->source) ||
	    a->request_array != b->request_array || a->req_ok != b->req_ok ||
	    a->sealed_ok != b->sealed_ok ||
	    (a->sealed_ok && a->sealed != b->sealed) || a->pv != b->pv ||
	    (a->pv == FDC_PV_STR &&
	     !fdc_same_str(a->public_value, b->public_value)) ||
	    !a->outcome != !b->outcome ||
	    (a->outcome && (a->outcome_len != b->outcome_len ||
			    memcmp(a->outcome, b->outcome, a->outcome_len))))
		return false;
	if (!a->req_ok)
		return true;
	if (a->req.argc != b->req.argc || !a->req.input != !b->req.input ||
	    a->req.input_len != b->req.input_len ||
	    (a->req.input && memcmp(a->req.input, b->req.input,
				    a->req.input_len)))
		return false;
	for (i = 0; i < a->req.argc; i++)
		if (strcmp(a->req.argv[i], b->req.argv[i]))
			return false;
	return true;
}

static struct fdc_record fdc_ra, fdc_rb;

/* Read @line both ways: 1 when they differ, *@canonical how it was read. */
static int fdc_reader_compare(const char *line, size_t len, bool *canonical)
{
	struct fdc_record *a = &fdc_ra, *b = &fdc_rb;
	int ra = fdc_record_read(a, line, len, true);
	int rb = fdc_record_read(b, line, len, false);

	*canonical = !ra && !a->json;
	if (ra != rb || (!ra && !fdc_same_record(a, b))) {
		printf("FAIL: reader: the two readings differ on: %.*s\n",
		       (int)len, line);
		return 1;
	}
	return 0;
}

/* Append a sealed record and its reveal for vector @v to @log. */
static int fdc_reader_pair(struct fdc_log *log, const struct fdc_keys *k,
			   const struct fdc_vec *v, const u8 *secret)
{
	char copy[256], hex[2 * FDC_HASH_BYTES + 1], *out;
	const char *argv[32];
	struct fdc_request req = { .argv = argv };
	u8 h[FDC_HASH_BYTES];
	size_t len;
	json_t *r;

	snprintf(copy, sizeof(copy), "%s", v->request);
	req.argc = fdc_split(copy, argv, ARRAY_SIZE(argv));
	if (v->input) {
		req.input = v->input;
		req.input_len = strlen(v->input);
	}
	fdc_commitment(h, secret, v->public, &req);
	fdc_hex(hex, h, FDC_HASH_BYTES);
	r = fdc_record_new("sealed", log, k);
	if (!r || fdc_request_to_json(r, &req) ||
	    json_object_set_new(r, "public", json_string(v->public)) ||
	    json_object_set_new(r, "commitment", json_string(hex)) ||
	    fdc_log_append(log, r, k))
		return -1;
	fdc_stream_key(h, secret, v->value, &req);
	if (fdc_draw_sealed(h, &req, &out, &len))
		return -1;
	fdc_hex(hex, secret, FDC_SECRET_BYTES);
	r = fdc_record_new("revealed", log, k);
	if (!r || json_object_set_new(r, "sealed", json_integer(log->seq)) ||
	    json_object_set_new(r, "public_value", v->value ?
				json_string(v->value) : json_null()) ||
	    json_object_set_new(r, "secret", json_string(hex)) ||
	    json_object_set_new(r, "outcome", json_stringn(out, len)) ||
	    fdc_log_append(log, r, k)) {
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

/*
 * A log of every vector sealed and revealed, a pair that only jansson
 * reads (escapes and UTF-8) and a receipt; each line read both ways, then
 * each line with a byte changed or deleted.
 */
static int fdc_reader_test(void)
{
	static const struct fdc_vec odd = {
		"sample 6 49", NULL, "drand \"quick\"net/round \xc3\xa9",
		"tab\there, back\\slash"
	};
	static const char bytes[] = "\"\\0a,}]:n1-. \t\x7f\x80";
	char dir[] = "/tmp/fairdie-test-seal-XXXXXX", path[64], *buf, *line;
	char *end, *mut;
	struct fdc_keys k = { .have_priv = true };
	struct fdc_log log;
	int failed = 0, lines = 0, canonical = 0, tried = 0;
	size_t len, i, j, n;
	u8 secret[FDC_SECRET_BYTES];
	bool c;
	json_t *r;

	for (i = 0; i < FDC_KEY_BYTES; i++)
		k.priv[i] = 3 * i + 1;
	ed25519_sha512_public_key(k.pub, k.priv);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/log", dir);
	if (fdc_log_open(&log, path, &k, false))
		return 1;
	for (i = 0; i <= ARRAY_SIZE(fdc_vecs); i++) {
		for (j = 0; j < FDC_SECRET_BYTES; j++)
			secret[j] = i + 7 * j;
		if (fdc_reader_pair(&log, &k, i < ARRAY_SIZE(fdc_vecs) ?
				    &fdc_vecs[i] : &odd, secret))
			return 1;
	}
	r = fdc_record_new("receipt", &log, &k);
	if (!r || json_object_set_new(r, "request", json_pack("[sss]", "roll",
							      "-n", "2")) ||
	    json_object_set_new(r, "outcome", json_string("4\n1\n")) ||
	    json_object_set_new(r, "source", json_string("seed")) ||
	    json_object_set_new(r, "tool_version", json_string("1")) ||
	    fdc_log_append(&log, r, &k))
		return 1;
	fdc_log_close(&log);
	if (fdc_read_file(path, &buf, &len))
		return 1;
	unlink(path);
	rmdir(dir);
	mut = malloc(len + 1);
	for (line = buf; mut && line < buf + len; line = end + 1) {
		end = memchr(line, '\n', buf + len - line);
		n = end - line;
		lines++;
		failed += fdc_reader_compare(line, n, &c);
		canonical += c;
		for (i = 0; i < n && failed < 10; i++) {
			for (j = 0; j < sizeof(bytes); j++) {
				memcpy(mut, line, n);
				if (j + 1 < sizeof(bytes)) {
					mut[i] = bytes[j];
					failed += fdc_reader_compare(mut, n, &c);
				} else {
					memmove(mut + i, mut + i + 1, n - i - 1);
					failed += fdc_reader_compare(mut, n - 1, &c);
				}
				tried++;
			}
		}
	}
	fdc_record_done(&fdc_ra);
	fdc_record_done(&fdc_rb);
	free(mut);
	free(buf);
	/* Not the two sealed records with a FILE, the odd pair, the receipt. */
	if (lines != 2 * (int)ARRAY_SIZE(fdc_vecs) + 3 ||
	    canonical != lines - 5) {
		printf("FAIL: reader: %d of %d lines read in the canonical layout, want %d\n",
		       canonical, lines, lines - 5);
		failed++;
	}
	printf("%s: reader: %d lines and %d changed ones read both ways\n",
	       failed ? "FAIL" : "ok", lines, tried);
	return failed;
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
	failed += fdc_reader_test();
	printf("%d vectors, %d failed\n", no, failed);
	return failed ? 1 : 0;
}
