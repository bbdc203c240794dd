// SPDX-License-Identifier: GPL-2.0
/*
 * certify-calib - the calibration of the p-values of 'fairdie certify'.
 *
 * Runs certify's tests many times on a known-good stream (ChaCha20's
 * keystream from nettle, a key per run) at the sizes 'certify --quick'
 * uses, and prints for every line of the report the fraction of its
 * p-values below 0.01 and below 0.001 and a Kolmogorov-Smirnov test that
 * they are uniform; then the same for the second-level test and the family
 * verdict. A calibrated line fails 1 % of healthy runs.
 *
 *   certify-calib [--reps R] [--count N] [--seed S] [--ent] [--dieharder]
 *                 [--spectral-only] [--dump FILE]
 *
 * Each run takes the tests of stats.c on a d2, d6, d37 and d100 of N
 * outcomes each and N/100 decks of 52 (the final stage), and with --ent
 * Debian's ent -t and rngtest on two files of 8N bytes (the raw and the
 * conditioned stage), with --dieharder certify's quick dieharder subset on
 * them too (slow). Outcomes are made from the keystream by rejection
 * (exactly uniform), decks by Durstenfeld's shuffle. 'make certify-calib'
 * runs it; it is a developer's tool, not a test of 'make check'.
 */

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nettle/chacha.h>

#include "certify.h"
#include "stats.h"

#define CAL_MAX_LINES	128
#define CAL_BUF		4096

struct cal_rng {
	struct chacha_ctx ctx;
	u8 buf[CAL_BUF];
	size_t pos;
	u64 bits;
	unsigned int nbits;
};

static void cal_rng_init(struct cal_rng *r, u64 seed, u64 run, u64 stream)
{
	u8 key[CHACHA_KEY_SIZE] = { 0 }, nonce[CHACHA_NONCE_SIZE] = { 0 };

	memcpy(key, &seed, sizeof(seed));
	memcpy(key + 8, &run, sizeof(run));
	memcpy(nonce, &stream, sizeof(stream) < sizeof(nonce) ?
	       sizeof(stream) : sizeof(nonce));
	chacha_set_key(&r->ctx, key);
	chacha_set_nonce(&r->ctx, nonce);
	r->pos = CAL_BUF;
	r->nbits = 0;
}

static void cal_rng_bytes(struct cal_rng *r, u8 *out, size_t n)
{
	memset(out, 0, n);
	chacha_crypt(&r->ctx, n, out, out);
}

static u32 cal_rng_u32(struct cal_rng *r)
{
	u32 v;

	if (r->pos + 4 > CAL_BUF) {
		cal_rng_bytes(r, r->buf, CAL_BUF);
		r->pos = 0;
	}
	memcpy(&v, r->buf + r->pos, 4);
	r->pos += 4;
	return v;
}

/* An exactly uniform value of 0..n-1: rejection below 2^32 mod n. */
static unsigned int cal_uniform(struct cal_rng *r, u32 n)
{
	u32 lim = (u32)(-n) % n, x;

	if (n == 2) {
		if (!r->nbits) {
			r->bits = cal_rng_u32(r);
			r->nbits = 32;
		}
		r->nbits--;
		return (r->bits >> r->nbits) & 1;
	}
	do
		x = cal_rng_u32(r);
	while (x < lim);
	return x % n;
}

/* The p-values of one line of the report over the runs. */
struct cal_line {
	char name[64];
	char target[32];
	double *p;
	size_t n;
};

static struct cal_line cal_lines[CAL_MAX_LINES];
static size_t cal_nlines;
static size_t cal_reps;

static void cal_add(const char *name, const char *target, double p)
{
	struct cal_line *l;
	size_t i;

	for (i = 0; i < cal_nlines; i++)
		if (!strcmp(cal_lines[i].name, name) &&
		    !strcmp(cal_lines[i].target, target))
			break;
	if (i == cal_nlines) {
		if (cal_nlines == CAL_MAX_LINES)
			return;
		l = &cal_lines[cal_nlines++];
		snprintf(l->name, sizeof(l->name), "%s", name);
		snprintf(l->target, sizeof(l->target), "%s", target);
		l->p = calloc(cal_reps, sizeof(*l->p));
		if (!l->p) {
			perror("certify-calib");
			exit(1);
		}
	}
	l = &cal_lines[i];
	if (l->n < cal_reps)
		l->p[l->n++] = p;
}

/* The lines of one run, as certify would put them in its report. */
struct cal_run {
	double p[CAL_MAX_LINES];
	bool in_ks[CAL_MAX_LINES];
	bool dh[CAL_MAX_LINES];
	size_t n;
};

static void cal_line(struct cal_run *run, const struct fdc_test *t,
		     bool in_ks)
{
	if (isnan(t->p))
		return;
	cal_add(t->name, t->target, t->p);
	if (run->n < CAL_MAX_LINES) {
		run->in_ks[run->n] = in_ks && !t->overlaps;
		run->dh[run->n] = !strncmp(t->name, "dieharder", 9);
		run->p[run->n++] = t->p;
	}
}

static void cal_final(struct cal_run *run, struct cal_rng *r, u64 count,
		      bool spectral_only)
{
	static const unsigned int dice[] = { 2, 6, 37, 100 };
	struct fdc_die_stats *s = malloc(sizeof(*s));
	struct fdc_deck_stats *d = malloc(sizeof(*d));
	struct fdc_test t[32];
	u8 deck[FDC_CERT_CARDS];
	size_t i, k, n;
	u64 j;

	if (!s || !d) {
		perror("certify-calib");
		exit(1);
	}
	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		if (spectral_only && dice[i] != 2)
			continue;
		if (fdc_die_stats_init(s, dice[i])) {
			perror("certify-calib");
			exit(1);
		}
		for (j = 0; j < count; j++)
			fdc_die_stats_add(s, cal_uniform(r, dice[i]));
		n = fdc_die_stats_results(s, t, ARRAY_SIZE(t));
		for (k = 0; k < n; k++)
			if (!spectral_only || strstr(t[k].name, "spectral"))
				cal_line(run, &t[k], true);
		fdc_die_stats_free(s);
	}
	if (!spectral_only) {
		fdc_deck_stats_init(d, FDC_CERT_CARDS);
		for (j = 0; j < count / 100; j++) {
			for (k = 0; k < FDC_CERT_CARDS; k++)
				deck[k] = k;
			for (k = FDC_CERT_CARDS - 1; k > 0; k--) {
				unsigned int m = cal_uniform(r, k + 1);
				u8 c = deck[k];

				deck[k] = deck[m];
				deck[m] = c;
			}
			fdc_deck_stats_add(d, deck);
		}
		n = fdc_deck_stats_results(d, t, 1);
		for (k = 0; k < n; k++)
			cal_line(run, &t[k], true);
	}
	free(s);
	free(d);
}

/* The batteries on a file of @bytes bytes, as certify runs them. */
static void cal_batteries(struct cal_run *run, struct cal_rng *r,
			  u64 bytes, const char *target, bool dieharder)
{
	static const int dh[] = { 0, 100, 101 };
	char path[] = "/tmp/certify-calib-XXXXXX", cmd[256], line[512];
	u8 *buf = malloc(1 << 20);
	unsigned long long ok = 0, bad = 0;
	struct fdc_test t[3];
	struct fdc_ent e;
	bool have = false;
	FILE *f;
	int fd;
	u64 done;
	size_t i, n;
	char *s;

	fd = mkstemp(path);
	if (fd < 0 || !buf) {
		perror("certify-calib");
		exit(1);
	}
	f = fdopen(fd, "wb");
	for (done = 0; done < bytes; done += n) {
		n = bytes - done < (1 << 20) ? bytes - done : (1 << 20);
		cal_rng_bytes(r, buf, n);
		fwrite(buf, 1, n, f);
	}
	fclose(f);
	free(buf);
	snprintf(cmd, sizeof(cmd), "ent -t %s", path);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!fdc_ent_parse(line, &e))
			have = true;
	if (f)
		pclose(f);
	if (have) {
		n = fdc_ent_results(&e, target, t, 3);
		for (i = 0; i < n; i++)
			cal_line(run, &t[i], true);
	}
	snprintf(cmd, sizeof(cmd), "rngtest < %s 2>&1", path);
	f = popen(cmd, "r");
	while (f && fgets(line, sizeof(line), f)) {
		s = strstr(line, "FIPS 140-2 successes:");
		if (s)
			ok = strtoull(s + 21, NULL, 10);
		s = strstr(line, "FIPS 140-2 failures:");
		if (s)
			bad = strtoull(s + 20, NULL, 10);
	}
	if (f)
		pclose(f);
	if (ok + bad) {
		fdc_fips_result(ok, bad, target, &t[0]);
		cal_line(run, &t[0], false);
	}
	for (i = 0; dieharder && i < ARRAY_SIZE(dh); i++) {
		long samples = fdc_dieharder_samples(bytes);
		char name[64], ass[16];
		int ntup;
		long ts, ps;
		double pv;
		bool rewound = false;

		if (samples < 1)
			continue;
		snprintf(cmd, sizeof(cmd),
			 "dieharder -g 201 -f %s -d %d -p %ld 2>&1", path,
			 dh[i], samples);
		f = popen(cmd, "r");
		while (f && fgets(line, sizeof(line), f)) {
			rewound |= !!strstr(line, "was rewound");
			if (sscanf(line, " %63[a-z0-9_]|%d|%ld|%ld|%lf|%15s",
				   name, &ntup, &ts, &ps, &pv, ass) != 6)
				continue;
			if (rewound)
				break;
			memset(t, 0, sizeof(t[0]));
			snprintf(t[0].name, sizeof(t[0].name), "dieharder %.40s",
				 name);
			snprintf(t[0].target, sizeof(t[0].target), "%s",
				 target);
			t[0].p = pv;
			cal_line(run, &t[0], false);
		}
		if (f)
			pclose(f);
	}
	unlink(path);
}

static int cal_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The 99 % band of a binomial count of @n trials at @q (normal limit). */
static void cal_band(size_t n, double q, double *lo, double *hi)
{
	double sd = sqrt(n * q * (1 - q));

	*lo = (n * q - 2.576 * sd) / n;
	*hi = (n * q + 2.576 * sd) / n;
	if (*lo < 0)
		*lo = 0;
}

static void cal_report_line(const char *name, const char *target,
			    double *p, size_t n)
{
	size_t below = 0, below3 = 0, i;
	double d, ks, lo, hi;

	for (i = 0; i < n; i++) {
		below += p[i] < 0.01;
		below3 += p[i] < 0.001;
	}
	cal_band(n, 0.01, &lo, &hi);
	ks = fdc_ks_uniform(p, n, &d);
	qsort(p, n, sizeof(*p), cal_cmp);
	printf("%-34s %-14s %5zu  %6.4f%s %7.5f  %.3f %8.2g  %.2g\n", name,
	       target, n, (double)below / n,
	       (double)below / n > hi || (double)below / n < lo ? "*" : " ",
	       (double)below3 / n, d, ks, p[0]);
}

static const char cal_help[] =
"Usage: certify-calib [--reps R] [--count N] [--seed S] [--ent]\n"
"                     [--dieharder] [--spectral-only] [--dump FILE]\n"
"Runs the tests of 'fairdie certify' R times (default 200) on ChaCha20's\n"
"keystream at N outcomes a die (default 10^6, as certify --quick) and\n"
"prints, for each line, the fraction of p-values below 0.01 (a '*' when\n"
"outside the 99% binomial band around 0.01) and below 0.001, the KS\n"
"distance and p-value of their uniformity, and the smallest p-value; then\n"
"the second-level test and the family verdict. --dump writes every run's\n"
"p-values to FILE, a line a run, tab-separated, the first line names them.\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "reps", required_argument, NULL, 'r' },
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "ent", no_argument, NULL, 'e' },
		{ "dieharder", no_argument, NULL, 'd' },
		{ "spectral-only", no_argument, NULL, 'S' },
		{ "dump", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	u64 count = 1000000, seed = 1, rep;
	bool ent = false, dieharder = false, spectral_only = false;
	size_t ks_fail = 0, family_fail = 0, any_fail = 0, i;
	double *ksp, *lines_per_run;
	FILE *dump = NULL;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			cal_reps = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'e':
			ent = true;
			break;
		case 'd':
			dieharder = true;
			ent = true;
			break;
		case 'S':
			spectral_only = true;
			break;
		case 'D':
			dump = fopen(optarg, "w");
			if (!dump) {
				perror(optarg);
				return 1;
			}
			break;
		case 'h':
			fputs(cal_help, stdout);
			return 0;
		default:
			fputs(cal_help, stderr);
			return 2;
		}
	}
	if (!cal_reps)
		cal_reps = 200;
	if (count < 1000) {
		fprintf(stderr, "certify-calib: --count of at least 1000\n");
		return 2;
	}
	ksp = calloc(cal_reps, sizeof(*ksp));
	lines_per_run = calloc(cal_reps, sizeof(*lines_per_run));
	if (!ksp || !lines_per_run)
		return 1;
	for (rep = 0; rep < cal_reps; rep++) {
		struct cal_run run = { .n = 0 };
		struct cal_rng r;
		double ks_in[CAL_MAX_LINES], d, minp = 1;
		size_t nks = 0, bad = 0;

		cal_rng_init(&r, seed, rep, 0);
		cal_final(&run, &r, count, spectral_only);
		if (ent && !spectral_only) {
			cal_rng_init(&r, seed, rep, 1);
			cal_batteries(&run, &r, 8 * count, "raw", dieharder);
			cal_rng_init(&r, seed, rep, 2);
			cal_batteries(&run, &r, 8 * count, "conditioned",
				      dieharder);
		}
		for (i = 0; i < run.n; i++) {
			bool dh_red = run.p[i] < (1 / 1e6) || run.p[i] > 1 - (1 / 1e6);

			if (run.in_ks[i])
				ks_in[nks++] = run.p[i];
			if (run.dh[i]) {
				/* dieharder's own verdict, FAILED */
				bad += dh_red;
				if (dh_red && run.p[i] < minp)
					minp = run.p[i];
				continue;
			}
			if (run.p[i] < minp)
				minp = run.p[i];
			bad += run.p[i] < FDC_CERT_ALPHA;
		}
		if (dump) {
			if (!rep)
				for (i = 0; i < cal_nlines; i++)
					fprintf(dump, "%s|%s%c", cal_lines[i].name,
						cal_lines[i].target,
						i + 1 < cal_nlines ? '\t' : '\n');
			for (i = 0; i < run.n; i++)
				fprintf(dump, "%.17g%c", run.p[i],
					i + 1 < run.n ? '\t' : '\n');
		}
		ksp[rep] = fdc_ks_uniform(ks_in, nks, &d);
		ks_fail += ksp[rep] < FDC_CERT_ALPHA;
		if (ksp[rep] < minp)
			minp = ksp[rep];
		/*
		 * certify's family verdict: the smallest p-value (the second
		 * level's too) against 1 % / lines.
		 */
		family_fail += minp < FDC_CERT_ALPHA / (run.n + 1);
		any_fail += bad || ksp[rep] < FDC_CERT_ALPHA;
		lines_per_run[rep] = bad + (ksp[rep] < FDC_CERT_ALPHA);
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\rcertify-calib: run %llu of %zu",
				(unsigned long long)rep + 1, cal_reps);
	}
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr);
	printf("certify-calib: %zu runs, %llu outcomes a die, seed %llu%s\n",
	       cal_reps, (unsigned long long)count, (unsigned long long)seed,
	       ent ? (dieharder ? ", ent, rngtest, dieharder" :
		      ", ent, rngtest") : "");
	printf("%-34s %-14s %5s  %-7s %-7s  %-5s %8s  %s\n", "test", "data",
	       "runs", "p<0.01", "p<0.001", "KS D", "KS p", "min p");
	for (i = 0; i < cal_nlines; i++)
		cal_report_line(cal_lines[i].name, cal_lines[i].target,
				cal_lines[i].p, cal_lines[i].n);
	if (!spectral_only)
		cal_report_line("uniformity of the p-values (KS)", "all", ksp,
				cal_reps);
	{
		double mean = 0;

		for (i = 0; i < cal_reps; i++)
			mean += lines_per_run[i] / cal_reps;
		printf("red lines per run: %.3f (expected %.3f); runs with a red line: %.3f\n",
		       mean, FDC_CERT_ALPHA * (cal_nlines + 1),
		       (double)any_fail / cal_reps);
	}
	printf("family verdict failed: %zu of %zu runs (%.4f; a bound of 0.01)\n",
	       family_fail, cal_reps, (double)family_fail / cal_reps);
	return 0;
}
