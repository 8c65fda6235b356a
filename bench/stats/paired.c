// SPDX-License-Identifier: GPL-2.0
#include "stats/paired.h"
#include "stats/stats.h"

#include <errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int zc_paired_ratios(const double *num, const double *den, size_t n, double *ratio,
		     size_t *kept)
{
	size_t k = 0;

	if ((n && (!num || !den || !ratio)) || !kept)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		double r = den[i] != 0 ? num[i] / den[i] : NAN;

		/* isfinite also drops NaN sides and an infinite sample. */
		ratio[i] = isfinite(num[i]) && isfinite(den[i]) && isfinite(r) ? r : NAN;
		k += !isnan(ratio[i]);
	}
	*kept = k;
	return 0;
}

/* The complete pairs' ratios, packed: what the bootstrap resamples. */
static int packed_ratios(const double *num, const double *den, size_t n, double **out,
			 size_t *kept)
{
	double *r = malloc((n ? n : 1) * sizeof(*r));
	size_t k = 0;
	int ret;

	if (!r)
		return -ENOMEM;
	ret = zc_paired_ratios(num, den, n, r, kept);
	if (ret) {
		free(r);
		return ret;
	}
	for (size_t i = 0; i < n; i++)
		if (!isnan(r[i]))
			r[k++] = r[i];
	*out = r;
	return 0;
}

int zc_paired_ratio_ci(const double *num, const double *den, size_t n, size_t rounds,
		       unsigned long seed, double level, struct zc_paired *out)
{
	double *r = NULL, *tmp = NULL, *med = NULL;
	gsl_rng *rng = NULL;
	size_t k;
	int ret;

	*out = (struct zc_paired){ .median = NAN, .lo = NAN, .hi = NAN, .level = level,
				   .half_width_rel = NAN };
	if (!rounds || !(level > 0 && level < 1))
		return -EDOM;
	ret = packed_ratios(num, den, n, &r, &k);
	if (ret)
		return ret;
	out->n = k;
	out->dropped = n - k;
	if (!k) {
		ret = -EDOM;
		goto free_all;
	}
	tmp = malloc(k * sizeof(*tmp));
	med = malloc(rounds * sizeof(*med));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!tmp || !med || !rng) {
		ret = -ENOMEM;
		goto free_all;
	}
	memcpy(tmp, r, k * sizeof(*tmp));
	out->median = gsl_stats_median(tmp, 1, k);
	gsl_rng_set(rng, seed);
	/* Resampling ratios is resampling pairs: each pair is one ratio. */
	for (size_t b = 0; b < rounds; b++) {
		for (size_t i = 0; i < k; i++)
			tmp[i] = r[gsl_rng_uniform_int(rng, k)];
		med[b] = gsl_stats_median(tmp, 1, k);
	}
	qsort(med, rounds, sizeof(*med), zc_cmp_double);
	out->lo = gsl_stats_quantile_from_sorted_data(med, 1, rounds, (1 - level) / 2);
	out->hi = gsl_stats_quantile_from_sorted_data(med, 1, rounds, (1 + level) / 2);
	out->half_width_rel = zc_ci_half_width_rel(out->lo, out->hi, out->median);
free_all:
	gsl_rng_free(rng);
	free(med);
	free(tmp);
	free(r);
	return ret;
}

double zc_ci_half_width_rel(double lo, double hi, double center)
{
	if (!isfinite(lo) || !isfinite(hi) || !isfinite(center) || center == 0)
		return NAN;
	return (hi - lo) / 2 / fabs(center);
}

bool zc_ci_tight(double lo, double hi, double center, double target_rel)
{
	double hw = zc_ci_half_width_rel(lo, hi, center);

	return isfinite(hw) && hw < target_rel;
}
