// SPDX-License-Identifier: GPL-2.0
/*
 * Significance tests and the bootstrap behind compare and report. Reference values were computed
 * independently in Python without scipy (see the comment of each vector):
 * exact U p-values by enumerating every split of the pooled samples, the
 * normal approximation by the textbook formula (midranks, tie correction,
 * continuity correction), Welch's p by Simpson integration of the t density.
 * Bootstrap bounds are derived by hand from the distribution of a median of
 * three draws.
 */
#include "zc_test.h"
#include <errno.h>
#include <math.h>

#include "lib/stats.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_summarize_unchanged(void **state)
{
	const double v[] = { 4, 1, 3, 2 };
	struct zc_summary s;

	(void)state;
	zc_summarize(v, 4, &s);
	assert_int_equal(s.n, 4);
	assert_float_equal(s.median, 2.5, 1e-12);
	assert_float_equal(s.mean, 2.5, 1e-12);
	assert_float_equal(s.min, 1, 0);
	assert_float_equal(s.max, 4, 0);
	assert_float_equal(s.stddev, sqrt(5.0 / 3), 1e-12);
	zc_summarize(v, 0, &s);
	assert_true(isnan(s.median));
}

static void test_hmean(void **state)
{
	const double v[] = { 1, 2, 4 }, bad[] = { 1, 0 };

	(void)state;
	assert_float_equal(zc_hmean(v, 3), 3 / (1 + 0.5 + 0.25), 1e-12);
	assert_true(isnan(zc_hmean(bad, 2)));
}

/* zc_mann_whitney(a, b) succeeds, exact or not, with U = stat and p within tol. */
static void expect_mwu(const double *a, size_t na, const double *b, size_t nb, bool exact,
		       double stat, double p, double tol)
{
	struct zc_test t;

	assert_int_equal(zc_mann_whitney(a, na, b, nb, &t), 0);
	assert_int_equal(t.exact, exact);
	assert_float_equal(t.stat, stat, 0);
	assert_float_equal(t.p, p, tol);
}

/* zc_welch(a, b) succeeds with these t, df and p (to 1e-8). */
static void expect_welch(const double *a, size_t na, const double *b, size_t nb,
			 double stat, double df, double p)
{
	struct zc_test t;

	assert_int_equal(zc_welch(a, na, b, nb, &t), 0);
	assert_float_equal(t.stat, stat, 1e-8);
	assert_float_equal(t.df, df, 1e-8);
	assert_float_equal(t.p, p, 1e-8);
}

static void test_mwu_exact(void **state)
{
	/* Fully separated 3 v 3: 1 of C(6,3)=20 splits as extreme, p = 2/20. */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	/* Enumerated in Python: U = 3, p = 0.030303030303 (5 v 6). */
	const double c[] = { 1.1, 2.3, 3.7, 8.2, 4.4 }, d[] = { 5.5, 6.1, 7.0, 9.9, 10.5, 12.0 };
	/* Enumerated: U = 19, p = 0.534965034965 (7 v 7). */
	const double e[] = { 3.1, 9.2, 4.4, 6.0, 5.5, 7.7, 1.2 };
	const double f[] = { 6.6, 2.0, 8.8, 5.1, 10.3, 4.9, 7.2 };

	(void)state;
	expect_mwu(a, 3, b, 3, true, 0, 0.1, 1e-12);
	expect_mwu(b, 3, a, 3, true, 9, 0.1, 1e-12);
	expect_mwu(c, N(c), d, N(d), true, 3, 0.030303030303030304, 1e-12);
	expect_mwu(e, N(e), f, N(f), true, 19, 0.534965034965035, 1e-12);
}

static void test_mwu_normal(void **state)
{
	/* Ties force the normal approximation: U = 6, p = 0.11390314458853065. */
	const double a[] = { 1, 2, 2, 3, 4 }, b[] = { 2, 3, 3, 5, 6, 7 };
	const double same[] = { 5, 5, 5 };
	double big_a[25], big_b[22];
	struct zc_test t;

	(void)state;
	expect_mwu(a, N(a), b, N(b), false, 6, 0.11390314458853065, 1e-9);
	/* Over ZC_MWU_EXACT_MAX, no ties: U = 190, p = 0.07161685540092669. */
	for (int i = 0; i < 25; i++)
		big_a[i] = i * 1.5 + 0.25;
	for (int i = 0; i < 22; i++)
		big_b[i] = i * 1.5 + 9.1;
	expect_mwu(big_a, 25, big_b, 22, false, 190, 0.07161685540092669, 1e-9);
	/* Every value equal: no evidence of any change. */
	assert_int_equal(zc_mann_whitney(same, 3, same, 3, &t), 0);
	assert_float_equal(t.p, 1, 0);
}

static void test_mwu_small_n(void **state)
{
	const double a[] = { 1, 2 }, b[] = { 4, 5, 6 };
	struct zc_test t;

	(void)state;
	assert_int_equal(zc_mann_whitney(a, 2, b, 3, &t), -EDOM);
	assert_true(isnan(t.p));
	assert_int_equal(zc_welch(a, 2, b, 3, &t), -EDOM);
	/* 3 v 3 can never reach 0.05; 4 v 4 can (2/70). */
	assert_float_equal(zc_mann_whitney_min_p(3, 3), 0.1, 1e-12);
	assert_float_equal(zc_mann_whitney_min_p(4, 4), 2.0 / 70, 1e-12);
}

static void test_welch(void **state)
{
	/* Wikipedia's Welch example 1: t = -2.4553563983, df = 24.9885292902,
	 * p = 0.0213780015 (Python, Simpson on the t density). */
	const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	/* 3 v 3: t = -4.9266463908, df = 3.5537318120, p = 0.0106421487. */
	const double c[] = { 8.0, 8.4, 9.3 }, d[] = { 11.2, 11.5, 13.0 };

	(void)state;
	expect_welch(a, N(a), b, N(b), -2.4553563983, 24.9885292902, 0.0213780015);
	expect_welch(c, 3, d, 3, -4.9266463908, 3.5537318120, 0.0106421487);
}

static void test_bootstrap(void **state)
{
	const double num[] = { 1, 2, 3 }, one[] = { 1, 1, 1 }, two[] = { 2, 2, 2 };
	const double x[] = { 10.1, 11.4, 9.8, 10.9, 12.2, 10.4, 11.0, 9.5 };
	const double y[] = { 5.2, 5.6, 4.9, 5.4, 5.1, 5.8, 5.0, 5.3 };
	double lo, hi, lo2, hi2;

	(void)state;
	/* No spread: the CI collapses onto the ratio. */
	assert_int_equal(zc_bootstrap_ratio_ci(two, 3, one, 3, 1000, 1, 0.95, &lo, &hi), 0);
	assert_float_equal(lo, 2, 0);
	assert_float_equal(hi, 2, 0);
	/* Median of 3 draws from {1,2,3}: P(1) = P(3) = 7/27 = 0.259, P(2) = 13/27.
	 * 95%: both tails (2.5%) fall inside the end masses -> [1, 3]. */
	assert_int_equal(zc_bootstrap_ratio_ci(num, 3, one, 3, 10000, 7, 0.95, &lo, &hi), 0);
	assert_float_equal(lo, 1, 0);
	assert_float_equal(hi, 3, 0);
	/* 40%: the 30% and 70% quantiles both land in the middle mass -> [2, 2]. */
	assert_int_equal(zc_bootstrap_ratio_ci(num, 3, one, 3, 10000, 7, 0.40, &lo, &hi), 0);
	assert_float_equal(lo, 2, 0);
	assert_float_equal(hi, 2, 0);
	/* Fixed seed: the same bounds every time; inside the extreme ratios. */
	assert_int_equal(zc_bootstrap_ratio_ci(x, 8, y, 8, 5000, 42, 0.95, &lo, &hi), 0);
	assert_int_equal(zc_bootstrap_ratio_ci(x, 8, y, 8, 5000, 42, 0.95, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	assert_true(lo < hi);
	assert_true(lo >= 9.5 / 5.8 && hi <= 12.2 / 4.9);
	/* median(x) / median(y) = 10.65 / 5.25 = 2.0286 lies inside. */
	assert_true(lo < 10.65 / 5.25 && 10.65 / 5.25 < hi);
	assert_int_equal(zc_bootstrap_ratio_ci(x, 0, y, 8, 100, 1, 0.95, &lo, &hi), -EDOM);
	assert_int_equal(zc_bootstrap_ratio_ci(x, 8, y, 8, 100, 1, 1.5, &lo, &hi), -EDOM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize_unchanged), cmocka_unit_test(test_hmean),
		cmocka_unit_test(test_mwu_exact),	    cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_mwu_small_n),	    cmocka_unit_test(test_welch),
		cmocka_unit_test(test_bootstrap),
	};

	return zc_run_tests(tests, NULL, NULL);
}
