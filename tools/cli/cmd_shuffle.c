// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie shuffle': a fair permutation of 1..N or of the
 * lines of standard input.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "games.h"

static const char fdc_shuffle_help[] =
"Usage: fairdie shuffle [OPTION]... N\n"
"  or:  fairdie shuffle [OPTION]... -\n"
"Print a uniformly random permutation of 1..N, one number per line, or\n"
"with '-' of the lines of standard input.\n"
"\n"
"Durstenfeld's version of the Fisher-Yates shuffle: for i from N down to 2,\n"
"the item at position i is swapped with the one at a position drawn from\n"
"1..i. The draws are exact, so every permutation is exactly equally likely.\n"
"They share one uniform state fed with fair bits (the device rolls 2^32\n"
"sides, 32 fair bits a roll), so a shuffle costs about log2(N!) fair bits:\n"
"about 238 for 52 cards, where log2(52!) = 225.6. N is at most 4294967295.\n"
"With -n K only the first K items are drawn (a partial shuffle, as\n"
"'fairdie sample K N'), for about log2(N!/(N-K)!) bits.\n"
"\n"
"Options:\n"
"  -n, --head-count=K      print only the first K items of the permutation\n"
"      --count=COUNT       print COUNT permutations of 1..N, one per line,\n"
"                          the numbers separated by blanks (not with '-')\n"
"      --stats             then print on standard error the fair bits used\n"
"                          and read, and the open file's counters\n"
"      --json              print {\"permutations\": [[...]]}, or with '-'\n"
"                          {\"lines\": [...]}\n";

/* Long options without a short form: codes no short option uses. */
#define FDC_SHUFFLE_STATS	'S'
#define FDC_SHUFFLE_COUNT	'C'
#define FDC_SHUFFLE_JSON	'J'

static const struct option fdc_shuffle_opts[] = {
	{ "head-count", required_argument, NULL, 'n' },
	{ "count", required_argument, NULL, FDC_SHUFFLE_COUNT },
	{ "json", no_argument, NULL, FDC_SHUFFLE_JSON },
	{ "stats", no_argument, NULL, FDC_SHUFFLE_STATS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * struct fdc_lines - the lines of a stream
 * @line: each line, without its newline
 * @len: its length
 * @n: lines held
 * @cap: room
 */
struct fdc_lines {
	char **line;
	size_t *len;
	size_t n;
	size_t cap;
};

static void fdc_lines_free(struct fdc_lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	free(l->len);
}

static int fdc_lines_read(FILE *in, struct fdc_lines *l)
{
	char *buf = NULL;
	size_t size = 0;
	ssize_t got;

	memset(l, 0, sizeof(*l));
	while ((got = getline(&buf, &size, in)) >= 0) {
		if (got && buf[got - 1] == '\n')
			buf[--got] = '\0';
		if (l->n == UINT32_MAX) {
			fdc_err("shuffle: more than %u lines", UINT32_MAX);
			goto out_free;
		}
		if (l->n == l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 256;
			char **line = realloc(l->line, cap * sizeof(*line));
			size_t *len;

			if (line)
				l->line = line;
			len = line ? realloc(l->len, cap * sizeof(*len)) : NULL;
			if (!len)
				goto out_nomem;
			l->len = len;
			l->cap = cap;
		}
		l->line[l->n] = buf;
		l->len[l->n++] = got;
		buf = NULL;
		size = 0;
	}
	free(buf);
	if (ferror(in)) {
		fdc_err("shuffle: standard input: %s", strerror(errno));
		fdc_lines_free(l);
		return -1;
	}
	return 0;

out_nomem:
	fdc_err("out of memory");
out_free:
	free(buf);
	fdc_lines_free(l);
	return -1;
}

/* What --stats prints: the draws' bits, then the open file's counters. */
static int fdc_shuffle_stats(struct fdc_dev *dev, u64 n, u64 count)
{
	const struct fdc_draw *d = &dev->draw;
	struct fairdie_stats st;

	if (fflush(stdout))
		return -1;
	fprintf(stderr, "items:            %llu\n", (unsigned long long)n);
	fprintf(stderr, "permutations:     %llu\n", (unsigned long long)count);
	fprintf(stderr, "log2(N!):         %.2f bits per permutation\n",
		fdc_log2_factorial(n));
	fprintf(stderr, "draws:            %llu\n",
		(unsigned long long)d->draws);
	fprintf(stderr, "fair bits used:   %llu (%.2f per permutation)\n",
		(unsigned long long)d->bits_used, (double)d->bits_used / count);
	fprintf(stderr, "fair bits read:   %llu (%llu rolls of 2^%u sides)\n",
		(unsigned long long)d->bits_read,
		(unsigned long long)(d->bits_read / d->digit_bits),
		d->digit_bits);
	/* The test double has no counters. */
	if (dev->fd < 0)
		return 0;
	memset(&st, 0, sizeof(st));
	if (fdc_dev_ioctl(dev, FAIRDIE_IOC_GET_STATS, &st, "GET_STATS"))
		return -1;
	fprintf(stderr, "source_bits:      %llu\n",
		(unsigned long long)st.source_bits);
	fprintf(stderr, "extracted_bits:   %llu\n",
		(unsigned long long)st.extracted_bits);
	fprintf(stderr, "sampler_bits:     %llu\n",
		(unsigned long long)st.sampler_bits);
	return 0;
}

/**
 * fdc_cmd_shuffle() - fairdie shuffle
 * @cfg: the global options
 * @argc: argument count, argv[0] being "shuffle"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_shuffle(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_lines lines = { 0 };
	struct fdc_dev dev;
	bool from_stdin, stats = false, several = false, json = false;
	bool partial;
	u32 *perm = NULL;
	u64 n, i, k, count = 1, head = UINT64_MAX, shown, *pick = NULL, item;
	int c, ret = FDC_EXIT_FAILURE;

	while ((c = fdc_getopt(cfg, argc, argv, "n:h", fdc_shuffle_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("shuffle", "K", optarg, 0,
					    UINT32_MAX, &head))
				return FDC_EXIT_USAGE;
			break;
		case FDC_SHUFFLE_COUNT:
			if (fdc_parse_count("shuffle", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			several = true;
			break;
		case FDC_SHUFFLE_JSON:
			json = true;
			break;
		case FDC_SHUFFLE_STATS:
			stats = true;
			break;
		case 'h':
			fdc_help(fdc_shuffle_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fdc_err("shuffle: expected one argument, N or '-' (try 'fairdie shuffle --help')");
		return FDC_EXIT_USAGE;
	}
	if (cfg->sides) {
		fdc_err("shuffle: --sides does not apply: a shuffle draws its own sizes");
		return FDC_EXIT_USAGE;
	}
	from_stdin = !strcmp(argv[optind], "-");
	if (from_stdin && several) {
		fdc_err("shuffle: --count works with N, not with '-'");
		return FDC_EXIT_USAGE;
	}
	if (!from_stdin && fdc_parse_count("shuffle", "N", argv[optind], 0,
					   UINT32_MAX, &n))
		return FDC_EXIT_USAGE;

	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	if (from_stdin) {
		if (fdc_lines_read(stdin, &lines))
			goto out_close;
		n = lines.n;
	}
	/* A partial shuffle draws only the first K items. */
	partial = head < n;
	shown = partial ? head : n;
	perm = malloc((n ? n : 1) * sizeof(*perm));
	pick = malloc((shown ? shown : 1) * sizeof(*pick));
	if (!perm || !pick) {
		fdc_err("shuffle: out of memory for %llu items",
			(unsigned long long)n);
		goto out_free;
	}
	/* Read ahead what the shuffles will need, and no more. */
	fdc_dev_draw_expect(&dev, (double)count * (partial ?
			    fdc_log2_falling(n, head) : fdc_log2_factorial(n)));
	if (json)
		printf(from_stdin ? "{\"lines\": [" : "{\"permutations\": [");
	for (k = 0; k < count && !ferror(stdout); k++) {
		fdc_progress("shuffle", k, count);
		if (partial) {
			if (fdc_sample(&dev, n, head, pick, k + 1 == count))
				goto out_free;
		} else {
			for (i = 0; i < n; i++)
				perm[i] = (u32)i;
			if (fdc_shuffle(&dev, perm, (u32)n))
				goto out_free;
			for (i = 0; i < n; i++)
				pick[i] = perm[i];
		}
		if (json && !from_stdin)
			printf("%s[", k ? ", " : "");
		for (i = 0; i < shown && !ferror(stdout); i++) {
			item = pick[i];
			if (json && from_stdin) {
				printf("%s", i ? ", " : "");
				fdc_json_bytes(lines.line[item], lines.len[item]);
			} else if (json) {
				printf("%s%llu", i ? ", " : "",
				       (unsigned long long)item + 1);
			} else if (from_stdin) {
				fwrite(lines.line[item], 1, lines.len[item],
				       stdout);
				putchar('\n');
			} else {
				printf(several ? (i ? " %llu" : "%llu") : "%llu\n",
				       (unsigned long long)item + 1);
			}
		}
		if (json && !from_stdin)
			putchar(']');
		else if (several && !json)
			putchar('\n');
	}
	fdc_progress_end();
	if (json)
		printf("]}\n");
	ret = fdc_finish_output();
	if (!ret && stats && fdc_shuffle_stats(&dev, n, count))
		ret = FDC_EXIT_FAILURE;

out_free:
	free(pick);
	free(perm);
	fdc_lines_free(&lines);
out_close:
	fdc_dev_close(&dev);
	return ret;
}
