// SPDX-License-Identifier: GPL-2.0
/* The payload pattern: deterministic, seed-dependent, and the checker
 * finds the exact offset of a corrupted byte across period wraps. */
#include <stdlib.h>
#include <string.h>
#include "zc_test.h"

#include "lib/pattern.h"

#define PERIOD 8192

static void test_deterministic(void **state)
{
	uint8_t a[PERIOD], b[PERIOD];

	(void)state;
	zc_pattern_fill(a, sizeof(a), 42);
	zc_pattern_fill(b, sizeof(b), 42);
	assert_memory_equal(a, b, sizeof(a));
	/* The first word is a fixed function of the seed: a change of the
	 * generator would make hosts of different versions disagree. */
	zc_pattern_fill(b, sizeof(b), 43);
	assert_memory_not_equal(a, b, 64);
}

static void test_prefix_stable(void **state)
{
	uint8_t a[PERIOD], b[100];

	(void)state;
	zc_pattern_fill(a, sizeof(a), 7);
	zc_pattern_fill(b, sizeof(b), 7);
	assert_memory_equal(a, b, sizeof(b));
}

static void test_check_wraps(void **state)
{
	uint8_t ref[PERIOD], data[3 * PERIOD];

	(void)state;
	zc_pattern_fill(ref, PERIOD, 1);
	for (int i = 0; i < 3; i++)
		memcpy(data + i * PERIOD, ref, PERIOD);
	/* Any window of the stream verifies at its own offset. */
	assert_int_equal(zc_pattern_check(ref, PERIOD, 0, data, sizeof(data)), UINT64_MAX);
	assert_int_equal(zc_pattern_check(ref, PERIOD, 5 * PERIOD + 100, data + 100,
					  2 * PERIOD), UINT64_MAX);
	/* ... and not at the wrong one. */
	assert_int_not_equal(zc_pattern_check(ref, PERIOD, 1, data, 64), UINT64_MAX);
}

static void test_check_finds_offset(void **state)
{
	uint8_t ref[PERIOD], data[2 * PERIOD];

	(void)state;
	zc_pattern_fill(ref, PERIOD, 9);
	memcpy(data, ref, PERIOD);
	memcpy(data + PERIOD, ref, PERIOD);
	data[PERIOD + 17] ^= 0x01;
	/* data starts at stream offset 1000 * PERIOD */
	assert_int_equal(zc_pattern_check(ref, PERIOD, 1000ULL * PERIOD, data, sizeof(data)),
			 1000ULL * PERIOD + PERIOD + 17);
}

static void test_wrong_seed_mismatches(void **state)
{
	uint8_t ref[PERIOD], data[PERIOD];

	(void)state;
	zc_pattern_fill(ref, PERIOD, 1);
	zc_pattern_fill(data, PERIOD, 2);
	assert_int_not_equal(zc_pattern_check(ref, PERIOD, 0, data, PERIOD), UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_prefix_stable),
		cmocka_unit_test(test_check_wraps),
		cmocka_unit_test(test_check_finds_offset),
		cmocka_unit_test(test_wrong_seed_mismatches),
	};

	return zc_run_tests(tests, NULL, NULL);
}
