// SPDX-License-Identifier: GPL-2.0
/*
 * Paired slices (issue 22): the ABBA order of the sides with and without
 * the dropped first slice after a switch (role/slices.h); the adjacent pairs
 * a sample's slices give, dropped ones left out (results/slices.h); the
 * run's slice ratio on synthetic slices: an A/A run's interval holds 1.0, a
 * steady drift does not move the interval off 1, a B 1.5 times as efficient gives 1.5 with 1.0
 * outside its interval, a run without alternate has no slice ratio, and an
 * alternate run is in no ordinary headline pair.
 * Noise comes from a fixed-seed generator, so every run gives the same.
 */
#include "zc_test.h"

#include "results/results.h"
#include "results/slices.h"
#include "role/slices.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void side_order(void **state)
{
	char got[32] = "";

	(void)state;
	for (size_t k = 0; k < 13; k++)
		got[k] = zc_slice_side(k, false) ? 'B' : 'A';
	assert_string_equal(got, "ABBAABBAABBAA");
	/* With drop, each turn is three slices; its first is left out. */
	memset(got, 0, sizeof(got));
	for (size_t k = 0, n = 0; k < 19; k++)
		got[n++] = zc_slice_first_after_switch(k, true) ? '.' :
			   zc_slice_side(k, true) ? 'B' : 'A';
	assert_string_equal(got, "A.BB.AA.BB.AA.BB.AA");
	/* ... and the kept ones read ABBA. */
	memset(got, 0, sizeof(got));
	for (size_t k = 0, n = 0; k < 19; k++)
		if (!zc_slice_first_after_switch(k, true))
			got[n++] = zc_slice_side(k, true) ? 'B' : 'A';
	assert_string_equal(got, "ABBAABBAABBAA");
	for (size_t k = 0; k < 9; k++)
		assert_false(zc_slice_first_after_switch(k, false) && k == 0);
}

/* Deterministic noise in [-1, 1): a 64-bit LCG (Knuth's MMIX constants). */
static double noise(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 11) / (double)(1ull << 52) - 1.0;
}

/* One sample's slices: side by zc_slice_side, cost 1e8 ns (cpu 8e7 +
 * softirq 2e7), bytes = eff(side, k) * 0.1 s. */
static json_t *mkslices(size_t n, bool drop, double b_over_a, double drift, double amp,
			uint64_t *seed)
{
	json_t *a = json_array();

	for (size_t k = 0; k < n; k++) {
		int side = zc_slice_side(k, drop);
		double eff = 1e9 * (1 + drift * k) * (side ? b_over_a : 1) * (1 + amp * noise(seed));

		json_array_append_new(a, json_pack("{s:I,s:s,s:I,s:I,s:I,s:b}", "k", (json_int_t)k,
			"side", side ? "B" : "A", "bytes", (json_int_t)llround(eff * 0.1),
			"cpu_ns", (json_int_t)80000000, "softirq_ns", (json_int_t)20000000,
			"dropped", drop && zc_slice_first_after_switch(k, true)));
	}
	return a;
}

static json_t *mkrun(const char *alternate, size_t samples, size_t n, bool drop, double b_over_a,
		     double drift, double amp, unsigned long seed)
{
	json_t *ss = json_array();
	uint64_t s = seed;

	for (size_t i = 0; i < samples; i++) {
		json_t *proxy = json_pack("{s:o}", "slices", mkslices(n, drop, b_over_a, drift, amp, &s));

		json_array_append_new(ss, json_pack("{s:s,s:b,s:{s:o}}", "status", "ok", "disturbed",
						    false, "roles", "proxy", proxy));
	}
	return json_pack("{s:s,s:s,s:{s:s,s:s},s:{s:s},s:o}", "name", "r", "dut", "proxy", "key",
			 "topology", "proxy", "proxy", "copy", "options", "alternate", alternate,
			 "samples", ss);
}

static void pairs_of_a_sample(void **state)
{
	double num[16], den[16];
	uint64_t seed = 1;
	json_t *sl;
	size_t n;

	(void)state;
	/* No drop: 9 slices A B B A A B B A A: pairs (0,1) (2,3) (4,5) (6,7). */
	sl = mkslices(9, false, 2.0, 0, 0, &seed);
	n = zc_slice_pairs(sl, num, den, 16);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_true(fabs(num[i] / den[i] - 2.0) < 1e-6);
		assert_true(fabs(den[i] - 1e9) < 1e3);
	}
	json_decref(sl);
	/* Drop: 13 slices A . B B . A A . B B . A A: kept A B B A A B B A A, 4 pairs. */
	sl = mkslices(13, true, 2.0, 0, 0, &seed);
	assert_int_equal(zc_slice_pairs(sl, num, den, 16), 4);
	/* At most max pairs. */
	assert_int_equal(zc_slice_pairs(sl, num, den, 3), 3);
	/* A slice without its softirq time has no efficiency: its pair is NaN. */
	json_object_set_new(json_array_get(sl, 0), "softirq_ns", json_null());
	assert_int_equal(zc_slice_pairs(sl, num, den, 16), 4);
	assert_true(isnan(den[0]));
	json_decref(sl);
}

/* With busy_ns (schema 1.6) a slice costs max(cpu_ns, busy_ns): softirq served
 * in the worker's context, in cpu_ns and softirq_ns both, counts once. */
static void slice_cost_counts_softirq_once(void **state)
{
	json_t *s = json_pack("{s:I,s:I,s:I,s:I}", "bytes", (json_int_t)200000000,
			      "cpu_ns", (json_int_t)190000000, "softirq_ns", (json_int_t)80000000,
			      "busy_ns", (json_int_t)200000000);

	(void)state;
	/* busy over cpu: 200 ms, not 190 + 80. */
	assert_true(fabs(zc_slice_eff(s) - 1e9) < 1);
	/* The ticks under the exact thread clock: cpu_ns floors it. */
	json_object_set_new(s, "busy_ns", json_integer(180000000));
	assert_true(fabs(zc_slice_eff(s) - 2e8 / 0.19) < 1);
	/* busy_ns null (no /proc/stat): no cost, NaN, not the old sum. */
	json_object_set_new(s, "busy_ns", json_null());
	assert_true(isnan(zc_slice_eff(s)));
	/* A file before 1.6 (no busy_ns): cpu_ns + softirq_ns as it was written. */
	json_object_del(s, "busy_ns");
	assert_true(fabs(zc_slice_eff(s) - 2e8 / 0.27) < 1);
	json_decref(s);
}

static void ratio_aa_includes_one(void **state)
{
	struct zc_slice_ratio r;
	json_t *run = mkrun("copy", 1, 30, true, 1.0, 0, 0.2, 42);

	(void)state;
	assert_int_equal(zc_slice_ratio(run, &r), 0);
	assert_int_equal(r.samples, 1);
	assert_int_equal(r.dropped, 0);	/* no slice_drop record in this synthetic role */
	assert_true(r.r.n >= 9);
	assert_true(r.r.lo <= 1.0 && r.r.hi >= 1.0);
	assert_true(r.r.lo < r.r.median && r.r.median < r.r.hi);
	json_decref(run);
}

static void ratio_drift_cancels(void **state)
{
	struct zc_slice_ratio r;
	/* 2% per slice: over 30 slices the run drifts 60%, whole runs would not agree. */
	json_t *run = mkrun("copy", 2, 30, false, 1.0, 0.02, 0, 7);

	(void)state;
	assert_int_equal(zc_slice_ratio(run, &r), 0);
	assert_int_equal(r.samples, 2);
	/* The pairs alternate their order (AB, BA, ...): half say about 1.02, half
	 * about 1/1.02, so the median stays within one slice's drift of 1 and the
	 * interval spans 1 (pairs always taken AB would all say 1.02). */
	assert_true(fabs(r.r.median - 1.0) <= 0.021);
	assert_true(r.r.lo < 1.0 && r.r.hi > 1.0);
	json_decref(run);
}

static void ratio_b_better(void **state)
{
	struct zc_slice_ratio r;
	json_t *run = mkrun("splice", 3, 40, true, 1.5, 0.005, 0.1, 3), *hl, *runs;

	(void)state;
	assert_int_equal(zc_slice_ratio(run, &r), 0);
	assert_true(fabs(r.r.median - 1.5) < 0.1);
	assert_true(r.r.lo > 1.0);
	runs = json_pack("[o]", run);
	hl = zc_slices_headline(runs);
	assert_int_equal(json_array_size(hl), 1);
	assert_string_equal(zc_an_str(json_array_get(hl, 0), "b"), "splice");
	assert_string_equal(zc_an_str(json_array_get(hl, 0), "a"), "copy");
	assert_true(fabs(json_number_value(json_object_get(json_array_get(hl, 0), "ratio")) -
			 r.r.median) < 1e-12);
	json_decref(hl);
	json_decref(runs);
}

static void not_alternate(void **state)
{
	struct zc_slice_ratio r;
	json_t *run = mkrun("", 1, 10, false, 1.0, 0, 0, 1), *runs, *hl;

	(void)state;
	assert_int_equal(zc_slice_ratio(run, &r), -ENOENT);
	runs = json_pack("[o]", run);
	hl = zc_slices_headline(runs);
	assert_int_equal(json_array_size(hl), 0);
	json_decref(hl);
	json_decref(runs);
	/* An alternate run whose samples failed: a line that says why. */
	run = mkrun("copy", 1, 10, false, 1.0, 0, 0, 1);
	json_object_set_new(json_array_get(json_object_get(run, "samples"), 0), "status",
			    json_string("failed"));
	assert_int_equal(zc_slice_ratio(run, &r), -EDOM);
	runs = json_pack("[o]", run);
	hl = zc_slices_headline(runs);
	assert_true(json_is_null(json_object_get(json_array_get(hl, 0), "ratio")));
	assert_true(*zc_an_str(json_array_get(hl, 0), "why"));
	json_decref(hl);
	json_decref(runs);
}

/* A run whose modes took turns mixes them: no ordinary headline pair takes
 * it, on either side, even when it comes first in the file. */
static void out_of_ordinary_pairs(void **state)
{
	json_t *runs = json_array(), *r;
	struct zc_pair *pv = NULL;
	size_t n;

	(void)state;
	json_array_append_new(runs, mkrun("splice", 1, 10, false, 1, 0, 0, 1));
	json_object_set_new(json_array_get(runs, 0), "name", json_string("copy-alt-splice"));
	r = mkrun("", 1, 10, false, 1, 0, 0, 1);
	json_object_set_new(r, "name", json_string("copy"));
	json_array_append_new(runs, r);
	r = mkrun("", 1, 10, false, 1, 0, 0, 1);
	json_object_set_new(r, "name", json_string("splice"));
	json_object_set_new(json_object_get(r, "key"), "proxy", json_string("splice"));
	json_array_append_new(runs, r);
	n = zc_headline_pairs(runs, 0, &pv);
	assert_int_equal(n, 1);
	assert_string_equal(zc_an_str(pv[0].run, "name"), "splice");
	assert_string_equal(zc_an_str(pv[0].peer_run, "name"), "copy");
	free(pv);
	json_decref(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(side_order),
		cmocka_unit_test(pairs_of_a_sample),
		cmocka_unit_test(slice_cost_counts_softirq_once),
		cmocka_unit_test(ratio_aa_includes_one),
		cmocka_unit_test(ratio_drift_cancels),
		cmocka_unit_test(ratio_b_better),
		cmocka_unit_test(not_alternate),
		cmocka_unit_test(out_of_ordinary_pairs),
	};

	return zc_run_tests(tests, NULL, NULL);
}
