// SPDX-License-Identifier: GPL-2.0
/*
 * test_retry - the bounded retry policy of driver/fd_retry.h, on injected
 * sources that fail in every way, then on the host's real RDSEED.
 */
#include <cpuid.h>

#include "fd_retry.h"
#include "fd_test.h"

/*
 * An injected source: fails @fail_first tries then succeeds, or always
 * fails when @fail_first is negative; a nap is interrupted when @intr_nap
 * is reached.
 */
struct fake {
	long fail_first;
	long tries, relaxes, naps;
	long intr_nap;
	u64 next;
};

static bool fake_once(void *ctx, u64 *word)
{
	struct fake *f = ctx;

	f->tries++;
	if (f->fail_first < 0 || f->tries <= f->fail_first)
		return false;
	*word = f->next++;
	return true;
}

static void fake_relax(void *ctx)
{
	((struct fake *)ctx)->relaxes++;
}

static int fake_nap(void *ctx)
{
	struct fake *f = ctx;

	return ++f->naps == f->intr_nap ? -EINTR : 0;
}

static const struct fd_hw_ops fake_ops = {
	.once = fake_once,
	.relax = fake_relax,
	.nap = fake_nap,
};

static int run(struct fake *f, bool nonblock, u64 *word, u64 *retries)
{
	return fd_hw_fetch(&fake_ops, f, nonblock, word, retries);
}

static void test_injected(void)
{
	struct fake f;
	u64 w = 0, retries;
	long k;
	int err;

	/* A source that always works: one try, no retry. */
	f = (struct fake){ .next = 42 };
	retries = 0;
	err = run(&f, false, &w, &retries);
	CHECK(!err && w == 42 && f.tries == 1 && !retries && !f.naps,
	      "healthy: err %d word %llu tries %ld", err,
	      (unsigned long long)w, f.tries);

	/* Underflows shorter than a round, and across many rounds. */
	for (k = 1; k < 5 * FD_HW_TRIES; k += 7) {
		f = (struct fake){ .fail_first = k, .next = 7 };
		retries = 0;
		err = run(&f, false, &w, &retries);
		CHECK(!err && w == 7 && (long)retries == k &&
		      f.naps == k / FD_HW_TRIES && f.relaxes == k,
		      "fails %ld: err %d retries %llu naps %ld", k, err,
		      (unsigned long long)retries, f.naps);
	}

	/* Nonblocking: one round of tries, then EAGAIN, never a nap. */
	f = (struct fake){ .fail_first = -1 };
	retries = 0;
	err = run(&f, true, &w, &retries);
	CHECK(err == -EAGAIN && f.tries == FD_HW_TRIES && !f.naps,
	      "nonblock: err %d tries %ld naps %ld", err, f.tries, f.naps);
	f = (struct fake){ .fail_first = FD_HW_TRIES - 1, .next = 9 };
	err = run(&f, true, &w, &retries);
	CHECK(!err && w == 9, "nonblock, last try works: err %d", err);

	/* A silent source: bounded, EIO after every round and every nap. */
	f = (struct fake){ .fail_first = -1 };
	retries = 0;
	err = run(&f, false, &w, &retries);
	CHECK(err == -EIO && f.naps == FD_HW_NAPS &&
	      f.tries == (long)FD_HW_TRIES * (FD_HW_NAPS + 1) &&
	      (long)retries == f.tries,
	      "silent: err %d tries %ld naps %ld", err, f.tries, f.naps);

	/* A signal during a nap ends the request at once. */
	for (k = 1; k <= 3; k++) {
		f = (struct fake){ .fail_first = -1, .intr_nap = k };
		err = run(&f, false, &w, &retries);
		CHECK(err == -EINTR && f.naps == k && f.tries == FD_HW_TRIES * k,
		      "signal at nap %ld: err %d tries %ld", k, err, f.tries);
	}
}

/* The real instruction: carry set when a word was delivered. */
static bool rdseed_once(void *ctx __maybe_unused, u64 *word)
{
	unsigned char ok;
	u64 v;

	asm volatile("rdseed %0; setc %1" : "=r" (v), "=qm" (ok));
	if (ok)
		*word = v;
	return ok;
}

static void rdseed_relax(void *ctx __maybe_unused)
{
	__builtin_ia32_pause();
}

static int rdseed_nap(void *ctx __maybe_unused)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
	return 0;
}

static const struct fd_hw_ops rdseed_ops = {
	.once = rdseed_once,
	.relax = rdseed_relax,
	.nap = rdseed_nap,
};

static void test_rdseed(void)
{
	unsigned int a, b, c, d;
	u64 w, prev = 0, retries = 0, same = 0;
	int i, bad = 0, again = 0;

	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 18))) {
		NOTE("SKIP real RDSEED: this CPU has none");
		return;
	}
	for (i = 0; i < 20000; i++) {
		int err = fd_hw_fetch(&rdseed_ops, NULL, false, &w, &retries);

		bad += !!err;
		same += i && w == prev;
		prev = w;
	}
	for (i = 0; i < 2000; i++)
		again += fd_hw_fetch(&rdseed_ops, NULL, true, &w, &retries) ==
			 -EAGAIN;
	NOTE("real RDSEED: 20000 blocking requests, %llu retries (%.1f per word); %d of 2000 nonblocking requests gave EAGAIN",
	     (unsigned long long)retries, retries / 22000.0, again);
	CHECK(!bad, "real RDSEED: %d blocking requests failed", bad);
	CHECK(!same, "real RDSEED: %llu words repeated", (unsigned long long)same);
}

int main(void)
{
	test_injected();
	test_rdseed();
	return fd_test_summary();
}
