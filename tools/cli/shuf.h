/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - shuffle and sample with shuf's interface.
 *
 * The input is the lines of a FILE (standard input when there is none or
 * it is '-'), the arguments (-e), the numbers LO to HI (-i LO-HI), or
 * fairdie's own forms: the numbers 1 to N ('shuffle N', 'sample K N').
 * The options are shuf's: -n COUNT, -r, -z, -o FILE, --random-source=FILE
 * (a global option, '-' for standard input), with its messages and its
 * choices where two options meet (the smaller of two -n, say). Exit
 * statuses are fairdie's: 2 for a usage error, where shuf exits 1.
 */
#ifndef _FAIRDIE_CLI_SHUF_H
#define _FAIRDIE_CLI_SHUF_H

#include "cli.h"

/**
 * enum fdc_shuf_input - what is shuffled
 * @FDC_SHUF_LINES: the lines of a file or of standard input
 * @FDC_SHUF_ECHO: the arguments (-e)
 * @FDC_SHUF_RANGE: the numbers LO to HI (-i LO-HI, or N)
 */
enum fdc_shuf_input {
	FDC_SHUF_LINES,
	FDC_SHUF_ECHO,
	FDC_SHUF_RANGE,
};

/**
 * struct fdc_shuf - what one run of shuffle or sample does
 * @cmd: "shuffle" or "sample", for messages
 * @help: the command's --help
 * @unit: what one run of draws makes, for --stats: "permutation", "sample"
 * @json_key: the JSON member holding the numbers drawn
 * @input: what is shuffled
 * @echo: -e was given
 * @range: -i was given
 * @lo: the least number of the range
 * @count: how many numbers the range holds (0 for an empty range)
 * @args: the arguments of -e
 * @nargs: how many
 * @file: the FILE operand, or NULL for standard input
 * @head: -n COUNT, the smallest one given; UINT64_MAX when none
 * @repeat: -r, draws with replacement
 * @delim: '\n', or '\0' with -z
 * @output: -o FILE, or NULL for standard output
 * @times: --count TIMES: runs of draws, each on a line of its own
 * @several: --count was given
 * @stats: --stats
 * @json: --json
 */
struct fdc_shuf {
	const char *cmd;
	const char *help;
	const char *unit;
	const char *json_key;
	enum fdc_shuf_input input;
	bool echo;
	bool range;
	u64 lo;
	u64 count;
	char **args;
	size_t nargs;
	const char *file;
	u64 head;
	bool repeat;
	char delim;
	const char *output;
	u64 times;
	bool several;
	bool stats;
	bool json;
};

/* Most numbers one run of a range permutes or samples in memory. */
#define FDC_SHUF_MAX_ITEMS	4294967295ULL

int fdc_shuf_options(struct fdc_config *cfg, int argc, char **argv,
		     struct fdc_shuf *sh);
int fdc_shuf_file_operands(struct fdc_shuf *sh, int n, char **ops);
int fdc_shuf_run(const struct fdc_config *cfg, struct fdc_shuf *sh);

#endif /* _FAIRDIE_CLI_SHUF_H */
