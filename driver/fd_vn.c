// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - von Neumann's extractor, a byte (four pairs) at a time.
 */

#include "fd_vn.h"

/* Pair value (first bit in bit 0): 1 = "10" gives 1, 2 = "01" gives 0. */
#define VN_KEEP(p)	((p) == 1 || (p) == 2)
#define VN_BIT(p)	((p) == 1)
#define VN_P(x, i)	(((x) >> (2 * (i))) & 3)
#define VN_N1(x)	VN_KEEP(VN_P(x, 0))
#define VN_N2(x)	(VN_N1(x) + VN_KEEP(VN_P(x, 1)))
#define VN_N3(x)	(VN_N2(x) + VN_KEEP(VN_P(x, 2)))
#define VN_N4(x)	(VN_N3(x) + VN_KEEP(VN_P(x, 3)))
#define VN_VAL(x)	(VN_BIT(VN_P(x, 0)) |			\
			 (VN_BIT(VN_P(x, 1)) << VN_N1(x)) |	\
			 (VN_BIT(VN_P(x, 2)) << VN_N2(x)) |	\
			 (VN_BIT(VN_P(x, 3)) << VN_N3(x)))
/* Table entry: output bits in bits 0-3, their count in bits 4-6. */
#define VN_E(x)		((u8)(VN_VAL(x) | (VN_N4(x) << 4)))
#define VN_E4(x)	VN_E(x), VN_E((x) + 1), VN_E((x) + 2), VN_E((x) + 3)
#define VN_E16(x)	VN_E4(x), VN_E4((x) + 4), VN_E4((x) + 8), VN_E4((x) + 12)
#define VN_E64(x)	VN_E16(x), VN_E16((x) + 16), VN_E16((x) + 32), \
			VN_E16((x) + 48)

static const u8 fd_vn_table[256] = {
	VN_E64(0), VN_E64(64), VN_E64(128), VN_E64(192)
};

/**
 * fd_vn_word() - von Neumann's extractor on 64 raw bits (32 pairs)
 * @raw: the raw bits, the first in bit 0
 * @out: receives the fair bits, the first in bit 0
 *
 * Return: the number of fair bits in *@out, 0..32.
 */
unsigned int fd_vn_word(u64 raw, u64 *out)
{
	unsigned int n = 0, i;
	u64 v = 0;

	for (i = 0; i < 8; i++) {
		u8 e = fd_vn_table[(raw >> (8 * i)) & 0xff];

		v |= (u64)(e & 0xf) << n;
		n += e >> 4;
	}
	*out = v;
	return n;
}
