// SPDX-License-Identifier: GPL-2.0
/*
 * make bench-trend-power: how well zcbench trend's change points
 * (stats/changepoint.h) find a step, against a t-test that knows the night.
 * Synthetic series of NIGHTS nights of lognormal noise (sd NOISE on the
 * logs, the night-to-night spread of a figure), a step of 2, 5, 10, 20 and
 * 40% (down) after night NIGHTS/2, and series without a step; SERIES series
 * each, fixed seed. Per step size: how often a change point is found within
 * one night of the step, the mean size it reports there, and how often a
 * two-sided pooled t-test at 5% that knows the night finds it; for the
 * step-free series, how many raise a change point anywhere.
 *   trend_power [NOISE [NIGHTS [SERIES]]]    (0.10 30 200)
 */
#include "stats/changepoint.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The pooled two-sample t of x[0..k) against x[k..n) on the logs. */
static double known_t(const double *x, size_t n, size_t k)
{
	double a[1024], b[1024];

	for (size_t i = 0; i < n; i++)
		(i < k ? a : b)[i < k ? i : i - k] = log(x[i]);
	double ma = gsl_stats_mean(a, 1, k), mb = gsl_stats_mean(b, 1, n - k);
	double ss = gsl_stats_variance_m(a, 1, k, ma) * (double)(k - 1) +
		    gsl_stats_variance_m(b, 1, n - k, mb) * (double)(n - k - 1);
	double sp = sqrt(ss / (double)(n - 2));

	return (mb - ma) / (sp * sqrt(1.0 / (double)k + 1.0 / (double)(n - k)));
}

int main(int argc, char **argv)
{
	static const double steps[] = { 0, 0.02, 0.05, 0.10, 0.20, 0.40 };
	double noise = argc > 1 ? atof(argv[1]) : 0.10;
	size_t nights = argc > 2 ? (size_t)atol(argv[2]) : 30;
	int series = argc > 3 ? atoi(argv[3]) : 200;
	size_t at = nights / 2;
	struct zc_cp_opts o;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double *x = malloc(nights * sizeof(*x)), crit;
	struct zc_cp cp[16];

	if (!r || !x || nights < 2 * ZC_CP_MIN_SIDE || nights > 1024 || series < 1 || !(noise > 0)) {
		fprintf(stderr, "usage: trend_power [NOISE>0 [NIGHTS 6..1024 [SERIES>0]]]\n");
		return 2;
	}
	gsl_rng_set(r, 20261206);
	zc_cp_defaults(&o);
	crit = gsl_cdf_tdist_Pinv(0.975, (double)nights - 2);
	printf("trend power: %zu nights, a step down after night %zu, night-to-night noise %.1f%% "
	       "(sd of the logs), %d series per row, fixed seed\n", nights, at, 100 * noise, series);
	printf("change points: binary segmentation, t on the logs, %u shuffles, p < %g (critical "
	       "|t| of the search %.2f; of a known night %.2f)\n", o.perms, o.alpha,
	       zc_cp_critical_t(nights, &o), crit);
	printf("\n%-6s %-22s %-14s %-18s %-8s %s\n", "step", "found within 1 night", "size found",
	       "known-night t-test", "gap", "could show (median)");
	for (size_t s = 0; s < sizeof(steps) / sizeof(*steps); s++) {
		int found = 0, known = 0, any = 0;
		double size = 0, see[4096];

		for (int k = 0; k < series; k++) {
			size_t n;

			for (size_t i = 0; i < nights; i++)
				x[i] = 10 * exp(gsl_ran_gaussian(r, noise)) * (i >= at ? 1 - steps[s] : 1);
			if (zc_changepoints(x, nights, &o, cp, 16, &n))
				return 1;
			any += n > 0;
			for (size_t j = 0; j < n; j++)
				if (cp[j].at + 1 >= at && cp[j].at <= at + 1) {
					found++;
					size += expm1(cp[j].step.d);
					break;
				}
			known += fabs(known_t(x, nights, at)) > crit;
			see[k % 4096] = zc_cp_can_see(x, nights, cp, n, at, &o);
		}
		gsl_sort(see, 1, series < 4096 ? series : 4096);
		if (s == 0) {
			printf("%-6s %-22s %-14s %-18s %-8s %.1f%%\n", "none",
			       "", "", "", "", 100 * expm1(gsl_stats_median_from_sorted_data(
				       see, 1, series < 4096 ? series : 4096)));
			printf("       step-free series raising a change point anywhere: %d of %d "
			       "(%.1f%%; goal: at most 1 in 20)\n", any, series, 100.0 * any / series);
			continue;
		}
		{
			char sz[32] = "-";
			size_t ns = series < 4096 ? (size_t)series : 4096;

			if (found)
				snprintf(sz, sizeof(sz), "%+.1f%%", 100 * size / found);
			printf("-%-5.0f %5.1f%% (%3d of %d)   %-14s %5.1f%%             %+5.1f   "
			       "%.1f%%\n", 100 * steps[s], 100.0 * found / series, found, series, sz,
			       100.0 * known / series, 100.0 * (found - known) / series,
			       100 * expm1(gsl_stats_median_from_sorted_data(see, 1, ns)));
		}
	}
	free(x);
	gsl_rng_free(r);
	return 0;
}
