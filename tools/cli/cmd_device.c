// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the commands that look at the device: config, stats,
 * bench.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "device.h"
#include "fd_names.h"
#include "fd_roll.h"

#define FDC_SYSFS_PARAMS	"/sys/module/fairdie/parameters"
#define FDC_SYSFS_DEVICE	"/sys/class/misc/fairdie"

/* The open file's die, source and extractor, as JSON members. */
static void fdc_json_settings(u64 sides, __u32 source, __u32 extractor)
{
	fdc_json_key("source");
	fdc_json_str(fd_source_name(source));
	fdc_json_key("extractor");
	fdc_json_str(fd_extractor_name(extractor));
	fdc_json_key("sides");
	fdc_json_u64(sides);
}

/*
 * Members a source does not have, as null: each command prints the same
 * members whatever the source (schemas fairdie.config/1, fairdie.stats/1,
 * fairdie.bench/1).
 */
static void fdc_json_nulls(const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fdc_json_key(keys[i]);
		fdc_json_value("null", 4);
	}
}

/* The device's members of config, for a source that has none of them. */
static const char *const fdc_config_device_keys[] = {
	"abi_version", "sources", "extractors", "source", "extractor",
	"sides", "format", "sim",
};

/* The counters of GET_STATS, and the settings, for another source. */
static const char *const fdc_stats_device_keys[] = {
	"source", "extractor", "source_bits", "extracted_bits",
	"sampler_bits", "outputs", "source_retries", "source_failures",
	"health_failures",
};

/* What a userspace source reports, for the device. */
static const char *const fdc_stats_user_keys[] = {
	"description", "fair_bits", "fair_bits_held", "fair_bits_read",
	"fair_bits_per_roll",
};

/* The names of the bits set in @mask, blank-separated. */
static void fdc_print_mask(u32 mask, const char *(*name)(unsigned int),
			   unsigned int count)
{
	unsigned int i;
	bool first = true;

	for (i = 0; i < count; i++) {
		if (!(mask & (1U << i)))
			continue;
		printf("%s%s", first ? "" : " ", name(i));
		first = false;
	}
	putchar('\n');
}

/* Print "  name = value" for each one-line file of @dir. */
static void fdc_print_sysfs_dir(const char *dir)
{
	struct dirent **names;
	char path[512], value[256];
	int n, i;
	FILE *f;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		printf("  (%s: %s)\n", dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (name[0] == '.' || !strcmp(name, "uevent") ||
		    !strcmp(name, "dev"))
			goto next;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "re");
		if (!f)
			goto next;
		if (fgets(value, sizeof(value), f)) {
			value[strcspn(value, "\n")] = '\0';
			printf("  %-20s %s\n", name, value);
		}
		fclose(f);
next:
		free(names[i]);
	}
	free(names);
}

/* ------------------------------------------------------------------------
 * config
 */

static const char fdc_config_help[] =
"Usage: fairdie config [OPTION]...\n"
"Show where the fair bits come from. For the device: open it, apply the\n"
"global options to the open file, and show what the machine offers\n"
"(GET_INFO), the open file's settings, the module parameters (the defaults\n"
"of new open files, from /sys/module/fairdie/parameters) and the device's\n"
"sysfs attributes (/sys/class/misc/fairdie). When the device cannot be\n"
"opened, say what is missing and list the sources that need no module\n"
"(exit status 1). With --source=getrandom, --random-source or --seed (or\n"
"FAIRDIE_SOURCE=getrandom), show that source: the device is not opened.\n"
"\n"
"Options:\n"
"      --json              print the same as one JSON object\n"
"  -h, --help              show this help and exit\n";

static const struct option fdc_config_opts[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct fdc_cmd_opts fdc_config_cmd = {
	.cmd = "config", .help = fdc_config_help,
	.longopts = fdc_config_opts,
};

/* The name of a source of bits, as the JSON member "bits_from" gives it. */
static const char *fdc_bits_from(const struct fdc_config *cfg)
{
	switch (cfg->user_source) {
	case FDC_USRC_FILE:
		return "file";
	case FDC_USRC_GETRANDOM:
		return "getrandom";
	case FDC_USRC_SEED:
		return "seed";
	default:
		return "device";
	}
}

/* What a userspace source is, for config, stats and bench. */
static void fdc_user_source_describe(const struct fdc_config *cfg, bool json)
{
	char what[600];

	switch (cfg->user_source) {
	case FDC_USRC_FILE:
		snprintf(what, sizeof(what), "file %s",
			 strcmp(cfg->random_file, "-") ?
			 fdc_quote(cfg->random_file) : "(standard input)");
		break;
	case FDC_USRC_GETRANDOM:
		snprintf(what, sizeof(what), "getrandom(2)%s",
			 cfg->source_opt ? "" : " (FAIRDIE_SOURCE)");
		break;
	default:
		snprintf(what, sizeof(what),
			 "splitmix64 seeded with %llu (reproducible, not for security)",
			 (unsigned long long)cfg->seed);
		break;
	}
	if (json) {
		fdc_json_key("bits_from");
		fdc_json_str(fdc_bits_from(cfg));
		fdc_json_key("description");
		fdc_json_str(what);
	} else {
		printf("fair bits from:   %s (the device is not used)\n", what);
	}
}

/* The sources of bits that need no module, for a newcomer without one. */
static const struct {
	const char *name;
	const char *option;
	const char *what;
} fdc_user_sources[] = {
	{ "getrandom", "--source=getrandom",
	  "getrandom(2), the kernel's random number generator" },
	{ "file", "--random-source=FILE",
	  "fair bits from FILE or a pipe ('-' is standard input)" },
	{ "seed", "--seed=N",
	  "splitmix64 seeded with N: reproducible, not for security" },
};

/* "userspace_sources": the sources that need no module, by name. */
static void fdc_json_user_sources(void)
{
	size_t i;

	fdc_json_key("userspace_sources");
	fdc_json_array();
	for (i = 0; i < ARRAY_SIZE(fdc_user_sources); i++)
		fdc_json_str(fdc_user_sources[i].name);
	fdc_json_close();
}

/* config when the device cannot be opened: what is missing, what else. */
static int fdc_config_missing(const struct fdc_config *cfg, int err,
			      bool json)
{
	char why[512];
	size_t i;

	fdc_device_missing(cfg->device, err, why, sizeof(why));
	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("bits_from");
		fdc_json_str("device");
		fdc_json_key("device");
		fdc_json_str(cfg->device);
		fdc_json_user_sources();
		fdc_json_key("description");
		fdc_json_value("null", 4);
		fdc_json_nulls(fdc_config_device_keys,
			       ARRAY_SIZE(fdc_config_device_keys));
	} else {
		printf("fair bits from:   the device %s\n", fdc_quote(cfg->device));
		printf("device:           missing: %s\n", why);
		printf("sources that need no module:\n");
		for (i = 0; i < ARRAY_SIZE(fdc_user_sources); i++)
			printf("  %-22s %s\n", fdc_user_sources[i].option,
			       fdc_user_sources[i].what);
		printf("FAIRDIE_SOURCE=getrandom in the environment makes %s\n",
		       "getrandom the default.");
	}
	fdc_finish_output();
	fdc_err("%s", why);
	return FDC_EXIT_FAILURE;
}

/**
 * fdc_cmd_config() - fairdie config
 * @cfg: the global options
 * @argc: argument count, argv[0] being "config"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_config(struct fdc_config *cfg, int argc, char **argv)
{
	struct fairdie_info info;
	struct fairdie_sim sim;
	struct fdc_engine eng;
	__u32 source, extractor, format;
	__u64 sides;
	bool json = false;
	int ret, fd;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_config_cmd, NULL, &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (cfg->user_source != FDC_USRC_DEVICE) {
		if (json)
			fdc_json_begin(stdout);
		fdc_user_source_describe(cfg, json);
		if (json) {
			fdc_json_key("device");
			fdc_json_value("null", 4);
			fdc_json_user_sources();
			fdc_json_nulls(fdc_config_device_keys,
				       ARRAY_SIZE(fdc_config_device_keys));
		}
		return fdc_finish_output();
	}
	/* A device that cannot be opened: tell a newcomer what to do. */
	fd = open(cfg->device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fdc_config_missing(cfg, errno, json);
	close(fd);
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	memset(&info, 0, sizeof(info));
	if (fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_INFO, &info, "GET_INFO") ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_SIDES, &sides,
			     "GET_SIDES") ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_SOURCE, &source,
			     "GET_SOURCE") ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_EXTRACTOR, &extractor,
			     "GET_EXTRACTOR") ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_FORMAT, &format,
			     "GET_FORMAT") ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_SIM, &sim, "GET_SIM")) {
		fdc_engine_close(&eng);
		return FDC_EXIT_FAILURE;
	}
	fdc_engine_close(&eng);

	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("bits_from");
		fdc_json_str("device");
		fdc_json_key("device");
		fdc_json_str(cfg->device);
		fdc_json_key("abi_version");
		fdc_json_u64(info.version);
		fdc_json_key("sources");
		fdc_json_u64(info.sources);
		fdc_json_key("extractors");
		fdc_json_u64(info.extractors);
		fdc_json_settings(sides, source, extractor);
		fdc_json_key("format");
		fdc_json_str(fd_format_name(format));
		fdc_json_key("sim");
		fdc_json_object();
		fdc_json_key("seed");
		fdc_json_u64(sim.seed);
		fdc_json_key("p1_num");
		fdc_json_u64(sim.p1_num);
		fdc_json_key("p1_den");
		fdc_json_u64(sim.p1_den);
		fdc_json_close();
		fdc_json_key("description");
		fdc_json_value("null", 4);
		fdc_json_user_sources();
		return fdc_finish_output();
	}
	printf("fair bits from:   the device %s\n", fdc_quote(cfg->device));
	printf("abi version:      %u\n", info.version);
	printf("sources:          ");
	fdc_print_mask(info.sources, fd_source_name, FD_NR_SOURCES);
	printf("extractors:       ");
	fdc_print_mask(info.extractors, fd_extractor_name, FD_NR_EXTRACTORS);
	printf("this open file:\n");
	printf("  source          %s\n", fd_source_name(source));
	printf("  extractor       %s\n", fd_extractor_name(extractor));
	printf("  sides           %llu\n", (unsigned long long)sides);
	printf("  format          %s\n", fd_format_name(format));
	printf("  sim coin        seed %llu, P(1) = %llu/%llu\n",
	       (unsigned long long)sim.seed, (unsigned long long)sim.p1_num,
	       (unsigned long long)sim.p1_den);
	printf("module parameters (%s):\n", FDC_SYSFS_PARAMS);
	fdc_print_sysfs_dir(FDC_SYSFS_PARAMS);
	printf("device attributes (%s):\n", FDC_SYSFS_DEVICE);
	fdc_print_sysfs_dir(FDC_SYSFS_DEVICE);
	return fdc_finish_output();
}

/* ------------------------------------------------------------------------
 * stats
 */

static const char fdc_stats_help[] =
"Usage: fairdie stats [OPTION]...\n"
"Open the device, apply the global options, read a sample of rolls and\n"
"show the open file's counters (GET_STATS) with what they mean per roll.\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       rolls to read first (default 1000; 0 shows the\n"
"                          counters of a fresh open file)\n"
"      --json              print the counters as one JSON object\n"
"With --source=getrandom, --random-source or --seed, COUNT rolls of\n"
"--sides (default 6) are made from that source and the fair bits they\n"
"took are shown.\n";

static const struct option fdc_stats_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct fdc_cmd_opts fdc_stats_cmd = {
	.cmd = "stats", .help = fdc_stats_help,
	.longopts = fdc_stats_opts,
	.num_opt = 'n', .num_name = "COUNT",
	.num_min = 0, .num_max = FDC_MAX_COUNT,
};

/* stats and bench on a userspace source: the fair bits per roll. */
static void fdc_print_user_stats(const struct fdc_config *cfg,
				 const struct fdc_engine *e, u64 sides,
				 u64 rolls, bool json)
{
	u64 used = fdc_engine_bits_used(e);
	double held = fdc_engine_bits_held(e), spent = used - held;
	double per = rolls ? spent / rolls : 0;

	/* What the sampler's state holds at the end is not spent yet. */
	fdc_user_source_describe(cfg, json);
	if (json) {
		fdc_json_key("sides");
		fdc_json_u64(sides);
		fdc_json_key("rolls");
		fdc_json_u64(rolls);
		fdc_json_key("fair_bits");
		fdc_json_u64(used);
		fdc_json_key("fair_bits_held");
		fdc_json_number(held);
		fdc_json_key("fair_bits_read");
		fdc_json_u64(e->bits_read);
		fdc_json_key("fair_bits_per_roll");
		fdc_json_number(per);
		fdc_json_nulls(fdc_stats_device_keys,
			       ARRAY_SIZE(fdc_stats_device_keys));
		return;
	}
	printf("rolls:            %llu d%llu\n", (unsigned long long)rolls,
	       (unsigned long long)sides);
	printf("fair bits used:   %.2f\n", spent);
	printf("fair bits taken:  %llu (%.2f of them held %s)\n",
	       (unsigned long long)used, held,
	       "in the sampler's state for later rolls");
	printf("fair bits read:   %llu\n", (unsigned long long)e->bits_read);
	printf("fair bits per roll:     %.4f (log2 %llu = %.4f)\n", per,
	       (unsigned long long)sides, log2((double)sides));
}

static void fdc_print_stats(const struct fairdie_stats *st, u64 sides)
{
	double rolls = st->outputs ? (double)st->outputs : 1;

	printf("source_bits:      %llu\n", (unsigned long long)st->source_bits);
	printf("extracted_bits:   %llu\n",
	       (unsigned long long)st->extracted_bits);
	printf("sampler_bits:     %llu\n", (unsigned long long)st->sampler_bits);
	printf("outputs:          %llu\n", (unsigned long long)st->outputs);
	printf("source_retries:   %llu\n",
	       (unsigned long long)st->source_retries);
	printf("source_failures:  %llu\n",
	       (unsigned long long)st->source_failures);
	printf("health_failures:  %llu\n",
	       (unsigned long long)st->health_failures);
	if (!st->outputs)
		return;
	printf("source bits per roll:   %.4f\n", st->source_bits / rolls);
	printf("sampler bits per roll:  %.4f (log2 %llu = %.4f)\n",
	       st->sampler_bits / rolls, (unsigned long long)sides,
	       log2((double)sides));
	if (st->source_bits)
		printf("extractor yield:        %.4f fair bits per source bit\n",
		       (double)st->extracted_bits / st->source_bits);
}

/*
 * @n rolls of @sides; on the device, the open file's own sides, so that
 * they are not changed.
 */
static int fdc_read_sample(struct fdc_engine *e, u64 sides, u64 n)
{
	u64 *buf, chunk;
	int ret = 0;

	buf = malloc(FDC_CACHE_MAX * sizeof(*buf));
	if (!buf) {
		fdc_err("out of memory");
		return -1;
	}
	if (e->own_dice)
		e->src.sides = sides;
	while (n && !ret) {
		chunk = n < FDC_CACHE_MAX ? n : FDC_CACHE_MAX;
		ret = fdc_engine_rolls(e, sides, buf, chunk);
		n -= chunk;
	}
	free(buf);
	return ret;
}

/* The open file's die, source and extractor, for stats and bench. */
static int fdc_device_settings(struct fdc_engine *e, __u64 *sides,
			       __u32 *source, __u32 *extractor)
{
	return fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_SIDES, sides,
				"GET_SIDES") ||
	       fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_SOURCE, source,
				"GET_SOURCE") ||
	       fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_EXTRACTOR, extractor,
				"GET_EXTRACTOR") ? -1 : 0;
}

/**
 * fdc_cmd_stats() - fairdie stats
 * @cfg: the global options
 * @argc: argument count, argv[0] being "stats"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_stats(struct fdc_config *cfg, int argc, char **argv)
{
	struct fairdie_stats st;
	struct fdc_engine eng;
	__u64 sides;
	__u32 source, extractor;
	u64 count = 1000;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_stats_cmd, &count, &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	if (!fdc_source_is_device(&eng.src)) {
		sides = cfg->sides ? cfg->sides : 6;
		if (fdc_read_sample(&eng, sides, count)) {
			fdc_engine_close(&eng);
			return FDC_EXIT_FAILURE;
		}
		if (json)
			fdc_json_begin(stdout);
		fdc_print_user_stats(cfg, &eng, sides, count, json);
		fdc_engine_close(&eng);
		return fdc_finish_output();
	}
	if (fdc_device_settings(&eng, &sides, &source, &extractor) ||
	    fdc_read_sample(&eng, sides, count) ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_STATS, &st,
			     "GET_STATS")) {
		fdc_engine_close(&eng);
		return FDC_EXIT_FAILURE;
	}
	fdc_engine_close(&eng);

	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("bits_from");
		fdc_json_str("device");
		fdc_json_key("rolls");
		fdc_json_u64(count);
		fdc_json_settings(sides, source, extractor);
		fdc_device_json_stats(&st);
		fdc_json_nulls(fdc_stats_user_keys,
			       ARRAY_SIZE(fdc_stats_user_keys));
		return fdc_finish_output();
	}
	printf("rolls read:       %llu d%llu (source %s, extractor %s)\n",
	       (unsigned long long)count, (unsigned long long)sides,
	       fd_source_name(source), fd_extractor_name(extractor));
	fdc_print_stats(&st, sides);
	return fdc_finish_output();
}

/* ------------------------------------------------------------------------
 * bench
 */

static const char fdc_bench_help[] =
"Usage: fairdie bench [OPTION]...\n"
"Read rolls from the device for a few seconds and show rolls per second,\n"
"bytes per second and the source bits each roll cost, with the open file's\n"
"settings after the global options (e.g. --sides=256 --extractor=none).\n"
"\n"
"Options:\n"
"  -t, --time=SECONDS      how long to read (default 3, at most 3600)\n"
"      --json              print the figures as one JSON object\n"
"With --source=getrandom, --random-source or --seed, rolls of --sides\n"
"(default 6) are made from that source instead.\n";

static const struct option fdc_bench_opts[] = {
	{ "time", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct fdc_cmd_opts fdc_bench_cmd = {
	.cmd = "bench", .help = fdc_bench_help,
	.longopts = fdc_bench_opts,
	.num_opt = 't', .num_name = "SECONDS",
	.num_min = 1, .num_max = 3600,
};

static double fdc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/**
 * fdc_cmd_bench() - fairdie bench
 * @cfg: the global options
 * @argc: argument count, argv[0] being "bench"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_bench(struct fdc_config *cfg, int argc, char **argv)
{
	struct fairdie_stats st;
	struct fdc_engine eng;
	__u64 sides;
	__u32 source, extractor;
	u64 seconds = 3, rolls = 0;
	double start, elapsed;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_bench_cmd, &seconds,
				 &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	ret = FDC_EXIT_FAILURE;
	if (!fdc_source_is_device(&eng.src)) {
		sides = cfg->sides ? cfg->sides : 6;
		start = fdc_now();
		do {
			if (fdc_read_sample(&eng, sides, FDC_CACHE_MAX))
				goto out_close;
			rolls += FDC_CACHE_MAX;
			elapsed = fdc_now() - start;
		} while (elapsed < seconds);
		if (json) {
			fdc_json_begin(stdout);
			fdc_json_key("rolls_per_s");
			fdc_json_double(rolls / elapsed, 0);
			fdc_json_key("seconds");
			fdc_json_number(elapsed);
		} else {
			printf("rolls per second: %.0f\n", rolls / elapsed);
		}
		fdc_print_user_stats(cfg, &eng, sides, rolls, json);
		ret = fdc_finish_output();
		goto out_close;
	}
	if (fdc_device_settings(&eng, &sides, &source, &extractor) ||
	    fdc_device_ioctl(&eng.src, FAIRDIE_IOC_RESET, NULL, "RESET"))
		goto out_close;
	start = fdc_now();
	do {
		if (fdc_read_sample(&eng, sides, FDC_CACHE_MAX))
			goto out_close;
		rolls += FDC_CACHE_MAX;
		elapsed = fdc_now() - start;
	} while (elapsed < seconds);
	if (fdc_device_ioctl(&eng.src, FAIRDIE_IOC_GET_STATS, &st,
			     "GET_STATS"))
		goto out_close;

	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("bits_from");
		fdc_json_str("device");
		fdc_json_settings(sides, source, extractor);
		fdc_json_key("rolls");
		fdc_json_u64(rolls);
		fdc_json_key("seconds");
		fdc_json_number(elapsed);
		fdc_json_key("rolls_per_s");
		fdc_json_double(rolls / elapsed, 0);
		fdc_device_json_stats(&st);
		fdc_json_nulls(fdc_stats_user_keys,
			       ARRAY_SIZE(fdc_stats_user_keys));
		ret = fdc_finish_output();
		goto out_close;
	}
	printf("settings:         d%llu, source %s, extractor %s\n",
	       (unsigned long long)sides, fd_source_name(source),
	       fd_extractor_name(extractor));
	printf("rolls:            %llu in %.2f s\n", (unsigned long long)rolls,
	       elapsed);
	printf("rolls per second: %.0f\n", rolls / elapsed);
	printf("bytes per second: %.0f\n",
	       rolls * fd_roll_width(sides) / elapsed);
	printf("source bits per second: %.0f\n", st.source_bits / elapsed);
	fdc_print_stats(&st, sides);
	ret = fdc_finish_output();

out_close:
	fdc_engine_close(&eng);
	return ret;
}
