// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - the read pipeline of one open file.
 *
 * Nothing here loops without bound: each raw word either passes the health
 * tests, which a stuck or absurdly biased source fails within a documented
 * number of bits (fd_health.c), or ends the request; a source that passes
 * them but starves the extractor fails after FD_PIPE_DRY_* words; and the
 * source's own errors and the caller's interruptions end it too.
 */

#include "fd_pipe.h"
#include "fd_roll.h"
#include "fd_vn.h"

/**
 * fd_pipe_supported() - whether @extractor can roll a die of @sides faces
 * @sides: number of faces, at least 1
 * @extractor: enum fairdie_extractor
 *
 * Return: false for DIJKSTRA with a prime factor of @sides above 64, or an
 * extractor out of range.
 */
bool fd_pipe_supported(u64 sides, u32 extractor)
{
	if (extractor >= FD_EXTRACTORS || !sides)
		return false;
	return extractor != FAIRDIE_EXT_DIJKSTRA || fd_dijkstra_supported(sides);
}

/*
 * The bias a hardware source is judged against: none for NONE, whose output
 * is only as fair as the source; the documented range, P(1) in [1/20,
 * 19/20], for the extractors that are exact for any fixed bias.
 */
static void fd_pipe_hw_claim(struct fd_pipe *p)
{
	if (p->extractor == FAIRDIE_EXT_NONE)
		fd_health_set_claim(&p->health, 1, 2);
	else
		fd_health_set_claim(&p->health, FD_PMAX_NUM, FD_PMAX_DEN);
}

/**
 * fd_pipe_configure() - set sides and extractor, discarding all in flight
 * @p: the pipeline
 * @sides: number of faces (of the weighted die, if one is set)
 * @extractor: enum fairdie_extractor, supported for @sides (not DIJKSTRA
 *	with a weighted die)
 *
 * Buffered bits and partial rolls are discarded, so that the next roll is
 * made from this configuration only; a weighted die stays. Counters and health state are kept;
 * a hardware source's cutoffs follow the new extractor.
 */
void fd_pipe_configure(struct fd_pipe *p, u64 sides, u32 extractor)
{
	u64 used = p->sampler.bits;

	p->sides = sides;
	p->extractor = extractor;
	fd_pool_clear(&p->pool);
	fd_sampler_init(&p->sampler, sides, true);
	if (p->weights)
		fd_weights_attach(p->weights, &p->sampler);
	p->sampler.bits = used;
	if (p->peres)
		fd_peres_init(p->peres);
	if (extractor == FAIRDIE_EXT_DIJKSTRA)
		fd_dijkstra_init(&p->dijkstra, sides);
	p->dry_words = 0;
	p->want_bits = FD_PIPE_REFILL_BITS;
	if (p->hw)
		fd_pipe_hw_claim(p);
}

/**
 * fd_pipe_set_sides() - change the die, keeping what is in flight
 * @p: the pipeline
 * @sides: number of faces, supported with the current extractor
 *
 * The fair bits in the pool and in the extractor and the sampler's uniform
 * state are independent of every roll already made, so the next rolls may
 * use them whatever their die: they are kept. A partial Dijkstra roll is
 * dropped (its raw bits were taken for the old die's primes); the raw bits
 * still in the pool are kept. Counters and health state are kept. A
 * weighted die is left for the fair one: the caller may free it.
 */
void fd_pipe_set_sides(struct fd_pipe *p, u64 sides)
{
	p->sides = sides;
	p->weights = NULL;
	fd_sampler_set_sides(&p->sampler, sides);
	if (p->extractor == FAIRDIE_EXT_DIJKSTRA)
		fd_dijkstra_init(&p->dijkstra, sides);
}

/**
 * fd_pipe_set_weights() - draw from a weighted die, keeping what is in flight
 * @p: the pipeline, with an extractor other than DIJKSTRA
 * @w: the weighted die, owned by the caller until the next
 *	fd_pipe_set_sides() or fd_pipe_set_weights()
 *
 * As fd_pipe_set_sides(): the fair bits in flight and the sampler's
 * uniform state are kept, and serve the draws. Rolls are then faces of
 * @w, @w->count of them.
 */
void fd_pipe_set_weights(struct fd_pipe *p, const struct fd_weights *w)
{
	if (FD_WARN_ON(p->extractor == FAIRDIE_EXT_DIJKSTRA))
		return;
	p->sides = w->count;
	p->weights = w;
	fd_weights_attach(w, &p->sampler);
}

/**
 * fd_pipe_restart() - a source starts (again): clear the failure, re-arm
 *	the health tests and the startup test
 * @p: the pipeline
 * @p1_num: the source's claimed probability of a one, numerator
 * @p1_den: its denominator (1 / 2 for a full-entropy source)
 * @tested: run the health tests at all
 * @check_words: also fail on a 64-bit word repeated verbatim
 */
void fd_pipe_restart(struct fd_pipe *p, u64 p1_num, u64 p1_den, bool tested,
		     bool check_words)
{
	p->failed = false;
	p->failure = FD_HEALTH_OK;
	p->tested = tested;
	p->hw = false;
	p->dry_words = 0;
	fd_health_init(&p->health, p1_num, p1_den, check_words);
	/* Nothing to test, nothing to discard. */
	p->startup_words = tested ? FD_STARTUP_BITS / 64 : 0;
}

/**
 * fd_pipe_restart_hw() - fd_pipe_restart() for a hardware source (RDSEED,
 *	RDRAND)
 * @p: the pipeline
 *
 * Its words are judged as independent, with repeated words checked, and
 * against the bias the extractor tolerates: full entropy for NONE, P(1)
 * anywhere in [1/20, 19/20] for VN, PERES and DIJKSTRA, whose output is
 * exact for any fixed bias. Either way a healthy source fails with
 * probability below 2^-64 per window of 1024 bits (fd_health.c).
 */
void fd_pipe_restart_hw(struct fd_pipe *p)
{
	fd_pipe_restart(p, 1, 2, true, true);
	p->hw = true;
	fd_pipe_hw_claim(p);
}

/*
 * Count and test one raw word: 1 when it may be used, 0 when the startup
 * test discards it (the first FD_STARTUP_BITS bits of a source are tested
 * and discarded), -EIO when it fails the health tests.
 */
static int fd_pipe_check(struct fd_pipe *p, u64 w)
{
	enum fd_health_result r;

	p->source_bits += 64;
	if (p->tested) {
		r = fd_health_word(&p->health, w);
		if (r != FD_HEALTH_OK) {
			p->failed = true;
			p->failure = r;
			return -EIO;
		}
	}
	if (p->startup_words) {
		p->startup_words--;
		return 0;
	}
	return 1;
}

/*
 * One raw word that passed the health tests, after the startup test (the
 * first FD_STARTUP_BITS bits of a source are tested and discarded).
 */
static int fd_pipe_raw(struct fd_pipe *p, const struct fd_source_ops *ops,
		       void *ctx, bool nonblock, u64 *w)
{
	int err;

	for (;;) {
		err = ops->word(ctx, nonblock, w);
		if (err)
			return err;
		err = fd_pipe_check(p, *w);
		if (err)
			return err < 0 ? err : 0;
	}
}

/* Count a word that gave @n fair bits; fail a source that starves us. */
static int fd_pipe_starving(struct fd_pipe *p, u32 n)
{
	u32 limit;

	switch (p->extractor) {
	case FAIRDIE_EXT_VN:
		limit = FD_PIPE_DRY_VN;
		break;
	case FAIRDIE_EXT_PERES:
		limit = FD_PIPE_DRY_PERES;
		break;
	case FAIRDIE_EXT_DIJKSTRA:
		/* Reset by each roll, in fd_pipe_roll(); a well's readers count. */
		if (p->well)
			return 0;
		n = 0;
		limit = FD_PIPE_DRY_DIJKSTRA;
		break;
	default:
		return 0;
	}
	p->dry_words = n ? 0 : p->dry_words + 1;
	if (p->dry_words < limit)
		return 0;
	p->failed = true;
	p->failure = FD_HEALTH_STARVED;
	return -EIO;
}

/* One raw word that passed the tests, through the extractor. */
static int fd_pipe_extract(struct fd_pipe *p, u64 w)
{
	u64 fair;
	u32 n;

	switch (p->extractor) {
	case FAIRDIE_EXT_VN:
		n = fd_vn_word(w, &fair);
		fd_pool_put(&p->pool, fair, n);
		break;
	case FAIRDIE_EXT_PERES:
		n = fd_peres_feed(p->peres, w, &p->pool);
		break;
	case FAIRDIE_EXT_NONE:
		fd_pool_put64(&p->pool, w);
		n = 64;
		break;
	default:
		/* DIJKSTRA rolls straight from the raw bits. */
		fd_pool_put64(&p->pool, w);
		n = 0;
		break;
	}
	p->extracted_bits += n;
	return fd_pipe_starving(p, n);
}

/* One raw word from the source through the extractor into the pool. */
static int fd_pipe_feed(struct fd_pipe *p, const struct fd_source_ops *ops,
			void *ctx, bool nonblock)
{
	u64 w;
	int err;

	err = fd_pipe_raw(p, ops, ctx, nonblock, &w);
	return err ? err : fd_pipe_extract(p, w);
}

/*
 * Add bits to the pool: at least one, then up to @p->want_bits while a
 * word's output surely fits; or whatever a shared well hands over.
 */
static int fd_pipe_refill(struct fd_pipe *p, const struct fd_source_ops *ops,
			  void *ctx, bool nonblock)
{
	u32 burst = p->extractor == FAIRDIE_EXT_PERES ? FD_PERES_MAX_OUT : 64;
	u32 before = p->pool.count;
	int err;

	if (ops->fill) {
		err = ops->fill(ctx, nonblock, p);
		if (err || p->extractor != FAIRDIE_EXT_DIJKSTRA)
			return err;
		/* Raw bits not yet rolled count as words that gave nothing. */
		p->dry_words += (p->pool.count - before + 63) / 64;
		if (p->dry_words < FD_PIPE_DRY_DIJKSTRA)
			return 0;
		p->failed = true;
		p->failure = FD_HEALTH_STARVED;
		return -EIO;
	}
	do {
		/* Fair bits of a finished Peres block go first. */
		if (p->extractor == FAIRDIE_EXT_PERES &&
		    fd_peres_pending(p->peres)) {
			p->extracted_bits += fd_peres_drain(p->peres, &p->pool);
			p->dry_words = 0;
			continue;
		}
		if (ops->interrupted(ctx))
			return -EINTR;
		err = fd_pipe_feed(p, ops, ctx, nonblock);
		if (err)
			return err;
	} while (p->pool.count == before ||
		 (p->pool.count < p->want_bits &&
		  fd_pool_room(&p->pool) >= burst));
	return 0;
}

/**
 * fd_pipe_roll() - one exactly uniform roll
 * @p: the pipeline, configured and restarted
 * @ops: the source
 * @ctx: passed to @ops
 * @nonblock: the source must not wait
 * @out: the roll, in [0, sides)
 *
 * Return: 0; or the source's error, -EINTR when @ops says so, -EIO with
 * @p->failed set when the health tests fail. Nothing taken is lost on an
 * error: the partial roll is resumed by the next call.
 */
int fd_pipe_roll(struct fd_pipe *p, const struct fd_source_ops *ops,
		 void *ctx, bool nonblock, u64 *out)
{
	int err;

	for (;;) {
		if (p->extractor == FAIRDIE_EXT_DIJKSTRA) {
			if (fd_dijkstra_roll(&p->dijkstra, &p->pool, out)) {
				p->dry_words = 0;
				return 0;
			}
		} else if (p->weights ?
			   fd_weights_draw(p->weights, &p->sampler, &p->pool,
					   out) :
			   fd_sampler_roll(&p->sampler, &p->pool, out)) {
			return 0;
		}
		err = fd_pipe_refill(p, ops, ctx, nonblock);
		if (err)
			return err;
	}
}

/**
 * fd_pipe_fill() - up to @count rolls, in the binary format
 * @p: the pipeline, configured and restarted
 * @ops: the source
 * @ctx: passed to @ops
 * @nonblock: the source must not wait
 * @dst: where the rolls go, fd_roll_width(sides) bytes each, as
 *	fd_put_roll() stores them
 * @count: how many are wanted
 * @made: receives how many were made, also on an error
 *
 * The same rolls as @count calls of fd_pipe_roll(), made many at a time.
 *
 * Return: as fd_pipe_roll(), for the roll after the last one made.
 */
int fd_pipe_fill(struct fd_pipe *p, const struct fd_source_ops *ops,
		 void *ctx, bool nonblock, u8 *dst, u32 count, u32 *made)
{
	u32 width = fd_roll_width(p->sides);
	u64 v;
	int err;

	*made = 0;
	while (*made < count) {
		if (p->extractor == FAIRDIE_EXT_DIJKSTRA) {
			err = fd_pipe_roll(p, ops, ctx, nonblock, &v);
			if (err)
				return err;
			fd_put_roll(dst + (*made)++ * width, v, width);
			continue;
		}
		if (p->weights)
			*made += fd_weights_fill(p->weights, &p->sampler,
						 &p->pool, dst + *made * width,
						 count - *made, width);
		else
			*made += fd_sampler_fill_rolls(&p->sampler, &p->pool,
						       dst + *made * width,
						       count - *made, width);
		if (*made == count)
			break;
		err = fd_pipe_refill(p, ops, ctx, nonblock);
		if (err)
			return err;
	}
	return 0;
}

/**
 * fd_pipe_fair64() - 64 fair bits, for sides of 2^8, 2^16 or 2^32
 * @p: the pipeline, with an extractor other than DIJKSTRA
 * @ops: the source
 * @ctx: passed to @ops
 * @nonblock: the source must not wait
 * @out: the bits, counted as consumed by the sampler
 *
 * A power of two is a plain run of fair bits: 64 at a time, with NONE and
 * nothing buffered straight from the source.
 *
 * Return: as fd_pipe_roll().
 */
int fd_pipe_fair64(struct fd_pipe *p, const struct fd_source_ops *ops,
		   void *ctx, bool nonblock, u64 *out)
{
	int err;

	while (p->pool.count < 64) {
		if (p->extractor == FAIRDIE_EXT_NONE && !p->pool.count &&
		    !ops->fill) {
			err = fd_pipe_raw(p, ops, ctx, nonblock, out);
			if (err)
				return err;
			p->extracted_bits += 64;
			p->sampler.bits += 64;
			return 0;
		}
		err = fd_pipe_refill(p, ops, ctx, nonblock);
		if (err)
			return err;
	}
	*out = fd_pool_take(&p->pool, 64);
	p->sampler.bits += 64;
	return 0;
}

/**
 * fd_pipe_counters() - the pipeline's bit counters
 * @p: the pipeline
 * @c: receives them
 */
void fd_pipe_counters(const struct fd_pipe *p, struct fd_pipe_counters *c)
{
	c->source_bits = p->source_bits;
	c->extracted_bits = p->extracted_bits;
	c->sampler_bits = p->sampler.bits;
}

/**
 * fd_pipe_clear_counters() - start the bit counters again from zero
 * @p: the pipeline
 */
void fd_pipe_clear_counters(struct fd_pipe *p)
{
	p->source_bits = 0;
	p->extracted_bits = 0;
	p->sampler.bits = 0;
}

/**
 * fd_pipe_count_direct() - count source bits used as output directly
 * @p: the pipeline, with FAIRDIE_EXT_NONE and nothing buffered
 * @bits: bits the caller took from the source itself and delivered as
 *	rolls of a power-of-two die, bypassing the pipeline
 */
void fd_pipe_count_direct(struct fd_pipe *p, u64 bits)
{
	p->source_bits += bits;
	p->extracted_bits += bits;
	p->sampler.bits += bits;
}

/**
 * fd_pipe_set_demand() - size the next refills to what a reader needs
 * @p: the pipeline
 * @bits: about how many bits the reader's request will take
 *
 * A refill then aims at @bits, at least 64 and at most
 * FD_PIPE_REFILL_BITS, so that a short read takes little from the source
 * and a long one amortises its calls.
 */
void fd_pipe_set_demand(struct fd_pipe *p, u64 bits)
{
	if (bits < 64)
		bits = 64;
	p->want_bits = bits < FD_PIPE_REFILL_BITS ? bits : FD_PIPE_REFILL_BITS;
}

/*
 * fd_pipe_extract() of PERES on the first of @n words that only join the
 * block being gathered (fd_peres_feed()'s usual word): no bits pending, a
 * block not completed by them, and each counted as a word that gave
 * nothing without reaching the starvation limit. They are copied in at
 * once; the rest is left to fd_pipe_extract(). Return: how many.
 */
static u32 fd_pipe_gather(struct fd_pipe *p, const u64 *words, u32 n)
{
	struct fd_peres *st = p->peres;
	u32 k;

	if (fd_peres_pending(st))
		return 0;
	/* The words with nraw + 64 < FD_PERES_BLOCK_BITS when they come. */
	k = (FD_PERES_BLOCK_BITS - st->nraw) / 64 - 1;
	if (k > n)
		k = n;
	/* ... and dry_words + 1 below the limit after each. */
	if (p->dry_words + k >= FD_PIPE_DRY_PERES)
		k = p->dry_words + 1 < FD_PIPE_DRY_PERES ?
		    FD_PIPE_DRY_PERES - 1 - p->dry_words : 0;
	memcpy(st->raw + st->nraw / 64, words, k * sizeof(*words));
	st->nraw += 64 * k;
	p->dry_words += k;
	p->source_bits += 64ULL * k;
	return k;
}

/*
 * @n words through fd_pipe_check() and fd_pipe_extract() in turn, as many
 * as the caller found room for: the health tests first on the whole run,
 * their state in registers, then the words that passed, in order, through
 * the extractor. An extractor that fails on a word before the one the
 * tests failed on ends the run first, as word by word; the tests' state
 * past it is then never used again (a failed pipe restarts them).
 */
static int fd_pipe_feed_run(struct fd_pipe *p, const u64 *words, u32 n)
{
	enum fd_health_result r = FD_HEALTH_OK;
	u32 ok = n, j;
	int err;

	if (p->tested)
		r = fd_health_words(&p->health, words, n, &ok);
	for (j = 0; j < ok && p->startup_words; j++) {
		p->source_bits += 64;
		p->startup_words--;
	}
	if (p->extractor == FAIRDIE_EXT_NONE) {
		/* fd_pipe_extract(), which never fails for NONE, unrolled. */
		p->source_bits += 64ULL * (ok - j);
		p->extracted_bits += 64ULL * (ok - j);
		fd_pool_put_words(&p->pool, words + j, ok - j);
		j = ok;
	}
	if (p->extractor == FAIRDIE_EXT_PERES)
		j += fd_pipe_gather(p, words + j, ok - j);
	for (; j < ok; j++) {
		p->source_bits += 64;
		err = fd_pipe_extract(p, words[j]);
		if (err)
			return err;
	}
	if (r == FD_HEALTH_OK)
		return 0;
	p->source_bits += 64;
	p->failed = true;
	p->failure = r;
	return -EIO;
}

/**
 * fd_pipe_feed_words() - raw words fetched by a reader, into the pool
 * @p: the pipeline of a well: health tests, start-up test and extractor
 * @words: the raw words, in the order they came from the source
 * @n: how many
 *
 * Each word goes through the health tests (the first ones of a start-up
 * test are discarded) and the extractor, as fd_pipe_roll() would take it;
 * words whose output would not fit in the pool are dropped (counted as
 * taken from the source): the caller only fetches what the pool lacks, so
 * this happens only when readers that fetched at once overfill it.
 *
 * Return: 0, or -EIO with @p->failed set when the health tests fail (or
 * the source starves the extractor).
 */
int fd_pipe_feed_words(struct fd_pipe *p, const u64 *words, u32 n)
{
	struct fd_peres *st = p->peres;
	u32 i = 0, m;
	int err;

	while (i < n) {
		if (p->extractor != FAIRDIE_EXT_PERES) {
			if (fd_pool_room(&p->pool) < 64)
				break;
			/* Each of them finds room for its 64 bits at most. */
			m = p->startup_words + fd_pool_room(&p->pool) / 64;
		} else if (fd_peres_pending(st)) {
			/*
			 * A block's fair bits wait in Peres' state; the next
			 * block may be gathered meanwhile, but not completed.
			 */
			if (fd_pool_room(&p->pool)) {
				p->extracted_bits += fd_peres_drain(st, &p->pool);
				p->dry_words = 0;
			}
			if (fd_peres_pending(st) &&
			    st->nraw + 64 == FD_PERES_BLOCK_BITS)
				break;
			m = 1;
		} else {
			/* The last of them at most completes a block. */
			m = (FD_PERES_BLOCK_BITS - st->nraw) / 64;
		}
		if (m > n - i)
			m = n - i;
		err = fd_pipe_feed_run(p, words + i, m);
		if (err)
			return err;
		i += m;
	}
	p->source_bits += 64ULL * (n - i);
	return 0;
}

/**
 * fd_pipe_take() - move fair bits (raw bits for DIJKSTRA) to a reader
 * @p: the pipeline of a well
 * @dst: the reader's pool
 * @n: how many are wanted
 *
 * Fair bits of a finished Peres block are handed out first, as far as the
 * pool has room for them.
 *
 * Return: how many were moved: at most @n, what @p holds and what @dst has
 * room for.
 */
u32 fd_pipe_take(struct fd_pipe *p, struct fd_pool *dst, u32 n)
{
	if (p->extractor == FAIRDIE_EXT_PERES && fd_peres_pending(p->peres) &&
	    fd_pool_room(&p->pool)) {
		p->extracted_bits += fd_peres_drain(p->peres, &p->pool);
		p->dry_words = 0;
	}
	if (n > p->pool.count)
		n = p->pool.count;
	if (n > fd_pool_room(dst))
		n = fd_pool_room(dst);
	fd_pool_move(dst, &p->pool, n);
	return n;
}

/**
 * fd_pipe_giveback() - hand a reader's unused fair bits to another pool
 * @p: the reader's pipeline, with an extractor other than DIJKSTRA
 * @dst: the pool of the well it took them from
 *
 * The fair bits in the pool and the sampler's uniform state are independent
 * of every roll already made (see fd_sampler_giveback()): they go to @dst as
 * far as it has room, and the rest is dropped. The sampler is reset.
 *
 * Return: how many bits went to @dst.
 */
u32 fd_pipe_giveback(struct fd_pipe *p, struct fd_pool *dst)
{
	u32 moved = p->pool.count;

	if (moved > fd_pool_room(dst))
		moved = fd_pool_room(dst);
	fd_pool_move(dst, &p->pool, moved);
	fd_pool_clear(&p->pool);
	return moved + fd_sampler_giveback(&p->sampler, dst);
}
