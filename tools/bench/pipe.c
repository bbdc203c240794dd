// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie bench - the read path of driver/main.c, built in userspace.
 *
 * The rolls come from driver/fd_pipe.c, the module's own pipeline; this
 * file only stages them in the binary format as fairdie_stage() does. What
 * differs from the module is what cannot exist here: no lock, no signals,
 * no copy_to_user() (a memcpy() instead), no global counters, and no
 * shortcut that fills the stage straight from get_random_bytes() for CRNG,
 * NONE and 256 sides (the host bench never reads the CRNG through it).
 */

#include <errno.h>

#include "pipe.h"

/* The bench's sources always block, and nothing interrupts them. */
static int bench_word(void *ctx, bool nonblock, u64 *w)
{
	struct bench_src *src = ctx;

	(void)nonblock;
	return src->word(src, w);
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
	f->pipe.peres = &f->peres;
	f->width = fd_roll_width(sides);
	fd_pipe_configure(&f->pipe, sides, extractor);
	fd_pipe_restart(&f->pipe, 1, 2, src->tested, true);
}

/* fairdie_stage(), binary format, with fairdie_stage_words() */
static int bench_stage(struct bench_pipe *f, size_t want)
{
	size_t room = sizeof(f->stage);
	u64 v, made = 0;
	int err = 0;

	f->stage_pos = 0;
	f->stage_len = 0;
	if (want < room)
		room = want;
	room = room / f->width * f->width;
	if (f->pipe.sampler.pow2_bits == 8 * f->width) {
		while (!err && f->stage_len + sizeof(v) <= room) {
			err = fd_pipe_fair64(&f->pipe, &bench_source_ops,
					     f->src, false, &v);
			if (err)
				break;
			memcpy(f->stage + f->stage_len, &v, sizeof(v));
			f->stage_len += sizeof(v);
			made += sizeof(v) / f->width;
		}
	}
	if (f->stage_len < room) {
		u32 n;

		err = fd_pipe_fill(&f->pipe, &bench_source_ops, f->src, false,
				   f->stage + f->stage_len,
				   (room - f->stage_len) / f->width, &n);
		f->stage_len += n * f->width;
		made += n;
	}
	while (!err && f->stage_len < room) {
		err = fd_pipe_roll(&f->pipe, &bench_source_ops, f->src, false,
				   &v);
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
