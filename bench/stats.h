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

#endif
