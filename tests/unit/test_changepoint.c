// SPDX-License-Identifier: GPL-2.0
/*
 * Change points of a series (stats/changepoint.h) on fixed-seed synthetic
 * series of lognormal nights: a step is found at its night with its size in
 * the interval, two steps are both found, a series without a step raises one
 * about alpha of the time, the search's critical |t| is above a known
 * night's, and bad or short series are refused or left alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#include "stats/changepoint.h"

static gsl_rng *rng;

/* n nights of lognormal noise sd s around 10, times (1 + step) from night at. */
static void series(double *x, size_t n, double s, size_t at, double step)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 10 * exp(gsl_ran_gaussian(rng, s)) * (i >= at ? 1 + step : 1);
}

static void test_one_step(void **state)
{
	struct zc_cp_opts o;
	struct zc_cp cp[8];
	double x[30];
	size_t n;

	(void)state;
	zc_cp_defaults(&o);
	series(x, 30, 0.05, 15, 0.40);
	assert_int_equal(zc_changepoints(x, 30, &o, cp, 8, &n), 0);
	assert_int_equal(n, 1);
	assert_true(cp[0].at >= 14 && cp[0].at <= 16);
	assert_true(cp[0].p < 0.01);
	assert_true(cp[0].step.ok);
	assert_true(cp[0].step.lo < log(1.4) && log(1.4) < cp[0].step.hi);
}

/* 100 series of 45 nights with two steps of 30% (up at 15, down at 30) in
 * noise of 3%: both found at their nights in every one, each against its
 * own neighbours; a third, false, split in few (each of the three segments
 * is searched again at alpha). */
static void test_two_steps(void **state)
{
	struct zc_cp_opts o;
	struct zc_cp cp[8];
	double x[45];
	size_t n, both = 0, extra = 0;

	(void)state;
	zc_cp_defaults(&o);
	o.perms = 199;
	for (int s = 0; s < 100; s++) {
		bool up = false, down = false;

		for (size_t i = 0; i < 45; i++)
			x[i] = 10 * exp(gsl_ran_gaussian(rng, 0.03)) * (i >= 15 && i < 30 ? 1.3 : 1);
		assert_int_equal(zc_changepoints(x, 45, &o, cp, 8, &n), 0);
		for (size_t j = 0; j < n; j++) {
			if (cp[j].at >= 14 && cp[j].at <= 16)
				up = cp[j].step.lo < log(1.3) + 0.05 && cp[j].step.d > 0;
			else if (cp[j].at >= 29 && cp[j].at <= 31)
				down = cp[j].step.hi > -log(1.3) - 0.05 && cp[j].step.d < 0;
			else
				extra++;
		}
		both += up && down;
	}
	printf("# two steps: both found in %zu of 100, %zu false splits beside them\n", both, extra);
	assert_true(both == 100);
	assert_true(extra <= 20);
}

/* 300 step-free series of 30 nights: about alpha raise a change point (the
 * binomial's 3 sd around 5% reach 8.8%). */
static void test_false_steps(void **state)
{
	struct zc_cp_opts o;
	struct zc_cp cp[8];
	double x[30];
	size_t n, raised = 0;

	(void)state;
	zc_cp_defaults(&o);
	o.perms = 199;
	for (int s = 0; s < 300; s++) {
		series(x, 30, 0.10, 30, 0);
		assert_int_equal(zc_changepoints(x, 30, &o, cp, 8, &n), 0);
		raised += n > 0;
	}
	printf("# %zu of 300 step-free series raised a change point\n", raised);
	assert_true(raised >= 5 && raised <= 26);
}

/* The search pays for not knowing the night: its critical |t| over 30 nights
 * is well above a known night's t(0.975, 28) = 2.048, and grows with n. */
static void test_critical(void **state)
{
	struct zc_cp_opts o;
	double c30, c100;

	(void)state;
	zc_cp_defaults(&o);
	c30 = zc_cp_critical_t(30, &o);
	c100 = zc_cp_critical_t(100, &o);
	printf("# critical |t|: %.3f at 30 nights, %.3f at 100\n", c30, c100);
	assert_true(c30 > gsl_cdf_tdist_Pinv(0.975, 28) + 0.5 && c30 < 4);
	assert_true(c100 > c30);
	assert_true(isnan(zc_cp_critical_t(5, &o)));
	/* Cached: the same value again. */
	assert_true(zc_cp_critical_t(30, &o) == c30);
}

/* What it could see: (crit + z_0.8) s sqrt(2/15) at the middle of 30 nights
 * of noise s (on average over 50 series: one estimates s from 28 df). */
static void test_can_see(void **state)
{
	struct zc_cp_opts o;
	double x[30], want, got;

	(void)state;
	zc_cp_defaults(&o);
	want = (zc_cp_critical_t(30, &o) + gsl_cdf_ugaussian_Pinv(0.8)) * 0.10 * sqrt(2.0 / 15);
	got = 0;
	for (int s = 0; s < 50; s++) {
		series(x, 30, 0.10, 30, 0);
		got += zc_cp_can_see(x, 30, NULL, 0, 15, &o) / 50;
	}
	printf("# could see %.3f on average (noise 0.10 gives %.3f)\n", got, want);
	assert_true(got > 0.9 * want && got < 1.1 * want);
	/* Too few nights on a side: no answer. */
	assert_true(isnan(zc_cp_can_see(x, 30, NULL, 0, 2, &o)));
	assert_true(isnan(zc_cp_can_see(x, 30, NULL, 0, 28, &o)));
}

static void test_edges(void **state)
{
	struct zc_cp_opts o;
	struct zc_cp cp[8];
	double flat[20], x[30], bad[8] = { 1, 2, 3, NAN, 4, 5, 6, 7 }, p1;
	size_t n;

	(void)state;
	zc_cp_defaults(&o);
	for (size_t i = 0; i < 20; i++)
		flat[i] = 5;
	assert_int_equal(zc_changepoints(flat, 20, &o, cp, 8, &n), 0);
	assert_int_equal(n, 0);
	/* Shorter than two sides: nothing to search. */
	assert_int_equal(zc_changepoints(flat, 5, &o, cp, 8, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(zc_changepoints(bad, 8, &o, cp, 8, &n), -EINVAL);
	bad[3] = 0;
	assert_int_equal(zc_changepoints(bad, 8, &o, cp, 8, &n), -EINVAL);
	o.log_scale = false;
	assert_int_equal(zc_changepoints(bad, 8, &o, cp, 8, &n), 0);
	o.log_scale = true;
	o.alpha = 0;
	assert_int_equal(zc_changepoints(flat, 20, &o, cp, 8, &n), -EINVAL);
	/* One series gives one answer (the shuffles come from the fixed seed). */
	zc_cp_defaults(&o);
	series(x, 30, 0.10, 15, 0.15);
	assert_int_equal(zc_changepoints(x, 30, &o, cp, 8, &n), 0);
	p1 = n ? cp[0].p : -1;
	assert_int_equal(zc_changepoints(x, 30, &o, cp, 8, &n), 0);
	assert_true((n ? cp[0].p : -1) == p1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_step),   cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_false_steps), cmocka_unit_test(test_critical),
		cmocka_unit_test(test_can_see),    cmocka_unit_test(test_edges),
	};
	int failed;

	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	gsl_rng_free(rng);
	return zc_tests_exit(failed, sizeof(tests) / sizeof(tests[0]));
}
