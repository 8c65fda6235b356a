// SPDX-License-Identifier: GPL-2.0
/* The latency histogram (lib/hdr.h) against known distributions, exactly
 * sorted samples and HdrHistogram's own documented examples. */
#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "zc_test.h"

#include "lib/hdr.h"

static struct zc_hdr *mk(uint64_t lowest, uint64_t highest, int sigfigs)
{
	struct zc_hdr *h;

	assert_int_equal(zc_hdr_new(lowest, highest, sigfigs, &h), 0);
	assert_non_null(h);
	return h;
}

static void assert_rel(double got, double want, double rel)
{
	if (fabs(got - want) > rel * fabs(want))
		fail_msg("%.6f is not within %g of %.6f", got, rel, want);
}

/* Histograms equal in everything a reader sees, buckets included. */
static void assert_same(const struct zc_hdr *a, const struct zc_hdr *b)
{
	json_t *ja = zc_hdr_to_json(a), *jb = zc_hdr_to_json(b);

	assert_non_null(ja);
	assert_non_null(jb);
	if (!json_equal(ja, jb)) {
		char *sa = json_dumps(ja, JSON_COMPACT), *sb = json_dumps(jb, JSON_COMPACT);

		fail_msg("histograms differ:\n%.400s\n%.400s", sa, sb);
	}
	json_decref(ja);
	json_decref(jb);
}

static void test_new_rejects(void **state)
{
	struct zc_hdr *h = (void *)1;

	(void)state;
	assert_int_equal(zc_hdr_new(1, 1000, 0, &h), -EINVAL);
	assert_null(h);
	assert_int_equal(zc_hdr_new(1, 1000, 6, &h), -EINVAL);
	assert_int_equal(zc_hdr_new(0, 1000, 3, &h), -EINVAL);
	assert_int_equal(zc_hdr_new(600, 1000, 3, &h), -EINVAL);	/* highest < 2 * lowest */
	assert_int_equal(zc_hdr_new(1, (uint64_t)INT64_MAX + 1, 3, &h), -EINVAL);
	assert_int_equal(zc_hdr_new(1ULL << 50, 1ULL << 62, 5, &h), -EINVAL); /* 2^50 * 2^18 */
	assert_int_equal(zc_hdr_new(1, INT64_MAX, 5, &h), 0);
	zc_hdr_record(h, INT64_MAX);
	assert_int_equal(zc_hdr_count(h), 1);
	assert_int_equal(zc_hdr_clamped(h), 0);
	assert_true(zc_hdr_max(h) >= (uint64_t)INT64_MAX);
	zc_hdr_free(h);
}

/* Every value lands in a bucket [lo, hi] holding it, hi - lo < v / 10^sigfigs. */
static void test_precision(void **state)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	const uint64_t highest = 3600ULL * 1000 * 1000 * 1000;

	(void)state;
	gsl_rng_set(r, 1);
	for (int sf = 1; sf <= 5; sf++) {
		struct zc_hdr *h = mk(1, highest, sf);
		double tol = pow(10, -sf);

		for (uint64_t i = 0; i < 300000; i++) {
			/* every value up to 2e5, then log-uniform up to highest */
			uint64_t v = i < 200000 ? i + 1 :
				     (uint64_t)exp(gsl_rng_uniform(r) * log((double)highest)) + 1;
			uint64_t lo, hi;

			if (v > highest)
				v = highest;
			lo = zc_hdr_lowest_equivalent(h, v);
			hi = zc_hdr_highest_equivalent(h, v);
			if (lo > v || hi < v || (double)(hi - lo) > tol * (double)v)
				fail_msg("sigfigs %d: %llu in [%llu, %llu]", sf,
					 (unsigned long long)v, (unsigned long long)lo,
					 (unsigned long long)hi);
			if (i % 997 == 0) { /* and a histogram of it alone reports that bucket */
				zc_hdr_reset(h);
				zc_hdr_record(h, v);
				assert_int_equal(zc_hdr_min(h), lo);
				assert_int_equal(zc_hdr_max(h), hi);
				assert_int_equal(zc_hdr_percentile(h, 50), hi);
			}
		}
		zc_hdr_free(h);
	}
	gsl_rng_free(r);
}

/* lowest_ns is the unit: below it values are resolved to its power of two. */
static void test_lowest_unit(void **state)
{
	struct zc_hdr *h = mk(1000, 1000000000, 3);

	(void)state;
	/* floor(log2(1000)) = 9: steps of 512 up to 2048 * 512 */
	assert_int_equal(zc_hdr_lowest_equivalent(h, 1000), 512);
	assert_int_equal(zc_hdr_highest_equivalent(h, 1000), 1023);
	assert_int_equal(zc_hdr_lowest_equivalent(h, 300), 0);
	for (uint64_t v = 2048 * 512; v < 1000000000; v = v * 3 / 2 + 7)
		assert_true(zc_hdr_highest_equivalent(h, v) - zc_hdr_lowest_equivalent(h, v) <
			    v / 1000);
	zc_hdr_free(h);
}

static void test_empty(void **state)
{
	struct zc_hdr *h = mk(1, 1000000, 3), *back;
	json_t *j;
	char err[128];

	(void)state;
	assert_int_equal(zc_hdr_count(h), 0);
	assert_int_equal(zc_hdr_min(h), 0);
	assert_int_equal(zc_hdr_max(h), 0);
	assert_float_equal(zc_hdr_mean(h), 0, 0);
	assert_float_equal(zc_hdr_stddev(h), 0, 0);
	assert_int_equal(zc_hdr_percentile(h, 50), 0);
	assert_int_equal(zc_hdr_percentile(h, 100), 0);
	j = zc_hdr_to_json(h);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "buckets")), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "count")), 0);
	assert_int_equal(zc_hdr_from_json(j, &back, err, sizeof(err)), 0);
	assert_same(h, back);
	json_decref(j);
	zc_hdr_free(back);
	zc_hdr_free(h);
}

static void test_fixed_value(void **state)
{
	struct zc_hdr *h = mk(1, 1000000000, 3);

	(void)state;
	zc_hdr_record_n(h, 12345, 1000);
	/* 12345 is in [8192, 16384): steps of 8 */
	assert_int_equal(zc_hdr_count(h), 1000);
	assert_int_equal(zc_hdr_min(h), 12344);
	assert_int_equal(zc_hdr_max(h), 12351);
	assert_int_equal(zc_hdr_percentile(h, 0), 12344);
	assert_int_equal(zc_hdr_percentile(h, 0.1), 12351);
	assert_int_equal(zc_hdr_percentile(h, 50), 12351);
	assert_int_equal(zc_hdr_percentile(h, 99.9), 12351);
	assert_int_equal(zc_hdr_percentile(h, 100), 12351);
	assert_int_equal(zc_hdr_percentile(h, 250), 12351);
	assert_float_equal(zc_hdr_mean(h), 12348, 0); /* the bucket's midpoint */
	assert_float_equal(zc_hdr_stddev(h), 0, 0);
	zc_hdr_free(h);
}

/* Values 1..10 have buckets of their own: getValueAtPercentile's rank is
 * (p/100 * count + 0.5) rounded down, at least 1. */
static void test_rank(void **state)
{
	struct zc_hdr *h = mk(1, 1000, 3);

	(void)state;
	for (uint64_t v = 10; v >= 1; v--)
		zc_hdr_record(h, v);
	assert_int_equal(zc_hdr_percentile(h, 1), 1);	/* rank 0.6 -> 1 */
	assert_int_equal(zc_hdr_percentile(h, 15), 2);	/* 2.0 */
	assert_int_equal(zc_hdr_percentile(h, 25), 3);	/* 3.0 */
	assert_int_equal(zc_hdr_percentile(h, 34), 3);	/* 3.9 */
	assert_int_equal(zc_hdr_percentile(h, 35), 4);	/* 4.0 */
	assert_int_equal(zc_hdr_percentile(h, 50), 5);	/* 5.5 */
	assert_int_equal(zc_hdr_percentile(h, 99.9), 10);
	assert_int_equal(zc_hdr_percentile(h, 0), 1);
	assert_int_equal(zc_hdr_percentile(h, -3), 1);
	assert_float_equal(zc_hdr_mean(h), 5.5, 0);
	assert_float_equal(zc_hdr_stddev(h), sqrt(99.0 / 12), 1e-12);
	zc_hdr_free(h);
}

static void test_uniform(void **state)
{
	struct zc_hdr *h = mk(1, 3600ULL * 1000 * 1000 * 1000, 3);
	const double n = 1000000;

	(void)state;
	for (uint64_t v = 1; v <= 1000000; v++)
		zc_hdr_record(h, v);
	assert_int_equal(zc_hdr_count(h), 1000000);
	assert_int_equal(zc_hdr_min(h), 1);
	assert_rel(zc_hdr_percentile(h, 50), 500000, 1e-3);
	assert_rel(zc_hdr_percentile(h, 90), 900000, 1e-3);
	assert_rel(zc_hdr_percentile(h, 99), 990000, 1e-3);
	assert_rel(zc_hdr_percentile(h, 99.9), 999000, 1e-3);
	assert_rel(zc_hdr_max(h), 1000000, 1e-3);
	assert_rel(zc_hdr_mean(h), (n + 1) / 2, 1e-3);
	assert_rel(zc_hdr_stddev(h), sqrt((n * n - 1) / 12), 1e-3);
	/* HdrHistogram's rounding: never below the true value at that rank */
	assert_true(zc_hdr_percentile(h, 50) >= 500000);
	zc_hdr_free(h);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

#define EXP_N 200000

static uint64_t *exp_samples(unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t *s = malloc(EXP_N * sizeof(*s));

	assert_non_null(s);
	gsl_rng_set(r, seed);
	for (size_t i = 0; i < EXP_N; i++) /* mean 50 us, in ns */
		s[i] = (uint64_t)gsl_ran_exponential(r, 50000) + 1;
	gsl_rng_free(r);
	return s;
}

/* Seeded exponential against the exactly sorted samples: every percentile is
 * the bucket of the sample at HdrHistogram's rank, and within 10^-3 of it. */
static void test_exponential(void **state)
{
	const double ps[] = { 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	struct zc_hdr *h = mk(1, 1000000000000ULL, 3);
	uint64_t *s = exp_samples(42);
	double sum = 0;

	(void)state;
	for (size_t i = 0; i < EXP_N; i++) {
		zc_hdr_record(h, s[i]);
		sum += (double)s[i];
	}
	qsort(s, EXP_N, sizeof(*s), cmp_u64);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		size_t rank = (size_t)(ps[k] / 100 * EXP_N + 0.5);
		uint64_t exact = s[(rank ? rank : 1) - 1], got = zc_hdr_percentile(h, ps[k]);

		assert_int_equal(got, zc_hdr_highest_equivalent(h, exact));
		assert_rel(got, exact, 1e-3);
	}
	assert_int_equal(zc_hdr_min(h), zc_hdr_lowest_equivalent(h, s[0]));
	assert_int_equal(zc_hdr_max(h), zc_hdr_highest_equivalent(h, s[EXP_N - 1]));
	assert_rel(zc_hdr_mean(h), sum / EXP_N, 1e-3);
	assert_rel(zc_hdr_stddev(h), 50000, 0.02); /* an exponential's stddev is its mean */
	free(s);
	zc_hdr_free(h);
}

/* Two workers' halves, merged, are the histogram of all the samples. */
static void test_merge(void **state)
{
	struct zc_hdr *a = mk(1, 1000000000000ULL, 3), *b = mk(1, 1000000000000ULL, 3);
	struct zc_hdr *all = mk(1, 1000000000000ULL, 3), *other = mk(1, 1000000000000ULL, 2);
	struct zc_hdr *empty = mk(1, 1000000000000ULL, 3), *higher = mk(1, 2000000000000ULL, 3);
	uint64_t *s = exp_samples(7);

	(void)state;
	for (size_t i = 0; i < EXP_N; i++) {
		zc_hdr_record(i < EXP_N / 3 ? a : b, s[i]);
		zc_hdr_record(all, s[i]);
	}
	zc_hdr_record(b, 5000000000000ULL);	/* clamped, in b only */
	zc_hdr_record(all, 5000000000000ULL);
	assert_int_equal(zc_hdr_merge(a, empty), 0);
	assert_int_equal(zc_hdr_merge(a, b), 0);
	assert_int_equal(zc_hdr_count(a), EXP_N + 1);
	assert_int_equal(zc_hdr_clamped(a), 1);
	assert_same(a, all);
	assert_int_equal(zc_hdr_merge(empty, all), 0);	/* into an empty one */
	assert_same(empty, all);
	assert_int_equal(zc_hdr_merge(a, other), -EINVAL);
	assert_int_equal(zc_hdr_merge(a, higher), -EINVAL);
	assert_same(a, all);				/* a refused merge changes nothing */
	free(s);
	zc_hdr_free(a);
	zc_hdr_free(b);
	zc_hdr_free(all);
	zc_hdr_free(other);
	zc_hdr_free(empty);
	zc_hdr_free(higher);
}

static void test_json_round_trip(void **state)
{
	struct zc_hdr *h = mk(1, 100000000000ULL, 3), *back;
	uint64_t *s = exp_samples(3);
	char err[160], *text;
	json_t *j, *parsed;

	(void)state;
	for (size_t i = 0; i < EXP_N; i++)
		zc_hdr_record(h, s[i]);
	zc_hdr_record_n(h, 200000000000ULL, 2);	/* clamped */
	zc_hdr_record(h, 0);
	j = zc_hdr_to_json(h);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "count")), EXP_N + 3);
	assert_int_equal(json_integer_value(json_object_get(j, "clamped")), 2);
	assert_int_equal(json_integer_value(json_object_get(j, "min_ns")), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "p50_ns")), zc_hdr_percentile(h, 50));
	assert_int_equal(json_integer_value(json_object_get(j, "p90_ns")), zc_hdr_percentile(h, 90));
	assert_int_equal(json_integer_value(json_object_get(j, "p99_ns")), zc_hdr_percentile(h, 99));
	assert_int_equal(json_integer_value(json_object_get(j, "p999_ns")),
			 zc_hdr_percentile(h, 99.9));
	assert_int_equal(json_integer_value(json_object_get(j, "max_ns")), zc_hdr_max(h));
	assert_float_equal(json_real_value(json_object_get(j, "mean_ns")), zc_hdr_mean(h), 0);
	assert_int_equal(json_integer_value(json_object_get(j, "sigfigs")), 3);
	assert_int_equal(json_integer_value(json_object_get(j, "lowest_ns")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "highest_ns")), 100000000000ULL);
	/* through text, as a results file carries it */
	text = json_dumps(j, JSON_COMPACT);
	parsed = json_loads(text, 0, NULL);
	assert_non_null(parsed);
	assert_int_equal(zc_hdr_from_json(parsed, &back, err, sizeof(err)), 0);
	assert_same(h, back);
	assert_int_equal(zc_hdr_clamped(back), 2);
	assert_float_equal(zc_hdr_stddev(back), zc_hdr_stddev(h), 0);
	/* and a rebuilt histogram merges like the original */
	assert_int_equal(zc_hdr_merge(back, h), 0);
	assert_int_equal(zc_hdr_count(back), 2 * (EXP_N + 3));
	assert_int_equal(zc_hdr_percentile(back, 99), zc_hdr_percentile(h, 99));
	free(text);
	free(s);
	json_decref(j);
	json_decref(parsed);
	zc_hdr_free(back);
	zc_hdr_free(h);
}

/* HdrHistogram's documented coordinated-omission example (HistogramDataAccessTest,
 * HdrHistogram_c's test_histogram.c): 10,000 results of 1 msec at 10 msec
 * intervals, then one of 100 sec; in usec, 3 significant digits. */
static void test_corrected(void **state)
{
	struct zc_hdr *raw = mk(1, 3600ULL * 1000 * 1000, 3), *cor = mk(1, 3600ULL * 1000 * 1000, 3);
	double mean, sq = 0, raw_mean, raw_sd;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		zc_hdr_record_corrected(cor, 1000, 10000);
		zc_hdr_record(raw, 1000);
	}
	zc_hdr_record_corrected(cor, 100000000, 10000);
	zc_hdr_record(raw, 100000000);

	assert_int_equal(zc_hdr_count(raw), 10001);
	assert_int_equal(zc_hdr_count(cor), 20000);
	assert_int_equal(zc_hdr_max(cor), zc_hdr_highest_equivalent(cor, 100000000));
	assert_int_equal(zc_hdr_min(cor), 1000);
	raw_mean = (10000.0 * 1000 + 100000000.0) / 10001;
	raw_sd = sqrt((10000 * pow(1000 - raw_mean, 2) + pow(100000000 - raw_mean, 2)) / 10001);
	assert_rel(zc_hdr_mean(raw), raw_mean, 1e-3);
	assert_rel(zc_hdr_stddev(raw), raw_sd, 1e-3);
	mean = (1000.0 + 50000000.0) / 2;
	sq = 10000 * pow(1000 - mean, 2);
	for (double v = 10000; v <= 100000000; v += 10000)
		sq += pow(v - mean, 2);
	assert_rel(zc_hdr_mean(cor), mean, 1e-3);
	assert_rel(zc_hdr_stddev(cor), sqrt(sq / 20000), 1e-3);

	assert_rel(zc_hdr_percentile(raw, 30), 1000, 1e-3);
	assert_rel(zc_hdr_percentile(raw, 99), 1000, 1e-3);
	assert_rel(zc_hdr_percentile(raw, 99.99), 1000, 1e-3);
	assert_rel(zc_hdr_percentile(raw, 99.999), 100000000, 1e-3);
	assert_rel(zc_hdr_percentile(raw, 100), 100000000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 30), 1000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 50), 1000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 75), 50000000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 90), 80000000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 99), 98000000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 99.999), 100000000, 1e-3);
	assert_rel(zc_hdr_percentile(cor, 100), 100000000, 1e-3);
	zc_hdr_free(raw);
	zc_hdr_free(cor);
}

/* The bucket-at-a-time correction equals recording each missing value, and a
 * 100 s stall in a 1 ns loop (1e11 missing values) costs no 1e11-step loop. */
static void test_corrected_fast(void **state)
{
	const uint64_t vs[] = { 5, 7, 8, 300, 1000, 123457, 3000000, 250000000 /* clamps */ };
	const uint64_t ivs[] = { 0, 1, 7, 100, 1000, 99991 };
	const uint64_t lowests[] = { 1, 1000 };	/* 1000: buckets 512 wide down to 0 */
	struct zc_hdr *big;

	(void)state;
	for (size_t l = 0; l < 2; l++) {
		struct zc_hdr *fast = mk(lowests[l], 100000000ULL, 3);
		struct zc_hdr *slow = mk(lowests[l], 100000000ULL, 3);

		for (size_t a = 0; a < sizeof(vs) / sizeof(vs[0]); a++)
			for (size_t b = 0; b < sizeof(ivs) / sizeof(ivs[0]); b++) {
				uint64_t v = vs[a], iv = ivs[b];

				if (iv && v / iv > 4000000) /* the naive loop would take seconds */
					continue;
				zc_hdr_record_corrected(fast, v, iv);
				zc_hdr_record(slow, v);
				for (uint64_t m = v - iv; iv && v > iv && m >= iv; m -= iv)
					zc_hdr_record(slow, m);
			}
		assert_same(fast, slow);
		assert_true(zc_hdr_clamped(fast) > 0);
		zc_hdr_free(fast);
		zc_hdr_free(slow);
	}
	big = mk(1, 1000000000000ULL, 3);
	zc_hdr_record_corrected(big, 100000000000ULL, 1);
	assert_int_equal(zc_hdr_count(big), 100000000000ULL);
	assert_int_equal(zc_hdr_min(big), 1);
	assert_rel(zc_hdr_percentile(big, 50), 50000000000.0, 1e-3);
	zc_hdr_free(big);
}

static void test_clamp_and_reset(void **state)
{
	struct zc_hdr *h = mk(1, 1000000, 3), *fresh = mk(1, 1000000, 3);

	(void)state;
	zc_hdr_record(h, 5000000);
	assert_int_equal(zc_hdr_count(h), 1);
	assert_int_equal(zc_hdr_clamped(h), 1);
	assert_int_equal(zc_hdr_max(h), zc_hdr_highest_equivalent(h, 1000000));
	zc_hdr_record_n(h, 2000000, 3);
	zc_hdr_record_n(h, 999, 0);		/* n == 0 records nothing */
	zc_hdr_record(h, 1000000);		/* highest itself is in range */
	assert_int_equal(zc_hdr_count(h), 5);
	assert_int_equal(zc_hdr_clamped(h), 4);
	assert_int_equal(zc_hdr_min(h), zc_hdr_lowest_equivalent(h, 1000000));
	zc_hdr_reset(h);
	assert_same(h, fresh);
	zc_hdr_record(h, 10);
	assert_int_equal(zc_hdr_min(h), 10);
	assert_int_equal(zc_hdr_max(h), 10);
	zc_hdr_free(h);
	zc_hdr_free(fresh);
}

/* Each bad input is refused with a message naming the key. */
static void test_json_rejects(void **state)
{
	static const struct { const char *json, *key; } cases[] = {
		{ "[]", "histogram" },
		{ "{\"lowest_ns\":1,\"highest_ns\":1000,\"count\":0,\"clamped\":0,\"buckets\":[]}", "sigfigs" },
		{ "{\"sigfigs\":6,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":0,\"clamped\":0,\"buckets\":[]}", "sigfigs" },
		{ "{\"sigfigs\":3,\"lowest_ns\":0,\"highest_ns\":1000,\"count\":0,\"clamped\":0,\"buckets\":[]}", "lowest_ns" },
		{ "{\"sigfigs\":3,\"lowest_ns\":\"1\",\"highest_ns\":1000,\"count\":0,\"clamped\":0,\"buckets\":[]}", "lowest_ns" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1,\"count\":0,\"clamped\":0,\"buckets\":[]}", "highest_ns" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"clamped\":0,\"buckets\":[]}", "count" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":-1,\"clamped\":0,\"buckets\":[]}", "count" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":0,\"buckets\":[]}", "clamped" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":0,\"clamped\":0}", "buckets" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":0,\"clamped\":0,\"buckets\":{}}", "buckets" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":1,\"clamped\":0,\"buckets\":[[5,1],[6]]}", "buckets[1]" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":1,\"clamped\":0,\"buckets\":[[5,0]]}", "buckets[0]" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":1,\"clamped\":0,\"buckets\":[[-5,1]]}", "buckets[0]" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":1,\"clamped\":0,\"buckets\":[[5,1],[2000,1]]}", "buckets[1]" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":100000,\"count\":1,\"clamped\":0,\"buckets\":[[12345,1]]}", "buckets[0]" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":3,\"clamped\":0,\"buckets\":[[5,1],[7,1]]}", "count" },
		{ "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":1000,\"count\":2,\"clamped\":3,\"buckets\":[[5,1],[7,1]]}", "clamped" },
	};
	const char *good = "{\"sigfigs\":3,\"lowest_ns\":1,\"highest_ns\":100000,\"count\":3,"
			   "\"clamped\":0,\"buckets\":[[5,1],[12344,2]]}";
	struct zc_hdr *h;
	char err[200];
	json_t *j;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		j = json_loads(cases[i].json, 0, NULL);
		assert_non_null(j);
		h = (void *)1;
		err[0] = 0;
		assert_int_equal(zc_hdr_from_json(j, &h, err, sizeof(err)), -EINVAL);
		assert_null(h);
		if (strncmp(err, cases[i].key, strlen(cases[i].key)) ||
		    err[strlen(cases[i].key)] != ':')
			fail_msg("case %zu: \"%s\" does not start with \"%s:\"", i, err, cases[i].key);
		json_decref(j);
	}
	/* the summary keys are derived: a hand-written file needs only these */
	j = json_loads(good, 0, NULL);
	assert_int_equal(zc_hdr_from_json(j, &h, NULL, 0), 0);
	assert_int_equal(zc_hdr_count(h), 3);
	assert_int_equal(zc_hdr_percentile(h, 100), 12351);
	json_decref(j);
	zc_hdr_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_rejects),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_lowest_unit),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_fixed_value),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_exponential),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_corrected),
		cmocka_unit_test(test_corrected_fast),
		cmocka_unit_test(test_clamp_and_reset),
		cmocka_unit_test(test_json_rejects),
	};

	return zc_run_tests(tests, NULL, NULL);
}
