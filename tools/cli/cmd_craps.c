// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - 'fairdie craps': Knuth's craps, against the exact 244/495.
 */

#include <math.h>

#include "cli.h"
#include "games.h"

static const char fdc_craps_help[] =
"Usage: fairdie craps [OPTION]...\n"
"Play craps (Knuth, TAOCP 3.6 exercise 3): the first throw of two d6 wins\n"
"on 7 or 11 and loses on 2, 3 or 12; any other total is the point, and the\n"
"shooter throws again until the point (win) or 7 (loss). Only a throw's\n"
"total counts, so each throw is one exact draw of the total, with the law\n"
"of two dice (weights 1,2,3,4,5,6,5,4,3,2,1 for 2..12), at about 3.27 fair\n"
"bits instead of the 5.17 of two dice. Prints the games, wins, throws, the\n"
"fair bits they took, the measured win fraction and the exact probability\n"
"244/495 = 0.492929... for comparison.\n"
"\n"
"Options:\n"
"  -n, --games=GAMES       play GAMES games (default 1000)\n"
"  -v, --verbose           print each game's totals first, as in\n"
"                          \"10 6 10 win\"\n"
"      --json              print {\"schema\": \"fairdie.craps/1\", \"games\": ...,\n"
"                          \"wins\": ..., ...}\n";

static const struct option fdc_craps_opts[] = {
	{ "games", required_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/**
 * fdc_cmd_craps() - fairdie craps
 * @cfg: the global options
 * @argc: argument count, argv[0] being "craps"
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int fdc_cmd_craps(struct fdc_config *cfg, int argc, char **argv)
{
	struct fdc_engine eng;
	u64 games = 1000, wins = 0, throws = 0, i, bits = 0, made = 0;
	double frac, exact, sd;
	bool verbose = false, win, json = false;
	int c, counted;

	while ((c = fdc_getopt(cfg, argc, argv, "n:vh", fdc_craps_opts)) != -1) {
		switch (c) {
		case 'n':
			if (fdc_parse_count("craps", "GAMES", optarg, 1,
					    FDC_MAX_COUNT, &games))
				return FDC_EXIT_USAGE;
			break;
		case 'v':
			verbose = true;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			fdc_help(fdc_craps_help);
			return FDC_EXIT_OK;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fdc_err("craps: unexpected argument '%s'",
			fdc_quote(argv[optind]));
		return FDC_EXIT_USAGE;
	}

	if (cfg->sides) {
		fdc_err("craps: --sides does not apply: craps throws two d6");
		return FDC_EXIT_USAGE;
	}
	if (verbose && json) {
		fdc_err("craps: --verbose and --json exclude each other");
		return FDC_EXIT_USAGE;
	}
	if (fdc_engine_open(&eng, cfg))
		return FDC_EXIT_FAILURE;
	/* Without --verbose, the summary comes after the games. */
	if (!verbose)
		fdc_progress_output(NULL);
	for (i = 0; i < games; i++) {
		fdc_progress("craps", i, games);
		if (fdc_craps_game(&eng, &win, &throws, verbose ? stdout : NULL)) {
			fdc_engine_close(&eng);
			return FDC_EXIT_FAILURE;
		}
		if (verbose)
			putchar('\n');
		wins += win;
	}
	fdc_progress_end();
	/* What the throws cost, totals made ahead and not thrown included. */
	counted = fdc_engine_cost(&eng, &bits, &made);
	fdc_engine_close(&eng);
	if (counted < 0)
		return FDC_EXIT_FAILURE;

	exact = (double)FDC_CRAPS_WIN_NUM / FDC_CRAPS_WIN_DEN;
	frac = (double)wins / games;
	sd = sqrt(exact * (1 - exact) / games);
	if (json) {
		fdc_json_begin(stdout);
		fdc_json_key("games");
		fdc_json_u64(games);
		fdc_json_key("wins");
		fdc_json_u64(wins);
		fdc_json_key("throws");
		fdc_json_u64(throws);
		/* fairdie.craps/1: null where the source does not count. */
		fdc_json_key("draws");
		if (!counted)
			fdc_json_u64(made);
		else
			fdc_json_value("null", 4);
		fdc_json_key("fair_bits");
		if (!counted)
			fdc_json_u64(bits);
		else
			fdc_json_value("null", 4);
		fdc_json_key("bits_per_draw");
		fdc_json_number(!counted && made ? (double)bits / made : NAN);
		fdc_json_key("win_fraction");
		fdc_json_number(frac);
		fdc_json_key("exact");
		fdc_json_str("244/495");
		fdc_json_key("probability");
		fdc_json_number(exact);
		fdc_json_key("sd");
		fdc_json_number((frac - exact) / sd);
		return fdc_finish_output();
	}
	printf("games: %llu\n", (unsigned long long)games);
	printf("wins: %llu\n", (unsigned long long)wins);
	printf("throws: %llu\n", (unsigned long long)throws);
	if (!counted)
		printf("fair bits: %llu for %llu totals drawn, %.4f each %s\n",
		       (unsigned long long)bits, (unsigned long long)made,
		       made ? (double)bits / made : 0,
		       "(entropy 3.2744; two d6: 5.1699)");
	printf("win fraction: %.6f\n", frac);
	printf("exact: %.6f (%d/%d)\n", exact, FDC_CRAPS_WIN_NUM,
	       FDC_CRAPS_WIN_DEN);
	printf("difference: %+.6f (%.2f standard deviations)\n", frac - exact,
	       (frac - exact) / sd);
	return fdc_finish_output();
}
