// SPDX-License-Identifier: GPL-2.0
/* Summary statistics against values worked out by hand. */
#include <math.h>
#include "zc_test.h"

#include "stats/stats.h"

static void test_odd(void **state)
{
	const double v[] = { 3, 1, 2 };
	struct zc_summary s;

	(void)state;
	zc_summarize(v, 3, &s);
	assert_int_equal(s.n, 3);
	assert_float_equal(s.median, 2, 1e-12);
	assert_float_equal(s.min, 1, 1e-12);
	assert_float_equal(s.max, 3, 1e-12);
	assert_float_equal(s.mean, 2, 1e-12);
	assert_float_equal(s.stddev, 1, 1e-12); /* sample stddev of 1,2,3 */
	assert_float_equal(v[0], 3, 0); /* input untouched */
}

static void test_even(void **state)
{
	const double v[] = { 10, 2, 4, 8 };
	struct zc_summary s;

	(void)state;
	zc_summarize(v, 4, &s);
	assert_float_equal(s.median, 6, 1e-12);
	/* mean 6, squared deviations 16+16+4+4 = 40, /3 */
	assert_float_equal(s.stddev, sqrt(40.0 / 3), 1e-12);
}

static void test_single_and_empty(void **state)
{
	const double v[] = { 5 };
	struct zc_summary s;

	(void)state;
	zc_summarize(v, 1, &s);
	assert_float_equal(s.median, 5, 0);
	assert_float_equal(s.stddev, 0, 0);
	zc_summarize(v, 0, &s);
	assert_true(isnan(s.median));
	assert_true(isnan(zc_median(v, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd),
		cmocka_unit_test(test_even),
		cmocka_unit_test(test_single_and_empty),
	};

	return zc_run_tests(tests, NULL, NULL);
}
