/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - bounded retries of a hardware random number instruction.
 *
 * RDSEED often underflows (reports failure when its conditioner has not
 * gathered enough entropy), RDRAND rarely. One request for a word tries the
 * instruction FD_HW_TRIES times with a pause between tries; a nonblocking
 * request then gives up with -EAGAIN, a blocking one naps and tries again,
 * at most FD_HW_NAPS times, giving up early with -EINTR when a nap is
 * interrupted by a signal and finally with -EIO: a silent source never
 * makes a request spin or sleep forever.
 *
 * The policy is a static inline over constant operations, so that the
 * module's use compiles to direct calls, and the userspace tests run it on
 * injected failing sources and the benchmarks on the host's real RDSEED.
 */
#ifndef _FAIRDIE_RETRY_H
#define _FAIRDIE_RETRY_H

#include "fd_shim.h"

/* Immediate tries of the instruction per round. */
#define FD_HW_TRIES	64
/* Rounds after a nap (each about 1 ms): about a second in all. */
#define FD_HW_NAPS	1000

/**
 * struct fd_hw_ops - what a request needs from its environment
 * @once: one try of the instruction; true and *@word set on success
 * @relax: pause between two tries (cpu_relax())
 * @nap: sleep about 1 ms; nonzero when interrupted by a signal
 */
struct fd_hw_ops {
	bool (*once)(void *ctx, u64 *word);
	void (*relax)(void *ctx);
	int (*nap)(void *ctx);
};

/**
 * fd_hw_fetch() - one word from an instruction that may underflow
 * @ops: the environment
 * @ctx: passed to each operation
 * @nonblock: give up with -EAGAIN instead of napping
 * @word: receives the word
 * @retries: incremented for every failed try
 *
 * Return: 0, -EAGAIN, -EINTR or -EIO, as described above.
 */
static inline int fd_hw_fetch(const struct fd_hw_ops *ops, void *ctx,
			      bool nonblock, u64 *word, u64 *retries)
{
	unsigned int i, round;

	for (round = 0; ; round++) {
		for (i = 0; i < FD_HW_TRIES; i++) {
			if (ops->once(ctx, word))
				return 0;
			(*retries)++;
			ops->relax(ctx);
		}
		if (nonblock)
			return -EAGAIN;
		if (round == FD_HW_NAPS)
			return -EIO;
		if (ops->nap(ctx))
			return -EINTR;
	}
}

#endif /* _FAIRDIE_RETRY_H */
