// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
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
	qsort(t, n, sizeof(*t), cmp_double);
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
