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

#define FDC_SYSFS_PARAMS	"/sys/module/fairdie/parameters"
#define FDC_SYSFS_DEVICE	"/sys/class/misc/fairdie"

static const char *const fdc_format_names[FDC_FORMATS] = {
	[FAIRDIE_FMT_BINARY] = "binary",
	[FAIRDIE_FMT_TEXT] = "text",
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
"Open the device, apply the global options to the open file, and show:\n"
"what the machine offers (GET_INFO), the open file's settings, the module\n"
"parameters (the defaults of new open files, from\n"
"/sys/module/fairdie/parameters) and the device's sysfs attributes\n"
"(/sys/class/misc/fairdie).\n"
"\n"
"Options:\n";

static const struct option fdc_help_only_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
	int c;

	while ((c = fdc_getopt(cfg, argc, argv, "h", fdc_help_only_opts)) != -1) {
		if (c != 'h')
			return FDC_EXIT_USAGE;
		fdc_help(fdc_config_help);
		return FDC_EXIT_OK;
	}
	if (optind != argc) {
		fdc_err("config: unexpected argument '%s'", argv[optind]);
		return FDC_EXIT_USAGE;
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

	printf("device:           %s\n", cfg->device);
	printf("abi version:      %u\n", info.version);
	printf("sources:          ");
	fdc_print_mask(info.sources, fdc_source_name, FDC_SOURCES);
	printf("extractors:       ");
	fdc_print_mask(info.extractors, fdc_extractor_name, FDC_EXTRACTORS);
	printf("this open file:\n");
	printf("  source          %s\n", fdc_source_name(source));
	printf("  extractor       %s\n", fdc_extractor_name(extractor));
	printf("  sides           %llu\n", (unsigned long long)sides);
	printf("  format          %s\n", format < FDC_FORMATS ?
	       fdc_format_names[format] : "unknown");
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
"                          counters of a fresh open file)\n";

static const struct option fdc_stats_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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
	int c;

	while ((c = fdc_getopt(cfg, argc, argv, "n:h", fdc_stats_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("stats", "COUNT", optarg, 0,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			break;
		case 'h':
			fdc_help(fdc_stats_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("stats: unexpected argument '%s'", argv[optind]);
		return FDC_EXIT_USAGE;
	}
	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
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

	printf("rolls read:       %llu d%llu (source %s, extractor %s)\n",
	       (unsigned long long)count, (unsigned long long)sides,
	       fdc_source_name(source), fdc_extractor_name(extractor));
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
"  -t, --time=SECONDS      how long to read (default 3, at most 3600)\n";

static const struct option fdc_bench_opts[] = {
	{ "time", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
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
	int c, ret = FDC_EXIT_FAILURE;

	while ((c = fdc_getopt(cfg, argc, argv, "t:h", fdc_bench_opts)) != -1) {
		switch (c) {
		case 't':
			if (fdc_parse_count("bench", "SECONDS", optarg, 1, 3600,
					    &seconds))
				return FDC_EXIT_USAGE;
			break;
		case 'h':
			fdc_help(fdc_bench_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("bench: unexpected argument '%s'", argv[optind]);
		return FDC_EXIT_USAGE;
	}
	buf = malloc(FDC_CACHE_MAX * sizeof(*buf));
	if (!buf) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	if (fdc_dev_open(&dev, cfg))
		goto out_free;
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

	printf("settings:         d%llu, source %s, extractor %s\n",
	       (unsigned long long)sides, fdc_source_name(source),
	       fdc_extractor_name(extractor));
	printf("rolls:            %llu in %.2f s\n", (unsigned long long)rolls,
	       elapsed);
	printf("rolls per second: %.0f\n", rolls / elapsed);
	printf("bytes per second: %.0f\n",
	       rolls * fdc_roll_width(sides) / elapsed);
	printf("source bits per second: %.0f\n", st.source_bits / elapsed);
	fdc_print_stats(&st, sides);
	ret = fdc_finish_output();

out_close:
	fdc_dev_close(&dev);
out_free:
	free(buf);
	return ret;
}
