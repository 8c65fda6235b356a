// SPDX-License-Identifier: GPL-2.0
/*
 * The derived figures (metrics/figures.h): each formula on fixed numbers,
 * NaN wherever its denominator is not positive (zero, negative or NaN, never
 * an infinity or a division by zero), and a sample's metrics (metrics.c)
 * equal to them bit for bit on numbers where another order of the same
 * arithmetic differs, so the sample path computes with these, not a copy.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"
#include <math.h>

#include "metrics/figures.h"
#include "metrics/metrics.h"

/* Every non-positive denominator the figures refuse. */
static const double bad_den[] = { 0, -0.0, -1, NAN };

static void test_gbps(void **st)
{
	(void)st;
	/* 1.25e9 B in 1 s: 1e10 bit/s, 10 Gbit/s; 5e8 B in 2 s: 2 Gbit/s. */
	assert_close(zc_fig_gbps(1.25e9, 1), 10, 1e-12);
	assert_close(zc_fig_gbps(5e8, 2), 2, 1e-12);
	assert_close(zc_fig_gbps(0, 2), 0, 0);	/* nothing moved is 0, not NaN */
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_den); i++)
		assert_true(isnan(zc_fig_gbps(1e9, bad_den[i])));
	assert_true(isnan(zc_fig_gbps(NAN, 1)));
}

static void test_busy_cores(void **st)
{
	(void)st;
	assert_close(zc_fig_busy_cores(1.5, 3), 0.5, 1e-15);
	assert_close(zc_fig_busy_cores(6, 2), 3, 1e-15);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_den); i++)
		assert_true(isnan(zc_fig_busy_cores(1, bad_den[i])));
}

static void test_per_core(void **st)
{
	(void)st;
	assert_close(zc_fig_per_core(10, 0.5), 20, 1e-12);
	assert_close(zc_fig_per_core(9, 3), 3, 1e-12);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_den); i++)
		assert_true(isnan(zc_fig_per_core(10, bad_den[i])));
	assert_true(isnan(zc_fig_per_core(NAN, 1)));
}

static void test_busy_frac(void **st)
{
	(void)st;
	/* 3 busy s over 2 s on 2 CPUs: 0.75 of them. */
	assert_close(zc_fig_busy_frac(3, 2, 2), 0.75, 1e-15);
	assert_close(zc_fig_busy_frac(1, 1, 1), 1, 0);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_den); i++) {
		assert_true(isnan(zc_fig_busy_frac(1, bad_den[i], 2)));
		assert_true(isnan(zc_fig_busy_frac(1, 2, bad_den[i])));
	}
}

static void test_service_demand(void **st)
{
	(void)st;
	/* 0.5 busy s for 1000 KiB: 500000 us / 1000 KiB = 500 us/KB. */
	assert_close(zc_fig_service_demand(0.5, 1024e3), 500, 1e-9);
	assert_close(zc_fig_service_demand(0, 1024), 0, 0);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_den); i++)
		assert_true(isnan(zc_fig_service_demand(1, bad_den[i])));
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The sample path's figures are these functions' results, exactly. */
static void test_sample_path(void **st)
{
	/* Numbers on which the same figure in another order (bytes * 8 / (secs *
	 * 1e9), gbps * secs / busy, busy / (secs * ncpu), ...) differs in the
	 * last bit. */
	const double sb = 6642013488.0, sw = 2.35313, db = 9209013486.0, dw = 1.3524696;
	const double busy = 1.002856, ru = 0.3141592, rs = 0.2718281;
	json_t *s = json_pack("{s:s,s:{s:{s:{s:f,s:f}},s:{s:{s:f,s:f,s:f,s:f,s:f,s:[i,i,i]}}}}",
			      "status", "ok", "roles",
			      "sink", "window", "window_s", sw, "bytes", sb,
			      "proxy", "window", "window_s", dw, "bytes", db, "busy_s", busy,
			      "rusage_user_s", ru, "rusage_sys_s", rs, "cpus", 1, 2, 3);
	double cores = zc_fig_busy_cores(busy, dw);

	(void)st;
	assert_non_null(s);
	zc_sample_derive(s, ZC_ROLE_PROXY, 2);
	assert_true(num(s, "gbps") == zc_fig_gbps(sb, sw));
	assert_true(num(s, "dut_gbps") == zc_fig_gbps(db, dw));
	assert_true(num(s, "dut_busy_cores") == cores);
	assert_true(num(s, "gbps_per_core") == zc_fig_per_core(zc_fig_gbps(db, dw), cores));
	assert_true(num(s, "dut_busy_frac") == zc_fig_busy_frac(busy, dw, 3));
	assert_true(num(s, "dut_proc_cores") == zc_fig_busy_cores(ru + rs, dw));
	assert_true(num(s, "service_demand_us_per_kb") == zc_fig_service_demand(busy, db));
	json_decref(s);

	/* An empty window: the figures are null, not infinities. */
	s = json_pack("{s:s,s:{s:{s:{s:f,s:f}},s:{s:{s:f,s:f,s:f,s:f,s:f}}}}", "status", "ok",
		      "roles", "sink", "window", "window_s", 0.0, "bytes", 0.0,
		      "proxy", "window", "window_s", 0.0, "bytes", 0.0, "busy_s", 0.0,
		      "rusage_user_s", 0.0, "rusage_sys_s", 0.0);
	assert_non_null(s);
	zc_sample_derive(s, ZC_ROLE_PROXY, 2);
	assert_true(json_is_null(json_object_get(s, "gbps")));
	assert_true(json_is_null(json_object_get(s, "dut_busy_cores")));
	assert_true(json_is_null(json_object_get(s, "gbps_per_core")));
	assert_true(json_is_null(json_object_get(s, "service_demand_us_per_kb")));
	assert_null(json_object_get(s, "dut_busy_frac"));	/* optional: absent */
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gbps),
		cmocka_unit_test(test_busy_cores),
		cmocka_unit_test(test_per_core),
		cmocka_unit_test(test_busy_frac),
		cmocka_unit_test(test_service_demand),
		cmocka_unit_test(test_sample_path),
	};

	return zc_run_tests(tests, NULL, NULL);
}
