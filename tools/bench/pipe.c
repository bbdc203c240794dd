// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the read path of driver/main.c, built in userspace.
 *
 * The rolls come from driver/fd_pipe.c, the module's own pipeline; this
 * file only stages them in the binary format as fairdie_stage() does. A
 * file given a well reads through it (bench_well.c, driver/fd_well.c), as the
 * module's files of RDSEED and RDRAND do, and asks it for what a read needs;
 * closing it gives its unused bits back. What differs from the module is
 * what cannot exist here: no file lock, no signals,
 * no copy_to_user() (a memcpy() instead), no global counters, and no
 * shortcut that fills the stage straight from get_random_bytes() for CRNG,
 * NONE and 256 sides (the host bench never reads the CRNG through it).
 */

#include <errno.h>

#include "pipe.h"

/* The bench's sources always block, and nothing interrupts them. */
static int bench_word(void *ctx, bool nonblock, u64 *w)
{
	struct bench_pipe *f = ctx;

	(void)nonblock;
	return f->src->word(f->src, w);
}

static bool bench_interrupted(void *ctx)
{
	(void)ctx;
	return false;
}

static const struct fd_source_ops bench_source_ops = {
	.word = bench_word,
	.interrupted = bench_interrupted,
};

/* fairdie_well_fill_file() */
static int bench_well_fill_file(void *ctx, bool nonblock, struct fd_pipe *p)
{
	struct bench_pipe *f = ctx;

	(void)nonblock;
	return bench_well_fill(f->well, &f->client, &bench_source_ops, f, p);
}

static const struct fd_source_ops bench_well_ops = {
	.fill = bench_well_fill_file,
};

/* fairdie_ops(): where the file's pipeline takes its bits */
static const struct fd_source_ops *bench_ops(struct bench_pipe *f)
{
	return f->well ? &bench_well_ops : &bench_source_ops;
}

/**
 * bench_pipe_open() - what fairdie_open() and the ioctls set up
 * @f: the file
 * @src: its source
 * @sides: number of faces
 * @extractor: FAIRDIE_EXT_NONE, FAIRDIE_EXT_VN or FAIRDIE_EXT_PERES
 * @well: the well of @src and @extractor to read through (made by
 *	bench_well_new() with the same extractor), or NULL
 *
 * With a well, the health tests, the start-up test and the extractor are
 * the well's (shared): the file keeps its sampler and what a read takes.
 */
void bench_pipe_open(struct bench_pipe *f, struct bench_src *src, u64 sides,
		     u32 extractor, struct bench_well *well)
{
	memset(f, 0, sizeof(*f));
	f->src = src;
	f->well = well;
	if (!well)
		f->pipe.peres = &f->peres;
	f->width = fd_roll_width(sides);
	fd_pipe_configure(&f->pipe, sides, extractor);
	if (well) {
		fd_pipe_restart(&f->pipe, 1, 2, false, false);
		bench_well_join(well, &f->client);
	} else {
		fd_pipe_restart(&f->pipe, 1, 2, src->tested, true);
	}
}

/**
 * bench_pipe_close() - what fairdie_release() does with the bits
 * @f: the file
 *
 * What the file did not use serves the next reader of its well.
 */
void bench_pipe_close(struct bench_pipe *f)
{
	if (f->well)
		bench_well_giveback(f->well, &f->client, &f->pipe);
}

/* fairdie_stage(), binary format, with fairdie_stage_words() */
static int bench_stage(struct bench_pipe *f, size_t want)
{
	size_t room = sizeof(f->stage);
	u64 v, made = 0;
	int err = 0;

	f->stage_pos = 0;
	f->stage_len = 0;
	/* A short read takes little from the well that others share. */
	if (f->well)
		fd_pipe_set_demand(&f->pipe, 8ULL * (want < room ? want : room));
	if (want < room)
		room = want;
	room = room / f->width * f->width;
	if (f->pipe.sampler.pow2_bits == 8 * f->width) {
		while (!err && f->stage_len + sizeof(v) <= room) {
			err = fd_pipe_fair64(&f->pipe, bench_ops(f), f,
					     false, &v);
			if (err)
				break;
			memcpy(f->stage + f->stage_len, &v, sizeof(v));
			f->stage_len += sizeof(v);
			made += sizeof(v) / f->width;
		}
	}
	if (f->stage_len < room) {
		u32 n;

		err = fd_pipe_fill(&f->pipe, bench_ops(f), f, false,
				   f->stage + f->stage_len,
				   (room - f->stage_len) / f->width, &n);
		f->stage_len += n * f->width;
		made += n;
	}
	while (!err && f->stage_len < room) {
		err = fd_pipe_roll(&f->pipe, bench_ops(f), f, false, &v);
		if (err)
			break;
		made++;
		fd_put_roll(f->stage + f->stage_len, v, f->width);
		f->stage_len += f->width;
	}
	f->outputs += made;
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

	if (f->pipe.failed)
		return -EIO;
	if (len % f->width)
		return -EINVAL;

	while (done < len) {
		size_t n;

		if (f->stage_pos == f->stage_len) {
			err = bench_stage(f, len - done);
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
	if (f->well)
		bench_well_end_read(f->well, &f->client);
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
	return f->pipe.sampler.bits;
}

/**
 * bench_pipe_set_sides() - what FAIRDIE_IOC_SET_SIDES does
 * @f: the file
 * @sides: the new number of faces, supported by its extractor
 *
 * The pipeline keeps its bits in flight; staged rolls of the old die go.
 */
void bench_pipe_set_sides(struct bench_pipe *f, u64 sides)
{
	fd_pipe_set_sides(&f->pipe, sides);
	f->width = fd_roll_width(sides);
	f->stage_pos = 0;
	f->stage_len = 0;
}

/**
 * bench_pipe_set_weights() - what FAIRDIE_IOC_SET_WEIGHTS does
 * @f: the file, with an extractor other than DIJKSTRA
 * @w: the weighted die, the caller's until the file is closed
 *
 * As bench_pipe_set_sides(): the bits in flight serve the weighted draws.
 */
void bench_pipe_set_weights(struct bench_pipe *f, const struct fd_weights *w)
{
	fd_pipe_set_weights(&f->pipe, w);
	f->width = fd_roll_width(w->count);
	f->stage_pos = 0;
	f->stage_len = 0;
}
