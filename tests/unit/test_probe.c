// SPDX-License-Identifier: GPL-2.0
/* probe.c: the classifier, the bounded child, and the mode page-change test. */
#include "zc_test.h"

#include "probe/probe.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static void classify(void **state)
{
	uint8_t b[8];
	size_t nn;

	(void)state;
	memset(b, 0x5a, sizeof(b));
	assert_string_equal(zc_probe_classify(b, 8, 0xa5, 0x5a, &nn), "zero-copy");
	assert_int_equal(nn, 8);
	memset(b, 0xa5, sizeof(b));
	assert_string_equal(zc_probe_classify(b, 8, 0xa5, 0x5a, &nn), "copy");
	assert_int_equal(nn, 0);
	b[3] = 0x5a;
	assert_string_equal(zc_probe_classify(b, 8, 0xa5, 0x5a, &nn), "mixed");
	assert_int_equal(nn, 1);
	b[4] = 0;
	assert_string_equal(zc_probe_classify(b, 8, 0xa5, 0x5a, NULL), "garbled");
	/* Nothing read back is no evidence of anything. */
	assert_string_equal(zc_probe_classify(b, 0, 0xa5, 0x5a, NULL), "garbled");
}

static void hang(void *arg, struct zc_probe_res *r)
{
	(void)arg;
	(void)r;
	for (;;)
		pause();
}

static void answer(void *arg, struct zc_probe_res *r)
{
	snprintf(r->verdict, sizeof(r->verdict), "%s", (const char *)arg);
	snprintf(r->detail, sizeof(r->detail), "pid %d", (int)getpid());
}

static void bounded(void **state)
{
	struct zc_probe_res r;
	double t0 = zc_now();

	(void)state;
	/* A probe that hangs is killed and says so, in about the timeout. */
	assert_int_equal(zc_probe_bounded(hang, NULL, 100, NULL, &r), -ETIMEDOUT);
	assert_string_equal(r.verdict, "timeout");
	assert_true(zc_now() - t0 < 2.0);
	assert_true(r.elapsed_ms >= 100);
	/* The child's verdict reaches the parent; it ran in another process. */
	assert_int_equal(zc_probe_bounded(answer, "works", 1000, NULL, &r), 0);
	assert_string_equal(r.verdict, "works");
	assert_true(strcmp(r.detail, "pid 0") && atoi(r.detail + 4) != getpid());
}

static void emulated_modes_copy(void **state)
{
	struct zc_probe_opts o;
	int n = 0;

	(void)state;
	zc_probe_opts_default(&o);
	for (size_t i = 0; i < zc_nmodes; i++) {
		struct zc_probe_res r;

		if (!(zc_modes[i]->flags & ZC_MODE_EMULATED))
			continue;
		/* An emulated mode the probe cannot check is not a faithful one. */
		assert_true(zc_mode_probeable(zc_modes[i]));
		zc_probe_mode(zc_modes[i], &o, &r);
		if (strcmp(r.verdict, "copy"))
			fail_msg("%s: %s (%s)", zc_modes[i]->name, r.verdict, r.detail);
		n++;
	}
	assert_true(n >= 4);
}

static void no_step_is_skipped(void **state)
{
	const struct zc_mode m = { .name = "x", .role = ZC_ROLE_SOURCE };
	struct zc_probe_opts o;
	struct zc_probe_res r;

	(void)state;
	zc_probe_opts_default(&o);
	zc_probe_mode(&m, &o, &r);
	assert_string_equal(r.verdict, "skipped");
	assert_true(strlen(r.detail) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify),
		cmocka_unit_test(bounded),
		cmocka_unit_test(emulated_modes_copy),
		cmocka_unit_test(no_step_is_skipped),
	};

	return zc_run_tests(tests, NULL, NULL);
}
