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

/* The sizes of a run's key (item 7): a sweep over a key its DUT does not
 * pass on runs once, at the first value, and the key has no such size. */
static void test_unused_sizes(void **state)
{
	json_t *k;

	(void)state;
	assert_int_equal(load("[workload]\nchunk = 64k, 1M\npipe_size = 64k, 1M\n"
			      "[run splice]\nproxy = splice\n[run copy]\nproxy = copy\n"
			      "[run capped]\nproxy = splice\nmode_opts = splice_chunk_cap=1\n"
			      "[run wrk]\ntraffic = rr\ntopology = direct\ndut = client\n"
			      "source = wrk\nsink = nginx-copy\n", NULL), 0);
	/* splice: one per pipe size; copy: one per chunk; capped: all four;
	 * wrk (the client as DUT) passes on neither: one run. */
	assert_int_equal(w.nruns, 2 + 2 + 4 + 1);
	assert_string_equal(w.runs[0].name, "splice");
	assert_string_equal(w.runs[1].name, "splice");
	assert_int_equal(w.runs[0].chunk, 65536);
	assert_int_equal(w.runs[1].chunk, 65536);
	assert_int_equal(w.runs[1].pipe_size, 1 << 20);
	assert_int_equal(w.runs[2].chunk, 65536);
	assert_int_equal(w.runs[3].chunk, 1 << 20);
	assert_int_equal(w.runs[3].pipe_size, 65536);
	assert_string_equal(w.runs[8].name, "wrk");
	k = zc_cfg_key_json(&w.runs[0]);
	assert_null(json_object_get(k, "chunk"));
	assert_int_equal(json_integer_value(json_object_get(k, "pipe_size")), 65536);
	json_decref(k);
	k = zc_cfg_key_json(&w.runs[2]);
	assert_int_equal(json_integer_value(json_object_get(k, "chunk")), 65536);
	assert_null(json_object_get(k, "pipe_size"));
	json_decref(k);
	k = zc_cfg_key_json(&w.runs[4]);
	assert_non_null(json_object_get(k, "chunk"));
	assert_non_null(json_object_get(k, "pipe_size"));
	json_decref(k);
	k = zc_cfg_key_json(&w.runs[8]);
	assert_null(json_object_get(k, "chunk"));
	assert_null(json_object_get(k, "pipe_size"));
	json_decref(k);
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
	expect_error("[bogus]\nchunk = 4k\n", 1, "[bogus]");	/* the header names it now */
	expect_error("[run a]\nthis is not ini\n", 2, "is not key = value");
	/* cross-key check blames the key's own line */
	expect_error("[run a]\ntopology = direct\nsource = vmsplice-gift\nchunk = 1000\n", 4,
		     "'chunk'");
	expect_error("[run a]\nchunk = 4k\n[run a]\nchunk = 8k\n", 3, "twice");
	assert_int_not_equal(load("[workload]\nname = x\n", NULL), 0);
	assert_non_null(strstr(err, "no [run"));
	assert_int_not_equal(zc_workload_load("/nonexistent/w.ini", NULL, &w, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "/nonexistent/w.ini"));
}

/* Issue 23: HAProxy's HTTP mode parses requests and responses; a stream has neither. */
static void test_http_proxy(void **state)
{
	(void)state;
	expect_error("[run a]\ntopology = proxy\nproxy = haproxy-http-copy\n", 3, "'proxy'");
	assert_non_null(strstr(err, "set traffic = rr"));
	expect_error("[run a]\ntopology = proxy\nproxy = haproxy-http-splice\n", 3, "speaks HTTP");
	assert_int_equal(load("[workload]\ntraffic = rr\n[run a]\ntopology = proxy\n"
			      "proxy = haproxy-http-splice\nchurn = on\n", NULL), 0);
	assert_int_equal(load("[run a]\ntopology = proxy\nproxy = haproxy-splice\n", NULL), 0);
}

/* Issue 30: rr_check = auto is http with an HTTP program in the path, else
 * exact; exact with one is refused (its heads are not zcbench's). */
static void test_rr_check(void **state)
{
	(void)state;
	assert_int_equal(load("[workload]\ntraffic = rr\n[run a]\ntopology = proxy\n"
			      "proxy = haproxy-splice\n[run b]\ntopology = proxy\n"
			      "proxy = haproxy-http-splice\n[run c]\ntopology = direct\n[run d]\ntopology = direct\n"
			      "sink = nginx-copy\n[run e]\ntopology = proxy\nproxy = "
			      "haproxy-http-copy\nrr_check = http\n", NULL), 0);
	assert_int_equal(zc_cfg_rr_check(&w.runs[0]), ZC_RR_CHECK_EXACT);
	assert_int_equal(zc_cfg_rr_check(&w.runs[1]), ZC_RR_CHECK_HTTP);
	assert_int_equal(zc_cfg_rr_check(&w.runs[2]), ZC_RR_CHECK_EXACT);
	assert_int_equal(zc_cfg_rr_check(&w.runs[3]), ZC_RR_CHECK_HTTP);
	assert_int_equal(zc_cfg_rr_check(&w.runs[4]), ZC_RR_CHECK_HTTP);
	expect_error("[workload]\ntraffic = rr\n[run a]\ntopology = proxy\n"
		     "proxy = haproxy-http-copy\nrr_check = exact\n", 6, "'rr_check'");
	assert_non_null(strstr(err, "haproxy-http-copy writes or rewrites its own"));
	expect_error("[run a]\nrr_check = http\n", 2, "only request/response runs");
}

/* Issue 13: what inih misread, and settings that cannot work, refused with why. */
static void test_strict(void **state)
{
	char text[1024], big[700];
	struct zc_section ov = { 0 };

	(void)state;
	/* A key at the end of a long comment line is part of the comment. */
	snprintf(text, sizeof(text), "[workload]\n; %0*d sink_seed = 5\n[run a]\ntopology = direct\n",
		 300, 0);
	assert_int_equal(load(text, NULL), 0);
	assert_int_equal(w.runs[0].sink_seed, -1);
	/* A run section without keys is a run (inih never told us of it). */
	assert_int_equal(load("[run a]\n", NULL), 0);
	assert_int_equal(w.nruns, 1);
	/* Never cut: a name or value that does not fit is refused. */
	snprintf(text, sizeof(text), "[workload]\nname = %0*d\n[run a]\n", 200, 0);
	expect_error(text, 2, "key 'name': longer than 63 bytes");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	snprintf(text, sizeof(text), "[run a]\nmode_opts = %s\n", big);
	expect_error(text, 2, "'mode_opts'");
	expect_error("[run a]\nchunk = 4k\nchunk = 8k\n", 3, "appears twice");
	expect_error("[run a]\nname = caf\xe9\n", 2, "not UTF-8");
	/* Settings that cannot work, each named with its line and why. */
	expect_error("[run a]\ntopology = direct\nproxy = splice\n", 3,
		     "key 'proxy': topology = direct has no proxy");
	expect_error("[run a]\nsource = vmsplice\n", 2,
		     "key 'source': source = vmsplice without a topology");
	expect_error("[run a]\ntopology = direct\ntail = 0\n", 3, "key 'tail': 0 s is too short");
	expect_error("[run a]\ntopology = direct\nsource = tee\nperiod = 2M\n", 4,
		     "key 'period': source tee re-sends one chunk");
	expect_error("[run a]\ntopology = direct\nfile_dir = /tmp\n", 3,
		     "key 'file_dir': source send reads no file");
	/* A [workload] proxy no run can use; a proxy default for some direct runs is fine. */
	expect_error("[workload]\nproxy = splice\n[run a]\ntopology = direct\n", 2,
		     "no run of this workload has topology = proxy");
	assert_int_equal(load("[workload]\nproxy = splice\n[run a]\ntopology = direct\n"
			      "[run b]\ntopology = proxy\n", NULL), 0);
	/* The explicit topology = proxy keeps a source mode feeding the proxy. */
	assert_int_equal(load("[run a]\ntopology = proxy\nsource = vmsplice\n", NULL), 0);
	/* A flag is blamed on the command line, with the run it broke. */
	assert_int_equal(zc_override_add(&ov, "tail", "0", err, sizeof(err)), 0);
	assert_int_not_equal(load("[run a]\ntopology = direct\n", &ov), 0);
	if (strncmp(err, "command line: --tail: 0 s is too short", 38) || !strstr(err, "[run a]"))
		fail_msg("'%s' does not blame --tail", err);
	memset(&ov, 0, sizeof(ov));
	assert_int_not_equal(zc_override_add(&ov, "name", "caf\xe9", err, sizeof(err)), 0);
	assert_int_not_equal(zc_override_add(&ov, "mode-opts", "x\xff", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "command line: --mode-opts: byte 0xff that is not UTF-8"));
}

/* HTTP programs (issue 23): in the source's or sink's place of rr runs only,
 * the client programs without what they cannot do; each refusal names its key
 * and line. */
static void test_http_peers(void **state)
{
	(void)state;
	assert_int_equal(load("[workload]\ntraffic = rr\ntopology = direct\n"
			      "[run a]\nsink = nginx-sendfile\nchurn = on\n"
			      "[run b]\nsink = nginx-copy\ninflight = 4\n"
			      "[run c]\nsource = wrk\n[run d]\nsource = h2load\nsink = nginx-copy\n",
			      NULL), 0);
	assert_int_equal(w.nruns, 4);
	assert_string_equal(w.runs[0].mode[ZC_ROLE_SINK], "nginx-sendfile");
	assert_string_equal(w.runs[3].mode[ZC_ROLE_SOURCE], "h2load");
	expect_error("[run a]\ntopology = direct\nsink = nginx-copy\n", 3,
		     "nginx-copy is an HTTP program: only request/response runs take it");
	expect_error("[run a]\ntopology = direct\nsource = wrk\n", 3, "'source': wrk is an HTTP");
	expect_error("[workload]\ntraffic = rr\ntopology = direct\n[run a]\nsink = recv\n", 5,
		     "'sink': traffic = rr has its own client and server");
	expect_error("[workload]\ntraffic = rr\ntopology = direct\n[run a]\nsource = wrk\n"
		     "churn = on\n", 6, "'churn': source wrk keeps its connections open");
	expect_error("[workload]\ntraffic = rr\ntopology = direct\n[run a]\nsource = h2load\n"
		     "rate = 100\n", 6, "'rate': source h2load runs a closed loop");
	expect_error("[workload]\ntraffic = rr\ntopology = direct\n[run a]\nsource = wrk\n"
		     "inflight = 2\n", 6, "'inflight'");
	expect_error("[workload]\ntraffic = rr\ntopology = direct\n[run a]\nsource = wrk\n"
		     "request_size = 500\n", 6, "'request_size'");
}

static void test_default_name(void **state)
{
	(void)state;
	assert_int_equal(load("[run a]\n", NULL), 0);
	/* The file's name without .ini (mkstemp: no suffix), whole characters. */
	assert_string_equal(w.name, strrchr(path, '/') + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_unused_sizes),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_http_proxy),
		cmocka_unit_test(test_rr_check),
		cmocka_unit_test(test_default_name),
		cmocka_unit_test(test_http_peers),
	};

	return zc_run_tests(tests, NULL, NULL);
}
