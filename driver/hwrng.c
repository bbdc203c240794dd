// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - feeding the kernel's entropy pool through the hwrng framework.
 *
 * A struct hwrng named "fairdie" with a pipeline of its own, independent of
 * every open file: hardware source (RDSEED or RDRAND, never SIM nor CRNG)
 * -> startup and continuous health tests -> von Neumann -> bytes. When the
 * health tests fail, the pipeline delivers nothing (so nothing is credited)
 * for FAIRDIE_HWRNG_BACKOFF, then restarts with a fresh startup test.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hw_random.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "fairdie.h"
#include "fd_vn.h"

/* How long a failed source is left alone before it is tried again. */
#define FAIRDIE_HWRNG_BACKOFF	(10 * HZ)

/**
 * struct fairdie_hwrng - the entropy feeding pipeline
 * @rng: what the hwrng core sees
 * @lock: serialises reads of the pipeline
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @health: continuous health tests of the raw bits
 * @pool: fair bits not yet handed out
 * @startup_words: words still to test and discard before use
 * @dry_words: raw words in a row that gave von Neumann nothing
 * @failed: the health tests failed; nothing is delivered until @retry_at
 * @retry_at: jiffies at which a failed source is tried again
 * @retries: underflows of the source
 */
struct fairdie_hwrng {
	struct hwrng rng;
	struct mutex lock;	/* protects every field below */
	u32 source;
	struct fd_health health;
	struct fd_pool pool;
	u32 startup_words;
	u32 dry_words;
	bool failed;
	unsigned long retry_at;
	u64 retries;
};

static struct fairdie_hwrng *fairdie_hwrng;

static void fairdie_hwrng_restart(struct fairdie_hwrng *h)
{
	fd_health_init(&h->health, 1, 2, true);
	fd_pool_clear(&h->pool);
	h->startup_words = FD_STARTUP_BITS / 64;
	h->dry_words = 0;
	h->failed = false;
}

/* Top the pool up by one raw word. */
static int fairdie_hwrng_feed(struct fairdie_hwrng *h, bool wait)
{
	enum fd_health_result r;
	u64 w, fair;
	unsigned int n;
	int err;

	err = fairdie_source_hwrng(&h->rng, h->source, !wait, &w,
				   &h->retries);
	if (err)
		return err;
	atomic64_add(64, &fairdie_counters.source_bits);
	r = fd_health_word(&h->health, w);
	/* As in fd_pipe.c: a source may pass the tests and starve VN. */
	if (r == FD_HEALTH_OK && !h->startup_words &&
	    ++h->dry_words >= FD_PIPE_DRY_VN)
		r = FD_HEALTH_STARVED;
	if (r != FD_HEALTH_OK) {
		WRITE_ONCE(h->failed, true);
		h->retry_at = jiffies + FAIRDIE_HWRNG_BACKOFF;
		atomic64_inc(&fairdie_counters.health_failures);
		pr_warn_ratelimited("hwrng: %s source failed the %s test; no entropy credited for %d s\n",
				    fairdie_source_name(h->source),
				    fd_health_name(r),
				    FAIRDIE_HWRNG_BACKOFF / HZ);
		return -EIO;
	}
	if (h->startup_words) {
		h->startup_words--;
		return 0;
	}
	n = fd_vn_word(w, &fair);
	fd_pool_put(&h->pool, fair, n);
	if (n)
		h->dry_words = 0;
	return 0;
}

static int fairdie_hwrng_read(struct hwrng *rng, void *data, size_t max,
			      bool wait)
{
	struct fairdie_hwrng *h = container_of(rng, struct fairdie_hwrng, rng);
	u8 *out = data;
	size_t done = 0;
	int err = 0;

	mutex_lock(&h->lock);
	if (READ_ONCE(h->failed)) {
		if (time_before(jiffies, h->retry_at)) {
			err = -EIO;
			goto out_unlock;
		}
		fairdie_hwrng_restart(h);
	}
	while (done < max) {
		if (h->pool.count >= 8) {
			out[done++] = fd_pool_take(&h->pool, 8);
			continue;
		}
		err = fairdie_hwrng_feed(h, wait);
		if (err)
			break;
	}
out_unlock:
	mutex_unlock(&h->lock);
	if (done)
		return done;
	/* Without wait, "nothing now" is not an error. */
	return err == -EAGAIN ? 0 : err;
}

/**
 * fairdie_hwrng_state() - the state of the entropy feeding, for sysfs
 *
 * Return: "off", or the source's name followed by " ok" or " failed".
 */
const char *fairdie_hwrng_state(void)
{
	struct fairdie_hwrng *h = fairdie_hwrng;

	if (!h)
		return "off";
	if (READ_ONCE(h->failed))
		return h->source == FAIRDIE_SRC_RDSEED ? "rdseed failed" :
							 "rdrand failed";
	return h->source == FAIRDIE_SRC_RDSEED ? "rdseed ok" : "rdrand ok";
}

/**
 * fairdie_hwrng_register() - start feeding the kernel's entropy pool
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @quality: entropy credited per 1024 bits delivered, 1..1024
 *
 * Return: 0 or a negative errno from the hwrng core.
 */
int fairdie_hwrng_register(u32 source, u16 quality)
{
	struct fairdie_hwrng *h;
	int err;

	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	mutex_init(&h->lock);
	h->source = source;
	fairdie_hwrng_restart(h);
	h->rng.name = KBUILD_MODNAME;
	h->rng.read = fairdie_hwrng_read;
	h->rng.quality = quality;

	err = hwrng_register(&h->rng);
	if (err) {
		mutex_destroy(&h->lock);
		kfree(h);
		return err;
	}
	fairdie_hwrng = h;
	return 0;
}

/**
 * fairdie_hwrng_unregister() - stop feeding; waits for readers to finish
 */
void fairdie_hwrng_unregister(void)
{
	struct fairdie_hwrng *h = fairdie_hwrng;

	if (!h)
		return;
	hwrng_unregister(&h->rng);
	fairdie_hwrng = NULL;
	mutex_destroy(&h->lock);
	kfree_sensitive(h);
}
