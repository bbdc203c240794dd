// SPDX-License-Identifier: GPL-2.0
/*
 * seal-gen - a log of sealed and revealed draws made fast, for the verify
 * benchmark (BENCH verify_records_per_s) and for the tests of verify's
 * messages on records the key's holder signed wrongly.
 *
 *	seal-gen LOG KEY COUNT [outcome|commitment|public|duplicate|comma|spaced]
 *
 * appends COUNT pairs of records to LOG, signed with KEY: 'sample 6 49'
 * sealed with none (secrets from splitmix64 seeded with 1, NOT secret),
 * then revealed, exactly as 'fairdie seal' and 'fairdie reveal' write
 * them. With a last word, the last reveal is signed with a wrong outcome,
 * a secret that does not open the commitment, or a public value for a
 * record sealed with none; or signed as it stands but written with its
 * "seq" member twice (duplicate), as the chain's three members and a
 * comma and nothing else (comma), or with a blank after each ':' and ','
 * (spaced, a record that holds).
 *
 *	seal-gen --resign IN OUT KEY
 *
 * writes IN's lines to OUT signed again with KEY, each line's "prev" (when
 * the line starts as the format lays it out) made the hash of the line
 * before in OUT: a log changed by hand, as if the key's holder had written
 * it, for the tests that compare what verify says with what it says when
 * jansson reads every line whole.
 */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/eddsa.h>

#include "fd_sim.h"
#include "sealog.h"

/*
 * @body, a record without its signature (@n bytes, ending in '}', NUL
 * bytes and all), signed and appended as fdc_log_append() does, whatever
 * its layout.
 */
static int gen_append_raw(struct fdc_log *log, const char *body, size_t n,
			  const struct fdc_keys *k)
{
	static const char dom[] = FDC_DOM_SIGN;
	size_t len = n - 1;
	char *msg = malloc(sizeof(dom) + n);
	char *line = malloc(n + FDC_SIG_SUFFIX_LEN + 2);
	u8 sig[FDC_SIG_BYTES];
	int ret = -1;

	if (!msg || !line)
		goto out;
	memcpy(msg, dom, sizeof(dom));
	memcpy(msg + sizeof(dom), body, n);
	ed25519_sha512_sign(k->pub, k->priv, sizeof(dom) + n, (u8 *)msg, sig);
	memcpy(line, body, len);
	memcpy(line + len, FDC_SIG_PREFIX, sizeof(FDC_SIG_PREFIX) - 1);
	len += sizeof(FDC_SIG_PREFIX) - 1;
	fdc_hex(line + len, sig, FDC_SIG_BYTES);
	len += 2 * FDC_SIG_BYTES;
	memcpy(line + len, "\"}\n", 3);
	len += 3;
	if (write(log->fd, line, len) != (ssize_t)len)
		goto out;
	fdc_sha256(log->prev, line, len - 1);
	log->seq++;
	ret = 0;
out:
	free(msg);
	free(line);
	return ret;
}

/* The last reveal @r, written as @bad asks (see above), signed, appended. */
static int gen_append_odd(struct fdc_log *log, json_t *r, const char *bad,
			  const struct fdc_keys *k)
{
	char hex[2 * FDC_HASH_BYTES + 1], *body, *odd;
	size_t n;
	int ret;

	body = json_dumps(r, JSON_PRESERVE_ORDER |
			  (strcmp(bad, "spaced") ? JSON_COMPACT : 0));
	json_decref(r);
	if (!body)
		return -1;
	n = strlen(body);
	odd = malloc(n + 3 * FDC_HASH_BYTES);
	if (!odd) {
		free(body);
		return -1;
	}
	fdc_hex(hex, log->prev, FDC_HASH_BYTES);
	if (!strcmp(bad, "duplicate"))
		sprintf(odd, "%.*s,\"seq\":%llu}", (int)(n - 1), body,
			(unsigned long long)log->seq + 1);
	else if (!strcmp(bad, "comma"))
		sprintf(odd, "{\"fairdie\":1,\"seq\":%llu,\"prev\":\"%s\",}",
			(unsigned long long)log->seq + 1, hex);
	else
		strcpy(odd, body);
	ret = gen_append_raw(log, odd, strlen(odd), k);
	free(odd);
	free(body);
	return ret;
}

/* seal-gen --resign IN OUT KEY (see above). */
static int gen_resign(const char *in, const char *out, const char *key)
{
	static const char seq[] = "{\"fairdie\":1,\"seq\":";
	static const char prev[] = ",\"prev\":\"";
	struct fdc_log log = { .path = out };
	struct fdc_keys k;
	char *buf, *p, *end, *body, *q;
	size_t len, n;
	int ret = 1;

	if (fdc_keys_load(key, &k, true) || fdc_read_file(in, &buf, &len))
		return 2;
	log.fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (log.fd < 0) {
		perror(out);
		free(buf);
		return 1;
	}
	for (p = buf; (end = memchr(p, '\n', buf + len - p)); p = end + 1) {
		/* Each line's signature at its end is signed again. */
		if (end - p < (ptrdiff_t)FDC_SIG_SUFFIX_LEN + 2)
			goto out;
		n = end - p - FDC_SIG_SUFFIX_LEN;
		body = malloc(n + 2);
		if (!body)
			goto out;
		memcpy(body, p, n);
		memcpy(body + n, "}", 2);
		if (!strncmp(body, seq, sizeof(seq) - 1)) {
			for (q = body + sizeof(seq) - 1; *q >= '0' && *q <= '9';)
				q++;
			if (!strncmp(q, prev, sizeof(prev) - 1) &&
			    strlen(q) > sizeof(prev) + 2 * FDC_HASH_BYTES) {
				q += sizeof(prev) - 1;
				fdc_hex(q, log.prev, FDC_HASH_BYTES);
				q[2 * FDC_HASH_BYTES] = '"';
			}
		}
		if (gen_append_raw(&log, body, n + 1, &k)) {
			free(body);
			goto out;
		}
		free(body);
	}
	ret = 0;
out:
	if (close(log.fd))
		ret = 1;
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	static const char *const rargv[] = { "sample", "6", "49" };
	struct fdc_request req = { .argv = rargv, .argc = 3 };
	u8 secret[FDC_SECRET_BYTES], c[FDC_HASH_BYTES], key[FDC_HASH_BYTES];
	char hex[2 * FDC_HASH_BYTES + 1], *out;
	const char *bad = argc > 4 ? argv[4] : "";
	struct fdc_keys k;
	struct fdc_log log;
	u64 n, i, j, seed = 1, v;
	size_t len;
	json_t *r;

	if (argc == 5 && !strcmp(argv[1], "--resign"))
		return gen_resign(argv[2], argv[3], argv[4]);
	if (argc < 4 || fdc_parse_u64(argv[3], &n) ||
	    fdc_keys_load(argv[2], &k, true) ||
	    fdc_log_open(&log, argv[1], &k, false)) {
		fprintf(stderr, "usage: seal-gen LOG KEY COUNT [%s]\n",
			"outcome|commitment|public|duplicate|comma|spaced");
		return 2;
	}
	for (i = 0; i < n; i++) {
		bool last = i + 1 == n;

		for (j = 0; j < FDC_SECRET_BYTES; j += 8) {
			v = fd_splitmix64(&seed);
			memcpy(secret + j, &v, 8);
		}
		fdc_commitment(c, secret, "none", &req);
		fdc_hex(hex, c, FDC_HASH_BYTES);
		r = fdc_record_new("sealed", &log, &k);
		if (fdc_request_to_json(r, &req) ||
		    json_object_set_new(r, "public", json_string("none")) ||
		    json_object_set_new(r, "commitment", json_string(hex)) ||
		    fdc_log_append(&log, r, &k))
			return 1;
		fdc_stream_key(key, secret, NULL, &req);
		if (fdc_draw_sealed(key, &req, &out, &len))
			return 1;
		if (last && !strcmp(bad, "outcome"))
			out[0] = out[0] == '1' ? '2' : '1';
		if (last && !strcmp(bad, "commitment"))
			secret[0] ^= 1;
		fdc_hex(hex, secret, FDC_SECRET_BYTES);
		r = fdc_record_new("revealed", &log, &k);
		if (json_object_set_new(r, "sealed", json_integer(log.seq)) ||
		    json_object_set_new(r, "public_value",
					last && !strcmp(bad, "public") ?
					json_string("42") : json_null()) ||
		    json_object_set_new(r, "secret", json_string(hex)) ||
		    json_object_set_new(r, "outcome", json_stringn(out, len)))
			return 1;
		if (last && (!strcmp(bad, "duplicate") ||
			     !strcmp(bad, "comma") || !strcmp(bad, "spaced"))) {
			if (gen_append_odd(&log, r, bad, &k))
				return 1;
		} else if (fdc_log_append(&log, r, &k)) {
			return 1;
		}
		free(out);
	}
	fdc_log_close(&log);
	return 0;
}
