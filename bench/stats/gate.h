/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise floor of an A/A pair: how far two invocations of one build come
 * apart (a fraction: 0.05 = 5%). An interval from one invocation cannot see
 * what moves between invocations; compare widens its intervals by this
 * (stats/verdict.h's zc_offset_sd_of_floor) so that drift is not called a change.
 */
#ifndef ZC_GATE_H
#define ZC_GATE_H

#include <stddef.h>

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

#endif
