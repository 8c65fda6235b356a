// SPDX-License-Identifier: GPL-2.0
/* The log-linear histogram of lib/hdr.h. The index arithmetic is
 * HdrHistogram's (Gil Tene's layout, as HdrHistogram_c computes it), so the
 * values and percentiles read from it agree with what the field's tools print
 * for the same data. */
#include "lib/hdr.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct zc_hdr {
	uint64_t lowest, highest;
	int sigfigs;
	int unit_mag;		/* floor(log2(lowest)): the first bucket's step is 2^unit_mag */
	int sub_half_mag;	/* log2(sub_half) */
	uint64_t sub_count;	/* sub-buckets in the first bucket: 2^ceil(log2(2 * 10^sigfigs)) */
	uint64_t sub_half;	/* ... of which every further bucket keeps the upper half */
	uint64_t sub_mask;	/* (sub_count - 1) << unit_mag */
	size_t counts_len;
	uint64_t total, clamped;
	uint64_t min_raw, max_raw; /* of the values recorded (after clamping) */
	uint64_t counts[];
};

static int bucket_of(const struct zc_hdr *h, uint64_t v)
{
	/* sub_mask is never 0, so clzll is defined */
	int pow2ceil = 64 - __builtin_clzll(v | h->sub_mask);

	return pow2ceil - h->unit_mag - (h->sub_half_mag + 1);
}

static size_t index_of(const struct zc_hdr *h, uint64_t v)
{
	int b = bucket_of(h, v);
	uint64_t sub = v >> (b + h->unit_mag);

	return ((size_t)(b + 1) << h->sub_half_mag) + (sub - h->sub_half);
}

static uint64_t value_at_index(const struct zc_hdr *h, size_t i)
{
	long b = (long)(i >> h->sub_half_mag) - 1;
	uint64_t sub = (i & (h->sub_half - 1)) + h->sub_half;

	if (b < 0) {
		sub -= h->sub_half;
		b = 0;
	}
	return sub << (b + h->unit_mag);
}

uint64_t zc_hdr_lowest_equivalent(const struct zc_hdr *h, uint64_t v)
{
	int b = bucket_of(h, v);

	return (v >> (b + h->unit_mag)) << (b + h->unit_mag);
}

static uint64_t range_size(const struct zc_hdr *h, uint64_t v)
{
	int b = bucket_of(h, v);

	if ((v >> (b + h->unit_mag)) >= h->sub_count)
		b++;
	return 1ULL << (h->unit_mag + b);
}

uint64_t zc_hdr_highest_equivalent(const struct zc_hdr *h, uint64_t v)
{
	return zc_hdr_lowest_equivalent(h, v) + range_size(h, v) - 1;
}

static uint64_t median_equivalent(const struct zc_hdr *h, uint64_t v)
{
	return zc_hdr_lowest_equivalent(h, v) + (range_size(h, v) >> 1);
}

int zc_hdr_new(uint64_t lowest, uint64_t highest, int sigfigs, struct zc_hdr **out)
{
	uint64_t largest_exact, smallest_untrackable;
	int sub_count_mag = 0, unit_mag, sub_half_mag, buckets = 1;
	size_t counts_len;
	struct zc_hdr *h;

	*out = NULL;
	if (sigfigs < 1 || sigfigs > 5 || lowest < 1 || highest > INT64_MAX ||
	    highest / 2 < lowest)
		return -EINVAL;
	largest_exact = 2;
	for (int i = 0; i < sigfigs; i++)
		largest_exact *= 10;
	while ((1ULL << sub_count_mag) < largest_exact)
		sub_count_mag++;
	sub_half_mag = sub_count_mag - 1;
	unit_mag = 63 - __builtin_clzll(lowest);
	/* the first bucket's top, sub_count << unit_mag, must fit in 63 bits */
	if (unit_mag + sub_half_mag > 61)
		return -EINVAL;
	smallest_untrackable = (1ULL << sub_count_mag) << unit_mag;
	while (smallest_untrackable <= highest) {
		if (smallest_untrackable > INT64_MAX / 2) {
			buckets++;
			break;
		}
		smallest_untrackable <<= 1;
		buckets++;
	}
	counts_len = (size_t)(buckets + 1) << sub_half_mag;
	h = calloc(1, sizeof(*h) + counts_len * sizeof(h->counts[0]));
	if (!h)
		return -ENOMEM;
	h->lowest = lowest;
	h->highest = highest;
	h->sigfigs = sigfigs;
	h->unit_mag = unit_mag;
	h->sub_half_mag = sub_half_mag;
	h->sub_count = 1ULL << sub_count_mag;
	h->sub_half = h->sub_count / 2;
	h->sub_mask = (h->sub_count - 1) << unit_mag;
	h->counts_len = counts_len;
	h->min_raw = UINT64_MAX;
	*out = h;
	return 0;
}

void zc_hdr_free(struct zc_hdr *h)
{
	free(h);
}

void zc_hdr_reset(struct zc_hdr *h)
{
	memset(h->counts, 0, h->counts_len * sizeof(h->counts[0]));
	h->total = h->clamped = h->max_raw = 0;
	h->min_raw = UINT64_MAX;
}

void zc_hdr_record_n(struct zc_hdr *h, uint64_t v, uint64_t n)
{
	if (!n)
		return;
	if (v > h->highest) {
		v = h->highest;
		h->clamped += n;
	}
	h->counts[index_of(h, v)] += n;
	h->total += n;
	if (v < h->min_raw)
		h->min_raw = v;
	if (v > h->max_raw)
		h->max_raw = v;
}

void zc_hdr_record(struct zc_hdr *h, uint64_t v)
{
	zc_hdr_record_n(h, v, 1);
}

void zc_hdr_record_corrected(struct zc_hdr *h, uint64_t v, uint64_t interval)
{
	uint64_t x, lo, n;

	zc_hdr_record(h, v);
	if (!interval || v <= interval)
		return;
	/* The missing values x = v - interval, v - 2*interval, ... >= interval,
	 * recorded a bucket at a time: the n of them in [lo, x] share x's bucket
	 * (or all lie above highest and clamp alike). */
	for (x = v - interval; x >= interval; x -= n * interval) {
		lo = x > h->highest ? h->highest + 1 : zc_hdr_lowest_equivalent(h, x);
		if (lo < interval)
			lo = interval;
		n = (x - lo) / interval + 1;
		/* the chunk's smallest value, so min_raw is the true minimum */
		zc_hdr_record_n(h, x - (n - 1) * interval, n);
	}
}

int zc_hdr_merge(struct zc_hdr *dst, const struct zc_hdr *src)
{
	/* the same layout (lowest, highest, sigfigs) */
	if (dst->sigfigs != src->sigfigs || dst->unit_mag != src->unit_mag ||
	    dst->counts_len != src->counts_len || dst->highest != src->highest)
		return -EINVAL;
	if (!src->total)
		return 0;
	for (size_t i = 0; i < dst->counts_len; i++)
		dst->counts[i] += src->counts[i];
	dst->total += src->total;
	dst->clamped += src->clamped;
	if (src->min_raw < dst->min_raw)
		dst->min_raw = src->min_raw;
	if (src->max_raw > dst->max_raw)
		dst->max_raw = src->max_raw;
	return 0;
}

uint64_t zc_hdr_count(const struct zc_hdr *h)
{
	return h->total;
}

uint64_t zc_hdr_clamped(const struct zc_hdr *h)
{
	return h->clamped;
}

uint64_t zc_hdr_min(const struct zc_hdr *h)
{
	return h->total ? zc_hdr_lowest_equivalent(h, h->min_raw) : 0;
}

uint64_t zc_hdr_max(const struct zc_hdr *h)
{
	return h->total ? zc_hdr_highest_equivalent(h, h->max_raw) : 0;
}

double zc_hdr_mean(const struct zc_hdr *h)
{
	double sum = 0;

	if (!h->total)
		return 0;
	for (size_t i = 0; i < h->counts_len; i++)
		if (h->counts[i])
			sum += (double)h->counts[i] *
			       (double)median_equivalent(h, value_at_index(h, i));
	return sum / (double)h->total;
}

double zc_hdr_stddev(const struct zc_hdr *h)
{
	double mean = zc_hdr_mean(h), sq = 0;

	if (!h->total)
		return 0;
	for (size_t i = 0; i < h->counts_len; i++) {
		double d;

		if (!h->counts[i])
			continue;
		d = (double)median_equivalent(h, value_at_index(h, i)) - mean;
		sq += d * d * (double)h->counts[i];
	}
	return sqrt(sq / (double)h->total);
}

uint64_t zc_hdr_percentile(const struct zc_hdr *h, double p)
{
	double rp = p < 100 ? p : 100;
	uint64_t want, seen = 0;

	if (!h->total)
		return 0;
	if (!(rp > 0))
		rp = 0;
	want = (uint64_t)(rp / 100 * (double)h->total + 0.5);
	if (want < 1)
		want = 1;
	if (want > h->total) /* rounding of a huge count */
		want = h->total;
	for (size_t i = 0; i < h->counts_len; i++) {
		seen += h->counts[i];
		if (seen >= want) {
			uint64_t v = value_at_index(h, i);

			return rp == 0 ? zc_hdr_lowest_equivalent(h, v) :
					 zc_hdr_highest_equivalent(h, v);
		}
	}
	return 0; /* not reached: the counts add up to total */
}

json_t *zc_hdr_to_json(const struct zc_hdr *h)
{
	json_t *o, *b = json_array();

	if (!b)
		return NULL;
	for (size_t i = 0; i < h->counts_len; i++) {
		if (!h->counts[i])
			continue;
		if (json_array_append_new(b, json_pack("[I,I]", (json_int_t)value_at_index(h, i),
							(json_int_t)h->counts[i]))) {
			json_decref(b);
			return NULL;
		}
	}
	o = json_pack("{s:I, s:I, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:I, s:I, s:o}",
		      "count", (json_int_t)h->total,
		      "min_ns", (json_int_t)zc_hdr_min(h),
		      "mean_ns", zc_hdr_mean(h),
		      "p50_ns", (json_int_t)zc_hdr_percentile(h, 50),
		      "p90_ns", (json_int_t)zc_hdr_percentile(h, 90),
		      "p99_ns", (json_int_t)zc_hdr_percentile(h, 99),
		      "p999_ns", (json_int_t)zc_hdr_percentile(h, 99.9),
		      "max_ns", (json_int_t)zc_hdr_max(h),
		      "clamped", (json_int_t)h->clamped,
		      "sigfigs", h->sigfigs,
		      "lowest_ns", (json_int_t)h->lowest,
		      "highest_ns", (json_int_t)h->highest,
		      "buckets", b); /* "o" steals b, also on failure */
	return o;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* A non-negative integer member, or -EINVAL naming it. */
static int get_uint(const json_t *j, const char *key, uint64_t *v, char *err, size_t errlen)
{
	const json_t *m = json_object_get(j, key);

	if (!m)
		return fail(err, errlen, "%s: missing", key);
	if (!json_is_integer(m) || json_integer_value(m) < 0)
		return fail(err, errlen, "%s: not a non-negative integer", key);
	*v = (uint64_t)json_integer_value(m);
	return 0;
}

/* The [value_ns, count] pairs of "buckets" into h; their counts' sum in *sum. */
static int read_buckets(const json_t *arr, struct zc_hdr *h, uint64_t *sum, char *err,
			size_t errlen)
{
	const json_t *pair;
	size_t i;

	*sum = 0;
	if (!json_is_array(arr))
		return fail(err, errlen, "buckets: missing or not an array");
	json_array_foreach(arr, i, pair) {
		const json_t *jv = json_array_get(pair, 0), *jn = json_array_get(pair, 1);
		uint64_t v, n;

		if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(jv) ||
		    !json_is_integer(jn) || json_integer_value(jv) < 0 ||
		    json_integer_value(jn) < 1)
			return fail(err, errlen,
				    "buckets[%zu]: not a [value_ns, count] pair of integers, count > 0",
				    i);
		v = (uint64_t)json_integer_value(jv);
		n = (uint64_t)json_integer_value(jn);
		if (v > h->highest)
			return fail(err, errlen, "buckets[%zu]: value_ns %llu above highest_ns %llu",
				    i, (unsigned long long)v, (unsigned long long)h->highest);
		if (zc_hdr_lowest_equivalent(h, v) != v)
			return fail(err, errlen,
				    "buckets[%zu]: value_ns %llu is not a bucket's lowest value with "
				    "these lowest_ns/sigfigs (%llu is)", i, (unsigned long long)v,
				    (unsigned long long)zc_hdr_lowest_equivalent(h, v));
		if (*sum + n < *sum)
			return fail(err, errlen, "buckets[%zu]: counts overflow", i);
		zc_hdr_record_n(h, v, n);
		*sum += n;
	}
	return 0;
}

int zc_hdr_from_json(const json_t *j, struct zc_hdr **out, char *err, size_t errlen)
{
	uint64_t lowest, highest, sigfigs, count, clamped, sum;
	struct zc_hdr *h;
	int ret;

	*out = NULL;
	if (!json_is_object(j))
		return fail(err, errlen, "histogram: not a JSON object");
	if ((ret = get_uint(j, "sigfigs", &sigfigs, err, errlen)) ||
	    (ret = get_uint(j, "lowest_ns", &lowest, err, errlen)) ||
	    (ret = get_uint(j, "highest_ns", &highest, err, errlen)) ||
	    (ret = get_uint(j, "count", &count, err, errlen)) ||
	    (ret = get_uint(j, "clamped", &clamped, err, errlen)))
		return ret;
	if (sigfigs < 1 || sigfigs > 5)
		return fail(err, errlen, "sigfigs: %llu is not in 1..5", (unsigned long long)sigfigs);
	if (lowest < 1)
		return fail(err, errlen, "lowest_ns: must be at least 1");
	if (highest / 2 < lowest)
		return fail(err, errlen, "highest_ns: %llu is below twice lowest_ns (%llu)",
			    (unsigned long long)highest, (unsigned long long)lowest);
	ret = zc_hdr_new(lowest, highest, (int)sigfigs, &h);
	if (ret == -EINVAL)
		return fail(err, errlen, "lowest_ns: %llu too large for sigfigs %d",
			    (unsigned long long)lowest, (int)sigfigs);
	if (ret) {
		fail(err, errlen, "histogram: %s", strerror(-ret));
		return ret;
	}
	ret = read_buckets(json_object_get(j, "buckets"), h, &sum, err, errlen);
	if (!ret && sum != count)
		ret = fail(err, errlen, "count: %llu, but the buckets hold %llu",
			   (unsigned long long)count, (unsigned long long)sum);
	if (!ret && clamped > count)
		ret = fail(err, errlen, "clamped: %llu is more than count %llu",
			   (unsigned long long)clamped, (unsigned long long)count);
	if (ret) {
		zc_hdr_free(h);
		return ret;
	}
	h->clamped = clamped;
	*out = h;
	return 0;
}
