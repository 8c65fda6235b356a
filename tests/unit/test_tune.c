// SPDX-License-Identifier: GPL-2.0
/*
 * tune = on (run/tune.h) on a fake sysfs tree, since a VM like this one has
 * no cpufreq and no deep idle state: what is recorded, what tune changes
 * (governor to performance, idle states deeper than C1 disabled, POLL and C1
 * kept), the restore, the restore by the next run after a controller killed
 * with SIGKILL, a value an administrator changed since left alone, and
 * "not available" where sysfs has nothing.
 */
#include "zc_test.h"

#include "run/tune.h"
#include "lib/zcbench.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char base[256];

static void put(const char *rel, const char *v)
{
	char p[512], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	for (s = strchr(p + strlen(base) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", v);
	fclose(f);
}

static const char *get(const char *rel)
{
	static char buf[128];
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", base, rel);
	if (zc_read_file_trim(p, buf, sizeof(buf)))
		return "(missing)";
	return buf;
}

#define CPU "root/sys/devices/system/cpu/"

/* CPU 0: cpufreq (powersave) and POLL, C1, C1E, C6; CPU 1: cpuidle only. */
static int make_tree(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/zc-tune-test.XXXXXX");
	assert_non_null(mkdtemp(base));
	put(CPU "cpu0/cpufreq/scaling_driver", "intel_pstate");
	put(CPU "cpu0/cpufreq/scaling_governor", "powersave");
	put(CPU "cpu0/cpufreq/scaling_available_governors", "performance powersave");
	put(CPU "cpu0/cpufreq/scaling_max_freq", "3500000");
	put(CPU "intel_pstate/no_turbo", "0");
	put(CPU "cpuidle/current_driver", "intel_idle");
	put(CPU "cpuidle/current_governor_ro", "menu");
	for (int c = 0; c < 2; c++) {
		static const char *const names[] = { "POLL", "C1", "C1E", "C6" };
		static const char *const lat[] = { "0", "2", "10", "133" };

		for (int k = 0; k < 4; k++) {
			char rel[128];

			snprintf(rel, sizeof(rel), CPU "cpu%d/cpuidle/state%d/name", c, k);
			put(rel, names[k]);
			snprintf(rel, sizeof(rel), CPU "cpu%d/cpuidle/state%d/latency", c, k);
			put(rel, lat[k]);
			snprintf(rel, sizeof(rel), CPU "cpu%d/cpuidle/state%d/disable", c, k);
			put(rel, "0");
		}
	}
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

static void init(struct zc_tune *t)
{
	char root[300], st[300];

	snprintf(root, sizeof(root), "%s/root", base);
	snprintf(st, sizeof(st), "%s/state", base);
	setenv("ZC_SYSFS_ROOT", root, 1);
	setenv("ZC_STATE_DIR", st, 1);
	zc_tune_init(t);
}

static int state_files(void)
{
	char st[300];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(st, sizeof(st), "%s/state", base);
	if (!(d = opendir(st)))
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "tune-", 5);
	closedir(d);
	return n;
}

static void records_state(void **state)
{
	static struct zc_tune t;
	const int cpus[] = { 0, 1 };
	json_t *ms, *c0;

	(void)state;
	init(&t);
	ms = zc_machine_state(&t, cpus, 2);
	c0 = json_object_get(json_object_get(json_object_get(ms, "cpufreq"), "cpus"), "0");
	assert_string_equal(json_string_value(json_object_get(c0, "scaling_governor")), "powersave");
	assert_string_equal(json_string_value(json_object_get(c0, "scaling_driver")), "intel_pstate");
	assert_string_equal(json_string_value(json_object_get(json_object_get(ms, "cpufreq"),
							      "no_turbo")), "0");
	assert_string_equal(json_string_value(json_object_get(json_object_get(ms, "cpuidle"),
							      "driver")), "intel_idle");
	assert_int_equal(json_array_size(json_object_get(json_object_get(json_object_get(ms,
		"cpuidle"), "cpus"), "1")), 4);
	json_decref(ms);
	/* A tree without either: each part says not available. */
	setenv("ZC_SYSFS_ROOT", "/nonexistent-zc", 1);
	zc_tune_init(&t);
	ms = zc_machine_state(&t, cpus, 1);
	assert_non_null(strstr(json_string_value(json_object_get(json_object_get(ms, "cpufreq"),
								 "note")), "not available"));
	assert_non_null(strstr(json_string_value(json_object_get(json_object_get(ms, "cpuidle"),
								 "note")), "not available"));
	json_decref(ms);
}

static void apply_and_restore(void **state)
{
	static struct zc_tune t;
	const int cpus[] = { 0, 1 };
	json_t *rep = json_object();

	(void)state;
	init(&t);
	assert_int_equal(zc_tune_apply(&t, cpus, 2, rep), 0);
	assert_string_equal(get(CPU "cpu0/cpufreq/scaling_governor"), "performance");
	for (int c = 0; c < 2; c++) {
		char rel[128];

		for (int k = 0; k < 4; k++) {
			snprintf(rel, sizeof(rel), CPU "cpu%d/cpuidle/state%d/disable", c, k);
			/* POLL and C1 stay, C1E and C6 go. */
			assert_string_equal(get(rel), k >= 2 ? "1" : "0");
		}
	}
	assert_true(json_is_true(json_object_get(rep, "applied")));
	assert_int_equal(json_array_size(json_object_get(rep, "changes")), 5);
	/* CPU 1 has no cpufreq: said, not failed. */
	assert_non_null(strstr(json_string_value(json_object_get(rep, "governor")),
			       "CPU 1: not available"));
	assert_int_equal(state_files(), 1);
	assert_int_equal(zc_tune_restore(&t), 0);
	assert_string_equal(get(CPU "cpu0/cpufreq/scaling_governor"), "powersave");
	assert_string_equal(get(CPU "cpu1/cpuidle/state3/disable"), "0");
	assert_int_equal(state_files(), 0);
	json_decref(rep);
}

/* A controller killed with SIGKILL while tuned: the next run restores. */
static void restored_after_killed_run(void **state)
{
	static struct zc_tune t;
	const int cpus[] = { 0 };
	pid_t pid;
	int status, pids;

	(void)state;
	init(&t);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		json_t *rep = json_object();

		zc_tune_apply(&t, cpus, 1, rep);
		raise(SIGKILL);
		_exit(1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	assert_string_equal(get(CPU "cpu0/cpufreq/scaling_governor"), "performance");
	assert_string_equal(get(CPU "cpu0/cpuidle/state3/disable"), "1");
	assert_int_equal(state_files(), 1);
	/* An administrator set C1E back by hand meanwhile: that stays theirs. */
	put(CPU "cpu0/cpuidle/state2/disable", "0");
	assert_int_equal(zc_tune_reap_stale(&t, &pids), 2);
	assert_int_equal(pids, 1);
	assert_string_equal(get(CPU "cpu0/cpufreq/scaling_governor"), "powersave");
	assert_string_equal(get(CPU "cpu0/cpuidle/state3/disable"), "0");
	assert_string_equal(get(CPU "cpu0/cpuidle/state2/disable"), "0");
	assert_int_equal(state_files(), 0);
	/* Nothing left: a second reap does nothing. */
	assert_int_equal(zc_tune_reap_stale(&t, &pids), 0);
	assert_int_equal(pids, 0);
}

/* The VM case: nothing to tune, nothing saved, and it says so. */
static void not_available(void **state)
{
	static struct zc_tune t;
	const int cpus[] = { 0 };
	json_t *rep = json_object();

	(void)state;
	setenv("ZC_SYSFS_ROOT", "/nonexistent-zc", 1);
	zc_tune_init(&t);
	assert_int_equal(zc_tune_apply(&t, cpus, 1, rep), 0);
	assert_false(json_is_true(json_object_get(rep, "applied")));
	assert_non_null(strstr(json_string_value(json_object_get(rep, "governor")), "not available"));
	assert_non_null(strstr(json_string_value(json_object_get(rep, "idle")), "not available"));
	assert_int_equal(t.nsaved, 0);
	json_decref(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_state),
		cmocka_unit_test(apply_and_restore),
		cmocka_unit_test(restored_after_killed_run),
		cmocka_unit_test(not_available),
	};

	return zc_run_tests(tests, make_tree, remove_tree);
}
