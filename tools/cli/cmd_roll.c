// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the commands that play: roll, shuffle, craps, roulette.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dice.h"
#include "games.h"

/* ------------------------------------------------------------------------
 * roll
 */

static const char fdc_roll_help[] =
"Usage: fairdie roll [OPTION]... [EXPR]...\n"
"Roll dice on /dev/fairdie and print one total per line.\n"
"\n"
"EXPR is a dice expression; several arguments are joined with blanks.\n"
"Without EXPR one die of --sides sides (default 6) is rolled.\n"
"  NdS      N dice of S sides each; N defaults to 1; d% is d100\n"
"  NdSkK    keep the K highest dice (also NdSkhK)\n"
"  NdSklK   keep the K lowest dice\n"
"  NdSx     exploding dice: a die showing its maximum is rolled again and\n"
"           the new face added, for as long as it shows the maximum\n"
"  NdSxT    exploding on T or more (2 <= T <= S): 2d10x9\n"
"  C        a constant; terms are added or subtracted: 2d8+1d4-1, d20 + 4\n"
"Explosions come before keeping: 4d6xk3 keeps the 3 highest exploded dice.\n"
"Numbers go up to 2^63-1; at most 1000000 dice per roll, explosions\n"
"included. When all the dice have one size, each die is one roll of the\n"
"device with its sides set to that size. When sizes are mixed (3d6+1d4),\n"
"each die is an exact draw of its own size from one uniform state fed with\n"
"fair bits (the device rolls 2^32 sides), so that changing sizes wastes\n"
"nothing: a die of S sides costs about log2(S) fair bits either way.\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       roll the expression COUNT times (default 1)\n"
"  -v, --verbose           show the dice after each total, as in\n"
"                          \"13<TAB>4d6k3[6 4 3 (1)]\": dropped dice in\n"
"                          parentheses, an exploded die as 6+6+2\n";

static const struct option fdc_roll_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The arguments joined with blanks, or "d<sides>". */
static char *fdc_roll_text(const struct fdc_config *cfg, int argc, char **argv)
{
	size_t len = 32;
	char *text;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	if (!argc) {
		snprintf(text, len, "d%llu",
			 (unsigned long long)(cfg->sides ? cfg->sides : 6));
		return text;
	}
	text[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(text, " ");
		strcat(text, argv[i]);
	}
	return text;
}

/**
 * fdc_cmd_roll() - fairdie roll
 * @cfg: the global options
 * @argc: argument count, argv[0] being "roll"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_roll(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_dice_expr expr;
	struct fdc_dev dev;
	u64 count = 1, i;
	bool verbose = false;
	char err[160], *text, *detail = NULL;
	size_t detail_len;
	FILE *trace = NULL;
	int c, ret = FDC_EXIT_FAILURE;
	s64 total;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_roll_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("roll", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fdc_help(fdc_roll_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	text = fdc_roll_text(cfg, argc - optind, argv + optind);
	if (!text) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	if (fdc_dice_parse(text, &expr, err, sizeof(err))) {
		fdc_err("roll: bad expression '%s': %s", text, err);
		free(text);
		return FDC_EXIT_USAGE;
	}
	free(text);

	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	/* Mixed sizes: read ahead what the draws will need. */
	if (expr.mixed)
		fdc_dev_draw_expect(&dev, (double)count * fdc_dice_bits(&expr));
	for (i = 0; i < count; i++) {
		if (verbose) {
			trace = open_memstream(&detail, &detail_len);
			if (!trace) {
				fdc_err("out of memory");
				goto out_close;
			}
		}
		if (fdc_dice_roll(&expr, &dev, &total, trace))
			goto out_close;
		if (trace) {
			fclose(trace);
			trace = NULL;
			printf("%lld\t%s\n", (long long)total, detail);
			free(detail);
			detail = NULL;
		} else {
			printf("%lld\n", (long long)total);
		}
		if (ferror(stdout))
			break;
	}
	ret = fdc_finish_output();

out_close:
	if (trace)
		fclose(trace);
	free(detail);
	fdc_dev_close(&dev);
	return ret;
}

/* ------------------------------------------------------------------------
 * shuffle
 */

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
"\n"
"Options:\n"
"  -n, --count=COUNT       print COUNT permutations of 1..N, one per line,\n"
"                          the numbers separated by blanks (not with '-')\n"
"      --stats             then print on standard error the fair bits used\n"
"                          and read, and the open file's counters\n";

/* --stats has no short form: a code that no short option uses. */
#define FDC_SHUFFLE_STATS	'S'

static const struct option fdc_shuffle_opts[] = {
	{ "count", required_argument, NULL, 'n' },
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

/* One permutation of 1..@n on one line, the numbers separated by blanks. */
static void fdc_print_perm_line(const u32 *perm, u64 n)
{
	char buf[8192];
	size_t len = 0;
	u64 i;

	for (i = 0; i < n; i++) {
		if (len > sizeof(buf) - 16) {
			fwrite(buf, 1, len, stdout);
			len = 0;
		}
		len += snprintf(buf + len, sizeof(buf) - len, i ? " %llu" : "%llu",
				(unsigned long long)perm[i] + 1);
	}
	buf[len++] = '\n';
	fwrite(buf, 1, len, stdout);
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
	bool from_stdin, stats = false, several = false;
	u32 *perm = NULL;
	u64 n, i, k, count = 1;
	int c, ret = FDC_EXIT_FAILURE;

	while ((c = fdc_getopt(cfg, argc, argv, "n:h", fdc_shuffle_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("shuffle", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			several = true;
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
	perm = malloc((n ? n : 1) * sizeof(*perm));
	if (!perm) {
		fdc_err("shuffle: out of memory for %llu items",
			(unsigned long long)n);
		goto out_free;
	}
	/* Read ahead what the shuffles will need, and no more. */
	fdc_dev_draw_expect(&dev, (double)count * fdc_log2_factorial(n));
	for (k = 0; k < count && !ferror(stdout); k++) {
		for (i = 0; i < n; i++)
			perm[i] = (u32)i;
		if (fdc_shuffle(&dev, perm, (u32)n))
			goto out_free;
		if (several) {
			fdc_print_perm_line(perm, n);
			continue;
		}
		for (i = 0; i < n && !ferror(stdout); i++) {
			if (from_stdin) {
				fwrite(lines.line[perm[i]], 1,
				       lines.len[perm[i]], stdout);
				putchar('\n');
			} else {
				printf("%llu\n", (unsigned long long)perm[i] + 1);
			}
		}
	}
	ret = fdc_finish_output();
	if (!ret && stats && fdc_shuffle_stats(&dev, n, count))
		ret = FDC_EXIT_FAILURE;

out_free:
	free(perm);
	fdc_lines_free(&lines);
out_close:
	fdc_dev_close(&dev);
	return ret;
}

/* ------------------------------------------------------------------------
 * craps
 */

static const char fdc_craps_help[] =
"Usage: fairdie craps [OPTION]...\n"
"Play craps with two d6 per throw (Knuth, TAOCP 3.6 exercise 3): the first\n"
"throw wins on 7 or 11 and loses on 2, 3 or 12; any other total is the\n"
"point, and the shooter throws again until the point (win) or 7 (loss).\n"
"Prints the games, wins, dice thrown, the measured win fraction and the\n"
"exact probability 244/495 = 0.492929... for comparison.\n"
"\n"
"Options:\n"
"  -n, --games=GAMES       play GAMES games (default 1000)\n"
"  -v, --verbose           print each game's throws first, as in\n"
"                          \"4+6 3+3 5+5 win\"\n";

static const struct option fdc_craps_opts[] = {
	{ "games", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * fdc_cmd_craps() - fairdie craps
 * @cfg: the global options
 * @argc: argument count, argv[0] being "craps"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_craps(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_dev dev;
	u64 games = 1000, wins = 0, dice = 0, i;
	double frac, exact, sd;
	bool verbose = false, win;
	int c;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_craps_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("craps", "GAMES", optarg, 1,
					    FDC_MAX_COUNT, &games))
				return FDC_EXIT_USAGE;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fdc_help(fdc_craps_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("craps: unexpected argument '%s'", argv[optind]);
		return FDC_EXIT_USAGE;
	}

	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	for (i = 0; i < games; i++) {
		if (fdc_craps_game(&dev, &win, &dice, verbose ? stdout : NULL)) {
			fdc_dev_close(&dev);
			return FDC_EXIT_FAILURE;
		}
		if (verbose)
			putchar('\n');
		wins += win;
	}
	fdc_dev_close(&dev);

	exact = (double)FDC_CRAPS_WIN_NUM / FDC_CRAPS_WIN_DEN;
	frac = (double)wins / games;
	sd = sqrt(exact * (1 - exact) / games);
	printf("games: %llu\n", (unsigned long long)games);
	printf("wins: %llu\n", (unsigned long long)wins);
	printf("dice thrown: %llu\n", (unsigned long long)dice);
	printf("win fraction: %.6f\n", frac);
	printf("exact: %.6f (%d/%d)\n", exact, FDC_CRAPS_WIN_NUM,
	       FDC_CRAPS_WIN_DEN);
	printf("difference: %+.6f (%.2f standard deviations)\n", frac - exact,
	       (frac - exact) / sd);
	return fdc_finish_output();
}

/* ------------------------------------------------------------------------
 * roulette
 */

static const char fdc_roulette_help[] =
"Usage: fairdie roulette [OPTION]...\n"
"Spin a European roulette wheel: 37 pockets, 0 (green) to 36, each one\n"
"roll of a 37-sided die. Prints the pocket and its colour, one spin per\n"
"line, e.g. \"17 black\".\n"
"\n"
"Options:\n"
"  -n, --spins=SPINS       spin SPINS times (default 1)\n";

static const struct option fdc_roulette_opts[] = {
	{ "spins", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * fdc_cmd_roulette() - fairdie roulette
 * @cfg: the global options
 * @argc: argument count, argv[0] being "roulette"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_roulette(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_dev dev;
	u64 spins = 1, i, pocket;
	int c;

	while ((c = fdc_getopt(cfg, argc, argv, "n:h", fdc_roulette_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("roulette", "SPINS", optarg, 1,
					    FDC_MAX_COUNT, &spins))
				return FDC_EXIT_USAGE;
			break;
		case 'h':
			fdc_help(fdc_roulette_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("roulette: unexpected argument '%s'", argv[optind]);
		return FDC_EXIT_USAGE;
	}

	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	for (i = 0; i < spins && !ferror(stdout); i++) {
		if (fdc_dev_rolls(&dev, FDC_ROULETTE_POCKETS, &pocket, 1)) {
			fdc_dev_close(&dev);
			return FDC_EXIT_FAILURE;
		}
		printf("%llu %s\n", (unsigned long long)pocket,
		       fdc_colour_name(fdc_roulette_colour(pocket)));
	}
	fdc_dev_close(&dev);
	return fdc_finish_output();
}
