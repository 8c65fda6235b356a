/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_HDR_H
#define ZC_HDR_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* A log-linear latency histogram (HdrHistogram's layout): values 1..highest
 * in nanoseconds, recorded with sigfigs (1..5) significant decimal digits.
 * Lower layers return 0 or -errno.
 *
 * Layout: 2^ceil(log2(2 * 10^sigfigs)) sub-buckets of width 2^unit (unit =
 * floor(log2(lowest))) in the first bucket; every further bucket covers twice
 * the range with the same number of (upper-half) sub-buckets, so a value's
 * bucket is never wider than value / 10^sigfigs. All counts live in one array
 * allocated by zc_hdr_new(); recording only indexes it. Two histograms made
 * with the same (lowest, highest, sigfigs) merge exactly: a run's histogram is
 * the sum of its workers'. Not thread-safe: one histogram per worker. */
struct zc_hdr;
int zc_hdr_new(uint64_t lowest, uint64_t highest, int sigfigs, struct zc_hdr **out); /* 0/-EINVAL/-ENOMEM */
void zc_hdr_free(struct zc_hdr *h);
void zc_hdr_reset(struct zc_hdr *h);
/* Record one value (clamped to highest, counted in h's 'clamped'). Never allocates: safe in a timed loop. */
void zc_hdr_record(struct zc_hdr *h, uint64_t v);
void zc_hdr_record_n(struct zc_hdr *h, uint64_t v, uint64_t n);
/* Record v, and, when v > expected_interval > 0, the values v - k*interval down to interval
 * (HdrHistogram's recordCorrectedValue: coordinated-omission correction for a closed loop).
 * Costs at most one step per bucket however long the stall: never a loop per missing value. */
void zc_hdr_record_corrected(struct zc_hdr *h, uint64_t v, uint64_t expected_interval);
/* Add src into dst (same layout: -EINVAL otherwise). */
int zc_hdr_merge(struct zc_hdr *dst, const struct zc_hdr *src);
uint64_t zc_hdr_count(const struct zc_hdr *h);
uint64_t zc_hdr_min(const struct zc_hdr *h);   /* 0 when empty */
uint64_t zc_hdr_max(const struct zc_hdr *h);   /* highest equivalent value of the top bucket; 0 when empty */
double zc_hdr_mean(const struct zc_hdr *h);    /* of bucket midpoints; 0 when empty */
double zc_hdr_stddev(const struct zc_hdr *h);  /* population; 0 when empty */
/* The value at percentile p (0..100], HdrHistogram's getValueAtPercentile semantics:
 * the highest equivalent value of the bucket holding the (p/100 * count + 0.5)th
 * value (at least the 1st); p above 100 is 100, p == 0 the lowest equivalent of
 * the minimum. 0 when empty. */
uint64_t zc_hdr_percentile(const struct zc_hdr *h, double p);
/* As a jansson object: {"count", "min_ns", "mean_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns",
 * "max_ns", "clamped", "sigfigs", "lowest_ns", "highest_ns", "buckets": [[value_ns, count], ...]}
 * where buckets lists only non-empty ones (value = the bucket's lowest equivalent value) so a reader
 * can rebuild and merge; and back: */
json_t *zc_hdr_to_json(const struct zc_hdr *h); /* NULL only when out of memory */
int zc_hdr_from_json(const json_t *j, struct zc_hdr **out, char *err, size_t errlen); /* 0/-EINVAL with a message naming the bad key */

/* Beyond the brief's API: */
uint64_t zc_hdr_clamped(const struct zc_hdr *h); /* values recorded above highest */
/* The range of values counted together with v: [lowest_equivalent, highest_equivalent]. */
uint64_t zc_hdr_lowest_equivalent(const struct zc_hdr *h, uint64_t v);
uint64_t zc_hdr_highest_equivalent(const struct zc_hdr *h, uint64_t v);

#endif
