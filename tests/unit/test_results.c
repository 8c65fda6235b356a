// SPDX-License-Identifier: GPL-2.0
/* Results readers' checks, the indexed peer finder, and the role-report parser. */
#include "zc_test.h"

#include "results/results.h"
#include "run/report_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* zc_results_check on text: 0, or -EINVAL with err. */
static int check_text(const char *text, char *err, size_t len)
{
	json_error_t je;
	json_t *root = json_loads(text, 0, &je);
	const char *schema = NULL;
	int ret;

	if (!root)
		fail_msg("test JSON: %s", je.text);
	ret = zc_results_check(root, "f.json", &schema, err, len);
	json_decref(root);
	return ret;
}

#define HEAD "{\"schema\":\"zcbench-results\",\"schema_version\":"

static void test_check(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ HEAD "\"1abc\",\"runs\":[]}", "f.json: schema_version: '1abc' is not MAJOR.MINOR" },
		{ HEAD "\"1\",\"runs\":[]}", "'1' is not MAJOR.MINOR" },
		{ HEAD "\"1.\",\"runs\":[]}", "'1.' is not MAJOR.MINOR" },
		{ HEAD "\" 1.2\",\"runs\":[]}", "is not MAJOR.MINOR" },
		{ HEAD "1.2,\"runs\":[]}", "schema_version: a number, expected a string" },
		{ HEAD "\"2.0\",\"runs\":[]}", "schema version 2.0, this zcbench reads 1.x" },
		{ HEAD "\"1.2\",\"runs\":5}", "f.json: runs: an integer, expected an array" },
		{ HEAD "\"1.2\"}", "f.json: runs: missing (expected an array)" },
		{ HEAD "\"1.2\",\"runs\":[1]}", "runs: element 0 is an integer, expected an object" },
		{ HEAD "\"1.2\",\"runs\":[{}]}", "runs[0].key: missing (expected an object)" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{\"chunk\":\"64k\"}}]}",
		  "runs[0].key.chunk: a string, expected an integer" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"samples\":\"x\"}]}",
		  "runs[0].samples: a string, expected an array" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"samples\":[{\"gbps\":\"9\"}]}]}",
		  "runs[0].samples[0].gbps: a string, expected a number or null" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"summary\":{\"gbps\":{\"median\":\"9\"}}}]}",
		  "runs[0].summary.gbps.median: a string, expected a number or null" },
		{ HEAD "\"1.2\",\"meta\":[],\"runs\":[]}", "meta: an array, expected an object" },
		{ "{\"schema\":\"zcbench-resultz\",\"schema_version\":\"1.1\",\"runs\":[]}",
		  "not a zcbench results file (schema 'zcbench-resultz'" },
		{ "[]", "f.json: : an array, expected a zcbench results object" },
		/* Values no figure can be: below 0, absurd, in a sample or a summary. */
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"samples\":[{\"gbps_per_core\":-8.55}]}]}",
		  "runs[0].samples[0].gbps_per_core: -8.55 is not a figure gbps_per_core can be" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"samples\":[{\"tps\":1e308}]}]}",
		  "runs[0].samples[0].tps: 1e+308 is not a figure tps can be" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"samples\":[{\"gbps\":2e6}]}]}",
		  "gbps: 2e+06 is not a figure gbps can be (Gbit/s, 0 to 1e+06)" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"summary\":{\"gbps\":{\"max\":-1}}}]}",
		  "runs[0].summary.gbps.max: -1 is not a figure gbps can be" },
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{},\"summary\":{\"gbps\":{\"n\":-3}}}]}",
		  "runs[0].summary.gbps.n: -3 samples" },
		/* A run twice: a copy, not a design (an A/A file's sides are apart,
		 * and so are two sections of one key under their own names). */
		{ HEAD "\"1.2\",\"runs\":[{\"key\":{\"chunk\":4096},\"name\":\"a\"},"
		  "{\"key\":{\"chunk\":8},\"name\":\"a\"},{\"key\":{\"chunk\":4096},\"name\":\"b\"},"
		  "{\"key\":{\"chunk\":4096},\"name\":\"a\"}]}", "runs[3]: the same run as runs[0] (a, " },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad); i++) {
		assert_int_equal(check_text(bad[i].text, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].want);
	}
	assert_int_equal(check_text(HEAD "\"1.0\",\"runs\":[]}", err, sizeof(err)), 0);
	assert_int_equal(check_text(HEAD "\"1.2\",\"runs\":[{\"key\":{\"chunk\":4096},"
				    "\"samples\":[{\"gbps\":null,\"gbps_per_core\":2.5}]}]}",
				    err, sizeof(err)), 0);
	/* The A and B runs of an A/A file share their key. */
	assert_int_equal(check_text(HEAD "\"1.2\",\"runs\":[{\"key\":{},\"aa_side\":\"a\"},"
				    "{\"key\":{},\"aa_side\":\"b\"}]}", err, sizeof(err)), 0);
}

/* Text shown from a file or an argument: controls, bidi and line separators
 * and bytes that are not UTF-8 escaped; UTF-8 text kept as it is. */
static void test_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "vm-1.example", "vm-1.example" },
		{ "h\x1b[2J\nall good\a", "h\\x1b[2J\\x0aall good\\x07" },
		{ "tab\there\r", "tab\there\\x0d" },	/* a tab only spaces */
		{ "del\x7f", "del\\x7f" },
		{ "c1 \xc2\x9b", "c1 \\u009b" },		/* U+009B CSI */
		{ "rlo \xe2\x80\xae", "rlo \\u202e" },	/* bidi override */
		{ "ls \xe2\x80\xa8", "ls \\u2028" },	/* line separator */
		{ "bad \xff\xc3", "bad \\xff\\xc3" },	/* not UTF-8, a cut sequence */
		{ "overlong \xc0\xaf", "overlong \\xc0\\xaf" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa7" },
	};
	char buf[8];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		char *e = zc_escape(cases[i].in);

		assert_non_null(e);
		if (strcmp(e, cases[i].out))
			fail_msg("case %zu: '%s', expected '%s'", i, e, cases[i].out);
		assert_int_equal(zc_needs_escape(cases[i].in), !!strcmp(cases[i].in, cases[i].out));
		free(e);
	}
	/* Cut whole: never half an escape. */
	assert_string_equal(zc_escape_buf("ab\x1b", buf, sizeof(buf)), "ab\\x1b");
	assert_string_equal(zc_escape_buf("abcd\x1b", buf, sizeof(buf)), "abcd");
}

static void test_fixtures_load(void **state)
{
	static const char *const files[] = { "results/fixtures/base.json",
					     "results/fixtures/new.json",
					     "results/fixtures/emulated.json" };
	char err[512];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(files); i++) {
		json_t *root = zc_results_load(files[i], err, sizeof(err));

		if (!root)
			fail_msg("%s", err);
		json_decref(root);
	}
	assert_null(zc_results_load("tests/fuzz/corpus/results/pipebench.json", err, sizeof(err)));
	assert_non_null(strstr(err, "a pipebench file"));
}

/* The index answers what the scan answers, for every run, role and mode. */
static void test_index_peer(void **state)
{
	char err[512];
	json_t *root = zc_results_load("results/fixtures/emulated.json", err, sizeof(err));
	json_t *runs = json_object_get(root, "runs"), *run;
	struct zc_run_index *x;
	size_t i, n = 0;

	(void)state;
	assert_non_null(root);
	x = zc_run_index_new(runs);
	assert_non_null(x);
	json_array_foreach(runs, i, run) {
		for (size_t m = 0; m < zc_nmodes; m++) {
			const char *role = zc_role_names[zc_modes[m]->role];
			json_t *a = zc_an_peer(runs, run, role, zc_modes[m]->name);

			assert_ptr_equal(zc_run_index_peer(x, run, role, zc_modes[m]->name), a);
			n += a != NULL;
		}
	}
	assert_true(n > json_array_size(runs));	/* found peers, not only NULLs */
	zc_run_index_free(x);
	json_decref(root);
}

static void test_an_int(void **state)
{
	json_t *o = json_pack("{s:f,s:f,s:I}", "huge", 1e300, "ok", 4096.0, "i", (json_int_t)7);

	(void)state;
	assert_int_equal(zc_an_int(o, "huge"), 0);	/* was undefined behaviour */
	assert_int_equal(zc_an_int(o, "ok"), 4096);
	assert_int_equal(zc_an_int(o, "i"), 7);
	json_decref(o);
}

static void test_report_parse(void **state)
{
	static const char good[] = "READY port=1\nnote: {not json\n{\"status\":\"ok\",\"role\":\"sink\"}\n";
	static const char nul[] = "{\"status\":\"ok\"}\nnoise\0noise\n{\"status\":\"error\",\"error\":\"x\"}\n";
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "no report" },
		{ "READY port=1\n", "no report" },
		{ "{\"status\":\"ok\"} trailing\n", "not valid JSON" },
		{ "{\"status\":\"ok\",\n\"more\":1}\n", "not valid JSON" },	/* one line only */
		{ "{\"status\":5}\n", "string status" },
		{ "{\"role\":\"sink\"}\n", "string status" },
		{ "{\"status\":\"ok\",\"window\":3}\n", "window an object" },
		{ "{\"status\":\"error\",\"error\":[]}\n", "error a string" },
		{ "{\"status\":\"ok\",\"status\":\"error\"}\n", "not valid JSON" },
		{ "{\"status\":\"caf\xe9\"}\n", "not valid JSON" },
	};
	char why[256];
	json_t *rj;

	(void)state;
	rj = zc_role_report_parse(good, strlen(good), why, sizeof(why));
	assert_non_null(rj);
	assert_string_equal(json_string_value(json_object_get(rj, "role")), "sink");
	json_decref(rj);
	/* A NUL does not hide the last report line. */
	rj = zc_role_report_parse(nul, sizeof(nul) - 1, why, sizeof(why));
	assert_non_null(rj);
	assert_string_equal(json_string_value(json_object_get(rj, "status")), "error");
	json_decref(rj);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad); i++) {
		assert_null(zc_role_report_parse(bad[i].text, strlen(bad[i].text), why, sizeof(why)));
		if (!strstr(why, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, why, bad[i].want);
	}
	assert_null(zc_role_report_parse("x", 1, NULL, 0));	/* why is optional */
}

/* A file at "running" as this process would write it, with its controller
 * changed by edit (NULL: as is); settled as a reader loads it. */
static json_t *running_file(void (*edit)(json_t *c))
{
	char host[256] = "";
	json_t *c = zc_controller_json();
	json_t *root = json_pack("{s:s, s:{s:s}, s:o, s:[{s:s, s:[{}, {}]}, {s:s}]}", "status",
				 "running", "meta", "hostname", host, "controller", c, "runs",
				 "status", "running", "samples", "status", "failed");

	gethostname(host, sizeof(host) - 1);
	json_object_set_new(json_object_get(root, "meta"), "hostname", json_string(host));
	if (edit)
		edit(c);
	zc_results_settle(root);
	return root;
}

static long dead_pid;
static void dead(json_t *c) { json_object_set_new(c, "pid", json_integer(dead_pid)); }
static void reused(json_t *c)
{
	json_object_set_new(c, "start_ticks", json_integer(json_integer_value(
				    json_object_get(c, "start_ticks")) + 1));
}
static void rebooted(json_t *c) { json_object_set_new(c, "boot_id", json_string("0000-other")); }
static void elsewhere(json_t *c)
{
	rebooted(c);
	json_object_set_new(c, "pid", json_integer(dead_pid));
}
static void other_ns(json_t *c)
{
	json_object_set_new(c, "pid_ns", json_string("pid:[1]"));
	json_object_set_new(c, "pid", json_integer(dead_pid));
}
static void no_record(json_t *c) { json_object_clear(c); }

/* Issue 30: a file a killed controller left at "running" reads as
 * "interrupted"; a live one as "running"; one that cannot be told (issue 41)
 * as "unknown", with who wrote it: never "running", which it may not be. */
static void test_orphaned(void **state)
{
	static const struct { void (*edit)(json_t *c); const char *status, *why; } cases[] = {
		{ NULL, "running", NULL },		/* this process: alive */
		{ dead, "interrupted", "is gone: killed before it could finish" },
		{ reused, "interrupted", "is gone" },	/* the pid, but another process */
		{ rebooted, "interrupted", "last booted" },
		/* Not ours to see: unknown, saying who wrote it and why. */
		{ other_ns, "unknown", "another pid namespace" },
		{ no_record, "unknown", "no record of its controller (schema before 1.8)" },
	};
	pid_t child = fork();

	(void)state;
	if (!child)
		_exit(0);
	assert_true(child > 0);
	assert_int_equal(waitpid(child, NULL, 0), child);
	dead_pid = child;	/* reaped: no such process (until the pid comes round again) */
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		json_t *root = running_file(cases[i].edit), *run = json_array_get(json_object_get(root, "runs"), 0);

		assert_string_equal(zc_an_str(root, "status"), cases[i].status);
		assert_string_equal(zc_an_str(run, "status"), cases[i].status);
		/* A run that ended failed stays failed. */
		assert_string_equal(zc_an_str(json_array_get(json_object_get(root, "runs"), 1), "status"),
				    "failed");
		if (cases[i].why && !strstr(zc_an_str(root, "status_reason"), cases[i].why))
			fail_msg("case %zu: status_reason '%s' lacks '%s'", i,
				 zc_an_str(root, "status_reason"), cases[i].why);
		if (cases[i].why) {
			char want[64];

			snprintf(want, sizeof(want), "%s after 2 sample(s)", cases[i].status);
			assert_non_null(strstr(zc_an_str(run, "reason"), want));
		}
		if (!strcmp(cases[i].status, "unknown") &&
		    !strstr(zc_an_str(root, "status_reason"), "written by "))
			fail_msg("case %zu: '%s' does not say who wrote it", i,
				 zc_an_str(root, "status_reason"));
		json_decref(root);
	}
	/* Another machine (another host name and boot): cannot be told. */
	{
		json_t *root = running_file(elsewhere);

		json_object_set_new(json_object_get(root, "meta"), "hostname", json_string("elsewhere"));
		json_object_set_new(root, "status", json_string("running"));
		zc_results_settle(root);
		assert_string_equal(zc_an_str(root, "status"), "unknown");
		if (!strstr(zc_an_str(root, "status_reason"), "on host elsewhere; ") ||
		    !strstr(zc_an_str(root, "status_reason"), "another machine"))
			fail_msg("elsewhere: '%s'", zc_an_str(root, "status_reason"));
		json_decref(root);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_orphaned),
		cmocka_unit_test(test_fixtures_load),
		cmocka_unit_test(test_index_peer),
		cmocka_unit_test(test_an_int),
		cmocka_unit_test(test_report_parse),
	};

	return zc_run_tests(tests, NULL, NULL);
}
