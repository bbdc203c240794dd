/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - von Neumann's extractor.
 *
 * Raw bits are taken in pairs: 01 and 10 give one fair bit (the first bit of
 * the pair), 00 and 11 give nothing. For independent bits with any fixed
 * bias p both kept pairs have probability p(1 - p), so every output bit is
 * fair and the rate is p(1 - p) output bits per input bit.
 */
#ifndef _FAIRDIE_VN_H
#define _FAIRDIE_VN_H

#include "fd_shim.h"

/*
 * The first bit of each pair that differs, packed at the bottom, with
 * neither a branch nor a lookup that depends on the bits: a cache line
 * loaded, or a branch taken, would tell a co-resident process about them.
 * @v holds the first bit of each differing pair (bit 2i for pair i, 0 for
 * the others), @d one bit at bit 2i for each differing pair. The pairs are
 * packed within groups of two, then of four (each group's bits at its
 * bottom, its count beside), by shifts under masks; then the eight bytes
 * are put at their offsets, the sums of the counts before them, which one
 * multiplication gives at once. Shifts by a secret amount take the same
 * time whatever the amount.
 */
static inline u64 fd_vn_pack(u64 v, u64 d)
{
	const u64 b0 = 0x1111111111111111ULL, y0 = 0x0101010101010101ULL;
	u64 t, sel, s, off, out = 0;
	unsigned int i;

	/* Pairs of pairs: the second's bit from bit 2 down to bit c. */
	t = (v & (b0 << 2)) >> 1;
	sel = ((d & b0) ^ b0) << 1;
	t = (t & ~sel) | ((t & sel) >> 1);
	v = (v & b0) | t;
	d = (d & b0) + ((d >> 2) & b0);
	/* Bytes: the high nibble's 2 bits from bit 4 down to bit c. */
	t = (v >> 2) & (y0 * 0x0c);
	s = y0 * 2 - (d & (y0 * 0x0f));
	sel = (s & y0) * 0x0c;
	t = (t & ~sel) | ((t & sel) >> 1);
	sel = ((s >> 1) & y0) * 0x0c;
	t = (t & ~sel) | ((t & sel) >> 2);
	v = (v & (y0 * 0x03)) | t;
	d = (d & (y0 * 0x0f)) + ((d >> 4) & (y0 * 0x0f));
	/* Byte i goes to the sum of the counts of bytes 0 .. i - 1. */
	off = (d * y0) << 8;
	for (i = 0; i < 8; i++)
		out |= ((v >> (8 * i)) & 0xf) << ((off >> (8 * i)) & 0xff);
	return out;
}

unsigned int fd_vn_word(u64 raw, u64 *out);

#endif /* _FAIRDIE_VN_H */
