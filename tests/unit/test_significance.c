// SPDX-License-Identifier: GPL-2.0
/*
 * Summaries and the Mann-Whitney U test behind compare's profile rows.
 * Reference values were computed independently in Python without scipy (see
 * the comment of each vector): exact U p-values by enumerating every split of
 * the pooled samples, the normal approximation by the textbook formula
 * (midranks, tie correction, continuity correction).
 */
#include "zc_test.h"
#include <errno.h>
#include <math.h>

#include "stats/stats.h"

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
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summarize_unchanged), cmocka_unit_test(test_hmean),
		cmocka_unit_test(test_mwu_exact),	    cmocka_unit_test(test_mwu_normal),
		cmocka_unit_test(test_mwu_small_n),
	};

	return zc_run_tests(tests, NULL, NULL);
}
