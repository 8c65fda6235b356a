// SPDX-License-Identifier: GPL-2.0
/* probe.c: the classifier, the bounded child, and the mode page-change test. */
#include "zc_test.h"

#include "probe/probe.h"
#include "probe/probe_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <pwd.h>
#include <sys/prctl.h>
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

/* A file with text, or its text. */
static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *get(const char *path)
{
	static char buf[64];

	assert_int_equal(zc_read_file_trim(path, buf, sizeof(buf)), 0);
	return buf;
}

/* Issue 13: after a probe killed mid-change, the next one puts the value
 * back only while the sysctl still holds what the dead probe set. */
static void snw_repair(void **state)
{
	char dir[] = "/tmp/zc-test-snw-XXXXXX", note[64], sysctl[64], said[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(note, sizeof(note), "%s/note", dir);
	snprintf(sysctl, sizeof(sysctl), "%s/splice_needs_write", dir);
	/* No note: nothing to do, nothing said. */
	put(sysctl, "0\n");
	assert_int_equal(zc_snw_repair(note, sysctl, said, sizeof(said)), 0);
	assert_string_equal(said, "");
	/* Still what the dead probe set: restored, note gone. */
	put(note, "restore=0 set=1\n");
	put(sysctl, "1\n");
	assert_int_equal(zc_snw_repair(note, sysctl, said, sizeof(said)), 1);
	assert_string_equal(get(sysctl), "0");
	assert_int_equal(access(note, F_OK), -1);
	/* Changed since by an administrator (to 2, or back to 0): left alone. */
	put(note, "restore=0 set=1\n");
	put(sysctl, "2\n");
	assert_int_equal(zc_snw_repair(note, sysctl, said, sizeof(said)), 0);
	assert_string_equal(get(sysctl), "2");
	assert_non_null(strstr(said, "is 2, not the 1 an interrupted probe set: left as it is"));
	assert_int_equal(access(note, F_OK), -1);
	/* A note of the old format (the value only) was left by a probe that set 1. */
	put(note, "0\n");
	put(sysctl, "1\n");
	assert_int_equal(zc_snw_repair(note, sysctl, said, sizeof(said)), 1);
	assert_string_equal(get(sysctl), "0");
	unlink(sysctl);
	rmdir(dir);
}

static void dumpable(void *arg, struct zc_probe_res *r)
{
	(void)arg;
	snprintf(r->verdict, sizeof(r->verdict), "dumpable=%d", prctl(PR_GET_DUMPABLE));
}

/* Issue 13: the child running as an unprivileged user is not dumpable (its
 * /proc/PID/fd holds root's probe file). */
static void child_not_dumpable(void **state)
{
	struct zc_probe_creds nob;
	struct zc_probe_res r;
	struct passwd *pw = getpwnam("nobody");

	(void)state;
	if (geteuid() != 0 || !pw) {
		zc_skip("needs root and a user nobody");
		return;
	}
	nob.uid = pw->pw_uid;
	nob.gid = pw->pw_gid;
	assert_int_equal(zc_probe_bounded(dumpable, NULL, 2000, &nob, &r), 0);
	assert_string_equal(r.verdict, "dumpable=0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify),
		cmocka_unit_test(bounded),
		cmocka_unit_test(emulated_modes_copy),
		cmocka_unit_test(no_step_is_skipped),
		cmocka_unit_test(snw_repair),
		cmocka_unit_test(child_not_dumpable),
	};

	return zc_run_tests(tests, NULL, NULL);
}
