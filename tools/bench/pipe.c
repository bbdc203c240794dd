// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the read path of driver/main.c, built in userspace.
 *
 * Same calls, same order, same constants as the module; what differs is
 * only what cannot exist here: no lock, no signals, no copy_to_user() (a
 * memcpy() instead) and no global counters. Only the binary format, only
 * the extractors that feed the sampler (NONE, VN, PERES), and only sources
 * that deliver words one at a time (the module's shortcut that fills the
 * stage straight from get_random_bytes() for CRNG, NONE and 256 sides has
 * no equivalent here: the host bench never reads the CRNG through it).
 */

#include <errno.h>

#include "pipe.h"

/* fairdie_width() */
static u32 bench_width(u64 n)
{
	u64 max = n - 1;

	if (max <= 0xff)
		return 1;
	if (max <= 0xffff)
		return 2;
	if (max <= 0xffffffff)
		return 4;
	return 8;
}

/* fairdie_max_burst() */
static u32 bench_max_burst(u32 ext)
{
	return ext == FAIRDIE_EXT_PERES ? FD_PERES_MAX_OUT : 64;
}

/* fairdie_flush() */
static void bench_flush(struct bench_pipe *f)
{
	f->stats.sampler_bits += f->sampler.bits;
	fd_pool_clear(&f->pool);
	fd_sampler_init(&f->sampler, f->sides, true);
	fd_peres_init(&f->peres);
	f->width = bench_width(f->sides);
	f->stage_pos = 0;
	f->stage_len = 0;
}

/* fairdie_restart_source(), for a full-entropy source */
static void bench_restart_source(struct bench_pipe *f)
{
	f->failed = false;
	fd_health_init(&f->health, 1, 2, true);
	f->startup_words = FD_STARTUP_BITS / 64;
}

/**
 * bench_pipe_open() - what fairdie_open() and the ioctls set up
 * @f: the file
 * @src: its source
 * @sides: number of faces
 * @extractor: FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN or FAIRDIE_EXT_PERES
 */
void bench_pipe_open(struct bench_pipe *f, struct bench_src *src, u64 sides,
		     u32 extractor)
{
	memset(f, 0, sizeof(*f));
	f->src = src;
	f->sides = sides;
	f->extractor = extractor;
	bench_flush(f);
	bench_restart_source(f);
}

/* fairdie_raw_word() */
static int bench_raw_word(struct bench_pipe *f, u64 *w)
{
	enum fd_health_result r;
	int err;

	do {
		err = f->src->word(f->src, w);
		if (err)
			return err;
		f->stats.source_bits += 64;

		if (f->src->tested) {
			r = fd_health_word(&f->health, *w);
			if (r != FD_HEALTH_OK) {
				f->stats.health_failures++;
				f->failed = true;
				return -EIO;
			}
		}
	} while (f->startup_words && f->startup_words--);
	return 0;
}

/* fairdie_feed_word() */
static int bench_feed_word(struct bench_pipe *f)
{
	u64 w, fair;
	u32 n;
	int err;

	err = bench_raw_word(f, &w);
	if (err)
		return err;

	switch (f->extractor) {
	case FAIRDIE_EXT_VN:
		n = fd_vn_word(w, &fair);
		fd_pool_put(&f->pool, fair, n);
		break;
	case FAIRDIE_EXT_PERES:
		n = fd_peres_feed(&f->peres, w, &f->pool);
		break;
	default:
		fd_pool_put(&f->pool, w, 64);
		n = 64;
		break;
	}
	f->stats.extracted_bits += n;
	return 0;
}

/* fairdie_refill() */
static int bench_refill(struct bench_pipe *f)
{
	u32 burst = bench_max_burst(f->extractor);
	u32 before = f->pool.count;
	int err;

	do {
		if (f->extractor == FAIRDIE_EXT_PERES &&
		    fd_peres_pending(&f->peres)) {
			f->stats.extracted_bits +=
				fd_peres_drain(&f->peres, &f->pool);
			continue;
		}
		err = bench_feed_word(f);
		if (err)
			return err;
	} while (f->pool.count == before ||
		 (f->pool.count < BENCH_REFILL_BITS &&
		  fd_pool_room(&f->pool) >= burst));
	return 0;
}

/* fairdie_roll() */
static int bench_roll(struct bench_pipe *f, u64 *out)
{
	int err;

	for (;;) {
		if (fd_sampler_roll(&f->sampler, &f->pool, out))
			return 0;
		err = bench_refill(f);
		if (err)
			return err;
	}
}

/* fairdie_put_binary() */
static void bench_put_binary(u8 *dst, u64 v, u32 width)
{
	u8 v8 = v;
	u16 v16 = v;
	u32 v32 = v;

	switch (width) {
	case 1:
		memcpy(dst, &v8, 1);
		break;
	case 2:
		memcpy(dst, &v16, 2);
		break;
	case 4:
		memcpy(dst, &v32, 4);
		break;
	default:
		memcpy(dst, &v, 8);
		break;
	}
}

/* fairdie_stage_words(): whole words for 256, 65536 and 2^32 sides */
static int bench_stage_words(struct bench_pipe *f, size_t room, u64 *made)
{
	u64 w;
	int err;

	if (f->sampler.pow2_bits != 8 * f->width)
		return 0;
	while (f->stage_len + sizeof(w) <= room) {
		if (f->pool.count >= 64) {
			w = fd_pool_take(&f->pool, 64);
		} else if (f->extractor == FAIRDIE_EXT_NONE && !f->pool.count) {
			err = bench_raw_word(f, &w);
			if (err)
				return err;
			f->stats.extracted_bits += 64;
		} else {
			err = bench_refill(f);
			if (err)
				return err;
			continue;
		}
		memcpy(f->stage + f->stage_len, &w, sizeof(w));
		f->stage_len += sizeof(w);
		f->sampler.bits += 64;
		*made += sizeof(w) / f->width;
	}
	return 0;
}

/* fairdie_stage(), binary format */
static int bench_stage(struct bench_pipe *f, size_t want)
{
	size_t room = sizeof(f->stage);
	u64 v, made = 0;
	int err;

	f->stage_pos = 0;
	f->stage_len = 0;
	if (want < room)
		room = want;
	room = room / f->width * f->width;
	err = bench_stage_words(f, room, &made);
	while (!err && f->stage_len < room) {
		err = bench_roll(f, &v);
		if (err)
			break;
		made++;
		bench_put_binary(f->stage + f->stage_len, v, f->width);
		f->stage_len += f->width;
	}
	f->stats.outputs += made;
	return err;
}

/**
 * bench_pipe_read() - fairdie_read() into a userspace buffer
 * @f: the file
 * @buf: where the rolls go
 * @len: bytes wanted, a multiple of the roll width
 *
 * Return: bytes read, or a negative errno (-EIO once the health tests
 * failed, -EINVAL for a length that is not a whole number of rolls).
 */
long bench_pipe_read(struct bench_pipe *f, u8 *buf, size_t len)
{
	size_t done = 0;
	int err = 0;

	if (f->failed)
		return -EIO;
	if (len % f->width)
		return -EINVAL;

	while (done < len) {
		size_t n;

		if (f->stage_pos == f->stage_len) {
			err = bench_stage(f, len - done);
			f->stats.sampler_bits += f->sampler.bits;
			f->sampler.bits = 0;
			if (!f->stage_len)
				break;
		}
		n = len - done;
		if (n > f->stage_len - f->stage_pos)
			n = f->stage_len - f->stage_pos;
		memcpy(buf + done, f->stage + f->stage_pos, n);
		f->stage_pos += n;
		done += n;
		if (err)
			break;
	}
	return done ? (long)done : err;
}

/**
 * bench_pipe_sampler_bits() - fair bits the sampler consumed so far
 * @f: the file
 *
 * Return: what FAIRDIE_IOC_GET_STATS reports as sampler_bits.
 */
u64 bench_pipe_sampler_bits(const struct bench_pipe *f)
{
	return f->stats.sampler_bits + f->sampler.bits;
}
