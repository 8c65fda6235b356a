/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_STATS_H
#define ZC_STATS_H

#include <stddef.h>

struct zc_summary {
	size_t n;
	double median, min, max, mean, stddev; /* stddev: sample (n-1); 0 if n < 2 */
};

/* Summarise v[0..n); v is not modified. n == 0 gives all-NaN fields. */
void zc_summarize(const double *v, size_t n, struct zc_summary *s);
double zc_median(const double *v, size_t n); /* NaN if n == 0 */
/* qsort's comparison of two doubles (ascending). */
int zc_cmp_double(const void *a, const void *b);
/* Harmonic mean (mmtests' Hmean for throughputs); NaN if n == 0 or a value <= 0. */
double zc_hmean(const double *v, size_t n);

/* The two-sample test, two-sided. Below this many samples on either side no
 * test is run and the result says "n too small". */
#define ZC_TEST_MIN_N 3
/* Exact Mann-Whitney distribution up to this many samples per side (no ties). */
#define ZC_MWU_EXACT_MAX 20

enum zc_test_kind { ZC_TEST_MWU };

struct zc_test {
	enum zc_test_kind kind;
	double stat;	/* U of the first sample (midranks) */
	double df;	/* NaN: a rank test has no degrees of freedom */
	double p;	/* two-sided p-value */
	int exact;	/* MWU: exact distribution (1) or normal approximation (0) */
};

/* Mann-Whitney U: exact p (no ties, both n <= ZC_MWU_EXACT_MAX), else the
 * normal approximation with tie correction and continuity correction, as
 * scipy.stats.mannwhitneyu does. 0, -EDOM (a side has < ZC_TEST_MIN_N), -ENOMEM */
int zc_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zc_test *t);

#endif
