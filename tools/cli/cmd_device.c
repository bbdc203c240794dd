// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the commands that look at the device: config, stats,
 * bench.
 */

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fd_roll.h"

#define FDC_SYSFS_PARAMS	"/sys/module/fairdie/parameters"
#define FDC_SYSFS_DEVICE	"/sys/class/misc/fairdie"

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
"Open the device, apply the global options to the open file, and show:\n"
"what the machine offers (GET_INFO), the open file's settings, the module\n"
"parameters (the defaults of new open files, from\n"
"/sys/module/fairdie/parameters) and the device's sysfs attributes\n"
"(/sys/class/misc/fairdie). With --source=getrandom, --random-source or\n"
"--seed, shows that source instead: the device is not opened.\n"
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

/* What a userspace source is, for config, stats and bench. */
static void fdc_user_source_describe(const struct fdc_config *cfg, bool json)
{
	char what[600];

	switch (cfg->user_source) {
	case FDC_USRC_FILE:
		snprintf(what, sizeof(what), "file %s", cfg->random_file);
		break;
	case FDC_USRC_GETRANDOM:
		snprintf(what, sizeof(what), "getrandom(2)");
		break;
	default:
		snprintf(what, sizeof(what),
			 "splitmix64 seeded with %llu (reproducible, not for security)",
			 (unsigned long long)cfg->seed);
		break;
	}
	if (json) {
		printf("\"bits\": ");
		fdc_json_bytes(what, strlen(what));
	} else {
		printf("fair bits from:   %s (the device is not used)\n", what);
	}
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
	struct fdc_dev dev;
	__u32 source, extractor, format;
	__u64 sides;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_config_cmd, NULL, &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (cfg->user_source != FDC_USRC_DEVICE) {
		fputs(json ? "{" : "", stdout);
		fdc_user_source_describe(cfg, json);
		fputs(json ? "}\n" : "", stdout);
		return fdc_finish_output();
	}
	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	memset(&info, 0, sizeof(info));
	if (fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_INFO, &info, "GET_INFO") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SIDES, &sides, "GET_SIDES") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SOURCE, &source, "GET_SOURCE") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_EXTRACTOR, &extractor,
			  "GET_EXTRACTOR") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_FORMAT, &format, "GET_FORMAT") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SIM, &sim, "GET_SIM")) {
		fdc_dev_close(&dev);
		return FDC_EXIT_FAILURE;
	}
	fdc_dev_close(&dev);

	if (json) {
		printf("{\"device\": ");
		fdc_json_bytes(cfg->device, strlen(cfg->device));
		printf(", \"abi_version\": %u, \"sources\": %u, \"extractors\": %u, ",
		       info.version, info.sources, info.extractors);
		printf("\"source\": \"%s\", \"extractor\": \"%s\", ",
		       fd_source_name(source), fd_extractor_name(extractor));
		printf("\"sides\": %llu, \"format\": \"%s\", ",
		       (unsigned long long)sides, fd_format_name(format));
		printf("\"sim\": {\"seed\": %llu, \"p1_num\": %llu, \"p1_den\": %llu}}\n",
		       (unsigned long long)sim.seed,
		       (unsigned long long)sim.p1_num,
		       (unsigned long long)sim.p1_den);
		return fdc_finish_output();
	}
	printf("device:           %s\n", cfg->device);
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

/* The counters of GET_STATS as JSON members, in the struct's order. */
static void fdc_json_stats(const struct fairdie_stats *st)
{
	const struct {
		const char *name;
		__u64 value;
	} members[] = {
		{ "source_bits", st->source_bits },
		{ "extracted_bits", st->extracted_bits },
		{ "sampler_bits", st->sampler_bits },
		{ "outputs", st->outputs },
		{ "source_retries", st->source_retries },
		{ "source_failures", st->source_failures },
		{ "health_failures", st->health_failures },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(members); i++)
		printf("%s\"%s\": %llu", i ? ", " : "", members[i].name,
		       (unsigned long long)members[i].value);
}

/* stats and bench on a userspace source: the fair bits per roll. */
static void fdc_print_user_stats(const struct fdc_config *cfg,
				 const struct fdc_dev *dev, u64 sides, u64 rolls,
				 bool json)
{
	double per = rolls ? (double)dev->bits_used / rolls : 0;

	if (json) {
		fdc_user_source_describe(cfg, true);
		printf(", \"sides\": %llu, \"rolls\": %llu, ",
		       (unsigned long long)sides, (unsigned long long)rolls);
		printf("\"fair_bits\": %llu, \"fair_bits_per_roll\": %.4f",
		       (unsigned long long)dev->bits_used, per);
		return;
	}
	fdc_user_source_describe(cfg, false);
	printf("rolls:            %llu d%llu\n", (unsigned long long)rolls,
	       (unsigned long long)sides);
	printf("fair bits used:   %llu\n", (unsigned long long)dev->bits_used);
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

/* Read @n rolls of the open file's own sides, without changing them. */
static int fdc_read_sample(struct fdc_dev *dev, u64 sides, u64 n)
{
	u64 *buf, chunk;
	int ret = 0;

	buf = malloc(FDC_CACHE_MAX * sizeof(*buf));
	if (!buf) {
		fdc_err("out of memory");
		return -1;
	}
	dev->sides = sides;
	if (!dev->bits)
		dev->max_ahead = FDC_CACHE_MAX;
	while (n && !ret) {
		chunk = n < FDC_CACHE_MAX ? n : FDC_CACHE_MAX;
		ret = fdc_dev_rolls(dev, sides, buf, chunk);
		n -= chunk;
	}
	free(buf);
	return ret;
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
	struct fdc_dev dev;
	__u64 sides;
	__u32 source, extractor;
	u64 count = 1000;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_stats_cmd, &count, &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	if (dev.bits) {
		sides = cfg->sides ? cfg->sides : 6;
		if (fdc_read_sample(&dev, sides, count)) {
			fdc_dev_close(&dev);
			return FDC_EXIT_FAILURE;
		}
		fputs(json ? "{" : "", stdout);
		fdc_print_user_stats(cfg, &dev, sides, count, json);
		fputs(json ? "}\n" : "", stdout);
		fdc_dev_close(&dev);
		return fdc_finish_output();
	}
	if (fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SIDES, &sides, "GET_SIDES") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SOURCE, &source, "GET_SOURCE") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_EXTRACTOR, &extractor,
			  "GET_EXTRACTOR") ||
	    fdc_read_sample(&dev, sides, count) ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_STATS, &st, "GET_STATS")) {
		fdc_dev_close(&dev);
		return FDC_EXIT_FAILURE;
	}
	fdc_dev_close(&dev);

	if (json) {
		printf("{\"rolls\": %llu, \"sides\": %llu, ",
		       (unsigned long long)count, (unsigned long long)sides);
		printf("\"source\": \"%s\", \"extractor\": \"%s\", ",
		       fd_source_name(source), fd_extractor_name(extractor));
		fdc_json_stats(&st);
		printf("}\n");
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
	struct fdc_dev dev;
	__u64 sides;
	__u32 source, extractor;
	u64 seconds = 3, rolls = 0, *buf;
	double start, elapsed;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_bench_cmd, &seconds,
				 &json);
	if (ret != FDC_GO_ON)
		return ret;
	ret = FDC_EXIT_FAILURE;
	buf = malloc(FDC_CACHE_MAX * sizeof(*buf));
	if (!buf) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	if (fdc_dev_open(&dev, cfg))
		goto out_free;
	if (dev.bits) {
		sides = cfg->sides ? cfg->sides : 6;
		start = fdc_now();
		do {
			if (fdc_read_sample(&dev, sides, FDC_CACHE_MAX))
				goto out_close;
			rolls += FDC_CACHE_MAX;
			elapsed = fdc_now() - start;
		} while (elapsed < seconds);
		if (json)
			printf("{\"rolls_per_s\": %.0f, ", rolls / elapsed);
		else
			printf("rolls per second: %.0f\n", rolls / elapsed);
		fdc_print_user_stats(cfg, &dev, sides, rolls, json);
		fputs(json ? "}\n" : "", stdout);
		ret = fdc_finish_output();
		goto out_close;
	}
	if (fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SIDES, &sides, "GET_SIDES") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_SOURCE, &source, "GET_SOURCE") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_EXTRACTOR, &extractor,
			  "GET_EXTRACTOR") ||
	    fdc_dev_ioctl(&dev, FAIRDIE_IOC_RESET, NULL, "RESET"))
		goto out_close;
	dev.sides = sides;
	start = fdc_now();
	do {
		if (fdc_dev_rolls(&dev, sides, buf, FDC_CACHE_MAX))
			goto out_close;
		rolls += FDC_CACHE_MAX;
		elapsed = fdc_now() - start;
	} while (elapsed < seconds);
	if (fdc_dev_ioctl(&dev, FAIRDIE_IOC_GET_STATS, &st, "GET_STATS"))
		goto out_close;

	if (json) {
		printf("{\"sides\": %llu, \"source\": \"%s\", \"extractor\": \"%s\", ",
		       (unsigned long long)sides, fd_source_name(source),
		       fd_extractor_name(extractor));
		printf("\"rolls\": %llu, \"seconds\": %.3f, \"rolls_per_s\": %.0f, ",
		       (unsigned long long)rolls, elapsed, rolls / elapsed);
		fdc_json_stats(&st);
		printf("}\n");
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
	fdc_dev_close(&dev);
out_free:
	free(buf);
	return ret;
}
