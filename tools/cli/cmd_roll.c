// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie roll': dice expressions, and with --stats the
 * histogram of many rolls beside the exact distribution.
 */

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dice.h"
#include "fd_chi2.h"

static const char fdc_roll_help[] =
"Usage: fairdie roll [OPTION]... [EXPR]...\n"
"Roll dice and print one line per expression: its total, or with NxEXPR\n"
"N totals separated by blanks. Without EXPR, the expressions are read from\n"
"standard input, one per line ('#' starts a comment); with --sides=N and\n"
"no EXPR, one die of N sides is rolled.\n"
"\n"
"Expressions (several arguments that join with '+', '-', '*' or '/' make\n"
"one expression, as in 2d6 + 3; otherwise each is its own):\n"
"  NdS      N dice of S sides each; N defaults to 1; d% is d100\n"
"  NdF      fudge dice: faces -1, 0 and +1\n"
"  NdSkK    keep the K highest dice (also NdSkhK); NdSklK keeps the lowest\n"
"  NdSdK    drop the K lowest dice (also NdSdlK); NdSdhK drops the highest\n"
"  NdSx     exploding dice (also NdS!): a die showing its maximum is rolled\n"
"           again and the new face added, for as long as it shows the\n"
"           maximum; NdSxT explodes on T or more: 2d10x9\n"
"  NdSrV    reroll a die showing V until it shows something else; also\n"
"           r<V, r<=V, r>V, r>=V: 4d6r<3\n"
"  NdS>=T   a success pool: count the dice showing T or more (also >, <=,\n"
"           <, =): 10d10>=8\n"
"  C        a constant; terms are added or subtracted: 2d8+1d4-1, d20 + 4\n"
"  *C, /C   multiply or divide a term by a constant, rounding toward zero:\n"
"           3d6*100, d20/2\n"
"  NxEXPR   N totals of EXPR on one line: 6x4d6k3\n"
"Explosions come before keeping: 4d6xk3 keeps the 3 highest exploded dice.\n"
"Numbers go up to 2^63-1; at most 1000000 dice per roll, explosions and\n"
"rerolls included. When all the dice have one size, each die is one roll\n"
"of that size. When sizes are mixed (3d6+1d4), each die is an exact draw\n"
"of its own size from one uniform state fed with fair bits, so that\n"
"changing sizes wastes nothing: a die of S sides costs about log2(S) fair\n"
"bits either way.\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       roll each expression COUNT times, one line each\n"
"                          (default 1)\n"
"  -v, --verbose           show the dice after each total, as in\n"
"                          \"13<TAB>4d6k3[6 4 3 (1)]\": dropped dice in\n"
"                          parentheses, an exploded die as 6+6+2\n"
"      --stats             instead of the totals, print how often each\n"
"                          total came in COUNT rolls beside its exact\n"
"                          probability, and a chi-square test of the two\n"
"      --json              print {\"rolls\": [{\"expr\": ..., \"totals\": [...]}]}\n"
"                          (with --stats, the histogram and the test)\n"
"      --weights=W1,W2,... instead of EXPR, draw faces 1..K of a loaded die,\n"
"                          face i with probability exactly Wi / (W1 + ... + WK)\n"
"                          (integer weights, 0 for never; see fairdie pick)\n";

/* Long options without a short form: codes no short option uses. */
#define FDC_ROLL_STATS	'S'
#define FDC_ROLL_JSON	'J'
#define FDC_ROLL_WEIGHTS	'W'

static const struct option fdc_roll_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "stats", no_argument, NULL, FDC_ROLL_STATS },
	{ "json", no_argument, NULL, FDC_ROLL_JSON },
	{ "weights", required_argument, NULL, FDC_ROLL_WEIGHTS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * struct fdc_roll - what one run of roll does
 * @dev: where the dice come from
 * @count: rolls of each expression
 * @verbose: show the dice
 * @stats: print the histogram instead
 * @json: as JSON
 * @nexpr: expressions done so far
 */
struct fdc_roll {
	struct fdc_engine dev;
	u64 count;
	bool verbose;
	bool stats;
	bool json;
	u64 nexpr;
};

static void fdc_json_string(const char *s)
{
	fdc_json_bytes(s, strlen(s));
}

/* One total of @e, with its dice in *@detail when verbose. */
static int fdc_roll_once(struct fdc_roll *r, const struct fdc_dice_expr *e,
			 s64 *total, char **detail)
{
	size_t len;
	FILE *trace = NULL;
	int ret;

	*detail = NULL;
	if (r->verbose) {
		trace = open_memstream(detail, &len);
		if (!trace) {
			fdc_err("out of memory");
			return -1;
		}
	}
	ret = fdc_dice_roll(e, &r->dev, total, trace);
	if (trace)
		fclose(trace);
	return ret;
}

/* Print COUNT lines of @e. */
static int fdc_roll_lines(struct fdc_roll *r, const char *text,
			  const struct fdc_dice_expr *e)
{
	u64 i, j;
	s64 total;
	char *detail;

	if (r->json) {
		printf("%s{\"expr\": ", r->nexpr ? ", " : "");
		fdc_json_string(text);
		printf(", \"totals\": [");
	}
	for (i = 0; i < r->count && !ferror(stdout); i++) {
		fdc_progress("roll", i, r->count);
		if (r->json && e->repeat > 1)
			printf("%s[", i ? ", " : "");
		for (j = 0; j < e->repeat; j++) {
			if (fdc_roll_once(r, e, &total, &detail))
				return -1;
			if (r->json) {
				fputs((e->repeat == 1 ? i : j) ? ", " : "", stdout);
				if (detail) {
					printf("{\"total\": %lld, \"dice\": ",
					       (long long)total);
					fdc_json_string(detail);
					putchar('}');
				} else {
					printf("%lld", (long long)total);
				}
			} else {
				printf("%s%lld", j ? " " : "", (long long)total);
				if (detail)
					printf("\t%s", detail);
			}
			free(detail);
		}
		if (r->json && e->repeat > 1)
			putchar(']');
		else if (!r->json)
			putchar('\n');
	}
	fdc_progress_end();
	if (r->json)
		printf("]}");
	return 0;
}

/*
 * Pearson's test of @hist against @d: neighbouring totals are pooled
 * until each bin expects at least 5 rolls.
 */
static void fdc_chi_square(const u64 *hist, const struct fdc_dice_dist *d,
			   u64 n, double *chi2, unsigned int *df, double *p)
{
	double e = 0, o = 0, last_e = 0, last_o = 0;
	unsigned int bins = 0;
	size_t i;

	*chi2 = 0;
	for (i = 0; i < d->n; i++) {
		e += d->p[i] * n;
		o += hist[i];
		if (e < 5)
			continue;
		/* A full bin: the one before it is final now. */
		if (bins)
			*chi2 += (last_o - last_e) * (last_o - last_e) / last_e;
		last_e = e;
		last_o = o;
		bins++;
		e = 0;
		o = 0;
	}
	/* The tail too small for a bin of its own joins the last one. */
	last_e += e;
	last_o += o;
	if (last_e > 0)
		*chi2 += (last_o - last_e) * (last_o - last_e) / last_e;
	*df = bins > 1 ? bins - 1 : 0;
	*p = *df ? fd_chi2_sf(*chi2, *df) : 1;
}

/* --stats: COUNT totals of @e against its exact distribution. */
static int fdc_roll_stats(struct fdc_roll *r, const char *text,
			  const struct fdc_dice_expr *e)
{
	struct fdc_dice_dist d;
	u64 *hist, i, n = r->count * e->repeat, peak = 0;
	double chi2, p;
	unsigned int df;
	char err[160], *detail;
	s64 total;
	size_t v;

	if (fdc_dice_dist(e, &d, err, sizeof(err))) {
		fdc_err("roll: --stats '%s': %s", text, err);
		return -1;
	}
	hist = calloc(d.n, sizeof(*hist));
	if (!hist) {
		fdc_err("out of memory");
		free(d.p);
		return -1;
	}
	for (i = 0; i < n; i++) {
		fdc_progress("roll", i, n);
		if (fdc_roll_once(r, e, &total, &detail)) {
			free(hist);
			free(d.p);
			return -1;
		}
		free(detail);
		if (total < d.min || total >= d.min + (s64)d.n) {
			fdc_err("roll: %lld is not a possible total of '%s'",
				(long long)total, text);
			free(hist);
			free(d.p);
			return -1;
		}
		hist[total - d.min]++;
	}
	fdc_progress_end();
	fdc_chi_square(hist, &d, n, &chi2, &df, &p);
	for (v = 0; v < d.n; v++)
		peak = hist[v] > peak ? hist[v] : peak;
	if (r->json) {
		printf("%s{\"expr\": ", r->nexpr ? ", " : "");
		fdc_json_string(text);
		printf(", \"rolls\": %llu, \"histogram\": [", (unsigned long long)n);
		for (v = 0; v < d.n; v++)
			printf("%s{\"total\": %lld, \"count\": %llu, \"exact\": %.10g}",
			       v ? ", " : "", (long long)(d.min + (s64)v),
			       (unsigned long long)hist[v], d.p[v]);
		printf("], \"chi_square\": %.4f, \"df\": %u, \"p_value\": %.4f}",
		       chi2, df, p);
	} else {
		printf("%s%s: %llu rolls\n", r->nexpr ? "\n" : "", text,
		       (unsigned long long)n);
		printf("%8s %10s %9s %9s\n", "total", "count", "observed", "exact");
		for (v = 0; v < d.n; v++) {
			int bar = peak ? (int)(30 * hist[v] / peak) : 0;

			if (!hist[v] && d.p[v] * n < 0.5)
				continue;
			printf("%8lld %10llu %9.6f %9.6f %.*s\n",
			       (long long)(d.min + (s64)v),
			       (unsigned long long)hist[v], (double)hist[v] / n,
			       d.p[v], bar, "##############################");
		}
		printf("chi-square %.2f with %u degrees of freedom: p = %.4f\n",
		       chi2, df, p);
	}
	free(hist);
	free(d.p);
	return 0;
}

/* Roll one expression as the options say. */
static int fdc_roll_expr(struct fdc_roll *r, const char *text)
{
	struct fdc_dice_expr e;
	char err[160];
	int ret;

	if (fdc_dice_parse(text, &e, err, sizeof(err))) {
		fdc_err("roll: bad expression '%s': %s", text, err);
		return FDC_EXIT_USAGE;
	}
	ret = r->stats ? fdc_roll_stats(r, text, &e) :
	      fdc_roll_lines(r, text, &e);
	r->nexpr++;
	return ret ? FDC_EXIT_FAILURE : FDC_EXIT_OK;
}

/*
 * The arguments split into expressions: a blank separates two of them
 * unless an operator stands on either side ("2d6 + 3" is one).
 */
static char **fdc_roll_split(int argc, char **argv, size_t *n, char **joined)
{
	size_t len = 1, k = 0;
	char *all, *p, *start, **out;
	int a;

	for (a = 0; a < argc; a++)
		len += strlen(argv[a]) + 1;
	all = malloc(len);
	out = calloc(len, sizeof(*out));
	if (!all || !out) {
		free(all);
		free(out);
		return NULL;
	}
	all[0] = '\0';
	for (a = 0; a < argc; a++) {
		strcat(all, a ? " " : "");
		strcat(all, argv[a]);
	}
	for (p = all; *p; ) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		start = p;
		for (;;) {
			char *q;

			while (*p && !isspace((unsigned char)*p))
				p++;
			q = p;
			while (isspace((unsigned char)*q))
				q++;
			if (!*q || (!strchr("+-*/", q[0]) &&
				    !strchr("+-*/", p[-1])))
				break;
			p = q;
		}
		out[k++] = start;
		if (*p)
			*p++ = '\0';
	}
	*n = k;
	*joined = all;
	return out;
}

/* Expressions from standard input, one per line. */
static int fdc_roll_stdin(struct fdc_roll *r)
{
	char *line = NULL, *s, *hash;
	size_t size = 0;
	int ret = FDC_EXIT_OK, one;

	while (getline(&line, &size, stdin) >= 0) {
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		line[strcspn(line, "\r\n")] = '\0';
		for (s = line; isspace((unsigned char)*s); s++)
			;
		if (!*s)
			continue;
		one = fdc_roll_expr(r, s);
		if (one)
			ret = one;
		if (one == FDC_EXIT_FAILURE)
			break;
		fflush(stdout);
	}
	free(line);
	return ret;
}

/* --sides=N and no EXPR: one die of N sides, which may exceed 2^63. */
static int fdc_roll_die(struct fdc_roll *r, u64 sides)
{
	u64 i, v;

	if (r->stats) {
		fdc_err("roll: --stats needs an expression");
		return FDC_EXIT_USAGE;
	}
	if (r->json)
		printf("{\"expr\": \"d%llu\", \"totals\": [",
		       (unsigned long long)sides);
	for (i = 0; i < r->count && !ferror(stdout); i++) {
		fdc_progress("roll", i, r->count);
		if (fdc_engine_rolls(&r->dev, sides, &v, 1))
			return FDC_EXIT_FAILURE;
		printf(r->json ? "%s%llu" : "%s%llu\n", r->json && i ? ", " : "",
		       (unsigned long long)v + 1);
	}
	fdc_progress_end();
	if (r->json)
		printf("]}");
	r->nexpr++;
	return FDC_EXIT_OK;
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
	struct fdc_roll r = { .count = 1 };
	struct fdc_dice_expr e;
	char err[160], **exprs = NULL, *joined = NULL;
	const char *weights = NULL;
	size_t n = 0, i;
	int c, ret = FDC_EXIT_OK;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_roll_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("roll", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &r.count))
				return FDC_EXIT_USAGE;
			break;
		case 'v':
			r.verbose = true;
			break;
		case FDC_ROLL_STATS:
			r.stats = true;
			break;
		case FDC_ROLL_JSON:
			r.json = true;
			break;
		case FDC_ROLL_WEIGHTS:
			weights = optarg;
			break;
		case 'h':
			fdc_help(fdc_roll_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (weights) {
		if (optind < argc || r.verbose) {
			fdc_err("roll: --weights takes no EXPR and no --verbose");
			return FDC_EXIT_USAGE;
		}
		return fdc_roll_weights(cfg, weights, r.count, r.stats, r.json);
	}
	if (optind < argc) {
		exprs = fdc_roll_split(argc - optind, argv + optind, &n,
				       &joined);
		if (!exprs) {
			fdc_err("out of memory");
			return FDC_EXIT_FAILURE;
		}
		/* Every expression is checked before any die is rolled. */
		for (i = 0; i < n; i++) {
			if (fdc_dice_parse(exprs[i], &e, err, sizeof(err))) {
				fdc_err("roll: bad expression '%s': %s",
					exprs[i], err);
				ret = FDC_EXIT_USAGE;
				goto out_free;
			}
		}
	}

	if (fdc_engine_open(&r.dev, cfg)) {
		ret = FDC_EXIT_FAILURE;
		goto out_free;
	}
	if (r.json)
		printf(r.stats ? "{\"stats\": [" : "{\"rolls\": [");
	if (exprs) {
		for (i = 0; i < n && ret == FDC_EXIT_OK; i++)
			ret = fdc_roll_expr(&r, exprs[i]);
	} else if (cfg->sides) {
		ret = fdc_roll_die(&r, cfg->sides);
	} else {
		ret = fdc_roll_stdin(&r);
	}
	if (r.json)
		printf("]}\n");
	if (ret == FDC_EXIT_OK)
		ret = fdc_finish_output();
	fdc_engine_close(&r.dev);
out_free:
	free(joined);
	free(exprs);
	return ret;
}
