// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the report of 'fairdie certify': DIR/report.json (schema
 * fairdie.certify/1, tools/cli/schema/certify.json) and DIR/report.html,
 * one self-contained page: inline CSS and inline SVG pictures, no script
 * and nothing fetched from a network.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certify.h"
#include "cli.h"

/* How the device fails closed, in the report's words. */
static const char fdc_cert_fails_closed[] =
"Every word from RDSEED or RDRAND passes the SP 800-90B continuous health\n"
"tests (repetition count, adaptive proportion, and a 64-bit word repeating\n"
"the ones before it) before any extractor sees it; a stuck source fails\n"
"within its first 17 words, before anything it made is delivered (bits its\n"
"well had tested and passed before may still be). A failure empties the\n"
"well; every file reading it gets EIO at its next read (poll() reports\n"
"POLLERR until then) and delivers nothing. Each later read restarts the\n"
"well with a fresh start-up test: while the source is still broken that\n"
"test fails within 1088 raw bits and the read fails with EIO again; once\n"
"it is good the reads go on, with no FAIRDIE_IOC_RESET. The kernel logs\n"
"each failure and sysfs counts it (health, health_failures). A game\n"
"reading /dev/fairdie therefore stops while the source is bad; it never\n"
"plays on unchecked bits.";

/* A text written in lines, as one line. */
static json_t *fdc_cert_text(const char *s)
{
	char *t = strdup(s), *n;
	json_t *j;

	if (!t)
		return json_null();
	while ((n = strchr(t, '\n')))
		*n = n[1] ? ' ' : '\0';
	j = json_string(t);
	free(t);
	return j;
}

static json_t *fdc_cert_num(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *fdc_cert_tests_json(const struct fdc_cert *c)
{
	json_t *a = json_array(), *o;
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct fdc_cert_row *r = &c->rows[i];

		o = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:s, s:s, s:s, s:b}",
			      "test", r->t.name, "data", r->t.target,
			      "stage", r->stage, "tool", r->tool,
			      "statistic", fdc_cert_num(r->t.stat),
			      "df", r->t.df ? json_integer(r->t.df) : json_null(),
			      "p_value", fdc_cert_num(r->t.p),
			      "result", r->pass ? "pass" : "fail",
			      "method", r->t.method,
			      "rule", *r->rule ? r->rule : "p >= 0.01",
			      "second_level", r->in_ks);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *fdc_cert_hist_json(const struct fdc_cert *c)
{
	json_t *a = json_array(), *counts, *o;
	char exact[64];
	size_t i, k;

	for (i = 0; i < FDC_CERT_DICE; i++) {
		if (!c->nhist[i])
			continue;
		counts = json_array();
		for (k = 0; k < c->sides[i]; k++)
			json_array_append_new(counts,
					      json_integer(c->hist[i][k]));
		snprintf(exact, sizeof(exact), "%llu/%u",
			 (unsigned long long)c->nhist[i], c->sides[i]);
		o = json_pack("{s:I, s:I, s:o, s:s, s:f}",
			      "sides", (json_int_t)c->sides[i],
			      "outcomes", (json_int_t)c->nhist[i],
			      "counts", counts, "expected_exact", exact,
			      "expected", (double)c->nhist[i] / c->sides[i]);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *fdc_cert_health_json(const struct fdc_cert *c)
{
	json_t *a = json_array(), *o;
	size_t i, k;

	for (i = 0; i < c->nhealth; i++) {
		const struct fdc_cert_health *h = &c->health[i];
		json_t *v[4];

		for (k = 0; k < 4; k++)
			v[k] = h->v[k] < 0 ? json_null() : json_integer(h->v[k]);
		o = json_pack("{s:s, s:f, s:o, s:o, s:o, s:o, s:o}",
			      "step", h->step, "seconds", h->seconds,
			      "health", *h->health ? json_string(h->health) : json_null(),
			      "source_bits", v[0], "outputs", v[1],
			      "health_failures", v[2], "source_failures", v[3]);
		json_array_append_new(a, o);
	}
	return a;
}

/**
 * fdc_cert_json() - the document of DIR/report.json
 * @c: the run
 *
 * Return: a new reference.
 */
json_t *fdc_cert_json(const struct fdc_cert *c)
{
	json_t *doc = json_object(), *caps = json_array(), *o;
	size_t i;

	for (i = 0; i < c->ncaps; i++) {
		const struct fdc_cert_capture *p = &c->caps[i];
		const char *base = strrchr(p->file, '/');

		o = json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:o, s:o, s:O?}",
			      "name", p->name, "stage", p->stage,
			      "file", base ? base + 1 : p->file,
			      "command", p->command, "status", p->status,
			      "seconds", p->seconds,
			      "bytes", p->bytes < 0 ? json_null() : json_integer(p->bytes),
			      "error", p->status && *p->error ? json_string(p->error) :
			      json_null(),
			      "sidecar", p->sidecar);
		json_array_append_new(caps, o);
		if (!p->sidecar)
			json_object_set_new(json_array_get(caps, i), "sidecar",
					    json_null());
	}
	json_object_set_new(doc, "schema", json_string("fairdie.certify/1"));
	json_object_set_new(doc, "started", json_string(c->started));
	json_object_set_new(doc, "seconds", json_real(c->seconds));
	json_object_set_new(doc, "command", json_string(c->argv));
	json_object_set_new(doc, "quick", json_boolean(c->quick));
	json_object_set_new(doc, "count", json_integer(c->count));
	json_object_set_new(doc, "alpha", json_real(FDC_CERT_ALPHA));
	json_object_set(doc, "verdict", c->verdict);
	json_object_set_new(doc, "tests", fdc_cert_tests_json(c));
	json_object_set(doc, "skipped", c->skipped);
	json_object_set_new(doc, "captures", caps);
	json_object_set(doc, "commands", c->commands);
	json_object_set_new(doc, "health", fdc_cert_health_json(c));
	json_object_set_new(doc, "histograms", fdc_cert_hist_json(c));
	json_object_set_new(doc, "decks", json_integer(c->decks));
	json_object_set_new(doc, "fault_demo",
			    c->fault ? json_incref(c->fault) : json_null());
	json_object_set_new(doc, "fails_closed", fdc_cert_text(fdc_cert_fails_closed));
	json_object_set(doc, "host", c->host);
	json_object_set(doc, "manifest", c->manifest);
	return doc;
}

/* --------------------------------------------------------------------
 * The page.
 */

static void fdc_html(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void fdc_html_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("&ndash;", f);
	else
		fprintf(f, "%.4g", v);
}

static const char fdc_cert_css[] =
"body{font-family:sans-serif;margin:2em;color:#222;max-width:1100px}\n"
"h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;margin-top:1.6em}\n"
"table{border-collapse:collapse;font-size:0.9em}\n"
"td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}\n"
"tr.fail td{background:#f8c8c8;color:#900;font-weight:bold}\n"
"tr.pass td.r{color:#060}\n"
".verdict{padding:0.6em 1em;font-size:1.2em;display:inline-block}\n"
".vpass{background:#d4f0d4}.vfail{background:#f8c8c8;color:#900}\n"
"pre{background:#f4f4f4;padding:0.5em;white-space:pre-wrap;word-break:break-all}\n"
"svg{background:#fff;border:1px solid #ddd;margin:4px}\n"
".small{font-size:0.8em;color:#555}";

/*
 * Bars of @n counts against the exact expectation @e and its 2 sd band;
 * the axis spans the counts and e +- 4 sd, so that a deviation shows.
 */
static void fdc_svg_hist(FILE *f, const char *title, const u64 *counts,
			 size_t n, double e, double sd)
{
	const int w = 520, h = 200, left = 50, top = 20, ph = 150;
	double lo = e - 4 * sd, hi = e + 4 * sd, bw = (double)(w - left - 10) / n;
	size_t i;

	for (i = 0; i < n; i++) {
		if (counts[i] > hi)
			hi = counts[i];
		if (counts[i] < lo)
			lo = counts[i];
	}
	lo = lo < 0 ? 0 : lo;
	hi += (hi - lo) * 0.05;
	fprintf(f, "<svg width=\"%d\" height=\"%d\" role=\"img\"><title>", w, h);
	fdc_html(f, title);
	fprintf(f, "</title><text x=\"%d\" y=\"14\" font-size=\"12\">", left);
	fdc_html(f, title);
	fputs("</text>", f);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"#fde8b0\"/>",
		left, top + ph * (hi - e - 2 * sd) / (hi - lo), w - left - 10,
		ph * 4 * sd / (hi - lo));
	for (i = 0; i < n; i++) {
		double bh = ph * (counts[i] - lo) / (hi - lo);

		fprintf(f,
			"<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#4a78b5\" fill-opacity=\"0.85\"/>",
			left + i * bw + bw * 0.1, top + ph - bh, bw * 0.8, bh);
	}
	fprintf(f,
		"<line x1=\"%d\" x2=\"%d\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#c00\" stroke-width=\"1.5\"/>",
		left, w - 10, top + ph * (hi - e) / (hi - lo),
		top + ph * (hi - e) / (hi - lo));
	fprintf(f, "<text x=\"2\" y=\"%d\" font-size=\"10\">%.0f</text>", top + 8, hi);
	fprintf(f, "<text x=\"2\" y=\"%d\" font-size=\"10\">%.0f</text>", top + ph, lo);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">face 0</text>", left, top + ph + 14);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">face %zu</text>",
		w - 10, top + ph + 14, n - 1);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"10\">red line: exact expectation; band: &#177;2 sd; axis from %.0f</text></svg>\n",
		left, top + ph + 28, lo);
}

static void fdc_svg_pvalues(FILE *f, const struct fdc_cert *c)
{
	u64 bins[10] = { 0 };
	size_t n = 0, i;

	for (i = 0; i < c->nrows; i++) {
		double p = c->rows[i].t.p;

		if (!c->rows[i].in_ks || isnan(p))
			continue;
		bins[p >= 1 ? 9 : (int)(p * 10)]++;
		n++;
	}
	if (!n)
		return;
	fdc_svg_hist(f, "p-values of the second level's lines in ten bins (uniform if all is well)",
		     bins, 10, n / 10.0, sqrt(n * 0.1 * 0.9));
}

/* Each card's standardized excess at each position, red above, blue below. */
static void fdc_svg_deck(FILE *f, const struct fdc_cert *c)
{
	const int cell = 8, m = FDC_CERT_CARDS;
	double e = (double)c->decks / m, z;
	int i, k;

	if (!c->deck || !c->decks)
		return;
	fprintf(f,
		"<svg width=\"%d\" height=\"%d\" role=\"img\"><title>card at each position</title>",
		m * cell + 20, m * cell + 40);
	for (i = 0; i < m; i++) {
		for (k = 0; k < m; k++) {
			int r = 255, g = 255, b = 255;

			z = (c->deck[i][k] - e) / sqrt(e * (m - 1) / m);
			z = z > 3 ? 3 : z < -3 ? -3 : z;
			if (z > 0) {
				g = 255 - (int)(z * 80);
				b = g;
			} else {
				r = 255 + (int)(z * 80);
				g = r;
			}
			fprintf(f,
				"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,%d)\"/>",
				10 + k * cell, 10 + i * cell, cell, cell, r, g, b);
		}
	}
	fprintf(f,
		"<text x=\"10\" y=\"%d\" font-size=\"10\">rows: positions, columns: cards; colour: standardized excess, &#177;3 sd saturated</text></svg>\n",
		m * cell + 30);
}

/* The counters at each step: a line of source bits, marks for failures. */
static void fdc_svg_health(FILE *f, const struct fdc_cert *c)
{
	const int w = 520, h = 200, left = 50, top = 20, ph = 140;
	double max = 1, x, y, px = 0, py = 0;
	size_t i;

	if (c->nhealth < 2 || c->health[0].v[0] < 0)
		return;
	for (i = 0; i < c->nhealth; i++)
		if (c->health[i].v[0] > max)
			max = c->health[i].v[0];
	fprintf(f,
		"<svg width=\"%d\" height=\"%d\" role=\"img\"><title>health counters</title>",
		w, h);
	fprintf(f,
		"<text x=\"%d\" y=\"14\" font-size=\"12\">device-wide source bits (line) and health or source failures (red marks) over the run</text>",
		left);
	for (i = 0; i < c->nhealth; i++) {
		x = left + (w - left - 20) * (double)i / (c->nhealth - 1);
		y = top + ph * (1 - c->health[i].v[0] / max);
		if (i)
			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#4a78b5\" stroke-width=\"2\"/>",
				px, py, x, y);
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>", x, y,
			c->health[i].v[2] > 0 || c->health[i].v[3] > 0 ? 6 : 3,
			c->health[i].v[2] > 0 || c->health[i].v[3] > 0 ?
			"#c00" : "#4a78b5");
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" font-size=\"9\" transform=\"rotate(20 %.1f %d)\">",
			x, top + ph + 12, x, top + ph + 12);
		fdc_html(f, c->health[i].step);
		fputs("</text>", f);
		px = x;
		py = y;
	}
	fprintf(f, "<text x=\"2\" y=\"%d\" font-size=\"10\">%.3g</text></svg>\n", top + 8, max);
}

static void fdc_html_kv(FILE *f, const char *k, const json_t *v)
{
	char *s;

	fputs("<tr><th>", f);
	fdc_html(f, k);
	fputs("</th><td>", f);
	if (json_is_string(v)) {
		fdc_html(f, json_string_value(v));
	} else if (json_is_null(v) || !v) {
		fputs("<i>unknown</i>", f);
	} else {
		s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		fdc_html(f, s);
		free(s);
	}
	fputs("</td></tr>\n", f);
}

static void fdc_html_table(FILE *f, const struct fdc_cert *c)
{
	size_t i;

	fprintf(f, "%s",
		"<table><tr><th>test</th><th>data</th><th>stage</th><th>tool</th><th>statistic</th><th>p-value</th><th>result</th><th>method</th></tr>\n");
	for (i = 0; i < c->nrows; i++) {
		const struct fdc_cert_row *r = &c->rows[i];

		fprintf(f, "<tr class=\"%s\"><td>", r->pass ? "pass" : "fail");
		fdc_html(f, r->t.name);
		fputs("</td><td>", f);
		fdc_html(f, r->t.target);
		fputs("</td><td>", f);
		fdc_html(f, r->stage);
		fputs("</td><td>", f);
		fdc_html(f, r->tool);
		fputs("</td><td>", f);
		fdc_html_num(f, r->t.stat);
		if (r->t.df)
			fprintf(f, " (df %u)", r->t.df);
		fputs("</td><td>", f);
		fdc_html_num(f, r->t.p);
		fprintf(f, "</td><td class=\"r\">%s</td><td class=\"small\">",
			r->pass ? "pass" : "FAIL");
		fdc_html(f, r->t.method);
		if (*r->rule) {
			fputs("; rule: ", f);
			fdc_html(f, r->rule);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/**
 * fdc_cert_write_html() - DIR/report.html
 * @c: the run
 * @path: the file
 *
 * Return: 0, or -1 with errno set.
 */
int fdc_cert_write_html(const struct fdc_cert *c, const char *path)
{
	const char *family = json_string_value(json_object_get(c->verdict,
							       "family"));
	bool pass = family && !strcmp(family, "pass");
	const char *key;
	json_t *v, *e;
	size_t i, failed = 0;
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	for (i = 0; i < c->nrows; i++)
		failed += !c->rows[i].pass;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		"<title>fairdie certification report</title><style>%s</style></head><body>\n",
		fdc_cert_css);
	fputs("<h1>fairdie certification report</h1>\n<p>", f);
	fdc_html(f, c->started);
	fprintf(f, ", %.0f s, %s run, %llu final outcomes per die. Every line is tested at\n"
		"&alpha; = %.2g (99%% confidence).</p>\n",
		c->seconds, c->quick ? "quick" : "full", c->count, FDC_CERT_ALPHA);
	fprintf(f, "<p class=\"verdict %s\">%zu lines, %zu failed; family verdict: %s</p>\n",
		pass && !failed ? "vpass" : "vfail", c->nrows, failed,
		family ? family : "?");
	fprintf(f, "<p class=\"small\">The family passes when every check passes and the smallest\n"
		"p-value is at least %.3g (Bonferroni: 0.01 over the tests), so a healthy\n"
		"device fails it at most 1%% of the time; about %.1f red lines are\n"
		"expected by chance at 1%% each.</p>\n",
		json_real_value(json_object_get(c->verdict, "bonferroni_level")),
		json_real_value(json_object_get(c->verdict,
						"expected_false_failures")));

	fputs("<h2 id=\"summary\">Summary</h2>\n", f);
	fdc_html_table(f, c);
	if (json_array_size(c->skipped)) {
		fputs("<h3>Not run</h3><ul>\n", f);
		json_array_foreach(c->skipped, i, e) {
			fputs("<li>", f);
			fdc_html(f, json_string_value(json_object_get(e, "test")));
			fputs(" (", f);
			fdc_html(f, json_string_value(json_object_get(e, "stage")));
			fputs("): ", f);
			fdc_html(f, json_string_value(json_object_get(e, "reason")));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}

	fputs("<h2>Outcomes against the exact expectation</h2>\n", f);
	for (i = 0; i < FDC_CERT_DICE; i++) {
		char title[96];
		double e, sd;

		if (!c->nhist[i])
			continue;
		e = (double)c->nhist[i] / c->sides[i];
		sd = sqrt(e * (1 - 1.0 / c->sides[i]));
		snprintf(title, sizeof(title), "d%u: %llu outcomes, each face expects %llu/%u",
			 c->sides[i], (unsigned long long)c->nhist[i],
			 (unsigned long long)c->nhist[i], c->sides[i]);
		fdc_svg_hist(f, title, c->hist[i], c->sides[i], e, sd);
	}
	fdc_svg_deck(f, c);
	fputs("<h2>Distribution of the p-values</h2>\n", f);
	fdc_svg_pvalues(f, c);
	fputs("<h2>Health counters over the run</h2>\n", f);
	fdc_svg_health(f, c);
	fprintf(f, "%s",
		"<table><tr><th>step</th><th>s</th><th>health</th><th>source_bits</th><th>outputs</th><th>health_failures</th><th>source_failures</th></tr>\n");
	for (i = 0; i < c->nhealth; i++) {
		const struct fdc_cert_health *h = &c->health[i];
		int k;

		fputs("<tr><td>", f);
		fdc_html(f, h->step);
		fprintf(f, "</td><td>%.1f</td><td>", h->seconds);
		fdc_html(f, *h->health ? h->health : "unknown");
		fputs("</td>", f);
		for (k = 0; k < 4; k++)
			if (h->v[k] < 0)
				fputs("<td>&ndash;</td>", f);
			else
				fprintf(f, "<td>%lld</td>", h->v[k]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);

	fputs("<h2>How the device fails closed</h2>\n<p>", f);
	fdc_html(f, fdc_cert_fails_closed);
	fputs("</p>\n", f);
	if (c->fault) {
		fputs("<p>Fault demonstration (--fault-demo):</p><table>\n", f);
		json_object_foreach(c->fault, key, v)
			fdc_html_kv(f, key, v);
		fputs("</table>\n", f);
	} else {
		fprintf(f, "%s",
			"<p class=\"small\">No fault demonstration in this run (--fault-demo on a fault-injection build shows it).</p>\n");
	}

	fputs("<h2>Commands and configuration</h2>\n<pre>", f);
	fdc_html(f, c->argv);
	fputs("\n", f);
	for (i = 0; i < c->ncaps; i++) {
		fdc_html(f, c->caps[i].command);
		fprintf(f, "    # exit %d, %.1f s", c->caps[i].status,
			c->caps[i].seconds);
		if (c->caps[i].status && *c->caps[i].error) {
			fputs(": ", f);
			fdc_html(f, c->caps[i].error);
		}
		fputs("\n", f);
	}
	json_array_foreach(c->commands, i, e) {
		fdc_html(f, json_string_value(e));
		fputs("\n", f);
	}
	fputs("</pre>\n<h2>Host</h2>\n<table>\n", f);
	json_object_foreach(c->host, key, v)
		fdc_html_kv(f, key, v);
	fprintf(f, "%s",
		"</table>\n<h2>Manifest (SHA-256)</h2>\n<table><tr><th>what</th><th>file</th><th>bytes</th><th>SHA-256</th></tr>\n");
	json_array_foreach(c->manifest, i, e) {
		fputs("<tr><td>", f);
		fdc_html(f, json_string_value(json_object_get(e, "what")));
		fputs("</td><td>", f);
		fdc_html(f, json_is_string(json_object_get(e, "file")) ?
			 json_string_value(json_object_get(e, "file")) : "not found");
		fprintf(f, "</td><td>%lld</td><td><code>",
			(long long)json_integer_value(json_object_get(e, "bytes")));
		fdc_html(f, json_is_string(json_object_get(e, "sha256")) ?
			 json_string_value(json_object_get(e, "sha256")) : "-");
		fputs("</code></td></tr>\n", f);
	}
	fputs("</table>\n<p class=\"small\">Written by fairdie " FDC_VERSION
	      " certify; the same facts are in report.json.</p>\n</body></html>\n", f);
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}
