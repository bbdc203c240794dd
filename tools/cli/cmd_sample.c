// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie sample K N': K distinct values of 1..N in random
 * order, for about log2(N!/(N-K)!) fair bits; or, with shuf's options,
 * K of the lines, arguments or numbers of the input.
 */

#include <stdint.h>

#include "shuf.h"

static const char fdc_sample_help[] =
"Usage: fairdie sample [OPTION]... K N\n"
"  or:  fairdie sample -n K [OPTION]... [FILE]\n"
"  or:  fairdie sample -n K -e [OPTION]... [ARG]...\n"
"  or:  fairdie sample -n K -i LO-HI [OPTION]...\n"
"Print K distinct values of 1..N in random order, one per line: every one\n"
"of the N!/(N-K)! ordered samples is exactly equally likely (a partial\n"
"Fisher-Yates shuffle). It costs about log2(N!/(N-K)!) fair bits: 33.2\n"
"for 6 of 49, where shuffling all 49 would pay log2(49!) = 208.\n"
"N goes up to 2^64-1; K up to N and up to 100000000.\n"
"With -n K, the K are drawn from the input as 'fairdie shuffle' takes it:\n"
"the lines of FILE or standard input, the ARGs (-e), or LO to HI (-i).\n"
"\n"
"Options:\n"
"  -e, --echo              treat each ARG as an input line\n"
"  -i, --input-range=LO-HI treat each number LO through HI as an input line\n"
"  -n, --head-count=K      the size of the sample\n"
"  -o, --output=FILE       write the result to FILE instead of standard\n"
"                          output\n"
"  -r, --repeat            draw with replacement: values may repeat\n"
"  -z, --zero-terminated   line delimiter is NUL, not newline\n"
"      --count=TIMES       draw TIMES samples of numbers, one per line, the\n"
"                          values separated by blanks\n"
"      --stats             then print on standard error the fair bits used\n"
"                          and log2(N!/(N-K)!) (with --json, in it)\n"
"      --json              print {\"schema\": \"fairdie.sample/1\",\n"
"                          \"samples\": [[...], ...] for numbers,\n"
"                          \"lines\": [...] for lines and ARGs, \"stats\": ...}\n";

#define FDC_SAMPLE_MAX_K	100000000ULL

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
	struct fdc_shuf sh = {
		.cmd = "sample", .help = fdc_sample_help,
		.unit = "sample", .json_key = "samples",
	};
	int ret, nops;
	u64 n, k;

	ret = fdc_shuf_options(cfg, argc, argv, &sh);
	if (ret != FDC_GO_ON)
		return ret;
	nops = argc - optind;
	if (sh.head == UINT64_MAX && !sh.echo && !sh.range) {
		/* fairdie's own form: sample K N. */
		if (nops != 2) {
			fdc_err("sample: expected two arguments, K and N, or -n K (try 'fairdie sample --help')");
			return FDC_EXIT_USAGE;
		}
		if (fdc_parse_count("sample", "N", argv[optind + 1], 0,
				    UINT64_MAX, &n) ||
		    fdc_parse_count("sample", "K", argv[optind], 0,
				    n < FDC_SAMPLE_MAX_K ? n : FDC_SAMPLE_MAX_K,
				    &k))
			return FDC_EXIT_USAGE;
		sh.input = FDC_SHUF_RANGE;
		sh.range = true;
		sh.lo = 1;
		sh.count = n;
		sh.head = k;
		return fdc_shuf_run(cfg, &sh);
	}
	if (sh.head == UINT64_MAX) {
		fdc_err("sample: -e and -i need -n K, the size of the sample");
		return FDC_EXIT_USAGE;
	}
	if (sh.head > FDC_SAMPLE_MAX_K && !sh.repeat) {
		fdc_err("sample: invalid K '%llu': at most %llu",
			(unsigned long long)sh.head, FDC_SAMPLE_MAX_K);
		return FDC_EXIT_USAGE;
	}
	ret = fdc_shuf_file_operands(&sh, nops, argv + optind);
	if (ret != FDC_GO_ON)
		return ret;
	return fdc_shuf_run(cfg, &sh);
}
