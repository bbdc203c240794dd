/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - fault injection into the hardware sources, for tests only.
 *
 * Built only when the module is built with FAIRDIE_FAULT=1 (the VM test
 * build, see Kbuild); otherwise every hook is an empty inline and the
 * default module contains no injection code.
 */
#ifndef _FAIRDIE_FAULT_H
#define _FAIRDIE_FAULT_H

#include <linux/errno.h>
#include <linux/types.h>

struct fd_pipe;
struct fd_source_ops;

#ifdef FAIRDIE_FAULT
int fairdie_fault_init(void);
void fairdie_fault_exit(void);
bool fairdie_fault_once(u32 source, u64 *word, bool *ok);
bool fairdie_fault_bypass(u32 source);
u32 fairdie_fault_absent(void);
bool fairdie_fault_lose_wakeup(void);
bool fairdie_fault_ahead_lags(void);
u32 fairdie_fault_modulo_bits(u64 sides);
int fairdie_fault_modulo_roll(struct fd_pipe *p,
			      const struct fd_source_ops *ops, void *ctx,
			      bool nonblock, u64 sides, u32 bits, u64 *out);
#else
static inline int fairdie_fault_init(void)
{
	return 0;
}

static inline void fairdie_fault_exit(void)
{
}

static inline bool fairdie_fault_once(u32 source, u64 *word, bool *ok)
{
	return false;
}

static inline bool fairdie_fault_bypass(u32 source)
{
	return false;
}

static inline u32 fairdie_fault_absent(void)
{
	return 0;
}

static inline bool fairdie_fault_ahead_lags(void)
{
	return false;
}

static inline bool fairdie_fault_lose_wakeup(void)
{
	return false;
}

static inline u32 fairdie_fault_modulo_bits(u64 sides)
{
	return 0;
}

static inline int fairdie_fault_modulo_roll(struct fd_pipe *p,
					    const struct fd_source_ops *ops,
					    void *ctx, bool nonblock, u64 sides,
					    u32 bits, u64 *out)
{
	return -EIO;
}
#endif

#endif /* _FAIRDIE_FAULT_H */
