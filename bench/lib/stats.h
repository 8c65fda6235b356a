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
/* Harmonic mean (mmtests' Hmean for throughputs); NaN if n == 0 or a value <= 0. */
double zc_hmean(const double *v, size_t n);

/* Two-sample tests, two-sided. Below this many samples on either side no test
 * is run and the result says "n too small". */
#define ZC_TEST_MIN_N 3
/* Exact Mann-Whitney distribution up to this many samples per side (no ties). */
#define ZC_MWU_EXACT_MAX 20

enum zc_test_kind { ZC_TEST_MWU, ZC_TEST_WELCH };

struct zc_test {
	enum zc_test_kind kind;
	double stat;	/* U of the first sample (midranks), or Welch's t */
	double df;	/* Welch: Welch-Satterthwaite degrees of freedom; MWU: NaN */
	double p;	/* two-sided p-value */
	int exact;	/* MWU: exact distribution (1) or normal approximation (0) */
};

/* Mann-Whitney U: exact p (no ties, both n <= ZC_MWU_EXACT_MAX), else the
 * normal approximation with tie correction and continuity correction, as
 * scipy.stats.mannwhitneyu does. 0, -EDOM (a side has < ZC_TEST_MIN_N), -ENOMEM */
int zc_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct zc_test *t);
/* Welch's unequal-variance t-test. 0, -EDOM (n too small) */
int zc_welch(const double *a, size_t na, const double *b, size_t nb, struct zc_test *t);
/* Smallest two-sided p the exact U test can reach with na, nb samples: what
 * tells you that 3 against 3 repetitions can never be significant at 0.05. */
double zc_mann_whitney_min_p(size_t na, size_t nb);

/* Percentile bootstrap CI of median(num) / median(den): both sides resampled
 * with replacement, independently, `rounds` times, from a fixed-seed
 * generator (MT19937), so the same input always gives the same bounds.
 * level is e.g. 0.95. 0, -EDOM (a side empty or a zero median), -ENOMEM */
int zc_bootstrap_ratio_ci(const double *num, size_t nn, const double *den, size_t nd,
			  size_t rounds, unsigned long seed, double level, double *lo,
			  double *hi);

#endif
