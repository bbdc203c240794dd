// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie tool - the statistical tests of 'fairdie certify' (see stats.h).
 *
 * The tests follow TAOCP vol. 2, 3.3.2 (frequency, serial, gap, poker,
 * coupon collector, permutation, runs, serial correlation), NIST SP 800-22
 * rev. 1a 2.6 (discrete Fourier transform) and Wald and Wolfowitz (runs
 * above and below a cut). The expected cell probabilities are exact; a
 * chi-square statistic's p-value is the chi-square survival function of
 * fd_chi2.h, in closed form for integer degrees of freedom, so the only
 * approximation is the one every such test makes: that Pearson's
 * statistic follows the chi-square law (cells are merged until each
 * expects at least 5). Tests with a normal statistic say so.
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fd_chi2.h"
#include "stats.h"

/* Cells are merged until each expects at least this many. */
#define FDC_MIN_EXPECT	5.0

/**
 * fdc_chi2_sf() - P(X > @x) for X chi-square with @df degrees of freedom
 * @x: the statistic
 * @df: degrees of freedom, at least 1
 *
 * Closed form for integer @df (Abramowitz and Stegun 26.4.4 and 26.4.5),
 * terms in the log domain; accurate to about 1e-13 relative in the tests.
 *
 * Return: the p-value.
 */
double fdc_chi2_sf(double x, unsigned int df)
{
	double p = fd_chi2_sf(x, df);

	return p > 1 ? 1 : p;
}

/**
 * fdc_normal_2sided() - P(|Z| >= |@z|) for a standard normal Z
 * @z: the statistic
 *
 * Return: erfc(|z| / sqrt 2).
 */
double fdc_normal_2sided(double z)
{
	return erfc(fabs(z) / M_SQRT2);
}

/*
 * Kolmogorov's limiting distribution, Q(l) = P(sup |B| > l) for a Brownian
 * bridge B: 2 sum (-1)^(j-1) exp(-2 j^2 l^2), or for small l its Jacobi
 * transform 1 - sqrt(2 pi) / l sum exp(-(2j-1)^2 pi^2 / (8 l^2)).
 */
static double fdc_kolmogorov_q(double l)
{
	double sum = 0;
	int j;

	if (l <= 0)
		return 1;
	if (l < 1.18) {
		for (j = 1; j <= 8; j++)
			sum += exp(-(2 * j - 1) * (2 * j - 1) * M_PI * M_PI /
				   (8 * l * l));
		sum = 1 - sqrt(2 * M_PI) / l * sum;
	} else {
		for (j = 1; j <= 8; j++)
			sum += (j % 2 ? 2 : -2) * exp(-2.0 * j * j * l * l);
	}
	return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

/**
 * fdc_kolmogorov_sf() - the p-value of a Kolmogorov-Smirnov distance
 * @d: the largest distance between the empirical and the true CDF
 * @n: the sample size
 *
 * Stephens' approximation (1970): Q((sqrt n + 0.12 + 0.11 / sqrt n) d),
 * with Q Kolmogorov's limiting law; within about 1% for n >= 5.
 *
 * Return: the p-value.
 */
double fdc_kolmogorov_sf(double d, size_t n)
{
	double rn = sqrt((double)n);

	if (!n)
		return NAN;
	return fdc_kolmogorov_q((rn + 0.12 + 0.11 / rn) * d);
}

static int fdc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/**
 * fdc_ks_uniform() - the Kolmogorov-Smirnov test that p-values are uniform
 * @p: the p-values (NaNs are left out); the array is sorted in place
 * @n: how many
 * @d: receives the distance
 *
 * Return: the p-value of fdc_kolmogorov_sf(), NAN with fewer than 2 values.
 */
double fdc_ks_uniform(const double *p, size_t n, double *d)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), dmax = 0, r;
	size_t m = 0, i;

	*d = NAN;
	if (!v)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			v[m++] = p[i];
	if (m < 2) {
		free(v);
		return NAN;
	}
	qsort(v, m, sizeof(*v), fdc_cmp_double);
	for (i = 0; i < m; i++) {
		double hi = (double)(i + 1) / m - v[i];
		double lo = v[i] - (double)i / m;

		if (hi > dmax)
			dmax = hi;
		if (lo > dmax)
			dmax = lo;
	}
	free(v);
	*d = dmax;
	r = fdc_kolmogorov_sf(dmax, m);
	return r;
}

/**
 * fdc_binom_sf() - P(X >= @k) for X binomial(@n, @q)
 * @k: the count
 * @n: trials
 * @q: the probability of each
 *
 * Exact sum of the terms from @k up, each in the log domain, until they no
 * longer change the sum.
 *
 * Return: the probability.
 */
double fdc_binom_sf(u64 k, u64 n, double q)
{
	double sum = 0, lt, base;
	u64 i;

	if (!k)
		return 1;
	if (k > n)
		return 0;
	base = lgamma(n + 1.0);
	for (i = k; i <= n; i++) {
		lt = base - lgamma(i + 1.0) - lgamma(n - i + 1.0) + i * log(q) +
		     (n - i) * log1p(-q);
		sum += exp(lt);
		if (i > k + 10 && exp(lt) < sum * (1 / 1e17))
			break;
	}
	return sum > 1 ? 1 : sum;
}

/**
 * fdc_runs_p() - Wald and Wolfowitz's runs test
 * @n: outcomes, each of one kind or the other
 * @ones: outcomes of the first kind
 * @runs: maximal runs of one kind
 * @z: receives the normal statistic
 *
 * Given the numbers of each kind, the number of runs has mean
 * 2 n1 n0 / n + 1 and variance (mu - 1)(mu - 2) / (n - 1); normal
 * approximation, two-sided.
 *
 * Return: the p-value, NAN when both kinds do not occur.
 */
double fdc_runs_p(u64 n, u64 ones, u64 runs, double *z)
{
	double mu, var;

	*z = NAN;
	if (!ones || ones == n || n < 3)
		return ones == n || !ones ? 0 : NAN;
	mu = 2.0 * ones * (double)(n - ones) / n + 1;
	var = (mu - 1) * (mu - 2) / (n - 1);
	*z = (runs - mu) / sqrt(var);
	return fdc_normal_2sided(*z);
}

/*
 * In-place radix-2 FFT of @n = 2^k complex values (re, im); @wr and @wi
 * hold cos and -sin of 2 pi j / n for j < n / 2.
 */
static void fdc_fft(double *re, double *im, size_t n, const double *wr,
		    const double *wi)
{
	size_t i, j, len, k;

	for (i = 1, j = 0; i < n; i++) {
		size_t bit = n >> 1;

		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			double t = re[i];

			re[i] = re[j];
			re[j] = t;
			t = im[i];
			im[i] = im[j];
			im[j] = t;
		}
	}
	for (len = 2; len <= n; len <<= 1) {
		size_t step = n / len;

		for (i = 0; i < n; i += len) {
			for (k = 0; k < len / 2; k++) {
				double c = wr[k * step], s = wi[k * step];
				size_t a = i + k, b = i + k + len / 2;
				double xr = re[b] * c - im[b] * s;
				double xi = re[b] * s + im[b] * c;

				re[b] = re[a] - xr;
				im[b] = im[a] - xi;
				re[a] += xr;
				im[a] += xi;
			}
		}
	}
}

/**
 * fdc_spectral_moments() - the mean and variance of the spectral test's
 *	count for @m bits
 * @m: the bits, a power of two
 * @var: receives the variance
 *
 * N1 counts the moduli |F_k| below T = sqrt(m ln 20) for k = 0 .. m/2 - 1.
 * Each |F_k|^2 / m (k > 0) tends to the exponential law, P(below) = 0.95,
 * and |F_0| / sqrt(m) to |Z|, P(below) = erf(sqrt(ln(20) / 2)). The
 * coefficients are uncorrelated but not independent: for bits of +-1 the
 * fourth cumulant is -2, so Cov(|F_j|^2, |F_k|^2) = -2m (j != k), and to
 * first order in 1/m the indicators' covariance is -(2/m) (c e^-c)^2 with
 * c = ln 20 (the first Laguerre term of the joint law). Summed over the
 * m^2/4 pairs: Var N1 = (m/2) (0.95 0.05 - (0.05 ln 20)^2), about
 * m 0.95 0.05 / 3.79. SP 800-22 rev. 1a says m 0.95 0.05 / 4, too small
 * by 5.5 % (Pareschi, Rovatti and Setti 2012 measured the divisor 3.8);
 * certify-calib (tools/cli/certify_calib.c) finds this one calibrated.
 *
 * Return: the mean.
 */
static double fdc_spectral_moments(size_t m, double *var)
{
	double c = log(20), ce = 0.05 * c;

	*var = m / 2.0 * (0.95 * 0.05 - ce * ce);
	return 0.95 * (m / 2.0 - 1) + erf(sqrt(c / 2));
}

/**
 * fdc_spectral() - NIST SP 800-22 rev. 1a 2.6, the discrete Fourier
 *	transform test, with its variance corrected
 * @x: the bits as +1 and -1
 * @n: how many; the largest power of two not above @n is used
 * @d: receives the normal statistic
 *
 * Counts the moduli of the first m/2 Fourier coefficients below
 * T = sqrt(m ln 20); their number N1 has the mean and variance of
 * fdc_spectral_moments(); normal approximation, two-sided.
 *
 * Return: the p-value, NAN for fewer than 1024 bits or no memory.
 */
double fdc_spectral(const signed char *x, size_t n, double *d)
{
	double *re, *im, *wr, *wi, t, mu, var, n1 = 0;
	size_t m = 1, i;

	*d = NAN;
	while (m * 2 <= n)
		m *= 2;
	if (m < 1024)
		return NAN;
	re = malloc(m * sizeof(*re));
	im = calloc(m, sizeof(*im));
	wr = malloc(m / 2 * sizeof(*wr));
	wi = malloc(m / 2 * sizeof(*wi));
	if (!re || !im || !wr || !wi) {
		free(re);
		free(im);
		free(wr);
		free(wi);
		return NAN;
	}
	for (i = 0; i < m; i++)
		re[i] = x[i];
	for (i = 0; i < m / 2; i++) {
		wr[i] = cos(2 * M_PI * i / m);
		wi[i] = -sin(2 * M_PI * i / m);
	}
	fdc_fft(re, im, m, wr, wi);
	t = log(20) * m;
	for (i = 0; i < m / 2; i++)
		if (re[i] * re[i] + im[i] * im[i] < t)
			n1++;
	free(re);
	free(im);
	free(wr);
	free(wi);
	mu = fdc_spectral_moments(m, &var);
	*d = (n1 - mu) / sqrt(var);
	return fdc_normal_2sided(*d);
}

/* S(n, k), Stirling numbers of the second kind, in double. */
static double fdc_stirling2(unsigned int n, unsigned int k)
{
	double row[FDC_STATS_MAX_COUPON + 2] = { 1 };
	unsigned int i, j;

	if (k > n || k > FDC_STATS_MAX_COUPON)
		return 0;
	for (i = 1; i <= n; i++) {
		unsigned int top = i < k ? i : k;

		for (j = top; j >= 1; j--)
			row[j] = j * row[j] + row[j - 1];
		row[0] = 0;
	}
	return row[k];
}

/**
 * fdc_poker_prob() - the chance that @hand outcomes of a fair die with
 *	@sides faces show exactly @distinct different faces (TAOCP 3.3.2 D)
 * @sides: faces of the die
 * @hand: outcomes in a group
 * @distinct: different faces among them
 *
 * Return: sides (sides - 1) ... (sides - distinct + 1) S(hand, distinct)
 * / sides^hand.
 */
double fdc_poker_prob(unsigned int sides, unsigned int hand,
		      unsigned int distinct)
{
	double p = fdc_stirling2(hand, distinct);
	unsigned int i;

	if (distinct > sides)
		return 0;
	for (i = 0; i < distinct; i++)
		p *= (double)(sides - i) / sides;
	for (; i < hand; i++)
		p /= sides;
	return p;
}

/**
 * fdc_coupon_prob() - the chance that a segment needs @len outcomes of a
 *	fair die with @sides faces to show every face (TAOCP 3.3.2 C)
 * @sides: faces of the die
 * @len: the length; @last means @last or more
 * @last: the last cell
 *
 * Return: sides! / sides^len S(len - 1, sides - 1) for len < @last, and
 * 1 - sides! / sides^(last - 1) S(last - 1, sides) for the last cell.
 */
double fdc_coupon_prob(unsigned int sides, unsigned int len,
		       unsigned int last)
{
	double f = 1;
	unsigned int i;

	if (len < sides)
		return 0;
	for (i = 1; i <= sides; i++)
		f *= (double)i / sides;
	/* f = sides! / sides^sides */
	if (len < last) {
		for (i = sides; i < len; i++)
			f /= sides;
		return f * fdc_stirling2(len - 1, sides - 1);
	}
	for (i = sides; i < last - 1; i++)
		f /= sides;
	return 1 - f * fdc_stirling2(last - 1, sides);
}

/*
 * Pearson's chi-square of @k cells of observed @obs and probabilities
 * @prob (adding up to 1) over @total trials, adjacent cells merged until
 * each expects FDC_MIN_EXPECT; fills @t's statistic, df and p-value.
 */
static void fdc_chi2_cells(struct fdc_test *t, const u64 *obs,
			   const double *prob, size_t k, u64 total)
{
	double stat = 0, o = 0, e = 0, last_o = 0, last_e = 0;
	unsigned int cells = 0;
	size_t i;

	t->stat = NAN;
	t->df = 0;
	t->p = NAN;
	if (!total)
		return;
	for (i = 0; i < k; i++) {
		o += obs[i];
		e += prob[i] * total;
		if (e >= FDC_MIN_EXPECT) {
			if (cells)
				stat += (last_o - last_e) * (last_o - last_e) /
					last_e;
			last_o = o;
			last_e = e;
			cells++;
			o = 0;
			e = 0;
		}
	}
	if (!cells)
		return;
	/* What is left joins the last cell. */
	last_o += o;
	last_e += e;
	stat += (last_o - last_e) * (last_o - last_e) / last_e;
	if (cells < 2)
		return;
	t->stat = stat;
	t->df = cells - 1;
	t->p = fdc_chi2_sf(stat, cells - 1);
	snprintf(t->method, sizeof(t->method),
		 "chi-square law, %u cells of exact probabilities", cells);
}

/**
 * fdc_die_stats_init() - empty test state for a die
 * @s: the state
 * @sides: its faces, 2 to FDC_STATS_MAX_SIDES
 *
 * Return: 0, or -1 for a die out of range or no memory.
 */
int fdc_die_stats_init(struct fdc_die_stats *s, unsigned int sides)
{
	memset(s, 0, sizeof(*s));
	if (sides < 2 || sides > FDC_STATS_MAX_SIDES)
		return -1;
	s->sides = sides;
	s->pair_first = -1;
	s->gap = -1;
	if (sides <= 100) {
		s->pairs = calloc((size_t)sides * sides, sizeof(*s->pairs));
		if (!s->pairs)
			return -1;
	}
	if (sides == 2) {
		s->bits = malloc(FDC_STATS_DFT_BITS);
		if (!s->bits) {
			free(s->pairs);
			return -1;
		}
	}
	return 0;
}

/* The index of the order of @t distinct values among the t! orders. */
static unsigned int fdc_perm_index(const unsigned int *v, unsigned int t)
{
	unsigned int idx = 0, i, j, smaller;

	for (i = 0; i < t; i++) {
		smaller = 0;
		for (j = i + 1; j < t; j++)
			smaller += v[j] < v[i];
		idx = idx * (t - i) + smaller;
	}
	return idx;
}

/**
 * fdc_die_stats_add() - one outcome into every test
 * @s: the state
 * @face: the outcome, 0 to sides - 1 (larger ones are the caller's bug and
 *	count as sides - 1)
 */
void fdc_die_stats_add(struct fdc_die_stats *s, unsigned int face)
{
	bool low;
	unsigned int i, t;

	if (face >= s->sides)
		face = s->sides - 1;
	low = face < s->sides / 2;
	s->counts[face]++;
	if (s->pairs) {
		if (s->pair_first < 0) {
			s->pair_first = face;
		} else {
			s->pairs[s->pair_first * s->sides + face]++;
			s->pair_first = -1;
		}
	}
	if (!s->n || low != s->last_low)
		s->runs++;
	s->last_low = low;
	s->low += low;
	if (low) {
		if (s->gap >= 0)
			s->gaps[s->gap < FDC_STATS_MAX_GAP ? s->gap :
				FDC_STATS_MAX_GAP]++;
		s->gap = 0;
	} else if (s->gap >= 0) {
		s->gap++;
	}
	/* Poker: groups of five. */
	s->hand[face / 64] |= 1ULL << (face % 64);
	if (++s->hand_len == 5) {
		unsigned int distinct = 0;

		for (i = 0; i < 4; i++)
			distinct += __builtin_popcountll(s->hand[i]);
		s->poker[distinct]++;
		memset(s->hand, 0, sizeof(s->hand));
		s->hand_len = 0;
	}
	/* Coupon collector, for dice that show every face soon enough. */
	if (s->sides <= 16) {
		s->coupon_seen[0] |= 1ULL << face;
		s->coupon_len++;
		if (s->coupon_seen[0] == (1ULL << s->sides) - 1) {
			s->coupons[s->coupon_len < FDC_STATS_MAX_COUPON ?
				   s->coupon_len : FDC_STATS_MAX_COUPON]++;
			s->coupon_seen[0] = 0;
			s->coupon_len = 0;
		}
	}
	/* Permutations of 3, 4 and 5 outcomes, each in its own groups. */
	for (t = 3; t <= FDC_STATS_MAX_PERM; t++) {
		unsigned int *buf = s->perm_buf[t - 3];
		bool tie = false;

		buf[s->perm_len[t - 3]++] = face;
		if (s->perm_len[t - 3] < t)
			continue;
		s->perm_len[t - 3] = 0;
		for (i = 0; i < t && !tie; i++) {
			unsigned int j;

			for (j = i + 1; j < t; j++)
				tie |= buf[i] == buf[j];
		}
		if (tie)
			s->perm_ties[t - 3]++;
		else
			s->perm[t - 3][fdc_perm_index(buf, t)]++;
	}
	s->sx += face;
	s->sxx += (double)face * face;
	if (s->n)
		s->sxy += (double)s->prev * face;
	else
		s->first = face;
	s->prev = face;
	if (s->bits && s->nbits < FDC_STATS_DFT_BITS)
		s->bits[s->nbits++] = face ? 1 : -1;
	s->n++;
}

static struct fdc_test *fdc_new_test(struct fdc_test *out, size_t *n,
				     size_t max, const char *name,
				     const char *target)
{
	struct fdc_test *t;

	if (*n >= max)
		return NULL;
	t = &out[(*n)++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->target, sizeof(t->target), "%s", target);
	t->stat = NAN;
	t->p = NAN;
	snprintf(t->method, sizeof(t->method), "too few outcomes");
	return t;
}

/* The serial correlation of lag 1, TAOCP 3.3.2 K (cyclic). */
static void fdc_serial_correlation(const struct fdc_die_stats *s,
				   struct fdc_test *t)
{
	double n = (double)s->n, num, den, c, mu, sd;

	if (s->n < 3)
		return;
	num = n * (s->sxy + (double)s->prev * s->first) - s->sx * s->sx;
	den = n * s->sxx - s->sx * s->sx;
	if (den <= 0) {
		/* Every outcome the same: as far from random as it gets. */
		t->stat = 1;
		t->p = 0;
		snprintf(t->method, sizeof(t->method), "constant stream");
		return;
	}
	c = num / den;
	mu = -1 / (n - 1);
	sd = n / ((n - 1) * sqrt(n - 2));
	t->stat = c;
	t->p = fdc_normal_2sided((c - mu) / sd);
	snprintf(t->method, sizeof(t->method),
		 "normal approximation, mean -1/(n-1), sd n/((n-1)sqrt(n-2))");
}

/**
 * fdc_die_stats_results() - the tests' outcomes
 * @s: the state after the stream
 * @out: where the lines go
 * @max: room in @out
 *
 * Return: the lines written. A test without enough data has a NAN p-value
 * and says so in its method.
 */
size_t fdc_die_stats_results(struct fdc_die_stats *s, struct fdc_test *out,
			     size_t max)
{
	double prob[FDC_STATS_MAX_COUPON + FDC_STATS_MAX_SIDES + 1];
	unsigned int k = s->sides, i, t;
	char target[24];
	struct fdc_test *r;
	size_t n = 0;
	double p;

	snprintf(target, sizeof(target), "d%u", k);

	/* Frequency of faces, each 1/k. */
	r = fdc_new_test(out, &n, max, "chi-square of faces", target);
	if (r) {
		for (i = 0; i < k; i++)
			prob[i] = 1.0 / k;
		fdc_chi2_cells(r, s->counts, prob, k, s->n);
	}

	/*
	 * Non-overlapping pairs, each 1/k^2; every cell must expect 5. The
	 * pairs' margins are the faces: the two p-values are correlated
	 * (about 1/sqrt(k + 1)).
	 */
	r = fdc_new_test(out, &n, max, "serial pairs", target);
	if (r)
		r->overlaps = true;
	if (r && s->pairs && s->n / 2 >= FDC_MIN_EXPECT * k * k) {
		double stat = 0, e = (double)(s->n / 2) / ((double)k * k);

		for (i = 0; i < k * k; i++)
			stat += (s->pairs[i] - e) * (s->pairs[i] - e) / e;
		r->stat = stat;
		r->df = k * k - 1;
		r->p = fdc_chi2_sf(stat, r->df);
		snprintf(r->method, sizeof(r->method),
			 "chi-square law, %u cells of 1/%u", k * k, k * k);
	}

	/* Runs below and above k/2. */
	r = fdc_new_test(out, &n, max, "runs (Wald-Wolfowitz)", target);
	if (r && s->n >= 20) {
		r->p = fdc_runs_p(s->n, s->low, s->runs, &r->stat);
		snprintf(r->method, sizeof(r->method),
			 "normal approximation given the counts of each kind");
	}

	/*
	 * Gaps between low outcomes: length j has p (1 - p)^j. A gap of 0 is
	 * two lows in a row: correlated with the runs of low and high.
	 */
	r = fdc_new_test(out, &n, max, "gap", target);
	if (r) {
		r->overlaps = true;
		double lp = (double)(k / 2) / k;
		u64 gaps = 0;

		for (i = 0; i <= FDC_STATS_MAX_GAP; i++) {
			prob[i] = i < FDC_STATS_MAX_GAP ?
				  lp * pow(1 - lp, i) :
				  pow(1 - lp, FDC_STATS_MAX_GAP);
			gaps += s->gaps[i];
		}
		fdc_chi2_cells(r, s->gaps, prob, FDC_STATS_MAX_GAP + 1, gaps);
	}

	/*
	 * Poker: groups of five, by the number of different faces; for a
	 * coin, a hand of one face is a run, and so are the coupon
	 * collector's segments.
	 */
	r = fdc_new_test(out, &n, max, "poker (hands of 5)", target);
	if (r) {
		r->overlaps = k == 2;
		u64 hands = 0;

		for (i = 1; i <= 5; i++) {
			prob[i - 1] = fdc_poker_prob(k, 5, i);
			hands += s->poker[i];
		}
		fdc_chi2_cells(r, s->poker + 1, prob, 5, hands);
	}

	/* Coupon collector: segment lengths until every face showed. */
	if (k <= 16) {
		r = fdc_new_test(out, &n, max, "coupon collector", target);
		if (r) {
			r->overlaps = k == 2;
			u64 segs = 0;

			for (i = 0; i <= FDC_STATS_MAX_COUPON; i++) {
				prob[i] = fdc_coupon_prob(k, i,
							  FDC_STATS_MAX_COUPON);
				segs += s->coupons[i];
			}
			fdc_chi2_cells(r, s->coupons, prob,
				       FDC_STATS_MAX_COUPON + 1, segs);
		}
	}

	/* Orders of t distinct outcomes, each 1/t!. */
	for (t = 3; t <= FDC_STATS_MAX_PERM && t <= k; t++) {
		unsigned int cells = t == 3 ? 6 : t == 4 ? 24 : 120;
		char name[48];
		u64 groups = 0;

		snprintf(name, sizeof(name), "permutation (orders of %u)", t);
		r = fdc_new_test(out, &n, max, name, target);
		if (!r)
			break;
		for (i = 0; i < cells; i++) {
			prob[i] = 1.0 / cells;
			groups += s->perm[t - 3][i];
		}
		fdc_chi2_cells(r, s->perm[t - 3], prob, cells, groups);
		if (!isnan(r->p))
			snprintf(r->method, sizeof(r->method),
				 "chi-square law, %u orders; %llu groups with a tie left out",
				 cells, (unsigned long long)s->perm_ties[t - 3]);
	}

	/*
	 * The serial correlation and the runs both measure lag 1: their
	 * p-values correlate about 0.5, and for a coin they are the same.
	 */
	r = fdc_new_test(out, &n, max, "serial correlation (lag 1)", target);
	if (r) {
		r->overlaps = true;
		fdc_serial_correlation(s, r);
	}

	if (s->bits) {
		r = fdc_new_test(out, &n, max, "spectral (DFT, SP 800-22 2.6)",
				 target);
		if (r) {
			size_t m = 1;

			while (m * 2 <= s->nbits)
				m *= 2;
			p = fdc_spectral(s->bits, s->nbits, &r->stat);
			r->p = p;
			if (!isnan(p))
				snprintf(r->method, sizeof(r->method),
					 "normal approximation over the first %zu bits, variance (m/2)(0.0475 - (0.05 ln 20)^2)",
					 m);
		}
	}
	return n;
}

/**
 * fdc_die_stats_free() - free what fdc_die_stats_init() allocated
 * @s: the state
 */
void fdc_die_stats_free(struct fdc_die_stats *s)
{
	free(s->pairs);
	free(s->bits);
	s->pairs = NULL;
	s->bits = NULL;
}

/**
 * fdc_deck_stats_init() - empty position test for decks of @cards
 * @s: the state
 * @cards: 2 to FDC_STATS_MAX_DECK
 *
 * Return: 0, or -1 for a deck out of range.
 */
int fdc_deck_stats_init(struct fdc_deck_stats *s, unsigned int cards)
{
	memset(s, 0, sizeof(*s));
	if (cards < 2 || cards > FDC_STATS_MAX_DECK)
		return -1;
	s->cards = cards;
	return 0;
}

/**
 * fdc_deck_stats_add() - one shuffled deck
 * @s: the state
 * @deck: @s->cards bytes, a permutation of 0..cards-1 (else counted bad)
 */
void fdc_deck_stats_add(struct fdc_deck_stats *s, const u8 *deck)
{
	u64 seen = 0;
	unsigned int i;

	for (i = 0; i < s->cards; i++) {
		if (deck[i] >= s->cards || (seen >> deck[i] & 1)) {
			s->bad++;
			return;
		}
		seen |= 1ULL << deck[i];
	}
	for (i = 0; i < s->cards; i++)
		s->counts[i][deck[i]]++;
	s->decks++;
}

/**
 * fdc_deck_stats_results() - the position test and the deck check
 * @s: the state after the stream
 * @out: where the lines go
 * @max: room in @out
 *
 * Each deck adds one permutation matrix; their sum has fixed row and
 * column sums, and its cells' covariance is (decks / (m - 1)) A (x) A with
 * A = I - J/m. Pearson's statistic times (m - 1)/m then follows the
 * chi-square law with (m - 1)^2 degrees of freedom in the limit (normal
 * approximation of the sum of the decks).
 *
 * Return: the lines written.
 */
size_t fdc_deck_stats_results(const struct fdc_deck_stats *s,
			      struct fdc_test *out, size_t max)
{
	unsigned int m = s->cards, i, c;
	struct fdc_test *r;
	char target[24];
	size_t n = 0;

	snprintf(target, sizeof(target), "decks of %u", m);
	r = fdc_new_test(out, &n, max, "card at each position", target);
	if (r && s->decks >= FDC_MIN_EXPECT * m) {
		double e = (double)s->decks / m, stat = 0;

		for (i = 0; i < m; i++)
			for (c = 0; c < m; c++)
				stat += (s->counts[i][c] - e) *
					(s->counts[i][c] - e) / e;
		r->stat = stat * (m - 1) / m;
		r->df = (m - 1) * (m - 1);
		r->p = fdc_chi2_sf(r->stat, r->df);
		snprintf(r->method, sizeof(r->method),
			 "chi-square law, %u x %u cells, margins fixed", m, m);
	}
	r = fdc_new_test(out, &n, max, "every deck a permutation", target);
	if (r) {
		r->stat = (double)s->bad;
		r->p = s->bad ? 0 : 1;
		snprintf(r->method, sizeof(r->method),
			 "exact: %llu of %llu decks were not permutations",
			 (unsigned long long)s->bad,
			 (unsigned long long)(s->decks + s->bad));
	}
	return n;
}

/**
 * fdc_ent_parse() - read the data line of 'ent -t'
 * @line: a line of its output
 * @e: receives the values
 *
 * Return: 0 for the data line ("1,bytes,entropy,chi,mean,pi,scc"), -1 for
 * any other.
 */
int fdc_ent_parse(const char *line, struct fdc_ent *e)
{
	if (sscanf(line, "1,%lf,%lf,%lf,%lf,%lf,%lf", &e->bytes, &e->entropy,
		   &e->chi, &e->mean, &e->pi, &e->scc) != 6 || e->bytes < 1)
		return -1;
	return 0;
}

/**
 * fdc_ent_results() - the three lines of ent's statistics
 * @e: what ent printed
 * @target: the data's name
 * @out: where the lines go
 * @max: room in @out (3)
 *
 * ent prints statistics, not p-values: the chi-square of the bytes has 255
 * degrees of freedom; the mean of n uniform bytes has mean 127.5 and
 * variance 5461.25 / n; the serial correlation is near normal with sd
 * 1 / sqrt(n).
 *
 * Return: the lines written.
 */
size_t fdc_ent_results(const struct fdc_ent *e, const char *target,
		       struct fdc_test *out, size_t max)
{
	struct fdc_test *t = out;

	if (max < 3)
		return 0;
	memset(out, 0, 3 * sizeof(*out));
	for (t = out; t < out + 3; t++)
		snprintf(t->target, sizeof(t->target), "%s", target);
	t = out;
	snprintf(t->name, sizeof(t->name), "ent chi-square of bytes");
	t->stat = e->chi;
	t->df = 255;
	t->p = fdc_chi2_sf(e->chi, 255);
	snprintf(t->method, sizeof(t->method),
		 "chi-square law, 256 byte values; entropy %.6f bits/byte",
		 e->entropy);
	t++;
	snprintf(t->name, sizeof(t->name), "ent arithmetic mean");
	t->stat = e->mean;
	t->p = fdc_normal_2sided((e->mean - 127.5) /
				 sqrt(65535.0 / 12 / e->bytes));
	snprintf(t->method, sizeof(t->method),
		 "normal approximation, mean 127.5; Monte Carlo pi %.6f",
		 e->pi);
	t++;
	snprintf(t->name, sizeof(t->name), "ent serial correlation");
	t->stat = e->scc;
	t->p = fdc_normal_2sided(e->scc * sqrt(e->bytes));
	snprintf(t->method, sizeof(t->method),
		 "normal approximation, sd 1/sqrt(bytes)");
	return 3;
}

/**
 * fdc_fips_result() - the line of rngtest's FIPS 140-2 blocks
 * @ok: blocks that passed
 * @bad: blocks that failed
 * @target: the data's name
 * @t: the line
 *
 * The failed blocks against a binomial law with FDC_FIPS_RATE a block.
 */
void fdc_fips_result(unsigned long long ok, unsigned long long bad,
		     const char *target, struct fdc_test *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "rngtest FIPS 140-2 blocks");
	snprintf(t->target, sizeof(t->target), "%s", target);
	t->stat = (double)bad;
	t->p = fdc_binom_sf(bad, ok + bad, FDC_FIPS_RATE);
	snprintf(t->method, sizeof(t->method),
		 "%llu of %llu blocks failed; binomial, false alarm 1/1000",
		 bad, ok + bad);
}

/**
 * fdc_dieharder_samples() - the p-samples of certify's quick dieharder
 *	tests (diehard_birthdays, sts_monobit, sts_runs) a file holds
 * @bytes: the file's size
 *
 * dieharder reads a file again from the start when it runs out, and its
 * p-values are then not valid; it reads far more than a test consumes:
 * with dieharder 3.31.1 a file of 7,000,000 bytes holds one p-sample of
 * each of these without a rewind, 8,000,000 bytes not two, 64 MiB eight.
 * Its final p-value is a Kolmogorov-Smirnov test of the p-samples, which
 * is not calibrated for few of them (2 and 4 p-samples of good data gave
 * p = 1.00000, "FAILED"): below 20 p-samples, one is run, and its p-value
 * is the test's own.
 *
 * Return: 0 (too little data), 1, or 20 to 100.
 */
long fdc_dieharder_samples(long long bytes)
{
	long long n = bytes / 8000000;

	if (n > 100)
		return 100;
	if (n < 20)
		return bytes >= 7000000;
	return (long)n;
}
