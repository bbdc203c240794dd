// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the log of draws anyone can check: keys, the commitment
 * and the stream of a sealed draw, the draw itself through the commands'
 * own code, and appends to the signed, hash-chained log.
 *
 * A record is one line of JSON written by jansson, compact, its members in
 * a fixed order, the last one "sig": the Ed25519 signature (nettle) over
 * FDC_DOM_SIGN, a NUL and the line as it would read without that member.
 * Each record holds the SHA-256 of the line before it ("prev") and its
 * number ("seq", from 1). Appends take an exclusive flock(2) on the log,
 * check that its last line is whole and signed by the same key, write the
 * line with one write(2) on an O_APPEND descriptor and fsync(2) it before
 * anything is printed. Nothing ever truncates or rewrites a log.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <nettle/eddsa.h>
#include <nettle/sha2.h>

#include "fd_names.h"
#include "sealog.h"

/**
 * fdc_hex() - @n bytes as 2 @n lower-case hex digits and a NUL
 * @out: room for 2 @n + 1 characters
 * @in: the bytes
 * @n: how many
 */
void fdc_hex(char *out, const u8 *in, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = 0;
}

/* One more than the value of a lower-case hex digit; 0 for any other. */
static const u8 fdc_hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12,
	['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
};

/**
 * fdc_unhex() - exactly 2 @n lower-case hex digits, and nothing after, to
 *	@n bytes
 * @out: the bytes
 * @in: the digits, NUL-terminated
 * @n: how many bytes
 *
 * Return: 0, or -1 when @in is anything else.
 */
int fdc_unhex(u8 *out, const char *in, size_t n)
{
	size_t i;
	int hi, lo;

	for (i = 0; i < n; i++) {
		/* A NUL is no digit: the string ends no earlier than checked. */
		hi = fdc_hexval[(unsigned char)in[2 * i]] - 1;
		if (hi < 0)
			return -1;
		lo = fdc_hexval[(unsigned char)in[2 * i + 1]] - 1;
		if (lo < 0)
			return -1;
		out[i] = hi << 4 | lo;
	}
	return in[2 * n] ? -1 : 0;
}

/**
 * fdc_read_file() - a whole file into memory, NUL-terminated
 * @path: the file
 * @buf: the content, to free()
 * @len: its length
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_read_file(const char *path, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap), *nb;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !b) {
		fdc_err("%s: %s", fdc_quote(path), strerror(b ? errno : ENOMEM));
		goto fail;
	}
	for (;;) {
		if (n + 1 >= cap) {
			nb = realloc(b, cap *= 2);
			if (!nb) {
				fdc_err("%s: out of memory", fdc_quote(path));
				goto fail;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fdc_err("%s: %s", fdc_quote(path), strerror(errno));
			goto fail;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	free(b);
	return -1;
}

/**
 * fdc_keys_load() - a key file written by 'fairdie keygen'
 * @path: KEY ("fairdie-ed25519-private-v1 HEX") or KEY.pub
 *	("fairdie-ed25519-public-v1 HEX"), one line each
 * @k: the key
 * @priv: a private key is needed (else either kind will do)
 *
 * Return: 0, 1 when the file cannot be read or holds no such key, 2 when
 * a private key is needed and this is a public one; after a one-line error.
 */
int fdc_keys_load(const char *path, struct fdc_keys *k, bool priv)
{
	char *buf, *sp, *nl;
	size_t len;
	int ret = FDC_EXIT_FAILURE;

	memset(k, 0, sizeof(*k));
	if (fdc_read_file(path, &buf, &len))
		return FDC_EXIT_FAILURE;
	sp = strchr(buf, ' ');
	nl = strchr(buf, '\n');
	if (!sp || !nl || nl[1])
		goto bad;
	*sp++ = 0;
	*nl = 0;
	if (!strcmp(buf, FDC_PRIVATE_TAG)) {
		if (fdc_unhex(k->priv, sp, FDC_KEY_BYTES))
			goto bad;
		ed25519_sha512_public_key(k->pub, k->priv);
		k->have_priv = true;
		ret = FDC_EXIT_OK;
	} else if (!strcmp(buf, FDC_PUBLIC_TAG)) {
		if (fdc_unhex(k->pub, sp, FDC_KEY_BYTES))
			goto bad;
		ret = FDC_EXIT_OK;
		if (priv) {
			fdc_err("%s: a public key: the private key (KEY, not KEY.pub) signs",
				fdc_quote(path));
			ret = FDC_EXIT_USAGE;
		}
	} else {
		goto bad;
	}
	free(buf);
	return ret;
bad:
	fdc_err("%s: not a fairdie key file", fdc_quote(path));
	free(buf);
	return FDC_EXIT_FAILURE;
}

/* The length of what follows, 8 bytes big-endian. */
static void fdc_hash_len(struct sha256_ctx *h, u64 n)
{
	u8 b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = n >> (56 - 8 * i);
	sha256_update(h, 8, b);
}

/* A string of bytes, its length first. */
static void fdc_hash_str(struct sha256_ctx *h, const void *s, size_t n)
{
	fdc_hash_len(h, n);
	sha256_update(h, n, s);
}

/*
 * The request: its number of arguments, each argument, then 1 and the
 * FILE's content, or 0 and nothing.
 */
static void fdc_hash_request(struct sha256_ctx *h,
			     const struct fdc_request *req)
{
	size_t i;

	fdc_hash_len(h, req->argc);
	for (i = 0; i < req->argc; i++)
		fdc_hash_str(h, req->argv[i], strlen(req->argv[i]));
	fdc_hash_len(h, !!req->input);
	if (req->input)
		fdc_hash_str(h, req->input, req->input_len);
}

/**
 * fdc_commitment() - what a sealed record commits to
 * @out: SHA-256 of FDC_DOM_COMMIT, the secret, the public value's name and
 *	the request, each string with its length first
 * @secret: the 32-byte secret
 * @name: the name of the public value that will open it, or "none"
 * @req: the request
 */
void fdc_commitment(u8 out[FDC_HASH_BYTES], const u8 *secret,
		    const char *name, const struct fdc_request *req)
{
	struct sha256_ctx h;

	sha256_init(&h);
	fdc_hash_str(&h, FDC_DOM_COMMIT, strlen(FDC_DOM_COMMIT));
	fdc_hash_str(&h, secret, FDC_SECRET_BYTES);
	fdc_hash_str(&h, name, strlen(name));
	fdc_hash_request(&h, req);
	sha256_digest(&h, FDC_HASH_BYTES, out);
}

/**
 * fdc_stream_key() - the ChaCha20 key of a sealed draw's bit stream
 * @out: SHA-256 of FDC_DOM_STREAM, the secret, the public value (empty
 *	for a draw sealed with "none") and the request, each string with its
 *	length first
 * @secret: the 32-byte secret
 * @value: the public value's bytes, NUL-terminated, or NULL for none
 * @req: the request
 */
void fdc_stream_key(u8 out[FDC_HASH_BYTES], const u8 *secret,
		    const char *value, const struct fdc_request *req)
{
	struct sha256_ctx h;

	sha256_init(&h);
	fdc_hash_str(&h, FDC_DOM_STREAM, strlen(FDC_DOM_STREAM));
	fdc_hash_str(&h, secret, FDC_SECRET_BYTES);
	fdc_hash_str(&h, value ? value : "", value ? strlen(value) : 0);
	fdc_hash_request(&h, req);
	sha256_digest(&h, FDC_HASH_BYTES, out);
}

static bool fdc_is_number(const char *s)
{
	u64 v;

	return *s >= '0' && *s <= '9' && !fdc_parse_u64(s, &v);
}

/**
 * fdc_request_check() - whether @req is one a sealed draw takes
 * @req: the request
 * @quiet: print nothing
 *
 * 'sample K N', 'shuffle N', 'shuffle FILE', 'roll EXPR... [-n C]',
 * 'roll --weights W,... [-n C]', 'pick [-n C] FILE'; a FILE operand comes
 * last, with its content in @req->input.
 *
 * Return: 0, or -1 after printing a one-line error (unless @quiet).
 */
int fdc_request_check(const struct fdc_request *req, bool quiet)
{
	const char *const *a = req->argv;
	size_t n = req->argc, i;
	bool file = false, ok = false;

	if (!n) {
		if (!quiet)
			fdc_err("no request: expected sample, shuffle, roll or pick");
		return -1;
	}
	if (!strcmp(a[0], "sample")) {
		ok = n == 3 && fdc_is_number(a[1]) && fdc_is_number(a[2]);
	} else if (!strcmp(a[0], "shuffle")) {
		ok = n == 2 && *a[1] && strcmp(a[1], "-") && a[1][0] != '-';
		file = ok && !fdc_is_number(a[1]);
	} else if (!strcmp(a[0], "pick")) {
		ok = (n == 2 || (n == 4 && !strcmp(a[1], "-n") &&
				 fdc_is_number(a[2]))) &&
		     *a[n - 1] && a[n - 1][0] != '-';
		file = ok;
	} else if (!strcmp(a[0], "roll")) {
		ok = n >= 2;
		for (i = 1; i < n && ok; i++) {
			if ((!strcmp(a[i], "-n") || !strcmp(a[i], "--weights")) &&
			    i + 1 < n)
				i++;
			else if (!*a[i] || a[i][0] == '-')
				ok = false;
		}
	} else {
		if (!quiet)
			fdc_err("unknown request '%s': expected sample, shuffle, roll or pick",
				fdc_quote(a[0]));
		return -1;
	}
	if (!ok) {
		if (!quiet)
			fdc_err("%s: not a request a sealed draw takes: 'sample K N', 'shuffle N|FILE', 'roll EXPR [-n C]', 'roll --weights W,... [-n C]', 'pick [-n C] FILE'",
				a[0]);
		return -1;
	}
	if (file != !!req->input) {
		if (!quiet)
			fdc_err("%s: the request's FILE and its content do not go together",
				a[0]);
		return -1;
	}
	return 0;
}

static int (*fdc_draw_cmd(const char *name))(struct fdc_config *, int,
					      char **)
{
	if (!strcmp(name, "roll"))
		return fdc_cmd_roll;
	if (!strcmp(name, "shuffle"))
		return fdc_cmd_shuffle;
	if (!strcmp(name, "sample"))
		return fdc_cmd_sample;
	if (!strcmp(name, "pick"))
		return fdc_cmd_pick;
	if (!strcmp(name, "craps"))
		return fdc_cmd_craps;
	return NULL;
}

/*
 * The stream that catches a command's output. It stays open from one
 * capture to the next (verify replays a year of draws, and opening one
 * costs more than a small draw); after an output above FDC_CAPTURE_KEEP
 * bytes it is closed, so that its memory goes back.
 */
#define FDC_CAPTURE_KEEP	65536
static FILE *fdc_cap;
static char *fdc_cap_buf;
static size_t fdc_cap_len;

/*
 * Run @run on @argv with standard output caught into *@out (a copy,
 * NUL-terminated, to free()): 0, or the command's exit status (what it
 * printed is then on standard output).
 */
static int fdc_capture(struct fdc_config *cfg, int argc, char **argv,
		       int (*run)(struct fdc_config *, int, char **),
		       char **out, size_t *len)
{
	FILE *saved = stdout;
	int ret;

	*out = NULL;
	*len = 0;
	if (!fdc_cap)
		fdc_cap = open_memstream(&fdc_cap_buf, &fdc_cap_len);
	if (!fdc_cap || fseeko(fdc_cap, 0, SEEK_SET)) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	stdout = fdc_cap;
	/* The option parser starts over on every run. */
	optind = 0;
	ret = run(cfg, argc, argv);
	/* A --json object ends in what is caught (nothing when not asked). */
	ret = fdc_json_end(ret);
	stdout = saved;
	/* The stream's length is where the run stopped writing. */
	if ((fflush(fdc_cap) || ferror(fdc_cap)) && !ret) {
		fdc_err("out of memory");
		ret = FDC_EXIT_FAILURE;
	}
	if (ret) {
		fwrite(fdc_cap_buf, 1, fdc_cap_len, stdout);
	} else {
		*out = malloc(fdc_cap_len + 1);
		if (*out) {
			memcpy(*out, fdc_cap_buf, fdc_cap_len);
			(*out)[fdc_cap_len] = 0;
			*len = fdc_cap_len;
		} else {
			fdc_err("out of memory");
			ret = FDC_EXIT_FAILURE;
		}
	}
	if (ret || fdc_cap_len > FDC_CAPTURE_KEEP) {
		fclose(fdc_cap);
		free(fdc_cap_buf);
		fdc_cap = NULL;
		fdc_cap_buf = NULL;
	}
	return ret;
}

/**
 * fdc_draw_run() - run a request through the command it names, on the
 *	source @cfg names, and catch what it prints
 * @cfg: the source
 * @req: the request; its FILE's content goes into a temporary file
 * @out: the output, to free()
 * @len: its length
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_draw_run(const struct fdc_config *cfg, const struct fdc_request *req,
		 char **out, size_t *len)
{
	char tmp[4096], *args[64];
	struct fdc_config c = *cfg;
	const char *dir;
	int ret, fd = -1;
	size_t i;

	if (req->argc >= ARRAY_SIZE(args)) {
		fdc_err("%s: too many arguments", req->argv[0]);
		return -1;
	}
	for (i = 0; i < req->argc; i++)
		args[i] = (char *)req->argv[i];
	args[i] = NULL;
	if (req->input) {
		dir = getenv("TMPDIR");
		snprintf(tmp, sizeof(tmp), "%s/fairdie-input-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		fd = mkstemp(tmp);
		if (fd < 0 || write(fd, req->input, req->input_len) !=
		    (ssize_t)req->input_len) {
			fdc_err("%s: %s", fdc_quote(tmp), strerror(errno));
			if (fd >= 0)
				unlink(tmp);
			return -1;
		}
		close(fd);
		args[req->argc - 1] = tmp;
	}
	ret = fdc_capture(&c, req->argc, args, fdc_draw_cmd(req->argv[0]),
			  out, len);
	if (req->input)
		unlink(tmp);
	return ret ? -1 : 0;
}

/**
 * fdc_draw_sealed() - the outcome of a sealed draw: its request run on the
 *	ChaCha20 stream under @key
 * @key: the stream's key (fdc_stream_key())
 * @req: the request
 * @out: what the request prints, to free()
 * @len: its length
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_draw_sealed(const u8 key[FDC_HASH_BYTES],
		    const struct fdc_request *req, char **out, size_t *len)
{
	struct fdc_config cfg;

	fdc_config_init(&cfg);
	cfg.user_source = FDC_USRC_STREAM;
	cfg.source_opt = true;
	cfg.stream_key = key;
	return fdc_draw_run(&cfg, req, out, len);
}

/**
 * fdc_request_from_json() - a record's request
 * @rec: the record
 * @req: the request, pointing into @rec
 * @argv: room for its arguments
 * @max: how many
 *
 * Return: 0, or -1 when "request" (or "input") is malformed.
 */
int fdc_request_from_json(json_t *rec, struct fdc_request *req,
			  const char **argv, size_t max)
{
	json_t *a = json_object_get(rec, "request"), *in, *s;
	size_t i;

	memset(req, 0, sizeof(*req));
	if (!json_is_array(a) || json_array_size(a) >= max)
		return -1;
	json_array_foreach(a, i, s) {
		if (!json_is_string(s) || strlen(json_string_value(s)) !=
		    json_string_length(s))
			return -1;
		argv[i] = json_string_value(s);
	}
	argv[json_array_size(a)] = NULL;
	req->argv = argv;
	req->argc = json_array_size(a);
	in = json_object_get(rec, "input");
	if (in) {
		if (!json_is_string(in))
			return -1;
		req->input = json_string_value(in);
		req->input_len = json_string_length(in);
	}
	return 0;
}

/**
 * fdc_str() - a member of @rec that must be a string without NUL
 * @rec: the record
 * @key: the member
 *
 * Return: the string, or NULL when it is missing or anything else.
 */
const char *fdc_str(json_t *rec, const char *key)
{
	json_t *v = json_object_get(rec, key);

	if (!json_is_string(v) || strlen(json_string_value(v)) !=
	    json_string_length(v))
		return NULL;
	return json_string_value(v);
}

/**
 * fdc_parse_record() - a record's line read with jansson
 * @line: the line, without its newline
 * @len: its length
 *
 * Return: the record, or NULL when it is not a fairdie record (JSON with
 * "fairdie": 1, an integer "seq" and a string "type").
 */
json_t *fdc_parse_record(const char *line, size_t len)
{
	json_t *r = json_loadb(line, len, JSON_REJECT_DUPLICATES |
			       JSON_ALLOW_NUL, NULL);

	if (!json_is_object(r) ||
	    json_integer_value(json_object_get(r, "fairdie")) != 1 ||
	    !json_is_integer(json_object_get(r, "seq")) || !fdc_str(r, "type")) {
		json_decref(r);
		return NULL;
	}
	return r;
}

/* ------------------------------------------------------------------------
 * The log
 */

/* Read [@from, @to) of the log into @log->buf. */
static int fdc_log_pread(struct fdc_log *log, off_t from, off_t to)
{
	size_t n = to - from, got = 0;
	ssize_t r;

	free(log->buf);
	log->buf = malloc(n + 1);
	if (!log->buf) {
		fdc_err("%s: out of memory", log->path);
		return -1;
	}
	while (got < n) {
		r = pread(log->fd, log->buf + got, n - got, from + got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fdc_err("%s: %s", log->path, r ? strerror(errno) :
				"changed while read");
			return -1;
		}
		got += r;
	}
	log->buf[n] = 0;
	log->len = n;
	return 0;
}

/**
 * fdc_sha256() - SHA-256 of @n bytes
 * @out: the hash
 * @p: the bytes
 * @n: how many
 */
void fdc_sha256(u8 out[FDC_HASH_BYTES], const void *p, size_t n)
{
	struct sha256_ctx h;

	sha256_init(&h);
	sha256_update(&h, n, p);
	sha256_digest(&h, FDC_HASH_BYTES, out);
}

/**
 * fdc_line_signed() - whether a record's line holds a valid signature
 * @line: the line, without its newline
 * @len: its length
 * @pub: the public key
 *
 * Return: true when the line ends in the "sig" member and it signs the
 * rest under @pub.
 */
bool fdc_line_signed(const char *line, size_t len, const u8 *pub)
{
	static const char dom[] = FDC_DOM_SIGN;
	u8 sig[FDC_SIG_BYTES], *msg;
	char hex[2 * FDC_SIG_BYTES + 1];
	size_t body;
	bool ok;

	if (len < FDC_SIG_SUFFIX_LEN + 2 || line[len - 1] != '}' ||
	    line[len - 2] != '"')
		return false;
	body = len - FDC_SIG_SUFFIX_LEN;
	if (memcmp(line + body, FDC_SIG_PREFIX, sizeof(FDC_SIG_PREFIX) - 1))
		return false;
	memcpy(hex, line + body + sizeof(FDC_SIG_PREFIX) - 1, 2 * FDC_SIG_BYTES);
	hex[2 * FDC_SIG_BYTES] = 0;
	if (fdc_unhex(sig, hex, FDC_SIG_BYTES))
		return false;
	msg = malloc(sizeof(dom) + body + 1);
	if (!msg)
		return false;
	memcpy(msg, dom, sizeof(dom));
	memcpy(msg + sizeof(dom), line, body);
	msg[sizeof(dom) + body] = '}';
	ok = ed25519_sha512_verify(pub, sizeof(dom) + body + 1, msg, sig);
	free(msg);
	return ok;
}

/* A new log's name is durable too: fsync(2) the folder holding it. */
static int fdc_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

/**
 * fdc_log_open() - open @path for appending, locked, and find its end
 * @log: the log
 * @path: the file, made (mode 0644) when absent
 * @k: the key the next records are signed with: the last record must be
 *	signed by it too
 * @whole: read the whole log into @log->buf (else only its last lines)
 *
 * Return: 0, or the exit status after a one-line error (1: the log is not
 * one to append to).
 */
int fdc_log_open(struct fdc_log *log, const char *path,
		 const struct fdc_keys *k, bool whole)
{
	json_t *rec = NULL, *v;
	struct stat st;
	const char *last;
	char *slash;
	off_t from;
	size_t n, tail = 65536;

	memset(log, 0, sizeof(*log));
	log->path = strdup(fdc_quote(path));
	log->dir = strdup(path);
	if (!log->path || !log->dir) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	slash = strrchr(log->dir, '/');
	if (!slash)
		strcpy(log->dir, ".");
	else
		slash[slash == log->dir] = 0;
	log->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (log->fd < 0) {
		fdc_err("%s: %s", log->path, strerror(errno));
		return FDC_EXIT_FAILURE;
	}
	while (flock(log->fd, LOCK_EX) && errno == EINTR)
		;
	if (fstat(log->fd, &st))
		return FDC_EXIT_FAILURE;
	/* Enough of the end to hold the whole last line. */
	do {
		tail *= 2;
		from = whole || st.st_size <= (off_t)tail ? 0 :
		       st.st_size - tail;
		if (fdc_log_pread(log, from, st.st_size))
			return FDC_EXIT_FAILURE;
	} while (from && !memchr(log->buf, '\n', log->len - 1));
	if (!log->len)
		return 0;
	if (log->buf[log->len - 1] != '\n') {
		fdc_err("%s: the last record is torn (an append was cut short): nothing appended; 'fairdie verify' shows the records before it",
			log->path);
		return FDC_EXIT_FAILURE;
	}
	n = log->len - 1;
	for (last = log->buf + n; last > log->buf && last[-1] != '\n'; last--)
		;
	n = log->buf + n - last;
	rec = json_loadb(last, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
			 NULL);
	v = json_object_get(rec, "seq");
	if (!json_is_integer(json_object_get(rec, "fairdie")) ||
	    !json_is_integer(v)) {
		json_decref(rec);
		fdc_err("%s: not a fairdie log: nothing appended", log->path);
		return FDC_EXIT_FAILURE;
	}
	log->seq = json_integer_value(v);
	json_decref(rec);
	if (!fdc_line_signed(last, n, k->pub)) {
		fdc_err("%s: the last record is not signed by this key: nothing appended; see 'fairdie verify'",
			log->path);
		return FDC_EXIT_FAILURE;
	}
	fdc_sha256(log->prev, last, n);
	return 0;
}

/**
 * fdc_record_new() - the members every record starts with (the first
 *	record of a log also names the public key)
 * @type: "sealed", "revealed" or "receipt"
 * @log: the log it goes to (its number and the hash of the line before)
 * @k: the key that signs it
 *
 * Return: the record (a jansson object), or NULL after a one-line error.
 */
void *fdc_record_new(const char *type, const struct fdc_log *log,
		     const struct fdc_keys *k)
{
	char prev[2 * FDC_HASH_BYTES + 1], pub[2 * FDC_KEY_BYTES + 1];
	char when[32];
	struct tm tm;
	time_t now = time(NULL);
	json_t *r = json_object();

	fdc_hex(prev, log->prev, FDC_HASH_BYTES);
	fdc_hex(pub, k->pub, FDC_KEY_BYTES);
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (!r || json_object_set_new(r, "fairdie", json_integer(1)) ||
	    json_object_set_new(r, "seq", json_integer(log->seq + 1)) ||
	    json_object_set_new(r, "prev", json_string(prev)) ||
	    json_object_set_new(r, "type", json_string(type)) ||
	    json_object_set_new(r, "time", json_string(when)) ||
	    (!log->seq && json_object_set_new(r, "key", json_string(pub)))) {
		json_decref(r);
		fdc_err("out of memory");
		return NULL;
	}
	return r;
}

/**
 * fdc_request_to_json() - add "request" (and "input" for a FILE) to a
 *	record
 * @record: the record
 * @req: the request
 *
 * Return: 0, or -1 after a one-line error (an argument or FILE that is not
 * UTF-8 text).
 */
int fdc_request_to_json(void *record, const struct fdc_request *req)
{
	json_t *a = json_array(), *s;
	size_t i;

	for (i = 0; a && i < req->argc; i++) {
		s = json_string(req->argv[i]);
		if (!s || json_array_append_new(a, s)) {
			json_decref(a);
			fdc_err("%s: the request is not UTF-8 text",
				fdc_quote(req->argv[i]));
			return -1;
		}
	}
	if (!a || json_object_set_new(record, "request", a))
		goto nomem;
	if (!req->input)
		return 0;
	s = json_stringn(req->input, req->input_len);
	if (!s) {
		fdc_err("%s: not UTF-8 text: a sealed draw keeps its FILE in the log",
			fdc_quote(req->argv[req->argc - 1]));
		return -1;
	}
	if (json_object_set_new(record, "input", s))
		goto nomem;
	return 0;
nomem:
	fdc_err("out of memory");
	return -1;
}

/**
 * fdc_log_append() - sign @record, append it and make it durable
 * @log: the log, open and locked (fdc_log_open())
 * @record: the record (fdc_record_new() and its own members); freed here
 * @k: the signing key
 *
 * Return: 0, or -1 after a one-line error (nothing, or a torn line that
 * 'fairdie verify' reports, was appended).
 */
int fdc_log_append(struct fdc_log *log, void *record,
		   const struct fdc_keys *k)
{
	static const char dom[] = FDC_DOM_SIGN;
	u8 sig[FDC_SIG_BYTES];
	char *body, *msg, *line;
	size_t n, len, done = 0;
	ssize_t r;

	body = json_dumps(record, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(record);
	if (!body)
		goto nomem;
	n = strlen(body);
	msg = malloc(sizeof(dom) + n);
	line = malloc(n + FDC_SIG_SUFFIX_LEN + 2);
	if (!msg || !line) {
		free(msg);
		free(line);
		free(body);
		goto nomem;
	}
	memcpy(msg, dom, sizeof(dom));
	memcpy(msg + sizeof(dom), body, n);
	ed25519_sha512_sign(k->pub, k->priv, sizeof(dom) + n, (u8 *)msg, sig);
	len = n - 1;
	memcpy(line, body, len);
	memcpy(line + len, FDC_SIG_PREFIX, sizeof(FDC_SIG_PREFIX) - 1);
	len += sizeof(FDC_SIG_PREFIX) - 1;
	fdc_hex(line + len, sig, FDC_SIG_BYTES);
	len += 2 * FDC_SIG_BYTES;
	memcpy(line + len, "\"}\n", 3);
	len += 3;
	free(msg);
	free(body);
	while (done < len) {
		r = write(log->fd, line + done, len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fdc_err("%s: %s", log->path, strerror(errno));
			free(line);
			return -1;
		}
		done += r;
	}
	if (fsync(log->fd) || (!log->seq && fdc_sync_dir(log->dir))) {
		fdc_err("%s: %s", log->path, strerror(errno));
		free(line);
		return -1;
	}
	fdc_sha256(log->prev, line, len - 1);
	log->seq++;
	free(line);
	return 0;
nomem:
	fdc_err("out of memory");
	return -1;
}

/**
 * fdc_log_close() - unlock and close the log
 * @log: the log
 */
void fdc_log_close(struct fdc_log *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	free(log->buf);
	free((char *)log->path);
	free(log->dir);
	log->buf = NULL;
	log->path = NULL;
	log->dir = NULL;
}

/* The extractor and the module's state, for a receipt of a device draw. */
static int fdc_receipt_device(json_t *r, const struct fdc_config *cfg)
{
	static const char *const attrs[] = { "health", "source_bits",
					     "vm_forks" };
	char path[256], val[256], *nl;
	json_t *dev = json_object();
	size_t i;
	FILE *f;

	for (i = 0; dev && i < ARRAY_SIZE(attrs) + 2; i++) {
		const char *name = i < ARRAY_SIZE(attrs) ? attrs[i] :
				   i == ARRAY_SIZE(attrs) ? "extractor" :
				   "module_version";

		if (i < ARRAY_SIZE(attrs))
			snprintf(path, sizeof(path),
				 "/sys/class/misc/fairdie/%s", name);
		else if (i == ARRAY_SIZE(attrs))
			snprintf(path, sizeof(path),
				 "/sys/module/fairdie/parameters/extractor");
		else
			snprintf(path, sizeof(path),
				 "/sys/module/fairdie/version");
		f = fopen(path, "re");
		if (!f || !fgets(val, sizeof(val), f)) {
			if (f)
				fclose(f);
			json_object_set_new(dev, name, json_null());
			continue;
		}
		fclose(f);
		nl = strchr(val, '\n');
		if (nl)
			*nl = 0;
		json_object_set_new(dev, name, json_stringn(val, strlen(val)));
	}
	if (dev && cfg->extractor >= 0)
		json_object_set_new(dev, "extractor",
				    json_string(fd_extractor_name(cfg->extractor)));
	return !dev || json_object_set_new(r, "device", dev);
}

/**
 * fdc_receipt() - run a draw command and append a signed receipt of it
 * @cfg: the global options, --log and --key among them
 * @argc: argument count, argv[0] being the command
 * @argv: the arguments
 * @run: the command
 *
 * What the command prints is held back until the receipt (request,
 * outcome, time, source, the module's state for a device draw, versions)
 * is in the log, fsync'd.
 *
 * Return: the exit status.
 */
int fdc_receipt(const struct fdc_config *cfg, int argc, char **argv,
		int (*run)(struct fdc_config *, int, char **))
{
	static const char *const srcs[] = {
		[FDC_USRC_DEVICE] = "device", [FDC_USRC_FILE] = "file",
		[FDC_USRC_GETRANDOM] = "getrandom", [FDC_USRC_SEED] = "seed",
		[FDC_USRC_STREAM] = "stream",
	};
	struct fdc_config c = *cfg;
	struct fdc_request req = { 0 };
	struct fdc_keys k;
	struct fdc_log log = { .fd = -1 };
	const char **args;
	char *out;
	size_t len = 0;
	json_t *r;
	int ret, i;

	/* The outcome goes to the log: not to a file of its own (-o). */
	for (i = 1; i < argc && strcmp(argv[i], "--") &&
	     (run == fdc_cmd_shuffle || run == fdc_cmd_sample); i++) {
		if (!strncmp(argv[i], "--output", 8) ||
		    (argv[i][0] == '-' && argv[i][1] != '-' &&
		     strchr(argv[i], 'o'))) {
			fdc_err("%s: --log and -o do not go together: the receipt holds the outcome",
				argv[0]);
			return FDC_EXIT_USAGE;
		}
	}
	/*
	 * The request as typed (before the option parser reorders @argv),
	 * without the options that name the log.
	 */
	args = calloc(argc + 1, sizeof(*args));
	if (!args) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--log") || !strcmp(argv[i], "--key"))
			i++;
		else if (strncmp(argv[i], "--log=", 6) &&
			 strncmp(argv[i], "--key=", 6))
			args[req.argc++] = argv[i];
	}
	req.argv = args;
	out = NULL;
	ret = fdc_capture(&c, argc, argv, run, &out, &len);
	if (ret)
		goto out;
	if (!c.key) {
		fdc_err("%s: --log needs --key KEY, the key that signs the receipt",
			argv[0]);
		ret = FDC_EXIT_USAGE;
		goto out;
	}
	ret = fdc_keys_load(c.key, &k, true);
	if (ret)
		goto out;
	ret = fdc_log_open(&log, c.log, &k, false);
	if (ret)
		goto out;
	ret = FDC_EXIT_FAILURE;
	r = fdc_record_new("receipt", &log, &k);
	if (!r || fdc_request_to_json(r, &req) ||
	    json_object_set_new(r, "outcome", json_stringn(out, len)) ||
	    json_object_set_new(r, "source", json_string(srcs[c.user_source])) ||
	    (c.user_source == FDC_USRC_DEVICE && fdc_receipt_device(r, &c)) ||
	    json_object_set_new(r, "tool_version", json_string(FDC_VERSION))) {
		json_decref(r);
		goto out;
	}
	if (fdc_log_append(&log, r, &k))
		goto out;
	fwrite(out, 1, len, stdout);
	ret = fdc_finish_output();
out:
	fdc_log_close(&log);
	free(args);
	free(out);
	return ret;
}
