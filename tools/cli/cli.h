/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - what the command files share: exit codes, number parsing,
 * the option parser that knows the global options, help, progress and
 * output. The top of the tool: it sees the engine (engine.h), which sees
 * the sources; nothing below includes this file.
 */
#ifndef _FAIRDIE_CLI_H
#define _FAIRDIE_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "config.h"
#include "engine.h"
#include "fd_attr.h"
#include "json.h"
#include "msg.h"

#define FDC_VERSION	"1.0"

/* Exit status of every command. */
enum fdc_exit {
	FDC_EXIT_OK = 0,
	FDC_EXIT_FAILURE = 1,
	FDC_EXIT_USAGE = 2,
};

/* The most a count option (-n) accepts. */
#define FDC_MAX_COUNT	1000000000000ULL

/*
 * The options of a command that takes no arguments, only --help, --json
 * and at most one number option (config, stats, bench, roulette).
 */
struct fdc_cmd_opts {
	const char *cmd;		/* the command, for messages */
	const char *help;		/* its part of --help */
	const struct option *longopts;	/* ending in a zeroed entry */
	int num_opt;			/* the number's short option, or 0 */
	const char *num_name;		/* what the number is, for messages */
	u64 num_min;			/* the least number accepted */
	u64 num_max;			/* the largest number accepted */
};

/* fdc_parse_cmd_opts() found no reason to end the command. */
#define FDC_GO_ON	(-1)

int fdc_parse_count(const char *cmd, const char *what, const char *s,
		    u64 min, u64 max, u64 *out);
int fdc_getopt(struct fdc_config *cfg, int argc, char **argv,
	       const char *shortopts, const struct option *longopts);
int fdc_parse_cmd_opts(struct fdc_config *cfg, int argc, char **argv,
		       const struct fdc_cmd_opts *opts, u64 *num, bool *json);
int fdc_finish_output(void);
FILE *fdc_output_open(const char *cmd, const char *path);
int fdc_output_close(const char *cmd, FILE *f, bool ok);
void fdc_help(const char *text);
void fdc_progress(const char *what, u64 done, u64 total);
void fdc_progress_output(FILE *f);
void fdc_progress_end(void);
void fdc_print_u64(FILE *f, u64 v, int end);
void fdc_print_s64(FILE *f, s64 v, int end);

/* The global options, as printed in every command's help. */
extern const char fdc_global_help[];

int fdc_cmd_roll(struct fdc_config *cfg, int argc, char **argv);
void fdc_roll_json_end(char *const *dice, u64 n);
int fdc_cmd_shuffle(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_sample(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_craps(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_roulette(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_extract(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_pick(struct fdc_config *cfg, int argc, char **argv);
u32 fdc_parse_weights(const char *cmd, const char *list, u64 **out);
int fdc_roll_weights(struct fdc_config *cfg, const char *list, u64 count,
		     bool stats, bool json);
int fdc_cmd_config(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_stats(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_bench(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_collect(struct fdc_config *cfg, int argc, char **argv);
int fdc_cmd_certify(struct fdc_config *cfg, int argc, char **argv);

#endif /* _FAIRDIE_CLI_H */
