// SPDX-License-Identifier: GPL-2.0
/*
 * Change points of a series (changepoint.h): binary segmentation on the
 * two-sample t statistic, each split tested against shuffles of its segment.
 */
#include "stats/changepoint.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

void zc_cp_defaults(struct zc_cp_opts *o)
{
	*o = (struct zc_cp_opts){ .alpha = ZC_CP_ALPHA, .perms = ZC_CP_PERMUTATIONS,
				  .seed = ZC_CP_SEED, .min_side = ZC_CP_MIN_SIDE, .log_scale = true };
}

static bool opts_ok(const struct zc_cp_opts *o)
{
	return o && o->alpha > 0 && o->alpha < 1 && o->perms >= 19 && o->min_side >= 2;
}

/* Prefix sums of y[0..n) centred on its mean (no cancellation for values
 * far from 0): s1 of the values, s2 of their squares, n + 1 each. */
static void sums(const double *y, size_t n, double *s1, double *s2)
{
	double mean = 0;

	for (size_t i = 0; i < n; i++)
		mean += y[i];
	mean /= (double)n;
	s1[0] = s2[0] = 0;
	for (size_t i = 0; i < n; i++) {
		double d = y[i] - mean;

		s1[i + 1] = s1[i] + d;
		s2[i + 1] = s2[i] + d * d;
	}
}

/* The pooled two-sample |t| of the split at k (0 < k < n, n > 2). */
static double split_t(const double *s1, const double *s2, size_t n, size_t k)
{
	double n1 = (double)k, n2 = (double)(n - k);
	double m1 = s1[k] / n1, m2 = (s1[n] - s1[k]) / n2;
	double ss = (s2[k] - n1 * m1 * m1) + (s2[n] - s2[k] - n2 * m2 * m2);
	double sp = ss > 0 ? sqrt(ss / (double)(n - 2)) : 0;

	if (sp > 0)
		return fabs(m2 - m1) / (sp * sqrt(1 / n1 + 1 / n2));
	return m1 == m2 ? 0 : INFINITY;
}

/* The largest |t| over the splits of y[0..n) with at least m values each
 * side; *at gets its split. 0 when there is no split. */
static double max_t(const double *y, size_t n, size_t m, double *s1, double *s2, size_t *at)
{
	double best = 0;

	*at = 0;
	if (n < 2 * m)
		return 0;
	sums(y, n, s1, s2);
	for (size_t k = m; k + m <= n; k++) {
		double t = split_t(s1, s2, n, k);

		if (t > best || !*at) {
			best = t;
			*at = k;
		}
	}
	return best;
}

static double t_at(const double *y, size_t n, size_t k, double *s1, double *s2)
{
	sums(y, n, s1, s2);
	return split_t(s1, s2, n, k);
}

/* The permutation p-value of t_obs for y[0..n): (1 + shuffles at least as
 * large) / (1 + shuffles). */
static double perm_p(const double *y, size_t n, double t_obs, const struct zc_cp_opts *o,
		     unsigned long seed, double *work, double *s1, double *s2)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned ge = 0;
	size_t at;

	if (!r)
		return NAN;
	gsl_rng_set(r, seed);
	memcpy(work, y, n * sizeof(*y));
	for (unsigned i = 0; i < o->perms; i++) {
		gsl_ran_shuffle(r, work, n, sizeof(*work));
		/* A hair under: a shuffle equal to the series counts as at least as large. */
		if (max_t(work, n, o->min_side, s1, s2, &at) >= t_obs * (1 - 1e-12))
			ge++;
	}
	gsl_rng_free(r);
	return (1.0 + ge) / (1.0 + o->perms);
}

static int by_at(const void *a, const void *b)
{
	const struct zc_cp *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

int zc_changepoints(const double *x, size_t n, const struct zc_cp_opts *o, struct zc_cp *cp,
		    size_t max, size_t *ncp)
{
	double *y = NULL, *work = NULL, *s1 = NULL, *s2 = NULL;
	size_t *stack = NULL, top = 0, found = 0;
	int ret = 0;

	*ncp = 0;
	if (!opts_ok(o))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (isnan(x[i]) || (o->log_scale && !(x[i] > 0)) || isinf(x[i]))
			return -EINVAL;
	if (n < 2 * o->min_side || !max)
		return 0;
	y = malloc(n * sizeof(*y));
	work = malloc(n * sizeof(*work));
	s1 = malloc((n + 1) * sizeof(*s1));
	s2 = malloc((n + 1) * sizeof(*s2));
	stack = malloc(2 * (n + 1) * sizeof(*stack));
	if (!y || !work || !s1 || !s2 || !stack) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		y[i] = o->log_scale ? log(x[i]) : x[i];
	stack[top++] = 0;
	stack[top++] = n;
	while (top && found < max) {
		size_t b = stack[--top], a = stack[--top], k;
		double t, p;

		if (b - a < 2 * o->min_side)
			continue;
		t = max_t(y + a, b - a, o->min_side, s1, s2, &k);
		/* The seed follows the segment, not the order segments are searched in. */
		p = perm_p(y + a, b - a, t, o, o->seed ^ (a * 2654435761UL + b), work, s1, s2);
		if (!(p < o->alpha))
			continue;
		cp[found].at = a + k;
		cp[found].t = t;
		cp[found].p = p;
		found++;
		stack[top++] = a;
		stack[top++] = a + k;
		stack[top++] = a + k;
		stack[top++] = b;
	}
	qsort(cp, found, sizeof(*cp), by_at);
	/* Each one again between its neighbours (Otava's pass): a split that
	 * only stood out against a step found later is dropped, weakest first. */
	for (;;) {
		size_t weakest = found;

		for (size_t j = 0; j < found; j++) {
			size_t a = j ? cp[j - 1].at : 0, b = j + 1 < found ? cp[j + 1].at : n;

			cp[j].t = t_at(y + a, b - a, cp[j].at - a, s1, s2);
			cp[j].p = perm_p(y + a, b - a, cp[j].t, o, o->seed ^ (a * 2654435761UL + b),
					 work, s1, s2);
			if (!(cp[j].p < o->alpha) && (weakest == found || cp[j].p > cp[weakest].p))
				weakest = j;
		}
		if (weakest == found)
			break;
		memmove(cp + weakest, cp + weakest + 1, (found - weakest - 1) * sizeof(*cp));
		found--;
	}
	for (size_t j = 0; j < found; j++) {
		size_t prev = j ? cp[j - 1].at : 0, next = j + 1 < found ? cp[j + 1].at : n;

		ret = zc_change_pooled(x + prev, cp[j].at - prev, x + cp[j].at, next - cp[j].at,
				       o->log_scale, 0.95, &cp[j].step);
		if (ret)
			goto out;
	}
	*ncp = found;
out:
	free(y);
	free(work);
	free(s1);
	free(s2);
	free(stack);
	return ret;
}

/* Cached critical values: the search's over n nights at the defaults. */
#define CRIT_N_MAX 1024
#define CRIT_SERIES 4000

double zc_cp_critical_t(size_t n, const struct zc_cp_opts *o)
{
	static double cache[CRIT_N_MAX + 1];
	static double cache_alpha[CRIT_N_MAX + 1];
	static size_t cache_m[CRIT_N_MAX + 1];
	double *y, *s1, *s2, *mx, crit;
	gsl_rng *r;
	size_t at;

	if (!opts_ok(o) || n < 2 * o->min_side)
		return NAN;
	if (n <= CRIT_N_MAX && cache[n] > 0 && cache_alpha[n] == o->alpha && cache_m[n] == o->min_side)
		return cache[n];
	y = malloc(n * sizeof(*y));
	s1 = malloc((n + 1) * sizeof(*s1));
	s2 = malloc((n + 1) * sizeof(*s2));
	mx = malloc(CRIT_SERIES * sizeof(*mx));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!y || !s1 || !s2 || !mx || !r) {
		crit = NAN;
		goto out;
	}
	gsl_rng_set(r, o->seed + n);
	for (size_t i = 0; i < CRIT_SERIES; i++) {
		for (size_t j = 0; j < n; j++)
			y[j] = gsl_ran_ugaussian(r);
		mx[i] = max_t(y, n, o->min_side, s1, s2, &at);
	}
	gsl_sort(mx, 1, CRIT_SERIES);
	crit = gsl_stats_quantile_from_sorted_data(mx, 1, CRIT_SERIES, 1 - o->alpha);
	if (n <= CRIT_N_MAX) {
		cache[n] = crit;
		cache_alpha[n] = o->alpha;
		cache_m[n] = o->min_side;
	}
out:
	free(y);
	free(s1);
	free(s2);
	free(mx);
	if (r)
		gsl_rng_free(r);
	return crit;
}

double zc_cp_can_see(const double *x, size_t n, const struct zc_cp *cp, size_t ncp, size_t at,
		     const struct zc_cp_opts *o)
{
	double ss = 0, crit = zc_cp_critical_t(n, o);
	size_t df = 0;

	if (isnan(crit) || at > n || at < o->min_side || n - at < o->min_side)
		return NAN;
	/* The noise within the segments the change points leave. */
	for (size_t j = 0; j <= ncp; j++) {
		size_t a = j ? cp[j - 1].at : 0, b = j < ncp ? cp[j].at : n;
		double m = 0;

		for (size_t i = a; i < b; i++)
			m += o->log_scale ? log(x[i]) : x[i];
		m /= b > a ? (double)(b - a) : 1;
		for (size_t i = a; i < b; i++) {
			double d = (o->log_scale ? log(x[i]) : x[i]) - m;

			ss += d * d;
		}
		df += b > a ? b - a - 1 : 0;
	}
	if (!df)
		return NAN;
	return (crit + gsl_cdf_ugaussian_Pinv(ZC_VERDICT_POWER)) * sqrt(ss / (double)df) *
	       sqrt(1.0 / (double)at + 1.0 / (double)(n - at));
}
