// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - exactly fair dice from /dev/fairdie, and fair output from your
 * own loaded die. See fairdie(1).
 */

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sealog.h"

/**
 * struct fdc_command - a subcommand
 * @name: what the user types
 * @run: runs it with argv[0] == @name; returns the exit status
 * @summary: one line for the main help
 * @json: its --json output ends in an "error" member on failure (json.c)
 * @receipt: it takes --log LOG --key KEY, a signed receipt of its draw
 */
struct fdc_command {
	const char *name;
	int (*run)(struct fdc_config *cfg, int argc, char **argv);
	const char *summary;
	bool json;
	bool receipt;
};

static const struct fdc_command fdc_commands[] = {
	{ "roll", fdc_cmd_roll, "roll dice: 3d6, d20+4, 4d6k3, 6x4d6k3, 10d10>=8", true, true },
	{ "shuffle", fdc_cmd_shuffle, "a fair permutation of lines or numbers, as shuf",
	  true, true },
	{ "sample", fdc_cmd_sample, "K distinct values of 1..N, or lines, in random order",
	  true, true },
	{ "craps", fdc_cmd_craps, "play craps and compare the wins with 244/495", true, true },
	{ "roulette", fdc_cmd_roulette, "spin a European roulette wheel (0 to 36)", true, false },
	{ "pick", fdc_cmd_pick, "draw items of a file of 'WEIGHT ITEM' lines, exactly",
	  true, true },
	{ "extract", fdc_cmd_extract, "fair rolls or bits from your own loaded die", true, false },
	{ "config", fdc_cmd_config, "show the source of fair bits and its settings", true, false },
	{ "stats", fdc_cmd_stats, "show an open file's counters after a sample", true, false },
	{ "bench", fdc_cmd_bench, "measure rolls per second and source bits per roll",
	  true, false },
	{ "collect", fdc_cmd_collect, "capture raw, conditioned and final output for a test lab",
	  false, false },
	{ "keygen", fdc_cmd_keygen, "make a key that signs a log of draws", false, false },
	{ "seal", fdc_cmd_seal, "seal a draw, to be opened by a public value", false, false },
	{ "reveal", fdc_cmd_reveal, "open a sealed draw and print its outcome", false, false },
	{ "verify", fdc_cmd_verify, "check a log of draws and replay every reveal", false, false },
	{ "certify", fdc_cmd_certify, "captures, test batteries and a report for a test lab",
	  false, false },
};

static const char fdc_main_help[] =
"Usage: fairdie [OPTION]... COMMAND [ARG]...\n"
"Exactly fair dice from /dev/fairdie: the CPU's hardware random number\n"
"generator, debiased in the kernel and turned into rolls by exact rejection\n"
"sampling. Every face has probability exactly 1/sides. Without the module,\n"
"--source=getrandom, --random-source=FILE or --seed=N give the bits.\n"
"\n"
"Commands:\n";

static const char fdc_main_tail[] =
"\n"
"Run 'fairdie COMMAND --help' for the options of a command.\n"
"\n"
"Options:\n"
"      --json              print JSON, as the command's own --json does\n"
"                          ('fairdie --json roll' is 'fairdie roll --json')\n"
"  -V, --version           show the version and exit\n";

static const struct option fdc_main_opts[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/*
 * Run @cmd. When it reports failures in JSON and --json is among its
 * arguments, even a failure before any output (a bad option, a missing
 * device) ends in a JSON object.
 */
static int fdc_run(const struct fdc_command *cmd, struct fdc_config *cfg,
		   int argc, char **argv)
{
	bool log = cfg->log;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--log") || !strncmp(argv[i], "--log=", 6))
			log = true;
	/* seal and reveal take --log as their own; the others refuse it. */
	if (log && !cmd->receipt && cmd->run != fdc_cmd_seal &&
	    cmd->run != fdc_cmd_reveal) {
		fdc_err("%s: --log does not apply: receipts are for roll, shuffle, sample, pick and craps",
			cmd->name);
		return FDC_EXIT_USAGE;
	}
	if (!cmd->json)
		return cmd->run(cfg, argc, argv);
	fdc_json_schema(cmd->name);
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			fdc_json_request();
	if (log && cmd->receipt)
		return fdc_json_end(fdc_receipt(cfg, argc, argv, cmd->run));
	return fdc_json_end(cmd->run(cfg, argc, argv));
}

static void fdc_main_usage(void)
{
	char text[2048];
	size_t n, i;

	n = snprintf(text, sizeof(text), "%s", fdc_main_help);
	for (i = 0; i < ARRAY_SIZE(fdc_commands) && n < sizeof(text); i++)
		n += snprintf(text + n, sizeof(text) - n, "  %-10s %s\n",
			      fdc_commands[i].name, fdc_commands[i].summary);
	if (n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "%s", fdc_main_tail);
	fdc_help(text);
}

int main(int argc, char **argv)
{
	struct fdc_config cfg;
	const char *name;
	bool json = false;
	size_t i;
	int c;

	fdc_config_init(&cfg);
	/* Messages name the program "fairdie" whatever its path. */
	argv[0] = "fairdie";
	while ((c = fdc_getopt(&cfg, argc, argv, "+hV", fdc_main_opts)) != -1) {
		switch (c) {
		case 'h':
			fdc_main_usage();
			return fdc_finish_output();
		case 'V':
			printf("fairdie %s (device ABI %d)\n", FDC_VERSION,
			       FAIRDIE_ABI_VERSION);
			return fdc_finish_output();
		case 'J':
			json = true;
			break;
		default:
			return FDC_EXIT_USAGE;
		}
	}
	if (optind == argc) {
		fdc_err("no command given (try 'fairdie --help')");
		return FDC_EXIT_USAGE;
	}
	name = argv[optind];
	if (json && strcmp(name, "help")) {
		/* --json before the command goes right after its name. */
		char **args = calloc((size_t)(argc - optind) + 2, sizeof(*args));

		if (!args) {
			fdc_err("out of memory");
			return FDC_EXIT_FAILURE;
		}
		args[0] = argv[optind];
		args[1] = "--json";
		for (c = optind + 1; c < argc; c++)
			args[c - optind + 1] = argv[c];
		argc = argc - optind + 1;
		argv = args;
		optind = 0;
	}
	if (!strcmp(name, "help")) {
		if (optind + 1 == argc) {
			fdc_main_usage();
			return fdc_finish_output();
		}
		/* "fairdie help roll" is "fairdie roll --help". */
		name = argv[optind + 1];
		argv[optind] = argv[optind + 1];
		argv[optind + 1] = "--help";
		for (i = 0; i < ARRAY_SIZE(fdc_commands); i++)
			if (!strcmp(name, fdc_commands[i].name))
				return fdc_run(&fdc_commands[i], &cfg, 2,
					       argv + optind);
	}
	for (i = 0; i < ARRAY_SIZE(fdc_commands); i++)
		if (!strcmp(name, fdc_commands[i].name))
			return fdc_run(&fdc_commands[i], &cfg, argc - optind,
				       argv + optind);
	fdc_err("unknown command '%s' (try 'fairdie --help')",
		fdc_quote(name));
	return FDC_EXIT_USAGE;
}
