/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a run's DUT core goes, read back from results: the profile's
 * buckets (runs[].profile, bench/profile/), the /proc/stat split of the
 * core's time, and what one path saves over another per byte. report,
 * plot, the dashboard, export and compare's perf-profile lines
 * (compare_profile.c) read these.
 */
#ifndef ZC_BREAKDOWN_H
#define ZC_BREAKDOWN_H

#include "profile/profile.h"
#include "results/results.h"

#include <stdio.h>

/* The run's profile summary (runs[].profile), NULL when it was not profiled. */
json_t *zc_an_profile(json_t *run);
/* A bucket's share of the run's profiled samples in percent; NaN: none. */
double zc_an_bucket(json_t *run, enum zc_bucket b);
/* Are any of the runs profiled? */
bool zc_an_any_profile(json_t *runs);

/*
 * Per byte, what the numerator's path costs the core against the
 * denominator's: 1/Gbps-per-core (median) split by the profile's busy
 * buckets (the idle loop taken out). The Gbps per core is the headline's,
 * or the DUT's own (another process's share of the core taken out, own set)
 * when such a share passed ZC_FOREIGN_SHARE_MAX in a sample. saves_pct:
 * percent of den's core time per byte that num does not spend; delta_pts:
 * each bucket's change in points of den's core time per byte (they add up to
 * -saves_pct); *_ms_per_gb: each side's core milliseconds per GB by bucket.
 */
struct zc_saving {
	double saves_pct;
	double delta_pts[ZC_BUCKET_NR];
	double num_ms_per_gb[ZC_BUCKET_NR], den_ms_per_gb[ZC_BUCKET_NR];
	bool own;
};
/* 0, -ENODATA (a side without profile or Gbps per core) */
int zc_an_saving(json_t *num, json_t *den, struct zc_saving *s);
/* A run's core milliseconds per GB by bucket (busy time only), as above:
 * 0, -ENODATA. own (may be NULL): the DUT's own time was used. */
int zc_an_bucket_cost(json_t *run, double ms_per_gb[ZC_BUCKET_NR], bool *own);

/*
 * The DUT core's time over the window, as shares of it (means over the ok
 * samples): user and system of /proc/stat with the foreign part (another
 * process on the core) taken out in proportion, softirq, irq, idle
 * (idle+iowait), steal, foreign. foreign is NaN when not known (no DUT
 * thread times in the reports). 0, -ENODATA.
 */
struct zc_core_split {
	double user, system, softirq, irq, idle, steal, foreign;
	size_t n;
};
int zc_an_core_split(json_t *run, struct zc_core_split *cs);

/* Did the kernel copy a "zero-copy" path's bytes anyway? The DUT's
 * mode_report copied_fraction (MSG_ZEROCOPY, SEND_ZC over loopback or veth),
 * median over samples; NaN when the mode does not say. */
double zc_an_copied_fraction(json_t *run);

/* export: a bucket's share (percent) in one sample: its own profile's
 * when it was profiled, else the run's; NaN when neither. */
double zc_an_sample_bucket(json_t *run, json_t *sample, enum zc_bucket b);
/* BMF: "profile_BUCKET_pct": {value, lower_value, upper_value} into
 * measures (median, min, max over the samples' profiles, or the run's). */
void zc_export_profile_buckets(json_t *run, json_t *measures);

/* report's section: the buckets of each profiled run and, for each headline
 * pair with both runs profiled, "splice saves X% of the core: ...". The
 * buckets' table fits width (0: one block, however wide). */
void zc_report_breakdown(FILE *f, json_t *root, int width);

#endif
