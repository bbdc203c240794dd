// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the exact engine: rolls of any size from any source.
 */

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/fairdie.h>

#include "device.h"
#include "engine.h"
#include "fd_roll.h"
#include "msg.h"

/**
 * fdc_engine_open_source() - start the engine on the source in @e->src
 * @e: the engine, whose @src the caller has opened
 * @precision: for a source of bits, log2 of the target of the sampler's
 *	state, as fd_sampler_init_precision() takes it; 0 for the module's
 *	default. Small values let the tests enumerate every bit string.
 *
 * Return: 0.
 */
int fdc_engine_open_source(struct fdc_engine *e, unsigned int precision)
{
	struct fdc_source *src = &e->src;

	e->own_dice = !!src->ops->rolls;
	e->max_ahead = FDC_CACHE_MAX;
	e->draw_max = FD_SAMPLER_SMALL_MAX;
	e->hot = NULL;
	memset(e->cache, 0, sizeof(e->cache));
	e->tick = 0;
	e->hot_sum = NULL;
	memset(e->sums, 0, sizeof(e->sums));
	e->no_weights = false;
	e->progress = NULL;
	e->progress_what = NULL;
	e->give_back = false;
	e->bits_read = 0;
	e->rolls = 0;
	fd_pool_clear(&e->pool);
	if (precision)
		fd_sampler_init_precision(&e->sampler, 2, true, precision);
	else
		fd_sampler_init(&e->sampler, 2, true);
	e->batch_bits = e->sampler.batch_bits;
	return 0;
}

/**
 * fdc_engine_open() - open the source the global options name
 * @e: the engine
 * @cfg: the global options
 *
 * The device, unless --random-source, --source=getrandom or --seed (or
 * FAIRDIE_SOURCE, through the option parser) chose a source of bits. A file
 * is read no further than its rolls need: nothing is made ahead from it,
 * and running out is an error that says how many bits were read.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_engine_open(struct fdc_engine *e, const struct fdc_config *cfg)
{
	int ret = 0;

	memset(e, 0, sizeof(*e));
	switch (cfg->user_source) {
	case FDC_USRC_FILE:
		ret = fdc_source_open_file(&e->src, cfg->random_file);
		break;
	case FDC_USRC_GETRANDOM:
		ret = fdc_source_open_getrandom(&e->src);
		break;
	case FDC_USRC_SEED:
		fdc_source_open_seed(&e->src, cfg->seed);
		break;
	case FDC_USRC_STREAM:
		ret = fdc_source_open_stream(&e->src, cfg->stream_key);
		break;
	default:
#ifdef FDC_FAKE_DEVICE
		/* Test builds only: "fake:SEED" is the deterministic double. */
		if (!strncmp(cfg->device, "fake:", 5)) {
			u64 seed;

			if (fdc_parse_u64(cfg->device + 5, &seed)) {
				fdc_err("%s: expected fake:SEED",
					fdc_quote(cfg->device));
				return -1;
			}
			ret = fdc_fake_source_open(&e->src, seed);
			break;
		}
#endif
		ret = fdc_device_open(&e->src, cfg);
		break;
	}
	if (ret)
		return -1;
	fdc_engine_open_source(e, 0);
	/* A sealed draw's stream is read as a file of its bits would be. */
	if (cfg->user_source == FDC_USRC_FILE ||
	    cfg->user_source == FDC_USRC_STREAM)
		e->max_ahead = 1;
	e->give_back = cfg->user_source == FDC_USRC_GETRANDOM ||
		       cfg->user_source == FDC_USRC_SEED;
	/* Dijkstra's roulette rolls uniform dice only (SET_WEIGHTS refuses). */
	if (fdc_source_is_device(&e->src)) {
		u32 ext;

		if (fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_EXTRACTOR, &ext,
				     "GET_EXTRACTOR")) {
			fdc_source_close(&e->src);
			return -1;
		}
		e->no_weights = ext == FAIRDIE_EXT_DIJKSTRA;
	}
	return 0;
}

/**
 * fdc_engine_close() - close the source and free what was made ahead
 * @e: the engine
 */
void fdc_engine_close(struct fdc_engine *e)
{
	unsigned int i;

	for (i = 0; i < FDC_CACHE_SLOTS; i++) {
		free(e->cache[i].vals);
		e->cache[i].vals = NULL;
	}
	for (i = 0; i < FDC_SUM_SLOTS; i++) {
		free(e->sums[i].vals);
		fdc_wdie_free(&e->sums[i].die);
		memset(&e->sums[i], 0, sizeof(e->sums[i]));
	}
	e->hot = NULL;
	e->hot_sum = NULL;
	fdc_source_close(&e->src);
}

/*
 * More fair bits from the source into the pool. Return: 0, 1 when the
 * source has no more (nothing printed), or -1 after printing an error.
 */
static int fdc_engine_fetch(struct fdc_engine *e)
{
	u64 words[FDC_SOURCE_CHUNK_BITS / 64];
	size_t room = fd_pool_room(&e->pool) / 64 * 64, i;
	long got;

	if (room > FDC_SOURCE_CHUNK_BITS)
		room = FDC_SOURCE_CHUNK_BITS;
	got = e->src.ops->bits(&e->src, words, room);
	if (got < 0)
		return -1;
	if (!got)
		return 1;
	for (i = 0; i * 64 < (size_t)got; i++)
		fd_pool_put(&e->pool, words[i],
			    got - i * 64 < 64 ? got - i * 64 : 64);
	e->bits_read += got;
	return 0;
}

static void fdc_engine_ran_out(const struct fdc_engine *e)
{
	fdc_err("%s: the random source ran out after %llu bits (this run needs more)",
		e->src.name, (unsigned long long)e->bits_read);
}

/* More fair bits from the source into the pool; running out is an error. */
static int fdc_engine_refill(struct fdc_engine *e)
{
	int ret = fdc_engine_fetch(e);

	if (ret > 0)
		fdc_engine_ran_out(e);
	return ret ? -1 : 0;
}

/*
 * The source has no more bits: @n rolls of @sides from what the state and
 * the pool still hold, one exact step at a time. The sampler tops its
 * state up to many more bits than a roll needs, which would be lost here:
 * any state of at least @sides values still gives exact rolls, so a file
 * of 64 bits gives about 24 d6, not one.
 */
static int fdc_engine_last_rolls(struct fdc_engine *e, u64 sides, u64 *out,
				 size_t n)
{
	struct fd_sampler *s = &e->sampler;

	if (s->sides != sides || s->batch_bits) {
		s->batch_bits = 0;
		fd_sampler_set_sides(s, sides);
	}
	while (n) {
		while (e->pool.count && fd_sampler_wants(s, 2)) {
			fd_sampler_absorb(s, fd_pool_take(&e->pool, 1), 2);
			s->bits++;
		}
		if (!s->ndigits && s->m < sides) {
			fdc_engine_ran_out(e);
			return -1;
		}
		if (fd_sampler_try(s, out)) {
			out++;
			n--;
		}
	}
	return 0;
}

/* Rolls made ahead are staged in the binary format, this much at a time. */
#define FDC_STAGE_BYTES		8192

/*
 * Make @n rolls of @sides: by the source itself, or by the sampler from
 * the source's bits, many at a time with the module's fill functions.
 */
static int fdc_engine_make(struct fdc_engine *e, u64 sides, u64 *out,
			   size_t n)
{
	struct fd_sampler *s = &e->sampler;
	unsigned int width = fd_roll_width(sides);
	u8 stage[FDC_STAGE_BYTES];
	unsigned int batch_bits;
	size_t chunk, i;
	int dry = 0;
	u32 made;

	if (e->own_dice)
		return e->src.ops->rolls(&e->src, sides, out, n);
	if (sides == 1) {
		memset(out, 0, n * sizeof(*out));
		return 0;
	}
	/*
	 * The recycled state is kept: it serves any die. A lone roll is one
	 * exact step on the die itself; many are made in batches, as the
	 * module makes them. Batches of a die whose size changes at every roll
	 * (a shuffle's draws) would only be split again, and a die too wide
	 * for batches of two would run two states, of which a change of sides
	 * may drop one: both waste bits when the sides keep changing.
	 */
	batch_bits = n == 1 ? 0 : e->batch_bits;
	if (s->sides != sides || s->batch_bits != batch_bits) {
		s->batch_bits = batch_bits;
		fd_sampler_set_sides(s, sides);
	}
	if (n == 1) {
		while (!fd_sampler_roll(s, &e->pool, out)) {
			dry = fdc_engine_fetch(e);
			if (dry < 0)
				return -1;
			if (dry)
				return fdc_engine_last_rolls(e, sides, out, 1);
		}
		return 0;
	}
	while (n) {
		chunk = n < FDC_STAGE_BYTES / width ? n : FDC_STAGE_BYTES / width;
		for (made = 0; made < chunk; ) {
			made += fd_sampler_fill_rolls(s, &e->pool,
						      stage + made * width,
						      chunk - made, width);
			if (made < chunk) {
				dry = fdc_engine_fetch(e);
				if (dry < 0)
					return -1;
				if (dry)
					break;
			}
		}
		if (width == 1) {
			for (i = 0; i < made; i++)
				out[i] = stage[i];
		} else {
			for (i = 0; i < made; i++)
				out[i] = fd_get_roll(stage + i * width, width);
		}
		out += made;
		n -= made;
		if (dry > 0)
			return fdc_engine_last_rolls(e, sides, out, n);
	}
	return 0;
}

static struct fdc_cache *fdc_cache_slot(struct fdc_engine *e, u64 sides)
{
	struct fdc_cache *c, *victim = &e->cache[0];
	unsigned int i;

	e->tick++;
	for (i = 0; i < FDC_CACHE_SLOTS; i++) {
		c = &e->cache[i];
		if (c->sides == sides) {
			c->last_use = e->tick;
			return c;
		}
		if (c->last_use < victim->last_use)
			victim = c;
	}
	victim->sides = sides;
	victim->pos = 0;
	victim->len = 0;
	victim->ahead = 0;
	victim->last_use = e->tick;
	return victim;
}

/**
 * fdc_engine_rolls_slow() - fdc_engine_rolls() when the last slot used
 *	cannot serve the call
 * @e: the engine
 * @sides: the number of faces, at least 1
 * @out: the rolls, each in [0, @sides)
 * @n: how many
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_engine_rolls_slow(struct fdc_engine *e, u64 sides, u64 *out,
			  size_t n)
{
	struct fdc_cache *c;
	size_t take, want;

	if (!sides) {
		fdc_err("%s: a die needs at least one side", e->src.name);
		return -1;
	}
	c = fdc_cache_slot(e, sides);
	e->hot = c;
	take = c->len - c->pos < n ? c->len - c->pos : n;
	if (take) {
		memcpy(out, c->vals + c->pos, take * sizeof(*out));
		c->pos += take;
		out += take;
		n -= take;
		e->rolls += take;
		if (!n)
			return 0;
	}

	/* Big requests, and all of them without read-ahead, go straight. */
	if (n >= e->max_ahead) {
		if (fdc_engine_make(e, sides, out, n))
			return -1;
		e->rolls += n;
		return 0;
	}
	if (!c->vals) {
		c->vals = malloc(FDC_CACHE_MAX * sizeof(*c->vals));
		if (!c->vals) {
			fdc_err("out of memory");
			return -1;
		}
	}
	want = n > c->ahead ? n : c->ahead;
	if (want > e->max_ahead)
		want = e->max_ahead;
	if (fdc_engine_make(e, sides, c->vals, want))
		return -1;
	memcpy(out, c->vals, n * sizeof(*out));
	c->pos = n;
	c->len = want;
	e->rolls += n;
	/* This size is asked for again and again: make more ahead. */
	c->ahead = c->ahead ? 2 * c->ahead : 16;
	if (c->ahead > e->max_ahead)
		c->ahead = e->max_ahead;
	return 0;
}

/**
 * fdc_engine_draw() - one roll of a die with @sides faces, made alone
 * @e: the engine
 * @sides: the number of faces, at least 1; it may change from call to call
 * @out: the roll, in [0, @sides)
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_engine_draw(struct fdc_engine *e, u64 sides, u64 *out)
{
	if (!sides) {
		fdc_err("%s: a die needs at least one side", e->src.name);
		return -1;
	}
	if (sides == 1)
		*out = 0;
	else if (fdc_engine_make(e, sides, out, 1))
		return -1;
	e->rolls++;
	return 0;
}

/**
 * fdc_engine_give_back() - return to the sampler's state a uniform value
 *	a draw made but its caller did not need
 * @e: the engine
 * @u: the value, uniform on [0, @c) and independent of everything the
 *	caller does with the draw (a reservoir's draw beyond its size, say)
 * @c: the number of values it could take
 *
 * The state Z, uniform on [0, M) and independent of every roll, becomes
 * Z @c + @u, uniform on [0, M @c): the next draws need that much fewer
 * fresh bits. When the state is not a lone 64-bit one with room for @c
 * more, or the source rolls its own dice, @u is dropped, which is as
 * exact. Only when @e->give_back.
 */
void fdc_engine_give_back(struct fdc_engine *e, u64 u, u64 c)
{
	struct fd_sampler *s = &e->sampler;

	if (!e->give_back || e->own_dice || c < 2 || u >= c || s->large ||
	    s->ndigits || s->m2 > 1 || s->m > ~0ULL / c)
		return;
	s->z = s->z * c + u;
	s->m *= c;
}

/**
 * fdc_engine_bits_used() - the fair bits the engine's sampler took
 * @e: the engine
 *
 * Return: the bits the sampler absorbed into its state or used as they
 * are; 0 for a source that rolls its own dice (the device counts them:
 * FAIRDIE_IOC_GET_STATS).
 */
u64 fdc_engine_bits_used(const struct fdc_engine *e)
{
	return e->own_dice ? 0 : e->sampler.bits;
}

/**
 * fdc_engine_bits_held() - the fair bits the sampler's state still holds
 * @e: the engine
 *
 * The state is uniform on [0, M) (and on a second state's [0, M2), and on
 * the digits of a batch not handed out yet): it holds log2 of the number of
 * values it can take, fair bits taken in but not spent, which the next
 * draws use. fdc_engine_bits_used() less this is what the draws so far
 * cost, rejections included.
 *
 * Return: the bits held, 0 for a source that rolls its own dice.
 */
double fdc_engine_bits_held(const struct fdc_engine *e)
{
	const struct fd_sampler *s = &e->sampler;
	double held;

	if (e->own_dice)
		return 0;
	held = log2((double)s->m) + log2((double)s->m2);
	if (s->ndigits)
		held += s->ndigits * log2((double)s->sides);
	return held;
}

/**
 * fdc_wdie_init() - check integer weights and make a loaded die of them
 * @d: the die
 * @weights: the weights, copied
 * @count: how many, 1..FD_WEIGHTS_MAX_FACES
 *
 * Return: 0, or -1 after printing a one-line error (no faces, too many,
 * all weights zero, a sum above 2^64 - 1, out of memory).
 */
int fdc_wdie_init(struct fdc_wdie *d, const u64 *weights, u32 count)
{
	memset(d, 0, sizeof(*d));
	if (!count || count > FD_WEIGHTS_MAX_FACES) {
		fdc_err("weights: %u faces: from 1 to %u", count,
			FD_WEIGHTS_MAX_FACES);
		return -1;
	}
	d->weights = malloc(count * sizeof(*d->weights));
	d->table = calloc(fd_weights_table_words(count), sizeof(*d->table));
	if (!d->weights || !d->table) {
		fdc_err("out of memory");
		fdc_wdie_free(d);
		return -1;
	}
	memcpy(d->weights, weights, count * sizeof(*weights));
	memcpy(d->table + 1, weights, count * sizeof(*weights));
	if (fd_weights_init(&d->w, d->table, count)) {
		fdc_err("weights: they must add up to at least 1 and at most 2^64-1");
		fdc_wdie_free(d);
		return -1;
	}
	d->count = count;
	d->total = d->w.total;
	return 0;
}

/**
 * fdc_wdie_free() - free what fdc_wdie_init() took
 * @d: the die
 */
void fdc_wdie_free(struct fdc_wdie *d)
{
	free(d->weights);
	free(d->table);
	d->weights = NULL;
	d->table = NULL;
}

/*
 * A die that rolls itself and is not the device (the test double): a
 * uniform X on [0, W) falls in face f's interval [c_f, c_f + w_f) with
 * probability exactly w_f / W.
 */
static int fdc_engine_weighted_inverse(struct fdc_engine *e,
				       const struct fdc_wdie *d, u64 *out,
				       size_t n)
{
	u64 x;
	size_t i;
	u32 f;

	for (i = 0; i < n; i++) {
		if (e->src.ops->rolls(&e->src, d->total, &x, 1))
			return -1;
		for (f = 0; d->w.cum[f + 1] <= x; f++)
			;
		out[i] = f;
	}
	return 0;
}

/**
 * fdc_engine_weighted() - @n draws of a loaded die
 * @e: the engine
 * @d: the die
 * @out: the faces, each in [0, @d->count), of positive weight
 * @n: how many
 *
 * Each face comes with probability exactly its weight over the total,
 * independent of every other roll and draw. The device draws them itself
 * (FAIRDIE_IOC_SET_WEIGHTS); for a source of bits the module's weighted
 * sampler (driver/fd_weights.c) draws them from the engine's recycled
 * state, at the entropy of the weights. Nothing is made ahead.
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_engine_weighted(struct fdc_engine *e, const struct fdc_wdie *d,
			u64 *out, size_t n)
{
	struct fd_sampler *s = &e->sampler;
	unsigned int width = fd_roll_width(d->count);
	u8 stage[FDC_STAGE_BYTES];
	size_t chunk, i;
	u32 made;
	int ret;

	if (fdc_source_is_device(&e->src)) {
		struct fairdie_weights arg = {
			.weights = (uintptr_t)d->weights, .count = d->count,
		};

		if (fdc_device_ioctl(&e->src, FAIRDIE_IOC_SET_WEIGHTS, &arg,
				     "SET_WEIGHTS"))
			return -1;
		/* Its faces until the next SET_SIDES, which the next roll makes. */
		e->src.sides = d->count;
		ret = e->src.ops->rolls(&e->src, d->count, out, n);
		e->src.sides = 0;
		for (i = 0; !ret && i < n; i++) {
			if (!d->weights[out[i]]) {
				fdc_err("%s: the device drew face %llu, of weight 0",
					e->src.name, (unsigned long long)out[i] + 1);
				ret = -1;
			}
		}
		e->rolls += n;
		return ret;
	}
	if (e->own_dice) {
		e->rolls += n;
		return fdc_engine_weighted_inverse(e, d, out, n);
	}
	fd_weights_attach(&d->w, s);
	while (n) {
		chunk = n < FDC_STAGE_BYTES / width ? n : FDC_STAGE_BYTES / width;
		for (made = 0; made < chunk; ) {
			made += fd_weights_fill(&d->w, s, &e->pool,
						stage + made * width,
						chunk - made, width);
			if (made < chunk && fdc_engine_refill(e))
				return -1;
		}
		for (i = 0; i < chunk; i++)
			out[i] = fd_get_roll(stage + i * width, width);
		out += chunk;
		n -= chunk;
		e->rolls += chunk;
	}
	/* The state stays; the sampler is a plain die of W sides again. */
	fd_sampler_set_sides(s, d->total);
	return 0;
}

/* ---------------------------------------------------------------------
 * Totals of dice, drawn whole
 */

/**
 * fdc_sum_fits() - whether the total of @count dice of @sides faces is
 *	drawn whole by fdc_engine_sums()
 * @count: the dice
 * @sides: their faces
 *
 * Return: true for at least two dice of at least two faces whose
 * @sides^@count outcomes fit in 64 bits, with at most FD_WEIGHTS_MAX_FACES
 * totals; those beyond are rolled die by die.
 */
bool fdc_sum_fits(u64 count, u64 sides)
{
	u64 total = 1, i;

	if (count < 2 || sides < 2 ||
	    (sides - 1) > (FD_WEIGHTS_MAX_FACES - 1) / count)
		return false;
	for (i = 0; i < count; i++) {
		if (total > ~0ULL / sides)
			return false;
		total *= sides;
	}
	return true;
}

/**
 * fdc_sum_weights() - the number of ways @count dice of @sides faces make
 *	each total
 * @count: the dice, with fdc_sum_fits(@count, @sides)
 * @sides: their faces
 * @w: @count (@sides - 1) + 1 words: @w[t] is the number of sequences of
 *	faces 0 .. @sides - 1 adding up to t
 *
 * The convolution of @count uniform dice, one die at a time, in integers:
 * each count is at most @sides^@count, which fits.
 */
void fdc_sum_weights(u64 count, u64 sides, u64 *w)
{
	u64 faces = count * (sides - 1) + 1, n, t, top, win, old;

	memset(w, 0, faces * sizeof(*w));
	w[0] = 1;
	/*
	 * Die n: w'[t] = w[t - sides + 1] + ... + w[t], for t from the top
	 * down, in place: the window slides down, and the values it still
	 * needs lie below the one written.
	 */
	for (n = 1; n <= count; n++) {
		top = n * (sides - 1);
		win = 0;
		for (t = top - (sides - 1); t <= top; t++)
			win += w[t];
		for (t = top;; t--) {
			old = w[t];
			w[t] = win;
			win -= old;
			if (t >= sides)
				win += w[t - sides];
			if (!t)
				break;
		}
	}
}

/* The slot of (@count, @sides), its table built when it is new. */
static struct fdc_sum *fdc_sum_slot(struct fdc_engine *e, u64 count,
				    u64 sides)
{
	struct fdc_sum *c, *victim = &e->sums[0];
	u64 *w;
	u32 faces = (u32)(count * (sides - 1) + 1);
	unsigned int i;
	int ret;

	e->tick++;
	for (i = 0; i < FDC_SUM_SLOTS; i++) {
		c = &e->sums[i];
		if (c->count == count && c->sides == sides) {
			c->last_use = e->tick;
			return c;
		}
		if (c->last_use < victim->last_use)
			victim = c;
	}
	/* What was made ahead for the slot's old dice is lost. */
	fdc_wdie_free(&victim->die);
	victim->count = 0;
	victim->pos = 0;
	victim->len = 0;
	victim->ahead = 0;
	w = malloc(faces * sizeof(*w));
	if (!w) {
		fdc_err("out of memory");
		return NULL;
	}
	fdc_sum_weights(count, sides, w);
	ret = fdc_wdie_init(&victim->die, w, faces);
	free(w);
	if (ret)
		return NULL;
	victim->count = count;
	victim->sides = sides;
	victim->last_use = e->tick;
	return victim;
}

/**
 * fdc_engine_sums_slow() - fdc_engine_sums() when the last slot used
 *	cannot serve the call
 * @e: the engine
 * @count: the dice, with fdc_sum_fits(@count, @sides)
 * @sides: their faces
 * @out: the totals, faces counted from 0
 * @n: how many
 *
 * Return: 0, or -1 after printing a one-line error.
 */
int fdc_engine_sums_slow(struct fdc_engine *e, u64 count, u64 sides,
			 u64 *out, size_t n)
{
	struct fdc_sum *c;
	size_t take, want;

	if (!fdc_sum_fits(count, sides)) {
		fdc_err("%llud%llu: too many totals to draw whole",
			(unsigned long long)count, (unsigned long long)sides);
		return -1;
	}
	if (e->no_weights) {
		u64 dice[64], i;

		/* count <= 63: sides^count < 2^64 with sides >= 2 */
		for (; n; n--, out++) {
			if (fdc_engine_rolls(e, sides, dice, count))
				return -1;
			for (*out = 0, i = 0; i < count; i++)
				*out += dice[i];
			/* One total handed out, not @count rolls. */
			e->rolls -= count - 1;
		}
		return 0;
	}
	c = fdc_sum_slot(e, count, sides);
	e->hot_sum = c;
	if (!c)
		return -1;
	take = c->len - c->pos < n ? c->len - c->pos : n;
	if (take) {
		memcpy(out, c->vals + c->pos, take * sizeof(*out));
		c->pos += take;
		out += take;
		n -= take;
		e->rolls += take;
		if (!n)
			return 0;
	}
	/* Big requests, and all of them without read-ahead, go straight. */
	if (n >= e->max_ahead)
		return fdc_engine_weighted(e, &c->die, out, n);
	if (!c->vals) {
		c->vals = malloc(FDC_CACHE_MAX * sizeof(*c->vals));
		if (!c->vals) {
			fdc_err("out of memory");
			return -1;
		}
	}
	want = n > c->ahead ? n : c->ahead;
	if (want > e->max_ahead)
		want = e->max_ahead;
	c->pos = 0;
	c->len = 0;
	if (fdc_engine_weighted(e, &c->die, c->vals, want))
		return -1;
	/* fdc_engine_weighted() counted them all: only @n are handed out. */
	e->rolls -= want - n;
	memcpy(out, c->vals, n * sizeof(*out));
	c->pos = n;
	c->len = want;
	c->ahead = c->ahead ? 2 * c->ahead : 16;
	if (c->ahead > e->max_ahead)
		c->ahead = e->max_ahead;
	return 0;
}

/**
 * fdc_engine_cost() - the fair bits the draws so far took
 * @e: the engine
 * @bits: the fair bits the sampler took: the engine's for a source of
 *	bits, the device's (FAIRDIE_IOC_GET_STATS) for the device
 * @made: the rolls and draws they made, those made ahead and not handed
 *	out included
 *
 * Return: 0; 1 when the source does not count them (the test double's die
 * that rolls itself); -1 after printing a one-line error.
 */
int fdc_engine_cost(struct fdc_engine *e, u64 *bits, u64 *made)
{
	unsigned int i;

	if (fdc_source_is_device(&e->src)) {
		struct fairdie_stats st;

		memset(&st, 0, sizeof(st));
		if (fdc_device_ioctl(&e->src, FAIRDIE_IOC_GET_STATS, &st,
				     "GET_STATS"))
			return -1;
		*bits = st.sampler_bits;
		*made = st.outputs;
		return 0;
	}
	if (e->own_dice)
		return 1;
	*bits = e->sampler.bits;
	*made = e->rolls;
	for (i = 0; i < FDC_CACHE_SLOTS; i++)
		*made += e->cache[i].len - e->cache[i].pos;
	for (i = 0; i < FDC_SUM_SLOTS; i++)
		*made += e->sums[i].len - e->sums[i].pos;
	return 0;
}
