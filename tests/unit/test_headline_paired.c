// SPDX-License-Identifier: GPL-2.0
/*
 * Headline ratios of runs taken in rounds (results/headline.c, change.c): the
 * geometric mean of the per-repetition ratios with Student's t interval of
 * their logs, on seven pairs whose figures scipy 1.10.1 gave once
 * (scipy.stats.t.ppf(0.975, 6) on numpy's mean and std(ddof=1) of the logs:
 * 1.0020312, [0.9590831, 1.0469026]); disturbed samples left out and
 * counted; runs taken in sequence: Welch's interval on the two runs' logs
 * (the ratio of geometric means, 1.0020312 again); pairing across files only
 * within one invocation; the tightness test of repetitions = auto.
 */
#include "zc_test.h"

#include "metrics/metrics.h"
#include "results/results.h"

#include <math.h>
#include <string.h>


static const double r7_num[] = { 10.2, 9.7, 10.9, 9.4, 10.0, 10.6, 9.9 };
static const double r7_den[] = { 10.0, 10.1, 10.3, 9.9, 9.6, 10.2, 10.4 };

static json_t *mkrun(const char *name, const char *proxy, const char *order, const double *v,
		     size_t n)
{
	json_t *run = json_pack("{s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i},s:s,s:{s:s},s:[]}",
				"name", name, "key", "topology", "proxy", "source", "send",
				"proxy", proxy, "sink", "recv", "chunk", 65536, "pipe_size", 1048576,
				"connections", 1, "dut", "proxy", "options", "order", order,
				"samples");

	for (size_t i = 0; i < n; i++)
		json_array_append_new(json_object_get(run, "samples"),
				      json_pack("{s:i,s:s,s:f}", "rep", (int)i, "status", "ok",
						"gbps_per_core", v[i]));
	json_object_set_new(run, "summary", zc_run_summary(json_object_get(run, "samples")));
	return run;
}

/* The engine's rows of runs alone (no fingerprint: "this kernel"). */
static json_t *headline(json_t *runs)
{
	json_t *root = json_pack("{s:O}", "runs", runs), *hl = zc_headline_rows(root, 0, NULL);

	json_decref(root);
	return hl;
}

static json_t *pair_of_runs(const char *order)
{
	return json_pack("[o,o]", mkrun("proxy-copy", "copy", order, r7_den, 7),
			 mkrun("proxy-splice", "splice", order, r7_num, 7));
}

static void paired_known_bounds(void **state)
{
	json_t *runs = pair_of_runs("interleaved"), *hl = headline(runs), *h;

	(void)state;
	h = json_array_get(hl, 0);
	assert_non_null(h);
	assert_string_equal(json_string_value(json_object_get(h, "ratio")), "splice/copy proxy");
	assert_string_equal(json_string_value(json_object_get(h, "method")), "paired");
	assert_int_equal(json_integer_value(json_object_get(h, "n")), 7);
	assert_close(json_number_value(json_object_get(h, "value")), 1.0020312232, 1e-9);
	assert_close(json_number_value(json_object_get(h, "lo")), 0.9590831062, 1e-9);
	assert_close(json_number_value(json_object_get(h, "hi")), 1.0469025738, 1e-9);
	assert_close(json_number_value(json_object_get(h, "level")), 0.95, 0);
	/* 0.959..1.047 lies within 0.95..1.05: about 1 ("unchanged") at 5%. */
	assert_string_equal(json_string_value(json_object_get(h, "answer")), "unchanged");
	assert_int_equal(json_integer_value(json_object_get(h, "disturbed_left_out")), 0);
	/* The medians of each run stay as they were. */
	assert_close(json_number_value(json_object_get(h, "numerator_gbps_per_core")), 10.0, 1e-9);
	assert_close(json_number_value(json_object_get(h, "denominator_gbps_per_core")), 10.1, 1e-9);
	json_decref(hl);
	json_decref(runs);
}

/* An eighth round whose splice sample was disturbed: left out, counted,
 * and the interval is the seven clean pairs' again. */
static void disturbed_left_out(void **state)
{
	json_t *runs = pair_of_runs("interleaved"), *splice = json_array_get(runs, 1), *copy, *hl, *h;
	json_t *summary;

	(void)state;
	copy = json_array_get(runs, 0);
	json_array_append_new(json_object_get(copy, "samples"),
			      json_pack("{s:i,s:s,s:f}", "rep", 7, "status", "ok", "gbps_per_core", 10.0));
	json_array_append_new(json_object_get(splice, "samples"),
			      json_pack("{s:i,s:s,s:f,s:b}", "rep", 7, "status", "ok",
					"gbps_per_core", 50.0, "disturbed", 1));
	/* A failed sample that was disturbed too is out for failing: not counted. */
	json_array_append_new(json_object_get(splice, "samples"),
			      json_pack("{s:i,s:s,s:b}", "rep", 8, "status", "failed", "disturbed", 1));
	hl = headline(runs);
	h = json_array_get(hl, 0);
	assert_int_equal(json_integer_value(json_object_get(h, "n")), 7);
	assert_int_equal(json_integer_value(json_object_get(h, "disturbed_left_out")), 1);
	assert_close(json_number_value(json_object_get(h, "lo")), 0.9590831062, 1e-9);
	assert_close(json_number_value(json_object_get(h, "hi")), 1.0469025738, 1e-9);
	/* The summary leaves it out too. */
	summary = zc_run_summary(json_object_get(splice, "samples"));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(summary, "gbps_per_core"),
							    "n")), 7);
	assert_close(json_number_value(json_object_get(json_object_get(summary, "gbps_per_core"),
						       "max")), 10.9, 1e-9);
	json_decref(summary);
	json_decref(hl);
	json_decref(runs);
}

/* Runs taken one after the other: repetition i of both is not a pair. */
static void sequential_unpaired(void **state)
{
	json_t *runs = pair_of_runs("sequential"), *hl = headline(runs), *h = json_array_get(hl, 0);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(h, "method")), "unpaired");
	/* Welch on the logs: df 9.115, [0.9540105, 1.0524692] (scipy). */
	assert_close(json_number_value(json_object_get(h, "value")), 1.0020312232, 1e-9);
	assert_close(json_number_value(json_object_get(h, "lo")), 0.9540104530, 1e-9);
	assert_close(json_number_value(json_object_get(h, "hi")), 1.0524691518, 1e-9);
	json_decref(hl);
	json_decref(runs);
}

static void paired_across_files(void **state)
{
	json_t *runs = pair_of_runs("interleaved"), *seq = pair_of_runs("sequential");
	json_t *ra = json_pack("{s:s}", "invocation", "abc"), *rb = json_pack("{s:s}", "invocation", "abc");
	json_t *rc = json_pack("{s:s}", "invocation", "def"), *old = json_object();
	json_t *a = json_array_get(runs, 0), *b = json_array_get(runs, 1);

	(void)state;
	assert_true(zc_an_paired(NULL, a, NULL, b));	/* one file */
	assert_true(zc_an_paired(ra, a, rb, b));	/* one invocation, two files */
	assert_false(zc_an_paired(ra, a, rc, b));	/* two invocations */
	assert_false(zc_an_paired(old, a, json_object_get(rb, "x"), b));
	assert_false(zc_an_paired(NULL, json_array_get(seq, 0), NULL, json_array_get(seq, 1)));
	json_decref(ra);
	json_decref(rb);
	json_decref(rc);
	json_decref(old);
	json_decref(seq);
	json_decref(runs);
}

/* repetitions = auto's questions: with one size a side, every headline
 * ratio; a ratio whose runs were both in questions is read at the level
 * they stopped at (wider), else at 95%. */
static void questions(void **state)
{
	json_t *runs = pair_of_runs("interleaved");
	struct zc_question q[4];
	struct zc_ratio r95, r99;

	(void)state;
	assert_int_equal(zc_headline_questions(runs, false, q, 4), 1);
	assert_string_equal(q[0].name, "splice/copy proxy");
	assert_ptr_equal(q[0].den, json_array_get(runs, 0));
	assert_true(isnan(zc_an_run_level(q[0].num, q[0].den)));
	zc_an_ratio(q[0].num, q[0].den, &r95);
	json_object_set_new(q[0].num, "level", json_real(0.995));
	assert_true(isnan(zc_an_run_level(q[0].num, q[0].den)));
	json_object_set_new(q[0].den, "level", json_real(0.99));
	assert_true(zc_an_run_level(q[0].num, q[0].den) == 0.995);
	zc_an_ratio(q[0].num, q[0].den, &r99);
	assert_true(r99.ch.level == 0.995 && r99.lo < r95.lo && r99.hi > r95.hi);
	assert_true(r99.value == r95.value);
	json_decref(runs);
}

/* An A/A file (zcbench noise): every run twice, sides a and b; each side's
 * ratio over its own side's denominator, never the other side's. */
static void aa_sides_apart(void **state)
{
	static const double b_den[] = { 20.0, 20.2, 20.6, 19.8, 19.2, 20.4, 20.8 };
	const char *names[] = { "proxy-copy:a", "proxy-splice:a", "proxy-copy:b", "proxy-splice:b" };
	json_t *runs = json_pack("[o,o,o,o]", mkrun(names[0], "copy", "interleaved", r7_den, 7),
				 mkrun(names[1], "splice", "interleaved", r7_num, 7),
				 mkrun(names[2], "copy", "interleaved", b_den, 7),
				 mkrun(names[3], "splice", "interleaved", r7_num, 7));
	json_t *hl, *h;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++)
		json_object_set_new(json_array_get(runs, i), "aa_side", json_string(i < 2 ? "a" : "b"));
	hl = headline(runs);
	assert_int_equal(json_array_size(hl), 2);
	json_array_foreach(hl, i, h) {
		bool b = !strcmp(json_string_value(json_object_get(h, "aa_side")), "b");

		assert_string_equal(json_string_value(json_object_get(h, "denominator")),
				    names[b ? 2 : 0]);
		/* b's denominators are a's doubled: half the ratio. */
		assert_close(json_number_value(json_object_get(h, "value")),
			     (b ? 0.5 : 1) * 1.0020312232066575, 1e-9);
	}
	json_decref(hl);
	json_decref(runs);
}

/* A workers sweep: copy and splice at workers 1 and 2 (16 connections).
 * Each ratio pairs the same workers (the merge's peer index once paired
 * splice at 2 workers with copy at 1), and the row says which. */
static void pairs_by_workers(void **state)
{
	static const double copy1[] = { 4, 4, 4 }, copy2[] = { 2, 2, 2 };
	static const double splice1[] = { 6, 6, 6 }, splice2[] = { 5, 5, 5 };
	struct { const char *name, *proxy; const double *v; int workers; } runs_of[] = {
		{ "proxy-copy", "copy", copy1, 1 }, { "proxy-copy", "copy", copy2, 2 },
		{ "proxy-splice", "splice", splice1, 1 }, { "proxy-splice", "splice", splice2, 2 },
	};
	json_t *runs = json_array(), *hl, *h;
	size_t i, seen = 0;

	(void)state;
	for (i = 0; i < ZC_ARRAY_SIZE(runs_of); i++) {
		json_t *run = mkrun(runs_of[i].name, runs_of[i].proxy, "interleaved", runs_of[i].v, 3);
		json_t *k = json_object_get(run, "key");

		json_object_set_new(k, "connections", json_integer(16));
		json_object_set_new(k, "workers", json_integer(runs_of[i].workers));
		json_array_append_new(runs, run);
	}
	hl = headline(runs);
	json_array_foreach(hl, i, h) {
		json_int_t w = json_integer_value(json_object_get(h, "workers"));

		assert_int_equal(json_integer_value(json_object_get(h, "connections")), 16);
		assert_close(json_number_value(json_object_get(h, "value")), w == 1 ? 1.5 : 2.5, 1e-9);
		seen |= 1u << w;
	}
	assert_int_equal(json_array_size(hl), 2);
	assert_int_equal(seen, (1u << 1) | (1u << 2));
	json_decref(hl);
	json_decref(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(paired_known_bounds),
		cmocka_unit_test(disturbed_left_out),
		cmocka_unit_test(sequential_unpaired),
		cmocka_unit_test(paired_across_files),
		cmocka_unit_test(questions),
		cmocka_unit_test(aa_sides_apart),
		cmocka_unit_test(pairs_by_workers),
	};

	return zc_run_tests(tests, NULL, NULL);
}
