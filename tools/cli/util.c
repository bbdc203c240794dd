// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - numbers, the shared option parser, help and progress.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fd_names.h"

/* Option codes of the global options, out of the range of characters. */
enum {
	FDC_OPT_DEVICE = 0x100,
	FDC_OPT_SOURCE,
	FDC_OPT_EXTRACTOR,
	FDC_OPT_SIDES,
	FDC_OPT_SIM,
	FDC_OPT_RANDOM_SOURCE,
	FDC_OPT_SEED,
	FDC_OPT_LOG,
	FDC_OPT_KEY,
};

static const struct option fdc_global_opts[] = {
	{ "device", required_argument, NULL, FDC_OPT_DEVICE },
	{ "source", required_argument, NULL, FDC_OPT_SOURCE },
	{ "extractor", required_argument, NULL, FDC_OPT_EXTRACTOR },
	{ "sides", required_argument, NULL, FDC_OPT_SIDES },
	{ "sim", required_argument, NULL, FDC_OPT_SIM },
	{ "random-source", required_argument, NULL, FDC_OPT_RANDOM_SOURCE },
	{ "seed", required_argument, NULL, FDC_OPT_SEED },
	{ "log", required_argument, NULL, FDC_OPT_LOG },
	{ "key", required_argument, NULL, FDC_OPT_KEY },
};

const char fdc_global_help[] =
"Global options (before or after the command):\n"
"      --random-source=FILE  fair bits from FILE (a file or a pipe; '-' is\n"
"                          standard input) instead of the device; running\n"
"                          out of bits is an error\n"
"      --source=getrandom  fair bits from getrandom(2) instead of the device\n"
"      --seed=N            bits from splitmix64 seeded with N instead of the\n"
"                          device: reproducible runs for teaching and\n"
"                          simulation (within one version of fairdie),\n"
"                          NOT for security\n"
"      --device=PATH       the device to read (default /dev/fairdie)\n"
"      --source=SRC        source of this open file: auto, rdseed, rdrand,\n"
"                          crng or sim (default: the module's default)\n"
"      --extractor=EXT     debiasing in the kernel: vn, peres, dijkstra or\n"
"                          none (default: the module's default)\n"
"      --sides=N           sides of the open file's die, 1 to 2^64-1; for\n"
"                          roll the die rolled without EXPR, for extract\n"
"                          the output's die\n"
"      --sim=SEED:NUM/DEN  the simulated coin, P(bit = 1) = NUM/DEN from a\n"
"                          splitmix64 stream seeded with SEED; implies\n"
"                          --source=sim unless --source is given\n"
"      --log=LOG --key=KEY append a signed receipt of the draw to LOG\n"
"                          (roll, shuffle, sample, pick, craps)\n"
"  -h, --help              show this help and exit\n"
"Environment: FAIRDIE_SOURCE=getrandom makes getrandom(2) the default\n"
"source (FAIRDIE_SOURCE=device, the default, the device).\n";

static const char fdc_exit_help[] =
"Exit status:\n"
"  0  success\n"
"  1  failure (device error, unusable input data)\n"
"  2  usage error (bad option, malformed expression)\n";

/**
 * fdc_help() - print a command's help, the global options and the exit
 * statuses on standard output
 * @text: the command's own part, ending in its options
 */
void fdc_help(const char *text)
{
	printf("%s\n%s\n%s", text, fdc_global_help, fdc_exit_help);
}

/**
 * fdc_parse_count() - a number option within bounds, with its message
 * @cmd: the command, for the message
 * @what: what the number is, for the message
 * @s: the text
 * @min: the least value accepted
 * @max: the largest value accepted
 * @out: the number
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_parse_count(const char *cmd, const char *what, const char *s,
		    u64 min, u64 max, u64 *out)
{
	u64 v;

	if (fdc_parse_u64(s, &v) || v < min || v > max) {
		fdc_err("%s: invalid %s '%s': expected an integer from %llu to %llu",
			cmd, what, fdc_quote(s), (unsigned long long)min,
			(unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

static int fdc_parse_sim(const char *s, struct fairdie_sim *sim)
{
	char buf[96], *colon, *slash;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	slash = strchr(colon + 1, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	if (fdc_parse_u64(buf, &sim->seed) ||
	    fdc_parse_u64(colon + 1, &sim->p1_num) ||
	    fdc_parse_u64(slash + 1, &sim->p1_den))
		return -EINVAL;
	if (!sim->p1_den || sim->p1_num > sim->p1_den)
		return -EINVAL;
	return 0;
}

static const char *const fdc_user_source_opts[] = {
	[FDC_USRC_FILE] = "--random-source",
	[FDC_USRC_GETRANDOM] = "--source=getrandom",
	[FDC_USRC_SEED] = "--seed",
	[FDC_USRC_STREAM] = "a sealed draw",
};

/* Take the bits from @kind instead of the device; one such source only. */
static int fdc_user_source(struct fdc_config *cfg, enum fdc_user_source kind)
{
	if (cfg->source_opt && cfg->user_source != kind) {
		fdc_err("%s and %s exclude each other: one source of bits at a time",
			fdc_user_source_opts[cfg->user_source],
			fdc_user_source_opts[kind]);
		return -1;
	}
	cfg->user_source = kind;
	cfg->source_opt = true;
	return 0;
}

/*
 * The default source: the device, or what FAIRDIE_SOURCE says when no
 * option chose a source and none configures the device. Options that
 * configure the device mean nothing to a userspace source: say so rather
 * than ignore them.
 */
static int fdc_config_check(struct fdc_config *cfg)
{
	const char *env;

	if (!cfg->source_opt) {
		env = getenv("FAIRDIE_SOURCE");
		cfg->user_source = FDC_USRC_DEVICE;
		if (!env || !*env || cfg->device_opts || !strcmp(env, "device"))
			return 0;
		if (strcmp(env, "getrandom")) {
			fdc_err("invalid FAIRDIE_SOURCE '%s': expected device or getrandom",
				fdc_quote(env));
			return -1;
		}
		cfg->user_source = FDC_USRC_GETRANDOM;
		return 0;
	}
	if (cfg->user_source == FDC_USRC_DEVICE || !cfg->device_opts)
		return 0;
	fdc_err("%s replaces the device: --device, --source, --extractor and --sim do not apply",
		fdc_user_source_opts[cfg->user_source]);
	return -1;
}

static int fdc_global_opt(struct fdc_config *cfg, int opt, const char *arg)
{
	int v;

	switch (opt) {
	case FDC_OPT_DEVICE:
		if (!*arg) {
			fdc_err("invalid --device '': expected a path");
			return -1;
		}
		cfg->device = arg;
		cfg->device_opts++;
		return 0;
	case FDC_OPT_SOURCE:
		if (!strcmp(arg, "getrandom"))
			return fdc_user_source(cfg, FDC_USRC_GETRANDOM);
		v = fd_source_parse(arg);
		if (v < 0) {
			fdc_err("invalid --source '%s': expected auto, rdseed, rdrand, crng, sim or getrandom",
				fdc_quote(arg));
			return -1;
		}
		cfg->source = v;
		cfg->device_opts++;
		return 0;
	case FDC_OPT_RANDOM_SOURCE:
		if (!*arg) {
			fdc_err("invalid --random-source '': expected a file");
			return -1;
		}
		cfg->random_file = arg;
		return fdc_user_source(cfg, FDC_USRC_FILE);
	case FDC_OPT_SEED:
		if (fdc_parse_u64(arg, &cfg->seed)) {
			fdc_err("invalid --seed '%s': expected an integer from 0 to 18446744073709551615",
				fdc_quote(arg));
			return -1;
		}
		return fdc_user_source(cfg, FDC_USRC_SEED);
	case FDC_OPT_LOG:
	case FDC_OPT_KEY:
		if (!*arg) {
			fdc_err("invalid --%s '': expected a file",
				opt == FDC_OPT_LOG ? "log" : "key");
			return -1;
		}
		*(opt == FDC_OPT_LOG ? &cfg->log : &cfg->key) = arg;
		return 0;
	case FDC_OPT_EXTRACTOR:
		v = fd_extractor_parse(arg);
		if (v < 0) {
			fdc_err("invalid --extractor '%s': expected vn, peres, dijkstra or none",
				fdc_quote(arg));
			return -1;
		}
		cfg->extractor = v;
		cfg->device_opts++;
		return 0;
	case FDC_OPT_SIDES:
		if (fdc_parse_u64(arg, &cfg->sides) || !cfg->sides) {
			fdc_err("invalid --sides '%s': expected an integer from 1 to 18446744073709551615",
				fdc_quote(arg));
			return -1;
		}
		return 0;
	case FDC_OPT_SIM:
		if (fdc_parse_sim(arg, &cfg->sim)) {
			fdc_err("invalid --sim '%s': expected SEED:NUM/DEN with 0 <= NUM <= DEN, DEN >= 1",
				fdc_quote(arg));
			return -1;
		}
		cfg->have_sim = true;
		cfg->device_opts++;
		return 0;
	}
	return 1;
}

/* Why getopt_long() refused argv[optind - 1], in one line. */
static void fdc_usage_err(char **argv, const char *shortopts)
{
	bool main_level = !strcmp(argv[0], "fairdie");
	const char *cmd = main_level ? "" : argv[0];
	const char *sep = main_level ? "" : ": ";
	const char *last = argv[optind - 1];
	char arg[FDC_QUOTE_MAX * 4 + 8];

	/*
	 * A long option always ends its argument, so argv[optind - 1] names
	 * it; a short one may sit inside a cluster and is named alone.
	 */
	if (optopt > 0 && optopt < 0x100 && strncmp(last, "--", 2))
		snprintf(arg, sizeof(arg), "-%c", optopt);
	else
		snprintf(arg, sizeof(arg), "%s", fdc_quote(last));

	/* A known option without its value sets optopt to its code. */
	if (optopt >= 0x100 || (optopt && optopt != ':' &&
				strchr(shortopts, optopt)))
		fdc_err("%s%soption '%s' needs a value", cmd, sep, arg);
	else if (optopt >= '0' && optopt <= '9')
		fdc_err("%s%sunrecognized option '%s' (an argument starting with '-' goes after '--')",
			cmd, sep, arg);
	else
		fdc_err("%s%sunrecognized option '%s' (try 'fairdie%s%s --help')",
			cmd, sep, arg, main_level ? "" : " ", cmd);
}

/**
 * fdc_getopt() - getopt_long() that also takes the global options
 * @cfg: where the global options go
 * @argc: argument count; argv[0] is the command (or the program)
 * @argv: the arguments
 * @shortopts: the command's short options, as for getopt_long()
 * @longopts: the command's long options, ending in a zeroed entry
 *
 * Global options are applied to @cfg and skipped. Starts over when called
 * with another @argv.
 *
 * Return: the next option of the command, -1 at the end of the options,
 * or '?' after printing a one-line usage error.
 */
int fdc_getopt(struct fdc_config *cfg, int argc, char **argv,
	       const char *shortopts, const struct option *longopts)
{
	static struct option merged[48];
	static const struct option *merged_from;
	static char **last_argv;
	size_t n = 0, i;
	int c;

	if (longopts != merged_from) {
		for (i = 0; i < ARRAY_SIZE(fdc_global_opts); i++)
			merged[n++] = fdc_global_opts[i];
		for (i = 0; longopts[i].name && n < ARRAY_SIZE(merged) - 1; i++)
			merged[n++] = longopts[i];
		memset(&merged[n], 0, sizeof(merged[n]));
		merged_from = longopts;
	}
	if (argv != last_argv) {
		last_argv = argv;
		optind = 0;
	}
	opterr = 0;

	for (;;) {
		c = getopt_long(argc, argv, shortopts, merged, NULL);
		if (c == -1)
			return fdc_config_check(cfg) ? '?' : -1;
		if (c == '?') {
			fdc_usage_err(argv, shortopts);
			return '?';
		}
		if (c < 0x100)
			return c;
		if (fdc_global_opt(cfg, c, optarg))
			return '?';
	}
}

/**
 * fdc_parse_cmd_opts() - the options of a command described by @opts
 * @cfg: where the global options go
 * @argc: argument count, argv[0] being the command
 * @argv: the arguments
 * @opts: the command's options: --help, --json and at most one number
 * @num: the number, when given (left alone otherwise: its default)
 * @json: set when --json is given
 *
 * Prints the help for --help, and a one-line error for a bad option or
 * number or for any argument left after the options.
 *
 * Return: FDC_GO_ON, or the exit status the command ends with.
 */
int fdc_parse_cmd_opts(struct fdc_config *cfg, int argc, char **argv,
		       const struct fdc_cmd_opts *opts, u64 *num, bool *json)
{
	char shortopts[4] = "h";
	int c;

	if (opts->num_opt)
		snprintf(shortopts, sizeof(shortopts), "%c:h", opts->num_opt);
	while ((c = fdc_getopt(cfg, argc, argv, shortopts,
			       opts->longopts)) != -1) {
		if (c == 'J') {
			*json = true;
		} else if (c == 'h') {
			fdc_help(opts->help);
			return FDC_EXIT_OK;
		} else if (c != opts->num_opt ||
			   fdc_parse_count(opts->cmd, opts->num_name, optarg,
					   opts->num_min, opts->num_max, num)) {
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("%s: unexpected argument '%s'", opts->cmd,
			fdc_quote(argv[optind]));
		return FDC_EXIT_USAGE;
	}
	return FDC_GO_ON;
}

/**
 * fdc_finish_output() - flush stdout and report a write error
 *
 * Return: FDC_EXIT_OK, or FDC_EXIT_FAILURE after printing the error.
 */
int fdc_finish_output(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fdc_err("standard output: %s", strerror(errno ? errno : EIO));
		return FDC_EXIT_FAILURE;
	}
	return FDC_EXIT_OK;
}

/* Progress lines: for runs this long, on a terminal, twice a second. */
#define FDC_PROGRESS_MIN	100000
#define FDC_PROGRESS_NS		500000000LL

static long long fdc_progress_next, fdc_progress_start;
static bool fdc_progress_shown;
static int fdc_progress_out_fd = STDOUT_FILENO;

/**
 * fdc_progress_output() - where the command writes while the meter runs
 * @f: the stream its output goes to during the run (standard output by
 *	default, -o FILE), or NULL when it writes only after the run (roll
 *	--stats, craps' summary)
 *
 * The meter is not shown on a terminal that also shows that output: the
 * lines scrolling by are the progress there, and the meter's text would
 * land among them.
 */
void fdc_progress_output(FILE *f)
{
	fdc_progress_out_fd = f ? fileno(f) : -1;
}

/* Whether the output goes to the terminal the meter would write to. */
static bool fdc_progress_shares_tty(void)
{
	struct stat out, err;

	return fdc_progress_out_fd >= 0 && isatty(fdc_progress_out_fd) &&
	       !fstat(fdc_progress_out_fd, &out) && !fstat(STDERR_FILENO, &err) &&
	       out.st_rdev == err.st_rdev;
}

/**
 * fdc_progress() - a progress line on standard error for long runs
 * @what: the command, e.g. "craps"
 * @done: steps done
 * @total: steps in all
 *
 * Prints "craps: 41% (8200000 of 20000000)" over itself at most twice a
 * second, only when standard error is a terminal that does not also show
 * the command's output (fdc_progress_output()), and @total is large. The
 * first call of a run has @done 0; the others, multiples of 4096.
 */
void fdc_progress(const char *what, u64 done, u64 total)
{
	struct timespec ts;
	long long now;

	if (total < FDC_PROGRESS_MIN || done & 4095)
		return;
	if (!done) {
		/*
		 * The first half second of the command stays quiet; a second
		 * meter (the output after the draws) shows at once after it.
		 */
		if (!isatty(STDERR_FILENO) || fdc_progress_shares_tty()) {
			fdc_progress_next = -1;
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
		if (!fdc_progress_start)
			fdc_progress_start = now;
		fdc_progress_next = fdc_progress_start + FDC_PROGRESS_NS;
		return;
	}
	if (fdc_progress_next < 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (now < fdc_progress_next)
		return;
	fdc_progress_next = now + FDC_PROGRESS_NS;
	fprintf(stderr, "\r%s: %.0f%% (%llu of %llu)", what, 100.0 * done / total,
		(unsigned long long)done, (unsigned long long)total);
	fdc_progress_shown = true;
}

/**
 * fdc_progress_end() - clear the progress line, if one was shown
 */
void fdc_progress_end(void)
{
	if (fdc_progress_shown)
		fputs("\r\033[K", stderr);
	fdc_progress_shown = false;
}

/**
 * fdc_print_u64() - a number in decimal, then a character, fast: for
 *	outputs of millions of numbers, where printf() costs more than
 *	making them
 * @f: the stream, used without its lock (the tool has one thread)
 * @v: the number
 * @end: the character written after it ('\0' included), or -1 for none
 */
void fdc_print_u64(FILE *f, u64 v, int end)
{
	char buf[24], *p = buf + sizeof(buf);

	if (end >= 0)
		*--p = (char)end;
	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	fwrite_unlocked(p, 1, buf + sizeof(buf) - p, f);
}

/**
 * fdc_print_s64() - fdc_print_u64() for a signed number
 * @f: the stream
 * @v: the number
 * @end: the character written after it, or -1 for none
 */
void fdc_print_s64(FILE *f, s64 v, int end)
{
	if (v < 0)
		putc_unlocked('-', f);
	fdc_print_u64(f, v < 0 ? -(u64)v : (u64)v, end);
}

/* ------------------------------------------------------------------------
 * -o FILE: all or nothing
 */

/* The signals that end the tool and would leave the temporary file. */
static const int fdc_output_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXFSZ, SIGPIPE,
};

/**
 * struct fdc_output - the -o FILE being written
 * @f: the stream, on @tmp (or on @path itself when @direct)
 * @path: FILE as given, for messages
 * @target: what the temporary file is renamed to: FILE, or where FILE
 *	points when it is a symbolic link
 * @tmp: the temporary file beside @target; read by the signal handler
 * @have_tmp: @tmp exists; read by the signal handler, written with the
 *	signals blocked (sigprocmask() also keeps the compiler from moving
 *	the write)
 * @direct: FILE exists and is not a regular file (a device, a pipe): it is
 *	written as it is, since nothing can take its place
 */
static struct fdc_output {
	FILE *f;
	const char *path;
	char target[PATH_MAX];
	char tmp[PATH_MAX + 32];
	sig_atomic_t have_tmp;
	bool direct;
} fdc_out;

/* A signal ends the tool: remove the temporary file first. */
static void fdc_output_signal(int sig)
{
	if (fdc_out.have_tmp)
		unlink(fdc_out.tmp);
	/* SA_RESETHAND: delivered again when the handler returns. */
	raise(sig);
}

static void fdc_output_block(bool block, sigset_t *old)
{
	sigset_t set;
	size_t i;

	if (!block) {
		sigprocmask(SIG_SETMASK, old, NULL);
		return;
	}
	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(fdc_output_signals); i++)
		sigaddset(&set, fdc_output_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static void fdc_output_handlers(void)
{
	struct sigaction sa, old;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fdc_output_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fdc_output_signals); i++) {
		/* A signal the caller ignores (nohup) stays ignored. */
		if (!sigaction(fdc_output_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(fdc_output_signals[i], &sa, NULL);
	}
}

/**
 * fdc_output_open() - open -o FILE for a command's output, all or nothing
 * @cmd: the command, for messages
 * @path: FILE
 *
 * The output goes to a temporary file in FILE's directory (with FILE's
 * mode, owner and group when it exists), which fdc_output_close() renames
 * over FILE only when the whole run succeeded. FILE is left as it was on
 * any failure: the source of bits running out, a full disk, a signal. So
 * FILE may also be the command's input. A FILE that exists and is not a
 * regular file (/dev/null, a pipe), or is under /dev or /proc
 * (/dev/stdout), is written directly.
 *
 * Return: the stream, or NULL after printing a one-line error.
 */
FILE *fdc_output_open(const char *cmd, const char *path)
{
	char dir[PATH_MAX];
	struct stat st;
	sigset_t old;
	mode_t mask;
	bool exists;
	char *slash;
	int fd;

	memset(&fdc_out, 0, sizeof(fdc_out));
	fdc_out.path = path;
	exists = !stat(path, &st);
	/*
	 * /dev/stdout, /proc/self/fd/N: a descriptor another program opened
	 * (maybe to append), which only a direct write honours.
	 */
	if (exists && (!strncmp(path, "/dev/", 5) ||
		       !strncmp(path, "/proc/", 6)))
		st.st_mode = S_IFCHR;
	if (exists && !S_ISREG(st.st_mode)) {
		fdc_out.direct = true;
		/* Appending: a shell's ">> log" behind /dev/stdout is kept. */
		fdc_out.f = fopen(path, "ae");
		if (!fdc_out.f)
			goto out_err;
		return fdc_out.f;
	}
	/* A symbolic link keeps pointing where it did: its target changes. */
	if (!exists || !realpath(path, fdc_out.target))
		snprintf(fdc_out.target, sizeof(fdc_out.target), "%s", path);
	snprintf(dir, sizeof(dir), "%s", fdc_out.target);
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else
		slash[slash == dir] = '\0';
	snprintf(fdc_out.tmp, sizeof(fdc_out.tmp), "%s/.fairdie-XXXXXX", dir);

	fdc_output_handlers();
	fdc_output_block(true, &old);
	fd = mkstemp(fdc_out.tmp);
	if (fd >= 0) {
		fdc_out.have_tmp = 1;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	fdc_output_block(false, &old);
	if (fd < 0)
		goto out_err;
	if (exists) {
		/* Best effort: only root may give the file to its owner. */
		if (fchown(fd, st.st_uid, st.st_gid))
			errno = 0;
		fchmod(fd, st.st_mode & 07777);
	} else {
		mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	fdc_out.f = fdopen(fd, "w");
	if (!fdc_out.f) {
		close(fd);
		fdc_output_close(cmd, NULL, false);
		goto out_err;
	}
	return fdc_out.f;

out_err:
	fdc_err("%s: %s: %s", cmd, fdc_quote(path), strerror(errno));
	return NULL;
}

/*
 * Write @f's data to the disk and put the temporary file in FILE's place.
 * Return: 0, or an errno.
 */
static int fdc_output_commit(FILE *f)
{
	char dir[PATH_MAX], *slash;
	int err = 0, fd;

	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (!err && fsync(fileno(f)) && errno != EINVAL)
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(fdc_out.tmp, fdc_out.target))
		err = errno;
	if (err)
		return err;
	fdc_out.have_tmp = 0;
	/* The rename itself on the disk: best effort. */
	snprintf(dir, sizeof(dir), "%s", fdc_out.target);
	slash = strrchr(dir, '/');
	if (!slash)
		strcpy(dir, ".");
	else
		slash[slash == dir] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

/**
 * fdc_output_close() - finish what fdc_output_open() began
 * @cmd: the command, for messages
 * @f: the stream it returned (NULL: nothing more to close)
 * @ok: the run succeeded: FILE gets the output; else FILE stays as it was
 *
 * Return: FDC_EXIT_OK, or FDC_EXIT_FAILURE (after printing a one-line
 * error when the output could not be written; FILE is then unchanged).
 */
int fdc_output_close(const char *cmd, FILE *f, bool ok)
{
	sigset_t old;
	int err = 0;

	if (fdc_out.direct) {
		err = ferror(f) ? EIO : 0;
		if (fclose(f) && !err)
			err = errno;
	} else if (ok) {
		err = fdc_output_commit(f);
	} else if (f) {
		fclose(f);
	}
	fdc_output_block(true, &old);
	if (fdc_out.have_tmp)
		unlink(fdc_out.tmp);
	fdc_out.have_tmp = 0;
	fdc_output_block(false, &old);
	if (err) {
		fdc_err("%s: %s: %s", cmd, fdc_quote(fdc_out.path),
			strerror(err));
		return FDC_EXIT_FAILURE;
	}
	return ok ? FDC_EXIT_OK : FDC_EXIT_FAILURE;
}
