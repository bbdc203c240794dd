/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - draws anyone can check: the signed, hash-chained log of
 * sealed draws, their reveals and receipts of ordinary draws, its keys,
 * the commitment and the bit stream of a sealed draw.
 *
 * The formats are specified in Documentation/userspace-api/fairdie.rst
 * ("Draws anyone can check"); the constants below are part of them.
 */
#ifndef _FAIRDIE_CLI_SEALOG_H
#define _FAIRDIE_CLI_SEALOG_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "cli.h"

#define FDC_SECRET_BYTES	32
#define FDC_HASH_BYTES		32
#define FDC_KEY_BYTES		32
#define FDC_SIG_BYTES		64

/* First words of the key and secret files. */
#define FDC_PRIVATE_TAG		"fairdie-ed25519-private-v1"
#define FDC_PUBLIC_TAG		"fairdie-ed25519-public-v1"
#define FDC_SECRET_TAG		"fairdie-secret-v1"

/* Domain separation of the three hashes and of the signature. */
#define FDC_DOM_COMMIT		"fairdie commit v1"
#define FDC_DOM_STREAM		"fairdie stream v1"
#define FDC_DOM_SIGN		"fairdie log v1"

/* Every record ends in this member, the signature over what precedes. */
#define FDC_SIG_PREFIX		",\"sig\":\""
#define FDC_SIG_SUFFIX_LEN	(sizeof(FDC_SIG_PREFIX) - 1 + 2 * FDC_SIG_BYTES + 2)

/**
 * struct fdc_request - a draw request in the tool's own terms
 * @argv: the command and its arguments, e.g. "sample" "6" "49"
 * @argc: how many
 * @input: the content of the FILE operand (the last of @argv), or NULL
 * @input_len: its length
 */
struct fdc_request {
	const char *const *argv;
	size_t argc;
	const char *input;
	size_t input_len;
};

/**
 * struct fdc_keys - a signing key (or only its public half)
 * @priv: the private key (Ed25519 seed)
 * @pub: the public key
 * @have_priv: @priv is known
 */
struct fdc_keys {
	u8 priv[FDC_KEY_BYTES];
	u8 pub[FDC_KEY_BYTES];
	bool have_priv;
};

void fdc_sha256(u8 out[FDC_HASH_BYTES], const void *p, size_t n);
bool fdc_line_signed(const char *line, size_t len, const u8 *pub);
void fdc_hex(char *out, const u8 *in, size_t n);
int fdc_unhex(u8 *out, const char *in, size_t n);
int fdc_read_file(const char *path, char **buf, size_t *len);

int fdc_keys_load(const char *path, struct fdc_keys *k, bool priv);
void fdc_commitment(u8 out[FDC_HASH_BYTES], const u8 *secret,
		    const char *name, const struct fdc_request *req);
void fdc_stream_key(u8 out[FDC_HASH_BYTES], const u8 *secret,
		    const char *value, const struct fdc_request *req);
int fdc_request_check(const struct fdc_request *req, bool quiet);
int fdc_request_from_json(json_t *rec, struct fdc_request *req,
			  const char **argv, size_t max);
const char *fdc_str(json_t *rec, const char *key);
json_t *fdc_parse_record(const char *line, size_t len);
int fdc_draw_run(const struct fdc_config *cfg, const struct fdc_request *req,
		 char **out, size_t *len);
int fdc_draw_sealed(const u8 key[FDC_HASH_BYTES],
		    const struct fdc_request *req, char **out, size_t *len);

/**
 * struct fdc_log - a log open for appending, locked
 * @path: its name, for messages
 * @dir: the folder holding it
 * @fd: the open file
 * @buf: what it held when opened: all of it, or its last lines
 * @len: its length
 * @seq: the number of the last record (0 for an empty log)
 * @prev: the SHA-256 of the last record's line
 */
struct fdc_log {
	const char *path;
	char *dir;
	int fd;
	char *buf;
	size_t len;
	u64 seq;
	u8 prev[FDC_HASH_BYTES];
};

int fdc_log_open(struct fdc_log *log, const char *path,
		 const struct fdc_keys *k, bool whole);
int fdc_log_append(struct fdc_log *log, void *record,
		   const struct fdc_keys *k);
void fdc_log_close(struct fdc_log *log);
void *fdc_record_new(const char *type, const struct fdc_log *log,
		     const struct fdc_keys *k);
int fdc_request_to_json(void *record, const struct fdc_request *req);
int fdc_receipt(const struct fdc_config *cfg, int argc, char **argv,
		int (*run)(struct fdc_config *, int, char **));

int fdc_cmd_keygen(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_seal(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_reveal(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_verify(struct fdc_config *cfg, int argc, char **argv);

#endif /* _FAIRDIE_CLI_SEALOG_H */
