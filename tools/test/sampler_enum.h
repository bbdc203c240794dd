/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The enumeration engine of the sampler's proofs (sampler_enum.c), shared
 * by the test_sampler_* programs: configurations, the exhaustive
 * enumeration over grouped states, the mathematical sampler for state
 * spaces too large to enumerate, and exact expected costs. The method is
 * described in sampler_enum.c.
 */
#ifndef _FAIRDIE_SAMPLER_ENUM_H
#define _FAIRDIE_SAMPLER_ENUM_H

#include <stdbool.h>

#include "fd_sampler.h"

struct cfg {
	u64 n;
	bool recycle;
	unsigned int precision;	/* 0: the default of fd_sampler_init() */
	unsigned int rolls;	/* consecutive rolls followed */
	u64 base;		/* 0: bits by fd_sampler_roll(); else digits */
	unsigned int max_depth;
	size_t max_states;
	bool find_cycle;
};

struct dp {
	const struct cfg *c;
	unsigned int depth;	/* deepest depth checked */
	unsigned int cycle_from, cycle_to;
	bool exhausted;		/* no live state left */
	bool ok;
	char why[256];
	u64 *per_face;		/* [stage * (max_depth + 1) + depth] */
	size_t peak;
	unsigned long calls;
};

struct model {
	unsigned int depth;
	unsigned int cycle_from, cycle_to;
	unsigned long classes, checks;
	unsigned long bad;	/* differences from the closer way */
	unsigned long way_bad[2];
	fd_u128 *per_face;	/* [stage * (max_depth + 1) + depth] */
};

/* A pool of one bit, for the callers of fd_sampler_roll() bit by bit. */
extern struct fd_pool bitpool;

void cfg_sampler(const struct cfg *c, struct fd_sampler *s);
bool is_pow2(u64 n);
void ky_bits(u64 n, u8 *bit, unsigned int depth);
void dp_run(struct dp *d, const struct cfg *c);
u64 dp_face(const struct dp *d, unsigned int stage, unsigned int depth);
void model_run(struct model *r, const struct cfg *c, size_t max_nodes);
void print128(char *buf, fd_u128 x);
bool expected_cost(u64 n, const u64 *c, unsigned int j, unsigned int T,
			  fd_u128 *num, fd_u128 *den);

#endif /* _FAIRDIE_SAMPLER_ENUM_H */
