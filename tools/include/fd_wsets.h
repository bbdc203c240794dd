/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the weighted dice the benchmarks measure and the efficiency
 * table prints: the sum of 2d6 (craps), the sum of 3d6, a Zipf law over
 * 1000 faces (weight round(10^6 / i) for face i) and a two-faced die
 * loaded 1 : 10^9. Their names are those of the BENCH keys
 * weights_bits_per_draw_<name> and weights_entropy_<name>.
 */
#ifndef _FAIRDIE_WSETS_H
#define _FAIRDIE_WSETS_H

#include <math.h>

#include <linux/types.h>

#define FD_WSETS	4
#define FD_WSET_MAX	1000

static const char * const fd_wset_names[FD_WSETS] = {
	"2d6", "3d6", "zipf1000", "skew1e9",
};

/**
 * fd_wset() - the weights of one of the dice
 * @which: 0 .. FD_WSETS - 1, as fd_wset_names[]
 * @w: room for FD_WSET_MAX weights
 *
 * Return: the number of faces.
 */
static inline __u32 fd_wset(unsigned int which, __u64 *w)
{
	unsigned int a, b, c;

	switch (which) {
	case 0:
	case 1:
		for (a = 0; a < 16; a++)
			w[a] = 0;
		for (a = 0; a < 6; a++)
			for (b = 0; b < 6; b++)
				for (c = 0; c < (which ? 6U : 1U); c++)
					w[a + b + c]++;
		return which ? 16 : 11;
	case 2:
		for (a = 0; a < 1000; a++)
			w[a] = (1000000 + (a + 1) / 2) / (a + 1);
		return 1000;
	default:
		w[0] = 1;
		w[1] = 1000000000;
		return 2;
	}
}

/**
 * fd_wset_entropy() - the Shannon entropy of weights, in bits
 * @w: the weights
 * @count: how many
 *
 * Return: H(w), the least fair bits per draw on average of any exact
 * sampler.
 */
static inline double fd_wset_entropy(const __u64 *w, __u32 count)
{
	double total = 0, h = 0;
	__u32 i;

	for (i = 0; i < count; i++)
		total += w[i];
	for (i = 0; i < count; i++)
		if (w[i])
			h -= w[i] / total * log2(w[i] / total);
	return h;
}

#endif /* _FAIRDIE_WSETS_H */
