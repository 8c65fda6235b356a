/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A regression gate that does not flap: p-values corrected for the number of
 * metrics tested, a noise floor from an A/A measurement (or the run's own
 * spread), and one decision that says which of its conditions held.
 * Changes, thresholds and floors are fractions: 0.05 = 5%.
 */
#ifndef ZC_GATE_H
#define ZC_GATE_H

#include <stdbool.h>
#include <stddef.h>

/* Multiple-testing corrections (the names are what results record). */
enum zc_padj {
	ZC_PADJ_NONE,	/* "none": p as tested */
	ZC_PADJ_HOLM,	/* "holm": step-down, controls the family-wise error rate */
	ZC_PADJ_BH,	/* "bh": Benjamini-Hochberg, controls the false discovery rate */
};
const char *zc_padj_name(enum zc_padj m); /* "none", "holm", "bh"; NULL if unknown */
int zc_padj_from_name(const char *name); /* enum zc_padj or -EINVAL */

/* Adjusted p-values of p[0..n) into adj[0..n), in the input order (adj may be
 * p). NaN stays NaN and does not count as a test; the rest is as R's
 * p.adjust: Holm adj(i) = max over j <= i of min(1, (m-j+1) p(j)), BH adj(i) =
 * min over j >= i of min(1, m/j p(j)), p(1) <= ... <= p(m) the m tested.
 * 0, -EDOM (a p outside [0, 1]), -EINVAL (unknown method), -ENOMEM */
int zc_p_adjust(const double *p, size_t n, enum zc_padj method, double *adj);

/*
 * Noise floor from an A/A pair: a[i], b[i] are repetition i of two
 * interleaved runs of the same build. The floor is the `quantile` (0.95)
 * quantile of |log m*| over `rounds` bootstrap resamples of the pairs (MT19937,
 * `seed`), m* the median paired ratio of a resample, returned as
 * exp(q) - 1. Why this and not the interval's half-width: a same-build
 * comparison shows both the A/A pair's offset (a run that is always second in
 * its round, a core that stays warmer) and the uncertainty of its median, and
 * this figure holds both, where a half-width around an offset median hides the
 * offset; |log| makes it the same whichever run is called A. It is the
 * smallest change that a comparison with about as many pairs can tell from
 * noise; more pairs in the comparison make it conservative. Pairs with a side
 * NaN or <= 0 are dropped (*used: pairs kept, may be NULL).
 * 0, -EDOM (no pair, rounds 0, quantile outside (0,1)), -ENOMEM
 */
int zc_noise_floor_aa(const double *a, const double *b, size_t n, size_t rounds,
		      unsigned long seed, double quantile, double *floor_rel, size_t *used);
/*
 * Noise floor without an A/A file, from one run's own samples v[0..n) (NaN
 * and values <= 0 dropped): the `quantile` quantile of |log(median(x*) /
 * median(y*))|, x* and y* two independent resamples of n values each from v,
 * returned as exp(q) - 1: how far apart two runs of this spread come out
 * when nothing changed. It cannot see what drifts between runs, so it is
 * smaller than an A/A floor; compare says which one it used.
 * 0, -EDOM (fewer than 2 values, rounds 0, quantile outside (0,1)), -ENOMEM
 */
int zc_noise_floor_within(const double *v, size_t n, size_t rounds, unsigned long seed,
			  double quantile, double *floor_rel);

/* Which conditions of the gate held, so compare can print each one. */
struct zc_gate {
	bool significant;	/* p_adj < alpha */
	bool over_threshold;	/* |change| > threshold */
	bool over_noise;	/* |change| > noise floor (true when none is known) */
	bool noise_known;	/* a noise floor was given */
	bool worse;		/* the change is in the metric's bad direction */
	bool regression;	/* all of significant, over_threshold, over_noise, worse */
	bool improvement;	/* the same three in the metric's good direction */
};
/*
 * The gate: a regression iff the adjusted p is under alpha, the change
 * (new/old - 1, signed) is beyond both the threshold and the noise floor, and
 * it goes the bad way for the metric (higher_is_better 1: a drop, -1: a rise,
 * 0: neither direction is bad, so never a regression). noise_rel NaN: no
 * floor known, that condition holds and noise_known says so.
 * 0, -EDOM (p_adj, change or threshold NaN, alpha outside (0,1), a negative
 * threshold or floor; *g all false)
 */
int zc_gate_judge(double p_adj, double alpha, double change_rel, int higher_is_better,
		  double threshold_rel, double noise_rel, struct zc_gate *g);

#endif
