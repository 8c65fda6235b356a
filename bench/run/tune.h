/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine state behind the figures, and `tune = on`: the CPU frequency
 * driver, governor, turbo/boost and idle states are recorded for every run
 * set; with tune = on the DUT cores get the performance governor and lose
 * their deep idle states for the runs, and get both back afterwards.
 *
 * Every value is written to STATE_DIR/tune-PID before it changes, so a
 * controller killed by SIGKILL cannot leave them changed for good: the next
 * run puts them back (zc_tune_reap_stale), as transport/placement.c does for
 * pinned IRQs. Tests point both places elsewhere (ZC_SYSFS_ROOT for a fake
 * sysfs tree, ZC_STATE_DIR for the state files).
 */
#ifndef ZC_TUNE_H
#define ZC_TUNE_H

#include <jansson.h>
#include <stdbool.h>

#define ZC_TUNE_SAVED_MAX 256

struct zc_tune_saved {
	char path[320];		/* absolute, the sysfs root included */
	char value[64];		/* what it held before */
};

struct zc_tune {
	char root[256];		/* "" for the real sysfs, else a fake tree's folder */
	char state_dir[256];
	struct zc_tune_saved saved[ZC_TUNE_SAVED_MAX];
	int nsaved;
};

/* root and state folder from the environment (ZC_SYSFS_ROOT, ZC_STATE_DIR),
 * else the real ones. */
void zc_tune_init(struct zc_tune *t);
/*
 * What the machine is set to, for the results: cpufreq (driver, boost or
 * no_turbo, per CPU of cpus[0..n) its governor and limits) and cpuidle
 * (driver, governor, per CPU its states with latency and whether disabled);
 * each part "not available" with the reason where sysfs has none (a VM).
 */
json_t *zc_machine_state(const struct zc_tune *t, const int *cpus, int n);
/*
 * tune = on for cpus[0..n): the performance governor where cpufreq offers
 * it, and every idle state deeper than the shallowest real one (POLL and C1
 * stay) disabled. Old values saved to the state file first. What was done,
 * and "not available: ..." for what could not be, into report. 0, or -errno
 * when the state file could not be written (then nothing was changed).
 */
int zc_tune_apply(struct zc_tune *t, const int *cpus, int n, json_t *report);
/* Put back what zc_tune_apply changed and remove the state file. How many
 * values could not be written back. */
int zc_tune_restore(struct zc_tune *t);
/* For a run set: the machine state of cpus[0..n) (the DUT CPUs here) with
 * "tune": what was asked and done, applied when on (and said on stdout:
 * "tune: governor: ...; idle: ..."). zc_tune_restore undoes it. */
json_t *zc_tune_run_set(struct zc_tune *t, const int *cpus, int n, bool on);
/* State files of zcbench processes that are gone: write their values back
 * and remove them. How many values were restored; *pids gets how many dead
 * runs' files were found (may be NULL). */
int zc_tune_reap_stale(const struct zc_tune *t, int *pids);

#endif
