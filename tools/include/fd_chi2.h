/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - Pearson's chi-square test, for the statistical checks of the
 * selftests and tools and the tool's --stats. Userspace only (floating
 * point); link with -lm.
 *
 * The critical values are exact, not approximations: fd_chi2_crit()
 * inverts the survival function fd_chi2_sf(), which is in closed form for
 * integer degrees of freedom, by bisection.
 */
#ifndef _FAIRDIE_CHI2_H
#define _FAIRDIE_CHI2_H

#include <math.h>
#include <stddef.h>

#include <linux/types.h>

/*
 * Survival function of the chi-square distribution, P(X > @x), for @df >= 1
 * degrees of freedom: the p-value of a statistic @x. For even df a Poisson
 * sum, for odd df erfc plus a finite series (Abramowitz and Stegun 26.4.4
 * and 26.4.5). Terms are formed in the log domain so that large x and df
 * neither overflow nor underflow.
 */
static inline double fd_chi2_sf(double x, unsigned int df)
{
	double h = x / 2, sum = 0;
	unsigned int i;

	if (x <= 0)
		return 1;
	if (df % 2 == 0) {
		for (i = 0; i < df / 2; i++)
			sum += exp(-h + i * log(h) - lgamma(i + 1.0));
		return sum;
	}
	sum = erfc(sqrt(h));
	for (i = 1; i <= df / 2; i++) {
		/* log of 1 * 3 * ... * (2i - 1) = (2i)! / (2^i i!) */
		double log_dfact = lgamma(2.0 * i + 1) - i * log(2.0) -
				   lgamma(i + 1.0);

		sum += exp(-h + (i - 0.5) * log(x) + 0.5 * log(2 / M_PI) -
			   log_dfact);
	}
	return sum;
}

/* The critical value: the x with P(X > x) = @alpha, for @df degrees. */
static inline double fd_chi2_crit(unsigned int df, double alpha)
{
	double lo = 0, hi = df + 16.0;
	int i;

	while (fd_chi2_sf(hi, df) > alpha)
		hi *= 2;
	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (fd_chi2_sf(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/*
 * Pearson's statistic of @k cells of observed @counts against the expected
 * counts @expect (each > 0); k - 1 degrees of freedom when the expected
 * counts add up to the observed total.
 */
static inline double fd_chi2_stat(const __u64 *counts, const double *expect,
				  size_t k)
{
	double stat = 0, d;
	size_t i;

	for (i = 0; i < k; i++) {
		d = counts[i] - expect[i];
		stat += d * d / expect[i];
	}
	return stat;
}

/* Pearson's statistic of @k cells that should each hold total / @k. */
static inline double fd_chi2_uniform(const __u64 *counts, size_t k)
{
	double total = 0, expect, stat = 0, d;
	size_t i;

	for (i = 0; i < k; i++)
		total += counts[i];
	expect = total / k;
	for (i = 0; i < k; i++) {
		d = counts[i] - expect;
		stat += d * d / expect;
	}
	return stat;
}

#endif /* _FAIRDIE_CHI2_H */
