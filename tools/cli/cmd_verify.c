// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie verify LOG': every record of a log of draws
 * checked, every revealed outcome drawn again.
 *
 * In the order of the log, each line is read with jansson (when its first
 * bytes are those the chain asks, they are compared and jansson reads the
 * rest: fdc_verify_parse(); a sealed draw's records in the layout the tool
 * writes have more compared, and are read again so when a check before
 * the draw fails: fdc_verify_fast()); a record must be a fairdie record,
 * numbered one more than the one before, holding the SHA-256 of the line
 * before (chain); a reveal must open a sealed record of the same log not
 * opened before, its secret must give the sealed commitment (commitment),
 * a public value must be given exactly when the record names one (public
 * value), and the request run on the stream of
 * secret, public value and request must print the outcome recorded
 * (outcome). Whenever a record fails, its own signature is checked first,
 * so that a record changed by someone without the key is named for its
 * signature, and a record the key's holder signed with a wrong outcome for
 * its outcome. The last record's signature is always checked: the chain
 * of hashes carries it back to the first record, each line's hash held
 * (and signed) by the next, and 'fairdie seal', 'reveal' and receipts
 * never append after a last record the key did not sign. With
 * --all-signatures each signature is checked on its own as well.
 */

#define _GNU_SOURCE		/* memmem() */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "sealog.h"

static const char fdc_verify_help[] =
"Usage: fairdie verify [--key KEY.pub] LOG\n"
"Check every record of LOG: its place in the hash chain, its signature,\n"
"each revealed secret against its commitment, and each revealed outcome,\n"
"drawn again bit for bit. Exit 0 when every record holds; 1 naming the\n"
"first that does not and what failed; 2 on usage errors. Without --key the\n"
"key named in the log's first record is used: give the public key you got\n"
"from the draw's operator to know the log is theirs.\n"
"\n"
"Options:\n"
"      --key=KEY.pub       the public key that must have signed every record\n"
"      --all-signatures    check each record's signature on its own (else\n"
"                          the chain carries the last record's signature\n"
"                          back to the first, and a signature is checked\n"
"                          where a link breaks)\n";

/**
 * struct fdc_sealed - what verify keeps of a sealed record until its reveal
 * @commitment: its commitment
 * @argc: the number of its request's arguments
 * @has_input: its request holds a FILE's content
 * @input_len: the content's length
 * @strs: the arguments and the public value's name, each NUL-terminated,
 *	then the content
 */
struct fdc_sealed {
	u8 commitment[FDC_HASH_BYTES];
	size_t argc;
	bool has_input;
	size_t input_len;
	char strs[];
};

/**
 * struct fdc_seal_slot - what verify keeps of a record
 * @sealed: a sealed record not revealed yet, or NULL
 * @revealed: the record that revealed it, 0 while none did
 */
struct fdc_seal_slot {
	struct fdc_sealed *sealed;
	u64 revealed;
};

/*
 * jansson's memory while verify runs: the tree of one line lives until the
 * next line is read, so its many small blocks are cut from one region,
 * emptied before each line, and a block that does not fit comes from
 * malloc() (@spilled tells that the line's tree must be freed the usual
 * way; a tree wholly in the region goes with it).
 */
static struct {
	char *buf;
	size_t used;
	size_t cap;
	bool spilled;
} fdc_arena;

static void *fdc_arena_malloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > fdc_arena.cap - fdc_arena.used) {
		fdc_arena.spilled = true;
		return malloc(n);
	}
	p = fdc_arena.buf + fdc_arena.used;
	fdc_arena.used += n;
	return p;
}

static void fdc_arena_free(void *p)
{
	if ((char *)p < fdc_arena.buf ||
	    (char *)p >= fdc_arena.buf + fdc_arena.cap)
		free(p);
}

/**
 * struct fdc_verify - one run of verify
 * @path: the log, quoted for messages
 * @pub: the key every record must be signed with
 * @have_key: @pub is known (--key, or the first record's)
 * @slots: the sealed records by number (index seq - 1)
 * @n: how many records were read
 * @cap: room in @slots
 * @line: the current record's line
 * @len: its length
 * @prev_line: the line before
 * @prev_len: its length
 * @prev_signed: the line before had its signature checked
 * @want: the hex SHA-256 of the line before (64 zeros for the first)
 * @head: how the current record starts when it is written as the log's
 *	format lays it out: "fairdie", "seq" and "prev" with the values the
 *	chain asks
 * @head_len: its length
 * @fast: the record is read in the fast layout: a failed check says
 *	nothing and returns FDC_VERIFY_WHOLE, and jansson reads it again
 */
struct fdc_verify {
	const char *path;
	u8 pub[FDC_KEY_BYTES];
	bool have_key;
	struct fdc_seal_slot *slots;
	u64 n;
	u64 cap;
	const char *line;
	size_t len;
	const char *prev_line;
	size_t prev_len;
	bool prev_signed;
	char want[2 * FDC_HASH_BYTES + 1];
	char head[2 * FDC_HASH_BYTES + 64];
	size_t head_len;
	bool fast;
};

/*
 * Built with FDC_VERIFY_WHOLE_LINES=1, verify reads every line whole with
 * jansson: test_seal.sh compares what it says with what verify says.
 */
#ifndef FDC_VERIFY_WHOLE_LINES
#define FDC_VERIFY_WHOLE_LINES	0
#endif

/* A check failed on a record read in the fast layout: read it again. */
#define FDC_VERIFY_WHOLE	(-1)

/**
 * struct fdc_members - the members of a record verify reads, each NULL when
 *	the record has none of that name
 * @rec: the record
 * @fairdie: "fairdie"
 * @seq: "seq"
 * @prev: "prev"
 * @type: "type"
 * @key: "key"
 * @public: "public"
 * @commitment: "commitment"
 * @sealed: "sealed"
 * @public_value: "public_value"
 * @secret: "secret"
 * @outcome: "outcome"
 * @request: "request"
 * @source: "source"
 * @sig: "sig", which only a line without the signature at its end has
 * @outcome_text: in the fast layout (fdc_verify_fast()), the outcome as the
 *	line writes it, between its quotes (and @outcome is NULL)
 * @outcome_len: its length
 * @linked: the line starts with v->head: "fairdie", "seq" and "prev" hold
 *	(and are NULL here)
 */
struct fdc_members {
	json_t *rec;
	json_t *fairdie;
	json_t *seq;
	json_t *prev;
	json_t *type;
	json_t *key;
	json_t *public;
	json_t *commitment;
	json_t *sealed;
	json_t *public_value;
	json_t *secret;
	json_t *outcome;
	json_t *request;
	json_t *source;
	json_t *sig;
	const char *outcome_text;
	size_t outcome_len;
	bool linked;
};

/* @v when it is a string without NUL, else NULL. */
static const char *fdc_vstr(json_t *v)
{
	if (!json_is_string(v) || strlen(json_string_value(v)) !=
	    json_string_length(v))
		return NULL;
	return json_string_value(v);
}

static const char fdc_unsigned[] =
	"the record is not signed by the log's key (changed, or added by someone without the key)";

/*
 * Record @seq failed: @what and why. Its own signature is checked first:
 * a record changed by someone without the key fails for that.
 */
static int fdc_fail(struct fdc_verify *v, u64 seq, const char *what,
		    const char *why)
{
	if (v->fast)
		return FDC_VERIFY_WHOLE;
	if (v->have_key && !fdc_line_signed(v->line, v->len, v->pub)) {
		what = "signature";
		why = fdc_unsigned;
	}
	fdc_err("%s: record %llu: %s: %s", v->path, (unsigned long long)seq,
		what, why);
	return FDC_EXIT_FAILURE;
}

/* A copy of what a reveal needs of a sealed record. */
static struct fdc_sealed *fdc_sealed_keep(const struct fdc_request *req,
					  const char *name,
					  const u8 *commitment)
{
	size_t i, n = strlen(name) + 1 + req->input_len, len;
	struct fdc_sealed *s;
	char *p;

	for (i = 0; i < req->argc; i++)
		n += strlen(req->argv[i]) + 1;
	s = malloc(sizeof(*s) + n);
	if (!s)
		return NULL;
	memcpy(s->commitment, commitment, FDC_HASH_BYTES);
	s->argc = req->argc;
	s->has_input = req->input;
	s->input_len = req->input_len;
	p = s->strs;
	for (i = 0; i < req->argc; i++) {
		len = strlen(req->argv[i]) + 1;
		memcpy(p, req->argv[i], len);
		p += len;
	}
	len = strlen(name) + 1;
	memcpy(p, name, len);
	if (s->has_input)
		memcpy(p + len, req->input, s->input_len);
	return s;
}

/* The request and the public value's name kept in @s. */
static const char *fdc_sealed_request(const struct fdc_sealed *s,
				      struct fdc_request *req,
				      const char **argv)
{
	const char *p = s->strs, *name;
	size_t i;

	memset(req, 0, sizeof(*req));
	for (i = 0; i < s->argc; i++) {
		argv[i] = p;
		p += strlen(p) + 1;
	}
	argv[i] = NULL;
	req->argv = argv;
	req->argc = s->argc;
	name = p;
	if (s->has_input) {
		req->input = p + strlen(p) + 1;
		req->input_len = s->input_len;
	}
	return name;
}

/* A sealed record: what a reveal needs is there and well formed. */
static int fdc_verify_sealed(struct fdc_verify *v,
			     const struct fdc_members *m, u64 seq)
{
	const char *argv[64], *c = fdc_vstr(m->commitment);
	const char *name = fdc_vstr(m->public);
	struct fdc_request req;
	u8 h[FDC_HASH_BYTES];

	if (!name || !c || fdc_unhex(h, c, FDC_HASH_BYTES) ||
	    fdc_request_from_json(m->rec, &req, argv, ARRAY_SIZE(argv)))
		return fdc_fail(v, seq, "record",
				"a sealed record needs request, public and commitment");
	if (fdc_request_check(&req, true))
		return fdc_fail(v, seq, "record",
				"not a request a sealed draw takes");
	v->slots[seq - 1].sealed = fdc_sealed_keep(&req, name, h);
	if (!v->slots[seq - 1].sealed) {
		fdc_err("%s: out of memory", v->path);
		return FDC_EXIT_FAILURE;
	}
	return 0;
}

/*
 * Whether @text (@n bytes, between a JSON string's quotes) is @out (@len
 * bytes) written as the log's writer writes it: '"', '\\' and newline
 * escaped, the rest of printable ASCII as it is. For anything else (another
 * byte in @out, another escape in @text) false: jansson reads the string.
 */
static bool fdc_outcome_is(const char *text, size_t n, const char *out,
			   size_t len)
{
	const char *end = text + n;
	unsigned char c;
	size_t i;

	for (i = 0; i < len; i++) {
		c = out[i];
		if (c == '\n' || c == '"' || c == '\\') {
			if (end - text < 2 || text[0] != '\\' ||
			    text[1] != (c == '\n' ? 'n' : c))
				return false;
			text += 2;
		} else if (c >= 0x20 && c < 0x7f && text < end && *text == c) {
			text++;
		} else {
			return false;
		}
	}
	return text == end;
}

/*
 * Whether @text (@n bytes) is a JSON string's content as the log's writer
 * may write an outcome that fdc_outcome_is() compares: printable ASCII
 * with '"', '\\' and newline escaped, and no other escape.
 */
static bool fdc_outcome_plain(const char *text, size_t n)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + n;

	for (; p < end; p++) {
		if (*p == '\\') {
			if (end - p < 2 ||
			    (p[1] != '"' && p[1] != '\\' && p[1] != 'n'))
				return false;
			p++;
		} else if (*p < 0x20 || *p >= 0x7f || *p == '"') {
			return false;
		}
	}
	return true;
}

/* A revealed record: commitment, public value, outcome drawn again. */
static int fdc_verify_revealed(struct fdc_verify *v,
			       const struct fdc_members *m, u64 seq)
{
	u8 secret[FDC_SECRET_BYTES], c[FDC_HASH_BYTES], skey[FDC_HASH_BYTES];
	const char *argv[64], *shex = fdc_vstr(m->secret), *name, *want;
	const char *value = fdc_vstr(m->public_value);
	json_t *s = m->sealed, *pv = m->public_value;
	struct fdc_request req;
	struct fdc_seal_slot *slot;
	char why[160], *out;
	json_int_t at;
	size_t len;
	int ret;

	want = m->outcome_text ? "" : fdc_vstr(m->outcome);
	if (!json_is_integer(s) || !shex || (!json_is_null(pv) && !value) ||
	    !want || fdc_unhex(secret, shex, FDC_SECRET_BYTES))
		return fdc_fail(v, seq, "record",
				"a revealed record needs sealed, public_value, secret and outcome");
	at = json_integer_value(s);
	if (at < 1 || (u64)at >= seq ||
	    (!v->slots[at - 1].sealed && !v->slots[at - 1].revealed)) {
		snprintf(why, sizeof(why),
			 "it opens record %lld, no earlier sealed record",
			 (long long)at);
		return fdc_fail(v, seq, "reveal", why);
	}
	slot = &v->slots[at - 1];
	if (slot->revealed) {
		snprintf(why, sizeof(why), "record %lld was revealed already, in record %llu",
			 (long long)at, (unsigned long long)slot->revealed);
		return fdc_fail(v, seq, "reveal", why);
	}
	/* The sealed record was checked when it was read. */
	name = fdc_sealed_request(slot->sealed, &req, argv);
	fdc_commitment(c, secret, name, &req);
	if (memcmp(c, slot->sealed->commitment, FDC_HASH_BYTES)) {
		snprintf(why, sizeof(why), "the secret does not open the commitment of record %lld",
			 (long long)at);
		return fdc_fail(v, seq, "commitment", why);
	}
	if (!strcmp(name, "none") != json_is_null(pv) ||
	    (!json_is_null(pv) && !*value))
		return fdc_fail(v, seq, "public value", !strcmp(name, "none") ?
				"a public value for a record sealed with none" :
				"no public value for a record that names one");
	fdc_stream_key(skey, secret, json_is_null(pv) ? NULL : value, &req);
	/*
	 * Read in the fast layout, the record is now what jansson reads whole
	 * (its type and secret held, its outcome is written as the writer
	 * writes): what the draw gives is said now, not drawn again, for a
	 * draw that fails prints why, and would print it twice.
	 */
	v->fast = false;
	if (fdc_draw_sealed(skey, &req, &out, &len))
		return fdc_fail(v, seq, "outcome", "the request cannot be drawn again");
	if (m->outcome_text)
		ret = !fdc_outcome_is(m->outcome_text, m->outcome_len, out,
				      len);
	else
		ret = len != json_string_length(m->outcome) ||
		      memcmp(out, want, len);
	free(out);
	if (ret)
		return fdc_fail(v, seq, "outcome",
				"the request drawn again from secret and public value gives another outcome");
	/* Only the fact is kept: a year of draws fits in little memory. */
	slot->revealed = seq;
	free(slot->sealed);
	slot->sealed = NULL;
	return 0;
}

/* A receipt: its members are there (its draw cannot be replayed). */
static int fdc_verify_receipt(struct fdc_verify *v,
			      const struct fdc_members *m, u64 seq)
{
	if (!json_is_array(m->request) || !fdc_vstr(m->outcome) ||
	    !fdc_vstr(m->source))
		return fdc_fail(v, seq, "record",
				"a receipt needs request, outcome and source");
	return 0;
}

/* Record @seq, on v->line: chain, key, then what its type asks. */
static int fdc_verify_one(struct fdc_verify *v, const struct fdc_members *m,
			  u64 seq)
{
	const char *prev = fdc_vstr(m->prev), *key = fdc_vstr(m->key);
	const char *type = fdc_vstr(m->type);
	char why[160];
	u8 k[FDC_KEY_BYTES];

	if (seq == 1) {
		/* The first record names the key. */
		if (!key || fdc_unhex(k, key, FDC_KEY_BYTES))
			return fdc_fail(v, seq, "record",
					"the first record names no key");
		if (!v->have_key)
			memcpy(v->pub, k, FDC_KEY_BYTES);
		v->have_key = true;
		if (memcmp(k, v->pub, FDC_KEY_BYTES))
			return fdc_fail(v, seq, "signature",
					"the log names another key than --key");
	}
	if (!m->linked && (!prev || strcmp(prev, v->want) ||
			   (u64)json_integer_value(m->seq) != seq)) {
		/* Which side of the broken link changed? */
		if (v->prev_line && !v->prev_signed &&
		    !fdc_line_signed(v->prev_line, v->prev_len, v->pub)) {
			fdc_err("%s: record %llu: signature: %s", v->path,
				(unsigned long long)seq - 1, fdc_unsigned);
			return FDC_EXIT_FAILURE;
		}
		snprintf(why, sizeof(why), "it is not the record that follows record %llu (%s)",
			 (unsigned long long)seq - 1,
			 (u64)json_integer_value(m->seq) != seq ?
			 "its number differs" :
			 "a record deleted, inserted or moved");
		return fdc_fail(v, seq, "chain", why);
	}
	if (!strcmp(type, "sealed"))
		return fdc_verify_sealed(v, m, seq);
	if (!strcmp(type, "revealed"))
		return fdc_verify_revealed(v, m, seq);
	if (!strcmp(type, "receipt"))
		return fdc_verify_receipt(v, m, seq);
	return fdc_fail(v, seq, "record", "unknown type");
}

/*
 * Where the member named @k (@len bytes) goes in @m, or NULL: the names
 * of one length are few, and most lines name only those verify reads.
 */
static json_t **fdc_member(struct fdc_members *m, const char *k, size_t len)
{
#define FDC_IS(name) (len == sizeof(#name) - 1 && !memcmp(k, #name, len))
	switch (len) {
	case 3:
		return FDC_IS(seq) ? &m->seq : FDC_IS(key) ? &m->key :
		       FDC_IS(sig) ? &m->sig : NULL;
	case 4:
		return FDC_IS(type) ? &m->type : FDC_IS(prev) ? &m->prev : NULL;
	case 6:
		return FDC_IS(sealed) ? &m->sealed : FDC_IS(secret) ? &m->secret :
		       FDC_IS(public) ? &m->public : FDC_IS(source) ? &m->source :
		       NULL;
	case 7:
		return FDC_IS(outcome) ? &m->outcome :
		       FDC_IS(request) ? &m->request :
		       FDC_IS(fairdie) ? &m->fairdie : NULL;
	case 10:
		return FDC_IS(commitment) ? &m->commitment : NULL;
	case 12:
		return FDC_IS(public_value) ? &m->public_value : NULL;
	}
	return NULL;
#undef FDC_IS
}

/*
 * What the chain asks of the next line: v->want, the hash of the line
 * before, and v->head, how the line starts when written as the format lays
 * it out ({"fairdie":1,"seq":N,"prev":"HASH",).
 */
static void fdc_verify_head(struct fdc_verify *v)
{
	static const char seq[] = "{\"fairdie\":1,\"seq\":";
	static const char prev[] = ",\"prev\":\"";
	u8 h[FDC_HASH_BYTES];
	char digits[20], *p = v->head;
	u64 n = v->n + 1;
	size_t i = sizeof(digits);

	memset(h, 0, sizeof(h));
	if (v->prev_line)
		fdc_sha256(h, v->prev_line, v->prev_len);
	fdc_hex(v->want, h, FDC_HASH_BYTES);
	do
		digits[--i] = '0' + n % 10;
	while (n /= 10);
	memcpy(p, seq, sizeof(seq) - 1);
	p += sizeof(seq) - 1;
	memcpy(p, digits + i, sizeof(digits) - i);
	p += sizeof(digits) - i;
	memcpy(p, prev, sizeof(prev) - 1);
	p += sizeof(prev) - 1;
	memcpy(p, v->want, 2 * FDC_HASH_BYTES);
	p += 2 * FDC_HASH_BYTES;
	memcpy(p, "\",", 2);
	v->head_len = p + 2 - v->head;
}

/* @n bytes of @text read with jansson into @m, its members taken in one pass. */
static void fdc_verify_load(struct fdc_members *m, const char *text, size_t n)
{
	const char *k;
	json_t *val, **at;
	size_t klen;

	m->rec = json_loadb(text, n, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
			    NULL);
	json_object_keylen_foreach(m->rec, k, klen, val) {
		at = fdc_member(m, k, klen);
		if (at)
			*at = val;
	}
}

/* Room for @n bytes in *@body. */
static bool fdc_body_room(char **body, size_t *cap, size_t n)
{
	if (n <= *cap)
		return true;
	free(*body);
	*cap = 2 * n;
	*body = malloc(*cap);
	if (*body)
		return true;
	*cap = 0;
	return false;
}

/*
 * The record on v->line read in the fast layout, the one the log's writer
 * gives the records of a sealed draw:
 *
 *	HEAD "type":"sealed", MEMBERS ,"commitment":"HEX" SIG
 *	HEAD "type":"revealed", MEMBERS ,"secret":"HEX","outcome":"TEXT" SIG
 *
 * HEAD is v->head, SIG the signature at the end (",\"sig\":\"...\"}"), HEX
 * 64 characters. jansson reads "{" MEMBERS "}", and the record is checked
 * with v->fast set: the type and HEX are taken as they stand, and TEXT is
 * compared with the outcome drawn again, as the writer would write it
 * (fdc_outcome_is(); TEXT written otherwise is not read here:
 * fdc_outcome_plain()). Return: the record (in @m) when it holds, else
 * NULL, and jansson reads the line again (fdc_verify_parse()).
 *
 * A record that holds here holds there, with the same values: HEX gave a
 * commitment or a secret, so it is 64 hex digits, and TEXT is the JSON of
 * the outcome, so the line is HEAD, MEMBERS (jansson read them: one or
 * more, none named twice) and the members written around them, as one JSON
 * object; none is named twice when MEMBERS names none of the others. A
 * record that fails here, or in a check before its draw, is read again
 * whole, so that what is refused, and why, is said the usual way; from
 * its draw on it is the record jansson reads whole, and
 * fdc_verify_revealed() says what fails itself.
 */
static json_t *fdc_verify_fast(struct fdc_verify *v, struct fdc_members *m,
			       char **body, size_t *cap)
{
	static const char type[] = "\"type\":\"";
	static const char sealed[] = "sealed\",";
	static const char revealed[] = "revealed\",";
	static const char commitment[] = ",\"commitment\":\"";
	static const char secret[] = ",\"secret\":\"";
	static const char outcome[] = "\",\"outcome\":\"";
	const char *p = v->line + v->head_len, *end, *tail, *hex, *name;
	size_t n, hex_at, hex_len = 2 * FDC_HASH_BYTES;
	bool open;

	memset(m, 0, sizeof(*m));
	/* The first record, which names the key, is read the usual way. */
	if (FDC_VERIFY_WHOLE_LINES || !v->n ||
	    v->len < v->head_len + sizeof(type) + FDC_SIG_SUFFIX_LEN ||
	    memcmp(v->line, v->head, v->head_len) ||
	    memcmp(p, type, sizeof(type) - 1))
		return NULL;
	end = v->line + v->len - FDC_SIG_SUFFIX_LEN;
	if (memcmp(end, FDC_SIG_PREFIX, sizeof(FDC_SIG_PREFIX) - 1) ||
	    end[-1] != '"')
		return NULL;
	p += sizeof(type) - 1;
	open = end - p > (ptrdiff_t)sizeof(revealed) &&
	       !memcmp(p, revealed, sizeof(revealed) - 1);
	if (open) {
		name = "revealed";
		p += sizeof(revealed) - 1;
		hex_at = sizeof(secret) - 1;
		tail = memmem(p, end - p, secret, hex_at);
		if (!tail || end - tail < (ptrdiff_t)(hex_at + hex_len +
						      sizeof(outcome)) ||
		    memcmp(tail + hex_at + hex_len, outcome,
			   sizeof(outcome) - 1))
			return NULL;
		m->outcome_text = tail + hex_at + hex_len + sizeof(outcome) - 1;
		m->outcome_len = end - 1 - m->outcome_text;
		if (!fdc_outcome_plain(m->outcome_text, m->outcome_len))
			return NULL;
	} else if (end - p > (ptrdiff_t)sizeof(sealed) &&
		   !memcmp(p, sealed, sizeof(sealed) - 1)) {
		name = "sealed";
		p += sizeof(sealed) - 1;
		hex_at = sizeof(commitment) - 1;
		if (end - p <= (ptrdiff_t)(hex_at + hex_len + 1))
			return NULL;
		tail = end - 1 - hex_len - hex_at;
		if (memcmp(tail, commitment, hex_at))
			return NULL;
	} else {
		return NULL;
	}
	hex = tail + hex_at;
	n = tail - p;
	if (!n || !fdc_body_room(body, cap, n + 2))
		return NULL;
	(*body)[0] = '{';
	memcpy(*body + 1, p, n);
	(*body)[n + 1] = '}';
	fdc_verify_load(m, *body, n + 2);
	if (!json_object_size(m->rec) || m->fairdie || m->seq || m->prev ||
	    m->type || m->sig || m->secret || m->outcome || m->commitment)
		goto drop;
	/* Taken as they stand: the checks say whether they are a type, hex. */
	m->type = json_stringn_nocheck(name, strlen(name));
	*(open ? &m->secret : &m->commitment) =
		json_stringn_nocheck(hex, hex_len);
	if (m->type && (m->secret || m->commitment)) {
		m->linked = true;
		return m->rec;
	}
	json_decref(m->type);
	json_decref(m->secret);
	json_decref(m->commitment);
drop:
	json_decref(m->rec);
	return NULL;
}

/*
 * The record on v->line, read with jansson into @m, its members taken in
 * one pass (jansson refuses duplicate members and NUL in a member's name):
 * NULL when it is not a fairdie record (JSON with "fairdie": 1, an integer
 * "seq" and a string "type", as fdc_parse_record() asks). The signature
 * member at its end is taken apart by fdc_line_signed(), the rest read
 * here.
 *
 * A line that starts with v->head, the bytes the log's format and the
 * chain ask of its first three members, is compared with them, and jansson
 * reads "{" and the rest. The line is then a JSON object exactly when the
 * rest is one with at least one member, and its members are those three
 * and the rest's, without a duplicate exactly when the rest names none of
 * the three: when this does not hold, jansson reads the whole line, so
 * that what is refused, and why, is the same either way.
 */
static json_t *fdc_verify_parse(struct fdc_verify *v, struct fdc_members *m,
				char **body, size_t *cap)
{
	const char *text = v->line;
	size_t n = v->len;

	memset(m, 0, sizeof(*m));
	if (v->len >= FDC_SIG_SUFFIX_LEN + 2 &&
	    !memcmp(v->line + v->len - FDC_SIG_SUFFIX_LEN, FDC_SIG_PREFIX,
		    sizeof(FDC_SIG_PREFIX) - 1)) {
		n = v->len - FDC_SIG_SUFFIX_LEN + 1;
		if (!fdc_body_room(body, cap, n))
			return NULL;
		if (!FDC_VERIFY_WHOLE_LINES && n > v->head_len &&
		    !memcmp(v->line, v->head, v->head_len)) {
			(*body)[0] = '{';
			memcpy(*body + 1, v->line + v->head_len,
			       n - 1 - v->head_len);
			(*body)[n - v->head_len] = '}';
			fdc_verify_load(m, *body, n - v->head_len + 1);
			if (json_object_size(m->rec) && !m->fairdie &&
			    !m->seq && !m->prev && !m->sig) {
				m->linked = true;
				goto read;
			}
			json_decref(m->rec);
			memset(m, 0, sizeof(*m));
		}
		memcpy(*body, v->line, n - 1);
		(*body)[n - 1] = '}';
		text = *body;
	}
	fdc_verify_load(m, text, n);
read:
	/* A "sig" before the signature at the end is one named twice. */
	if (!json_is_object(m->rec) || !fdc_vstr(m->type) ||
	    (text != v->line && m->sig) ||
	    (!m->linked && (json_integer_value(m->fairdie) != 1 ||
			    !json_is_integer(m->seq)))) {
		json_decref(m->rec);
		m->rec = NULL;
	}
	return m->rec;
}

/* The log, mapped (read-only): a year of draws is read at once. */
static int fdc_map_file(const char *path, char **buf, size_t *len)
{
	struct stat st;
	int fd;

	*len = 0;
	*buf = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		fdc_err("%s: %s", fdc_quote(path), strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		fdc_err("%s: not a regular file", fdc_quote(path));
		goto fail;
	}
	if (st.st_size) {
		*buf = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			    fd, 0);
		if (*buf == MAP_FAILED) {
			fdc_err("%s: %s", fdc_quote(path), strerror(errno));
			goto fail;
		}
		*len = st.st_size;
	}
	close(fd);
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	return -1;
}

/**
 * fdc_cmd_verify() - fairdie verify
 * @cfg: the global options
 * @argc: argument count, argv[0] being "verify"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_verify(struct fdc_config *cfg, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all-signatures", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fdc_verify v = { 0 };
	struct fdc_members m;
	u64 counts[3] = { 0 };
	struct fdc_keys k;
	const char *end;
	bool all = false;
	char *buf, *body = NULL, hex[2 * FDC_KEY_BYTES + 1];
	size_t cap = 0;
	size_t len, i;
	json_t *rec;
	int c, ret = FDC_EXIT_FAILURE;

	while ((c = fdc_getopt(cfg, argc, argv, "h", opts)) != -1) {
		if (c == 'h') {
			fdc_help(fdc_verify_help);
			return FDC_EXIT_OK;
		}
		if (c != 'A')
			return FDC_EXIT_USAGE;
		all = true;
	}
	if (optind + 1 != argc) {
		fdc_err("verify: expected one argument, the log");
		return FDC_EXIT_USAGE;
	}
	if (cfg->key) {
		ret = fdc_keys_load(cfg->key, &k, false);
		if (ret)
			return ret;
		memcpy(v.pub, k.pub, FDC_KEY_BYTES);
		v.have_key = true;
	}
	if (fdc_map_file(argv[optind], &buf, &len))
		return FDC_EXIT_FAILURE;
	v.path = strdup(fdc_quote(argv[optind]));
	ret = FDC_EXIT_FAILURE;
	fdc_arena.cap = 1 << 16;
	fdc_arena.buf = malloc(fdc_arena.cap);
	if (!fdc_arena.buf) {
		fdc_err("%s: out of memory", v.path);
		goto out;
	}
	json_set_alloc_funcs(fdc_arena_malloc, fdc_arena_free);
	for (v.line = buf; v.line < buf + len; v.line = end + 1) {
		end = memchr(v.line, '\n', buf + len - v.line);
		/* A torn last line: the records before it hold when signed. */
		if (!end)
			break;
		v.len = end - v.line;
		if (v.n == v.cap) {
			struct fdc_seal_slot *s;

			v.cap = v.cap ? 2 * v.cap : 1024;
			s = realloc(v.slots, v.cap * sizeof(*s));
			if (!s) {
				fdc_err("%s: out of memory", v.path);
				goto out;
			}
			memset(s + v.n, 0, (v.cap - v.n) * sizeof(*s));
			v.slots = s;
		}
		fdc_verify_head(&v);
		/* The line before's tree is gone. */
		fdc_arena.used = 0;
		fdc_arena.spilled = false;
		rec = fdc_verify_fast(&v, &m, &body, &cap);
		if (rec) {
			v.fast = true;
			c = fdc_verify_one(&v, &m, v.n + 1);
			v.fast = false;
			if (fdc_arena.spilled) {
				json_decref(rec);
				json_decref(m.type);
				json_decref(m.secret);
				json_decref(m.commitment);
			}
			if (!c) {
				v.n++;
				goto next;
			}
			if (c != FDC_VERIFY_WHOLE)
				goto out;
			fdc_arena.used = 0;
			fdc_arena.spilled = false;
		}
		rec = fdc_verify_parse(&v, &m, &body, &cap);
		if (!rec) {
			/* A first line with no signature is no record at all. */
			if (!v.n && (v.len < FDC_SIG_SUFFIX_LEN ||
				     memcmp(v.line + v.len - FDC_SIG_SUFFIX_LEN,
					    FDC_SIG_PREFIX,
					    sizeof(FDC_SIG_PREFIX) - 1)))
				fdc_err("%s: not a fairdie log", v.path);
			else
				fdc_fail(&v, v.n + 1, "record",
					 "not a fairdie record");
			goto out;
		}
		v.n++;
		c = fdc_verify_one(&v, &m, v.n);
		if (fdc_arena.spilled)
			json_decref(rec);
		if (c)
			goto out;
next:
		v.prev_signed = false;
		if (all && !fdc_line_signed(v.line, v.len, v.pub)) {
			fdc_fail(&v, v.n, "signature", "");
			goto out;
		}
		v.prev_signed = all;
		v.prev_line = v.line;
		v.prev_len = v.len;
	}
	if (v.prev_line && !v.prev_signed &&
	    !fdc_line_signed(v.prev_line, v.prev_len, v.pub)) {
		v.line = v.prev_line;
		v.len = v.prev_len;
		fdc_fail(&v, v.n, "signature", "");
		goto out;
	}
	if (v.line < buf + len) {
		fdc_err("%s: record %llu: torn: the last line is cut short (an interrupted append); the %llu records before it hold",
			v.path, (unsigned long long)v.n + 1,
			(unsigned long long)v.n);
		goto out;
	}
	for (i = 0; i < v.n; i++)
		if (v.slots[i].sealed || v.slots[i].revealed)
			counts[v.slots[i].revealed ? 1 : 0]++;
	fdc_hex(hex, v.pub, FDC_KEY_BYTES);
	printf("%s: %llu records hold: %llu draws revealed, ", v.path,
	       (unsigned long long)v.n, (unsigned long long)counts[1]);
	printf("%llu not yet, %llu others\n",
	       (unsigned long long)counts[0],
	       (unsigned long long)(v.n - 2 * counts[1] - counts[0]));
	if (v.n)
		printf("%s: signed by %s%s\n", v.path, hex, cfg->key ? "" :
		       " (the log's own key: give --key KEY.pub to check it is the one you expect)");
	ret = fdc_finish_output();
out:
	json_set_alloc_funcs(malloc, free);
	free(fdc_arena.buf);
	fdc_arena.buf = NULL;
	fdc_arena.cap = 0;
	for (i = 0; i < v.n; i++)
		free(v.slots[i].sealed);
	free(v.slots);
	free(body);
	free((char *)v.path);
	if (len)
		munmap(buf, len);
	return ret;
}
