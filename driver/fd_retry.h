/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - bounded waits for a hardware random number instruction.
 *
 * RDSEED often underflows (reports failure when its conditioner has not
 * gathered enough entropy, or when other CPUs drain it), RDRAND rarely. One
 * request for a word tries the instruction FD_HW_TRIES times with a pause
 * between tries; a nonblocking request then gives up with -EAGAIN, a
 * blocking one naps (interruptibly: -EINTR on a signal) and tries again.
 *
 * Every bound is in real time, whatever a nap really lasts (a 1 ms nap is
 * 4 to 8 ms on a kernel with HZ=250):
 *
 * - Silent: the instruction is failed (-EIO) once no reader at all got a
 *   word from it for FD_HW_SILENT_US, counted from the request's start at
 *   the earliest. A source that delivers to someone is only contended:
 *   contention alone never fails a request, the request waits for its turn
 *   (a signal ends the wait).
 * - Budget: a request may also bound its own wait (@wait_us), as the hwrng
 *   read does since the hwrng core holds its mutex meanwhile; spent, the
 *   request gives up with -ETIMEDOUT, which says nothing against the source.
 *
 * So a request returns at most FD_HW_SILENT_US (or @wait_us), plus one nap,
 * plus one round of tries after the last moment it heard of the source
 * alive. The policy is a static inline over constant operations, so that
 * the module's use compiles to direct calls, and the userspace tests run it
 * on injected sources and clocks (tools/test/test_retry.c).
 */
#ifndef _FAIRDIE_RETRY_H
#define _FAIRDIE_RETRY_H

#include "fd_shim.h"

/* Immediate tries of the instruction per round. */
#define FD_HW_TRIES		64
/* A nap between rounds asks for 1 to 2 ms. */
#define FD_HW_NAP_US		1000
/* No word for anyone in this long: the instruction is failed. */
#define FD_HW_SILENT_US		1000000ULL
/* @wait_us of a request that waits as long as the source is alive. */
#define FD_HW_WAIT_ALIVE	(~0ULL)

/**
 * struct fd_hw_ops - what a request needs from its environment
 * @once: one try of the instruction; true and *@word set on success
 * @relax: pause between two tries (cpu_relax())
 * @nap: sleep about FD_HW_NAP_US, interruptibly; nonzero when interrupted
 *	(a signal, or the reader going away)
 * @now: a monotonic clock, in microseconds
 * @heard: on the @now clock, the last time any reader got a word from this
 *	instruction (0 if never)
 */
struct fd_hw_ops {
	bool (*once)(void *ctx, u64 *word);
	void (*relax)(void *ctx);
	int (*nap)(void *ctx);
	u64 (*now)(void *ctx);
	u64 (*heard)(void *ctx);
};

/**
 * fd_hw_fetch() - one word from an instruction that may underflow
 * @ops: the environment
 * @ctx: passed to each operation
 * @nonblock: give up with -EAGAIN instead of napping
 * @wait_us: the longest this request may wait, or FD_HW_WAIT_ALIVE
 * @word: receives the word
 * @retries: incremented for every failed try
 *
 * Return: 0; -EAGAIN (@nonblock), -EINTR (a nap was interrupted),
 * -ETIMEDOUT (@wait_us spent, the source alive), -EIO (the source silent
 * for FD_HW_SILENT_US), as described above.
 */
static inline int fd_hw_fetch(const struct fd_hw_ops *ops, void *ctx,
			      bool nonblock, u64 wait_us, u64 *word,
			      u64 *retries)
{
	u64 start = 0, now, heard;
	bool started = false;
	unsigned int i;

	for (;;) {
		for (i = 0; i < FD_HW_TRIES; i++) {
			if (ops->once(ctx, word))
				return 0;
			(*retries)++;
			ops->relax(ctx);
		}
		if (nonblock)
			return -EAGAIN;
		now = ops->now(ctx);
		if (!started) {
			start = now;
			started = true;
		}
		heard = ops->heard(ctx);
		if (heard < start)
			heard = start;
		/* Another reader may have been served since @now was read. */
		if (now > heard && now - heard >= FD_HW_SILENT_US)
			return -EIO;
		if (now - start >= wait_us)
			return -ETIMEDOUT;
		if (ops->nap(ctx))
			return -EINTR;
	}
}

#endif /* _FAIRDIE_RETRY_H */
