/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - the settings the global options make: which source of
 * fair bits, and for the device how to configure the open file.
 *
 * Filled in by the option parser (util.c), read when the engine opens its
 * source (engine.c); nothing else in it.
 */
#ifndef _FAIRDIE_CLI_CONFIG_H
#define _FAIRDIE_CLI_CONFIG_H

#include <string.h>

#include <linux/fairdie.h>

#include "fd_shim.h"

#define FDC_DEFAULT_DEVICE	"/dev/fairdie"

/**
 * enum fdc_user_source - where the fair bits come from
 * @FDC_USRC_DEVICE: the device (the default)
 * @FDC_USRC_FILE: a file or pipe (--random-source=FILE, '-' for stdin)
 * @FDC_USRC_GETRANDOM: getrandom(2) (--source=getrandom)
 * @FDC_USRC_SEED: splitmix64 from a seed (--seed=N), not for security
 * @FDC_USRC_STREAM: the bit stream of a sealed draw (ChaCha20 under a key
 *	made from its secret, public value and request; 'fairdie reveal')
 */
enum fdc_user_source {
	FDC_USRC_DEVICE,
	FDC_USRC_FILE,
	FDC_USRC_GETRANDOM,
	FDC_USRC_SEED,
	FDC_USRC_STREAM,
};

/**
 * struct fdc_config - what the global options ask for
 * @device: path of the device
 * @source: FAIRDIE_SRC_x, or -1 to keep the module's default
 * @extractor: FAIRDIE_EXT_x, or -1 to keep the module's default
 * @sides: sides to set at open, 0 to keep the module's default
 * @have_sim: @sim was given
 * @sim: the simulated coin (--sim)
 * @device_opts: how many options that configure the device were given
 * @user_source: where the bits come from
 * @source_opt: an option chose @user_source (else the default or
 *	FAIRDIE_SOURCE did)
 * @random_file: the file of --random-source
 * @seed: the seed of --seed
 * @stream_key: the 32-byte key of FDC_USRC_STREAM
 * @log: the log of --log (receipts, sealed draws), or NULL
 * @key: the signing key of --key, or NULL
 */
struct fdc_config {
	const char *device;
	int source;
	int extractor;
	u64 sides;
	bool have_sim;
	struct fairdie_sim sim;
	unsigned int device_opts;
	enum fdc_user_source user_source;
	bool source_opt;
	const char *random_file;
	u64 seed;
	const u8 *stream_key;
	const char *log;
	const char *key;
};

/**
 * fdc_config_init() - the settings before any option: the device with the
 *	module's defaults
 * @cfg: the settings
 */
static inline void fdc_config_init(struct fdc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->device = FDC_DEFAULT_DEVICE;
	cfg->source = -1;
	cfg->extractor = -1;
}

#endif /* _FAIRDIE_CLI_CONFIG_H */
