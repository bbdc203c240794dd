// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie certify [--quick] [--fault-demo] DIR': the folder
 * a test lab asks for. Fresh captures of the three stages, each made by
 * 'fairdie collect' run as a program of its own (its command line goes in
 * the report); Debian's batteries on the raw and conditioned bits (ent,
 * rngtest's FIPS 140-2 tests, dieharder); the tests of stats.c on the final
 * outcomes; a second-level test of the p-values; the host, the health
 * counters over the run and a SHA-256 manifest. certify_report.c writes
 * DIR/report.json and DIR/report.html. See fairdie(1) and
 * Documentation/admin-guide/certification.rst.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "certify.h"
#include "cli.h"
#include "fd_names.h"

#ifndef FDC_GIT_COMMIT
#define FDC_GIT_COMMIT ""
#endif

/* Final outcomes per die: the quick subset and the full run. */
#define FDC_CERT_QUICK_COUNT	1000000ULL
#define FDC_CERT_FULL_COUNT	10000000ULL
/* The least --count: every test of a d100 needs some room. */
#define FDC_CERT_MIN_COUNT	10000ULL

#define FDC_SYSFS	"/sys/class/misc/fairdie/"
#define FDC_DEBUGFS	"/sys/kernel/debug/fairdie/"

static const char fdc_certify_help[] =
"Usage: fairdie certify [--quick] [--fault-demo] [--count N] DIR\n"
"Make the folder a test lab asks for: fresh captures of the raw words,\n"
"the conditioned bits and final outcomes (d2, d6, d37, d100 and shuffled\n"
"decks of 52), each made by 'fairdie collect'; ent, rngtest (FIPS 140-2)\n"
"and dieharder on the raw and conditioned bits; chi-square of faces,\n"
"serial pairs, runs, gap, poker, coupon collector, permutation, serial\n"
"correlation, spectral and deck position tests on the final outcomes at\n"
"99% confidence; a second-level test of the p-values. Writes\n"
"DIR/report.html (one self-contained page), DIR/report.json, the\n"
"captures and a SHA-256 manifest. Raw words need root (CAP_SYS_ADMIN).\n"
"\n"
"Options:\n"
"      --quick             the quick subset: 10^6 outcomes a die, dieharder's\n"
"                          birthdays, monobit and runs tests (about 10\n"
"                          minutes on 2 cores in the VM)\n"
"      --count N           final outcomes per die (default 10^6 with --quick,\n"
"                          10^7 without); raw words and conditioned bytes\n"
"                          are N and 8N, decks N/100\n"
"      --fault-demo        also make the source stuck (fault-injection build,\n"
"                          debugfs) during a read and record that the\n"
"                          device fails closed\n"
"      --module FILE       the module file to put in the manifest (default:\n"
"                          the one modinfo names)\n"
"      --json              print report.json on standard output as well\n"
"  -h, --help              show this help and exit\n"
"The full run (no --quick) streams dieharder -a from the device for hours.\n";

static const struct option fdc_certify_opts[] = {
	{ "quick", no_argument, NULL, 'q' },
	{ "count", required_argument, NULL, 'n' },
	{ "fault-demo", no_argument, NULL, 'F' },
	{ "module", required_argument, NULL, 'M' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static struct timespec fdc_cert_t0;

static double fdc_cert_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec - fdc_cert_t0.tv_sec) +
	       (ts.tv_nsec - fdc_cert_t0.tv_nsec) / 1e9;
}

static void *fdc_cert_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fdc_err("certify: out of memory");
		exit(FDC_EXIT_FAILURE);
	}
	return p;
}

static char *fdc_cert_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = fdc_cert_alloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* A command line as a shell would take it back. */
static char *fdc_cert_quote_argv(char *const *argv)
{
	size_t n = 1, i;
	char *s, *o;
	const char *a;

	for (i = 0; argv[i]; i++)
		n += strlen(argv[i]) * 4 + 3;
	s = fdc_cert_alloc(n);
	o = s;
	for (i = 0; argv[i]; i++) {
		bool plain = *argv[i];

		for (a = argv[i]; *a; a++)
			if (!isalnum((unsigned char)*a) && !strchr("-_./=:,+%@", *a))
				plain = false;
		if (i)
			*o++ = ' ';
		if (plain) {
			o = stpcpy(o, argv[i]);
			continue;
		}
		*o++ = '\'';
		for (a = argv[i]; *a; a++) {
			if (*a == '\'')
				o = stpcpy(o, "'\\''");
			else
				*o++ = *a;
		}
		*o++ = '\'';
	}
	*o = '\0';
	return s;
}

/* Fill @argv with the arguments up to a NULL, which ends it too. */
static void fdc_cert_args(char **argv, size_t max, ...)
{
	va_list ap;
	size_t n = 0;
	char *a;

	va_start(ap, max);
	do {
		a = va_arg(ap, char *);
		if (n + 1 < max || !a)
			argv[n++] = a;
	} while (a);
	va_end(ap);
}

/* The first line of a small file, without its newline; "" when unreadable. */
static void fdc_cert_read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/**
 * struct fdc_cert_proc - how to run one program
 * @argv: its arguments, ending in NULL
 * @in: its standard input (a file), or NULL for /dev/null
 * @out: its standard output (a file, truncated), or NULL for /dev/null
 * @out_fd: or a descriptor for its standard output, when >= 0
 * @in_fd: or a descriptor for its standard input, when > 0
 * @echo: show its standard error on ours (a progress meter on a terminal)
 * @err: receives the tail of its standard error
 * @status: its exit status, 128 + N for signal N, -1 when it did not start
 * @seconds: how long it ran
 */
struct fdc_cert_proc {
	char *const *argv;
	const char *in;
	const char *out;
	int out_fd;
	int in_fd;
	bool echo;
	char err[4096];
	int status;
	double seconds;
};

/* Run @p->argv and wait for it; standard error kept in @p->err. */
static void fdc_cert_run(struct fdc_cert_proc *p)
{
	int errp[2], in, out, st = 0;
	size_t len = 0;
	double t = fdc_cert_now();
	pid_t pid;
	ssize_t r;
	char buf[1024];

	p->status = -1;
	p->err[0] = '\0';
	if (pipe(errp))
		return;
	pid = fork();
	if (pid < 0) {
		close(errp[0]);
		close(errp[1]);
		return;
	}
	if (!pid) {
		in = p->in_fd > 0 ? p->in_fd :
		     open(p->in ? p->in : "/dev/null", O_RDONLY);
		out = p->out_fd >= 0 ? p->out_fd :
		      open(p->out ? p->out : "/dev/null",
			   O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in < 0 || out < 0) {
			dprintf(errp[1], "cannot open %s\n",
				in < 0 ? p->in : p->out);
			_exit(127);
		}
		dup2(in, STDIN_FILENO);
		dup2(out, STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		close(errp[0]);
		execvp(p->argv[0], p->argv);
		dprintf(STDERR_FILENO, "cannot run %s: %s\n", p->argv[0],
			strerror(errno));
		_exit(127);
	}
	close(errp[1]);
	while ((r = read(errp[0], buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p->echo && write(STDERR_FILENO, buf, r) < 0)
			p->echo = false;
		/* Keep the last bytes. */
		if (len + r >= sizeof(p->err)) {
			size_t keep = sizeof(p->err) / 2;

			if (len > keep) {
				memmove(p->err, p->err + len - keep, keep);
				len = keep;
			}
			if ((size_t)r >= sizeof(p->err) - len)
				r = sizeof(p->err) - len - 1;
		}
		memcpy(p->err + len, buf, r);
		len += r;
	}
	p->err[len] = '\0';
	close(errp[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	p->seconds = fdc_cert_now() - t;
}

/* The last non-empty line of @s, meter lines ("\r...") left out. */
static void fdc_cert_last_line(const char *s, char *out, size_t size)
{
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n' && start[-1] != '\r')
		start--;
	snprintf(out, size, "%.*s", (int)(end - start), start);
}

static struct fdc_cert_row *fdc_cert_row(struct fdc_cert *c,
					 const struct fdc_test *t,
					 const char *stage, const char *tool)
{
	struct fdc_cert_row *r;

	c->rows = realloc(c->rows, (c->nrows + 1) * sizeof(*c->rows));
	if (!c->rows) {
		fdc_err("certify: out of memory");
		exit(FDC_EXIT_FAILURE);
	}
	r = &c->rows[c->nrows++];
	memset(r, 0, sizeof(*r));
	r->t = *t;
	snprintf(r->stage, sizeof(r->stage), "%s", stage);
	snprintf(r->tool, sizeof(r->tool), "%s", tool);
	r->pass = !isnan(t->p) && t->p >= FDC_CERT_ALPHA;
	r->in_ks = !isnan(t->p) && !t->overlaps;
	return r;
}

/* A line that is a check rather than a test: pass or fail, no p-value. */
static struct fdc_cert_row *fdc_cert_check(struct fdc_cert *c,
					   const char *name, const char *target,
					   const char *stage, const char *tool,
					   bool pass, const char *what)
{
	struct fdc_test t = { .stat = NAN, .p = NAN };
	struct fdc_cert_row *r;

	snprintf(t.name, sizeof(t.name), "%s", name);
	snprintf(t.target, sizeof(t.target), "%s", target);
	snprintf(t.method, sizeof(t.method), "%s", what);
	r = fdc_cert_row(c, &t, stage, tool);
	r->pass = pass;
	r->in_ks = false;
	snprintf(r->rule, sizeof(r->rule), "exact check");
	return r;
}

static void fdc_cert_skip(struct fdc_cert *c, const char *test,
			  const char *stage, const char *reason)
{
	json_array_append_new(c->skipped,
			      json_pack("{s:s, s:s, s:s}", "test", test,
					"stage", stage, "reason", reason));
}

static void fdc_cert_command(struct fdc_cert *c, char *const *argv,
			     const char *redirect)
{
	char *s = fdc_cert_quote_argv(argv);
	size_t n = strlen(s) + (redirect ? strlen(redirect) : 0) + 2;
	char *line = fdc_cert_alloc(n);

	snprintf(line, n, "%s%s%s", s, redirect ? " " : "",
		 redirect ? redirect : "");
	json_array_append_new(c->commands, json_string(line));
	free(line);
	free(s);
}

/* --------------------------------------------------------------------
 * The host and the health counters.
 */

static void fdc_cert_health(struct fdc_cert *c, const char *step)
{
	static const char *const names[] = {
		"source_bits", "outputs", "health_failures", "source_failures",
	};
	struct fdc_cert_health *h;
	char path[128], line[64];
	size_t i;

	if (c->nhealth >= ARRAY_SIZE(c->health))
		return;
	h = &c->health[c->nhealth++];
	snprintf(h->step, sizeof(h->step), "%s", step);
	h->seconds = fdc_cert_now();
	fdc_cert_read_line(FDC_SYSFS "health", h->health, sizeof(h->health));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), FDC_SYSFS "%s", names[i]);
		fdc_cert_read_line(path, line, sizeof(line));
		h->v[i] = *line ? strtoll(line, NULL, 10) : -1;
	}
}

static json_t *fdc_cert_str_or_null(const char *s)
{
	return *s ? json_string(s) : json_null();
}

static void fdc_cert_cpu(json_t *host)
{
	char line[512], model[256] = "", micro[64] = "", *v;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		v += 1 + (v[1] == ' ');
		v[strcspn(v, "\n")] = '\0';
		if (!*model && !strncmp(line, "model name", 10))
			snprintf(model, sizeof(model), "%s", v);
		else if (!*micro && !strncmp(line, "microcode", 9))
			snprintf(micro, sizeof(micro), "%s", v);
	}
	if (f)
		fclose(f);
	json_object_set_new(host, "cpu_model", fdc_cert_str_or_null(model));
	json_object_set_new(host, "microcode", fdc_cert_str_or_null(micro));
}

static void fdc_cert_host(struct fdc_cert *c)
{
	json_t *host = json_object(), *params = json_object(), *dev;
	char line[256], path[PATH_MAX];
	struct utsname u;
	struct dirent *e;
	DIR *d;

	fdc_cert_cpu(host);
	if (!uname(&u)) {
		snprintf(line, sizeof(line), "%s %s %s", u.sysname, u.release,
			 u.machine);
		json_object_set_new(host, "kernel", json_string(line));
		json_object_set_new(host, "kernel_version",
				    json_string(u.version));
		json_object_set_new(host, "hostname", json_string(u.nodename));
	}
	fdc_cert_read_line("/sys/devices/system/cpu/vulnerabilities/srbds",
			   line, sizeof(line));
	json_object_set_new(host, "srbds", fdc_cert_str_or_null(line));
	fdc_cert_read_line("/sys/module/fairdie/version", line, sizeof(line));
	json_object_set_new(host, "module_version", fdc_cert_str_or_null(line));
	fdc_cert_read_line("/sys/module/fairdie/srcversion", line,
			   sizeof(line));
	json_object_set_new(host, "module_srcversion",
			    fdc_cert_str_or_null(line));
	d = opendir("/sys/module/fairdie/parameters");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/module/fairdie/parameters/%s", e->d_name);
		fdc_cert_read_line(path, line, sizeof(line));
		json_object_set_new(params, e->d_name, json_string(line));
	}
	if (d)
		closedir(d);
	json_object_set_new(host, "module_parameters", params);
	dev = json_object();
	fdc_cert_read_line(FDC_SYSFS "source", line, sizeof(line));
	json_object_set_new(dev, "source", fdc_cert_str_or_null(line));
	fdc_cert_read_line(FDC_SYSFS "available_sources", line, sizeof(line));
	json_object_set_new(dev, "available_sources",
			    fdc_cert_str_or_null(line));
	fdc_cert_read_line(FDC_SYSFS "hwrng", line, sizeof(line));
	json_object_set_new(dev, "hwrng", fdc_cert_str_or_null(line));
	json_object_set_new(host, "device", dev);
	json_object_set_new(host, "tool_version", json_string(FDC_VERSION));
	json_object_set_new(host, "source_commit",
			    fdc_cert_str_or_null(FDC_GIT_COMMIT));
	c->host = host;
}

/* --------------------------------------------------------------------
 * The manifest.
 */

static int fdc_cert_sha256(const char *path, char hex[65], long long *size)
{
	struct sha256_ctx h;
	u8 buf[65536], d[SHA256_DIGEST_SIZE];
	long long n = 0;
	size_t r, i;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	sha256_init(&h);
	while ((r = fread(buf, 1, sizeof(buf), f)) > 0) {
		sha256_update(&h, r, buf);
		n += r;
	}
	if (ferror(f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	sha256_digest(&h, sizeof(d), d);
	for (i = 0; i < sizeof(d); i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	*size = n;
	return 0;
}

static void fdc_cert_manifest_add(struct fdc_cert *c, const char *what,
				  const char *path, const char *name)
{
	char hex[65];
	long long size;

	if (!path || fdc_cert_sha256(path, hex, &size)) {
		json_array_append_new(c->manifest,
				      json_pack("{s:s, s:s?, s:n, s:n}", "what",
						what, "file", path, "sha256",
						"bytes"));
		return;
	}
	json_array_append_new(c->manifest,
			      json_pack("{s:s, s:s, s:s, s:I}", "what", what,
					"file", name ? name : path, "sha256",
					hex, "bytes", (json_int_t)size));
}

/* The module's file: --module, else the one modinfo names. */
static char *fdc_cert_module_file(const char *given)
{
	char line[PATH_MAX];
	FILE *f;

	if (given)
		return strdup(given);
	f = popen("modinfo -n fairdie 2>/dev/null", "r");
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	pclose(f);
	line[strcspn(line, "\n")] = '\0';
	return *line == '/' && !access(line, R_OK) ? strdup(line) : NULL;
}

/* --------------------------------------------------------------------
 * Captures, through 'fairdie collect'.
 */

/**
 * struct fdc_cert_ctx - how to run collect
 * @collect: its command before the stage options, ending in NULL
 * @ncollect: its length
 * @fwd: the global options given to certify, passed on to collect
 * @nfwd: how many
 * @env: the copy of FAIRDIE_CERTIFY_COLLECT that @collect points into
 */
struct fdc_cert_ctx {
	char *collect[16];
	size_t ncollect;
	char *fwd[8];
	size_t nfwd;
	char *env;
};

static struct fdc_cert_capture *
fdc_cert_capture(struct fdc_cert *c, struct fdc_cert_ctx *x, const char *name,
		 const char *stage, char *opt1, char *val1, char *opt2,
		 char *val2)
{
	char *args[5];

	struct fdc_cert_capture *cap = &c->caps[c->ncaps++];
	struct fdc_cert_proc p = { .out_fd = -1 };
	char *argv[48], file[64], *side;
	size_t n = 0, i;
	json_error_t jerr;
	struct stat st;

	fdc_cert_args(args, ARRAY_SIZE(args), opt1, val1, opt2, val2, NULL);
	memset(cap, 0, sizeof(*cap));
	snprintf(cap->name, sizeof(cap->name), "%s", name);
	snprintf(cap->stage, sizeof(cap->stage), "%s", stage);
	snprintf(file, sizeof(file), "%s.bin", name);
	cap->file = fdc_cert_path(c->dir, file);
	for (i = 0; i < x->ncollect; i++)
		argv[n++] = x->collect[i];
	argv[n++] = "--stage";
	argv[n++] = (char *)stage;
	for (i = 0; args[i]; i++)
		argv[n++] = args[i];
	for (i = 0; i < x->nfwd; i++)
		argv[n++] = x->fwd[i];
	argv[n++] = "-o";
	argv[n++] = cap->file;
	argv[n] = NULL;
	cap->command = fdc_cert_quote_argv(argv);
	p.argv = argv;
	p.echo = isatty(STDERR_FILENO);
	fprintf(stderr, "certify: capture %s\n", name);
	fdc_cert_run(&p);
	cap->status = p.status;
	cap->seconds = p.seconds;
	fdc_cert_last_line(p.err, cap->error, sizeof(cap->error));
	cap->bytes = stat(cap->file, &st) ? -1 : (long long)st.st_size;
	side = fdc_cert_alloc(strlen(cap->file) + 6);
	sprintf(side, "%s.json", cap->file);
	cap->sidecar = json_load_file(side, 0, &jerr);
	free(side);
	if (cap->status && !strcmp(stage, "raw") &&
	    (strstr(cap->error, "not permitted") ||
	     strstr(cap->error, "Permission denied"))) {
		/* Not a failure of the generator: raw words need root. */
		fdc_cert_skip(c, "capture raw", stage, cap->error);
		return cap;
	}
	fdc_cert_check(c, "capture", name, stage, "collect", !cap->status,
		       cap->status ? (*cap->error ? cap->error :
				      "collect failed") :
		       "collect exited 0");
	return cap;
}

/* Read a capture in pieces; @fn gets each piece. */
static int fdc_cert_stream(const char *path, size_t unit,
			   void (*fn)(void *arg, const u8 *buf, size_t n),
			   void *arg)
{
	u8 buf[65536];
	size_t r, keep = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((r = fread(buf + keep, 1, sizeof(buf) - keep -
			  (sizeof(buf) - keep) % unit, f)) > 0) {
		size_t have = keep + r, use = have - have % unit;

		fn(arg, buf, use);
		keep = have - use;
		memmove(buf, buf + use, keep);
	}
	fclose(f);
	return 0;
}

struct fdc_cert_die {
	struct fdc_die_stats s;
	u64 out_of_range;
};

static void fdc_cert_die_fn(void *arg, const u8 *buf, size_t n)
{
	struct fdc_cert_die *d = arg;
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] >= d->s.sides)
			d->out_of_range++;
		fdc_die_stats_add(&d->s, buf[i]);
	}
}

static void fdc_cert_die_tests(struct fdc_cert *c,
			       const struct fdc_cert_capture *cap,
			       unsigned int k, size_t slot)
{
	struct fdc_cert_die *d = fdc_cert_alloc(sizeof(*d));
	struct fdc_test t[24];
	char target[16], what[96];
	size_t n, i;

	snprintf(target, sizeof(target), "d%u", k);
	c->sides[slot] = k;
	if (cap->status || fdc_die_stats_init(&d->s, k) ||
	    fdc_cert_stream(cap->file, 1, fdc_cert_die_fn, d) || !d->s.n) {
		fdc_cert_skip(c, target, "final", "no outcomes captured");
		free(d);
		return;
	}
	memcpy(c->hist[slot], d->s.counts, sizeof(c->hist[slot]));
	c->nhist[slot] = d->s.n;
	snprintf(what, sizeof(what), "%llu of %llu outcomes outside 0..%u",
		 (unsigned long long)d->out_of_range,
		 (unsigned long long)d->s.n, k - 1);
	fdc_cert_check(c, "outcomes in range", target, "final", "fairdie",
		       !d->out_of_range, what);
	n = fdc_die_stats_results(&d->s, t, ARRAY_SIZE(t));
	for (i = 0; i < n; i++) {
		if (isnan(t[i].p)) {
			char test[128];

			snprintf(test, sizeof(test), "%.64s, %.16s",
				 t[i].name, target);
			fdc_cert_skip(c, test, "final", t[i].method);
			continue;
		}
		fdc_cert_row(c, &t[i], "final", "fairdie");
	}
	fdc_die_stats_free(&d->s);
	free(d);
}

static void fdc_cert_deck_fn(void *arg, const u8 *buf, size_t n)
{
	struct fdc_deck_stats *s = arg;
	size_t i;

	for (i = 0; i + s->cards <= n; i += s->cards)
		fdc_deck_stats_add(s, buf + i);
}

static void fdc_cert_deck_tests(struct fdc_cert *c,
				const struct fdc_cert_capture *cap)
{
	struct fdc_deck_stats *s = fdc_cert_alloc(sizeof(*s));
	struct fdc_test t[2];
	size_t n, i;

	if (cap->status || fdc_deck_stats_init(s, FDC_CERT_CARDS) ||
	    fdc_cert_stream(cap->file, FDC_CERT_CARDS, fdc_cert_deck_fn, s) ||
	    !(s->decks + s->bad)) {
		fdc_cert_skip(c, "decks of 52", "final", "no decks captured");
		free(s);
		return;
	}
	n = fdc_deck_stats_results(s, t, ARRAY_SIZE(t));
	for (i = 0; i < n; i++) {
		if (isnan(t[i].p)) {
			fdc_cert_skip(c, "card at each position, decks of 52",
				      "final", t[i].method);
			continue;
		}
		if (i == 1) {
			fdc_cert_check(c, t[i].name, t[i].target, "final",
				       "fairdie", !s->bad, t[i].method);
			continue;
		}
		fdc_cert_row(c, &t[i], "final", "fairdie");
	}
	c->deck = fdc_cert_alloc(sizeof(s->counts));
	memcpy(c->deck, s->counts, sizeof(s->counts));
	c->decks = s->decks;
	free(s);
}

/* --------------------------------------------------------------------
 * The batteries: ent, rngtest, dieharder.
 */

static bool fdc_cert_have(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	const char *p, *e;

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p), p, prog);
		if (!access(buf, X_OK))
			return true;
	}
	return false;
}

static void fdc_cert_ent(struct fdc_cert *c, const struct fdc_cert_capture *cap)
{
	struct fdc_cert_proc p = { .out_fd = -1 };
	char *argv[4];
	char name[64], *out, line[256];
	struct fdc_test t[3];
	struct fdc_ent e;
	size_t n, i;
	FILE *f;
	bool ok = false;

	fdc_cert_args(argv, ARRAY_SIZE(argv), "ent", "-t", cap->file, NULL);
	p.argv = argv;
	if (!fdc_cert_have("ent")) {
		fdc_cert_skip(c, "ent", cap->stage, "ent is not installed (Debian: ent)");
		return;
	}
	snprintf(name, sizeof(name), "ent-%s.txt", cap->name);
	out = fdc_cert_path(c->dir, name);
	p.out = out;
	fdc_cert_command(c, argv, NULL);
	fdc_cert_run(&p);
	f = fopen(out, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!fdc_ent_parse(line, &e))
			ok = true;
	if (f)
		fclose(f);
	free(out);
	if (p.status || !ok) {
		fdc_cert_check(c, "ent", cap->name, cap->stage, "ent", false,
			       "ent did not run or printed nothing");
		return;
	}
	n = fdc_ent_results(&e, cap->name, t, ARRAY_SIZE(t));
	for (i = 0; i < n; i++)
		fdc_cert_row(c, &t[i], cap->stage, "ent");
}

static void fdc_cert_rngtest(struct fdc_cert *c,
			     const struct fdc_cert_capture *cap)
{
	struct fdc_cert_proc p = { .in = cap->file, .out_fd = -1 };
	char *argv[2] = { "rngtest" };
	unsigned long long ok = 0, bad = 0;
	struct fdc_test t = { 0 };
	char name[64], *out, *s;
	struct fdc_cert_row *r;
	FILE *f;

	p.argv = argv;
	if (!fdc_cert_have("rngtest")) {
		fdc_cert_skip(c, "rngtest", cap->stage,
			      "rngtest is not installed (Debian: rng-tools5)");
		return;
	}
	fdc_cert_command(c, argv, "< FILE");
	fdc_cert_run(&p);
	snprintf(name, sizeof(name), "rngtest-%s.txt", cap->name);
	out = fdc_cert_path(c->dir, name);
	f = fopen(out, "w");
	if (f) {
		fputs(p.err, f);
		fclose(f);
	}
	free(out);
	s = strstr(p.err, "FIPS 140-2 successes:");
	if (s)
		ok = strtoull(s + 21, NULL, 10);
	s = strstr(p.err, "FIPS 140-2 failures:");
	if (s)
		bad = strtoull(s + 20, NULL, 10);
	if (!s || (p.status != 0 && p.status != 1) || !(ok + bad)) {
		fdc_cert_check(c, "rngtest FIPS 140-2", cap->name, cap->stage,
			       "rngtest", false,
			       "rngtest did not run, or the data held no 20000-bit block");
		return;
	}
	fdc_fips_result(ok, bad, cap->name, &t);
	r = fdc_cert_row(c, &t, cap->stage, "rngtest");
	r->in_ks = false;
}

/*
 * dieharder's quick subset: tests that need little data, run with
 * fdc_dieharder_samples() p-samples (stats.c says why).
 */
static const struct {
	int id;
	const char *name;
} fdc_cert_dh_quick[] = {
	{ 0, "diehard_birthdays" },
	{ 100, "sts_monobit" },
	{ 101, "sts_runs" },
};

/*
 * dieharder's table in @text (its standard output); @err is its standard
 * error, where it says that it rewound a file.
 */
static void fdc_cert_dh_parse(struct fdc_cert *c, const char *stage,
			      const char *target, const char *text,
			      const char *err)
{
	char name[64], ass[16];
	const char *line;
	int ntup;
	long ts, ps;
	double pv;

	if (strstr(text, "was rewound") || strstr(err, "was rewound")) {
		fdc_cert_skip(c, "dieharder", stage,
			      "the file ran out and dieharder read it again: p-values not valid");
		return;
	}
	for (line = text; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		struct fdc_test t = { 0 };
		struct fdc_cert_row *r;

		if (sscanf(line, " %63[a-z0-9_]|%d|%ld|%ld|%lf|%15s", name,
			   &ntup, &ts, &ps, &pv, ass) != 6)
			continue;
		snprintf(t.name, sizeof(t.name), "dieharder %.40s", name);
		if (ntup)
			snprintf(t.name, sizeof(t.name), "dieharder %.40s (%d)",
				 name, ntup);
		snprintf(t.target, sizeof(t.target), "%s", target);
		t.stat = NAN;
		t.p = pv;
		if (ps == 1)
			snprintf(t.method, sizeof(t.method),
				 "dieharder: one p-sample of %ld; %s", ts, ass);
		else
			snprintf(t.method, sizeof(t.method),
				 "dieharder: KS of %ld p-samples of %ld; %s", ps,
				 ts, ass);
		r = fdc_cert_row(c, &t, stage, "dieharder");
		/* Judged by its own rule; monobit overlaps ent's mean. */
		r->in_ks = false;
		/* dieharder's own verdict: FAILED below 1e-6 (or above 1 - 1e-6). */
		r->pass = strcmp(ass, "FAILED");
		snprintf(r->rule, sizeof(r->rule),
			 "dieharder's verdict (FAILED: p < 1e-6)");
	}
}

static void fdc_cert_dieharder(struct fdc_cert *c,
			       const struct fdc_cert_capture *cap)
{
	char name[48], *out, d[16], ps[24];
	size_t i;

	if (!fdc_cert_have("dieharder")) {
		fdc_cert_skip(c, "dieharder", cap->stage,
			      "dieharder is not installed (Debian: dieharder)");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(fdc_cert_dh_quick); i++) {
		struct fdc_cert_proc p = { .out_fd = -1 };
		long samples = fdc_dieharder_samples(cap->bytes);
		char *argv[12], *text;
		FILE *f;
		long len;

		if (samples < 1) {
			fdc_cert_skip(c, fdc_cert_dh_quick[i].name, cap->stage,
				      "too little data: a p-sample takes 7,000,000 bytes");
			continue;
		}
		snprintf(d, sizeof(d), "%d", fdc_cert_dh_quick[i].id);
		snprintf(ps, sizeof(ps), "%ld", samples);
		fdc_cert_args(argv, ARRAY_SIZE(argv), "dieharder", "-g", "201",
			      "-f", cap->file, "-d", d, "-p", ps, NULL);
		p.argv = argv;
		snprintf(name, sizeof(name), "dieharder-%s-%d.txt", cap->name,
			 fdc_cert_dh_quick[i].id);
		out = fdc_cert_path(c->dir, name);
		p.out = out;
		fdc_cert_command(c, argv, NULL);
		fprintf(stderr, "certify: dieharder %s on %s\n",
			fdc_cert_dh_quick[i].name, cap->name);
		fdc_cert_run(&p);
		f = fopen(out, "r");
		free(out);
		if (!f || p.status) {
			if (f)
				fclose(f);
			fdc_cert_check(c, "dieharder", cap->name, cap->stage,
				       "dieharder", false, "dieharder failed to run");
			continue;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		text = fdc_cert_alloc(len + 1);
		if (fread(text, 1, len, f) != (size_t)len)
			len = 0;
		text[len] = '\0';
		fclose(f);
		fdc_cert_dh_parse(c, cap->stage, cap->name, text, p.err);
		free(text);
	}
}

/*
 * The full run: dieharder -a reads the stage straight from collect through
 * a pipe, as long as it wants (no file could hold what -a reads without
 * reading it again); the bytes are not kept.
 */
static void fdc_cert_dieharder_all(struct fdc_cert *c, struct fdc_cert_ctx *x,
				   const char *stage)
{
	char *col[32], *dh[5], name[48], *out, *text = NULL;
	struct fdc_cert_proc p = { .argv = dh, .out_fd = -1 };
	size_t n = 0, i;
	int fds[2];
	pid_t pid;
	long len;
	FILE *f;

	fdc_cert_args(dh, ARRAY_SIZE(dh), "dieharder", "-a", "-g", "200", NULL);
	if (!fdc_cert_have("dieharder")) {
		fdc_cert_skip(c, "dieharder -a", stage,
			      "dieharder is not installed (Debian: dieharder)");
		return;
	}
	for (i = 0; i < x->ncollect; i++)
		col[n++] = x->collect[i];
	col[n++] = "--stage";
	col[n++] = (char *)stage;
	col[n++] = "--count";
	col[n++] = "1000000000000";
	for (i = 0; i < x->nfwd; i++)
		col[n++] = x->fwd[i];
	col[n++] = "-o";
	col[n++] = "/dev/stdout";
	col[n] = NULL;
	if (pipe(fds))
		return;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDOUT_FILENO);
		execvp(col[0], col);
		_exit(127);
	}
	close(fds[1]);
	fdc_cert_command(c, col, "| dieharder -a -g 200");
	snprintf(name, sizeof(name), "dieharder-%s-all.txt", stage);
	out = fdc_cert_path(c->dir, name);
	p.out = out;
	/* dieharder reads the pipe as its standard input. */
	p.in_fd = fds[0];
	fprintf(stderr, "certify: dieharder -a on %s (hours)\n", stage);
	fdc_cert_run(&p);
	close(fds[0]);
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
	f = fopen(out, "r");
	free(out);
	if (f) {
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		text = fdc_cert_alloc(len + 1);
		if (fread(text, 1, len, f) != (size_t)len)
			len = 0;
		text[len] = '\0';
		fclose(f);
	}
	if (!text || !strchr(text, '|')) {
		fdc_cert_check(c, "dieharder -a", stage, stage, "dieharder",
			       false, "dieharder -a did not run");
	} else {
		fdc_cert_dh_parse(c, stage, stage, text, p.err);
	}
	free(text);
}

/* --------------------------------------------------------------------
 * The fault demonstration: a stuck source under a reader.
 */

static int fdc_cert_knob(const char *knob, const char *value)
{
	char path[128];
	int fd, ret = 0;

	snprintf(path, sizeof(path), FDC_DEBUGFS "%s", knob);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static void fdc_cert_fault_demo(struct fdc_cert *c, const char *device)
{
	json_t *j = json_object();
	u8 buf[4096];
	unsigned long long before = 0, after = 0, later_bytes = 0;
	int fd, err = 0, i, eio_reads = 0, ret;
	u64 sides = 6;
	u32 src = FAIRDIE_SRC_RDSEED;
	bool got_eio = false, recovered = false;
	ssize_t r;
	char what[200];

	c->fault = j;
	fd = open(device, O_RDONLY);
	if (fd < 0 || ioctl(fd, FAIRDIE_IOC_SET_SOURCE, &src) ||
	    ioctl(fd, FAIRDIE_IOC_SET_SIDES, &sides)) {
		snprintf(what, sizeof(what), "cannot open %s with RDSEED: %s",
			 device, strerror(errno));
		json_object_set_new(j, "error", json_string(what));
		fdc_cert_check(c, "fault demo", "rdseed stuck", "fault",
			       "fairdie", false, what);
		if (fd >= 0)
			close(fd);
		return;
	}
	/* Rolls before the fault. */
	for (i = 0; i < 16; i++) {
		r = read(fd, buf, sizeof(buf));
		if (r > 0)
			before += r;
	}
	ret = fdc_cert_knob("stuck", "1");
	if (ret) {
		snprintf(what, sizeof(what),
			 "cannot set %sstuck: %s (a fault-injection build and debugfs are needed)",
			 FDC_DEBUGFS, strerror(-ret));
		json_object_set_new(j, "error", json_string(what));
		fdc_cert_check(c, "fault demo", "rdseed stuck", "fault",
			       "fairdie", false, what);
		close(fd);
		return;
	}
	/* Read until the health tests stop the file; bounded. */
	for (i = 0; i < 100000 && !got_eio; i++) {
		r = read(fd, buf, sizeof(buf));
		if (r > 0) {
			after += r;
		} else if (r < 0 && errno == EIO) {
			got_eio = true;
		} else if (r < 0 && errno != EINTR && errno != EAGAIN) {
			err = errno;
			break;
		}
	}
	/*
	 * Once failed, nothing more while the source stays bad: each read
	 * restarts the well, whose fresh start-up test fails again.
	 */
	for (i = 0; got_eio && i < 8; i++) {
		r = read(fd, buf, sizeof(buf));
		if (r > 0)
			later_bytes += r;
		else if (r < 0 && errno == EIO)
			eio_reads++;
	}
	/* Good again: play resumes after a fresh start-up test, no RESET. */
	fdc_cert_knob("stuck", "0");
	for (i = 0; got_eio && i < 100 && !recovered; i++) {
		r = read(fd, buf, 64);
		if (r == 64)
			recovered = true;
		else if (r < 0 && errno != EINTR && errno != EAGAIN && errno != EIO)
			break;
	}
	close(fd);
	json_object_set_new(j, "knob", json_string(FDC_DEBUGFS "stuck"));
	json_object_set_new(j, "rolls_before", json_integer(before));
	json_object_set_new(j, "rolls_after_fault_before_eio",
			    json_integer(after));
	json_object_set_new(j, "eio", json_boolean(got_eio));
	json_object_set_new(j, "reads_after_eio", json_integer(8));
	json_object_set_new(j, "reads_after_eio_failed_eio",
			    json_integer(eio_reads));
	json_object_set_new(j, "rolls_after_eio", json_integer(later_bytes));
	json_object_set_new(j, "recovered", json_boolean(recovered));
	if (err)
		json_object_set_new(j, "error", json_string(strerror(err)));
	snprintf(what, sizeof(what),
		 "EIO after %llu rolls that were read from the well before the fault showed",
		 after);
	fdc_cert_check(c, "stuck source ends in EIO", "d6, rdseed", "fault",
		       "fairdie", got_eio, got_eio ? what :
		       "no EIO within 100000 reads");
	snprintf(what, sizeof(what), "%d of 8 reads after it failed with EIO, %llu rolls delivered",
		 eio_reads, later_bytes);
	fdc_cert_check(c, "no outcome after EIO", "d6, rdseed", "fault",
		       "fairdie", got_eio && eio_reads == 8 && !later_bytes,
		       what);
	fdc_cert_check(c, "play resumes once the source is good", "d6, rdseed",
		       "fault", "fairdie", recovered, recovered ?
		       "rolls again after a fresh start-up test, with no RESET" :
		       "no rolls after the source was good again");
	fdc_cert_health(c, "fault demo");
}

/* --------------------------------------------------------------------
 * The run.
 */

/* The global options that configure the device, passed on to collect. */
static void fdc_cert_forward(struct fdc_cert_ctx *x, const struct fdc_config *cfg)
{
	static char buf[4][96];

	if (cfg->source >= 0) {
		snprintf(buf[0], sizeof(buf[0]), "--source=%s",
			 fd_source_name(cfg->source));
		x->fwd[x->nfwd++] = buf[0];
	}
	if (cfg->extractor >= 0) {
		snprintf(buf[1], sizeof(buf[1]), "--extractor=%s",
			 fd_extractor_name(cfg->extractor));
		x->fwd[x->nfwd++] = buf[1];
	}
	if (cfg->have_sim) {
		snprintf(buf[2], sizeof(buf[2]), "--sim=%llu:%llu/%llu",
			 (unsigned long long)cfg->sim.seed,
			 (unsigned long long)cfg->sim.p1_num,
			 (unsigned long long)cfg->sim.p1_den);
		x->fwd[x->nfwd++] = buf[2];
	}
	if (strcmp(cfg->device, FDC_DEFAULT_DEVICE)) {
		snprintf(buf[3], sizeof(buf[3]), "--device=%s", cfg->device);
		x->fwd[x->nfwd++] = buf[3];
	}
}

/*
 * collect is this very program ('fairdie collect'); FAIRDIE_CERTIFY_COLLECT
 * replaces it (a command split on blanks), for the tests of the report.
 */
static int fdc_cert_collect_cmd(struct fdc_cert_ctx *x, struct fdc_cert *c)
{
	static char exe[PATH_MAX];
	const char *env = getenv("FAIRDIE_CERTIFY_COLLECT");
	ssize_t n;
	char *s, *tok;

	if (env && *env) {
		s = fdc_cert_alloc(strlen(env) + 1);
		strcpy(s, env);
		x->env = s;
		for (tok = strtok(s, " "); tok && x->ncollect < 12;
		     tok = strtok(NULL, " "))
			x->collect[x->ncollect++] = tok;
		json_object_set_new(c->host, "collect_replaced_by",
				    json_string(env));
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		fdc_err("certify: cannot find this program's file: %s",
			strerror(errno));
		return -1;
	}
	exe[n] = '\0';
	x->collect[x->ncollect++] = exe;
	x->collect[x->ncollect++] = "collect";
	return 0;
}

static void fdc_cert_second_level(struct fdc_cert *c)
{
	double *p = fdc_cert_alloc((c->nrows + 1) * sizeof(*p)), d;
	struct fdc_test t = { 0 };
	size_t n = 0, i;
	struct fdc_cert_row *r;

	for (i = 0; i < c->nrows; i++)
		if (c->rows[i].in_ks)
			p[n++] = c->rows[i].t.p;
	if (n < 5) {
		fdc_cert_skip(c, "uniformity of the p-values", "all",
			      "fewer than 5 p-values");
		free(p);
		return;
	}
	snprintf(t.name, sizeof(t.name), "uniformity of the p-values (KS)");
	snprintf(t.target, sizeof(t.target), "%zu p-values", n);
	t.p = fdc_ks_uniform(p, n, &d);
	t.stat = d;
	snprintf(t.method, sizeof(t.method),
		 "Kolmogorov-Smirnov against U(0,1) over the lines that do not overlap another, Stephens' approximation");
	r = fdc_cert_row(c, &t, "all", "fairdie");
	r->in_ks = false;
	free(p);
}

/*
 * The family verdict: the lines are tested at 1% each, so a run of a
 * hundred lines expects one red line by chance. The family passes when
 * every check passes and the smallest p-value is above 1% / lines
 * (Bonferroni): a healthy device fails it at most 1% of the time.
 */
static bool fdc_cert_verdict(struct fdc_cert *c)
{
	double minp = 1;
	size_t tests = 0, failed = 0, i;
	bool checks = true, family;

	for (i = 0; i < c->nrows; i++) {
		const struct fdc_cert_row *r = &c->rows[i];

		failed += !r->pass;
		if (isnan(r->t.p) || !strcmp(r->rule, "exact check")) {
			checks &= r->pass;
			continue;
		}
		tests++;
		if (!strcmp(r->tool, "dieharder") && r->pass)
			continue;
		if (r->t.p < minp)
			minp = r->t.p;
	}
	family = checks && minp >= FDC_CERT_ALPHA / (tests ? tests : 1);
	c->verdict = json_pack("{s:f, s:I, s:I, s:f, s:f, s:f, s:b, s:s}",
			       "alpha", FDC_CERT_ALPHA,
			       "lines", (json_int_t)c->nrows,
			       "failed", (json_int_t)failed,
			       "expected_false_failures", FDC_CERT_ALPHA * tests,
			       "smallest_p_value", minp,
			       "bonferroni_level", FDC_CERT_ALPHA /
			       (tests ? tests : 1),
			       "checks_pass", checks,
			       "family", family ? "pass" : "fail");
	return family && !failed;
}

static int fdc_cert_main(struct fdc_cert *c, struct fdc_cert_ctx *x,
			 const char *module, bool fault_demo,
			 const char *device)
{
	static const unsigned int dice[FDC_CERT_DICE] = { 2, 6, 37, 100 };
	char n1[24], n8[24], nd[24], sides[FDC_CERT_DICE][8], deck[8];
	struct fdc_cert_capture *raw, *cond, *fin[FDC_CERT_DICE], *decks;
	unsigned long long nd_count;
	char *mod, *path;
	size_t i;
	bool ok;

	snprintf(n1, sizeof(n1), "%llu", c->count);
	snprintf(n8, sizeof(n8), "%llu", c->count * 8);
	nd_count = c->count / 100;
	snprintf(nd, sizeof(nd), "%llu", nd_count);
	snprintf(deck, sizeof(deck), "%u", FDC_CERT_CARDS);
	fdc_cert_health(c, "start");
	raw = fdc_cert_capture(c, x, "raw", "raw", "--count", n1, NULL, NULL);
	fdc_cert_health(c, "raw words");
	cond = fdc_cert_capture(c, x, "conditioned", "conditioned", "--count",
				n8, NULL, NULL);
	fdc_cert_health(c, "conditioned bits");
	for (i = 0; i < FDC_CERT_DICE; i++) {
		char name[16];

		snprintf(sides[i], sizeof(sides[i]), "%u", dice[i]);
		snprintf(name, sizeof(name), "final-d%u", dice[i]);
		fin[i] = fdc_cert_capture(c, x, name, "final", "--sides",
					  sides[i], "--count", n1);
	}
	fdc_cert_health(c, "final outcomes");
	decks = fdc_cert_capture(c, x, "decks-52", "final", "--shuffle", deck,
				 "--count", nd);
	fdc_cert_health(c, "decks");

	/* The batteries on the bits. */
	for (i = 0; i < 2; i++) {
		struct fdc_cert_capture *cap = i ? cond : raw;

		if (cap->status) {
			fdc_cert_skip(c, "ent, rngtest, dieharder", cap->stage,
				      "the capture failed");
			continue;
		}
		fdc_cert_ent(c, cap);
		fdc_cert_rngtest(c, cap);
		if (c->quick)
			fdc_cert_dieharder(c, cap);
		else
			fdc_cert_dieharder_all(c, x, cap->stage);
	}
	fdc_cert_health(c, "batteries");
	/* The tests of the final outcomes. */
	for (i = 0; i < FDC_CERT_DICE; i++)
		fdc_cert_die_tests(c, fin[i], dice[i], i);
	fdc_cert_deck_tests(c, decks);
	if (fault_demo)
		fdc_cert_fault_demo(c, device);
	fdc_cert_second_level(c);
	ok = fdc_cert_verdict(c);

	/* The manifest: module, tool, captures and their sidecars. */
	mod = fdc_cert_module_file(module);
	fdc_cert_manifest_add(c, "module", mod, NULL);
	free(mod);
	path = realpath("/proc/self/exe", NULL);
	fdc_cert_manifest_add(c, "tool", path, NULL);
	free(path);
	for (i = 0; i < c->ncaps; i++) {
		char *side = fdc_cert_alloc(strlen(c->caps[i].file) + 6);
		const char *base = strrchr(c->caps[i].file, '/') + 1;
		char sname[64];

		fdc_cert_manifest_add(c, "capture", c->caps[i].file, base);
		sprintf(side, "%s.json", c->caps[i].file);
		snprintf(sname, sizeof(sname), "%s.json", base);
		if (!access(side, R_OK))
			fdc_cert_manifest_add(c, "sidecar", side, sname);
		free(side);
	}
	return ok ? FDC_EXIT_OK : FDC_EXIT_FAILURE;
}

/* Everything the run held; @c itself too. */
static void fdc_cert_free(struct fdc_cert *c, struct fdc_cert_ctx *x)
{
	size_t i;

	for (i = 0; i < c->ncaps; i++) {
		free(c->caps[i].file);
		free(c->caps[i].command);
		json_decref(c->caps[i].sidecar);
	}
	json_decref(c->skipped);
	json_decref(c->commands);
	json_decref(c->host);
	json_decref(c->manifest);
	json_decref(c->fault);
	json_decref(c->verdict);
	free(c->rows);
	free(c->deck);
	free(c->argv);
	free(x->env);
	free(c);
}

/* A usage error, also as a JSON object with --json. */
static int fdc_cert_usage(bool json, const char *msg)
{
	fdc_err("%s", msg);
	if (json) {
		json_t *doc = json_pack("{s:s, s:s}", "schema",
					"fairdie.certify/1", "error", msg);

		json_dumpf(doc, stdout, JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(doc);
		fdc_finish_output();
	}
	return FDC_EXIT_USAGE;
}

int fdc_cmd_certify(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_cert *c = fdc_cert_alloc(sizeof(*c));
	struct fdc_cert_ctx x = { 0 };
	const char *module = NULL;
	bool json = false, fault = false, count_set = false;
	char *path;
	json_t *doc;
	struct tm tm;
	time_t now;
	int opt, status;
	u64 v;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &fdc_cert_t0);
	while ((opt = fdc_getopt(cfg, argc, argv, "h", fdc_certify_opts)) != -1) {
		switch (opt) {
		case 'h':
			fdc_help(fdc_certify_help);
			return fdc_finish_output();
		case 'q':
			c->quick = true;
			break;
		case 'F':
			fault = true;
			break;
		case 'M':
			module = optarg;
			break;
		case 'J':
			json = true;
			break;
		case 'n':
			if (fdc_parse_count("certify", "count", optarg,
					    FDC_CERT_MIN_COUNT, FDC_MAX_COUNT / 8,
					    &v))
				return FDC_EXIT_USAGE;
			c->count = v;
			count_set = true;
			break;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return fdc_cert_usage(json, optind == argc ?
				      "certify: no folder given (fairdie certify DIR)" :
				      "certify: one folder only");
	if (cfg->user_source != FDC_USRC_DEVICE)
		return fdc_cert_usage(json,
				      "certify: the captures come from the device: --random-source, --seed and --source=getrandom do not apply");
	c->dir = argv[optind];
	if (!count_set)
		c->count = c->quick ? FDC_CERT_QUICK_COUNT : FDC_CERT_FULL_COUNT;
	if (mkdir(c->dir, 0755) && errno != EEXIST) {
		fdc_err("certify: cannot make '%s': %s", fdc_quote(c->dir),
			strerror(errno));
		return FDC_EXIT_FAILURE;
	}
	c->skipped = json_array();
	c->commands = json_array();
	c->manifest = json_array();
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(c->started, sizeof(c->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fdc_cert_forward(&x, cfg);
	{
		/* The command line, with the global options given before it. */
		char **a = fdc_cert_alloc((argc + x.nfwd + 2) * sizeof(*a));
		size_t n = 0, k;
		int j;

		a[n++] = "fairdie";
		for (k = 0; k < x.nfwd; k++) {
			for (j = 1; j < argc && strcmp(argv[j], x.fwd[k]); j++)
				;
			if (j == argc)
				a[n++] = x.fwd[k];
		}
		for (j = 0; j < argc; j++)
			a[n++] = argv[j];
		c->argv = fdc_cert_quote_argv(a);
		free(a);
	}
	fdc_cert_host(c);
	if (fdc_cert_collect_cmd(&x, c))
		return FDC_EXIT_FAILURE;
	if (c->quick)
		fprintf(stderr,
			"certify: the quick subset, %llu outcomes a die: about 10 minutes on 2 cores\n",
			c->count);
	else
		fprintf(stderr,
			"certify: the full run, %llu outcomes a die and dieharder -a on two streams: several hours\n",
			c->count);
	status = fdc_cert_main(c, &x, module, fault, cfg->device);
	c->seconds = fdc_cert_now();

	doc = fdc_cert_json(c);
	path = fdc_cert_path(c->dir, "report.json");
	if (json_dump_file(doc, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER)) {
		fdc_err("certify: cannot write '%s'", fdc_quote(path));
		status = FDC_EXIT_FAILURE;
	}
	free(path);
	path = fdc_cert_path(c->dir, "report.html");
	if (fdc_cert_write_html(c, path)) {
		fdc_err("certify: cannot write '%s': %s", fdc_quote(path),
			strerror(errno));
		status = FDC_EXIT_FAILURE;
	}
	free(path);
	if (json) {
		json_dumpf(doc, stdout, JSON_PRESERVE_ORDER);
		putchar('\n');
	} else {
		size_t failed = 0;

		for (i = 0; i < c->nrows; i++)
			if (!c->rows[i].pass) {
				failed++;
				printf("FAIL  %-10s %-34s %-14s p = %.3g  %s\n",
				       c->rows[i].stage, c->rows[i].t.name,
				       c->rows[i].t.target, c->rows[i].t.p,
				       c->rows[i].t.method);
			}
		printf("certify: %zu lines, %zu failed, %zu not run; family %s; %.0f s\n",
		       c->nrows, failed, json_array_size(c->skipped),
		       json_string_value(json_object_get(c->verdict, "family")),
		       c->seconds);
		printf("certify: report in %s/report.html\n", c->dir);
	}
	json_decref(doc);
	fdc_cert_free(c, &x);
	return fdc_finish_output() ? FDC_EXIT_FAILURE : status;
}
