// SPDX-License-Identifier: GPL-2.0
/*
 * The one list of metrics: its rows are well-formed, a sample is derived
 * from role reports by it, the run summary and the run table follow it, and
 * results/README.md's metrics section is the one it writes.
 *
 * build/tests/test_metrics --markdown prints that section;
 * build/tests/test_metrics --update-readme rewrites it in results/README.md
 * (run from the repository root, as tests/run.sh does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"
#include "compare/compare.h"
#include "export/export.h"
#include "report/table.h"

#define README "results/README.md"

static char *markdown(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	zc_metrics_markdown(f);
	fclose(f);
	return buf;
}

/* The README's section from the begin marker to the end marker's line end;
 * *start and *end bound it in text. NULL when a marker is missing. */
static const char *section(const char *text, size_t *start, size_t *end)
{
	const char *a = strstr(text, ZC_METRICS_MD_BEGIN), *b;

	if (!a || !(b = strstr(a, ZC_METRICS_MD_END)))
		return NULL;
	b += strlen(ZC_METRICS_MD_END) + 1;	/* and its newline */
	*start = a - text;
	*end = b - text;
	return a;
}

static char *read_readme(size_t *len)
{
	return zc_read_file(README, 1 << 20, len);
}

static void test_readme_section(void **st)
{
	size_t len, a = 0, b = 0;
	char *text = read_readme(&len), *want = markdown();

	(void)st;
	if (!text)
		fail_msg("cannot read %s (run from the repository root)", README);
	assert_non_null(want);
	if (!section(text, &a, &b))
		fail_msg("%s: no metrics section (markers %s ... %s)", README, ZC_METRICS_MD_BEGIN,
			 ZC_METRICS_MD_END);
	if (b - a != strlen(want) || memcmp(text + a, want, b - a))
		fail_msg("%s: the metrics section differs from bench/metrics/metrics.c's list; "
			 "run: make build/tests/test_metrics && build/tests/test_metrics --update-readme",
			 README);
	free(text);
	free(want);
}

/* Every row says what the list promises: a unique key, unit, direction,
 * help, exactly one way to derive it, and a column that fits its title. */
static void test_rows(void **st)
{
	(void)st;
	assert_true(zc_nmetrics > 0);
	zc_for_each_metric(m) {
		assert_non_null(m->key);
		assert_non_null(m->unit);
		assert_non_null(m->help);
		assert_true(m->better <= ZC_BETTER_LOWER);
		if (!!m->derive == !!m->source)
			fail_msg("%s: needs exactly one of .derive and .source", m->key);
		if (m->derive && !m->how)
			fail_msg("%s: a derived metric says .how (the README shows it)", m->key);
		assert_ptr_equal(zc_metric_find(m->key), m);
		if (m->col.show != ZC_COL_NONE) {
			assert_non_null(m->col.head);
			assert_non_null(m->col.fmt);
			assert_true(m->sample_only == false);
		}
	}
	assert_null(zc_metric_find("no_such_metric"));
}

static json_t *window(double window_s, double bytes, double busy_s, double calls)
{
	return json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "window_s", window_s, "bytes", bytes,
			 "busy_s", busy_s, "calls", calls, "rusage_user_s", 0.25,
			 "rusage_sys_s", 0.25);
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void test_derive(void **st)
{
	/* 1e9 bytes in 2 s at the sink, 1.1e9 at the DUT with 0.5 s busy. */
	json_t *roles = json_pack("{s:{s:o},s:{s:o,s:{s:{s:f},s:{s:f,s:{s:f}}}}}",
				  "sink", "window", window(2, 1e9, 2, 100),
				  "proxy", "window", window(2, 1.1e9, 0.5, 2200),
				  "counters", "perf", "cycles_per_byte", 1.5,
				  "bpf", "syscalls_per_mb", 4.0, "softirq", "share_of_core", 0.25);
	json_t *s = json_pack("{s:s,s:o}", "status", "ok", "roles", roles), *foreign;
	size_t n = 0;

	(void)st;
	zc_sample_derive(s, ZC_ROLE_PROXY, 2);
	assert_float_equal(num(s, "gbps"), 4, 1e-12);
	assert_float_equal(num(s, "dut_gbps"), 4.4, 1e-12);
	assert_float_equal(num(s, "dut_busy_cores"), 0.25, 1e-12);
	assert_float_equal(num(s, "gbps_per_core"), 17.6, 1e-9);
	assert_float_equal(num(s, "window_agreement"), 1.1, 1e-12);
	assert_float_equal(num(s, "dut_proc_cores"), 0.25, 1e-12);
	assert_float_equal(num(s, "dut_calls_per_mb"), 2, 1e-12);
	assert_float_equal(num(s, "service_demand_us_per_kb"), 0.5e6 / (1.1e9 / 1024), 1e-12);
	/* source rows: read from the DUT's report */
	assert_float_equal(num(s, "dut_cycles_per_byte"), 1.5, 0);
	assert_float_equal(num(s, "dut_syscalls_per_mb"), 4, 0);
	assert_float_equal(num(s, "dut_softirq_share"), 0.25, 0);
	/* optional rows the DUT did not give are absent, not null */
	assert_null(json_object_get(s, "dut_ipc"));
	assert_null(json_object_get(s, "dut_bpf_cost_share"));
	/* the keys come in the list's order */
	{
		const char *k;
		json_t *v;
		const struct zc_metric *prev = NULL;

		json_object_foreach(s, k, v) {
			const struct zc_metric *m = zc_metric_find(k);

			if (!m)
				continue;
			assert_true(!prev || m > prev);
			prev = m;
			n++;
		}
	}
	assert_true(n >= 11);

	/* A foreign DUT (no window): the controller's busy time, the sink's
	 * bytes, the configured window; what it cannot know is null. */
	foreign = json_pack("{s:s,s:f,s:{s:{s:o},s:{s:s}}}", "status", "ok",
			    "controller_dut_busy_s", 1.0, "roles", "sink", "window",
			    window(2, 1e9, 2, 100), "proxy", "status", "ok");
	zc_sample_derive(foreign, ZC_ROLE_PROXY, 4);
	assert_float_equal(num(foreign, "dut_busy_cores"), 0.25, 1e-12);
	assert_float_equal(num(foreign, "dut_gbps"), 2, 1e-12);
	assert_true(json_is_null(json_object_get(foreign, "dut_proc_cores")));
	assert_true(json_is_null(json_object_get(foreign, "dut_calls_per_mb")));
	assert_null(json_object_get(foreign, "dut_cycles_per_byte"));
	json_decref(foreign);
	json_decref(s);
}

/* The DUT's programs' run time summed, kprobes without a per-event count
 * included; another role's set is not the DUT's. */
static void test_bpf_cost_share(void **st)
{
	json_t *roles = json_pack(
		"{s:{s:{s:f},s:{s:{s:{s:{s:{s:I,s:I,s:f},s:{s:I,s:I,s:f}}},s:I}}},"
		"s:{s:{s:{s:{s:{s:{s:I,s:I,s:f}}}}}}}",
		"proxy", "window", "busy_s", 0.5, "counters", "bpf", "self_cost", "programs",
		"sys_exit", "runs", (json_int_t)1000, "time_ns", (json_int_t)2000000, "mean_ns", 2000.0,
		"copy_to_iter", "runs", (json_int_t)10, "time_ns", (json_int_t)1000000, "mean_ns", 1e5,
		"syscalls_total", (json_int_t)10,
		"sink", "counters", "bpf", "self_cost", "programs",
		"sys_exit", "runs", (json_int_t)1000, "time_ns", (json_int_t)9000000, "mean_ns", 9000.0);

	(void)st;
	assert_non_null(roles);
	assert_float_equal(zc_counters_bpf_cost_share(roles, "proxy"), 3e6 / 1e9 / 0.5, 1e-15);
	/* No stats, or no busy time: no figure. */
	assert_true(isnan(zc_counters_bpf_cost_share(roles, "source")));
	json_object_set_new(json_object_get(json_object_get(roles, "proxy"), "window"), "busy_s",
			    json_real(0));
	assert_true(isnan(zc_counters_bpf_cost_share(roles, "proxy")));
	json_decref(roles);
}

static void test_summary(void **st)
{
	json_t *samples = json_pack("[{s:s,s:f,s:f,s:f},{s:s,s:f,s:f,s:f},{s:s,s:f}]",
				    "status", "ok", "gbps", 1.0, "dut_gbps", 1.0, "dut_ipc", 2.0,
				    "status", "ok", "gbps", 3.0, "dut_gbps", 3.0, "dut_ipc", 4.0,
				    "status", "failed", "gbps", 100.0);
	json_t *sum;

	(void)st;
	sum = zc_run_summary(samples);
	assert_float_equal(num(json_object_get(sum, "gbps"), "median"), 2, 1e-12);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "gbps"), "n")), 2);
	assert_float_equal(num(json_object_get(sum, "dut_ipc"), "max"), 4, 0);
	/* sample_only metrics stay out of the summary; absent ones too */
	assert_null(json_object_get(sum, "dut_gbps"));
	assert_null(json_object_get(sum, "gbps_per_core"));
	json_decref(sum);
	json_decref(samples);
}

static char *table(json_t *runs)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	zc_print_table(f, runs, 0);
	fclose(f);
	return buf;
}

static json_t *run_with(const char *name, json_t *summary)
{
	return json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i},s:o}", "name", name, "status", "ok",
			 "key", "topology", "proxy", "source", "send", "proxy", "splice", "sink",
			 "recv", "chunk", 65536, "pipe_size", 262144, "summary", summary);
}

static json_t *summ(double median, double min, double max, double sd)
{
	return json_pack("{s:i,s:f,s:f,s:f,s:f,s:f}", "n", 3, "median", median, "min", min,
			 "max", max, "mean", median, "stddev", sd);
}

static void test_table(void **st)
{
	json_t *runs = json_pack("[o]", run_with("a", json_pack("{s:o,s:o}", "gbps", summ(1, 1, 1, 0),
								 "gbps_per_core",
								 summ(2, 1.5, 2.5, 0.2))));
	char *t;

	(void)st;
	t = table(runs);
	/* every ZC_COL_ALWAYS title, no ZC_COL_PRESENT one without a run having it */
	zc_for_each_metric(m) {
		if (m->col.show == ZC_COL_ALWAYS)
			assert_non_null(strstr(t, m->col.head));
		if (m->col.show == ZC_COL_PRESENT)
			assert_null(strstr(t, m->col.head));
	}
	assert_non_null(strstr(t, "2.00 [1.50-2.50]    10.0"));
	free(t);
	/* one run with one counter metric: all the counter columns, "-" elsewhere */
	json_array_append_new(runs, run_with("b", json_pack("{s:o}", "dut_softirq_share",
							    summ(0.5, 0.5, 0.5, 0))));
	t = table(runs);
	zc_for_each_metric(m)
		if (m->col.show == ZC_COL_PRESENT)
			assert_non_null(strstr(t, m->col.head));
	assert_non_null(strstr(t, "  50.0")); /* sirq%: the share scaled to percent */
	free(t);
	json_decref(runs);
}

/* Formats and layouts are found by name, and listed from their tables. */
static void test_registries(void **st)
{
	char names[256];

	(void)st;
	for (size_t i = 0; i < zc_nexport_formats; i++) {
		assert_ptr_equal(zc_export_format_find(zc_export_formats[i]->name),
				 zc_export_formats[i]);
		assert_non_null(zc_export_formats[i]->write);
	}
	for (size_t i = 0; i < zc_ncompare_layouts; i++)
		assert_ptr_equal(zc_compare_layout_find(zc_compare_layouts[i]->name),
				 zc_compare_layouts[i]);
	assert_null(zc_export_format_find("yaml"));
	assert_null(zc_compare_layout_find("xml"));
	zc_export_format_names(names, sizeof(names), "|");
	assert_non_null(strstr(names, "csv|bmf|prometheus|gab"));
	zc_compare_layout_names(names, sizeof(names), ", ");
	assert_non_null(strstr(names, "lkp, mmtests"));
}

static int update_readme(void)
{
	size_t len, a = 0, b = 0;
	char *text = read_readme(&len), *want = markdown(), *out;
	int ret;

	if (!text || !want || !section(text, &a, &b)) {
		fprintf(stderr, "%s: unreadable or without the markers %s ... %s\n", README,
			ZC_METRICS_MD_BEGIN, ZC_METRICS_MD_END);
		return 1;
	}
	if (asprintf(&out, "%.*s%s%s", (int)a, text, want, text + b) < 0)
		return 1;
	ret = zc_write_atomic(README, out, strlen(out));
	if (ret)
		fprintf(stderr, "%s: %s\n", README, strerror(-ret));
	free(out);
	free(text);
	free(want);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_readme_section),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_bpf_cost_share),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_registries),
	};

	if (argc > 1 && !strcmp(argv[1], "--markdown")) {
		zc_metrics_markdown(stdout);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--update-readme"))
		return update_readme();
	return zc_run_tests(tests, NULL, NULL);
}
