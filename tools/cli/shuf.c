// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - shuffle and sample with shuf's interface: options, input,
 * the draws and the output.
 */

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device.h"
#include "games.h"
#include "shuf.h"

/* Long options without a short form: codes no short option uses. */
#define FDC_SHUF_COUNT	'C'
#define FDC_SHUF_STATS	'S'
#define FDC_SHUF_JSON	'J'

static const struct option fdc_shuf_opts[] = {
	{ "echo", no_argument, NULL, 'e' },
	{ "input-range", required_argument, NULL, 'i' },
	{ "head-count", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "repeat", no_argument, NULL, 'r' },
	{ "zero-terminated", no_argument, NULL, 'z' },
	{ "count", required_argument, NULL, FDC_SHUF_COUNT },
	{ "stats", no_argument, NULL, FDC_SHUF_STATS },
	{ "json", no_argument, NULL, FDC_SHUF_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * -i LO-HI: LO <= HI + 1 (HI = LO - 1 is an empty range), at most
 * 2^64 - 1 numbers. On an error, as shuf says it: the part that is not a
 * number, or the whole range; -ERANGE for a number too large.
 */
static int fdc_parse_range(char *s, u64 *lo, u64 *count, const char **bad)
{
	char *dash = strchr(s, '-');
	u64 hi;
	int err;

	*bad = s;
	if (!dash) {
		err = fdc_parse_u64(s, &hi);
		return err == -ERANGE ? err : -EINVAL;
	}
	*dash = '\0';
	err = fdc_parse_u64(s, lo);
	*dash = '-';
	if (err) {
		*bad = s;
		*dash = '\0';
		return err;
	}
	err = fdc_parse_u64(dash + 1, &hi);
	if (err) {
		*bad = dash + 1;
		return err;
	}
	if ((!*lo && hi == UINT64_MAX) || (*lo && hi < *lo - 1))
		return -EINVAL;
	*count = hi - *lo + 1;
	return 0;
}

/**
 * fdc_shuf_options() - the options of shuffle and sample
 * @cfg: where the global options go
 * @argc: argument count, argv[0] being the command
 * @argv: the arguments
 * @sh: the run; @sh->cmd and @sh->help set by the caller
 *
 * Return: FDC_GO_ON with optind at the first operand, or the exit status
 * the command ends with (after --help, or a one-line usage error).
 */
int fdc_shuf_options(struct fdc_config *cfg, int argc, char **argv,
		     struct fdc_shuf *sh)
{
	bool have_output = false;
	const char *bad;
	u64 v;
	int c, err;

	sh->head = UINT64_MAX;
	sh->delim = '\n';
	sh->times = 1;
	while ((c = fdc_getopt(cfg, argc, argv, "ei:n:o:rzh",
			       fdc_shuf_opts)) != -1) {
		switch (c) {
		case 'e':
			sh->echo = true;
			break;
		case 'i':
			if (sh->range) {
				fdc_err("%s: multiple -i options specified",
					sh->cmd);
				return FDC_EXIT_USAGE;
			}
			err = fdc_parse_range(optarg, &sh->lo, &sh->count, &bad);
			if (err) {
				fdc_err("%s: invalid input range: '%s'%s", sh->cmd,
					fdc_quote(bad), err == -ERANGE ?
					": Value too large for defined data type" :
					"");
				return FDC_EXIT_USAGE;
			}
			sh->range = true;
			break;
		case 'n':
			err = fdc_parse_u64(optarg, &v);
			if (err == -ERANGE) {
				v = UINT64_MAX;
			} else if (err) {
				fdc_err("%s: invalid line count: '%s'", sh->cmd,
					fdc_quote(optarg));
				return FDC_EXIT_USAGE;
			}
			/* As shuf: the smallest of several counts. */
			if (v < sh->head)
				sh->head = v;
			break;
		case 'o':
			if (have_output) {
				fdc_err("%s: multiple output files specified",
					sh->cmd);
				return FDC_EXIT_USAGE;
			}
			sh->output = optarg;
			have_output = true;
			break;
		case 'r':
			sh->repeat = true;
			break;
		case 'z':
			sh->delim = '\0';
			break;
		case FDC_SHUF_COUNT:
			if (fdc_parse_count(sh->cmd, "TIMES", optarg, 1,
					    FDC_MAX_COUNT, &sh->times))
				return FDC_EXIT_USAGE;
			sh->several = true;
			break;
		case FDC_SHUF_STATS:
			sh->stats = true;
			break;
		case FDC_SHUF_JSON:
			sh->json = true;
			break;
		case 'h':
			fdc_help(sh->help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (sh->echo && sh->range) {
		fdc_err("%s: cannot combine -e and -i options", sh->cmd);
		return FDC_EXIT_USAGE;
	}
	if (sh->range)
		sh->input = FDC_SHUF_RANGE;
	else if (sh->echo)
		sh->input = FDC_SHUF_ECHO;
	else
		sh->input = FDC_SHUF_LINES;
	return FDC_GO_ON;
}

/* Whether @s is a decimal number: fairdie's 'shuffle N'. */
static bool fdc_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/**
 * fdc_shuf_file_operands() - the operands as shuf takes them
 * @sh: the run, its options parsed
 * @n: how many operands
 * @ops: the operands
 *
 * With -e, the items; with -i, none; otherwise at most one, the FILE
 * ('-' for standard input), or a number N for the numbers 1 to N.
 *
 * Return: FDC_GO_ON, or FDC_EXIT_USAGE after a one-line error.
 */
int fdc_shuf_file_operands(struct fdc_shuf *sh, int n, char **ops)
{
	if (sh->echo) {
		sh->args = ops;
		sh->nargs = n;
		return FDC_GO_ON;
	}
	if ((sh->range && n) || n > 1) {
		fdc_err("%s: extra operand '%s'", sh->cmd,
			fdc_quote(ops[sh->range ? 0 : 1]));
		return FDC_EXIT_USAGE;
	}
	if (!n)
		return FDC_GO_ON;
	if (fdc_all_digits(ops[0])) {
		if (fdc_parse_u64(ops[0], &sh->count)) {
			fdc_err("%s: invalid N '%s': expected an integer from 0 to 18446744073709551615",
				sh->cmd, fdc_quote(ops[0]));
			return FDC_EXIT_USAGE;
		}
		sh->input = FDC_SHUF_RANGE;
		sh->range = true;
		sh->lo = 1;
		return FDC_GO_ON;
	}
	sh->file = ops[0];
	return FDC_GO_ON;
}

/* ------------------------------------------------------------------------
 * Input
 */

/**
 * struct fdc_lines - the input lines, in one buffer
 * @buf: the input; every line ends in the delimiter, one is added to an
 *	unfinished last line
 * @len: bytes in @buf
 * @cap: the room of @buf
 * @start: the offset in @buf of each line
 * @n: how many lines
 */
struct fdc_lines {
	char *buf;
	size_t len;
	size_t cap;
	u64 *start;
	u64 n;
};

/*
 * All of @fd into @l->buf, plus room for one delimiter; or with @limit,
 * no more than @limit bytes. Return: 0 at the end of the input, 1 when
 * @limit bytes were read before it, -1 after printing an error.
 */
static int fdc_read_all(const struct fdc_shuf *sh, int fd, const char *name,
			struct fdc_lines *l, size_t limit)
{
	size_t cap = 65536;
	struct stat st;
	ssize_t r;
	char *grown;

	/* A file says its size: one allocation of the right size. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	if (limit && cap > limit + 1)
		cap = limit + 1;
	l->buf = malloc(cap);
	if (!l->buf)
		goto out_nomem;
	for (;;) {
		l->cap = cap;
		if (limit && l->len >= limit)
			return 1;
		if (l->len + 1 >= cap) {
			cap *= 2;
			grown = realloc(l->buf, cap);
			if (!grown)
				goto out_nomem;
			l->buf = grown;
		}
		r = read(fd, l->buf + l->len, (limit && limit < cap - 1 ? limit :
					       cap - 1) - l->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fdc_err("%s: %s: %s", sh->cmd, name, strerror(errno));
			return -1;
		}
		if (!r)
			return 0;
		l->len += r;
	}

out_nomem:
	fdc_err("%s: %s: out of memory", sh->cmd, name);
	return -1;
}

/*
 * Count the lines of @buf, each ending in @delim, and note where each
 * starts in @start unless it is NULL. Eight bytes at a time: a byte of
 * x = word ^ delim * 0x01..01 is zero exactly where the word holds the
 * delimiter, and ((x & 0x7f..7f) + 0x7f..7f) | x has the top bit of each
 * byte set exactly where x's byte is not zero.
 */
static u64 fdc_index_lines(const char *buf, size_t len, char delim,
			   u64 *start)
{
	const u64 ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
	u64 n = 0, w, x, hits;
	size_t i = 0, at;

	if (start && len)
		start[0] = 0;
	for (; i + 8 <= len; i += 8) {
		/* In memory order: the first byte is the lowest. */
		memcpy(&w, buf + i, sizeof(w));
		x = le64toh(w) ^ ((u64)(unsigned char)delim * ones);
		for (hits = ~(((x & low7) + low7) | x) & ~low7; hits;
		     hits &= hits - 1) {
			at = i + __builtin_ctzll(hits) / 8;
			if (start && at + 1 < len)
				start[n + 1] = at + 1;
			n++;
		}
	}
	for (; i < len; i++) {
		if (buf[i] != delim)
			continue;
		if (start && i + 1 < len)
			start[n + 1] = i + 1;
		n++;
	}
	return n;
}

/*
 * The lines of @sh->file (standard input when NULL or '-'): their starts,
 * and with --json the check that each is UTF-8. With @limit, no more than
 * @limit bytes: when the input is longer, returns 1 with the bytes read in
 * @l->buf, not indexed, and the input still open in *@fdp.
 */
static int fdc_read_lines(const struct fdc_shuf *sh, struct fdc_lines *l,
			  size_t limit, int *fdp)
{
	bool is_stdin = !sh->file || !strcmp(sh->file, "-");
	const char *name = is_stdin ? "standard input" : fdc_quote(sh->file);
	char name_buf[FDC_QUOTE_MAX * 4 + 8];
	char *p, *nl;
	int fd = STDIN_FILENO, ret;
	u64 i;

	snprintf(name_buf, sizeof(name_buf), "%s", name);
	if (!is_stdin) {
		fd = open(sh->file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			fdc_err("%s: %s: %s", sh->cmd, name_buf,
				strerror(errno));
			return -1;
		}
	}
	ret = fdc_read_all(sh, fd, name_buf, l, limit);
	if (ret > 0) {
		*fdp = fd;
		return 1;
	}
	if (!is_stdin)
		close(fd);
	if (ret)
		return -1;
	if (l->len && l->buf[l->len - 1] != sh->delim)
		l->buf[l->len++] = sh->delim;
	l->n = fdc_index_lines(l->buf, l->len, sh->delim, NULL);
	l->start = malloc((l->n ? l->n : 1) * sizeof(*l->start));
	if (!l->start) {
		fdc_err("%s: %s: out of memory for %llu lines", sh->cmd,
			name_buf, (unsigned long long)l->n);
		return -1;
	}
	fdc_index_lines(l->buf, l->len, sh->delim, l->start);
	/* JSON strings are UTF-8: other text cannot be printed. */
	for (i = 0; sh->json && i < l->n; i++) {
		p = l->buf + l->start[i];
		nl = memchr(p, sh->delim, l->buf + l->len - p);
		if (fdc_utf8_check(p, nl - p) != (size_t)(nl - p)) {
			fdc_err("%s: %s: line %llu: invalid UTF-8 (--json needs UTF-8 text)",
				sh->cmd, name_buf, (unsigned long long)i + 1);
			return -1;
		}
	}
	return 0;
}

/*
 * Input longer than this, with -n K (no -r), is sampled as it streams by:
 * a reservoir of K lines, whatever the input's length. A shorter one is
 * read whole, as before, for the fewest fair bits.
 */
#define FDC_SHUF_MEM_BYTES	(512 * 1024)

/**
 * struct fdc_reservoir - a sample of the lines of a stream
 * @line: the lines, each without its delimiter
 * @len: their lengths
 * @k: the sample's size
 * @slots: the room of @line and @len
 * @filled: lines held, min(@k, @seen)
 * @seen: lines read
 */
struct fdc_reservoir {
	char **line;
	size_t *len;
	u64 slots;
	u64 k;
	u64 filled;
	u64 seen;
};

static void fdc_reservoir_free(struct fdc_reservoir *r)
{
	u64 i;

	for (i = 0; r->line && i < r->slots; i++)
		free(r->line[i]);
	free(r->line);
	free(r->len);
	memset(r, 0, sizeof(*r));
}

/* A copy of @len bytes at @p, or NULL after printing an error. */
static char *fdc_line_dup(const struct fdc_shuf *sh, const char *p,
			  size_t len)
{
	char *c = malloc(len + 1);

	if (!c) {
		fdc_err("%s: out of memory", sh->cmd);
		return NULL;
	}
	memcpy(c, p, len);
	c[len] = '\0';
	return c;
}

/* The next line of the stream, line @res->seen + 1, into the reservoir. */
static int fdc_reservoir_line(const struct fdc_shuf *sh,
			      struct fdc_engine *e, struct fdc_reservoir *res,
			      const char *name, const char *p, size_t len)
{
	u64 i = res->seen, slot;
	char *c;

	if (sh->json && fdc_utf8_check(p, len) != len) {
		fdc_err("%s: %s: line %llu: invalid UTF-8 (--json needs UTF-8 text)",
			sh->cmd, name, (unsigned long long)i + 1);
		return -1;
	}
	res->seen++;
	if (!res->k)
		return 0;
	if (fdc_reservoir_slot(e, i, res->k, &slot))
		return -1;
	if (i >= res->k && slot >= res->k)
		return 0;
	c = fdc_line_dup(sh, p, len);
	if (!c)
		return -1;
	if (i < res->k) {
		res->line[i] = res->line[slot];
		res->len[i] = res->len[slot];
		res->filled++;
	} else {
		free(res->line[slot]);
	}
	res->line[slot] = c;
	res->len[slot] = len;
	return 0;
}

typedef int (*fdc_line_fn)(void *ctx, const char *p, size_t len);

/*
 * Each line of the input to @fn, without its delimiter: those in @l->buf
 * from @pos, then the rest of @fd, read through the same buffer (grown
 * for a line longer than it). An unfinished last line is a line.
 */
static int fdc_stream_lines(const struct fdc_shuf *sh, struct fdc_lines *l,
			    size_t pos, int fd, const char *name,
			    fdc_line_fn fn, void *ctx)
{
	bool eof = false;
	char *nl, *grown;
	ssize_t r;

	for (;;) {
		nl = memchr(l->buf + pos, sh->delim, l->len - pos);
		if (nl) {
			if (fn(ctx, l->buf + pos, nl - l->buf - pos))
				return -1;
			pos = nl + 1 - l->buf;
			continue;
		}
		memmove(l->buf, l->buf + pos, l->len - pos);
		l->len -= pos;
		pos = 0;
		if (eof)
			return l->len ? fn(ctx, l->buf, l->len) : 0;
		if (l->len == l->cap) {
			grown = realloc(l->buf, 2 * l->cap);
			if (!grown) {
				fdc_err("%s: %s: out of memory", sh->cmd, name);
				return -1;
			}
			l->buf = grown;
			l->cap *= 2;
		}
		r = read(fd, l->buf + l->len, l->cap - l->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fdc_err("%s: %s: %s", sh->cmd, name, strerror(errno));
			return -1;
		}
		eof = !r;
		l->len += r;
	}
}

/* What fdc_reservoir_take() needs. */
struct fdc_res_ctx {
	const struct fdc_shuf *sh;
	struct fdc_engine *e;
	struct fdc_reservoir *res;
	const char *name;
};

static int fdc_reservoir_take(void *ctx, const char *p, size_t len)
{
	struct fdc_res_ctx *c = ctx;

	return fdc_reservoir_line(c->sh, c->e, c->res, c->name, p, len);
}

/**
 * struct fdc_pass - a pass over a file's lines
 * @sh: the run
 * @name: the file, for messages
 * @n: lines seen so far
 * @want: the second pass: the lines wanted, by line number, with their
 *	places in the sample
 * @nwant: how many
 * @next: the next of @want to come
 * @res: where they go
 */
struct fdc_pass {
	const struct fdc_shuf *sh;
	const char *name;
	u64 n;
	struct fdc_want { u64 line, slot; } *want;
	u64 nwant;
	u64 next;
	struct fdc_reservoir *res;
};

static int fdc_pass_count(void *ctx, const char *p, size_t len)
{
	struct fdc_pass *c = ctx;

	if (c->sh->json && fdc_utf8_check(p, len) != len) {
		fdc_err("%s: %s: line %llu: invalid UTF-8 (--json needs UTF-8 text)",
			c->sh->cmd, c->name, (unsigned long long)c->n + 1);
		return -1;
	}
	c->n++;
	return 0;
}

static int fdc_pass_collect(void *ctx, const char *p, size_t len)
{
	struct fdc_pass *c = ctx;
	struct fdc_reservoir *res = c->res;
	u64 slot;

	if (c->next < c->nwant && c->want[c->next].line == c->n) {
		slot = c->want[c->next++].slot;
		res->line[slot] = fdc_line_dup(c->sh, p, len);
		if (!res->line[slot])
			return -1;
		res->len[slot] = len;
		res->filled++;
	}
	c->n++;
	return 0;
}

static int fdc_want_cmp(const void *a, const void *b)
{
	const struct fdc_want *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * The sample of @res->k lines of a long regular file (or standard input
 * from one) in two passes: count its N lines, draw the sample of [0, N)
 * exactly as for a file read whole (fdc_sample(), the same draws and the
 * same sample), then read it again for those lines only. Memory: the K
 * lines. Return: 0, 1 when @fd cannot seek back (a pipe: the caller takes
 * a reservoir), or -1 after printing an error.
 */
static int fdc_two_pass(const struct fdc_shuf *sh, struct fdc_engine *e,
			struct fdc_lines *l, int fd, const char *name,
			struct fdc_reservoir *res)
{
	struct fdc_pass c = { .sh = sh, .name = name, .res = res };
	u64 *pick = NULL, k, i;
	struct stat st;
	off_t at;
	int ret = -1;

	at = lseek(fd, 0, SEEK_CUR);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || at < (off_t)l->len)
		return 1;
	at -= l->len;
	if (fdc_stream_lines(sh, l, 0, fd, name, fdc_pass_count, &c))
		return -1;
	k = res->k < c.n ? res->k : c.n;
	pick = malloc((k ? k : 1) * sizeof(*pick));
	c.want = malloc((k ? k : 1) * sizeof(*c.want));
	res->slots = k;
	res->line = calloc(k ? k : 1, sizeof(*res->line));
	res->len = calloc(k ? k : 1, sizeof(*res->len));
	if (!pick || !c.want || !res->line || !res->len) {
		fdc_err("%s: %s: out of memory", sh->cmd, name);
		goto out;
	}
	if (fdc_sample(e, c.n, k, pick))
		goto out;
	for (i = 0; i < k; i++) {
		c.want[i].line = pick[i];
		c.want[i].slot = i;
	}
	qsort(c.want, k, sizeof(*c.want), fdc_want_cmp);
	c.nwant = k;
	res->seen = c.n;
	c.n = 0;
	l->len = 0;
	if (lseek(fd, at, SEEK_SET) < 0) {
		fdc_err("%s: %s: %s", sh->cmd, name, strerror(errno));
		goto out;
	}
	if (fdc_stream_lines(sh, l, 0, fd, name, fdc_pass_collect, &c))
		goto out;
	if (c.next != k) {
		fdc_err("%s: %s: the file changed while it was read", sh->cmd,
			name);
		goto out;
	}
	ret = 0;
out:
	free(pick);
	free(c.want);
	return ret;
}

/*
 * The sample of @res->k lines of an input longer than FDC_SHUF_MEM_BYTES:
 * a uniform ordered sample of the complete lines among the bytes @l holds
 * (fdc_reservoir_start()), then the rest of @fd line by line
 * (fdc_reservoir_slot()). Every ordered sample of the input's lines is
 * exactly equally likely (test_games proves it on every string of bits).
 * Closes @fd unless it is standard input.
 */
static int fdc_reservoir_fill(const struct fdc_shuf *sh, struct fdc_engine *e,
			      struct fdc_lines *l, int fd,
			      struct fdc_reservoir *res)
{
	bool is_stdin = !sh->file || !strcmp(sh->file, "-");
	char name[FDC_QUOTE_MAX * 4 + 8], *end, *nl;
	size_t pos = 0, k;
	u64 m = 0, *start = NULL, *pick = NULL, i;
	struct fdc_res_ctx ctx = { sh, e, res, name };
	int ret = -1;

	snprintf(name, sizeof(name), "%s",
		 is_stdin ? "standard input" : fdc_quote(sh->file));
	/* A file is read twice rather than sampled as it streams by. */
	ret = fdc_two_pass(sh, e, l, fd, name, res);
	if (ret <= 0)
		goto out;
	ret = -1;
	res->slots = res->k;
	res->line = calloc(res->k ? res->k : 1, sizeof(*res->line));
	res->len = calloc(res->k ? res->k : 1, sizeof(*res->len));
	if (!res->line || !res->len)
		goto out_nomem;

	/* The complete lines read so far: a sample of them at once. */
	for (end = l->buf + l->len; end > l->buf && end[-1] != sh->delim; )
		end--;
	if (end > l->buf) {
		end--;
		pos = end + 1 - l->buf;
		m = fdc_index_lines(l->buf, pos, sh->delim, NULL);
		start = malloc(m * sizeof(*start));
		k = res->k < m ? res->k : m;
		pick = malloc((k ? k : 1) * sizeof(*pick));
		if (!start || !pick)
			goto out_nomem;
		fdc_index_lines(l->buf, pos, sh->delim, start);
		for (i = 0; sh->json && i < m; i++) {
			nl = memchr(l->buf + start[i], sh->delim,
				    pos - start[i]);
			if (fdc_utf8_check(l->buf + start[i],
					   nl - l->buf - start[i]) !=
			    (size_t)(nl - l->buf - start[i])) {
				fdc_err("%s: %s: line %llu: invalid UTF-8 (--json needs UTF-8 text)",
					sh->cmd, name, (unsigned long long)i + 1);
				goto out;
			}
		}
		if (fdc_reservoir_start(e, m, res->k, pick))
			goto out;
		for (i = 0; i < k; i++) {
			nl = memchr(l->buf + start[pick[i]], sh->delim,
				    pos - start[pick[i]]);
			res->len[i] = nl - l->buf - start[pick[i]];
			res->line[i] = fdc_line_dup(sh, l->buf + start[pick[i]],
						    res->len[i]);
			if (!res->line[i])
				goto out;
			res->filled++;
		}
		res->seen = m;
	}

	/* The rest, a line at a time, through the same buffer. */
	if (fdc_stream_lines(sh, l, pos, fd, name, fdc_reservoir_take, &ctx))
		goto out;
	ret = 0;
	goto out;

out_nomem:
	fdc_err("%s: %s: out of memory", sh->cmd, name);
out:
	if (!is_stdin)
		close(fd);
	free(start);
	free(pick);
	return ret;
}

/* ------------------------------------------------------------------------
 * Output
 */

/**
 * struct fdc_shuf_out - where the items go
 * @f: the stream
 * @sh: the run
 * @lines: the input lines (FDC_SHUF_LINES)
 * @writing: the progress meter's name for the output of a run
 */
struct fdc_shuf_out {
	FILE *f;
	const struct fdc_shuf *sh;
	const struct fdc_lines *lines;
	char writing[32];
};

/*
 * Item @idx of the input; @last ends a line of --count output (which
 * separates the numbers of one run with blanks).
 */
static void fdc_shuf_put(const struct fdc_shuf_out *o, u64 idx, bool last)
{
	const struct fdc_shuf *sh = o->sh;
	const char *p, *nl;

	switch (sh->input) {
	case FDC_SHUF_RANGE:
		if (sh->json)
			fdc_json_u64(sh->lo + idx);
		else
			fdc_print_u64(o->f, sh->lo + idx,
				      sh->several && !last ? ' ' : sh->delim);
		break;
	case FDC_SHUF_ECHO:
		p = sh->args[idx];
		if (sh->json) {
			fdc_json_str(p);
		} else {
			fwrite_unlocked(p, 1, strlen(p), o->f);
			putc_unlocked(sh->delim, o->f);
		}
		break;
	default:
		p = o->lines->buf + idx;
		nl = memchr(p, sh->delim, o->lines->buf + o->lines->len - p);
		if (sh->json)
			fdc_json_mem(p, nl - p);
		else
			fwrite_unlocked(p, 1, nl - p + 1, o->f);
		break;
	}
}

/* A line of the reservoir, without its delimiter. */
static void fdc_shuf_put_line(const struct fdc_shuf_out *o, const char *p,
			      size_t len)
{
	if (o->sh->json) {
		fdc_json_mem(p, len);
	} else {
		fwrite_unlocked(p, 1, len, o->f);
		putc_unlocked(o->sh->delim, o->f);
	}
}

/*
 * Open -o FILE, after the input was read: it may be the input itself. It
 * gets the output only if the whole run succeeds (fdc_output_open()).
 */
static FILE *fdc_shuf_open_output(const struct fdc_shuf *sh)
{
	if (!sh->output)
		return stdout;
	return fdc_output_open(sh->cmd, sh->output);
}

/* Flush and close the output; a write error is a failure. */
static int fdc_shuf_close_output(const struct fdc_shuf *sh, FILE *f, bool ok)
{
	if (f == stdout)
		return fdc_finish_output();
	return fdc_output_close(sh->cmd, f, ok);
}

/* ------------------------------------------------------------------------
 * The draws
 */

/* Draws with replacement: @k of them, or without end when @k is
 * UINT64_MAX (until the output is closed).
 */
static int fdc_shuf_repeat(struct fdc_engine *e, const struct fdc_shuf_out *o,
			   u64 n, u64 k)
{
	u64 buf[FDC_CACHE_MAX], done = 0, chunk, i;

	while (done < k && !ferror_unlocked(o->f)) {
		if (k != UINT64_MAX)
			fdc_progress(o->sh->cmd, done, k);
		chunk = k - done < FDC_CACHE_MAX ? k - done : FDC_CACHE_MAX;
		if (fdc_engine_rolls(e, n, buf, chunk))
			return -1;
		for (i = 0; i < chunk; i++)
			fdc_shuf_put(o, o->sh->input == FDC_SHUF_LINES ?
				     o->lines->start[buf[i]] : buf[i], false);
		if (k != UINT64_MAX)
			done += chunk;
	}
	return 0;
}

/*
 * One run of draws without replacement: @k of the @n items in @items
 * (shuffled in place), or with @items NULL, @k numbers of [0, @n) drawn
 * sparsely into @pick.
 */
static int fdc_shuf_once(struct fdc_engine *e, const struct fdc_shuf_out *o,
			 u64 *items, u64 *pick, u64 n, u64 k)
{
	u64 i;
	int ret;

	/*
	 * Nothing is written while the draws are made: their meter may show
	 * on the terminal that gets the output, and is cleared before it.
	 */
	fdc_progress_output(NULL);
	if (items) {
		ret = fdc_shuffle(e, items, n, k);
		pick = items;
	} else {
		ret = fdc_sample(e, n, k, pick);
	}
	fdc_progress_end();
	fdc_progress_output(o->f);
	if (ret)
		return -1;
	for (i = 0; i < k && !ferror_unlocked(o->f); i++) {
		if (o->sh->times == 1)
			fdc_progress(o->writing, i, k);
		/* Lines come from all over the input: ask for one ahead. */
		if (o->sh->input == FDC_SHUF_LINES && i + 16 < k)
			__builtin_prefetch(o->lines->buf + pick[i + 16]);
		fdc_shuf_put(o, pick[i], i + 1 == k);
	}
	return 0;
}

/* log2 of the number of equally likely outcomes of one run. */
static double fdc_shuf_log2(const struct fdc_shuf *sh, u64 n, u64 k)
{
	if (sh->repeat)
		return n ? k * log2((double)n) : 0;
	return fdc_log2_falling(n, k);
}

static void fdc_shuf_json_u64(const char *key, u64 v, bool known)
{
	fdc_json_key(key);
	if (known)
		fdc_json_u64(v);
	else
		fdc_json_value("null", 4);
}

/*
 * --stats --json: the "stats" member, the same members whatever the
 * source (null where the source does not say).
 */
static int fdc_shuf_stats_json(const struct fdc_shuf *sh, struct fdc_engine *e,
			       u64 n, u64 k)
{
	bool dev = fdc_source_is_device(&e->src);
	struct fairdie_stats st;
	u64 used = fdc_engine_bits_used(e);
	double held = dev ? 0 : fdc_engine_bits_held(e);

	memset(&st, 0, sizeof(st));
	if (dev &&
	    fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_STATS, &st, "GET_STATS"))
		return -1;
	fdc_json_key("stats");
	fdc_json_object();
	fdc_shuf_json_u64("items", n, true);
	fdc_shuf_json_u64("runs", sh->times, true);
	fdc_shuf_json_u64("each", k, true);
	fdc_json_key("repeat");
	fdc_json_value(sh->repeat ? "true" : "false", sh->repeat ? 4 : 5);
	fdc_json_key("log2_outcomes");
	fdc_json_number(fdc_shuf_log2(sh, n, k));
	fdc_json_key("fair_bits_used");
	fdc_json_number(dev ? (double)st.sampler_bits : used - held);
	fdc_shuf_json_u64("fair_bits_taken", used, !dev);
	fdc_json_key("fair_bits_held");
	if (dev)
		fdc_json_value("null", 4);
	else
		fdc_json_number(held);
	fdc_shuf_json_u64("fair_bits_read", e->bits_read, !dev);
	fdc_shuf_json_u64("source_bits", st.source_bits, dev);
	fdc_shuf_json_u64("extracted_bits", st.extracted_bits, dev);
	fdc_json_close();
	return 0;
}

/* --stats: the fair bits the run took, on standard error. */
static int fdc_shuf_stats(const struct fdc_shuf *sh, struct fdc_engine *e,
			  u64 n, u64 k)
{
	struct fairdie_stats st;
	double need = fdc_shuf_log2(sh, n, k);
	u64 used = fdc_engine_bits_used(e);

	fprintf(stderr, "items:            %llu\n", (unsigned long long)n);
	if (sh->repeat)
		fprintf(stderr, "draws:            %llu (with repetition)\n",
			(unsigned long long)k);
	else
		fprintf(stderr, "%-18s%llu (%llu items each)\n",
			!strcmp(sh->unit, "sample") ? "samples:" :
			"permutations:", (unsigned long long)sh->times,
			(unsigned long long)k);
	fprintf(stderr, "%-18s%.2f bits per %s\n",
		sh->repeat ? "K log2(N):" : k == n ? "log2(N!):" :
		"log2(N!/(N-K)!):", need, sh->unit);
	if (!fdc_source_is_device(&e->src)) {
		double held = fdc_engine_bits_held(e), spent = used - held;

		/*
		 * The sampler takes in more than it spends: what its state
		 * holds at the end serves the next draws.
		 */
		fprintf(stderr, "fair bits used:   %.2f (%.2f per %s)\n", spent,
			spent / sh->times, sh->unit);
		fprintf(stderr, "fair bits taken:  %llu (%.2f of them held %s)\n",
			(unsigned long long)used, held,
			"in the sampler's state for later draws");
		fprintf(stderr, "fair bits read:   %llu (%llu bytes of %s)\n",
			(unsigned long long)e->bits_read,
			(unsigned long long)e->bits_read / 8, e->src.name);
		return 0;
	}
	memset(&st, 0, sizeof(st));
	if (fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_STATS, &st, "GET_STATS"))
		return -1;
	fprintf(stderr, "fair bits used:   %llu (%.2f per %s)\n",
		(unsigned long long)st.sampler_bits,
		(double)st.sampler_bits / sh->times, sh->unit);
	fprintf(stderr, "source_bits:      %llu\n",
		(unsigned long long)st.source_bits);
	fprintf(stderr, "extracted_bits:   %llu\n",
		(unsigned long long)st.extracted_bits);
	fprintf(stderr, "sampler_bits:     %llu\n",
		(unsigned long long)st.sampler_bits);
	return 0;
}

/* The checks that need the whole run's options. */
static int fdc_shuf_check(const struct fdc_config *cfg,
			  const struct fdc_shuf *sh)
{
	bool input_stdin = sh->input == FDC_SHUF_LINES &&
			   (!sh->file || !strcmp(sh->file, "-"));
	size_t i, len;
	u64 k;

	if (cfg->sides) {
		fdc_err("%s: --sides does not apply: the draws have the sizes of the input",
			sh->cmd);
		return -1;
	}
	if (input_stdin && cfg->user_source == FDC_USRC_FILE &&
	    !strcmp(cfg->random_file, "-")) {
		fdc_err("%s: standard input cannot hold both the lines and the random bits (--random-source=-): name a FILE, or use -e or -i",
			sh->cmd);
		return -1;
	}
	if (sh->several && sh->input != FDC_SHUF_RANGE) {
		fdc_err("%s: --count works with numbers (N or -i LO-HI), not with lines or -e",
			sh->cmd);
		return -1;
	}
	if (sh->several && sh->repeat) {
		fdc_err("%s: --count and --repeat exclude each other", sh->cmd);
		return -1;
	}
	/* A run is drawn in memory: name the limit, not the memory. */
	k = sh->head < sh->count ? sh->head : sh->count;
	if (sh->input == FDC_SHUF_RANGE && !sh->repeat &&
	    k > FDC_SHUF_MAX_ITEMS) {
		fdc_err("%s: %llu numbers to draw: at most %llu (2^32-1) in one run; -n COUNT draws fewer",
			sh->cmd, (unsigned long long)k, FDC_SHUF_MAX_ITEMS);
		return -1;
	}
	/* As for lines read: JSON strings are UTF-8, nothing is replaced. */
	for (i = 0; sh->json && sh->input == FDC_SHUF_ECHO && i < sh->nargs; i++) {
		len = strlen(sh->args[i]);
		if (fdc_utf8_check(sh->args[i], len) != len) {
			fdc_err("%s: argument %zu: invalid UTF-8 (--json needs UTF-8 text)",
				sh->cmd, i + 1);
			return -1;
		}
	}
	if (sh->json && sh->repeat && sh->head == UINT64_MAX) {
		fdc_err("%s: --json with --repeat needs --head-count: the output would not end",
			sh->cmd);
		return -1;
	}
	return 0;
}

/**
 * fdc_shuf_run() - shuffle or sample as @sh says
 * @cfg: the global options
 * @sh: the run, its options and operands parsed
 *
 * The source is opened first, so that a missing device fails at once; the
 * input is read whole; the output (-o) is opened after that, so that it
 * may be the input file, as with shuf.
 *
 * Return: the exit status.
 */
int fdc_shuf_run(const struct fdc_config *cfg, struct fdc_shuf *sh)
{
	struct fdc_lines lines = { 0 };
	struct fdc_shuf_out o = { .sh = sh, .lines = &lines };
	struct fdc_reservoir res = { 0 };
	struct fdc_engine eng;
	u64 n, k, t, i, *items = NULL, *pick = NULL;
	int ret = FDC_EXIT_FAILURE, more, fd;
	size_t len;
	/* A sample of lines needs only its own lines in memory. */
	bool stream = !sh->repeat && sh->head != UINT64_MAX;

	if (fdc_shuf_check(cfg, sh))
		return FDC_EXIT_USAGE;
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	/* A run of millions of draws shows them, then their output. */
	if (sh->times == 1) {
		eng.progress = fdc_progress;
		eng.progress_what = sh->cmd;
	}
	/* Without snprintf(): verify replays its draws one run each. */
	len = strnlen(sh->cmd, sizeof(o.writing) - sizeof(" (output)"));
	memcpy(o.writing, sh->cmd, len);
	memcpy(o.writing + len, " (output)", sizeof(" (output)"));
	switch (sh->input) {
	case FDC_SHUF_RANGE:
		n = sh->count;
		break;
	case FDC_SHUF_ECHO:
		n = sh->nargs;
		break;
	default:
		more = fdc_read_lines(sh, &lines,
				      stream ? FDC_SHUF_MEM_BYTES : 0, &fd);
		if (more < 0)
			goto out_free;
		if (more) {
			res.k = sh->head;
			if (fdc_reservoir_fill(sh, &eng, &lines, fd, &res))
				goto out_free;
			free(lines.buf);
			lines.buf = NULL;
			n = res.seen;
			break;
		}
		n = lines.n;
		break;
	}
	if (sh->repeat && !n && sh->head) {
		fdc_err("%s: no lines to repeat", sh->cmd);
		goto out_free;
	}
	k = sh->repeat ? sh->head : sh->head < n ? sh->head : n;

	/* The items: line starts, argument or number indexes. */
	if (res.line) {
		k = res.filled;
	} else if (!sh->repeat && sh->input == FDC_SHUF_LINES) {
		items = lines.start;
		lines.start = NULL;
	} else if (!sh->repeat && sh->input == FDC_SHUF_RANGE &&
		   (n > FDC_SHUF_MAX_ITEMS || n / 8 > k)) {
		/* Few of many numbers: only the positions moved are kept. */
		pick = malloc((k ? k : 1) * sizeof(*pick));
		if (!pick) {
			fdc_err("%s: out of memory for %llu values", sh->cmd,
				(unsigned long long)k);
			goto out_free;
		}
	} else if (!sh->repeat) {
		items = malloc((n ? n : 1) * sizeof(*items));
		if (!items) {
			fdc_err("%s: out of memory for %llu items", sh->cmd,
				(unsigned long long)n);
			goto out_free;
		}
	}

	o.f = fdc_shuf_open_output(sh);
	if (!o.f)
		goto out_free;
	fdc_progress_output(o.f);
	/* Not when the output is caught in memory (receipts, sealed draws). */
	if (o.f == stdout && fileno(stdout) >= 0)
		setvbuf(stdout, NULL, _IOFBF, 65536);
	if (sh->json) {
		fdc_json_begin(o.f);
		fdc_json_key(sh->input == FDC_SHUF_RANGE ? sh->json_key :
			     "lines");
		fdc_json_array();
	}
	for (t = 0; t < sh->times && !ferror_unlocked(o.f); t++) {
		fdc_progress(sh->cmd, t, sh->times);
		if (sh->json && sh->input == FDC_SHUF_RANGE)
			fdc_json_array();
		if (res.line) {
			for (i = 0; i < k; i++)
				fdc_shuf_put_line(&o, res.line[i], res.len[i]);
		} else if (sh->repeat) {
			if (fdc_shuf_repeat(&eng, &o, n, k))
				goto out_close;
		} else {
			/* Each run starts from the input in order. */
			if (items && sh->input != FDC_SHUF_LINES)
				for (i = 0; i < n; i++)
					items[i] = i;
			if (fdc_shuf_once(&eng, &o, items, pick, n, k))
				goto out_close;
		}
		if (sh->json && sh->input == FDC_SHUF_RANGE)
			fdc_json_close();
	}
	ret = FDC_EXIT_OK;
	/*
	 * fairdie.shuffle/1 and fairdie.sample/1: numbers and lines both
	 * there, and "stats" (null without --stats).
	 */
	if (sh->json) {
		fdc_json_close();
		fdc_json_key(sh->input == FDC_SHUF_RANGE ? "lines" :
			     sh->json_key);
		fdc_json_array();
		fdc_json_close();
		if (!sh->stats) {
			fdc_json_key("stats");
			fdc_json_value("null", 4);
		} else if (fdc_shuf_stats_json(sh, &eng, n, k)) {
			ret = FDC_EXIT_FAILURE;
		}
	}

out_close:
	fdc_progress_end();
	/* The JSON object ends in the output, before it is closed. */
	if (sh->json)
		fdc_json_end(ret);
	if (fdc_shuf_close_output(sh, o.f, !ret))
		ret = FDC_EXIT_FAILURE;
	/* -o FILE kept nothing of a failed run: the error goes to stdout. */
	if (ret && sh->json && sh->output)
		fdc_json_request();
	if (!ret && sh->stats && !sh->json && fdc_shuf_stats(sh, &eng, n, k))
		ret = FDC_EXIT_FAILURE;
out_free:
	fdc_reservoir_free(&res);
	free(items);
	free(pick);
	free(lines.start);
	free(lines.buf);
	fdc_engine_close(&eng);
	return ret;
}
