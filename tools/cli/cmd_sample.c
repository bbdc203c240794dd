// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie sample K N': K distinct values of 1..N in random
 * order, for about log2(N!/(N-K)!) fair bits.
 */

#include <stdint.h>
#include <stdlib.h>

#include "cli.h"
#include "games.h"

static const char fdc_sample_help[] =
"Usage: fairdie sample [OPTION]... K N\n"
"Print K distinct values of 1..N in random order, one per line: every one\n"
"of the N!/(N-K)! ordered samples is exactly equally likely (a partial\n"
"Fisher-Yates shuffle). It costs about log2(N!/(N-K)!) fair bits: 33.2\n"
"for 6 of 49, where shuffling all 49 would pay log2(49!) = 208.\n"
"N goes up to 2^64-1; K up to N and up to 100000000.\n"
"\n"
"Options:\n"
"      --count=COUNT       draw COUNT samples, one per line, the values\n"
"                          separated by blanks\n"
"      --stats             then print on standard error the fair bits used\n"
"                          and log2(N!/(N-K)!)\n"
"      --json              print {\"samples\": [[...], ...]}\n";

#define FDC_SAMPLE_MAX_K	100000000ULL

/* Long options without a short form: codes no short option uses. */
#define FDC_SAMPLE_COUNT	'C'
#define FDC_SAMPLE_STATS	'S'
#define FDC_SAMPLE_JSON		'J'

static const struct option fdc_sample_opts[] = {
	{ "count", required_argument, NULL, FDC_SAMPLE_COUNT },
	{ "stats", no_argument, NULL, FDC_SAMPLE_STATS },
	{ "json", no_argument, NULL, FDC_SAMPLE_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The fair bits a run took: from the state's counters, or the source's. */
static u64 fdc_bits_spent(const struct fdc_dev *dev)
{
	return dev->bits ? dev->bits_used : dev->draw.bits_used;
}

/**
 * fdc_cmd_sample() - fairdie sample
 * @cfg: the global options
 * @argc: argument count, argv[0] being "sample"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_sample(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_dev dev;
	u64 k, n, count = 1, c, i, *out;
	bool stats = false, json = false, several = false;
	int opt, ret = FDC_EXIT_FAILURE;

	while ((opt = fdc_getopt(cfg, argc, argv, "h", fdc_sample_opts)) != -1) {
		switch (opt) {
		case FDC_SAMPLE_COUNT:
			if (fdc_parse_count("sample", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			several = true;
			break;
		case FDC_SAMPLE_STATS:
			stats = true;
			break;
		case FDC_SAMPLE_JSON:
			json = true;
			break;
		case 'h':
			fdc_help(fdc_sample_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (argc - optind != 2) {
		fdc_err("sample: expected two arguments, K and N (try 'fairdie sample --help')");
		return FDC_EXIT_USAGE;
	}
	if (cfg->sides) {
		fdc_err("sample: --sides does not apply: the values are 1..N");
		return FDC_EXIT_USAGE;
	}
	if (fdc_parse_count("sample", "N", argv[optind + 1], 1, UINT64_MAX, &n) ||
	    fdc_parse_count("sample", "K", argv[optind], 0,
			    n < FDC_SAMPLE_MAX_K ? n : FDC_SAMPLE_MAX_K, &k))
		return FDC_EXIT_USAGE;
	out = malloc((k ? k : 1) * sizeof(*out));
	if (!out) {
		fdc_err("sample: out of memory for %llu values",
			(unsigned long long)k);
		return FDC_EXIT_FAILURE;
	}
	if (fdc_dev_open(&dev, cfg))
		goto out_free;
	fdc_dev_draw_expect(&dev, count * fdc_log2_falling(n, k));
	if (json)
		printf("{\"samples\": [");
	for (c = 0; c < count && !ferror(stdout); c++) {
		fdc_progress("sample", c, count);
		if (fdc_sample(&dev, n, k, out, c + 1 == count))
			goto out_close;
		if (json)
			printf("%s[", c ? ", " : "");
		for (i = 0; i < k; i++) {
			if (json)
				printf("%s%llu", i ? ", " : "",
				       (unsigned long long)out[i] + 1);
			else
				printf(several && i ? " %llu" : "%llu%s",
				       (unsigned long long)out[i] + 1,
				       several ? "" : "\n");
		}
		if (json)
			putchar(']');
		else if (several)
			putchar('\n');
	}
	fdc_progress_end();
	if (json)
		printf("]}\n");
	ret = fdc_finish_output();
	if (!ret && stats) {
		fprintf(stderr, "samples:          %llu of %llu values from 1..%llu\n",
			(unsigned long long)count, (unsigned long long)k,
			(unsigned long long)n);
		fprintf(stderr, "log2(N!/(N-K)!):  %.2f bits per sample\n",
			fdc_log2_falling(n, k));
		fprintf(stderr, "fair bits used:   %llu (%.2f per sample)\n",
			(unsigned long long)fdc_bits_spent(&dev),
			(double)fdc_bits_spent(&dev) / count);
	}

out_close:
	fdc_dev_close(&dev);
out_free:
	free(out);
	return ret;
}
