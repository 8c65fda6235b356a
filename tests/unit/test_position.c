// SPDX-License-Identifier: GPL-2.0
/*
 * The position effect (results/position.c) on a fixed-seed synthetic run
 * set: 4 runs of different speeds over 8 balanced rounds, a drift between
 * rounds, 1% noise, and the first place of every round 5% faster. The fit
 * gives place 1 about +3.7% against the mean place (5% less its quarter
 * share of the mean) and the others about -1.2%, each within two of its
 * standard errors; an interleaved file has no place apart from its run.
 */
#include "zc_test.h"

#include "results/results.h"
#include "stats/order.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

static json_t *run_set(const char *order, double first_bonus)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	json_t *runs = json_array(), *root;
	size_t in[4] = { 0, 1, 2, 3 }, out[4], slot = 0;
	enum zc_order kind = (enum zc_order)zc_order_from_name(order);

	gsl_rng_set(rng, 42);
	for (int i = 0; i < 4; i++)
		json_array_append_new(runs, json_pack("{s:s,s:[]}", "name", "r", "samples"));
	for (size_t r = 0; r < 8; r++) {
		double drift = gsl_ran_gaussian(rng, 0.05);

		assert_int_equal(zc_order_round(kind, in, 4, r, NULL, out), 0);
		for (size_t p = 0; p < 4; p++) {
			double v = (10 + 5 * (double)out[p]) * exp(drift + gsl_ran_gaussian(rng, 0.01)) *
				   (p == 0 ? 1 + first_bonus : 1);

			json_array_append_new(json_object_get(json_array_get(runs, out[p]), "samples"),
					      json_pack("{s:s,s:I,s:I,s:I,s:f}", "status", "ok", "rep",
							(json_int_t)r, "round", (json_int_t)r, "slot",
							(json_int_t)slot++, "gbps_per_core", v));
		}
	}
	root = json_pack("{s:{s:s},s:o}", "schedule", "order", order, "runs", runs);
	gsl_rng_free(rng);
	return root;
}

static void first_place_faster(void **state)
{
	json_t *root = run_set("balanced", 0.05), *pe, *p;
	size_t i;

	(void)state;
	pe = zc_position_effect(root);
	assert_non_null(pe);
	assert_int_equal(zc_an_int(pe, "samples"), 32);
	assert_int_equal(json_array_size(json_object_get(pe, "places")), 4);
	json_array_foreach(json_object_get(pe, "places"), i, p) {
		double e = json_number_value(json_object_get(p, "effect_pct"));
		double se = json_number_value(json_object_get(p, "se_pct"));
		double want = i == 0 ? 100 * (1.05 / pow(1.05, 0.25) - 1) : 100 * (1 / pow(1.05, 0.25) - 1);

		print_message("place %zu: %+.2f%% +-%.2f (want %+.2f%%)\n", i + 1, e, se, want);
		assert_true(se > 0 && se < 1);
		assert_true(fabs(e - want) < 2 * se + 0.2);
	}
	json_decref(pe);
	json_decref(root);
	/* No effect: every place within its error of 0. */
	root = run_set("balanced", 0);
	pe = zc_position_effect(root);
	json_array_foreach(json_object_get(pe, "places"), i, p)
		assert_true(fabs(json_number_value(json_object_get(p, "effect_pct"))) <
			    3 * json_number_value(json_object_get(p, "se_pct")));
	json_decref(pe);
	json_decref(root);
	/* Interleaved: the place is the run. */
	root = run_set("interleaved", 0.05);
	assert_null(zc_position_effect(root));
	json_decref(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_place_faster),
	};

	return zc_run_tests(tests, NULL, NULL);
}
