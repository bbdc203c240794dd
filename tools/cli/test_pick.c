// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the engine's loaded dice (fdc_engine_weighted()), against
 * their exact law computed here on its own: every string of fair bits up
 * to a length is fed to the engine, and for every sequence of outcomes
 * the strings that made it within that length, over 2^depth, must lie
 * between its exact probability (a product of w_f / W, and 1/n for a
 * uniform roll) minus the mass of the strings that did not finish, and
 * that probability: a string that made the sequence is in its event, and
 * the event holds at most all the strings that did not finish besides.
 * Faces of weight zero never come. Then the same through the test double
 * of the device (the inverse method), and the checks of the weights.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fd_check.h"
#include "test_enum.h"

static void fdt_weighted_enumerate(const char *name, const u64 *w,
				   u32 count, unsigned int k, u64 pre,
				   unsigned int precision, unsigned int depth)
{
	u64 nout = pre ? pre : 1, s, r, i, done = 0, bad = 0, faces[8], v;
	u64 *cnt, total = 0;
	struct fdc_engine eng;
	struct fdc_wdie d;
	u8 bits[FDT_MAX_DEPTH];
	fd_u128 num, den, left;
	int saved_err, err;

	for (i = 0; i < k; i++)
		nout *= count;
	for (i = 0; i < count; i++)
		total += w[i];
	cnt = calloc(nout, sizeof(*cnt));
	if (!cnt || k > 8 || depth > FDT_MAX_DEPTH || fdc_wdie_init(&d, w, count))
		abort();
	saved_err = fd_check_stderr_off();
	for (s = 0; s < 1ULL << depth; s++) {
		for (i = 0; i < depth; i++)
			bits[i] = s >> i & 1;
		if (fdc_fake_bits_open(&eng, bits, depth, precision))
			abort();
		v = 0;
		err = pre ? fdc_engine_draw(&eng, pre, &v) : 0;
		if (!err)
			err = fdc_engine_weighted(&eng, &d, faces, k);
		fdc_engine_close(&eng);
		if (err)
			continue;
		for (i = 0, r = v; i < k; i++) {
			bad += faces[i] >= count || !w[faces[i]];
			r = r * count + faces[i];
		}
		cnt[r < nout ? r : 0]++;
		done++;
	}
	fd_check_stderr_on(saved_err);
	left = (1ULL << depth) - done;
	for (r = 0; r < nout; r++) {
		u64 x = r;

		num = 1;
		den = pre ? pre : 1;
		for (i = 0; i < k; i++) {
			num *= w[x % count];
			den *= total;
			x /= count;
		}
		/* cnt / 2^depth <= num / den <= (cnt + left) / 2^depth */
		bad += cnt[r] * den > num << depth ||
		       (cnt[r] + left) * den < num << depth;
	}
	CHECK(!bad && done >= (1ULL << depth) / 100 * 90,
	      "%s: %llu outcomes off their exact probability, %llu of 2^%u finish",
	      name, (unsigned long long)bad, (unsigned long long)done, depth);
	printf("exact: %-36s 2^%u bit strings, %5.1f%% finish, %llu outcomes\n",
	       name, depth, 100.0 * done / (1ULL << depth),
	       (unsigned long long)nout);
	fdc_wdie_free(&d);
	free(cnt);
}

static void fdt_exhaustive(void)
{
	static const u64 sum2d6[] = { 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1 };
	static const u64 zero[] = { 1, 0, 2 }, w13[] = { 1, 3 };

	fdt_weighted_enumerate("2d6's sum twice after a d3", sum2d6, 11, 2, 3,
			       8, 20);
	fdt_weighted_enumerate("(1, 0, 2) four times", zero, 3, 4, 0, 4, 20);
	fdt_weighted_enumerate("(1, 3) six times after a d5", w13, 2, 6, 5, 5,
			       20);
}

/* The test double of the device: a uniform roll of W, inverted. */
static void fdt_fake_device(void)
{
	static const u64 w[] = { 0, 1, 0, 3, 0 };
	u64 faces[4000], hist[5] = { 0 };
	struct fdc_engine eng;
	struct fdc_wdie d;
	size_t i;

	if (fdc_fake_open(&eng, 7) || fdc_wdie_init(&d, w, 5))
		abort();
	CHECK(!fdc_engine_weighted(&eng, &d, faces, 4000), "fake: draws");
	for (i = 0; i < 4000; i++)
		hist[faces[i] < 5 ? faces[i] : 0]++;
	CHECK(!hist[0] && !hist[2] && !hist[4] && hist[1] + hist[3] == 4000 &&
	      hist[1] > 800 && hist[1] < 1200,
	      "fake: faces %llu %llu %llu %llu %llu",
	      (unsigned long long)hist[0], (unsigned long long)hist[1],
	      (unsigned long long)hist[2], (unsigned long long)hist[3],
	      (unsigned long long)hist[4]);
	fdc_wdie_free(&d);
	fdc_engine_close(&eng);
}

static void fdt_wdie_checks(void)
{
	static const u64 zero[] = { 0, 0 }, over[] = { ~0ULL, 1 };
	static const u64 top[] = { ~0ULL - 1, 1 };
	struct fdc_wdie d;
	int saved_err = fd_check_stderr_off();

	CHECK(fdc_wdie_init(&d, zero, 0), "wdie: no faces accepted");
	CHECK(fdc_wdie_init(&d, zero, 2), "wdie: all zero accepted");
	CHECK(fdc_wdie_init(&d, over, 2), "wdie: a sum of 2^64 accepted");
	CHECK(fdc_wdie_init(&d, zero, FD_WEIGHTS_MAX_FACES + 1),
	      "wdie: too many faces accepted");
	fd_check_stderr_on(saved_err);
	if (CHECK(!fdc_wdie_init(&d, top, 2), "wdie: 2^64 - 1 refused")) {
		CHECK(d.total == ~0ULL && d.count == 2, "wdie: total");
		fdc_wdie_free(&d);
	}
}

int main(void)
{
	fdt_exhaustive();
	fdt_fake_device();
	fdt_wdie_checks();
	return fd_check_summary();
}
