// SPDX-License-Identifier: GPL-2.0
#include "lib/paired.h"
#include "lib/stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

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
	qsort(med, rounds, sizeof(*med), cmp_double);
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

/* Number of sign assignments of ranks 1..n per W+ value, w in 0..n(n+1)/2:
 * c_k(w) = c_{k-1}(w) + c_{k-1}(w - k) (rank k negative or positive). */
static double *wsr_counts(size_t n)
{
	size_t wmax = n * (n + 1) / 2;
	double *c = calloc(wmax + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1;
	for (size_t k = 1; k <= n; k++)
		for (size_t w = k * (k + 1) / 2; w >= k; w--)
			c[w] += c[w - k]; /* downwards: c[w - k] is still c_{k-1} */
	return c;
}

/* Two-sided exact p of W+ = w: twice the smaller tail, at most 1. */
static double wsr_exact_p(double w, size_t n)
{
	double *c = wsr_counts(n), le = 0, ge = 0;
	size_t wmax = n * (n + 1) / 2;

	if (!c)
		return NAN;
	for (size_t k = 0; k <= wmax; k++) {
		if (k <= w + 1e-9)
			le += c[k];
		if (k + 1e-9 >= w)
			ge += c[k];
	}
	free(c);
	return fmin(1.0, 2 * fmin(le, ge) / ldexp(1.0, (int)n));
}

/* Normal approximation: continuity correction towards the mean, but never
 * past it; tie_term is sum(t^3 - t) over groups of tied |d|. */
static double wsr_normal_z(double stat, size_t n, double tie_term)
{
	double mean = n * (n + 1) / 4.0;
	double var = (n * (n + 1) * (2.0 * n + 1) - tie_term / 2) / 24;

	if (!(var > 0))
		return 0;
	return copysign(fmax(0, fabs(stat - mean) - 0.5), stat - mean) / sqrt(var);
}

double zc_wilcoxon_min_p(size_t n)
{
	if (!n)
		return NAN;
	if (n <= ZC_WSR_EXACT_MAX)
		return fmin(1.0, ldexp(1.0, 1 - (int)n));
	return fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(wsr_normal_z(0, n, 0))));
}

static int cmp_abs(const void *a, const void *b)
{
	double x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return (x > y) - (x < y);
}

int zc_wilcoxon(const double *d, size_t n, struct zc_wsr *t)
{
	double *v, tie_term = 0;
	size_t finite = 0, m = 0;
	bool ties = false;

	*t = (struct zc_wsr){ .w_plus = NAN, .stat = NAN, .z = NAN, .p = NAN };
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			continue;
		finite++;
		if (d[i] != 0)
			v[m++] = d[i];
	}
	t->missing = n - finite;
	t->zeros = finite - m;
	t->n = m;
	if (finite < ZC_TEST_MIN_N) {
		free(v);
		return -EDOM;
	}
	if (!m) {
		/* Every pair equal: nothing speaks for a change. */
		t->w_plus = t->stat = 0;
		t->p = 1;
		free(v);
		return 0;
	}
	qsort(v, m, sizeof(*v), cmp_abs);
	t->w_plus = 0;
	/* Midranks: a run of equal |d| at i..j-1 all get the mean of ranks i+1..j. */
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && fabs(v[j]) == fabs(v[i]); j++)
			;
		double midrank = (i + 1 + j) / 2.0, tn = j - i;

		for (size_t k = i; k < j; k++)
			if (v[k] > 0)
				t->w_plus += midrank;
		if (tn > 1) {
			ties = true;
			tie_term += tn * tn * tn - tn;
		}
	}
	free(v);
	t->stat = fmin(t->w_plus, m * (m + 1) / 2.0 - t->w_plus);
	if (!t->zeros && !ties && m <= ZC_WSR_EXACT_MAX) {
		t->exact = true;
		t->p = wsr_exact_p(t->w_plus, m);
		return isnan(t->p) ? -ENOMEM : 0;
	}
	t->z = wsr_normal_z(t->stat, m, tie_term);
	t->p = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fabs(t->z)));
	return 0;
}

int zc_wilcoxon_ratio(const double *num, const double *den, size_t n, struct zc_wsr *t)
{
	double *lr = malloc((n ? n : 1) * sizeof(*lr));
	int ret;

	if (!lr) {
		*t = (struct zc_wsr){ .w_plus = NAN, .stat = NAN, .z = NAN, .p = NAN };
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		lr[i] = num[i] > 0 && den[i] > 0 ? log(num[i] / den[i]) : NAN;
	ret = zc_wilcoxon(lr, n, t);
	free(lr);
	return ret;
}
