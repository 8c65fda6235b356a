// SPDX-License-Identifier: GPL-2.0
/*
 * A DUT below 90% busy (issue 22, item 3): the median dut_busy_frac of a
 * run's samples; the message with the way to load it (more workers of the
 * role that feeds the DUT where CPUs are free, else more connections); the
 * table's note under the run and the headline's mark under a ratio whose
 * side was not saturated; a saturated run says nothing.
 */
#include "zc_test.h"

#include "report/saturation.h"
#include "report/table.h"
#include "results/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *mkrun(const char *name, const char *proxy, double b0, double b1, double b2,
		     int usable)
{
	json_t *ss = json_array();
	double b[] = { b0, b1, b2 };

	for (int i = 0; i < 3; i++)
		json_array_append_new(ss, json_pack("{s:s,s:b,s:f,s:f}", "status", "ok", "disturbed",
						    false, "dut_busy_frac", b[i], "gbps_per_core", 5.0));
	return json_pack("{s:s,s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i},s:{s:i,s:{s:i,s:[i]},"
			 "s:{s:i,s:[i]},s:{s:i,s:[i]}},s:o}", "name", name, "status", "ok", "dut", "proxy",
			 "key", "topology", "proxy", "source", "send", "proxy", proxy, "sink", "recv",
			 "chunk", 65536, "pipe_size", 262144, "connections", 2, "workers", 1,
			 "placement", "usable_cpus", usable, "source", "workers", 1, "cpus", 0,
			 "proxy", "workers", 1, "cpus", 1, "sink", "workers", 1, "cpus", 2,
			 "samples", ss);
}

static void message(void **state)
{
	char buf[320];
	json_t *run = mkrun("copy", "copy", 0.6, 0.7, 0.65, 4);

	(void)state;
	assert_true(fabs(zc_an_busy_frac(run) - 0.65) < 1e-9);
	assert_true(zc_run_unsaturated(run, false, buf, sizeof(buf)));
	assert_string_equal(buf, "DUT not saturated: 0.65");
	/* One CPU of 4 free: one more source worker; or twice the connections. */
	assert_true(zc_run_unsaturated(run, true, buf, sizeof(buf)));
	assert_non_null(strstr(buf, "source_workers = 2"));
	assert_non_null(strstr(buf, "connections = 4"));
	json_decref(run);
	/* No CPU free: no more workers offered. */
	run = mkrun("copy", "copy", 0.6, 0.7, 0.65, 3);
	assert_true(zc_run_unsaturated(run, true, buf, sizeof(buf)));
	assert_null(strstr(buf, "source_workers ="));
	assert_non_null(strstr(buf, "no free CPU"));
	json_decref(run);
	/* Saturated, or not known: nothing said. */
	run = mkrun("copy", "copy", 0.95, 0.5, 0.99, 4);
	assert_false(zc_run_unsaturated(run, true, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	assert_false(zc_run_unsaturated(NULL, true, buf, sizeof(buf)));
	json_decref(run);
}

static void table_and_headline(void **state)
{
	json_t *runs = json_pack("[o,o]", mkrun("px-copy", "copy", 0.6, 0.7, 0.65, 4),
				 mkrun("px-splice", "splice", 0.97, 0.98, 0.99, 4));
	json_t *hl = json_pack("[{s:s,s:s,s:s,s:i,s:i,s:f,s:f,s:f}]", "ratio", "splice/copy proxy",
			       "numerator", "px-splice", "denominator", "px-copy", "chunk", 65536,
			       "pipe_size", 262144, "value", 1.5, "numerator_busy_frac",
			       zc_an_busy_frac(json_array_get(runs, 1)), "denominator_busy_frac",
			       zc_an_busy_frac(json_array_get(runs, 0)));
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	zc_print_table(f, runs, 0);
	zc_print_headline(f, hl, runs, 0);
	fclose(f);
	assert_non_null(strstr(text, "note: DUT not saturated: 0.65 (load it: source_workers = 2"));
	/* Under the ratio, both DUTs' busy (the medians of their samples), the
	 * mark on the side under 0.9 only. */
	assert_non_null(strstr(text, "DUT busy 0.98 / 0.65 of a core: NOT SATURATED (denominator)"));
	assert_null(strstr(text, "(numerator)"));
	assert_null(strstr(text, "(both sides)"));
	free(text);
	json_decref(hl);
	json_decref(runs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(message),
		cmocka_unit_test(table_and_headline),
	};

	return zc_run_tests(tests, NULL, NULL);
}
