// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie roll': dice expressions.
 */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dice.h"

static const char fdc_roll_help[] =
"Usage: fairdie roll [OPTION]... [EXPR]...\n"
"Roll dice on /dev/fairdie and print one total per line.\n"
"\n"
"EXPR is a dice expression; several arguments are joined with blanks.\n"
"Without EXPR one die of --sides sides (default 6) is rolled.\n"
"  NdS      N dice of S sides each; N defaults to 1; d% is d100\n"
"  NdSkK    keep the K highest dice (also NdSkhK)\n"
"  NdSklK   keep the K lowest dice\n"
"  NdSx     exploding dice: a die showing its maximum is rolled again and\n"
"           the new face added, for as long as it shows the maximum\n"
"  NdSxT    exploding on T or more (2 <= T <= S): 2d10x9\n"
"  C        a constant; terms are added or subtracted: 2d8+1d4-1, d20 + 4\n"
"Explosions come before keeping: 4d6xk3 keeps the 3 highest exploded dice.\n"
"Numbers go up to 2^63-1; at most 1000000 dice per roll, explosions\n"
"included. When all the dice have one size, each die is one roll of the\n"
"device with its sides set to that size. When sizes are mixed (3d6+1d4),\n"
"each die is an exact draw of its own size from one uniform state fed with\n"
"fair bits (the device rolls 2^32 sides), so that changing sizes wastes\n"
"nothing: a die of S sides costs about log2(S) fair bits either way.\n"
"\n"
"Options:\n"
"  -n, --count=COUNT       roll the expression COUNT times (default 1)\n"
"  -v, --verbose           show the dice after each total, as in\n"
"                          \"13<TAB>4d6k3[6 4 3 (1)]\": dropped dice in\n"
"                          parentheses, an exploded die as 6+6+2\n";

static const struct option fdc_roll_opts[] = {
	{ "count", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The arguments joined with blanks, or "d<sides>". */
static char *fdc_roll_text(const struct fdc_config *cfg, int argc, char **argv)
{
	size_t len = 32;
	char *text;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	if (!argc) {
		snprintf(text, len, "d%llu",
			 (unsigned long long)(cfg->sides ? cfg->sides : 6));
		return text;
	}
	text[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(text, " ");
		strcat(text, argv[i]);
	}
	return text;
}

/**
 * fdc_cmd_roll() - fairdie roll
 * @cfg: the global options
 * @argc: argument count, argv[0] being "roll"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_roll(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_dice_expr expr;
	struct fdc_dev dev;
	u64 count = 1, i;
	bool verbose = false;
	char err[160], *text, *detail = NULL;
	size_t detail_len;
	FILE *trace = NULL;
	int c, ret = FDC_EXIT_FAILURE;
	s64 total;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_roll_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("roll", "COUNT", optarg, 1,
					    FDC_MAX_COUNT, &count))
				return FDC_EXIT_USAGE;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fdc_help(fdc_roll_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	text = fdc_roll_text(cfg, argc - optind, argv + optind);
	if (!text) {
		fdc_err("out of memory");
		return FDC_EXIT_FAILURE;
	}
	if (fdc_dice_parse(text, &expr, err, sizeof(err))) {
		fdc_err("roll: bad expression '%s': %s", text, err);
		free(text);
		return FDC_EXIT_USAGE;
	}
	free(text);

	if (fdc_dev_open(&dev, cfg))
		return FDC_EXIT_FAILURE;
	/* Mixed sizes: read ahead what the draws will need. */
	if (expr.mixed)
		fdc_dev_draw_expect(&dev, (double)count * fdc_dice_bits(&expr));
	for (i = 0; i < count; i++) {
		if (verbose) {
			trace = open_memstream(&detail, &detail_len);
			if (!trace) {
				fdc_err("out of memory");
				goto out_close;
			}
		}
		if (fdc_dice_roll(&expr, &dev, &total, trace))
			goto out_close;
		if (trace) {
			fclose(trace);
			trace = NULL;
			printf("%lld\t%s\n", (long long)total, detail);
			free(detail);
			detail = NULL;
		} else {
			printf("%lld\n", (long long)total);
		}
		if (ferror(stdout))
			break;
	}
	ret = fdc_finish_output();

out_close:
	if (trace)
		fclose(trace);
	free(detail);
	fdc_dev_close(&dev);
	return ret;
}
