// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench run's watching without a run: a role's connection counters in the
 * shared mapping read back by the controller's side (bytes now, bytes at
 * each edge, a file not filled in yet), the heap when nobody watches; and a
 * run's profile merged from its samples' folded stacks (the DUT's pids one
 * root "dut", a failed sample left out).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zc_test.h"

#include "wire/wire.h"
#include "run/watch.h"
#include "profile/profile.h"

#include <sys/stat.h>

static void test_live_roundtrip(void **state)
{
	struct zc_live_role r = { .nconn = 3 };
	struct zc_live_map m = { 0 };
	char path[PATH_MAX];
	uint64_t b;

	(void)state;
	assert_int_equal(zc_live_create(ZC_ROLE_PROXY, path, sizeof(path)), 0);
	/* Empty until the role fills it in. */
	assert_int_equal(zc_live_open(&m, path), -EAGAIN);
	setenv(ZC_LIVE_ENV, path, 1);
	assert_int_equal(zc_live_role_alloc(&r), 0);
	unsetenv(ZC_LIVE_ENV);
	for (int c = 0; c < 3; c++) {
		r.io[c].bytes = 100 * (c + 1);
		r.edge[c][PH_WARMUP] = 10 * (c + 1);
		r.edge[c][PH_WINDOW] = 50 * (c + 1);
	}
	assert_int_equal(zc_live_open(&m, path), 0);
	assert_int_equal(zc_live_bytes(&m, &b), 0);
	assert_int_equal(b, 600);
	assert_int_equal(zc_live_edge(&m, 0, &b), 0);
	assert_int_equal(b, 60);
	assert_int_equal(zc_live_edge(&m, 1, &b), 0);
	assert_int_equal(b, 300);
	assert_int_equal(zc_live_edge(&m, PH_NR, &b), -ENODATA);
	/* The controller sees what the role counts next, without a call. */
	r.io[1].bytes += 1000;
	assert_int_equal(zc_live_bytes(&m, &b), 0);
	assert_int_equal(b, 1600);
	zc_live_close(&m);
	zc_live_role_free(&r);
	assert_null(r.io);
	unlink(path);
	/* Nobody watching: the heap, and a closed map reads nothing. */
	assert_int_equal(zc_live_role_alloc(&r), 0);
	assert_non_null(r.io);
	r.io[2].bytes = 7;
	zc_live_role_free(&r);
	assert_int_equal(zc_live_bytes(&m, &b), -ENODATA);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_profile_merge(void **state)
{
	char dir[] = "/tmp/zc-watch-XXXXXX", p[PATH_MAX + 64], out[PATH_MAX + 64];
	json_t *run, *s2, *prof;
	struct zc_stacks st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/a.folded", dir);
	put(p, "zcbench-111;main;_copy_to_iter_[k] 6\nkworker-5;worker_thread_[k] 4\n");
	snprintf(p, sizeof(p), "%s/b.folded", dir);
	put(p, "zcbench-222;main;_copy_to_iter_[k] 2\nzcbench-222;main;tcp_sendmsg_[k] 2\n");
	snprintf(p, sizeof(p), "%s/c.folded", dir);
	put(p, "zcbench-333;main;splice_[k] 100\n");
	run = json_pack("{s:s,s:{s:i},s:[{s:s,s:{s:s,s:s,s:s,s:f,s:i}},{s:s,s:{s:s,s:s,s:s,s:f,s:i}}]}",
			"name", "proxy-copy", "key", "chunk", 65536, "samples",
			"status", "ok", "profile", "folded", "a.folded", "comm", "111", "event",
			"cpu-clock", "window_s", 1.0, "lost", 0,
			"status", "failed", "profile", "folded", "c.folded", "comm", "333", "event",
			"cpu-clock", "window_s", 1.0, "lost", 0);
	s2 = json_pack("{s:s,s:{s:s,s:s,s:s,s:f,s:i}}", "status", "ok", "profile", "folded",
		       "b.folded", "comm", "222", "event", "cpu-clock", "window_s", 1.5, "lost", 1);
	assert_non_null(run);
	assert_non_null(s2);
	snprintf(out, sizeof(out), "%s/run", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	zc_run_profile_merge(run, s2, dir, out);
	prof = json_object_get(run, "profile");
	assert_non_null(prof);
	assert_string_equal(json_string_value(json_object_get(prof, "comm")), "dut");
	assert_int_equal(json_integer_value(json_object_get(prof, "repetitions")), 2);
	/* The DUT's samples of both ok repetitions (6 + 4), not the failed one's. */
	assert_int_equal(json_integer_value(json_object_get(prof, "samples")), 10);
	assert_float_equal(json_real_value(json_object_get(prof, "window_s")), 2.5, 1e-9);
	assert_int_equal(json_integer_value(json_object_get(prof, "lost")), 1);
	assert_string_equal(json_string_value(json_object_get(prof, "folded")), "run/stacks.folded");
	assert_float_equal(json_number_value(json_object_get(json_object_get(prof, "buckets"),
							      "kernel_copy")), 80, 1e-6);
	/* The merged file: every process kept, the DUT's pids one root. */
	assert_int_equal(zc_stacks_init(&st), 0);
	snprintf(p, sizeof(p), "%s/run/stacks.folded", dir);
	assert_int_equal(zc_stacks_read(&st, p), 0);
	assert_int_equal(json_integer_value(json_object_get(st.counts, "dut;main;_copy_to_iter_[k]")), 8);
	assert_int_equal(json_integer_value(json_object_get(st.counts, "kworker-5;worker_thread_[k]")), 4);
	assert_null(json_object_get(st.counts, "dut;main;splice_[k]"));
	zc_stacks_free(&st);
	snprintf(p, sizeof(p), "%s/run/flamegraph.svg", dir);
	assert_int_equal(access(p, R_OK), 0);
	json_decref(run);
	json_decref(s2);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_roundtrip),
		cmocka_unit_test(test_profile_merge),
	};

	return zc_run_tests(tests, NULL, NULL);
}
