/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Paired statistics for interleaved repetitions: repetition i of two runs was
 * taken in the same round, adjacent in time, so num[i] and den[i] share the
 * machine's state and their ratio cancels what drifts between rounds. The
 * unpaired tools (medians of each side, Mann-Whitney) are in stats/stats.h.
 *
 * Every function takes the two sides as equal-length arrays; NaN marks a
 * missing side (a failed or disturbed sample) and drops that pair only.
 */
#ifndef ZC_PAIRED_H
#define ZC_PAIRED_H

#include <stdbool.h>
#include <stddef.h>

/* Ratio num[i] / den[i] of every pair into ratio[0..n) (NaN where a side is
 * missing, not finite or den[i] == 0), complete pairs in *kept. 0 or -EINVAL */
int zc_paired_ratios(const double *num, const double *den, size_t n, double *ratio,
		     size_t *kept);

struct zc_paired {
	size_t n;	/* complete pairs used */
	size_t dropped;	/* pairs left out: a missing side or den == 0 */
	double median;	/* median of the paired ratios */
	double lo, hi;	/* percentile bootstrap interval of that median */
	double level;	/* of the interval, e.g. 0.95 */
	double half_width_rel; /* (hi - lo) / 2 / median, a fraction (0.03 = 3%) */
};

/* Median of the paired ratios and its percentile bootstrap interval: the
 * complete pairs are resampled with replacement `rounds` times (MT19937 with
 * `seed`, so the same input always gives the same bounds) and the median of
 * each resample's ratios taken; lo/hi are the (1-level)/2 and (1+level)/2
 * quantiles of those medians (GSL's linear interpolation, numpy's default).
 * One pair gives lo = hi = its ratio. 0, -EDOM (no complete pair, rounds 0,
 * level outside (0,1)), -ENOMEM */
int zc_paired_ratio_ci(const double *num, const double *den, size_t n, size_t rounds,
		       unsigned long seed, double level, struct zc_paired *out);

/* (hi - lo) / 2 / |center| as a fraction; NaN if a bound or the center is not
 * finite or the center is 0. Half the width, not the longer side: the
 * percentile interval is asymmetric and its width is what more rounds shrink. */
double zc_ci_half_width_rel(double lo, double hi, double center);
/* True iff zc_ci_half_width_rel() is finite and strictly under target_rel
 * (0.03 for ci_target = 3%): `repetitions = auto` stops taking rounds when
 * every headline ratio says true. */
bool zc_ci_tight(double lo, double hi, double center, double target_rel);

#endif
