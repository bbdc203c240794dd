// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - feeding the kernel's entropy pool through the hwrng framework.
 *
 * A struct hwrng named "fairdie" that reads the von Neumann well of its
 * hardware source (RDSEED or RDRAND, never SIM nor CRNG), as open files
 * do: start-up and continuous health tests -> von Neumann -> fair bits,
 * handed out as bytes. When the well fails its health tests, nothing is
 * delivered (so nothing is credited) for FAIRDIE_HWRNG_BACKOFF; then the
 * hwrng joins the well again, which restarts it with a fresh start-up test
 * if no file did so meanwhile.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hw_random.h>
#include <linux/jiffies.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "fairdie.h"

/* How long a failed source is left alone before it is tried again. */
#define FAIRDIE_HWRNG_BACKOFF	(10 * HZ)

/**
 * struct fairdie_hwrng - the entropy feeding pipeline
 * @rng: what the hwrng core sees
 * @in_use: the core made @rng current and has not let it go since
 * @lock: serialises reads of the pipeline
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @failed: the health tests failed; nothing is delivered until @retry_at
 * @retry_at: jiffies at which a failed source is tried again
 * @retries: underflows of the source
 * @well: the von Neumann well of @source
 * @client: the hwrng's record of @well
 * @deadline: when the read in progress stops waiting for the source
 * @pipe: the pipeline of an open file, with von Neumann and 256 sides,
 *	fed by @well; @client's generation is the VM fork generation its bits
 *	were made in (driver/vmfork.c)
 */
struct fairdie_hwrng {
	struct hwrng rng;
	bool in_use;
	struct mutex lock;	/* protects every field below */
	u32 source;
	bool failed;
	unsigned long retry_at;
	u64 retries;
	struct fairdie_well *well;
	struct fd_well_client client;
	u64 deadline;
	struct fd_pipe pipe;
};

static struct fairdie_hwrng *fairdie_hwrng;

/*
 * Discard every bit the pipeline holds, back to its well if they are of the
 * current VM generation: the files' way (fairdie_well_flush()). Fair bytes
 * from von Neumann: no sampler work, no Peres state.
 */
static void fairdie_hwrng_flush(struct fairdie_hwrng *h)
{
	fairdie_well_flush(h->well, &h->client, &h->pipe, 256, FAIRDIE_EXT_VN);
}

/* A VM fork came since the pipeline's bits were made: flush them. */
static bool fairdie_hwrng_forked(struct fairdie_hwrng *h)
{
	if (!fairdie_vmfork_stale(h->client.generation))
		return false;
	fairdie_hwrng_flush(h);
	return true;
}

static void fairdie_hwrng_restart(struct fairdie_hwrng *h)
{
	fairdie_hwrng_flush(h);
	fd_pipe_restart(&h->pipe, 1, 2, false, false);
	fairdie_well_join(h->well, &h->client);
	WRITE_ONCE(h->failed, false);
}

static int fairdie_hwrng_word(void *ctx, bool nonblock, u64 *word)
{
	struct fairdie_hwrng *h = ctx;

	return fairdie_source_hwrng(&h->rng, h->source, nonblock, h->deadline,
				    word, &h->retries);
}

static bool fairdie_hwrng_interrupted(void *ctx)
{
	struct fairdie_hwrng *h = ctx;

	/*
	 * The hwrng thread has no signals; a reader of /dev/hwrng may. Past
	 * the read's deadline, the wait for a turn in the well ends too.
	 */
	cond_resched();
	return signal_pending(current) || fairdie_hwrng_late(h->deadline);
}

static const struct fd_source_ops fairdie_hwrng_raw_ops = {
	.word = fairdie_hwrng_word,
	.interrupted = fairdie_hwrng_interrupted,
};

static int fairdie_hwrng_fill(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct fairdie_hwrng *h = ctx;

	return fairdie_well_fill(h->well, &h->client, h->source,
				 &fairdie_hwrng_raw_ops, h, nonblock, p);
}

static const struct fd_source_ops fairdie_hwrng_ops = {
	.fill = fairdie_hwrng_fill,
};

static void fairdie_hwrng_fail(struct fairdie_hwrng *h)
{
	WRITE_ONCE(h->failed, true);
	h->retry_at = jiffies + FAIRDIE_HWRNG_BACKOFF;
	pr_warn_ratelimited("hwrng: %s source failed the %s test; no entropy credited for %d s\n",
			    fairdie_source_name(h->source),
			    fd_health_name(h->pipe.failure),
			    FAIRDIE_HWRNG_BACKOFF / HZ);
}

static int fairdie_hwrng_read(struct hwrng *rng, void *data, size_t max,
			      bool wait)
{
	struct fairdie_hwrng *h = container_of(rng, struct fairdie_hwrng, rng);
	u8 *out = data;
	size_t done = 0, n;
	int err = 0;
	u64 w;

	mutex_lock(&h->lock);
	if (READ_ONCE(h->failed)) {
		if (time_before(jiffies, h->retry_at)) {
			err = -EIO;
			goto out_unlock;
		}
		fairdie_hwrng_restart(h);
	}
	/*
	 * One deadline for the whole read, and a refill of what the core
	 * asked for: the core holds its reading mutex while we wait.
	 */
	h->deadline = fairdie_hwrng_deadline();
	fd_pipe_set_demand(&h->pipe, 8ULL * max);
	for (;;) {
		/*
		 * Nothing made before a VM fork is delivered (and credited)
		 * after it: looked at after every pass, the last one too, so
		 * a fork while it waits in the well drops the bytes before.
		 */
		if (fairdie_hwrng_forked(h)) {
			fd_pipe_set_demand(&h->pipe, 8ULL * max);
			memzero_explicit(out, done);
			done = 0;
			if (err == -ESTALE)
				err = 0;
		}
		if (err || done >= max)
			break;
		err = fd_pipe_fair64(&h->pipe, &fairdie_hwrng_ops, h, !wait,
				     &w);
		if (err)
			continue;
		/* Bits beyond @max are dropped: they are fair all the same. */
		n = min_t(size_t, max - done, sizeof(w));
		memcpy(out + done, &w, n);
		done += n;
	}
	memzero_explicit(&w, sizeof(w));
	/* Only a flush answers -ESTALE, and it moved the pipeline on. */
	if (WARN_ON_ONCE(err == -ESTALE))
		err = -EAGAIN;
	fairdie_well_end_read(h->well, &h->client);
	if (err == -EIO && h->pipe.failed)
		fairdie_hwrng_fail(h);
out_unlock:
	mutex_unlock(&h->lock);
	if (done)
		return done;
	/*
	 * Without wait, "nothing now" is not an error. A signal is the core's
	 * to report: given nothing, it checks signal_pending() itself and
	 * restarts the read() when the handler asks for it (-ERESTARTSYS).
	 */
	return err == -EAGAIN || err == -EINTR ? 0 : err;
}

/*
 * The core calls ->init when it makes an hwrng current (unless it still
 * holds it from an earlier time) and ->cleanup when the last user of an
 * hwrng that is no longer current lets it go: between the two the core
 * reads it and credits what it reads. No other way to know is exported.
 */
static int fairdie_hwrng_init(struct hwrng *rng)
{
	struct fairdie_hwrng *h = container_of(rng, struct fairdie_hwrng, rng);

	WRITE_ONCE(h->in_use, true);
	return 0;
}

static void fairdie_hwrng_cleanup(struct hwrng *rng)
{
	struct fairdie_hwrng *h = container_of(rng, struct fairdie_hwrng, rng);

	WRITE_ONCE(h->in_use, false);
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
	h->well = fairdie_well_get(source, FAIRDIE_EXT_VN);
	fairdie_hwrng_restart(h);
	h->rng.name = KBUILD_MODNAME;
	h->rng.init = fairdie_hwrng_init;
	h->rng.cleanup = fairdie_hwrng_cleanup;
	h->rng.read = fairdie_hwrng_read;
	h->rng.quality = quality;

	err = hwrng_register(&h->rng);
	if (err) {
		/* Out of its well's queue before it is freed. */
		fairdie_well_giveback(h->well, &h->client, &h->pipe);
		mutex_destroy(&h->lock);
		/* The core may have read early randomness already. */
		kfree_sensitive(h);
		return err;
	}
	fairdie_hwrng = h;
	/*
	 * Only the current hwrng is read and credited. The core makes a new
	 * one current when there is none, or when it beats the current one's
	 * quality and the administrator chose none; since 6.2 it lowers the
	 * quality to rng_core.default_quality on the way.
	 */
	if (!READ_ONCE(h->in_use))
		pr_info("hwrng: registered with %s, but another hwrng is current: nothing credited unless fairdie is chosen in /sys/class/misc/hw_random/rng_current\n",
			fairdie_source_name(source));
	else if (!h->rng.quality)
		pr_info("hwrng: feeding the entropy pool from %s, crediting nothing (rng_core.default_quality=0)\n",
			fairdie_source_name(source));
	else
		pr_info("hwrng: feeding the entropy pool from %s, crediting %u bits per 1024\n",
			fairdie_source_name(source), h->rng.quality);
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
	/* Out of its well's queue before it is freed. */
	fairdie_well_giveback(h->well, &h->client, &h->pipe);
	mutex_destroy(&h->lock);
	kfree_sensitive(h);
}
