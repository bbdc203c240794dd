// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - weighted draws: 'fairdie pick FILE' (lines 'WEIGHT ITEM')
 * and 'fairdie roll --weights W1,W2,...', exact, from the engine's loaded
 * die (the device's FAIRDIE_IOC_SET_WEIGHTS, or the module's weighted
 * sampler on a source of bits).
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fd_chi2.h"

/* Draws are asked of the engine this many at a time. */
#define FDC_PICK_CHUNK		4096

static const char fdc_pick_help[] =
"Usage: fairdie pick [OPTION]... FILE\n"
"Draw items of FILE ('-' for standard input), whose lines are 'WEIGHT ITEM':\n"
"each draw is ITEM with probability exactly WEIGHT divided by the sum of the\n"
"weights, independent of every other draw, and is printed on a line of its\n"
"own. WEIGHT is a non-negative integer (0: never drawn); the item is the\n"
"rest of the line after the blanks that follow it. Empty lines and lines\n"
"starting with '#' are skipped. At most 65536 items; the weights must add\n"
"up to at least 1 and at most 2^64-1. A draw costs about the entropy of\n"
"the weights in fair bits.\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       draw COUNT items (default 1)\n"
"      --json              print {\"schema\": \"fairdie.pick/1\", \"picks\": [...]}\n";

static const struct option fdc_pick_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/*
 * @n draws of @d, handed to @put one chunk at a time: 0, or -1 after a
 * one-line error.
 */
static int fdc_pick_draws(const struct fdc_config *cfg,
			  const struct fdc_wdie *d, u64 n,
			  int (*put)(const u64 *faces, size_t k, void *ctx),
			  void *ctx)
{
	static u64 faces[FDC_PICK_CHUNK];
	struct fdc_engine eng;
	size_t k;
	int ret = 0;

	if (fdc_engine_open(&eng, cfg))
		return -1;
	while (n && !ret) {
		fdc_progress("pick", eng.rolls, eng.rolls + n);
		k = n < FDC_PICK_CHUNK ? n : FDC_PICK_CHUNK;
		ret = fdc_engine_weighted(&eng, d, faces, k);
		if (!ret)
			ret = put(faces, k, ctx);
		n -= k;
	}
	fdc_progress_end();
	fdc_engine_close(&eng);
	return ret;
}

/* ---------------------------------------------------------------------
 * roll --weights
 */

struct fdc_faces {
	bool json;
	u64 *hist;	/* --stats: how often each face came */
};

static int fdc_faces_put(const u64 *faces, size_t k, void *ctx)
{
	struct fdc_faces *o = ctx;
	size_t i;

	for (i = 0; i < k; i++) {
		if (o->hist)
			o->hist[faces[i]]++;
		else if (o->json)
			fdc_json_u64(faces[i] + 1);
		else
			fdc_print_u64(stdout, faces[i] + 1, '\n');
	}
	return 0;
}

/**
 * fdc_parse_weights() - W1,W2,... into a new array
 * @cmd: the command, for messages
 * @list: the weights, comma-separated
 * @out: receives the array, to be freed by the caller
 *
 * Return: its length, or 0 after a one-line error.
 */
u32 fdc_parse_weights(const char *cmd, const char *list, u64 **out)
{
	u32 n = 1, i = 0;
	const char *p;
	char buf[32];
	u64 *w;

	for (p = list; *p; p++)
		n += *p == ',';
	if (n > FD_WEIGHTS_MAX_FACES) {
		fdc_err("%s: --weights: %u faces: at most %u", cmd, n,
			FD_WEIGHTS_MAX_FACES);
		return 0;
	}
	w = calloc(n, sizeof(*w));
	if (!w) {
		fdc_err("out of memory");
		return 0;
	}
	for (p = list; i < n; i++) {
		size_t len = strcspn(p, ",");

		if (len >= sizeof(buf)) {
			fdc_err("%s: --weights: weight %u is too long", cmd,
				i + 1);
			goto out_free;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (fdc_parse_u64(buf, &w[i])) {
			fdc_err("%s: --weights: weight %u '%s' is not an integer from 0 to 2^64-1",
				cmd, i + 1, fdc_quote(buf));
			goto out_free;
		}
		p += len + (p[len] == ',');
	}
	*out = w;
	return n;
out_free:
	free(w);
	return 0;
}

static u64 fdc_gcd(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * --stats: how often each face came beside its exact probability; with
 * --json, one object of roll's "stats" array (schema fairdie.roll/1, as
 * for expressions: the faces are the totals, none is left over).
 */
static void fdc_weights_stats(const struct fdc_wdie *d, const char *list,
			      const u64 *hist, u64 n, bool json)
{
	double chi2 = 0, p, e;
	unsigned int df = 0;
	char frac[48];
	u32 f;

	for (f = 0; f < d->count; f++) {
		if (!d->weights[f])
			continue;
		e = (double)n * ((double)d->weights[f] / (double)d->total);
		chi2 += (hist[f] - e) * (hist[f] - e) / e;
		df++;
	}
	df = df ? df - 1 : 0;
	p = df ? fd_chi2_sf(chi2, df) : 1;
	if (json) {
		fdc_json_object();
		fdc_json_key("expr");
		fdc_json_string_open();
		fdc_json_raw("--weights=", 10);
		fdc_json_raw(list, strlen(list));
		fdc_json_close();
		fdc_json_key("rolls");
		fdc_json_u64(n);
		fdc_json_key("depth");
		fdc_json_u64(1);
		fdc_json_key("histogram");
		fdc_json_array();
		for (f = 0; f < d->count; f++) {
			u64 g = fdc_gcd(d->weights[f], d->total);

			if (!d->weights[f])
				continue;
			fdc_json_object();
			fdc_json_key("total");
			fdc_json_u64(f + 1);
			fdc_json_key("count");
			fdc_json_u64(hist[f]);
			fdc_json_key("probability");
			fdc_json_number((double)d->weights[f] / d->total);
			fdc_json_key("exact");
			snprintf(frac, sizeof(frac), "%llu/%llu",
				 (unsigned long long)(d->weights[f] / g),
				 (unsigned long long)(d->total / g));
			fdc_json_str(frac);
			fdc_json_close();
		}
		fdc_json_close();
		fdc_json_key("rest");
		fdc_json_object();
		fdc_json_key("count");
		fdc_json_u64(0);
		fdc_json_key("probability");
		fdc_json_number(0);
		fdc_json_key("exact");
		fdc_json_str("0");
		fdc_json_close();
		fdc_json_key("chi_square");
		fdc_json_number(df ? chi2 : NAN);
		fdc_json_key("df");
		fdc_json_u64(df);
		fdc_json_key("p_value");
		fdc_json_number(df ? p : NAN);
		fdc_json_close();
		return;
	}
	printf("%8s %10s %9s %9s\n", "total", "count", "observed", "exact");
	for (f = 0; f < d->count; f++)
		printf("%8u %10llu %9.6f %9.6f\n", f + 1,
		       (unsigned long long)hist[f], (double)hist[f] / n,
		       (double)d->weights[f] / d->total);
	printf("chi-square %.2f with %u degrees of freedom: p = %.4f\n",
	       chi2, df, p);
}

/**
 * fdc_roll_weights() - fairdie roll --weights W1,W2,...
 * @cfg: the global options
 * @list: the weights, comma-separated
 * @count: how many draws
 * @stats: print the histogram beside the exact law instead
 * @json: print JSON
 *
 * Return: the exit status.
 */
int fdc_roll_weights(struct fdc_config *cfg, const char *list, u64 count,
		     bool stats, bool json)
{
	struct fdc_faces o = { .json = json };
	struct fdc_wdie d;
	u64 *w = NULL;
	u32 n;
	int ret;

	n = fdc_parse_weights("roll", list, &w);
	if (!n)
		return FDC_EXIT_USAGE;
	ret = fdc_wdie_init(&d, w, n);
	free(w);
	if (ret)
		return FDC_EXIT_USAGE;
	if (stats) {
		o.hist = calloc(n, sizeof(*o.hist));
		if (!o.hist) {
			fdc_err("out of memory");
			fdc_wdie_free(&d);
			return FDC_EXIT_FAILURE;
		}
	}
	/* The shape of roll's JSON for expressions: fairdie.roll/1. */
	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("rolls");
		fdc_json_array();
		if (!stats) {
			fdc_json_object();
			fdc_json_key("expr");
			fdc_json_string_open();
			fdc_json_raw("--weights=", 10);
			fdc_json_raw(list, strlen(list));
			fdc_json_close();
			fdc_json_key("repeat");
			fdc_json_u64(1);
			fdc_json_key("totals");
			fdc_json_array();
		}
	}
	/* --stats writes after the draws: the meter may show meanwhile. */
	if (stats)
		fdc_progress_output(NULL);
	ret = fdc_pick_draws(cfg, &d, count, fdc_faces_put, &o);
	if (!ret && json) {
		if (!stats)
			fdc_roll_json_end(NULL, 0);
		fdc_json_close();
		fdc_json_key("stats");
		fdc_json_array();
	}
	if (!ret && stats)
		fdc_weights_stats(&d, list, o.hist, count, json);
	free(o.hist);
	fdc_wdie_free(&d);
	/* roll writes its own JSON: the object is closed here. */
	ret = ret ? FDC_EXIT_FAILURE : FDC_EXIT_OK;
	if (json)
		ret = fdc_json_end(ret);
	return ret ? ret : fdc_finish_output();
}

/* ---------------------------------------------------------------------
 * pick FILE
 */

struct fdc_items {
	char **item;
	size_t *len;
	u64 *weight;
	u32 n, cap;
	bool json;
};

static int fdc_items_put(const u64 *faces, size_t k, void *ctx)
{
	struct fdc_items *t = ctx;
	size_t i;

	for (i = 0; i < k; i++) {
		if (t->json) {
			fdc_json_mem(t->item[faces[i]], t->len[faces[i]]);
		} else {
			fwrite(t->item[faces[i]], 1, t->len[faces[i]], stdout);
			putchar('\n');
		}
	}
	return 0;
}

static void fdc_items_free(struct fdc_items *t)
{
	u32 i;

	for (i = 0; i < t->n; i++)
		free(t->item[i]);
	free(t->item);
	free(t->len);
	free(t->weight);
}

/* One line 'WEIGHT ITEM' (no newline): 0, or -1 after a one-line error. */
static int fdc_items_line(struct fdc_items *t, const char *name, u64 lineno,
			  char *line, size_t len)
{
	char *p = line, *end = line + len;
	u64 w;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return 0;
	if (*p < '0' || *p > '9') {
		fdc_err("pick: %s:%llu: expected 'WEIGHT ITEM'", name,
			(unsigned long long)lineno);
		return -1;
	}
	for (w = 0; p < end && *p >= '0' && *p <= '9'; p++) {
		if (w > (UINT64_MAX - (*p - '0')) / 10) {
			fdc_err("pick: %s:%llu: weight above 2^64-1", name,
				(unsigned long long)lineno);
			return -1;
		}
		w = w * 10 + (*p - '0');
	}
	if (p < end && *p != ' ' && *p != '\t') {
		fdc_err("pick: %s:%llu: the weight must be an integer followed by a blank",
			name, (unsigned long long)lineno);
		return -1;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	/* An item nobody can see is a mistake in the file, not an item. */
	if (p == end) {
		fdc_err("pick: %s:%llu: a weight with no item: expected 'WEIGHT ITEM'",
			name, (unsigned long long)lineno);
		return -1;
	}
	if (t->n == FD_WEIGHTS_MAX_FACES) {
		fdc_err("pick: %s: more than %u items", name,
			FD_WEIGHTS_MAX_FACES);
		return -1;
	}
	if (t->n == t->cap) {
		u32 cap = t->cap ? 2 * t->cap : 64;
		char **item = realloc(t->item, cap * sizeof(*item));
		size_t *l = item ? realloc(t->len, cap * sizeof(*l)) : NULL;
		u64 *wt = l ? realloc(t->weight, cap * sizeof(*wt)) : NULL;

		if (item)
			t->item = item;
		if (l)
			t->len = l;
		if (!wt) {
			fdc_err("out of memory");
			return -1;
		}
		t->weight = wt;
		t->cap = cap;
	}
	t->len[t->n] = end - p;
	t->item[t->n] = malloc(end - p + 1);
	if (!t->item[t->n]) {
		fdc_err("out of memory");
		return -1;
	}
	memcpy(t->item[t->n], p, end - p);
	t->weight[t->n++] = w;
	return 0;
}

static int fdc_items_read(struct fdc_items *t, const char *path)
{
	const char *name = strcmp(path, "-") ? fdc_quote(path) : "standard input";
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	u64 lineno = 0;
	ssize_t len;
	int ret = 0;

	if (!f) {
		fdc_err("pick: %s: %s", name, strerror(errno));
		return -1;
	}
	while (!ret && (len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (len && line[len - 1] == '\r')
			len--;
		ret = fdc_items_line(t, name, lineno, line, len);
	}
	if (!ret && ferror(f)) {
		fdc_err("pick: %s: %s", name, strerror(errno));
		ret = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	if (!ret && !t->n) {
		fdc_err("pick: %s: no items", name);
		ret = -1;
	}
	return ret;
}

/**
 * fdc_cmd_pick() - fairdie pick
 * @cfg: the global options
 * @argc: argument count, argv[0] being "pick"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_pick(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_items t = { 0 };
	struct fdc_wdie d;
	u64 count = 1;
	int c, ret;

	while ((c = fdc_getopt(cfg, argc, argv, "n:h", fdc_pick_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("pick", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			break;
		case 'J':
			t.json = true;
			break;
		case 'h':
			fdc_help(fdc_pick_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (argc - optind != 1) {
		fdc_err("pick: expected one FILE of 'WEIGHT ITEM' lines (try 'fairdie pick --help')");
		return FDC_EXIT_USAGE;
	}
	if (cfg->sides) {
		fdc_err("pick: --sides does not apply: the weights make the die");
		return FDC_EXIT_USAGE;
	}
	/* A file that cannot be read, or read as items, is a failure. */
	if (fdc_items_read(&t, argv[optind])) {
		fdc_items_free(&t);
		return FDC_EXIT_FAILURE;
	}
	if (fdc_wdie_init(&d, t.weight, t.n)) {
		fdc_items_free(&t);
		return FDC_EXIT_FAILURE;
	}
	if (t.json) {
		fdc_json_begin(stdout);
		fdc_json_key("picks");
		fdc_json_array();
	}
	ret = fdc_pick_draws(cfg, &d, count, fdc_items_put, &t);
	fdc_wdie_free(&d);
	fdc_items_free(&t);
	if (ret)
		return FDC_EXIT_FAILURE;
	return fdc_finish_output();
}
