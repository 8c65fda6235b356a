// SPDX-License-Identifier: GPL-2.0
/*
 * Paired statistics, the A/A noise floor, foreign busy time and repetition
 * orders (stats/paired.h, stats/gate.h, lib/foreign.h, stats/order.h) against
 * values obtained independently, once, with Debian 12's python3-scipy 1.10.1
 * (the tests do not need it at run time). Bootstrap bounds and floors: the
 * exact distribution of the median of n draws with replacement from n
 * distinct values (n odd): P(med <= x(k)) = P(Bin(n, k/n) >= (n+1)/2),
 * scipy.stats.binom.sf. Where a quantile falls well inside one step of that
 * distribution, 10000 resamples land on that step's value whatever the
 * generator; scipy.stats.bootstrap(method='percentile', n_resamples=10000)
 * gave the same bounds for seeds 0..4.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"
#include <errno.h>
#include <math.h>

#include "lib/foreign.h"
#include "stats/gate.h"
#include "stats/order.h"
#include "stats/paired.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define ROUNDS 10000
#define SEED 20260101UL

/* Seven pairs; ratios sorted: 0.94949.., 0.95192.., 0.96039.., 1.02,
 * 1.03921.., 1.04166.., 1.05825... The median of 7 draws has P(<= x(1)) =
 * 0.0102, P(<= x(2)) = 0.1083, P(<= x(5)) = 0.8917, P(<= x(6)) = 0.9898, so
 * the 2.5% and 97.5% quantiles are x(2) and x(6). */
static const double r7_num[] = { 10.2, 9.7, 10.9, 9.4, 10.0, 10.6, 9.9 };
static const double r7_den[] = { 10.0, 10.1, 10.3, 9.9, 9.6, 10.2, 10.4 };

static void test_ratios_drop_pairwise(void **state)
{
	const double num[] = { 2, NAN, 3, 4, 5, INFINITY };
	const double den[] = { 1, 1, NAN, 0, 2, 1 };
	double r[N(num)];
	size_t kept = 99;

	(void)state;
	assert_int_equal(zc_paired_ratios(num, den, N(num), r, &kept), 0);
	assert_int_equal(kept, 2);
	assert_close(r[0], 2, 0);
	assert_true(isnan(r[1]) && isnan(r[2]) && isnan(r[3]) && isnan(r[5]));
	assert_close(r[4], 2.5, 0);
	assert_int_equal(zc_paired_ratios(num, den, 1, r, NULL), -EINVAL);
}

static void test_ratio_ci_known(void **state)
{
	struct zc_paired p;

	(void)state;
	assert_int_equal(zc_paired_ratio_ci(r7_num, r7_den, 7, ROUNDS, SEED, 0.95, &p), 0);
	assert_int_equal(p.n, 7);
	assert_int_equal(p.dropped, 0);
	assert_close(p.median, 1.02, 1e-12);
	assert_close(p.lo, 9.9 / 10.4, 1e-12);	/* x(2) = 0.9519230769230769 */
	assert_close(p.hi, 10.0 / 9.6, 1e-12);	/* x(6) = 1.0416666666666667 */
	assert_close(p.level, 0.95, 0);
	assert_close(p.half_width_rel, (10.0 / 9.6 - 9.9 / 10.4) / 2 / 1.02, 1e-12);
}

static void test_ratio_ci_missing_pairs_ignored(void **state)
{
	/* The same seven pairs with a missing side here and there: the bounds
	 * come from the complete pairs only, resampled the same way. */
	const double num[] = { 10.2, NAN, 9.7, 10.9, 9.4, 7.0, 10.0, 10.6, 9.9 };
	const double den[] = { 10.0, 9.0, 10.1, 10.3, 9.9, NAN, 9.6, 10.2, 10.4 };
	struct zc_paired a, b;

	(void)state;
	assert_int_equal(zc_paired_ratio_ci(r7_num, r7_den, 7, ROUNDS, SEED, 0.95, &a), 0);
	assert_int_equal(zc_paired_ratio_ci(num, den, N(num), ROUNDS, SEED, 0.95, &b), 0);
	assert_int_equal(b.n, 7);
	assert_int_equal(b.dropped, 2);
	assert_close(a.median, b.median, 0);
	assert_close(a.lo, b.lo, 0);
	assert_close(a.hi, b.hi, 0);
}

static void test_ratio_ci_deterministic_and_edges(void **state)
{
	/* Ten pairs: many distinct medians, so the bounds depend on the draws;
	 * the same seed must still give the same bounds, bit for bit. */
	const double num[] = { 9.8, 10.4, 9.1, 10.9, 9.5, 10.0, 9.7, 9.2, 9.9, 9.0 };
	const double den[] = { 10.1, 10.6, 9.9, 10.8, 10.2, 10.5, 10.0, 9.8, 10.4, 9.6 };
	const double one_n[] = { 3 }, one_d[] = { 2 }, nan1[] = { NAN };
	struct zc_paired a, b;

	(void)state;
	assert_int_equal(zc_paired_ratio_ci(num, den, N(num), ROUNDS, SEED, 0.95, &a), 0);
	assert_int_equal(zc_paired_ratio_ci(num, den, N(num), ROUNDS, SEED, 0.95, &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.lo <= a.median && a.median <= a.hi);
	assert_true(a.lo >= 9.1 / 9.9 && a.hi <= 10.9 / 10.8); /* within the ratios */
	/* A narrower level gives a narrower interval. */
	assert_int_equal(zc_paired_ratio_ci(num, den, N(num), ROUNDS, SEED, 0.5, &b), 0);
	assert_true(b.lo >= a.lo && b.hi <= a.hi && b.hi - b.lo < a.hi - a.lo);
	/* One pair: every resample is that pair. */
	assert_int_equal(zc_paired_ratio_ci(one_n, one_d, 1, ROUNDS, SEED, 0.95, &a), 0);
	assert_close(a.lo, 1.5, 0);
	assert_close(a.hi, 1.5, 0);
	assert_close(a.half_width_rel, 0, 0);
	assert_int_equal(zc_paired_ratio_ci(nan1, one_d, 1, ROUNDS, SEED, 0.95, &a), -EDOM);
	assert_true(isnan(a.median) && isnan(a.lo) && isnan(a.hi));
	assert_int_equal(a.dropped, 1);
	assert_int_equal(zc_paired_ratio_ci(one_n, one_d, 1, 0, SEED, 0.95, &a), -EDOM);
	assert_int_equal(zc_paired_ratio_ci(one_n, one_d, 1, ROUNDS, SEED, 1.0, &a), -EDOM);
}

static void test_ci_tight(void **state)
{
	(void)state;
	assert_close(zc_ci_half_width_rel(0.97, 1.03, 1.0), 0.03, 1e-12);
	assert_close(zc_ci_half_width_rel(-1.1, -0.9, -1.0), 0.1, 1e-12);
	assert_true(isnan(zc_ci_half_width_rel(0.9, 1.1, 0)));
	assert_true(isnan(zc_ci_half_width_rel(NAN, 1.1, 1)));
	assert_true(zc_ci_tight(0.98, 1.02, 1.0, 0.03));
	assert_false(zc_ci_tight(0.96, 1.04, 1.0, 0.03));
	assert_false(zc_ci_tight(0.97, 1.03, 1.0, 0.02)); /* 3% is not under 2% */
	assert_false(zc_ci_tight(NAN, NAN, 1.0, 0.03));
}

/* A/A pair: log ratios sorted -0.0202, -0.0050, 0.0030, 0.0090, 0.0100,
 * 0.0159, 0.0237. Over the exact distribution of the median of 7 draws,
 * P(|m*| <= 0.00995) = 0.8816 and P(|m*| <= 0.01587) = 0.9797, so the 95%
 * quantile is log(1.016): a floor of 1.6%. */
static const double aa_a[] = { 9.8, 10.1, 9.95, 10.03, 10.09, 10.16, 10.24 };
static const double aa_b[] = { 10, 10, 10, 10, 10, 10, 10 };

static void test_noise_floor_aa(void **state)
{
	const double flat_a[] = { 10.2, 20.4, 5.1, 30.6 }, flat_b[] = { 10, 20, 5, 30 };
	double f, g;
	size_t used;

	(void)state;
	assert_int_equal(zc_noise_floor_aa(aa_a, aa_b, 7, ROUNDS, SEED, 0.95, &f, &used), 0);
	assert_int_equal(used, 7);
	assert_close(f, 0.016, 1e-12);
	/* Whichever run is called A. */
	assert_int_equal(zc_noise_floor_aa(aa_b, aa_a, 7, ROUNDS, SEED, 0.95, &g, NULL), 0);
	assert_close(g, f, 1e-12);
	/* A constant 2% offset is a 2% floor; identical runs have none. */
	assert_int_equal(zc_noise_floor_aa(flat_a, flat_b, 4, ROUNDS, SEED, 0.95, &f, &used), 0);
	assert_close(f, 0.02, 1e-12);
	assert_int_equal(zc_noise_floor_aa(flat_b, flat_b, 4, ROUNDS, SEED, 0.95, &f, NULL), 0);
	assert_close(f, 0, 0);
	assert_int_equal(zc_noise_floor_aa(aa_a, aa_b, 0, ROUNDS, SEED, 0.95, &f, &used), -EDOM);
	assert_true(isnan(f));
	assert_int_equal(zc_noise_floor_aa(aa_a, aa_b, 7, ROUNDS, SEED, 1.0, &f, NULL), -EDOM);
}

static void test_foreign_busy(void **state)
{
	struct zc_foreign f;

	(void)state;
	/* 1 s window: core busy 0.9 s, DUT threads 0.6 s, irq+softirq 0.05 s. */
	assert_int_equal(zc_foreign_busy(0.9, 0.6, 0.05, 1.0, 1, ZC_FOREIGN_SHARE_MAX, &f), 0);
	assert_close(f.busy_s, 0.25, 1e-12);
	assert_close(f.share, 0.25, 1e-12);
	assert_true(f.disturbed);
	/* 1% of a 2 s window on two cores: under 2%. */
	assert_int_equal(zc_foreign_busy(3.0, 2.9, 0.06, 2.0, 2, ZC_FOREIGN_SHARE_MAX, &f), 0);
	assert_close(f.busy_s, 0.04, 1e-12);
	assert_close(f.share, 0.01, 1e-12);
	assert_false(f.disturbed);
	/* Exactly at the threshold is not above it (binary-exact figures). */
	assert_int_equal(zc_foreign_busy(0.75, 0.5, 0, 1.0, 1, 0.25, &f), 0);
	assert_close(f.share, 0.25, 0);
	assert_false(f.disturbed);
	/* Tick rounding: more DUT time than busy time clamps to 0, ... */
	assert_int_equal(zc_foreign_busy(0.50, 0.51, 0.01, 1.0, 1, 0.02, &f), 0);
	assert_close(f.busy_s, 0, 0);
	assert_close(f.share, 0, 0);
	/* ... and busy time past the window clamps to the window. */
	assert_int_equal(zc_foreign_busy(1.03, 0, 0, 1.0, 1, 0.02, &f), 0);
	assert_close(f.busy_s, 1.0, 0);
	assert_close(f.share, 1.0, 0);
	assert_true(f.disturbed);
	/* Missing input: unknown, not disturbed. */
	assert_int_equal(zc_foreign_busy(0.9, NAN, 0.05, 1.0, 1, 0.02, &f), -ENODATA);
	assert_true(isnan(f.busy_s) && isnan(f.share) && !f.disturbed);
	assert_int_equal(zc_foreign_busy(0.9, 0.6, 0.05, 0, 1, 0.02, &f), -EDOM);
	assert_int_equal(zc_foreign_busy(0.9, -0.6, 0.05, 1.0, 1, 0.02, &f), -EDOM);
	assert_int_equal(zc_foreign_busy(0.9, 0.6, 0.05, 1.0, 0, 0.02, &f), -EDOM);
	assert_int_equal(zc_foreign_busy(0.9, 0.6, 0.05, 1.0, 1, 1.5, &f), -EDOM);
}

static void test_order_sequential_interleaved(void **state)
{
	struct zc_slot s[6];
	const size_t seq[6][2] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 0 }, { 1, 1 }, { 1, 2 } };
	const size_t il[6][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 0, 2 }, { 1, 2 } };

	(void)state;
	assert_int_equal(zc_order_fill(ZC_ORDER_SEQUENTIAL, 2, 3, 0, s), 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(s[i].run, seq[i][0]);
		assert_int_equal(s[i].rep, seq[i][1]);
	}
	assert_int_equal(zc_order_fill(ZC_ORDER_INTERLEAVED, 2, 3, 0, s), 0);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(s[i].run, il[i][0]);
		assert_int_equal(s[i].rep, il[i][1]);
	}
	assert_int_equal(zc_order_fill(ZC_ORDER_INTERLEAVED, 0, 3, 0, s), -EINVAL);
	assert_int_equal(zc_order_fill(ZC_ORDER_INTERLEAVED, 2, 0, 0, s), -EINVAL);
	assert_int_equal(zc_order_fill((enum zc_order)9, 2, 3, 0, s), -EINVAL);
	assert_int_equal(zc_order_fill(ZC_ORDER_INTERLEAVED, SIZE_MAX / 2, 4, 0, s), -EOVERFLOW);
	assert_int_equal(zc_order_from_name("interleaved"), ZC_ORDER_INTERLEAVED);
	assert_int_equal(zc_order_from_name("random"), ZC_ORDER_RANDOM);
	assert_int_equal(zc_order_from_name("shuffled"), -EINVAL);
	assert_string_equal(zc_order_name(ZC_ORDER_SEQUENTIAL), "sequential");
}

static void test_order_random(void **state)
{
	enum { RUNS = 4, REPS = 6 };
	struct zc_slot a[RUNS * REPS], b[RUNS * REPS], c[RUNS * 3];
	bool moved = false, differs = false;

	(void)state;
	assert_int_equal(zc_order_fill(ZC_ORDER_RANDOM, RUNS, REPS, 42, a), 0);
	for (int r = 0; r < REPS; r++) {
		unsigned seen = 0;

		for (int k = 0; k < RUNS; k++) {
			const struct zc_slot *s = &a[r * RUNS + k];

			/* Round r holds repetition r of every run, once. */
			assert_int_equal(s->rep, r);
			assert_true(s->run < RUNS && !(seen & 1u << s->run));
			seen |= 1u << s->run;
			moved |= s->run != (size_t)k;
		}
	}
	assert_true(moved); /* P(no run moved in 6 rounds of 4) = 24^-6 */
	/* Same seed, same order; prefix-stable for repetitions = auto. */
	assert_int_equal(zc_order_fill(ZC_ORDER_RANDOM, RUNS, REPS, 42, b), 0);
	assert_memory_equal(a, b, sizeof(a));
	assert_int_equal(zc_order_fill(ZC_ORDER_RANDOM, RUNS, 3, 42, c), 0);
	assert_memory_equal(a, c, sizeof(c));
	assert_int_equal(zc_order_fill(ZC_ORDER_RANDOM, RUNS, REPS, 43, b), 0);
	for (int i = 0; i < RUNS * REPS; i++)
		differs |= a[i].run != b[i].run;
	assert_true(differs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratios_drop_pairwise),
		cmocka_unit_test(test_ratio_ci_known),
		cmocka_unit_test(test_ratio_ci_missing_pairs_ignored),
		cmocka_unit_test(test_ratio_ci_deterministic_and_edges),
		cmocka_unit_test(test_ci_tight),
		cmocka_unit_test(test_noise_floor_aa),
		cmocka_unit_test(test_foreign_busy),
		cmocka_unit_test(test_order_sequential_interleaved),
		cmocka_unit_test(test_order_random),
	};

	return zc_run_tests(tests, NULL, NULL);
}
