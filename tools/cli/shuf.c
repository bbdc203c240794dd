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
 * @start: the offset in @buf of each line
 * @n: how many lines
 */
struct fdc_lines {
	char *buf;
	size_t len;
	u64 *start;
	u64 n;
};

/* All of @fd into @l->buf, plus room for one delimiter. */
static int fdc_read_all(const struct fdc_shuf *sh, int fd, const char *name,
			struct fdc_lines *l)
{
	size_t cap = 65536;
	struct stat st;
	ssize_t r;
	char *grown;

	/* A file says its size: one allocation of the right size. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0)
		cap = (size_t)st.st_size + 1;
	l->buf = malloc(cap);
	if (!l->buf)
		goto out_nomem;
	for (;;) {
		if (l->len + 1 >= cap) {
			cap *= 2;
			grown = realloc(l->buf, cap);
			if (!grown)
				goto out_nomem;
			l->buf = grown;
		}
		r = read(fd, l->buf + l->len, cap - 1 - l->len);
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
 * and with --json the check that each is UTF-8.
 */
static int fdc_read_lines(const struct fdc_shuf *sh, struct fdc_lines *l)
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
	ret = fdc_read_all(sh, fd, name_buf, l);
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

/* ------------------------------------------------------------------------
 * Output
 */

/**
 * struct fdc_shuf_out - where the items go
 * @f: the stream
 * @sh: the run
 * @lines: the input lines (FDC_SHUF_LINES)
 */
struct fdc_shuf_out {
	FILE *f;
	const struct fdc_shuf *sh;
	const struct fdc_lines *lines;
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

	while (done < k && !ferror(o->f)) {
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

	if (items) {
		if (fdc_shuffle(e, items, n, k))
			return -1;
		pick = items;
	} else if (fdc_sample(e, n, k, pick)) {
		return -1;
	}
	for (i = 0; i < k && !ferror(o->f); i++) {
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
	struct fdc_engine eng;
	u64 n, k, t, i, *items = NULL, *pick = NULL;
	int ret = FDC_EXIT_FAILURE;

	if (fdc_shuf_check(cfg, sh))
		return FDC_EXIT_USAGE;
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	switch (sh->input) {
	case FDC_SHUF_RANGE:
		n = sh->count;
		break;
	case FDC_SHUF_ECHO:
		n = sh->nargs;
		break;
	default:
		if (fdc_read_lines(sh, &lines))
			goto out_free;
		n = lines.n;
		break;
	}
	if (sh->repeat && !n && sh->head) {
		fdc_err("%s: no lines to repeat", sh->cmd);
		goto out_free;
	}
	k = sh->repeat ? sh->head : sh->head < n ? sh->head : n;

	/* The items: line starts, argument or number indexes. */
	if (!sh->repeat && sh->input == FDC_SHUF_LINES) {
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
	if (o.f == stdout)
		setvbuf(stdout, NULL, _IOFBF, 65536);
	if (sh->json) {
		fdc_json_begin(o.f);
		fdc_json_key(sh->input == FDC_SHUF_RANGE ? sh->json_key :
			     "lines");
		fdc_json_array();
	}
	for (t = 0; t < sh->times && !ferror(o.f); t++) {
		fdc_progress(sh->cmd, t, sh->times);
		if (sh->json && sh->input == FDC_SHUF_RANGE)
			fdc_json_array();
		if (sh->repeat) {
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
	if (!ret && sh->stats && fdc_shuf_stats(sh, &eng, n, k))
		ret = FDC_EXIT_FAILURE;
out_free:
	free(items);
	free(pick);
	free(lines.start);
	free(lines.buf);
	fdc_engine_close(&eng);
	return ret;
}
