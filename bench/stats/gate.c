// SPDX-License-Identifier: GPL-2.0
#include "stats/gate.h"
#include "stats/stats.h"

#include <errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* Median of k values drawn with replacement from v[0..k), tmp of k. */
static double resampled_median(gsl_rng *rng, const double *v, size_t k, double *tmp)
{
	for (size_t i = 0; i < k; i++)
		tmp[i] = v[gsl_rng_uniform_int(rng, k)];
	return gsl_stats_median(tmp, 1, k);
}

/* The quantile of |median(x*)| over `rounds` resamples x* of the k log
 * values v, as exp(q) - 1. */
static int abs_log_quantile(const double *v, size_t k, size_t rounds, unsigned long seed,
			    double quantile, double *floor_rel)
{
	double *tmp = malloc(k * sizeof(*tmp)), *s = malloc(rounds * sizeof(*s));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int ret = 0;

	if (!tmp || !s || !rng) {
		ret = -ENOMEM;
		goto free_all;
	}
	gsl_rng_set(rng, seed);
	for (size_t b = 0; b < rounds; b++)
		s[b] = fabs(resampled_median(rng, v, k, tmp));
	qsort(s, rounds, sizeof(*s), zc_cmp_double);
	*floor_rel = expm1(gsl_stats_quantile_from_sorted_data(s, 1, rounds, quantile));
free_all:
	gsl_rng_free(rng);
	free(s);
	free(tmp);
	return ret;
}

int zc_noise_floor_aa(const double *a, const double *b, size_t n, size_t rounds,
		      unsigned long seed, double quantile, double *floor_rel, size_t *used)
{
	double *lr;
	size_t k = 0;
	int ret;

	*floor_rel = NAN;
	if (used)
		*used = 0;
	if (!rounds || !(quantile > 0 && quantile < 1))
		return -EDOM;
	lr = malloc((n ? n : 1) * sizeof(*lr));
	if (!lr)
		return -ENOMEM;
	/* Median of log ratios = log of the median ratio (odd k); working in
	 * logs makes A/B and B/A the same distance from 0. */
	for (size_t i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i]))
			lr[k++] = log(a[i] / b[i]);
	if (used)
		*used = k;
	ret = k ? abs_log_quantile(lr, k, rounds, seed, quantile, floor_rel) : -EDOM;
	free(lr);
	return ret;
}
