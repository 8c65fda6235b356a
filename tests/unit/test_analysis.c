// SPDX-License-Identifier: GPL-2.0
/* Reading results back: run keys, peers, fingerprints. */
#include "zc_test.h"
#include <math.h>
#include <string.h>

#include "results/results.h"
#include "metrics/metrics.h"

static json_t *mkrun(const char *topo, const char *src, const char *proxy, long chunk,
		     const double *gpc, size_t n)
{
	json_t *samples = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(samples, json_pack("{s:s,s:f}", "status", "ok",
							 "gbps_per_core", gpc[i]));
	/* A failed repetition never counts. */
	json_array_append_new(samples, json_pack("{s:s,s:f}", "status", "failed",
						 "gbps_per_core", 1000.0));
	return json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i},s:o}", "name", "r", "dut",
			 strcmp(topo, "proxy") ? "source" : "proxy", "key", "topology", topo,
			 "source", src, "proxy", proxy, "sink", "recv", "chunk", chunk,
			 "pipe_size", 262144, "connections", 1, "samples", samples);
}

static void test_key_and_values(void **state)
{
	const double v[] = { 3, 1, 2 };
	json_t *r = mkrun("proxy", "send", "splice", 65536, v, 3);
	double out[8];
	char key[256];

	(void)state;
	zc_an_key(r, key, sizeof(key));
	assert_string_equal(key, "proxy send>splice>recv chunk=65536 pipe=262144 conn=1");
	assert_int_equal(zc_an_values(r, "gbps_per_core", out, 8), 3);
	assert_float_equal(out[0], 3, 0);
	assert_string_equal(zc_an_dut_mode(r), "splice");
	json_decref(r);
}

static void test_peer_and_ratio(void **state)
{
	const double num[] = { 20, 22, 21 }, den[] = { 10, 10, 10 }, emu[] = { 11, 11, 11 };
	json_t *runs = json_array();
	json_t *splice = mkrun("proxy", "send", "splice", 65536, num, 3);
	json_t *copy = mkrun("proxy", "send", "copy", 65536, den, 3);
	json_t *after = mkrun("proxy", "send", "splice-as-copy", 65536, emu, 3);
	json_t *other = mkrun("proxy", "send", "copy", 4096, den, 3);
	struct zc_ratio r;

	(void)state;
	json_array_append(runs, other);
	json_array_append(runs, splice);
	json_array_append(runs, copy);
	json_array_append(runs, after);
	/* Same key but the mode: the 4k copy run is not a peer of a 64k run. */
	assert_ptr_equal(zc_an_peer(runs, splice, "proxy", "copy"), copy);
	assert_ptr_equal(zc_an_peer(runs, splice, "proxy", "splice-as-copy"), after);
	assert_null(zc_an_peer(runs, splice, "proxy", "tee-as-writev"));
	/* Exact names: "splice" is not a prefix match of "splice-as-copy". */
	assert_ptr_equal(zc_an_peer(runs, after, "proxy", "splice"), splice);
	zc_an_ratio(splice, copy, &r);
	/* Not taken in rounds: the ratio of geometric means, Welch's interval
	 * on the logs (scipy 1.10.1: t(0.975, 2) on {20,21,22}'s logs). */
	assert_float_equal(r.value, 2.0984115, 1e-6);
	assert_int_equal(r.nn, 3);
	assert_float_equal(r.lo, 1.8641173, 1e-6);
	assert_float_equal(r.hi, 2.3621533, 1e-6);
	json_decref(splice);
	json_decref(copy);
	json_decref(after);
	json_decref(other);
	json_decref(runs);
}

static void test_fingerprint(void **state)
{
	json_t *root = json_pack("{s:n}", "fingerprint");
	char line[512], id[128], id2[128];

	(void)state;
	zc_an_fingerprint(root, line, sizeof(line), id, sizeof(id));
	assert_string_equal(id, "none");
	assert_null(zc_an_kernel_side(root));
	json_object_set_new(root, "fingerprint", json_pack("{s:b}", "vmsplice_zero_copy", 1));
	zc_an_fingerprint(root, line, sizeof(line), id, sizeof(id));
	assert_int_equal(strncmp(id, "fp-", 3), 0);
	json_object_set_new(root, "fingerprint", json_pack("{s:b}", "vmsplice_zero_copy", 0));
	zc_an_fingerprint(root, line, sizeof(line), id2, sizeof(id2));
	assert_string_not_equal(id, id2); /* different behaviour, different id */
	json_object_set_new(root, "fingerprint",
			    json_pack("{s:s,s:s}", "label", "vmsplice=copy", "vmsplice_state", "after"));
	zc_an_fingerprint(root, line, sizeof(line), id, sizeof(id));
	assert_string_equal(id, "vmsplice=copy");
	assert_string_equal(zc_an_kernel_side(root), "after");
	json_decref(root);
}

static void test_misc(void **state)
{
	const struct zc_metric pct = { .key = "softirq_pct", .unit = "%" },
			       gbps = { .key = "gbps", .unit = "Gbit/s", .better = ZC_BETTER_HIGHER };
	json_t *root = json_pack("{s:{s:s}}", "meta", "date", "2026-12-02T21:46:38Z");
	char sz[16];

	(void)state;
	assert_true(zc_metric_is_pct(&pct));
	assert_false(zc_metric_is_pct(&gbps));
	assert_int_equal(zc_an_epoch(root), 1796247998LL);
	zc_fmt_size(65536, sz, sizeof(sz));
	assert_string_equal(sz, "64k");
	zc_fmt_size(1 << 20, sz, sizeof(sz));
	assert_string_equal(sz, "1M");
	zc_fmt_size(1000, sz, sizeof(sz));
	assert_string_equal(sz, "1000");
	json_decref(root);
}


/* headline_best: each side's best size over every size it ran at; a kind
 * whose sides ran at one size each has no row. */
static void test_best_sizes(void **state)
{
	const double c64[] = { 10, 11, 12 }, c1m[] = { 30, 31, 32 };
	const double s64[] = { 20, 21, 22 }, s1m[] = { 18, 19, 20 };
	const double t[] = { 5, 5, 5 }, u[] = { 4, 4, 4 };
	json_t *runs = json_array(), *best, *row;

	(void)state;
	json_array_append_new(runs, mkrun("proxy", "send", "copy", 65536, c64, 3));
	json_array_append_new(runs, mkrun("proxy", "send", "copy", 1 << 20, c1m, 3));
	json_array_append_new(runs, mkrun("proxy", "send", "splice", 65536, s64, 3));
	json_array_append_new(runs, mkrun("proxy", "send", "splice", 1 << 20, s1m, 3));
	json_array_append_new(runs, mkrun("direct", "tee", "", 65536, t, 3));
	json_array_append_new(runs, mkrun("direct", "send", "", 65536, u, 3));
	best = zc_headline_best(runs);
	assert_int_equal(json_array_size(best), 1);	/* tee/send: one size each */
	row = json_array_get(best, 0);
	assert_string_equal(json_string_value(json_object_get(row, "ratio")), "splice/copy proxy");
	/* splice does not pass the chunk on (modes/mode.h, uses): none shown;
	 * its best run is the 64k one (the value below). */
	assert_true(json_is_null(json_object_get(json_object_get(row, "numerator"), "chunk")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(row, "denominator"),
							    "chunk")), 1 << 20);
	assert_int_equal(json_integer_value(json_object_get(row, "numerator_sizes")), 2);
	/* The ratio of the two runs' geometric means (zc_an_ratio). */
	assert_float_equal(json_number_value(json_object_get(row, "value")), 0.6771419, 1e-6);
	json_decref(best);
	json_decref(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_and_values),
		cmocka_unit_test(test_peer_and_ratio),
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_best_sizes),
	};

	return zc_run_tests(tests, NULL, NULL);
}
