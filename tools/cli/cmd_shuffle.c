// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie shuffle': a fair permutation of lines, arguments
 * or numbers, with shuf's interface.
 */

#include "shuf.h"

static const char fdc_shuffle_help[] =
"Usage: fairdie shuffle [OPTION]... [FILE]\n"
"  or:  fairdie shuffle -e [OPTION]... [ARG]...\n"
"  or:  fairdie shuffle -i LO-HI [OPTION]...\n"
"  or:  fairdie shuffle [OPTION]... N\n"
"Write a uniformly random permutation of the input lines to standard\n"
"output, as shuf(1) does: the lines of FILE (standard input when FILE is\n"
"'-' or absent), the ARGs with -e, the numbers LO to HI with -i, or the\n"
"numbers 1 to N when the only operand is a number (name a file whose name\n"
"is a number as ./N).\n"
"\n"
"Every permutation is exactly equally likely: Fisher and Yates' shuffle\n"
"with exact draws, all from one recycled uniform state (the module's\n"
"sampler, on the device or in this program), so a shuffle of N items costs\n"
"about log2(N!) fair bits: 225.6 for 52 cards. With -n K only the first K\n"
"items are drawn, for about log2(N!/(N-K)!) bits.\n"
"\n"
"Options:\n"
"  -e, --echo              treat each ARG as an input line\n"
"  -i, --input-range=LO-HI treat each number LO through HI as an input line\n"
"                          (0 <= LO <= HI + 1, HI < 2^64)\n"
"  -n, --head-count=COUNT  output at most COUNT lines\n"
"  -o, --output=FILE       write the result to FILE instead of standard\n"
"                          output, only if the run succeeds: FILE may be\n"
"                          the input, and is left as it was on a failure\n"
"  -r, --repeat            output lines can be repeated: COUNT independent\n"
"                          draws, without -n until the output is closed\n"
"  -z, --zero-terminated   line delimiter is NUL, not newline\n"
"      --count=TIMES       print TIMES permutations of the numbers, one per\n"
"                          line, the numbers separated by blanks\n"
"      --stats             then print on standard error the fair bits used\n"
"                          and read, beside log2(N!) (with --json, in it)\n"
"      --json              print {\"schema\": \"fairdie.shuffle/1\",\n"
"                          \"permutations\": [[...], ...] for numbers,\n"
"                          \"lines\": [...] for lines and ARGs, \"stats\": ...}\n";

/**
 * fdc_cmd_shuffle() - fairdie shuffle
 * @cfg: the global options
 * @argc: argument count, argv[0] being "shuffle"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_shuffle(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_shuf sh = {
		.cmd = "shuffle", .help = fdc_shuffle_help,
		.unit = "permutation", .json_key = "permutations",
	};
	int ret;

	ret = fdc_shuf_options(cfg, argc, argv, &sh);
	if (ret != FDC_GO_ON)
		return ret;
	ret = fdc_shuf_file_operands(&sh, argc - optind, argv + optind);
	if (ret != FDC_GO_ON)
		return ret;
	return fdc_shuf_run(cfg, &sh);
}
