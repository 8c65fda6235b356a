/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headline ratio of a run with alternate (role/slices.h): in each sample
 * the DUT role's slices, the dropped ones left out, are taken in adjacent
 * A/B pairs; each slice's efficiency is its bytes per second of cost (the
 * DUT workers' thread CPU + softirq + irq of their CPUs), each pair's ratio
 * B over A; the run's ratio is the median over the pairs of all its samples
 * with a percentile bootstrap interval over pairs (stats/paired.h).
 */
#ifndef ZC_RESULTS_SLICES_H
#define ZC_RESULTS_SLICES_H

#include "stats/paired.h"

#include <jansson.h>
#include <stddef.h>

/* One slice's bytes per cost second, the cost max(cpu_ns, busy_ns) (files
 * before busy_ns: cpu_ns + softirq_ns); NaN without a cost. */
double zc_slice_eff(json_t *slice);
/*
 * The pairs of one sample's slices: walking the kept slices in order, a
 * slice and the next form a pair when their sides differ (then both are
 * used), else the walk moves on by one. B's efficiency into num[i], A's into
 * den[i], at most max pairs. The number of pairs.
 */
size_t zc_slice_pairs(json_t *slices, double *num, double *den, size_t max);

struct zc_slice_ratio {
	struct zc_paired r;	/* median of the pairs' ratios, its interval */
	size_t samples;		/* samples that gave pairs */
	size_t dropped;		/* slices left out (slice_drop) */
};

/* Fewer adjacent pairs than this give a ratio without an interval. */
#define ZC_SLICE_MIN_PAIRS 5

/* A run's slice ratio over its ok, undisturbed samples. 0, -ENOENT (not an
 * alternate run), -EDOM (no pair), -ENOMEM */
int zc_slice_ratio(json_t *run, struct zc_slice_ratio *out);
/* Every alternate run's ratio: [{"run", "a", "b", "chunk", "pipe_size",
 * "pairs", "samples", "slices_dropped", "ratio", "lo", "hi",
 * "half_width_pct", "level"}] (runs without pairs give "ratio": null and
 * "why"; with fewer than ZC_SLICE_MIN_PAIRS, the ratio, no interval, "why"). */
json_t *zc_slices_headline(json_t *runs);

#endif
