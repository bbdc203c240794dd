/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - 'fairdie certify': what the run (cmd_certify.c) hands to
 * the report (certify_report.c). The run captures the three stages with
 * 'fairdie collect', runs the batteries and the tests of stats.c on them,
 * and records everything a lab needs; the report writes it out as
 * DIR/report.json and DIR/report.html.
 */
#ifndef _FAIRDIE_CLI_CERTIFY_H
#define _FAIRDIE_CLI_CERTIFY_H

#include <jansson.h>
#include <stdbool.h>

#include "stats.h"

/* The level of every line of the report: 99 % confidence, as 25 CFR 547.14. */
#define FDC_CERT_ALPHA		0.01

/* The dice whose outcomes are captured and tested. */
#define FDC_CERT_DICE		4
/* Cards in a deck of the shuffle test. */
#define FDC_CERT_CARDS		52

/**
 * struct fdc_cert_row - one line of the summary table
 * @t: the test, its statistic, p-value and method
 * @stage: raw, conditioned, final, fault, or all (second level)
 * @tool: who computed it: fairdie, ent, rngtest, dieharder, or the capture
 * @pass: the line passes at FDC_CERT_ALPHA (or its own stated rule)
 * @rule: the pass rule when it is not p >= FDC_CERT_ALPHA
 * @in_ks: its p-value joins the second-level test
 */
struct fdc_cert_row {
	struct fdc_test t;
	char stage[16];
	char tool[16];
	bool pass;
	char rule[64];
	bool in_ks;
};

/**
 * struct fdc_cert_capture - one capture made by 'fairdie collect'
 * @name: its short name, e.g. "final-d6"
 * @stage: raw, conditioned or final
 * @file: its path
 * @command: the command line, quoted for a shell
 * @status: the exit status of collect (-1: it did not run)
 * @seconds: how long it took
 * @bytes: the file's size afterwards
 * @error: the last line collect wrote on standard error
 * @sidecar: the sidecar FILE.json, or NULL
 */
struct fdc_cert_capture {
	char name[32];
	char stage[16];
	char *file;
	char *command;
	int status;
	double seconds;
	long long bytes;
	char error[200];
	json_t *sidecar;
};

/**
 * struct fdc_cert_health - the device-wide counters at one step of the run
 * @step: what had just been done
 * @seconds: since the start of the run
 * @health: the health state, as sysfs says it
 * @v: source_bits, outputs, health_failures, source_failures (-1: unknown)
 */
struct fdc_cert_health {
	char step[32];
	double seconds;
	char health[32];
	long long v[4];
};

/**
 * struct fdc_cert - everything the report shows
 * @dir: the folder
 * @quick: the quick subset
 * @count: final outcomes per die
 * @started: when the run started (UTC, ISO 8601)
 * @seconds: how long it took
 * @argv: the command line
 * @rows: the summary's lines
 * @nrows: how many
 * @skipped: tests not run, each {"test", "stage", "reason"}
 * @commands: every command run besides collect, as strings
 * @caps: the captures
 * @ncaps: how many
 * @health: the counters over the run
 * @nhealth: how many samples
 * @sides: the dice
 * @hist: the outcomes of each face of each die
 * @nhist: outcomes of each die
 * @deck: the position counts of the decks, or NULL
 * @decks: decks counted
 * @host: the host facts (object)
 * @manifest: SHA-256 of the module, the tool and every file (array)
 * @fault: what the fault demonstration saw (object), or NULL
 * @verdict: the family verdict (object)
 */
struct fdc_cert {
	const char *dir;
	bool quick;
	unsigned long long count;
	char started[32];
	double seconds;
	char *argv;
	struct fdc_cert_row *rows;
	size_t nrows;
	json_t *skipped;
	json_t *commands;
	struct fdc_cert_capture caps[8];
	size_t ncaps;
	struct fdc_cert_health health[16];
	size_t nhealth;
	unsigned int sides[FDC_CERT_DICE];
	u64 hist[FDC_CERT_DICE][FDC_STATS_MAX_SIDES];
	u64 nhist[FDC_CERT_DICE];
	u64 (*deck)[FDC_STATS_MAX_DECK];
	u64 decks;
	json_t *host;
	json_t *manifest;
	json_t *fault;
	json_t *verdict;
};

json_t *fdc_cert_json(const struct fdc_cert *c);
int fdc_cert_write_html(const struct fdc_cert *c, const char *path);

#endif /* _FAIRDIE_CLI_CERTIFY_H */
