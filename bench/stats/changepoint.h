/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points of a series (one figure per night, in time order).
 *
 * The method is e-divisive's binary segmentation (Matteson and James 2014, as
 * MongoDB's performance CI and Apache Otava/Hunter run it): the best split of
 * a segment is found, tested, and when significant both sides are searched
 * again. The divergence is the two-sample t statistic of the logs at each
 * split (Otava's choice for Gaussian noise; e-divisive's energy distance is
 * for any distribution, at a price in power), and its significance is
 * e-divisive's: the largest |t| over every split of the segment against the
 * largest |t| of ZC_CP_PERMUTATIONS shuffles of that segment, so the search
 * over every night is paid for (a known night's test would need |t| > 2.05
 * at 30 nights; the search needs about 3.1). The shuffles come from a fixed
 * seed: one series always gives the same answer.
 *
 * Each change point's step is the segment after it against the segment
 * before it (up to the neighbouring change points), as a zc_change with a
 * pooled t interval on the logs (stats/verdict.h, zc_change_pooled: nights
 * share one spread), to be judged against +-T like every other change.
 */
#ifndef ZC_CHANGEPOINT_H
#define ZC_CHANGEPOINT_H

#include "stats/verdict.h"

#include <stdbool.h>
#include <stddef.h>

/* Nights on each side of a change point at least (an interval needs 3). */
#define ZC_CP_MIN_SIDE 3
#define ZC_CP_PERMUTATIONS 999
#define ZC_CP_ALPHA 0.05
#define ZC_CP_SEED 20261206UL

struct zc_cp_opts {
	double alpha;		/* a split is taken when its p < alpha */
	unsigned perms;		/* shuffles per test */
	unsigned long seed;
	size_t min_side;	/* >= 2 */
	bool log_scale;		/* the values are ratios or rates (> 0): logs */
};
/* alpha 0.05, 999 shuffles, the fixed seed, 3 nights a side, logs */
void zc_cp_defaults(struct zc_cp_opts *o);

struct zc_cp {
	size_t at;		/* the first night after the step */
	double t;		/* the split's |t| */
	double p;		/* its permutation p-value in the segment it was found in */
	struct zc_change step;	/* after against before, pooled t, 95% */
};

/*
 * The change points of x[0..n) (no NaN: a caller leaves missing nights
 * out), sorted by at, at most max of them. 0, -EINVAL (a value <= 0 on the
 * log scale, NaN, bad options), -ENOMEM.
 */
int zc_changepoints(const double *x, size_t n, const struct zc_cp_opts *o, struct zc_cp *cp,
		    size_t max, size_t *ncp);

/*
 * The smallest step (a fraction on the log scale, else points) a split of
 * x[0..n) at night `at` would be found with about ZC_VERDICT_POWER chance:
 * (t_crit + z_power) * s * sqrt(1/n1 + 1/n2), with s the spread within the
 * segments either side of every change point in cp (the series' noise, its
 * steps left out) and t_crit the critical |t| of the search over n nights.
 * NaN when a side has fewer than o->min_side nights.
 */
double zc_cp_can_see(const double *x, size_t n, const struct zc_cp *cp, size_t ncp, size_t at,
		     const struct zc_cp_opts *o);

/* The critical |t| (1 - alpha quantile) of the largest |t| over every split
 * of n exchangeable nights, by shuffles of Gaussian noise from the fixed
 * seed (cached per n). NaN for n < 2 min_side. */
double zc_cp_critical_t(size_t n, const struct zc_cp_opts *o);

#endif
