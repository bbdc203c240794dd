// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie extract': fair output from your own loaded die.
 * Works on standard input alone; the device is not used.
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "extract.h"

static const char fdc_extract_help[] =
"Usage: fairdie extract --faces=K --method=METHOD [--sides=N | --bits] [OPTION]...\n"
"Read rolls 1..K of your own die or coin, possibly loaded, from standard\n"
"input and print fair output: rolls 1..N one per line (--sides=N), or a\n"
"bit string, 64 bits to a line (--bits, the default). The device is not\n"
"used. The rolls must be independent and identically distributed.\n"
"\n"
"Methods, all exactly unbiased for any fixed bias except hash:\n"
"  parity    pairs of rolls of different parity: bit 1 if the first is odd\n"
"  compare2  pairs of different faces (von Neumann on faces): bit 1 if the\n"
"            first is lower\n"
"  rank3     triples of distinct faces: their order, 6 equally likely\n"
"  rank3x    rank3, and triples with exactly two equal faces give the\n"
"            position of the odd one out, 3 equally likely\n"
"  dijkstra  blocks of P rolls, not all equal: which of its P rotations the\n"
"            block is (Dijkstra's roulette, on the faces), P equally likely\n"
"  tree      blocks of --block rolls (64) through a binarization tree over\n"
"            the faces, each node's bits ranked among their arrangements:\n"
"            near the die's entropy, e.g. 2.23 fair bits per roll of a d6\n"
"            weighted 1,1,2,2,1,1 (H = 2.5); the best method for a loaded\n"
"            die\n"
"  hash      SHA-256 of blocks of rolls holding twice as much declared\n"
"            min-entropy as the 256 bits it outputs per block. NOT exactly\n"
"            unbiased: only as good as the --min-entropy you declare\n"
"  none      the die is fair already: each roll is a base-K digit\n"
"The bits, trits and base-6 or base-P digits become rolls of N sides\n"
"through the kernel module's exact sampler with randomness recycling,\n"
"never by converting a bit string to base N by division.\n"
"\n"
"Options:\n"
"  -k, --faces=K           faces of the input die, 2 to 4294967296\n"
"  -m, --method=METHOD     parity, compare2, rank3, rank3x, dijkstra, tree,\n"
"                          hash or none\n"
"      --sides=N           print rolls 1..N, N from 2 to 2^64-1\n"
"  -b, --bits              print bits (the default)\n"
"  -c, --count=K           stop after K outputs (rolls or bits)\n"
"  -z, --zero              the faces are 0..K-1 (a d10 labelled 0 to 9)\n"
"  -p, --prime=P           dijkstra: the block length, a prime up to 61\n"
"                          (default: 5 for a coin, 3 for more faces)\n"
"      --block=N           tree: rolls per block, 2 to 64 (default 64);\n"
"                          shorter blocks answer sooner, extract less\n"
"      --json              print {\"schema\": \"fairdie.extract/1\", \"method\":\n"
"                          ..., \"bits\": \"...\", \"rolls\": [...], and the counts}\n"
"  -H, --min-entropy=H     hash: bits of min-entropy per roll you vouch\n"
"                          for, above 0 and at most log2(K); required\n"
"  -v, --verbose           print what went in and out on standard error\n"
"\n"
"Input: decimal numbers 1..K (0..K-1 with --zero) separated by blanks or\n"
"newlines; for a die of at most 9 faces (10 with --zero) a run of digits\n"
"such as 123456 is one roll per digit. '#' starts a comment that runs to\n"
"the end of the line. Anything else stops extract with an error naming the\n"
"line (exit status 1); what was printed before stays. Each output is\n"
"written as soon as it is determined. Rolls of an unfinished block at the\n"
"end are left unused; when nothing comes out, standard error says why.\n"
"\n"
"extract uses no source of random bits: --device, --source, --extractor,\n"
"--sim, --random-source and --seed do not apply to it.\n";

static const struct option fdc_extract_opts[] = {
	{ "faces", required_argument, NULL, 'k' },
	{ "method", required_argument, NULL, 'm' },
	{ "bits", no_argument, NULL, 'b' },
	{ "count", required_argument, NULL, 'c' },
	{ "zero", no_argument, NULL, 'z' },
	{ "block", required_argument, NULL, 'B' },
	{ "json", no_argument, NULL, 'J' },
	{ "prime", required_argument, NULL, 'p' },
	{ "min-entropy", required_argument, NULL, 'H' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * struct fdc_printer - prints the sink's output
 * @bits: as a bit string, else as rolls 1..N
 * @json: as JSON
 * @column: bits on the current line
 * @printed: outputs printed
 * @count: stop after this many, 0 for no limit
 */
struct fdc_printer {
	bool bits;
	bool json;
	unsigned int column;
	u64 printed;
	u64 count;
};

static void fdc_print_value(void *ctx, u64 v)
{
	struct fdc_printer *p = ctx;
	char c = '0' + (int)v;

	if (p->count && p->printed == p->count)
		return;
	if (p->json && !p->bits) {
		fdc_json_u64(v + 1);
	} else if (p->json) {
		fdc_json_raw(&c, 1);
	} else if (!p->bits) {
		printf("%llu\n", (unsigned long long)v + 1);
	} else {
		putchar(c);
		if (++p->column == 64) {
			putchar('\n');
			p->column = 0;
		}
	}
	p->printed++;
}

/**
 * struct fdc_input - standard input, read so that output never waits, and
 *	checked to be text
 * @buf: bytes read
 * @pos: the next one
 * @len: how many
 * @eof: the end was reached
 * @err: errno of a failed read, or 0
 * @line: the line of the next byte, from 1
 * @utf8: the UTF-8 check of the input so far
 * @bad: why the input is not text (a NUL byte, invalid UTF-8), or NULL
 * @size: the bytes of standard input when it is a regular file, for the
 *	progress meter; 0 otherwise
 * @done: the bytes read
 */
struct fdc_input {
	char buf[4096];
	size_t pos;
	size_t len;
	bool eof;
	int err;
	u64 line;
	struct fdc_utf8 utf8;
	const char *bad;
	u64 size;
	u64 done;
};

/* fdc_input_getc() met input that is not text: @in->bad says why. */
#define FDC_INPUT_BAD	(EOF - 1)

/* The next byte from standard input, or EOF. */
static int fdc_input_byte(struct fdc_input *in)
{
	ssize_t r;

	if (in->pos < in->len)
		return (unsigned char)in->buf[in->pos++];
	if (in->eof)
		return EOF;
	/* Before waiting for more input, what was printed goes out. */
	fflush(stdout);
	do {
		r = read(STDIN_FILENO, in->buf, sizeof(in->buf));
	} while (r < 0 && errno == EINTR);
	if (r <= 0) {
		in->eof = true;
		in->err = r < 0 ? errno : 0;
		return EOF;
	}
	in->pos = 1;
	in->len = r;
	in->done += r;
	if (in->size)
		fdc_progress("extract", in->done & ~4095ULL, in->size);
	return (unsigned char)in->buf[0];
}

/*
 * The next byte, or EOF, or FDC_INPUT_BAD when the input is not text: a
 * NUL byte or invalid UTF-8, wherever it is, comments included. Each
 * output appears as soon as the rolls that decide it are typed.
 */
static int fdc_input_getc(struct fdc_input *in)
{
	int c = fdc_input_byte(in);

	if (c == EOF || c == '\n') {
		if (in->utf8.need) {
			in->bad = "invalid UTF-8";
			return FDC_INPUT_BAD;
		}
		return c;
	}
	if (!c) {
		in->bad = "a NUL byte";
		return FDC_INPUT_BAD;
	}
	if (!fdc_utf8_feed(&in->utf8, c)) {
		in->bad = "invalid UTF-8";
		return FDC_INPUT_BAD;
	}
	return c;
}

/* A comment, from '#' to the end of the line. */
static int fdc_skip_comment(struct fdc_input *in, int c)
{
	while (c >= 0 && c != '\n')
		c = fdc_input_getc(in);
	return c;
}

/*
 * The next blank-separated token: 1, or 0 at the end of the input, or -1
 * after printing an error (input that is not text, a read error). A token
 * too long for @tok is cut and marked with a trailing "...", which no
 * number parses. CR is a blank, so that CRLF lines read as LF lines.
 */
static int fdc_next_token(struct fdc_input *in, char *tok, size_t size,
			  u64 *tok_line)
{
	size_t n = 0;
	bool cut = false;
	int c;

	for (;;) {
		c = fdc_input_getc(in);
		if (c == '#')
			c = fdc_skip_comment(in, c);
		if (c == '\n')
			in->line++;
		if (c < 0 || !isspace(c))
			break;
	}
	*tok_line = in->line;
	while (c >= 0 && !isspace(c) && c != '#') {
		if (n + 4 < size)
			tok[n++] = (char)c;
		else
			cut = true;
		c = fdc_input_getc(in);
	}
	if (c == '#')
		c = fdc_skip_comment(in, c);
	if (c == FDC_INPUT_BAD) {
		fdc_err("extract: line %llu: %s (the input must be text)",
			(unsigned long long)in->line, in->bad);
		return -1;
	}
	if (c == '\n')
		in->line++;
	tok[n] = '\0';
	if (cut)
		strcat(tok, "...");
	if (!n && in->err) {
		fdc_err("extract: standard input: %s", strerror(in->err));
		return -1;
	}
	return n ? 1 : 0;
}

static int fdc_extract_stream(struct fdc_extract *x, bool zero,
			      const struct fdc_printer *p)
{
	static struct fdc_input in = { .line = 1 };
	struct stat st;
	char tok[128];
	u64 tok_line, face, first = zero ? 0 : 1;
	/* Runs of digits are rolls one digit each when every face is one. */
	bool digits = x->faces - 1 + first <= 9;
	size_t i, len;
	int err, got;

	/* From a file, the bytes read show the progress. */
	if (!fstat(STDIN_FILENO, &st) && S_ISREG(st.st_mode)) {
		in.size = st.st_size;
		fdc_progress("extract", 0, in.size);
	}
	while ((got = fdc_next_token(&in, tok, sizeof(tok), &tok_line)) > 0) {
		len = strlen(tok);
		for (i = 0; i < len; i++) {
			if (digits && len > 1 && tok[i] >= '0' && tok[i] <= '9') {
				face = tok[i] - '0';
				err = 0;
			} else {
				err = fdc_parse_u64(tok, &face);
				i = len;
			}
			if (err || face < first || face - first >= x->faces) {
				fdc_err("extract: line %llu: '%s' is not %s (expected %llu to %llu)",
					(unsigned long long)tok_line,
					fdc_quote(tok),
					err == -EINVAL ? "a number" : "a face of the die",
					(unsigned long long)first,
					(unsigned long long)(x->faces - 1 + first));
				return -1;
			}
			fdc_extract_feed(x, face - first);
			if (ferror(stdout) || (p->count && p->printed == p->count))
				return 0;
		}
	}
	return got;
}

/* Nothing came out: say why, on standard error. */
static void fdc_extract_why(const struct fdc_extract *x,
			    const struct fdc_sink *sink, bool bits)
{
	const char *m = fdc_method_name(x->method);

	if (!x->rolls) {
		fdc_err("extract: no output: the input holds no rolls");
	} else if (x->method == FDC_METHOD_HASH && !x->used) {
		fdc_err("extract: no output: a hash block takes %llu rolls at this --min-entropy, the input has %llu",
			(unsigned long long)x->hash_rolls,
			(unsigned long long)x->rolls);
	} else if (x->block > 1 && !x->used) {
		fdc_err("extract: no output: %s takes blocks of %u rolls, the input has %llu",
			m, x->block, (unsigned long long)x->rolls);
	} else if (!x->digits) {
		fdc_err("extract: no output: none of the %llu blocks of %s was usable (%s)",
			(unsigned long long)(x->used / x->block), m,
			x->method == FDC_METHOD_PARITY ? "each pair had rolls of the same parity" :
			x->method == FDC_METHOD_COMPARE2 ? "each pair had equal rolls" :
			x->method == FDC_METHOD_RANK3 ? "no triple of distinct rolls" :
			"the rolls of each block were all equal");
	} else if (!bits) {
		fdc_err("extract: no output: %.2f fair bits came out of %s, not enough for one roll of %llu sides",
			x->bits, m, (unsigned long long)sink->sides);
	}
}

/**
 * fdc_cmd_extract() - fairdie extract
 * @cfg: the global options; --sides is the output's
 * @argc: argument count, argv[0] being "extract"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_extract(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_printer printer = { 0 };
	struct fdc_extract x;
	struct fdc_sink sink;
	u64 faces = 0, prime = 0, block = 0, sides;
	double min_entropy = 0;
	bool bits = false, verbose = false, have_h = false, is_hash, zero = false;
	int c, method = -1, ret;
	char *end;

	while ((c = fdc_getopt(cfg, argc, argv, "k:m:bc:zp:H:vh",
			       fdc_extract_opts)) != -1) {
		switch (c) {
		case 'k':
			if (fdc_parse_count("extract", "--faces", optarg, 2,
					    FDC_EXTRACT_MAX_FACES, &faces))
				return FDC_EXIT_USAGE;
			break;
		case 'm':
			method = fdc_method_parse(optarg);
			if (method < 0) {
				fdc_err("extract: invalid --method '%s': expected parity, compare2, rank3, rank3x, dijkstra, tree, hash or none",
					fdc_quote(optarg));
				return FDC_EXIT_USAGE;
			}
			break;
		case 'b':
			bits = true;
			break;
		case 'c':
			if (fdc_parse_count("extract", "--count", optarg, 1,
					    UINT64_MAX, &printer.count))
				return FDC_EXIT_USAGE;
			break;
		case 'z':
			zero = true;
			break;
		case 'B':
			if (fdc_parse_count("extract", "--block", optarg, 2,
					    FDC_TREE_MAX_BLOCK, &block))
				return FDC_EXIT_USAGE;
			break;
		case 'J':
			printer.json = true;
			break;
		case 'p':
			if (fdc_parse_u64(optarg, &prime) || !fdc_is_prime(prime) ||
			    prime > FDC_EXTRACT_MAX_PRIME) {
				fdc_err("extract: invalid --prime '%s': expected a prime from 2 to %d",
					fdc_quote(optarg), FDC_EXTRACT_MAX_PRIME);
				return FDC_EXIT_USAGE;
			}
			break;
		case 'H':
			errno = 0;
			min_entropy = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(min_entropy > 0) || !isfinite(min_entropy)) {
				fdc_err("extract: invalid --min-entropy '%s': expected a number of bits above 0",
					fdc_quote(optarg));
				return FDC_EXIT_USAGE;
			}
			have_h = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fdc_help(fdc_extract_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("extract: unexpected argument '%s' (the rolls are read from standard input)",
			fdc_quote(argv[optind]));
		return FDC_EXIT_USAGE;
	}
	/*
	 * An option that names a source does not apply; FAIRDIE_SOURCE, the
	 * default source of the other commands, has nothing to say here.
	 */
	if (cfg->source_opt || cfg->device_opts) {
		fdc_err("extract: --device, --source, --extractor, --sim, --random-source and --seed do not apply: the output is made from the rolls on standard input");
		return FDC_EXIT_USAGE;
	}
	if (!faces || method < 0) {
		fdc_err("extract: --faces and --method are required (try 'fairdie extract --help')");
		return FDC_EXIT_USAGE;
	}
	if (bits && cfg->sides) {
		fdc_err("extract: --sides and --bits exclude each other");
		return FDC_EXIT_USAGE;
	}
	if (cfg->sides == 1) {
		fdc_err("extract: --sides must be at least 2");
		return FDC_EXIT_USAGE;
	}
	if (prime && method != FDC_METHOD_DIJKSTRA) {
		fdc_err("extract: --prime is for --method=dijkstra only");
		return FDC_EXIT_USAGE;
	}
	if (block && method != FDC_METHOD_TREE) {
		fdc_err("extract: --block is for --method=tree only");
		return FDC_EXIT_USAGE;
	}
	if (block)
		prime = block;
	is_hash = method == FDC_METHOD_HASH;
	if (have_h != is_hash) {
		fdc_err(have_h ? "extract: --min-entropy is for --method=hash only" :
			"extract: --method=hash needs --min-entropy=H, the bits of min-entropy per roll");
		return FDC_EXIT_USAGE;
	}
	if (have_h && min_entropy > log2((double)faces) + FDC_ENTROPY_SLACK) {
		fdc_err("extract: --min-entropy %g is more than a %llu-faced die can hold (log2 %llu = %.4f bits)",
			min_entropy, (unsigned long long)faces,
			(unsigned long long)faces, log2((double)faces));
		return FDC_EXIT_USAGE;
	}
	if (have_h && !fdc_hash_block_rolls(min_entropy)) {
		fdc_err("extract: --min-entropy %g needs blocks of more than %llu rolls",
			min_entropy, FDC_HASH_MAX_BLOCK);
		return FDC_EXIT_USAGE;
	}

	sides = cfg->sides ? cfg->sides : 2;
	printer.bits = !cfg->sides;
	if (fdc_extract_init(&x, method, faces, (unsigned int)prime,
			     min_entropy, fdc_sink_digit, &sink) ||
	    fdc_sink_init(&sink, sides, fdc_extract_max_base(&x),
			  fdc_extract_single_base(&x), fdc_print_value,
			  &printer)) {
		fdc_err("extract: cannot set up method %s", fdc_method_name(method));
		return FDC_EXIT_USAGE;
	}

	if (printer.json) {
		fdc_json_begin(stdout);
		fdc_json_key("method");
		fdc_json_str(fdc_method_name(method));
		fdc_json_key(printer.bits ? "bits" : "rolls");
		if (printer.bits)
			fdc_json_string_open();
		else
			fdc_json_array();
	}
	ret = fdc_extract_stream(&x, zero, &printer) ? FDC_EXIT_FAILURE :
	      FDC_EXIT_OK;
	fdc_progress_end();
	if (!ret)
		fdc_sink_finish(&sink);
	if (printer.json) {
		/*
		 * Also after a failure: what came out before it, and the
		 * counts. fairdie.extract/1 has both "bits" and "rolls".
		 */
		fdc_json_close();
		fdc_json_key(printer.bits ? "rolls" : "bits");
		if (printer.bits)
			fdc_json_array();
		else
			fdc_json_string_open();
		fdc_json_close();
		fdc_json_key("rolls_in");
		fdc_json_u64(x.rolls);
		fdc_json_key("fair_bits");
		fdc_json_number(x.bits);
		fdc_json_key("outputs");
		fdc_json_u64(printer.printed);
	}
	if (printer.column)
		putchar('\n');
	if (!ret && !printer.printed)
		fdc_extract_why(&x, &sink, printer.bits);
	if (verbose)
		fprintf(stderr,
			"extract: method %s: %llu rolls in, %llu left over; %.2f fair bits (%.4f per roll); %llu %s out (%.4f rolls in per output)\n",
			fdc_method_name(method), (unsigned long long)x.rolls,
			(unsigned long long)(x.rolls - x.used), x.bits,
			x.rolls ? x.bits / x.rolls : 0.0,
			(unsigned long long)printer.printed,
			printer.bits ? "bits" : "rolls",
			printer.printed ? (double)x.rolls / printer.printed : 0.0);
	if (fdc_finish_output())
		return FDC_EXIT_FAILURE;
	return ret;
}
