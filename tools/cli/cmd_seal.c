// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - draws anyone can check: 'fairdie keygen', 'seal',
 * 'reveal' and 'verify' (the log and its formats: sealog.c).
 *
 * A sealed draw commits to a 256-bit secret from the source and to the
 * request before the public value that opens it exists; the reveal draws
 * the request from ChaCha20 under SHA-256 of secret, public value and
 * request, through the command's own code, as --random-source would with
 * those bits; verify replays every reveal and checks every link.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/eddsa.h>

#include "sealog.h"

static const char fdc_keygen_help[] =
"Usage: fairdie keygen [OPTION]... KEY\n"
"Make an Ed25519 key to sign a log of draws: the private key goes to KEY\n"
"(mode 0600), the public key to KEY.pub, and the public key is printed.\n"
"Neither file is ever overwritten. The private key's 32 bytes come from the\n"
"source (the device unless --source=getrandom, --random-source or --seed).\n"
"\n"
"Options:\n";

static const char fdc_seal_help[] =
"Usage: fairdie seal --log LOG --key KEY --secret SECRET --public NAME REQUEST...\n"
"Seal a draw: draw a 256-bit secret from the source into SECRET (mode 0600,\n"
"never overwritten) and append to LOG a record signed with KEY holding the\n"
"request, NAME (the public value that will open it, e.g. 'drand quicknet\n"
"round 1234567', or 'none'), the time and a commitment to secret and\n"
"request. 'fairdie reveal' opens it. REQUEST is one of\n"
"  sample K N | shuffle N | shuffle FILE | roll EXPR... [-n C] |\n"
"  roll --weights W,... [-n C] | pick [-n C] FILE\n"
"and a FILE's content is kept in the record.\n"
"\n"
"Options:\n"
"      --log=LOG           the log (made if absent)\n"
"      --key=KEY           the private key ('fairdie keygen')\n"
"      --secret=SECRET     the file the secret goes to\n"
"      --public=NAME       the public value that will open the draw, or none\n";

static const char fdc_reveal_help[] =
"Usage: fairdie reveal --log LOG --key KEY --secret SECRET [--public-value VALUE]\n"
"Open a sealed draw: check SECRET against its record's commitment, draw the\n"
"request from the stream of secret, public value and request, append the\n"
"revealed record (outcome, secret, public value) to LOG and print the\n"
"outcome. VALUE is taken byte for byte as given (hex or text).\n"
"\n"
"Options:\n"
"      --log=LOG           the log holding the sealed record\n"
"      --key=KEY           the private key that signs the log\n"
"      --secret=SECRET     the secret file 'fairdie seal' wrote\n"
"      --public-value=VALUE  the public value the record names\n"
"      --record=SEQ        the sealed record (default: the one whose\n"
"                          commitment SECRET names)\n";

/* Below 0x100: the option parser keeps the codes above for its own. */
enum {
	FDC_OPT_SECRET = 0x80,
	FDC_OPT_PUBLIC,
	FDC_OPT_PUBLIC_VALUE,
	FDC_OPT_RECORD,
};

static const struct option fdc_seal_opts[] = {
	{ "secret", required_argument, NULL, FDC_OPT_SECRET },
	{ "public", required_argument, NULL, FDC_OPT_PUBLIC },
	{ "public-value", required_argument, NULL, FDC_OPT_PUBLIC_VALUE },
	{ "record", required_argument, NULL, FDC_OPT_RECORD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * struct fdc_seal_args - the options of keygen, seal, reveal and verify
 * @secret: --secret
 * @public: --public
 * @value: --public-value
 * @record: --record, 0 when not given
 */
struct fdc_seal_args {
	const char *secret;
	const char *public;
	const char *value;
	u64 record;
};

/* Parse the options of @argv[0]; FDC_GO_ON or the exit status. */
static int fdc_seal_options(struct fdc_config *cfg, int argc, char **argv,
			    const char *help, struct fdc_seal_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	while ((c = fdc_getopt(cfg, argc, argv, "+h", fdc_seal_opts)) != -1) {
		switch (c) {
		case 'h':
			fdc_help(help);
			return FDC_EXIT_OK;
		case FDC_OPT_SECRET:
			a->secret = optarg;
			break;
		case FDC_OPT_PUBLIC:
			a->public = optarg;
			break;
		case FDC_OPT_PUBLIC_VALUE:
			a->value = optarg;
			break;
		case FDC_OPT_RECORD:
			if (fdc_parse_count(argv[0], "--record", optarg, 1,
					    UINT64_MAX, &a->record))
				return FDC_EXIT_USAGE;
			break;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	return FDC_GO_ON;
}

/* @n random bytes from the source @cfg names. */
static int fdc_random_bytes(const struct fdc_config *cfg, u8 *out, size_t n)
{
	struct fdc_engine e;
	u64 v[64];
	size_t i;
	int ret;

	if (n > ARRAY_SIZE(v) || fdc_engine_open(&e, cfg))
		return -1;
	ret = fdc_engine_rolls(&e, 256, v, n);
	fdc_engine_close(&e);
	for (i = 0; i < n && !ret; i++)
		out[i] = v[i];
	return ret;
}

/* Write @text to a new file @path of @mode; never over an existing one. */
static int fdc_write_new(const char *path, const char *text, mode_t mode)
{
	size_t n = strlen(text);
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (fd < 0) {
		fdc_err("%s: %s%s", fdc_quote(path), strerror(errno),
			errno == EEXIST ? ": it is never overwritten" : "");
		return -1;
	}
	if (write(fd, text, n) != (ssize_t)n || fsync(fd)) {
		fdc_err("%s: %s", fdc_quote(path), strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

/**
 * fdc_cmd_keygen() - fairdie keygen
 * @cfg: the global options
 * @argc: argument count, argv[0] being "keygen"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_keygen(struct fdc_config *cfg, int argc, char **argv)
{
	char text[128], hex[2 * FDC_KEY_BYTES + 1], pub_path[4096];
	struct fdc_seal_args a;
	struct fdc_keys k;
	int ret;

	ret = fdc_seal_options(cfg, argc, argv, fdc_keygen_help, &a);
	if (ret != FDC_GO_ON)
		return ret;
	if (optind + 1 != argc || !*argv[optind]) {
		fdc_err("keygen: expected one argument, the key file");
		return FDC_EXIT_USAGE;
	}
	snprintf(pub_path, sizeof(pub_path), "%s.pub", argv[optind]);
	if (!access(pub_path, F_OK)) {
		fdc_err("%s: exists: it is never overwritten",
			fdc_quote(pub_path));
		return FDC_EXIT_FAILURE;
	}
	if (fdc_random_bytes(cfg, k.priv, FDC_KEY_BYTES))
		return FDC_EXIT_FAILURE;
	ed25519_sha512_public_key(k.pub, k.priv);
	fdc_hex(hex, k.priv, FDC_KEY_BYTES);
	snprintf(text, sizeof(text), "%s %s\n", FDC_PRIVATE_TAG, hex);
	memset(k.priv, 0, sizeof(k.priv));
	if (fdc_write_new(argv[optind], text, 0600)) {
		memset(text, 0, sizeof(text));
		return FDC_EXIT_FAILURE;
	}
	memset(text, 0, sizeof(text));
	fdc_hex(hex, k.pub, FDC_KEY_BYTES);
	snprintf(text, sizeof(text), "%s %s\n", FDC_PUBLIC_TAG, hex);
	if (fdc_write_new(pub_path, text, 0644))
		return FDC_EXIT_FAILURE;
	printf("%s\n", hex);
	return fdc_finish_output();
}

/* --log and --key, both needed, and the key loaded. */
static int fdc_need_log_key(const struct fdc_config *cfg, const char *cmd,
			    struct fdc_keys *k)
{
	if (!cfg->log || !cfg->key) {
		fdc_err("%s: --%s is needed", cmd,
			cfg->log ? "key KEY" : "log LOG");
		return FDC_EXIT_USAGE;
	}
	return fdc_keys_load(cfg->key, k, true);
}

/**
 * fdc_cmd_seal() - fairdie seal
 * @cfg: the global options
 * @argc: argument count, argv[0] being "seal"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_seal(struct fdc_config *cfg, int argc, char **argv)
{
	u8 secret[FDC_SECRET_BYTES], commit[FDC_HASH_BYTES];
	char shex[2 * FDC_SECRET_BYTES + 1], chex[2 * FDC_HASH_BYTES + 1];
	char text[256], *input = NULL, *out;
	struct fdc_request req = { 0 };
	size_t len;
	struct fdc_seal_args a;
	struct fdc_keys k;
	struct fdc_log log = { .fd = -1 };
	json_t *r;
	int ret;

	ret = fdc_seal_options(cfg, argc, argv, fdc_seal_help, &a);
	if (ret != FDC_GO_ON)
		return ret;
	if (!a.secret || !a.public) {
		fdc_err("seal: --%s is needed", a.secret ? "public NAME" :
			"secret SECRET");
		return FDC_EXIT_USAGE;
	}
	if (!*a.public) {
		fdc_err("seal: --public '': name the public value, or say none");
		return FDC_EXIT_USAGE;
	}
	req.argv = (const char **)argv + optind;
	req.argc = argc - optind;
	if (req.argc >= 2 && ((!strcmp(argv[optind], "shuffle") &&
			       argv[optind + 1][0] != '-' &&
			       (argv[optind + 1][0] < '0' ||
				argv[optind + 1][0] > '9')) ||
			      !strcmp(argv[optind], "pick")) &&
	    argv[argc - 1][0] != '-') {
		if (fdc_read_file(argv[argc - 1], &input, &req.input_len))
			return FDC_EXIT_FAILURE;
		req.input = input;
	}
	if (fdc_request_check(&req, false)) {
		free(input);
		return FDC_EXIT_USAGE;
	}
	/* A request its command refuses ('sample 7 5') is refused now. */
	memset(commit, 0, sizeof(commit));
	if (fdc_draw_sealed(commit, &req, &out, &len)) {
		free(input);
		return FDC_EXIT_USAGE;
	}
	free(out);
	ret = fdc_need_log_key(cfg, "seal", &k);
	if (ret)
		goto out;
	ret = fdc_log_open(&log, cfg->log, &k, false);
	if (ret)
		goto out;
	ret = FDC_EXIT_FAILURE;
	if (fdc_random_bytes(cfg, secret, FDC_SECRET_BYTES))
		goto out;
	fdc_commitment(commit, secret, a.public, &req);
	fdc_hex(shex, secret, FDC_SECRET_BYTES);
	fdc_hex(chex, commit, FDC_HASH_BYTES);
	snprintf(text, sizeof(text), "%s %s %s\n", FDC_SECRET_TAG, shex, chex);
	memset(secret, 0, sizeof(secret));
	memset(shex, 0, sizeof(shex));
	r = fdc_record_new("sealed", &log, &k);
	if (!r || fdc_request_to_json(r, &req) ||
	    json_object_set_new(r, "public", json_string(a.public)) ||
	    json_object_set_new(r, "commitment", json_string(chex))) {
		if (r && !json_object_get(r, "public"))
			fdc_err("seal: --public is not UTF-8 text");
		json_decref(r);
		goto out;
	}
	if (fdc_write_new(a.secret, text, 0600)) {
		json_decref(r);
		goto out;
	}
	if (fdc_log_append(&log, r, &k)) {
		unlink(a.secret);
		goto out;
	}
	printf("sealed: record %llu of %s, opened by %s\ncommitment: %s\n",
	       (unsigned long long)log.seq, log.path, fdc_quote(a.public),
	       chex);
	ret = fdc_finish_output();
out:
	memset(text, 0, sizeof(text));
	fdc_log_close(&log);
	free(input);
	return ret;
}

/* The secret file: the secret and the commitment it was sealed with. */
static int fdc_secret_load(const char *path, u8 *secret, u8 *commit)
{
	char *buf, tag[32], shex[80], chex[80];
	size_t len;
	int ok;

	if (fdc_read_file(path, &buf, &len))
		return FDC_EXIT_FAILURE;
	ok = sscanf(buf, "%31s %79s %79s", tag, shex, chex) == 3 &&
	     !strcmp(tag, FDC_SECRET_TAG) &&
	     !fdc_unhex(secret, shex, FDC_SECRET_BYTES) &&
	     !fdc_unhex(commit, chex, FDC_HASH_BYTES);
	memset(buf, 0, len);
	memset(shex, 0, sizeof(shex));
	free(buf);
	if (!ok) {
		fdc_err("%s: not a fairdie secret file", fdc_quote(path));
		return FDC_EXIT_FAILURE;
	}
	return 0;
}

/**
 * fdc_cmd_reveal() - fairdie reveal
 * @cfg: the global options
 * @argc: argument count, argv[0] being "reveal"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_reveal(struct fdc_config *cfg, int argc, char **argv)
{
	u8 secret[FDC_SECRET_BYTES], commit[FDC_HASH_BYTES], c2[FDC_HASH_BYTES];
	u8 skey[FDC_HASH_BYTES];
	char shex[2 * FDC_SECRET_BYTES + 1], chex[2 * FDC_HASH_BYTES + 1];
	const char *rargv[64], *name, *line, *end, *v;
	struct fdc_log log = { .fd = -1 };
	struct fdc_request req;
	struct fdc_seal_args a;
	struct fdc_keys k;
	json_t *rec, *sealed = NULL, *r;
	u64 seq, mine = 0, revealed = 0, other = 0, nline = 0;
	char *out = NULL;
	size_t len;
	int ret;

	ret = fdc_seal_options(cfg, argc, argv, fdc_reveal_help, &a);
	if (ret != FDC_GO_ON)
		return ret;
	if (optind != argc) {
		fdc_err("reveal: unexpected argument '%s'",
			fdc_quote(argv[optind]));
		return FDC_EXIT_USAGE;
	}
	if (!a.secret) {
		fdc_err("reveal: --secret SECRET is needed");
		return FDC_EXIT_USAGE;
	}
	ret = fdc_need_log_key(cfg, "reveal", &k);
	if (ret)
		return ret;
	ret = fdc_secret_load(a.secret, secret, commit);
	if (ret)
		return ret;
	fdc_hex(chex, commit, FDC_HASH_BYTES);
	ret = fdc_log_open(&log, cfg->log, &k, true);
	if (ret)
		goto out;
	ret = FDC_EXIT_FAILURE;

	/* The sealed record, and whether it was revealed already. */
	for (line = log.buf; line < log.buf + log.len; line = end + 1) {
		end = memchr(line, '\n', log.buf + log.len - line);
		rec = fdc_parse_record(line, end - line);
		nline++;
		if (!rec) {
			fdc_err("%s: line %llu is not a fairdie record: see 'fairdie verify'",
				log.path, (unsigned long long)nline);
			goto out;
		}
		seq = json_integer_value(json_object_get(rec, "seq"));
		v = fdc_str(rec, "type");
		if (!strcmp(v, "sealed") && fdc_str(rec, "commitment") &&
		    !strcmp(fdc_str(rec, "commitment"), chex)) {
			if (!a.record || a.record == seq) {
				mine = seq;
				json_decref(sealed);
				sealed = json_incref(rec);
			} else {
				other = seq;
			}
		} else if (!strcmp(v, "sealed") && a.record == seq) {
			mine = seq;
		} else if (!strcmp(v, "revealed") && mine &&
			   json_integer_value(json_object_get(rec, "sealed")) ==
			   (json_int_t)mine) {
			revealed = seq;
		}
		json_decref(rec);
	}
	if (a.record && !mine) {
		fdc_err("%s: no sealed record %llu", log.path,
			(unsigned long long)a.record);
		goto out;
	}
	if (!sealed && other) {
		fdc_err("%s: the secret of record %llu, not of record %llu",
			fdc_quote(a.secret), (unsigned long long)other,
			(unsigned long long)a.record);
		goto out;
	}
	if (!sealed) {
		fdc_err("%s: matches no sealed record of %s",
			fdc_quote(a.secret), log.path);
		goto out;
	}
	if (revealed) {
		fdc_err("%s: record %llu was revealed already, in record %llu",
			log.path, (unsigned long long)mine,
			(unsigned long long)revealed);
		goto out;
	}
	name = fdc_str(sealed, "public");
	if (!name || fdc_request_from_json(sealed, &req, rargv,
					   ARRAY_SIZE(rargv))) {
		fdc_err("%s: record %llu is not a sealed record", log.path,
			(unsigned long long)mine);
		goto out;
	}
	fdc_commitment(c2, secret, name, &req);
	if (memcmp(c2, commit, FDC_HASH_BYTES)) {
		fdc_err("%s: the secret does not open the commitment of record %llu: nothing appended",
			fdc_quote(a.secret), (unsigned long long)mine);
		goto out;
	}
	ret = FDC_EXIT_USAGE;
	if (!strcmp(name, "none") && a.value) {
		fdc_err("reveal: record %llu was sealed with no public value (none): --public-value does not apply",
			(unsigned long long)mine);
		goto out;
	}
	if (strcmp(name, "none") && !a.value) {
		fdc_err("reveal: record %llu is opened by '%s': give it with --public-value",
			(unsigned long long)mine, fdc_quote(name));
		goto out;
	}
	if (a.value && (!*a.value || fdc_utf8_check(a.value, strlen(a.value)) !=
			strlen(a.value))) {
		fdc_err("reveal: invalid --public-value '%s': expected the value as published (hex or UTF-8 text)",
			fdc_quote(a.value));
		goto out;
	}
	ret = FDC_EXIT_FAILURE;
	fdc_stream_key(skey, secret, a.value, &req);
	if (fdc_draw_sealed(skey, &req, &out, &len))
		goto out;
	fdc_hex(shex, secret, FDC_SECRET_BYTES);
	r = fdc_record_new("revealed", &log, &k);
	if (!r || json_object_set_new(r, "sealed", json_integer(mine)) ||
	    json_object_set_new(r, "public_value", a.value ?
				json_string(a.value) : json_null()) ||
	    json_object_set_new(r, "secret", json_string(shex)) ||
	    json_object_set_new(r, "outcome", json_stringn(out, len))) {
		fdc_err("out of memory");
		json_decref(r);
		goto out;
	}
	if (fdc_log_append(&log, r, &k))
		goto out;
	fwrite(out, 1, len, stdout);
	ret = fdc_finish_output();
out:
	json_decref(sealed);
	free(out);
	fdc_log_close(&log);
	return ret;
}
