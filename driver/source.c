// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - where the raw bits come from.
 *
 * RDSEED and RDRAND are reached through the kernel's arch_get_random_*()
 * helpers: on x86 one RDSEED or RDRAND instruction per call, elsewhere the
 * architecture's own seed and random number instructions. Both may underflow
 * (RDSEED often does): a call is retried a bounded number of times with
 * cpu_relax(), then a blocking read sleeps and tries again, a bounded number
 * of times, and a nonblocking read gives up with EAGAIN. Nothing spins
 * forever: a source that stays silent ends the read with EIO.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/random.h>
#include <linux/sched/signal.h>
#include <asm/archrandom.h>

#include "fairdie.h"

/* Immediate retries of an underflowing instruction. */
#define FAIRDIE_HW_TRIES	64
/* Then up to this many 1 ms sleeps before the source is declared silent. */
#define FAIRDIE_HW_SLEEPS	1000

static const char * const fairdie_source_names[FAIRDIE_SRC_COUNT] = {
	[FAIRDIE_SRC_AUTO] = "auto",
	[FAIRDIE_SRC_RDSEED] = "rdseed",
	[FAIRDIE_SRC_RDRAND] = "rdrand",
	[FAIRDIE_SRC_CRNG] = "crng",
	[FAIRDIE_SRC_SIM] = "sim",
};

/**
 * fairdie_source_name() - the name of a source, as module parameters take it
 * @source: enum fairdie_source
 *
 * Return: the name, or "?" for a value out of range.
 */
const char *fairdie_source_name(u32 source)
{
	return source < FAIRDIE_SRC_COUNT ? fairdie_source_names[source] : "?";
}

#ifdef CONFIG_X86
/**
 * fairdie_source_parse() - the source named by a module parameter
 * @name: auto, rdseed, rdrand or crng (never sim)
 *
 * Return: enum fairdie_source, or -EINVAL for any other name.
 */
int fairdie_source_parse(const char *name)
{
	/* SIM comes last, so it is left out. */
	int i = __sysfs_match_string(fairdie_source_names, FAIRDIE_SRC_SIM,
				     name);

	return i < 0 ? -EINVAL : i;
}

static bool fairdie_hw_present(bool seed)
{
	return boot_cpu_has(seed ? X86_FEATURE_RDSEED : X86_FEATURE_RDRAND);
}
#else
static bool fairdie_hw_present(bool seed)
{
	unsigned long v;
	int i;

	/* Ask the architecture; an underflow is retried. */
	for (i = 0; i < FAIRDIE_HW_TRIES; i++) {
		if (seed ? arch_get_random_seed_longs(&v, 1) :
			   arch_get_random_longs(&v, 1))
			return true;
	}
	return false;
}
#endif

/**
 * fairdie_sources_present() - the sources this machine offers
 *
 * Return: a bitmask of (1 << FAIRDIE_SRC_x); AUTO, CRNG and SIM always.
 */
u32 fairdie_sources_present(void)
{
	u32 mask = BIT(FAIRDIE_SRC_AUTO) | BIT(FAIRDIE_SRC_CRNG) |
		   BIT(FAIRDIE_SRC_SIM);

	if (fairdie_hw_present(true))
		mask |= BIT(FAIRDIE_SRC_RDSEED);
	if (fairdie_hw_present(false))
		mask |= BIT(FAIRDIE_SRC_RDRAND);
	return mask;
}

/**
 * fairdie_source_resolve() - replace AUTO with the best source present
 * @source: enum fairdie_source
 *
 * Return: @source itself unless it is AUTO; then RDSEED if present, else
 * RDRAND if present, else CRNG.
 */
u32 fairdie_source_resolve(u32 source)
{
	u32 present;

	if (source != FAIRDIE_SRC_AUTO)
		return source;
	present = fairdie_sources_present();
	if (present & BIT(FAIRDIE_SRC_RDSEED))
		return FAIRDIE_SRC_RDSEED;
	if (present & BIT(FAIRDIE_SRC_RDRAND))
		return FAIRDIE_SRC_RDRAND;
	return FAIRDIE_SRC_CRNG;
}

static bool fairdie_hw_once(bool seed, u64 *word)
{
	unsigned long v;

	BUILD_BUG_ON(sizeof(v) != sizeof(*word));
	if (!(seed ? arch_get_random_seed_longs(&v, 1) :
		     arch_get_random_longs(&v, 1)))
		return false;
	*word = v;
	return true;
}

/**
 * fairdie_source_hw() - 64 raw bits from RDSEED or RDRAND
 * @source: FAIRDIE_SRC_RDSEED or FAIRDIE_SRC_RDRAND
 * @nonblock: give up with -EAGAIN rather than sleep
 * @word: receives the bits
 * @retries: incremented for every underflow
 *
 * Return: 0, -EAGAIN (nonblocking and the source underflows), -EINTR (a
 * signal while sleeping) or -EIO (the source stayed silent for about a
 * second of sleeps).
 */
int fairdie_source_hw(u32 source, bool nonblock, u64 *word, u64 *retries)
{
	bool seed = source == FAIRDIE_SRC_RDSEED;
	int i, j;

	for (j = 0; j <= FAIRDIE_HW_SLEEPS; j++) {
		for (i = 0; i < FAIRDIE_HW_TRIES; i++) {
			if (fairdie_hw_once(seed, word))
				return 0;
			(*retries)++;
			cpu_relax();
		}
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -EINTR;
		if (j < FAIRDIE_HW_SLEEPS)
			usleep_range(1000, 2000);
	}
	pr_warn_ratelimited("%s delivered nothing for a second\n",
			    fairdie_source_name(source));
	return -EIO;
}

/**
 * fairdie_source_word() - 64 raw bits from the file's source
 * @f: the open file, locked
 * @nonblock: give up with -EAGAIN rather than sleep
 * @word: receives the bits
 *
 * Return: 0, -EAGAIN (nonblocking and the source underflows), -EINTR (a
 * signal while waiting for the source) or -EIO (the source stayed silent).
 */
int fairdie_source_word(struct fairdie_file *f, bool nonblock, u64 *word)
{
	int err;

	lockdep_assert_held(&f->lock);

	switch (f->source) {
	case FAIRDIE_SRC_RDSEED:
	case FAIRDIE_SRC_RDRAND:
		err = fairdie_source_hw(f->source, nonblock, word,
					&f->stats.source_retries);
		if (err == -EIO) {
			f->stats.source_failures++;
			atomic64_inc(&fairdie_counters.source_failures);
		}
		return err;
	case FAIRDIE_SRC_CRNG:
		/* One call for many words: as cheap per byte as urandom. */
		if (f->crng_pos >= ARRAY_SIZE(f->crng)) {
			get_random_bytes(f->crng, sizeof(f->crng));
			f->crng_pos = 0;
		}
		*word = f->crng[f->crng_pos++];
		return 0;
	case FAIRDIE_SRC_SIM:
		*word = fd_sim_word(&f->sim);
		return 0;
	default:
		WARN_ON_ONCE(1);
		return -EIO;
	}
}
