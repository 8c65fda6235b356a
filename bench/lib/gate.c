// SPDX-License-Identifier: GPL-2.0
#include "lib/gate.h"

#include <errno.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const padj_names[] = {
	[ZC_PADJ_NONE] = "none",
	[ZC_PADJ_HOLM] = "holm",
	[ZC_PADJ_BH] = "bh",
};

const char *zc_padj_name(enum zc_padj m)
{
	return (unsigned)m < sizeof(padj_names) / sizeof(padj_names[0]) ? padj_names[m] : NULL;
}

int zc_padj_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(padj_names) / sizeof(padj_names[0]); i++)
		if (!strcmp(name, padj_names[i]))
			return (int)i;
	return -EINVAL;
}

struct ranked_p {
	double p;
	size_t i;
};

/* By p, then by input position: equal p-values get equal adjusted values
 * anyway, the position only makes the order independent of qsort. */
static int cmp_ranked_p(const void *a, const void *b)
{
	const struct ranked_p *x = a, *y = b;

	if (x->p != y->p)
		return (x->p > y->p) - (x->p < y->p);
	return (x->i > y->i) - (x->i < y->i);
}

int zc_p_adjust(const double *p, size_t n, enum zc_padj method, double *adj)
{
	struct ranked_p *r;
	size_t m = 0;

	if (!zc_padj_name(method))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]) && !(p[i] >= 0 && p[i] <= 1))
			return -EDOM;
	r = malloc((n ? n : 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked_p){ p[i], i };
	qsort(r, m, sizeof(*r), cmp_ranked_p);
	/* Only the tested ones are written below: NaN stays NaN (adj may be p). */
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	if (method == ZC_PADJ_HOLM) {
		double run_max = 0;

		for (size_t j = 0; j < m; j++) {
			run_max = fmax(run_max, fmin(1.0, (double)(m - j) * r[j].p));
			adj[r[j].i] = run_max;
		}
	} else if (method == ZC_PADJ_BH) {
		double run_min = 1;

		for (size_t j = m; j-- > 0;) {
			run_min = fmin(run_min, fmin(1.0, (double)m / (j + 1) * r[j].p));
			adj[r[j].i] = run_min;
		}
	} else {
		for (size_t j = 0; j < m; j++)
			adj[r[j].i] = r[j].p;
	}
	free(r);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of k values drawn with replacement from v[0..k), tmp of k. */
static double resampled_median(gsl_rng *rng, const double *v, size_t k, double *tmp)
{
	for (size_t i = 0; i < k; i++)
		tmp[i] = v[gsl_rng_uniform_int(rng, k)];
	return gsl_stats_median(tmp, 1, k);
}

/*
 * The quantile of |stat| over `rounds` resamples, as exp(q) - 1. v holds k log
 * values; two_sample: stat = median(x*) - median(y*) (both from v), else
 * stat = median(x*).
 */
static int abs_log_quantile(const double *v, size_t k, bool two_sample, size_t rounds,
			    unsigned long seed, double quantile, double *floor_rel)
{
	double *tmp = malloc(k * sizeof(*tmp)), *s = malloc(rounds * sizeof(*s));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	int ret = 0;

	if (!tmp || !s || !rng) {
		ret = -ENOMEM;
		goto free_all;
	}
	gsl_rng_set(rng, seed);
	for (size_t b = 0; b < rounds; b++) {
		double x = resampled_median(rng, v, k, tmp);

		s[b] = fabs(two_sample ? x - resampled_median(rng, v, k, tmp) : x);
	}
	qsort(s, rounds, sizeof(*s), cmp_double);
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
	ret = k ? abs_log_quantile(lr, k, false, rounds, seed, quantile, floor_rel) : -EDOM;
	free(lr);
	return ret;
}

int zc_noise_floor_within(const double *v, size_t n, size_t rounds, unsigned long seed,
			  double quantile, double *floor_rel)
{
	double *lv;
	size_t k = 0;
	int ret;

	*floor_rel = NAN;
	if (!rounds || !(quantile > 0 && quantile < 1))
		return -EDOM;
	lv = malloc((n ? n : 1) * sizeof(*lv));
	if (!lv)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (v[i] > 0 && isfinite(v[i]))
			lv[k++] = log(v[i]);
	ret = k >= 2 ? abs_log_quantile(lv, k, true, rounds, seed, quantile, floor_rel) : -EDOM;
	free(lv);
	return ret;
}

int zc_gate_judge(double p_adj, double alpha, double change_rel, int higher_is_better,
		  double threshold_rel, double noise_rel, struct zc_gate *g)
{
	double mag = fabs(change_rel);

	*g = (struct zc_gate){ 0 };
	if (isnan(p_adj) || isnan(change_rel) || !(alpha > 0 && alpha < 1) ||
	    !(threshold_rel >= 0) || noise_rel < 0)
		return -EDOM;
	g->noise_known = !isnan(noise_rel);
	g->significant = p_adj < alpha;
	g->over_threshold = mag > threshold_rel;
	g->over_noise = !g->noise_known || mag > noise_rel;
	g->worse = (higher_is_better > 0 && change_rel < 0) ||
		   (higher_is_better < 0 && change_rel > 0);
	bool real = g->significant && g->over_threshold && g->over_noise;

	g->regression = real && g->worse;
	g->improvement = real && !g->worse && change_rel != 0 && higher_is_better != 0;
	return 0;
}
