// SPDX-License-Identifier: GPL-2.0
/*
 * Summaries of a series (median, mean, stddev, quantiles) and their
 * intervals, through GSL.
 */
#include "stats/stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int zc_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double zc_median(const double *v, size_t n)
{
	struct zc_summary s;

	zc_summarize(v, n, &s);
	return s.median;
}

void zc_summarize(const double *v, size_t n, struct zc_summary *s)
{
	double *t;
	double sum = 0, ss = 0;

	s->n = n;
	if (!n || !(t = malloc(n * sizeof(*t)))) {
		s->median = s->min = s->max = s->mean = s->stddev = NAN;
		return;
	}
	memcpy(t, v, n * sizeof(*t));
	qsort(t, n, sizeof(*t), zc_cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += t[i];
	s->mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (t[i] - s->mean) * (t[i] - s->mean);
	s->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->min = t[0];
	s->max = t[n - 1];
	s->median = median_sorted(t, n);
	free(t);
}

double zc_hmean(const double *v, size_t n)
{
	double inv = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		inv += 1 / v[i];
	}
	return n / inv;
}

struct ranked {
	double v;	/* first: zc_cmp_double sorts them by v */
	int side;
};

/* Number of arrangements of na + nb distinct values per U value of the first
 * sample: cnt[u], u in 0..na*nb, from f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)
 * (the largest value belongs to the first sample or to the second). */
static double *mwu_counts(size_t na, size_t nb)
{
	size_t umax = na * nb, w = umax + 1;
	double *prev = calloc((nb + 1) * w, sizeof(double));
	double *cur = calloc((nb + 1) * w, sizeof(double)), *out = NULL;

	if (!prev || !cur)
		goto free_both;
	/* m = 0: one arrangement, U = 0, whatever n. */
	for (size_t n = 0; n <= nb; n++)
		prev[n * w] = 1;
	for (size_t m = 1; m <= na; m++) {
		memset(cur, 0, (nb + 1) * w * sizeof(double));
		cur[0] = 1; /* n = 0 */
		for (size_t n = 1; n <= nb; n++)
			for (size_t u = 0; u <= m * n; u++)
				cur[n * w + u] = (u >= n ? prev[n * w + u - n] : 0) +
						 cur[(n - 1) * w + u];
		double *t = prev;

		prev = cur;
		cur = t;
	}
	out = malloc(w * sizeof(double));
	if (out)
		memcpy(out, prev + nb * w, w * sizeof(double));
free_both:
	free(prev);
	free(cur);
	return out;
}

static double mwu_exact_p(double u, size_t na, size_t nb)
{
	double *cnt = mwu_counts(na, nb), total = 0, le = 0, ge = 0;
	size_t umax = na * nb;

	if (!cnt)
		return NAN;
	for (size_t k = 0; k <= umax; k++) {
		total += cnt[k];
		if (k <= u + 1e-9)
			le += cnt[k];
		if (k + 1e-9 >= u)
			ge += cnt[k];
	}
	free(cnt);
	return fmin(1.0, 2 * fmin(le, ge) / total);
}

int zc_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zc_test *t)
{
	size_t n = na + nb;
	struct ranked *r;
	double rank_a = 0, tie_term = 0, u, mu, sigma;
	int ties = 0;

	t->kind = ZC_TEST_MWU;
	t->stat = t->df = t->p = NAN;
	t->exact = 0;
	if (na < ZC_TEST_MIN_N || nb < ZC_TEST_MIN_N)
		return -EDOM;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < na; i++)
		r[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		r[na + i] = (struct ranked){ b[i], 1 };
	qsort(r, n, sizeof(*r), zc_cmp_double);
	/* Midranks: a run of equal values i..j-1 all get the mean of ranks i+1..j. */
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		double midrank = (i + 1 + j) / 2.0, tn = j - i;

		for (size_t k = i; k < j; k++)
			if (!r[k].side)
				rank_a += midrank;
		if (tn > 1) {
			ties = 1;
			tie_term += tn * tn * tn - tn;
		}
	}
	free(r);
	u = rank_a - na * (na + 1) / 2.0;
	t->stat = u;
	if (!ties && na <= ZC_MWU_EXACT_MAX && nb <= ZC_MWU_EXACT_MAX) {
		t->exact = 1;
		t->p = mwu_exact_p(u, na, nb);
		return isnan(t->p) ? -ENOMEM : 0;
	}
	mu = na * nb / 2.0;
	sigma = sqrt(na * nb / 12.0 * ((n + 1) - tie_term / ((double)n * (n - 1))));
	if (sigma == 0) {
		t->p = 1; /* every value equal */
		return 0;
	}
	/* Continuity correction towards the mean, scipy's default. */
	t->p = fmin(1.0, 2 * gsl_cdf_ugaussian_Q(fmax(0, fabs(u - mu) - 0.5) / sigma));
	return 0;
}
