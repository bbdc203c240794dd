/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - exact weighted draws (a loaded die on purpose) from the
 * sampler's recycled uniform state.
 *
 * Face i of @count has integer weight w_i and probability exactly w_i / W,
 * W the sum. A draw rolls X uniform on [0, W) from the sampler's state,
 * finds the face f with c_f <= X < c_f + w_f (c_f the sum of the weights
 * before f) and gives X - c_f, uniform on [0, w_f) whatever f is, back to
 * the state, so that a draw costs H(w) bits on average instead of log2(W).
 * See Documentation/design/fairdie.rst.
 */
#ifndef _FAIRDIE_WEIGHTS_H
#define _FAIRDIE_WEIGHTS_H

#include "fd_shim.h"
#include "fd_pool.h"
#include "fd_sampler.h"

/* The most faces a weighted die may have (FAIRDIE_MAX_FACES). */
#define FD_WEIGHTS_MAX_FACES	65536

/**
 * struct fd_weights - a weighted die, its table owned by the caller
 * @total: W, the sum of the weights, 1..2^64-1
 * @count: number of faces, 1..FD_WEIGHTS_MAX_FACES
 * @first: the first face of positive weight (the only one when W is 1)
 * @guide_shift: X >> @guide_shift indexes @guide
 * @guide_mask: the bits of a @guide entry that name its face: 0xff when
 *	the entries are packed (FD_WEIGHTS_PACKED_W), else all ones
 * @cum: @count + 1 cumulative sums, @cum[0] = 0 .. @cum[@count] = W
 * @guide: for bucket b, the first face f with @cum[f + 1] > b << shift:
 *	the search for X starts there and never goes back
 */
struct fd_weights {
	u64 total;
	u32 count;
	u32 first;
	u32 guide_shift;
	u32 guide_mask;
	u64 *cum;
	u32 *guide;
};

/*
 * A die of at most 256 faces whose guide has an entry for every X (a
 * shift of 0, W at most 1024) has packed entries: the face f in bits 0-7,
 * its weight w_f (1..1024) in bits 8-18 and X - c_f (0..1023) in bits
 * 19-28, all that a byte-wide draw needs from one load.
 */
#define FD_WEIGHTS_PACKED_W	8
#define FD_WEIGHTS_PACKED_L	19

size_t fd_weights_table_words(u32 count);
int fd_weights_init(struct fd_weights *w, u64 *table, u32 count);
u64 fd_weights_weight(const struct fd_weights *w, u32 face);
void fd_weights_attach(const struct fd_weights *w, struct fd_sampler *s);
bool fd_weights_draw(const struct fd_weights *w, struct fd_sampler *s,
		     struct fd_pool *fair, u64 *face);
u32 fd_weights_fill(const struct fd_weights *w, struct fd_sampler *s,
		    struct fd_pool *fair, u8 *dst, u32 count, u32 width);

#endif /* _FAIRDIE_WEIGHTS_H */
