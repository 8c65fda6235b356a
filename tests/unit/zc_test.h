/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every unit test includes this instead of <cmocka.h>. cmocka (1.1) counts a
 * test that called skip() as passed, and the program exits 0: tests/run.sh
 * would say PASS for tests that never ran. Here every skip() is counted, and
 * zc_run_tests() makes the exit code tell (liburing's T_EXIT_SKIP):
 *   a test failed          -> 1
 *   every test skipped     -> 77, "skip: all N tests skipped" (run.sh: SKIP)
 *   some skipped, none bad -> 0, "skipped: K of N tests" (run.sh: PASS, K skipped)
 * zc_skip("why %s", ...) prints "skip: why" first: the reason run.sh shows.
 */
#ifndef ZC_TEST_H
#define ZC_TEST_H

#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

/* a and b within eps, doubles. cmocka 1.1.5's assert_float_equal casts to
 * float: 1e-12 would mean one float ulp, and a double a few ulps off can fall
 * on either side of a float. */
#define assert_close(a, b, eps)                                                  \
	do {                                                                     \
		double a_ = (a), b_ = (b);                                       \
		if (!(fabs(a_ - b_) <= (eps)))                                   \
			fail_msg("%.17g != %.17g (eps %g)", a_, b_, (double)(eps)); \
	} while (0)

static int zc_tests_skipped __attribute__((unused));

#undef skip
#define skip() (zc_tests_skipped++, _skip(__FILE__, __LINE__))
#define zc_skip(fmt, ...) do {						\
	print_message("skip: " fmt "\n", ##__VA_ARGS__);		\
	skip();								\
} while (0)

static inline int zc_tests_exit(int failed, size_t n)
{
	/* cmocka's output goes to stdout and stderr; ours after all of it. */
	fflush(NULL);
	if (failed)
		return 1;
	if (zc_tests_skipped && (size_t)zc_tests_skipped >= n) {
		printf("skip: all %zu tests skipped\n", n);
		return 77;
	}
	if (zc_tests_skipped)
		printf("skipped: %d of %zu tests\n", zc_tests_skipped, n);
	return 0;
}

#define zc_run_tests(group, setup, teardown)				\
	zc_tests_exit(_cmocka_run_group_tests(#group, group,		\
			sizeof(group) / sizeof((group)[0]), setup, teardown), \
		      sizeof(group) / sizeof((group)[0]))

#endif
