/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie tool - sources of randomness, the bottom of the engine.
 *
 * A source either hands out fair bits (a file or pipe, getrandom(2), a
 * seeded generator, the test double's scripted bits), which the engine
 * turns into rolls with the module's own exact sampler, or it rolls dice
 * itself (the device, whose sampler runs in the kernel, and the test
 * double's rolling die). One interface for all of them, struct
 * fdc_source_ops, so that the engine above sees no difference but this
 * one; the commands above the engine see none at all.
 *
 * The userspace sources are here; the device is in device.c and the test
 * double in source_fake.c.
 */
#ifndef _FAIRDIE_CLI_SOURCE_H
#define _FAIRDIE_CLI_SOURCE_H

#include <stddef.h>

#include "fd_shim.h"
#include "msg.h"

/* Bits a source is asked for at most at a time. */
#define FDC_SOURCE_CHUNK_BITS	4096

struct fdc_source;

/**
 * struct fdc_source_ops - what a source does
 * @bits: up to @max fair bits into @words, least significant bit of
 *	@words[0] first; returns how many (0 once the source has run out), or
 *	-1 after printing a one-line error. NULL for a source that only rolls.
 * @rolls: @n rolls in [0, @sides) that the source makes itself; 0, or -1
 *	after printing a one-line error. NULL for a source of bits.
 * @close: release what the source holds
 */
struct fdc_source_ops {
	long (*bits)(struct fdc_source *src, u64 *words, size_t max);
	int (*rolls)(struct fdc_source *src, u64 sides, u64 *out, size_t n);
	void (*close)(struct fdc_source *src);
};

/**
 * struct fdc_source - an open source
 * @ops: what it does
 * @name: what messages call it: a path (escaped as fdc_quote() does),
 *	"getrandom", "seed"; set with fdc_source_name()
 * @fd: the open file (a file of bits, the device), or -1
 * @state: the generator's state (--seed, the test double)
 * @sides: the sides the device is set to, 0 when not known
 * @priv: the test double's own state
 */
struct fdc_source {
	const struct fdc_source_ops *ops;
	char name[FDC_QUOTE_MAX * 4 + 8];
	int fd;
	u64 state;
	u64 sides;
	void *priv;
};

int fdc_source_open_file(struct fdc_source *src, const char *path);
int fdc_source_open_getrandom(struct fdc_source *src);
void fdc_source_open_seed(struct fdc_source *src, u64 seed);
int fdc_source_open_stream(struct fdc_source *src, const u8 key[32]);
void fdc_source_close(struct fdc_source *src);
void fdc_source_name(struct fdc_source *src, const char *name);

/* The test double (source_fake.c): a die rolling itself, or scripted bits. */
int fdc_fake_source_open(struct fdc_source *src, u64 seed);
void fdc_fake_source_script(struct fdc_source *src, const u64 *vals,
			    size_t n);
size_t fdc_fake_source_log(const struct fdc_source *src, const u64 **sides);
int fdc_fake_source_bits(struct fdc_source *src, const u8 *bits, size_t n);

#endif /* _FAIRDIE_CLI_SOURCE_H */
