// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie roulette': a European wheel, 37 pockets.
 */

#include "cli.h"
#include "games.h"

static const char fdc_roulette_help[] =
"Usage: fairdie roulette [OPTION]...\n"
"Spin a European roulette wheel: 37 pockets, 0 (green) to 36, each one\n"
"roll of a 37-sided die. Prints the pocket and its colour, one spin per\n"
"line, e.g. \"17 black\".\n"
"\n"
"Options:\n"
"  -n, --spins=SPINS       spin SPINS times (default 1)\n"
"      --json              print {\"schema\": \"fairdie.roulette/1\", \"spins\":\n"
"                          [{\"pocket\": 17, \"colour\": \"black\"}, ...]}\n";

static const struct option fdc_roulette_opts[] = {
	{ "spins", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct fdc_cmd_opts fdc_roulette_cmd = {
	.cmd = "roulette", .help = fdc_roulette_help,
	.longopts = fdc_roulette_opts,
	.num_opt = 'n', .num_name = "SPINS",
	.num_min = 1, .num_max = FDC_MAX_COUNT,
};

/**
 * fdc_cmd_roulette() - fairdie roulette
 * @cfg: the global options
 * @argc: argument count, argv[0] being "roulette"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_roulette(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_engine eng;
	u64 spins = 1, i, pocket;
	bool json = false;
	int ret;

	ret = fdc_parse_cmd_opts(cfg, argc, argv, &fdc_roulette_cmd, &spins,
				 &json);
	if (ret != FDC_GO_ON)
		return ret;
	if (cfg->sides) {
		fdc_err("roulette: --sides does not apply: the wheel has 37 pockets");
		return FDC_EXIT_USAGE;
	}
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("spins");
		fdc_json_array();
	}
	for (i = 0; i < spins && !ferror(stdout); i++) {
		fdc_progress("roulette", i, spins);
		if (fdc_engine_rolls(&eng, FDC_ROULETTE_POCKETS, &pocket, 1)) {
			fdc_engine_close(&eng);
			return FDC_EXIT_FAILURE;
		}
		if (json) {
			fdc_json_object();
			fdc_json_key("pocket");
			fdc_json_u64(pocket);
			fdc_json_key("colour");
			fdc_json_str(fdc_colour_name(fdc_roulette_colour(pocket)));
			fdc_json_close();
		} else {
			printf("%llu %s\n", (unsigned long long)pocket,
			       fdc_colour_name(fdc_roulette_colour(pocket)));
		}
	}
	fdc_progress_end();
	fdc_engine_close(&eng);
	return fdc_finish_output();
}
