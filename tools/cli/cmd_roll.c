// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie roll': dice expressions, and with --stats the
 * histogram of many rolls beside the exact distribution.
 */

#include <gmp.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dice.h"
#include "fd_chi2.h"

static const char fdc_roll_help[] =
"Usage: fairdie roll [OPTION]... [EXPR]...\n"
"Roll dice and print one line per expression: its total, or with NxEXPR\n"
"N totals separated by blanks. Each argument is one expression (quote\n"
"it: '4d6k3 + 2'); arguments that are or end or start with an operator\n"
"join their neighbours, as in 2d6 + 3. Without EXPR, the expressions are\n"
"read from standard input, one per line ('#' starts a comment); with\n"
"--sides=N and no EXPR, one die of N sides is rolled.\n"
"\n"
"Expressions mean what they mean on Roll20; see fairdie(1) for the rest:\n"
"  NdS      N dice of S sides; N defaults to 1, 0d6 is 0; d% is d100;\n"
"           dF: fudge dice (-1, 0, +1)\n"
"  kN klN   keep the N highest (kh) or lowest dice: 4d6k3\n"
"  dN dhN   drop the N lowest (dl) or highest dice: 4d6d1\n"
"  !  !!  !p  explode on the maximum, compound, penetrate; with a compare\n"
"           point: 3d6!>4 (4 or more), 1d6!3 (exactly 3)\n"
"  xN       fairdie's own: explode on N or more, keep whole dice: 2d10x9\n"
"  rCP roCP reroll while / once: 4d6r<2 (1 and 2), 2d6ro1\n"
"  raN miN maN  avrae's reroll-and-add once, least and largest face\n"
"  >N <N =N successes (inclusive: >4 is 4 or more); fCP failures, each\n"
"           less one: 10d10>=8f1 (>= and <= are the same as > and <)\n"
"  {A,B}    a group: {4d6,3d8}k1 keeps the higher total; a group of one\n"
"           roll is its dice: {4d6+3d8}k4 keeps 4 of the 7, {3d20+5}>21\n"
"           counts the d20s showing 16 or more, {5d6!!}>8\n"
"  + - * % ( ) floor() ceil() round() abs(), labels: 1d20[fire] + 4\n"
"  /        inside floor(), ceil() or round(): totals are whole numbers\n"
"  NxEXPR   N totals of EXPR on one line: 6x4d6k3\n"
"A die explodes at most 100 times; the face after the 100th explosion\n"
"stands. At most 1000000 dice a term; numbers, faces and every value on\n"
"the way within 64 bits and a sign, +-(2^64-1). Where only the total of\n"
"identical dice counts (3d6 without -v, keep or the like), it is drawn\n"
"whole, weighted by the ways the dice make it: the same odds, at the\n"
"entropy of the total (3.60 fair bits for 3d6 instead of 7.75).\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       roll each expression COUNT times, one line each\n"
"                          (default 1; 10000 with --stats)\n"
"  -v, --verbose           show the dice after each total, as in\n"
"                          \"13<TAB>4d6k3[6 4 3 (1)]\": dropped dice in\n"
"                          parentheses, a die that explodes as 6+6+2\n"
"      --stats             instead of the totals, print how often each\n"
"                          total came in COUNT rolls beside its exact\n"
"                          probability, and a chi-square test of the two\n"
"      --json              print {\"schema\": \"fairdie.roll/1\", \"rolls\": [{\"expr\":\n"
"                          ..., \"repeat\": N, \"totals\": [...], \"dice\":\n"
"                          [...]}], \"stats\": [...]} (--stats fills \"stats\"\n"
"                          instead); an \"error\" member on failure\n"
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
 * @count_set: -n was given
 * @verbose: show the dice
 * @stats: print the histogram instead
 * @json: as JSON
 */
struct fdc_roll {
	struct fdc_engine dev;
	u64 count;
	bool count_set;
	bool verbose;
	bool stats;
	bool json;
};

/* One total of @e, with its dice in *@detail when verbose. */
static int fdc_roll_once(struct fdc_roll *r, const struct fdc_dice_expr *e,
			 s128 *total, char **detail, unsigned int *deepest)
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
	if (trace && r->json)
		ret = fdc_dice_roll_json(e, &r->dev, total, trace);
	else
		ret = fdc_dice_roll(e, &r->dev, total, trace, deepest);
	if (trace)
		fclose(trace);
	return ret;
}

/**
 * fdc_roll_json_end() - close a roll's object of fairdie.roll/1: the
 *	"totals" array, then "dice" (empty without -v) and the object
 * @dice: @n JSON values, one per total, or NULL
 * @n: how many
 */
void fdc_roll_json_end(char *const *dice, u64 n)
{
	u64 i;

	fdc_json_close();
	fdc_json_key("dice");
	fdc_json_array();
	for (i = 0; i < n; i++)
		fdc_json_value(dice[i], strlen(dice[i]));
	fdc_json_close();
	fdc_json_close();
}

/* Open a roll's object: {"expr": @expr, "repeat": @repeat, "totals": [. */
static void fdc_roll_json_begin(const char *expr, u64 repeat)
{
	fdc_json_object();
	fdc_json_key("expr");
	fdc_json_str(expr);
	fdc_json_key("repeat");
	fdc_json_u64(repeat);
	fdc_json_key("totals");
	fdc_json_array();
}

/*
 * Whether @e is one plain die (d6, d20, dF, d100 - not 2d6, no modifier):
 * its totals are the die's faces, rolled many at a time.
 */
static bool fdc_roll_plain_die(const struct fdc_dice_expr *e)
{
	const struct fdc_dice_node *nd = &e->node[e->root];
	const struct fdc_dice_term *t = &nd->dice;
	const struct fdc_dice_mods *m = &t->mods, *nm = &nd->mods;

	return nd->kind == FDC_NODE_DICE && t->count == 1 && t->sides &&
	       t->explode == FDC_EXPLODE_NONE && !t->nreroll && !t->has_min &&
	       !t->has_max && !t->has_ra && !m->has_keep &&
	       m->success.op == FDC_CMP_NONE && m->failure.op == FDC_CMP_NONE &&
	       !nm->has_keep && nm->success.op == FDC_CMP_NONE &&
	       nm->failure.op == FDC_CMP_NONE;
}

/*
 * fdc_roll_lines() for one plain die: the engine's rolls printed as they
 * come, without evaluating an expression for each (10^7 d6 then cost what
 * shuffle -r -i 1-6 costs). The engine is asked as the expression asks it,
 * roll by roll, except that rolls it already made ahead are taken many at
 * a time: the same rolls for the same seed.
 */
static int fdc_roll_plain_lines(struct fdc_roll *r,
				const struct fdc_dice_expr *e)
{
	const struct fdc_dice_term *t = &e->node[e->root].dice;
	u64 buf[FDC_CACHE_MAX], n = r->count * e->repeat, done = 0, i, k;
	const struct fdc_cache *c;
	s128 face;

	while (done < n && !ferror_unlocked(stdout)) {
		fdc_progress("roll", done / e->repeat & ~4095ULL, r->count);
		c = r->dev.hot;
		k = c && c->sides == t->sides ? c->len - c->pos : 0;
		if (k > n - done)
			k = n - done;
		if (!k)
			k = 1;
		if (fdc_engine_rolls(&r->dev, t->sides, buf, k))
			return -1;
		for (i = 0; i < k; i++, done++) {
			/* A die of up to 2^64 - 1 sides: faces beyond s64. */
			face = (s128)buf[i] + 1 + t->offset;
			if (r->json && face >= 0)
				fdc_json_u64((u64)face);
			else if (r->json)
				fdc_json_s64((s64)face);
			else if (face >= 0)
				fdc_print_u64(stdout, (u64)face,
					      (done + 1) % e->repeat ? ' ' : '\n');
			else
				fdc_print_s64(stdout, (s64)face,
					      (done + 1) % e->repeat ? ' ' : '\n');
		}
	}
	fdc_progress_end();
	if (r->json)
		fdc_roll_json_end(NULL, 0);
	return 0;
}

/*
 * Print COUNT lines of @e; with --json, one object of the "rolls" array:
 * {"expr": TEXT, "repeat": N, "totals": [COUNT * N integers], "dice": [with
 * -v one array per total of its dice, fdc_dice_roll_json()'s; else none]}.
 */
static int fdc_roll_lines(struct fdc_roll *r, const char *text,
			  const struct fdc_dice_expr *e)
{
	char **details = NULL;
	u64 i, j, k = 0, n = r->count * e->repeat;
	char *detail, buf[48];
	s128 total;
	int ret = -1;

	if (r->json)
		fdc_roll_json_begin(text, e->repeat);
	if (!r->verbose && fdc_roll_plain_die(e))
		return fdc_roll_plain_lines(r, e);
	if (r->json) {
		if (r->verbose) {
			details = calloc(n, sizeof(*details));
			if (!details) {
				fdc_err("out of memory");
				return -1;
			}
		}
	}
	for (i = 0; i < r->count && !ferror(stdout); i++) {
		fdc_progress("roll", i, r->count);
		for (j = 0; j < e->repeat; j++) {
			if (fdc_roll_once(r, e, &total, &detail, NULL))
				goto out_free;
			/* Totals beyond 64 signed bits: as text, the rest fast. */
			if (total < INT64_MIN || total > INT64_MAX)
				fdc_dice_str(total, buf);
			else
				buf[0] = '\0';
			if (r->json) {
				if (buf[0])
					fdc_json_value(buf, strlen(buf));
				else
					fdc_json_s64((s64)total);
				if (details)
					details[k++] = detail;
				continue;
			}
			if (j)
				putchar_unlocked(' ');
			if (buf[0])
				fputs(buf, stdout);
			else
				fdc_print_s64(stdout, (s64)total, -1);
			if (detail)
				printf("\t%s", detail);
			free(detail);
		}
		if (!r->json)
			putchar_unlocked('\n');
	}
	fdc_progress_end();
	if (r->json)
		fdc_roll_json_end(details, k);
	ret = 0;
out_free:
	for (i = 0; details && i < k; i++)
		free(details[i]);
	free(details);
	return ret;
}

/*
 * Pearson's test of @hist against @p: neighbouring totals are pooled
 * until each bin expects at least 5 rolls; the rest (deeper explosions)
 * is a bin of its own when it expects that much.
 */
static void fdc_chi_square(const u64 *hist, const double *p, size_t m,
			   u64 rest_seen, double rest_p, u64 n,
			   double *chi2, unsigned int *df)
{
	double e = 0, o = 0, last_e = 0, last_o = 0;
	unsigned int bins = 0;
	size_t i;

	*chi2 = 0;
	for (i = 0; i < m; i++) {
		e += p[i] * n;
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
	/* The rest joins the tail too small for a bin of its own. */
	e += rest_p * n;
	o += rest_seen;
	if (e >= 5 && bins) {
		*chi2 += (last_o - last_e) * (last_o - last_e) / last_e;
		last_e = e;
		last_o = o;
		bins++;
	} else {
		last_e += e;
		last_o += o;
	}
	if (last_e > 0)
		*chi2 += (last_o - last_e) * (last_o - last_e) / last_e;
	*df = bins > 1 ? bins - 1 : 0;
}

static char *fdc_fraction(mpz_t num, const mpz_t den, mpq_t q, double *p)
{
	mpq_set_num(q, num);
	mpq_set_den(q, den);
	mpq_canonicalize(q);
	*p = mpq_get_d(q);
	return mpq_get_str(NULL, 10, q);
}

/* --stats: COUNT totals of @e against its exact distribution. */
static int fdc_roll_stats(struct fdc_roll *r, const char *text,
			  const struct fdc_dice_expr *e)
{
	u64 *hist = NULL, i, n = r->count * e->repeat, peak = 0, rest_seen = 0;
	struct fdc_dice_dist d;
	double chi2, *p = NULL, rest_p;
	unsigned int df, deepest;
	char err[256], *detail, *frac;
	mpq_t q, rest;
	size_t v, m = 0, *idx = NULL;
	s128 total;
	int ret = -1;

	if (fdc_dice_dist(e, &d, err, sizeof(err))) {
		fdc_err("roll: --stats '%s': %s", fdc_quote(text), err);
		return -1;
	}
	mpq_init(q);
	mpq_init(rest);
	/* Only the possible totals are listed: @idx maps them into @d. */
	hist = calloc(d.n, sizeof(*hist));
	p = calloc(d.n, sizeof(*p));
	idx = calloc(d.n, sizeof(*idx));
	if (!hist || !p || !idx) {
		fdc_err("out of memory");
		goto out_free;
	}
	for (v = 0; v < d.n; v++) {
		if (!mpz_sgn(d.w[v]))
			continue;
		mpq_set_num(q, d.w[v]);
		mpq_set_den(q, d.den);
		mpq_canonicalize(q);
		p[m] = mpq_get_d(q);
		idx[m++] = v;
	}
	fdc_dice_dist_rest(&d, rest);
	rest_p = mpq_get_d(rest);
	for (i = 0; i < n; i++) {
		fdc_progress("roll", i, n);
		if (fdc_roll_once(r, e, &total, &detail, &deepest))
			goto out_free;
		free(detail);
		if (deepest > d.depth) {
			rest_seen++;
			continue;
		}
		v = (size_t)((total - d.min) / d.step);
		if (total < d.min || (total - d.min) % d.step || v >= d.n ||
		    !mpz_sgn(d.w[v])) {
			char buf[48];

			fdc_err("roll: %s is not a possible total of '%s'",
				fdc_dice_str(total, buf), fdc_quote(text));
			goto out_free;
		}
		hist[v]++;
	}
	fdc_progress_end();
	/* The histogram in the order of the listed totals. */
	for (v = 0; v < m; v++) {
		hist[v] = hist[idx[v]];
		peak = hist[v] > peak ? hist[v] : peak;
	}
	fdc_chi_square(hist, p, m, rest_seen, rest_p, n, &chi2, &df);
	if (r->json) {
		fdc_json_object();
		fdc_json_key("expr");
		fdc_json_str(text);
		fdc_json_key("rolls");
		fdc_json_u64(n);
		fdc_json_key("depth");
		fdc_json_u64(d.depth);
		fdc_json_key("histogram");
		fdc_json_array();
		for (v = 0; v < m; v++) {
			double pv;

			fdc_json_object();
			fdc_json_key("total");
			fdc_json_s64(d.min + d.step * (s64)idx[v]);
			fdc_json_key("count");
			fdc_json_u64(hist[v]);
			fdc_json_key("probability");
			frac = fdc_fraction(d.w[idx[v]], d.den, q, &pv);
			fdc_json_number(pv);
			fdc_json_key("exact");
			fdc_json_str(frac);
			free(frac);
			fdc_json_close();
		}
		fdc_json_close();
		fdc_json_key("rest");
		fdc_json_object();
		fdc_json_key("count");
		fdc_json_u64(rest_seen);
		fdc_json_key("probability");
		fdc_json_number(rest_p);
		fdc_json_key("exact");
		frac = mpq_get_str(NULL, 10, rest);
		fdc_json_str(frac);
		free(frac);
		fdc_json_close();
		fdc_json_key("chi_square");
		fdc_json_number(df ? chi2 : NAN);
		fdc_json_key("df");
		fdc_json_u64(df);
		fdc_json_key("p_value");
		fdc_json_number(df ? fd_chi2_sf(chi2, df) : NAN);
		fdc_json_close();
	} else {
		printf("%s: %llu rolls\n", text, (unsigned long long)n);
		printf("%8s %10s %9s %9s\n", "total", "count", "observed", "exact");
		for (v = 0; v < m; v++) {
			int bar = peak ? (int)(30 * hist[v] / peak) : 0;

			printf("%8lld %10llu %9.6f %9.6f %.*s\n",
			       (long long)(d.min + d.step * (s64)idx[v]),
			       (unsigned long long)hist[v], (double)hist[v] / n,
			       p[v], bar, "##############################");
		}
		if (mpq_sgn(rest))
			printf("exact to %u explosions a die; beyond: %llu rolls, P = %.3g\n",
			       d.depth, (unsigned long long)rest_seen, rest_p);
		if (df)
			printf("chi-square %.2f with %u degrees of freedom: p = %.4f\n",
			       chi2, df, fd_chi2_sf(chi2, df));
		else
			printf("too few rolls for a chi-square test (each bin must expect 5)\n");
	}
	ret = 0;
out_free:
	free(hist);
	free(p);
	free(idx);
	mpq_clear(q);
	mpq_clear(rest);
	fdc_dice_dist_free(&d);
	return ret;
}

/* Roll one expression as the options say; @where names its line. */
static int fdc_roll_expr(struct fdc_roll *r, const char *text,
			 const char *where)
{
	struct fdc_dice_expr e;
	char err[512];
	int ret;

	if (fdc_dice_parse(text, &e, err, sizeof(err))) {
		fdc_dice_hint(text, err, sizeof(err));
		fdc_err("roll: %sbad expression '%s': %s", where,
			fdc_quote(text), err);
		return FDC_EXIT_USAGE;
	}
	ret = r->stats ? fdc_roll_stats(r, text, &e) :
	      fdc_roll_lines(r, text, &e);
	return ret ? FDC_EXIT_FAILURE : FDC_EXIT_OK;
}

static bool fdc_is_op(char c)
{
	return c && strchr("+-*/%", c);
}

/*
 * The arguments as expressions: each argument is one, and an argument
 * that is an operator, or ends or starts with one, joins its neighbours
 * ("2d6 + 3", "2d6+ 3"). Blanks inside an argument never split it.
 */
static char **fdc_roll_split(int argc, char **argv, size_t *n, char **joined)
{
	size_t len = 1, k = 0, l;
	char *all, *p, **out;
	int a;

	for (a = 0; a < argc; a++)
		len += strlen(argv[a]) + 1;
	all = malloc(len);
	out = calloc(argc > 0 ? (size_t)argc + 1 : 1, sizeof(*out));
	if (!all || !out) {
		free(all);
		free(out);
		return NULL;
	}
	p = all;
	for (a = 0; a < argc; a++) {
		const char *s = argv[a], *prev = a ? argv[a - 1] : NULL;
		const char *t = s + strspn(s, " \t");

		l = prev ? strlen(prev) : 0;
		while (l && (prev[l - 1] == ' ' || prev[l - 1] == '\t'))
			l--;
		if (prev && (fdc_is_op(*t) || (l && fdc_is_op(prev[l - 1]))))
			p[-1] = ' ';
		else
			out[k++] = p;
		strcpy(p, s);
		p += strlen(s) + 1;
	}
	*n = k;
	*joined = all;
	return out;
}

/* What is wrong with a line of input: a NUL byte or invalid UTF-8. */
static const char *fdc_line_problem(const char *s, size_t len)
{
	if (memchr(s, '\0', len))
		return "a NUL byte";
	if (fdc_utf8_check(s, len) != len)
		return "invalid UTF-8";
	return NULL;
}

/*
 * Expressions from standard input, one per line. A line ends at LF, CR
 * or CRLF; '#' starts a comment; a line with a NUL byte or invalid UTF-8
 * is an error naming it. A bad line ends the run unless standard input is
 * a terminal.
 */
static int fdc_roll_stdin(struct fdc_roll *r)
{
	char *buf = NULL, *line, *end, *hash, where[40];
	size_t size = 0, len;
	ssize_t got;
	u64 lineno = 0;
	int ret = FDC_EXIT_OK, one;
	bool interactive = isatty(STDIN_FILENO);
	const char *why;

	while ((got = getdelim(&buf, &size, '\n', stdin)) >= 0) {
		len = (size_t)got;
		if (len && buf[len - 1] == '\n')
			len--;
		/* CR ends a line too: old Mac text, and CRLF. */
		for (line = buf; line <= buf + len; line = end + 1) {
			end = memchr(line, '\r', buf + len - line);
			if (!end)
				end = buf + len;
			if (end == buf + len && line == end && line != buf &&
			    end[-1] == '\r')
				break;
			lineno++;
			snprintf(where, sizeof(where), "line %llu: ",
				 (unsigned long long)lineno);
			why = fdc_line_problem(line, end - line);
			if (why) {
				fdc_err("roll: standard input: line %llu: %s",
					(unsigned long long)lineno, why);
				ret = FDC_EXIT_USAGE;
				goto out_free;
			}
			*end = '\0';
			hash = strchr(line, '#');
			if (hash)
				*hash = '\0';
			line += strspn(line, " \t");
			if (!*line)
				continue;
			one = fdc_roll_expr(r, line, where);
			if (one)
				ret = one;
			/*
			 * A bad line stops the run, so that the totals printed
			 * stay one for each line read, in order; someone typing
			 * at a terminal sees the error and goes on.
			 */
			if (one == FDC_EXIT_FAILURE || (one && !interactive))
				goto out_free;
			if (!r->json)
				fflush(stdout);
		}
	}
out_free:
	free(buf);
	return ret;
}

/* --sides=N and no EXPR: one die of N sides, which may exceed 2^62. */
static int fdc_roll_sides(struct fdc_roll *r, u64 sides)
{
	char name[32];
	u64 i, v;

	if (r->stats) {
		fdc_err("roll: --stats needs an expression");
		return FDC_EXIT_USAGE;
	}
	snprintf(name, sizeof(name), "d%llu", (unsigned long long)sides);
	if (r->json)
		fdc_roll_json_begin(name, 1);
	for (i = 0; i < r->count && !ferror(stdout); i++) {
		fdc_progress("roll", i, r->count);
		if (fdc_engine_roll(&r->dev, sides, &v))
			return FDC_EXIT_FAILURE;
		if (r->json)
			fdc_json_u64(v + 1);
		else
			fdc_print_u64(stdout, v + 1, '\n');
	}
	fdc_progress_end();
	if (r->json)
		fdc_roll_json_end(NULL, 0);
	return FDC_EXIT_OK;
}

/*
 * Whether @arg, an argument of roll, takes the next argument as its value:
 * -n, or a long option with a required value given without '='.
 */
static bool fdc_roll_takes_value(const char *arg)
{
	static const char *const valued[] = {
		"count", "weights", "device", "source", "extractor", "sides",
		"sim", "random-source", "seed",
	};
	size_t i, len;

	if (arg[0] != '-')
		return false;
	if (arg[1] != '-')
		return arg[1] && arg[strlen(arg) - 1] == 'n' &&
		       strspn(arg + 1, "vhn") == strlen(arg + 1);
	if (strchr(arg, '='))
		return false;
	len = strlen(arg + 2);
	for (i = 0; len && i < ARRAY_SIZE(valued); i++)
		if (!strncmp(arg + 2, valued[i], len))
			return true;
	return false;
}

/*
 * "roll 1d20 -2" as "roll 1d20 +2": an argument that starts with '-' and a
 * digit, 'd' or '(' is an expression (a term to subtract, a negative
 * constant), not an option: roll has no such option. It gets a blank in
 * front, which the option parser leaves alone and the expression ignores.
 * Returns -1 when out of memory.
 */
static int fdc_roll_minus_args(int argc, char **argv, char ***owned)
{
	char **kept = NULL, *s;
	int i, n = 0;

	*owned = NULL;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (argv[i][0] != '-' || !strchr("0123456789d(", argv[i][1]) ||
		    !argv[i][1] || fdc_roll_takes_value(argv[i - 1]))
			continue;
		if (!kept) {
			kept = calloc(argc, sizeof(*kept));
			if (!kept)
				return -1;
		}
		s = malloc(strlen(argv[i]) + 2);
		if (!s)
			break;
		s[0] = ' ';
		strcpy(s + 1, argv[i]);
		argv[i] = s;
		kept[n++] = s;
	}
	*owned = kept;
	return i < argc && strcmp(argv[i], "--") ? -1 : 0;
}

/*
 * '#' starts a comment in an argument as on a line of standard input; an
 * argument that is only a comment is no expression. Returns the arguments
 * left, in one allocation, or NULL when out of memory.
 */
static char **fdc_roll_uncomment(int argc, char **argv, int *n)
{
	size_t len = 0;
	char **out, *p, *hash;
	int a;

	for (a = 0; a < argc; a++)
		len += strlen(argv[a]) + 1;
	out = malloc((argc + 1) * sizeof(*out) + len);
	if (!out)
		return NULL;
	p = (char *)(out + argc + 1);
	*n = 0;
	for (a = 0; a < argc; a++) {
		strcpy(p, argv[a]);
		hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		/* An empty argument stays, for its message. */
		if (hash && !p[strspn(p, " \t")])
			continue;
		out[(*n)++] = p;
		p += strlen(p) + 1;
	}
	out[*n] = NULL;
	return out;
}

/*
 * fdc_cmd_roll(), its arguments that start with '-' made expressions: the
 * strings in @minus, which lose their blank again after the options.
 */
static int fdc_roll_run(struct fdc_config *cfg, int argc, char **argv,
			char **minus)
{
	struct fdc_roll r = { .count = 1 };
	struct fdc_dice_expr e;
	char err[512], **exprs = NULL, *joined = NULL, **args = NULL;
	int nargs;
	const char *weights = NULL;
	size_t n = 0, i;
	int c, ret = FDC_EXIT_OK;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_roll_opts)) != -1) {
		switch (c) {
		case 'n':
			/* As shuf -n 0: nothing to roll is no error. */
			if (fdc_parse_count("roll", "COUNT", optarg, 0,
					    FDC_MAX_COUNT, &r.count))
				return FDC_EXIT_USAGE;
			r.count_set = true;
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
	for (c = optind; minus && c < argc; c++)
		for (i = 0; minus[i]; i++)
			if (argv[c] == minus[i])
				argv[c] = minus[i] + 1;
	if (weights) {
		if (optind < argc || r.verbose) {
			fdc_err("roll: --weights takes no EXPR and no --verbose");
			return FDC_EXIT_USAGE;
		}
		return fdc_roll_weights(cfg, weights, r.count, r.stats, r.json);
	}
	if (r.stats && !r.count_set)
		r.count = 10000;
	/* --stats writes after the rolls: the meter may show meanwhile. */
	if (r.stats)
		fdc_progress_output(NULL);
	if (r.stats && !r.count) {
		fdc_err("roll: --stats needs a COUNT of at least 1");
		return FDC_EXIT_USAGE;
	}
	if (optind < argc) {
		args = fdc_roll_uncomment(argc - optind, argv + optind, &nargs);
		exprs = args ? fdc_roll_split(nargs, args, &n, &joined) : NULL;
		if (!exprs) {
			fdc_err("out of memory");
			free(args);
			return FDC_EXIT_FAILURE;
		}
		if (!n) {
			fdc_err("roll: no expression, only a comment");
			ret = FDC_EXIT_USAGE;
			goto out_free;
		}
		/* Every expression is checked before any die is rolled. */
		for (i = 0; i < n; i++) {
			if (fdc_dice_parse(exprs[i], &e, err, sizeof(err))) {
				fdc_dice_hint(exprs[i], err, sizeof(err));
				fdc_err("roll: bad expression '%s': %s",
					fdc_quote(exprs[i]), err);
				ret = FDC_EXIT_USAGE;
				goto out_free;
			}
			if (r.json && fdc_utf8_check(exprs[i], strlen(exprs[i])) !=
			    strlen(exprs[i])) {
				fdc_err("roll: expression %zu: invalid UTF-8", i + 1);
				ret = FDC_EXIT_USAGE;
				goto out_free;
			}
		}
	}

	if (fdc_engine_open(&r.dev, cfg)) {
		ret = FDC_EXIT_FAILURE;
		goto out_free;
	}
	/*
	 * fairdie.roll/1: {"rolls": [...], "stats": [...]}, both always
	 * there, the one that --stats does not fill empty.
	 */
	if (r.json) {
		fdc_json_begin(stdout);
		fdc_json_key("rolls");
		fdc_json_array();
		if (r.stats) {
			fdc_json_close();
			fdc_json_key("stats");
			fdc_json_array();
		}
	}
	if (exprs) {
		for (i = 0; i < n && ret == FDC_EXIT_OK; i++)
			ret = fdc_roll_expr(&r, exprs[i], "");
	} else if (cfg->sides) {
		ret = fdc_roll_sides(&r, cfg->sides);
	} else {
		ret = fdc_roll_stdin(&r);
	}
	if (r.json && !r.stats && ret == FDC_EXIT_OK) {
		fdc_json_close();
		fdc_json_key("stats");
		fdc_json_array();
	}
	if (ret == FDC_EXIT_OK)
		ret = fdc_finish_output();
	fdc_engine_close(&r.dev);
out_free:
	free(joined);
	free(exprs);
	free(args);
	return ret;
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
	char **minus;
	int ret, i;

	if (fdc_roll_minus_args(argc, argv, &minus)) {
		fdc_err("out of memory");
		ret = FDC_EXIT_FAILURE;
	} else {
		ret = fdc_roll_run(cfg, argc, argv, minus);
	}
	for (i = 0; minus && minus[i]; i++)
		free(minus[i]);
	free(minus);
	return ret;
}
