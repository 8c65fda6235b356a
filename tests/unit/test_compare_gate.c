// SPDX-License-Identifier: GPL-2.0
/*
 * compare's regression gate on synthetic files, end to end through
 * zc_cmd_compare (as a dashboard or CI step calls it): a results file made
 * from results/fixtures/base.json (its proxy-copy run, its samples repeated
 * to eight repetitions) against a copy whose Gbit/s per core are scaled by
 * 0.8 in rounds of one invocation (the per-round log ratios), or by 0.5 from
 * another invocation (each file one look, held to the stated spread between
 * invocations: no profile), must be a regression (exit 1, the REGRESSION
 * line, -20.0% / -50.0%); against an unscaled copy it must never be (exit 0,
 * or 3 when it cannot tell). From another invocation, -20% is can't tell
 * (exit 3): one invocation a side cannot tell it from how far two move.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include "zc_test.h"

#include "lib/zcbench.h"
#include "report/report.h"

#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FIXTURE "results/fixtures/base.json"
#define RUN "proxy-copy"
#define REPS 8

static char dir[] = "/tmp/zc-test-compare-gate.XXXXXX";

/* The fixture's RUN alone, with REPS samples cycling through its own, each
 * gbps_per_core times scale; paired: taken in rounds of one invocation. */
static void write_file(const char *path, double scale, bool paired)
{
	json_error_t je;
	json_t *root = json_load_file(FIXTURE, 0, &je), *runs, *keep = NULL, *run, *samples;
	size_t i, n;

	assert_non_null(root);
	runs = json_object_get(root, "runs");
	json_array_foreach(runs, i, run)
		if (!strcmp(json_string_value(json_object_get(run, "name")), RUN))
			keep = json_incref(run);
	assert_non_null(keep);
	json_object_set_new(root, "runs", json_pack("[o]", keep));
	samples = json_object_get(keep, "samples");
	n = json_array_size(samples);
	assert_true(n >= 2);
	for (size_t r = n; r < REPS; r++)
		json_array_append_new(samples, json_deep_copy(json_array_get(samples, r % n)));
	json_array_foreach(samples, i, run) {
		double v = json_number_value(json_object_get(run, "gbps_per_core"));

		assert_string_equal(json_string_value(json_object_get(run, "status")), "ok");
		assert_true(v > 0);
		json_object_set_new(run, "rep", json_integer((json_int_t)i));
		json_object_set_new(run, "gbps_per_core", json_real(v * scale));
	}
	if (paired) {
		json_object_set_new(root, "invocation", json_string("test-compare-gate"));
		json_object_set_new(keep, "options", json_pack("{s:s}", "order", "interleaved"));
	}
	assert_int_equal(json_dump_file(root, path, JSON_COMPACT), 0);
	json_decref(root);
}

/* zc_cmd_compare BASE NEW --metrics gbps_per_core --fail-on-regression 5,
 * stdout and stderr into out (NUL-terminated). Its exit code. */
static int compare(const char *base, const char *new, char *out, size_t len)
{
	char log[64], *argv[] = { "compare", (char *)base, (char *)new, "--metrics",
				  "gbps_per_core", "--fail-on-regression", "5", NULL };
	int fd, save_out, save_err, ret;
	ssize_t got;

	snprintf(log, sizeof(log), "%s/compare.log", dir);
	setenv("COLUMNS", "200", 1);	/* lines whole: the words read below on one line */
	fflush(NULL);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	save_out = dup(1);
	save_err = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	ret = zc_cmd_compare(7, argv);
	fflush(NULL);
	dup2(save_out, 1);
	dup2(save_err, 2);
	close(save_out);
	close(save_err);
	close(fd);
	fd = open(log, O_RDONLY);
	assert_true(fd >= 0);
	got = read(fd, out, len - 1);
	close(fd);
	out[got > 0 ? got : 0] = '\0';
	return ret;
}

static void judged(bool paired)
{
	char base[128], same[128], slow[128];
	static char out[65536];
	int ret;

	snprintf(base, sizeof(base), "%s/base-%d.json", dir, paired);
	snprintf(same, sizeof(same), "%s/same-%d.json", dir, paired);
	snprintf(slow, sizeof(slow), "%s/slow-%d.json", dir, paired);
	write_file(base, 1, paired);
	write_file(same, 1, paired);
	write_file(slow, paired ? 0.8 : 0.5, paired);

	ret = compare(base, slow, out, sizeof(out));
	if (ret != ZC_EXIT_FAIL || !strstr(out, "regression gate 5%: 1 regression,") ||
	    !strstr(out, ": FAIL") || !strstr(out, "REGRESSION") ||
	    !strstr(out, paired ? "gbps_per_core -20.0%" : "gbps_per_core -50.0%") ||
	    !strstr(out, paired ? ", paired" : ", unpaired"))
		fail_msg("a %s drop %s is not a regression (exit %d):\n%s", paired ? "20%" : "50%",
			 paired ? "in pairs" : "from another invocation", ret, out);
	if (!paired) {
		write_file(slow, 0.8, paired);
		ret = compare(base, slow, out, sizeof(out));
		if (ret != ZC_EXIT_CANT_TELL || !strstr(out, "0 regressions") ||
		    !strstr(out, "held to a stated spread between invocations of 12%"))
			fail_msg("a 20%% drop from another invocation, no profile: not can't tell "
				 "(exit %d):\n%s", ret, out);
	}

	/* Unchanged: a pass, or (unpaired, the samples' spread wider than
	 * 5%) can't tell; never a regression. In pairs the same samples give
	 * an interval of no width: within 5%, a pass. */
	ret = compare(base, same, out, sizeof(out));
	if (ret == ZC_EXIT_FAIL || (paired && ret != ZC_EXIT_OK) ||
	    (ret != ZC_EXIT_OK && ret != ZC_EXIT_CANT_TELL) ||
	    !strstr(out, "regression gate 5%: 0 regressions") || strstr(out, "REGRESSION"))
		fail_msg("an unchanged copy %s fails the gate (exit %d):\n%s",
			 paired ? "in pairs" : "unpaired", ret, out);
}

static void another_invocation_50pct_is_a_regression(void **state)
{
	(void)state;
	judged(false);
}

static void paired_20pct_is_a_regression(void **state)
{
	(void)state;
	judged(true);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(another_invocation_50pct_is_a_regression),
		cmocka_unit_test(paired_20pct_is_a_regression),
	};

	return zc_run_tests(tests, setup, teardown);
}
