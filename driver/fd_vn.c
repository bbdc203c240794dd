// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - von Neumann's extractor, a word (32 pairs) at a time.
 */

#include "fd_vn.h"

/**
 * fd_vn_word() - von Neumann's extractor on 64 raw bits (32 pairs)
 * @raw: the raw bits, the first in bit 0
 * @out: receives the fair bits, the first in bit 0
 *
 * Constant time: the count of fair bits is the one value computed from
 * @raw that may be branched on (it says how many pairs differ, nothing of
 * which bit each gave). A fast PEXT packs them in one instruction.
 *
 * Return: the number of fair bits in *@out, 0..32.
 */
unsigned int fd_vn_word(u64 raw, u64 *out)
{
	u64 d = (raw ^ (raw >> 1)) & 0x5555555555555555ULL;
	unsigned int n = hweight64(d);

	fd_ct_public(n);
	if (fd_fast_pext())
		*out = fd_pext(raw, d);
	else
		*out = fd_vn_pack(raw & d, d);
	return n;
}
