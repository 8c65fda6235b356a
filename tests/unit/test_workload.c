// SPDX-License-Identifier: GPL-2.0
/* Workload files: expansion, overrides, and errors that name file:line:key. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zc_test.h"

#include "config/workload.h"

static struct zc_workload w;
static char path[64];
static char err[1024];

static const char *write_ini(const char *text)
{
	int fd;

	snprintf(path, sizeof(path), "/tmp/zc-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static int load(const char *text, const struct zc_section *ov)
{
	int ret = zc_workload_load(write_ini(text), ov, &w, err, sizeof(err));

	unlink(path);
	return ret;
}

static void expect_error(const char *text, int line, const char *needle)
{
	char want[128];

	assert_int_not_equal(load(text, NULL), 0);
	snprintf(want, sizeof(want), "%s:%d:", path, line);
	if (!strstr(err, want) || !strstr(err, needle))
		fail_msg("error '%s' lacks '%s' or '%s'", err, want, needle);
}

static void test_expand(void **state)
{
	(void)state;
	assert_int_equal(load("[workload]\nname = t\nrepetitions = 5\n"
			      "[run a]\ntopology = direct\nsource = tee\nchunk = 4k, 64k,1M\n"
			      "[run b]\nproxy = splice\npipe_size = 64k,1M\n", NULL), 0);
	assert_string_equal(w.name, "t");
	assert_int_equal(w.nruns, 5);
	assert_string_equal(w.runs[0].name, "a");
	assert_int_equal(w.runs[0].chunk, 4096);
	assert_int_equal(w.runs[2].chunk, 1 << 20);
	assert_int_equal(w.runs[0].topology, ZC_TOPO_DIRECT);
	assert_string_equal(w.runs[0].mode[ZC_ROLE_SOURCE], "tee");
	assert_int_equal(w.runs[0].repetitions, 5);
	assert_string_equal(w.runs[3].mode[ZC_ROLE_PROXY], "splice");
	assert_int_equal(w.runs[3].pipe_size, 65536);
	assert_int_equal(w.runs[4].pipe_size, 1 << 20);
	/* tee re-sends one chunk: the pattern period is the chunk */
	assert_int_equal(zc_cfg_period(&w.runs[1]), 65536);
	assert_int_equal(zc_cfg_period(&w.runs[3]), 1 << 20);
}

static void test_override(void **state)
{
	struct zc_section ov = { 0 };

	(void)state;
	assert_int_equal(zc_override_add(&ov, "duration", "0.5", err, sizeof(err)), 0);
	assert_int_equal(zc_override_add(&ov, "pipe-size", "128k", err, sizeof(err)), 0);
	assert_int_equal(load("[workload]\nduration = 9\n[run a]\nduration = 7\n", &ov), 0);
	assert_float_equal(w.runs[0].duration_s, 0.5, 1e-12);
	assert_int_equal(w.runs[0].pipe_size, 128 << 10);
	assert_int_not_equal(zc_override_add(&ov, "durtion", "1", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "--durtion"));
	assert_int_not_equal(zc_override_add(&ov, "chunk", "lots", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "--chunk"));
	/* A cross-key check failing on a flag's value blames the command line. */
	memset(&ov, 0, sizeof(ov));
	assert_int_equal(zc_override_add(&ov, "counters", "bogus", err, sizeof(err)), 0);
	assert_int_not_equal(load("[run a]\ncounters = perf\n", &ov), 0);
	if (strncmp(err, "command line: --counters: 'bogus'", 33))
		fail_msg("'%s' does not blame the command line", err);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("[workload]\n\n[run a]\nchunck = 4k\n", 4, "chunck");
	expect_error("[run a]\nchunk = 12q\n", 2, "'chunk'");
	expect_error("[run a]\nduration = -1\n", 2, "'duration'");
	expect_error("[run a]\nrepetitions = 1.5\n", 2, "'repetitions'");
	expect_error("[run a]\nsource = vmsplice2\n", 2, "'source'");
	expect_error("[run a]\ntopology = mesh\n", 2, "'topology'");
	expect_error("[bogus]\nchunk = 4k\n", 2, "[bogus]");
	expect_error("[run a]\nthis is not ini\n", 2, "syntax");
	/* cross-key check blames the key's own line */
	expect_error("[run a]\ntopology = direct\nsource = vmsplice-gift\nchunk = 1000\n", 4,
		     "'chunk'");
	expect_error("[run a]\nchunk = 4k\n[run a]\nchunk = 8k\n", 3, "twice");
	assert_int_not_equal(load("[workload]\nname = x\n", NULL), 0);
	assert_non_null(strstr(err, "no [run"));
	assert_int_not_equal(zc_workload_load("/nonexistent/w.ini", NULL, &w, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "/nonexistent/w.ini"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_errors),
	};

	return zc_run_tests(tests, NULL, NULL);
}
