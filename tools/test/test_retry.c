// SPDX-License-Identifier: GPL-2.0
/*
 * test_retry - the bounded retry policy of driver/fd_retry.h, on injected
 * sources and clocks that fail in every way (silent sources fail after a
 * second of real time whatever a nap lasts; contention alone never fails;
 * a request's own budget; signals), then on the host's real RDSEED.
 */
#include <cpuid.h>

#include "fd_retry.h"
#include "fd_test.h"

/*
 * An injected source on a fake clock: fails @fail_first tries then
 * succeeds, or always fails when @fail_first is negative; a nap lasts
 * @nap_us (8 ms is what a 1 ms nap takes at HZ=250) and is interrupted when
 * @intr_nap is reached; other readers get words every @others_us until
 * @others_until (none when @others_us is 0).
 */
struct fake {
	long fail_first;
	long tries, relaxes, naps;
	long intr_nap;
	u64 next;
	u64 clock, nap_us, others_us, others_until;
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

	f->clock += f->nap_us ? f->nap_us : FD_HW_NAP_US;
	return ++f->naps == f->intr_nap ? -EINTR : 0;
}

static u64 fake_now(void *ctx)
{
	return ((struct fake *)ctx)->clock;
}

static u64 fake_heard(void *ctx)
{
	struct fake *f = ctx;
	u64 t = f->clock < f->others_until ? f->clock : f->others_until;

	return f->others_us ? t / f->others_us * f->others_us : 0;
}

static const struct fd_hw_ops fake_ops = {
	.once = fake_once,
	.relax = fake_relax,
	.nap = fake_nap,
	.now = fake_now,
	.heard = fake_heard,
};

static int run(struct fake *f, bool nonblock, u64 *word, u64 *retries)
{
	return fd_hw_fetch(&fake_ops, f, nonblock, FD_HW_WAIT_ALIVE, word,
			   retries);
}

static void test_injected(void)
{
	static const u64 naps[] = { 1000, 2000, 4000, 8000, 12000 };
	struct fake f;
	u64 w = 0, retries;
	unsigned int i;
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

	/*
	 * A silent source: EIO after a second of real time, however long a
	 * nap lasts (at HZ=250 a 1 ms nap took 8 ms: 1000 naps were 8 s).
	 */
	for (i = 0; i < ARRAY_SIZE(naps); i++) {
		f = (struct fake){ .fail_first = -1, .clock = 5000000,
				   .nap_us = naps[i] };
		retries = 0;
		err = run(&f, false, &w, &retries);
		CHECK(err == -EIO && f.clock - 5000000 >= FD_HW_SILENT_US &&
		      f.clock - 5000000 < FD_HW_SILENT_US + naps[i] &&
		      (long)retries == f.tries,
		      "silent, naps of %llu us: err %d after %llu us, %ld naps",
		      (unsigned long long)naps[i], err,
		      (unsigned long long)(f.clock - 5000000), f.naps);
	}
	/* The clock may start at 0. */
	f = (struct fake){ .fail_first = -1 };
	err = run(&f, false, &w, &retries);
	CHECK(err == -EIO && f.clock == FD_HW_SILENT_US,
	      "silent from 0: err %d after %llu us", err,
	      (unsigned long long)f.clock);

	/*
	 * Contention: others get words every 50 ms while this reader gets
	 * none for 30 s, then one: no failure, however long the wait.
	 */
	f = (struct fake){ .fail_first = 30 * FD_HW_TRIES * 1000 / 8,
			   .nap_us = 8000, .others_us = 50000,
			   .others_until = ~0ULL, .next = 3 };
	err = run(&f, false, &w, &retries);
	CHECK(!err && w == 3 && f.clock >= 29000000,
	      "contended 30 s: err %d after %llu us", err,
	      (unsigned long long)f.clock);
	/* ... until the others stop hearing from it too: a second later. */
	f = (struct fake){ .fail_first = -1, .nap_us = 8000,
			   .others_us = 50000, .others_until = 5000000 };
	err = run(&f, false, &w, &retries);
	CHECK(err == -EIO && f.clock >= 6000000 && f.clock < 6000000 + 8000,
	      "contended, then silent at 5 s: err %d after %llu us", err,
	      (unsigned long long)f.clock);
	/* Stamps newer than the clock read are no silence. */
	f = (struct fake){ .fail_first = 3 * FD_HW_TRIES, .clock = 10,
			   .others_us = 1, .others_until = ~0ULL, .next = 1 };
	err = run(&f, false, &w, &retries);
	CHECK(!err, "fresh stamps: err %d", err);

	/* A request's own budget (the hwrng's): ETIMEDOUT, source alive. */
	for (i = 0; i < ARRAY_SIZE(naps); i++) {
		f = (struct fake){ .fail_first = -1, .nap_us = naps[i],
				   .others_us = 1000, .others_until = ~0ULL };
		err = fd_hw_fetch(&fake_ops, &f, false, 10000, &w, &retries);
		CHECK(err == -ETIMEDOUT && f.clock >= 10000 &&
		      f.clock < 10000 + naps[i],
		      "budget 10 ms, naps of %llu us: err %d after %llu us",
		      (unsigned long long)naps[i], err,
		      (unsigned long long)f.clock);
	}

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
	struct timespec ts = { 0, FD_HW_NAP_US * 1000 };

	nanosleep(&ts, NULL);
	return 0;
}

static u64 rdseed_now(void *ctx __maybe_unused)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000ULL + ts.tv_nsec / 1000;
}

/* Alone here: nobody else is heard of. */
static u64 rdseed_heard(void *ctx __maybe_unused)
{
	return 0;
}

static const struct fd_hw_ops rdseed_ops = {
	.once = rdseed_once,
	.relax = rdseed_relax,
	.nap = rdseed_nap,
	.now = rdseed_now,
	.heard = rdseed_heard,
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
		int err = fd_hw_fetch(&rdseed_ops, NULL, false,
				      FD_HW_WAIT_ALIVE, &w, &retries);

		bad += !!err;
		same += i && w == prev;
		prev = w;
	}
	for (i = 0; i < 2000; i++)
		again += fd_hw_fetch(&rdseed_ops, NULL, true,
				     FD_HW_WAIT_ALIVE, &w, &retries) ==
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
	return fd_check_summary();
}
