// SPDX-License-Identifier: GPL-2.0
/*
 * Proofs for the sampler's fast paths (driver/fd_sampler.c): division by a
 * precomputed reciprocal, rolls in batches of sides^k split into digits,
 * wide dice (plain and dual), fd_sampler_fill() and fd_sampler_fill_rolls(),
 * and the state kept across a change of sides.
 *
 *   recip       fd_recip_div() equals / and % for every divisor 2..2000
 *               and dividends 0..4999 and the top 5000 of 2^64, around
 *               every multiple near the top, and random 64-bit divisors
 *               and dividends; the digit division of fd_sampler_pop()
 *               (rounded-up reciprocal, no correction) for every n in
 *               2..300 on x < 2^16 and the top 2^16 below 2^64 / n, and
 *               for random n up to 2^32 and x < 2^64 / n
 *   digits      fd_sampler_pop() splits every x < n^k (n^k <= 2^16) into
 *               k digits in [0, n) that give x back: a bijection from
 *               [0, n^k) onto [0, n)^k, so the digits of a uniform batch
 *               are independent uniform rolls
 *   serial      the batched sampler against a bit-serial reference written
 *               here with plain 128-bit division, which rolls the batch die
 *               sides^k one bit at a time: the batched rolls are the
 *               reference's rolls in base sides, least significant digit
 *               first, on every bit string of 16 bits (small precisions)
 *               and on random streams of 2^20 bits at the default
 *               precision and batch (2^48), for n from 3 to 2^32 - 1
 *   fill        fd_sampler_fill() makes the same bytes as fd_sampler_roll()
 *               (powers of two included)
 *   spell       the digits fd_sampler_fill() writes for an accepted batch
 *               v (one multiplication each, from a fixed-point v / n^k)
 *               are v's base-n digits, least significant first: for every
 *               n in 3..255 that is not a power of two, every v of batches
 *               up to 2^12, and at batches up to 2^20, 2^32 and 2^48 (the
 *               default) the first and last 2000 v, every multiple of a
 *               power n^j with its neighbours for a few multiples, and
 *               random v
 *   divide      fd_frac_divide() gives Z div N and a fraction f of
 *               v = Z mod N with 2^64 v < f N < 2^64 (v + 1), the bound
 *               fd_frac_digit() needs, for every batch N of every n in
 *               3..255 that is not a power of two and of 300 random n up
 *               to 2^24, at batches up to 2^12, 2^20, 2^32 and 2^48: Z
 *               around the first, second and last multiples of N below
 *               2^64, 2^64 - 1, and random Z
 *   fill-rolls  fd_sampler_fill_rolls() makes the rolls of fd_sampler_roll()
 *               stored by fd_put_roll(), with the same bits and states, for
 *               batched, dual and plain dice of every width, small ones
 *               included, with a pool that runs dry anywhere; and across
 *               random changes of sides among every kind of die (the
 *               state kept wider than 64 bits at times)
 *   modes       which dice roll in batches, dual or plain at the defaults
 *   joint       exhaustive over grouped states, as in test_sampler.c: the
 *               whole state (z, m, pending digits) after every bit string,
 *               rolls of alternating sides with fd_sampler_set_sides()
 *               between them (batched, pending digits folded back), and
 *               at every depth, for every roll and kept state, each face
 *               of that roll's die reached by the same number of strings:
 *               the rolls are independent and uniform across changes of
 *               sides, at every stopping depth
 *   switch      random changes among 64-bit, 128-bit, power-of-two and
 *               one-sided dice at the default precisions: rolls in range,
 *               valid states, every bit counted
 */
#include "fd_test.h"
#include "fd_sampler.h"
#include "fd_roll.h"

static u64 rng = 0xb47c4;

/* ------------------------------------------------------------------ */
/* recip                                                               */

static void recip_one(u64 x, u64 d, u64 r, unsigned long *bad)
{
	u64 rem, q = fd_recip_div(x, d, r, &rem);

	if (q != x / d || rem != x % d) {
		if (!*bad)
			CHECK(false, "recip: %llu / %llu gave %llu rem %llu", x, d,
			      q, rem);
		(*bad)++;
	}
}

static void test_recip(void)
{
	unsigned long bad = 0, bad_pop = 0, tried = 0;
	u64 d, x, i, q;

	for (d = 2; d <= 2000; d++) {
		u64 r = fd_recip(d), top = ~0ULL - ~0ULL % d;

		for (x = 0; x < 5000; x++) {
			recip_one(x, d, r, &bad);
			recip_one(~0ULL - x, d, r, &bad);
		}
		/* Around the multiples of d just below 2^64. */
		for (i = 0; i < 200 && top >= i * d + 1; i++) {
			recip_one(top - i * d, d, r, &bad);
			recip_one(top - i * d - 1, d, r, &bad);
		}
		tried += 10000 + 400;
	}
	for (i = 0; i < 1000000; i++) {
		unsigned int sh = fd_test_below(&rng, 63);

		d = (fd_test_rand(&rng) >> sh) | 2;
		if (i & 1)
			d &= ~1ULL;
		recip_one(fd_test_rand(&rng), d, fd_recip(d), &bad);
		recip_one(d * (fd_test_rand(&rng) % (~0ULL / d + 1)), d,
			  fd_recip(d), &bad);
		tried += 2;
	}
	CHECK(!bad, "recip: %lu of %lu divisions wrong", bad, tried);

	/* The digit division: every x < 2^64 / n is exact. */
	for (d = 2; d <= 300; d++) {
		u64 c = fd_recip_up(d), top = ~0ULL / d, rem;

		for (x = 0; x < 65536; x++) {
			q = fd_recip_div_small(x, d, c, &rem);
			bad_pop += q != x / d || rem != x % d;
			q = fd_recip_div_small(top - x, d, c, &rem);
			bad_pop += q != (top - x) / d || rem != (top - x) % d;
		}
	}
	for (i = 0; i < 2000000; i++) {
		u64 rem;

		d = 2 + fd_test_below(&rng, i & 1 ? 1000 : 0xfffffffeULL);
		if (i % 7 == 0)
			d = 0xffffffffULL - fd_test_below(&rng, 8);
		x = fd_test_below(&rng, ~0ULL / d);
		if (i % 5 == 0)
			x = ~0ULL / d - fd_test_below(&rng, 1000);
		q = fd_recip_div_small(x, d, fd_recip_up(d), &rem);
		bad_pop += q != x / d || rem != x % d;
	}
	/* And through fd_sampler_pop() itself. */
	for (d = 3; d <= 1000; d++) {
		struct fd_sampler s;

		fd_sampler_init(&s, d, true);
		for (i = 0; i < 1000; i++) {
			x = fd_test_below(&rng, s.batch);
			s.digits = x;
			s.ndigits = 1;
			bad_pop += fd_sampler_pop(&s) != x % d || s.digits != x / d;
		}
	}
	CHECK(!bad_pop, "recip: %lu digit divisions wrong", bad_pop);
	NOTE("recip: %lu divisions by reciprocal and 42 million digit divisions checked",
	     tried);
}

/* ------------------------------------------------------------------ */
/* digits                                                              */

static void test_digits_bijection(void)
{
	unsigned long checked = 0;
	u64 n;

	for (n = 2; n <= 256; n++) {
		struct fd_sampler s;
		u64 b, x;
		unsigned int k, i;

		fd_sampler_init_batch(&s, n, 63, 0);
		for (k = 1, b = n; b * n <= 65536; k++)
			b *= n;
		/* Distinct x give distinct digit tuples: x comes back. */
		for (x = 0; x < b; x++) {
			u64 back = 0, pw = 1, d;

			s.digits = x;
			s.ndigits = k;
			for (i = 0; i < k; i++) {
				d = fd_sampler_pop(&s);
				if (d >= n)
					break;
				back += d * pw;
				pw *= n;
			}
			if (i != k || back != x || s.digits || s.ndigits) {
				CHECK(false, "digits n = %llu k = %u: %llu does not split",
				      n, k, x);
				return;
			}
			checked++;
		}
	}
	CHECK(checked, "digits: nothing checked");
	NOTE("digits: %lu batches split into digits and back", checked);
}

/* ------------------------------------------------------------------ */
/* serial: the batched sampler against a bit-serial reference          */

/*
 * The reference: recycling, one bit at a time, plain division. A dual die
 * has two such states taking turns, and takes Q = floor(M floor(2^64 / n)
 * / 2^64) (M div n or one less); a plain die takes k bits at a time and
 * keeps them when they are below n.
 */
struct ref {
	fd_u128 z[2], m[2], target;
	u64 n, recip;
	unsigned int turn, plain, have;
	u64 x;
	bool dual;
};

static void ref_init(struct ref *r, u64 n, unsigned int precision,
		     const struct fd_sampler *s)
{
	u64 rem;

	memset(r, 0, sizeof(*r));
	r->m[0] = r->m[1] = 1;
	r->target = (fd_u128)1 << precision;
	r->n = n;
	r->dual = s->dual;
	r->plain = s->plain_bits;
	r->recip = fd_div128((fd_u128)1 << 64, n, &rem);
}

/* Feed one bit; true and *out when a roll completes (then call again). */
static bool ref_bit(struct ref *r, int bit, u64 *out)
{
	unsigned int t = r->turn;

	if (r->plain) {
		if (bit < 0)
			return false;
		r->x |= (u64)bit << r->have;
		if (++r->have < r->plain)
			return false;
		*out = r->x;
		r->x = 0;
		r->have = 0;
		return *out < r->n;
	}
	if (bit >= 0 && r->m[t] < r->target) {
		r->z[t] += r->m[t] * (unsigned int)bit;
		r->m[t] *= 2;
	}
	while (r->m[t] >= r->target) {
		fd_u128 q = r->m[t] / r->n;

		if (r->dual)
			q = (r->m[t] * r->recip) >> 64;
		if (r->z[t] < q * r->n) {
			*out = r->z[t] % r->n;
			r->z[t] /= r->n;
			r->m[t] = q;
			r->turn ^= r->dual;
			return true;
		}
		r->z[t] -= q * r->n;
		r->m[t] -= q * r->n;
	}
	return false;
}

/* The batch die of fd_sampler_init_batch(). */
static u64 batch_die(u64 n, unsigned int bits, unsigned int *k)
{
	u64 b = n;

	*k = 1;
	if (!bits || !(n & (n - 1)))
		return n;
	while (b <= (1ULL << bits) / n && b <= ~0ULL / n / n) {
		b *= n;
		(*k)++;
	}
	return b;
}

/*
 * Roll from the @len bits of @bits (bit i of the stream is bit i % 64 of
 * bits[i / 64]) with both; compare everything both made.
 */
static bool serial_one(u64 n, unsigned int precision, unsigned int bbits,
		       bool plain, const u64 *bits, u64 len,
		       unsigned long *rolls)
{
	static struct fd_pool pool;
	static u64 want[1 << 16];
	struct fd_sampler s;
	struct ref r;
	unsigned int k, i;
	u64 b = batch_die(n, bbits, &k), v, nwant = 0, got = 0, pos;

	fd_sampler_init_batch(&s, n, precision, bbits);
	if (plain) {
		/* Any die may roll plainly: only efficiency needs the gap. */
		s.plain_bits = fls64(n);
		s.dual = false;
		s.batch_len = 1;
		s.batch = n;
		b = n;
		k = 1;
	}
	ref_init(&r, b, precision, &s);
	fd_pool_clear(&pool);
	for (pos = 0; pos < len; pos++) {
		int bit = (bits[pos / 64] >> (pos % 64)) & 1;
		bool first = true;

		/* Room for a batch of up to 64 digits. */
		if (nwant + 64 > ARRAY_SIZE(want)) {
			memmove(want, want + got, (nwant - got) * sizeof(*want));
			nwant -= got;
			got = 0;
		}

		while (ref_bit(&r, first ? bit : -1, &v)) {
			for (i = 0; i < k; i++) {
				want[nwant++] = v % n;
				v /= n;
			}
			first = false;
		}
		fd_pool_put(&pool, bit, 1);
		while (got < nwant && fd_sampler_roll(&s, &pool, &v)) {
			(*rolls)++;
			if (v != want[got])
				return CHECK(false, "serial n = %llu P = %u B = %u: roll %llu is %llu, reference %llu",
					     n, precision, bbits, got, v, want[got]);
			got++;
		}
		if (got == nwant && fd_sampler_roll(&s, &pool, &v))
			return CHECK(false, "serial n = %llu P = %u B = %u: a roll the reference has not made",
				     n, precision, bbits);
	}
	if (got != nwant || s.bits != len - pool.count)
		return CHECK(false, "serial n = %llu: %llu rolls of %llu, bits %llu of %llu",
			     n, got, nwant, s.bits, len);
	return true;
}

static void test_serial(void)
{
	static const u64 big[] = {
		3, 5, 6, 7, 10, 37, 100, 255, 1000, 65537, (1ULL << 24) - 3,
		(1ULL << 24) + 1, 1000000007, (1ULL << 31) + 1, 3000000019ULL,
		4294967291ULL, 0xffffffffULL, (1ULL << 32) - (1ULL << 16),
		(1ULL << 32) - (1ULL << 16) - 1, (1ULL << 25) - 512,
		(1ULL << 25) - 513,
	};
	static u64 stream[(1 << 20) / 64];
	unsigned long rolls = 0, strings = 0;
	unsigned int i, p, bb;
	u64 n, x;

	/* Every string of 16 bits, small precisions and batches. */
	for (n = 3; n <= 40; n++) {
		if (!(n & (n - 1)))
			continue;
		for (p = fls64(n); p <= fls64(n) + 4; p++) {
			for (bb = fls64(n); bb <= p && bb <= 12; bb += 2) {
				for (x = 0; x < 65536; x++) {
					u64 w = x;

					if (!serial_one(n, p, bb, false, &w, 16,
							&rolls) ||
					    !serial_one(n, p, bb, true, &w, 16,
							&rolls))
						return;
					strings++;
				}
			}
		}
	}
	CHECK(strings, "serial: nothing checked");
	NOTE("serial: %lu strings of 16 bits, %lu rolls, all equal to the reference",
	     strings, rolls);
	/* Random long streams at the defaults. */
	for (i = 0; i < ARRAY_SIZE(big); i++) {
		for (x = 0; x < ARRAY_SIZE(stream); x++)
			stream[x] = fd_test_rand(&rng);
		rolls = 0;
		if (!serial_one(big[i], 63, FD_SAMPLER_BATCH_BITS, false,
				stream, 64 * ARRAY_SIZE(stream), &rolls))
			return;
		CHECK(rolls > (1 << 20) / 64, "serial n = %llu: %lu rolls",
		      big[i], rolls);
		NOTE("serial: n = %llu: %lu rolls from 2^20 bits equal to the reference",
		     big[i], rolls);
	}
}

/* ------------------------------------------------------------------ */
/* fill                                                                */

/* Word @i of a fixed stream. */
static u64 fill_word(u64 i)
{
	u64 x = 0x9e3779b97f4a7c15ULL * (i + 1);

	return fd_test_rand(&x);
}

static void test_fill(void)
{
	static const u64 ns[] = { 2, 3, 4, 6, 7, 8, 10, 16, 37, 100, 128, 129,
				  255, 256 };
	static struct fd_pool pa, pb;
	static u8 a[200000], b[200000];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		struct fd_sampler sa, sb;
		u64 wa = 0, wb = 0, v;
		u32 na = 0, nb = 0, ask, got;

		fd_sampler_init(&sa, ns[i], true);
		fd_sampler_init(&sb, ns[i], true);
		fd_pool_clear(&pa);
		fd_pool_clear(&pb);
		/* Random sizes asked; a word added whenever the pool ran dry. */
		while (na < sizeof(a)) {
			ask = 1 + fd_test_below(&rng, 300);
			if (ask > sizeof(a) - na)
				ask = sizeof(a) - na;
			got = fd_sampler_fill(&sa, &pa, a + na, ask);
			na += got;
			if (got < ask)
				fd_pool_put(&pa, fill_word(wa++), 64);
		}
		while (nb < sizeof(b)) {
			if (fd_sampler_roll(&sb, &pb, &v))
				b[nb++] = v;
			else
				fd_pool_put(&pb, fill_word(wb++), 64);
		}
		CHECK(!memcmp(a, b, sizeof(a)) && sa.bits == sb.bits,
		      "fill n = %llu: fd_sampler_fill() and fd_sampler_roll() differ",
		      ns[i]);
	}
}

/* ------------------------------------------------------------------ */
/* spell                                                               */

/*
 * The digits fd_sampler_fill() writes for a batch v: a state z = v with M
 * at its target accepts at once (v < n^k <= M - M mod n^k) and rolls v.
 * Counts a wrong digit, or a batch not written whole, in *@bad.
 */
static void spell_one(struct fd_sampler *s, u64 v, unsigned long *bad)
{
	static struct fd_pool empty;
	u8 got[64];
	u32 i, made;
	u64 x = v;

	s->z = v;
	s->m = 1ULL << s->precision;
	s->digits = 0;
	s->ndigits = 0;
	made = fd_sampler_fill(s, &empty, got, s->batch_len);
	if (made != s->batch_len || s->ndigits) {
		++*bad;
		return;
	}
	for (i = 0; i < made; i++, x /= s->sides)
		if (got[i] != x % s->sides) {
			++*bad;
			return;
		}
}

static void test_spell(void)
{
	static const unsigned int bbs[] = { 12, 20, 32, FD_SAMPLER_BATCH_BITS };
	unsigned long bad = 0, tried = 0, configs = 0;
	unsigned int b, j;
	u64 n, v, k, pw;

	for (n = 3; n <= 255; n++) {
		if (!(n & (n - 1)))
			continue;
		for (b = 0; b < ARRAY_SIZE(bbs); b++) {
			struct fd_sampler s;
			u64 big;

			fd_sampler_init_batch(&s, n, FD_SAMPLER_PRECISION_SMALL,
					      bbs[b]);
			if (s.batch_len < 2)
				continue;
			configs++;
			big = s.batch;
			if (bbs[b] <= 12) {
				for (v = 0; v < big; v++, tried++)
					spell_one(&s, v, &bad);
				continue;
			}
			for (v = 0; v < 2000; v++, tried += 2) {
				spell_one(&s, v, &bad);
				spell_one(&s, big - 1 - v, &bad);
			}
			for (j = 1, pw = n; j < s.batch_len; j++, pw *= n)
				for (k = 1; k < n && k < 8; k++) {
					spell_one(&s, k * pw - 1, &bad);
					spell_one(&s, k * pw, &bad);
					spell_one(&s, k * pw + 1, &bad);
					spell_one(&s, big - k * pw, &bad);
					tried += 4;
				}
			for (v = 0; v < 2000; v++, tried++)
				spell_one(&s, fd_test_below(&rng, big), &bad);
		}
	}
	NOTE("spell: %lu configurations, %lu batches", configs, tried);
	CHECK(!bad, "spell: %lu batches whose digits are not those of v", bad);
}

/* ------------------------------------------------------------------ */
/* divide                                                              */

/* One Z against plain division; counts a wrong quotient or fraction. */
static void divide_one(const struct fd_sampler *s, u64 z, unsigned long *bad)
{
	u64 f, q = fd_frac_divide(s, z, &f), v = z % s->batch;
	fd_u128 fn = (fd_u128)f * s->batch;

	if (q != z / s->batch || fn <= (fd_u128)v << 64 ||
	    fn >= (fd_u128)(v + 1) << 64)
		++*bad;
}

static void divide_config(u64 n, unsigned int bb, unsigned long *configs,
			  unsigned long *tried, unsigned long *bad)
{
	static const u64 near[] = { 0, 1, 2 };
	struct fd_sampler s;
	u64 top, z, k, i, j;

	fd_sampler_init_batch(&s, n, FD_SAMPLER_PRECISION_SMALL, bb);
	if (s.batch_len < 2)
		return;
	++*configs;
	top = ~0ULL / s.batch;
	for (i = 0; i < ARRAY_SIZE(near); i++) {
		for (j = 0; j < 2; j++) {
			k = j ? top - near[i] : near[i] + 1;
			z = k * s.batch;
			divide_one(&s, z, bad);
			divide_one(&s, z - 1, bad);
			divide_one(&s, z + 1, bad);
			divide_one(&s, z + s.batch - 1, bad);
			*tried += 4;
		}
	}
	divide_one(&s, ~0ULL, bad);
	for (i = 0; i < 200; i++, ++*tried)
		divide_one(&s, fd_test_rand(&rng), bad);
}

static void test_divide(void)
{
	static const unsigned int bbs[] = { 12, 20, 32, FD_SAMPLER_BATCH_BITS };
	unsigned long bad = 0, tried = 0, configs = 0;
	unsigned int b, i;
	u64 n;

	for (b = 0; b < ARRAY_SIZE(bbs); b++) {
		for (n = 3; n <= 255; n++)
			if (n & (n - 1))
				divide_config(n, bbs[b], &configs, &tried, &bad);
		for (i = 0; i < 300; i++) {
			n = 257 + fd_test_below(&rng, (1ULL << 24) - 257);
			if (n & (n - 1))
				divide_config(n, bbs[b], &configs, &tried, &bad);
		}
	}
	NOTE("divide: %lu configurations, %lu values of Z", configs, tried);
	CHECK(!bad, "divide: %lu values of Z with a wrong quotient or fraction",
	      bad);
}

/*
 * fd_sampler_fill_rolls() against fd_sampler_roll() stored by fd_put_roll(),
 * for every kind of die and width: dual and plain dice at the defaults and
 * small ones (B = 4, P = 8, and plain forced), the pairs of the dual loop
 * cut at every place by random counts and a pool that runs dry.
 */
static void test_fill_rolls(void)
{
	static const struct { u64 n; unsigned int p, b; bool plain; } dice[] = {
		{ 5, 8, 4, false }, { 7, 9, 4, false }, { 5, 8, 4, true },
		{ 6, 9, 6, false }, { 3, 12, 12, false }, { 10, 12, 12, false },
		{ 7, 14, 14, false }, { 6, 63, 48, false }, { 255, 63, 48, false },
		{ 1000, 20, 8, false }, { (1ULL << 31) + 1, 63, 48, true },
		{ (1ULL << 32) - (1ULL << 16), 63, 48, false },
		{ 6, 8, 8, true }, { 37, 9, 6, false }, { 100, 63, 48, false },
		{ 1000, 63, 48, false }, { 3000000, 63, 48, false },
		{ 1000000007, 63, 48, false }, { 3000000019ULL, 63, 48, false },
		{ 4294967291ULL, 63, 48, false }, { 0xffffffffULL, 63, 48, false },
		{ 1ULL << 32, 63, 48, false }, { (1ULL << 33) + 1, 127, 0, false },
		{ 0xffffffffffffffffULL, 127, 0, false },
	};
	static struct fd_pool pa, pb;
	static u8 a[60000], b[60000];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		u32 w = fd_roll_width(dice[i].n), na = 0, nb = 0, ask, got, c;
		struct fd_sampler sa, sb;
		u64 pos = 0, wb = 0, v, x;

		fd_sampler_init_batch(&sa, dice[i].n, dice[i].p, dice[i].b);
		if (dice[i].plain) {
			sa.plain_bits = fls64(dice[i].n);
			sa.dual = false;
			sa.batch_len = 1;
			sa.batch = dice[i].n;
		}
		sb = sa;
		fd_pool_clear(&pa);
		fd_pool_clear(&pb);
		while (na < sizeof(a) / w) {
			ask = 1 + fd_test_below(&rng, 40);
			if (ask > sizeof(a) / w - na)
				ask = sizeof(a) / w - na;
			got = fd_sampler_fill_rolls(&sa, &pa, a + na * w, ask, w);
			na += got;
			if (got == ask)
				continue;
			/* The same stream, in pieces of 1 to 64 bits. */
			c = 1 + fd_test_below(&rng, 64);
			x = fill_word(pos / 64) >> (pos % 64);
			if (pos % 64)
				x |= fill_word(pos / 64 + 1) << (64 - pos % 64);
			fd_pool_put(&pa, x, c);
			pos += c;
		}
		while (nb < sizeof(b) / w) {
			if (fd_sampler_roll(&sb, &pb, &v))
				fd_put_roll(b + nb++ * w, v, w);
			else
				fd_pool_put(&pb, fill_word(wb++), 64);
		}
		CHECK(!memcmp(a, b, sizeof(a) / w * w) && sa.bits == sb.bits &&
		      sa.z == sb.z && sa.m == sb.m && sa.z2 == sb.z2 &&
		      sa.m2 == sb.m2 && sa.turn == sb.turn,
		      "fill-rolls n = %llu (width %u): fd_sampler_fill_rolls() and fd_sampler_roll() differ",
		      dice[i].n, w);
	}
}

/* Stream bits [@pos, @pos + @c) of fill_word(), @c <= 64. */
static u64 stream_bits(u64 pos, unsigned int c)
{
	u64 x = fill_word(pos / 64) >> (pos % 64);

	if (pos % 64)
		x |= fill_word(pos / 64 + 1) << (64 - pos % 64);
	return c == 64 ? x : x & ((1ULL << c) - 1);
}

/*
 * fd_sampler_fill_rolls() against fd_sampler_roll() across changes of
 * sides among every kind of die: batched, dual, plain, powers of two, one
 * side and 128-bit ones, so that the state kept is at times wider than 64
 * bits and the second state of a dual die is kept or joined. Same bytes,
 * bits and states after every run of rolls.
 */
static void test_fill_switch(void)
{
	static const u64 mix[] = {
		3000000, 1000000007, 6, 3000000019ULL, 4294967291ULL, 100,
		(1ULL << 40) + 1, 1000, 256, 1ULL << 20, 1, 2642246,
		0xffffffffffffffffULL, 37,
	};
	static struct fd_pool pa, pb;
	static u8 a[200 * 8], b[200 * 8];
	unsigned long wide = 0, i;
	struct fd_sampler sa, sb;
	u64 pos = 0, wb = 0, v, seed = 99;

	fd_sampler_init(&sa, mix[0], true);
	sb = sa;
	fd_pool_clear(&pa);
	fd_pool_clear(&pb);
	for (i = 0; i < 4000; i++) {
		u64 n = mix[fd_test_below(&seed, ARRAY_SIZE(mix))];
		u32 w = fd_roll_width(n), all = 1 + fd_test_below(&seed, 200);
		u32 na = 0, nb = 0, ask, got, c;

		if (i) {
			fd_sampler_set_sides(&sa, n);
			fd_sampler_set_sides(&sb, n);
		}
		wide += sa.large;
		while (na < all) {
			ask = 1 + fd_test_below(&seed, 40);
			if (ask > all - na)
				ask = all - na;
			got = fd_sampler_fill_rolls(&sa, &pa, a + na * w, ask, w);
			na += got;
			if (got < ask) {
				c = 1 + fd_test_below(&seed, 64);
				fd_pool_put(&pa, stream_bits(pos, c), c);
				pos += c;
			}
		}
		while (nb < all) {
			if (fd_sampler_roll(&sb, &pb, &v))
				fd_put_roll(b + nb++ * w, v, w);
			else
				fd_pool_put(&pb, fill_word(wb++), 64);
		}
		if (memcmp(a, b, all * w) || sa.bits != sb.bits ||
		    sa.z != sb.z || sa.m != sb.m || sa.z2 != sb.z2 ||
		    sa.m2 != sb.m2 || sa.turn != sb.turn ||
		    sa.large != sb.large) {
			CHECK(false, "fill-switch: run %lu (d%llu) differs", i, n);
			return;
		}
	}
	CHECK(wide > 100, "fill-switch: only %lu runs began with a 128-bit state",
	      wide);
	NOTE("fill-switch: 4000 runs of rolls across changes of sides, %lu of them from a 128-bit state",
	     wide);
}

/* Which dice take which road, at the defaults. */
static void test_modes(void)
{
	static const struct { u64 n; int mode; } dice[] = {
		/* 0 batched, 1 dual, 2 plain */
		{ 6, 0 }, { 2642245, 0 }, { 2642246, 1 }, { (1ULL << 24) + 1, 1 },
		{ 1000000007, 1 }, { (1ULL << 31) + 1, 1 },
		{ (1ULL << 25) - 512, 2 }, { (1ULL << 25) - 513, 1 },
		{ (1ULL << 32) - (1ULL << 16), 2 },
		{ (1ULL << 32) - (1ULL << 16) - 1, 1 }, { 4294967291ULL, 2 },
		{ 0xffffffffULL, 2 },
	};
	struct fd_sampler s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dice); i++) {
		int mode;

		fd_sampler_init(&s, dice[i].n, true);
		mode = s.plain_bits ? 2 : s.dual ? 1 : 0;
		CHECK(mode == dice[i].mode && (mode || s.batch_len > 1),
		      "modes: d%llu takes road %d, not %d", dice[i].n, mode,
		      dice[i].mode);
	}
}

/* ------------------------------------------------------------------ */
/* joint: rolls across changes of sides, exhaustively                  */

/* A live state: the whole sampler, the roll it is on, and its weight. */
struct jnode {
	struct fd_sampler s;
	u32 stage;
	u64 count;
};

/* What the enumeration groups by: the roll a state is on, and the state. */
struct jkey {
	u32 stage, ndigits, turn;
	u64 z, m, digits, z2, m2;
};

static void jkey_of(struct jkey *k, u32 stage, const struct fd_sampler *s)
{
	k->stage = stage;
	k->ndigits = s->ndigits;
	k->turn = s->turn;
	k->z = s->z;
	k->m = s->m;
	k->digits = s->digits;
	k->z2 = s->z2;
	k->m2 = s->m2;
}

/* A completed roll: its face, the state it left, the weight. */
struct jacc {
	struct jkey key;
	u64 face;
	u64 count;
};

#define JCMP(a, b)	do { if ((a) != (b)) return (a) < (b) ? -1 : 1; } while (0)

static int jkey_cmp(const struct jkey *a, const struct jkey *b)
{
	JCMP(a->stage, b->stage);
	JCMP(a->z, b->z);
	JCMP(a->m, b->m);
	JCMP(a->digits, b->digits);
	JCMP(a->ndigits, b->ndigits);
	JCMP(a->z2, b->z2);
	JCMP(a->m2, b->m2);
	JCMP(a->turn, b->turn);
	return 0;
}

static int jnode_cmp(const void *pa, const void *pb)
{
	const struct jnode *a = pa, *b = pb;
	struct jkey ka, kb;

	jkey_of(&ka, a->stage, &a->s);
	jkey_of(&kb, b->stage, &b->s);
	return jkey_cmp(&ka, &kb);
}

static int jacc_cmp(const void *pa, const void *pb)
{
	const struct jacc *a = pa, *b = pb;
	int c = jkey_cmp(&a->key, &b->key);

	if (c)
		return c;
	JCMP(a->face, b->face);
	return 0;
}

struct jrun {
	const u64 *sides;	/* die of roll r: sides[r % nsides] */
	unsigned int nsides, rolls, depth;
	struct jnode *cur, *next;
	size_t ncur, nnext, capcur, cap;
	struct jacc *acc;
	size_t nacc, capacc;
	u64 done;		/* weight of strings that made every roll */
	bool ok;
};

static void *jgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need * 2;
	p = realloc(p, *cap * size);
	if (!p)
		abort();
	return p;
}

static void jrecord(struct jrun *j, u32 stage, u64 face,
		    const struct fd_sampler *s, u64 count)
{
	struct jacc *a;

	j->acc = jgrow(j->acc, &j->capacc, j->nacc + 1, sizeof(*j->acc));
	a = &j->acc[j->nacc++];
	jkey_of(&a->key, stage, s);
	a->face = face;
	a->count = count;
}

/* Feed bit @x to node @v: rolls go to the record, the state to next. */
static void jstep(struct jrun *j, const struct jnode *v, int x)
{
	static struct fd_pool pool;
	struct fd_sampler s = v->s;
	u32 stage = v->stage;
	u64 out;

	fd_pool_clear(&pool);
	fd_pool_put(&pool, x, 1);
	while (fd_sampler_roll(&s, &pool, &out)) {
		if (out >= j->sides[stage % j->nsides]) {
			j->ok = CHECK(false, "joint: face %llu of a d%llu", out,
				      j->sides[stage % j->nsides]);
			return;
		}
		jrecord(j, stage, out, &s, v->count);
		if (++stage == j->rolls) {
			j->done += v->count;
			return;
		}
		fd_sampler_set_sides(&s, j->sides[stage % j->nsides]);
	}
	if (pool.count || s.z >= s.m || s.z2 >= s.m2) {
		j->ok = CHECK(false, "joint: a bit left in the pool or a bad state");
		return;
	}
	s.bits = 0;
	j->next = jgrow(j->next, &j->cap, j->nnext + 1, sizeof(*j->next));
	j->next[j->nnext].s = s;
	j->next[j->nnext].stage = stage;
	j->next[j->nnext++].count = v->count;
}

/* Every face of the roll's die once per (stage, kept state), same weight. */
static void jcheck(struct jrun *j)
{
	size_t i, e, k;

	if (!j->nacc)
		return;
	qsort(j->acc, j->nacc, sizeof(*j->acc), jacc_cmp);
	for (i = 0, k = 0; i < j->nacc; i++) {
		if (k && !jacc_cmp(&j->acc[k - 1], &j->acc[i]))
			j->acc[k - 1].count += j->acc[i].count;
		else
			j->acc[k++] = j->acc[i];
	}
	j->nacc = k;
	for (i = 0; i < j->nacc; i = e) {
		const struct jkey *k = &j->acc[i].key;
		u64 n = j->sides[k->stage % j->nsides];

		for (e = i; e < j->nacc && !jkey_cmp(&j->acc[e].key, k); e++)
			if (j->acc[e].face != e - i ||
			    j->acc[e].count != j->acc[i].count)
				break;
		if (e - i != n) {
			j->ok = CHECK(false, "joint: depth %u roll %u (d%llu): kept state (%llu, %llu, %llu/%u) reached by %zu faces or unequal weights",
				      j->depth, k->stage + 1, n, k->z, k->m,
				      k->digits, k->ndigits, e - i);
			return;
		}
	}
	j->nacc = 0;
}

static void joint_run(const u64 *sides, unsigned int nsides,
		      unsigned int rolls, unsigned int precision,
		      unsigned int bbits, unsigned int max_depth)
{
	struct jrun j = { .sides = sides, .nsides = nsides, .rolls = rolls,
			  .ok = true };
	size_t i, k, peak = 0;
	struct jnode *t;

	j.cur = jgrow(NULL, &j.capcur, 1, sizeof(*j.cur));
	fd_sampler_init_batch(&j.cur[0].s, sides[0], precision, bbits);
	j.cur[0].stage = 0;
	j.cur[0].count = 1;
	j.ncur = 1;
	for (j.depth = 1; j.depth <= max_depth && j.ok && j.ncur; j.depth++) {
		size_t c;

		j.nnext = 0;
		for (i = 0; i < j.ncur && j.ok; i++) {
			jstep(&j, &j.cur[i], 0);
			jstep(&j, &j.cur[i], 1);
		}
		if (!j.ok)
			break;
		jcheck(&j);
		qsort(j.next, j.nnext, sizeof(*j.next), jnode_cmp);
		for (i = 0, k = 0; i < j.nnext; i++) {
			if (k && !jnode_cmp(&j.next[k - 1], &j.next[i]))
				j.next[k - 1].count += j.next[i].count;
			else
				j.next[k++] = j.next[i];
		}
		j.nnext = k;
		if (k > peak)
			peak = k;
		t = j.cur;
		j.cur = j.next;
		j.next = t;
		c = j.capcur;
		j.capcur = j.cap;
		j.cap = c;
		j.ncur = j.nnext;
	}
	if (j.ok)
		CHECK(j.done > 0, "joint: no string made all %u rolls", rolls);
	NOTE("joint: d%llu/d%llu%s: %u rolls, P = %u, batch 2^%u: exact to depth %u, %zu states at most, %.6f of the mass made every roll",
	     sides[0], sides[1 % nsides], nsides > 2 ? "/..." : "", rolls,
	     precision, bbits, j.depth - 1, peak,
	     j.done / (double)(1ULL << (j.depth - 1)));
	free(j.cur);
	free(j.next);
	free(j.acc);
}

static void test_joint(void)
{
	static const u64 d6d100[] = { 6, 100 };
	static const u64 d3d5[] = { 3, 5 };
	static const u64 d10d7[] = { 10, 7 };
	static const u64 mix[] = { 3, 2, 1, 6, 2, 5 };
	static const u64 d5d7[] = { 5, 7 };
	static const u64 d5[] = { 5 };
	static const u64 d6d37[] = { 6, 37 };

	joint_run(d6d100, 2, 4, 9, 6, 26);
	joint_run(d6d100, 2, 4, 12, 12, 24);
	joint_run(d3d5, 2, 5, 7, 5, 26);
	joint_run(d10d7, 2, 4, 9, 7, 26);
	joint_run(mix, 6, 6, 8, 5, 26);
	/*
	 * Dual dice (no batch of two fits 2^B): two states take turns; at a
	 * change of sides the second is kept for a dual die and joins the
	 * first for any other. d5 and d7 with B = 4 are both dual; d37 with
	 * B = 6 is dual and d6 batched.
	 */
	joint_run(d5d7, 2, 5, 7, 4, 26);
	joint_run(d5, 1, 6, 7, 4, 26);
	joint_run(d6d37, 2, 4, 9, 6, 26);
}

/*
 * Changes of sides across every kind of die at the default precisions: the
 * 64-bit batched state, powers of two, one side, and the 128-bit state
 * (and back to 64 bits once it fits): rolls in range, the state valid,
 * every bit taken counted, and no roll stuck.
 */
static void test_switch_widths(void)
{
	static const u64 sides[] = {
		6, 0xffffffffffffffffULL, 100, (1ULL << 33) + 1, 1, 4294967291ULL,
		256, (1ULL << 63) + 1, 3, 1ULL << 40, 37, 1000000007, 3000000,
	};
	static struct fd_pool pool;
	unsigned long bad = 0, stuck = 0, i, put = 0;
	struct fd_sampler s;
	u64 v, seed = 77;

	fd_sampler_init(&s, sides[0], true);
	fd_pool_clear(&pool);
	for (i = 0; i < 300000; i++) {
		u64 n = sides[fd_test_below(&seed, ARRAY_SIZE(sides))];
		unsigned int refills = 0;

		fd_sampler_set_sides(&s, n);
		while (!fd_sampler_roll(&s, &pool, &v)) {
			if (++refills > 64) {
				stuck++;
				break;
			}
			fd_pool_put(&pool, fd_test_rand(&seed), 64);
			put += 64;
		}
		bad += v >= n || s.z >= s.m || (!s.large && (s.m >> 64)) ||
		       s.z2 >= s.m2;
	}
	CHECK(!bad && !stuck && s.bits == put - pool.count,
	      "switch: %lu bad rolls or states, %lu stuck, bits %llu of %lu",
	      bad, stuck, s.bits, put - pool.count);
}

int main(void)
{
	double t0 = fd_test_now();

	test_recip();
	test_digits_bijection();
	test_serial();
	test_fill();
	test_spell();
	test_divide();
	test_fill_rolls();
	test_fill_switch();
	test_modes();
	test_joint();
	test_switch_widths();
	NOTE("%.1f cpu s", fd_test_now() - t0);
	return fd_check_summary();
}
