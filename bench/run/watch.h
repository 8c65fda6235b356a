/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Watching a run while it runs, from the controller's core (never the
 * DUT's): the DUT cores' profile over each sample's window (--profile), the
 * sink's and the DUT's bytes and the DUT cores' busy time every --interval
 * seconds (a sample's "intervals"), the progress line (--progress) and one
 * JSON event per line on stdout (--json-stream).
 *
 * Bytes are read without the roles' help: a local role keeps its
 * connections' counters (struct zc_io, their edges) in a file mapping the
 * controller maps too (live.c); the role's data path does not change.
 *
 * Wiring: run.c calls zc_watch_init/start/progress/sample_done/end; a
 * sample (sample.c) calls zc_watch_role_env before each role starts,
 * zc_watch_prepare after READY, zc_watch_window over the window and
 * zc_watch_finish at its end. Every call is a no-op without zc_watch_init.
 */
#ifndef ZC_WATCH_H
#define ZC_WATCH_H

#include "config/cfg.h"
#include "lib/cpu.h"
#include "wire/wire.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum zc_progress { ZC_PROGRESS_AUTO, ZC_PROGRESS_ALWAYS, ZC_PROGRESS_NEVER };

/* zcbench run's flags for it (rows in run.c's table). */
struct zc_watch_opts {
	bool profile;		/* sample the DUT's CPUs over each window */
	int profile_backend;	/* enum zc_profile_backend: auto, perf, perf_event_open */
	double interval_s;	/* live intervals every this many seconds; 0: none */
	int progress;		/* enum zc_progress */
	bool json_stream;	/* JSON events on stdout, human output to stderr */
};

struct zc_ctl;
struct zc_child;

/* ---- the controller's side (watch.c) ---- */

/* Before the first sample (c->path set): 0 or -errno. With json_stream,
 * stdout becomes stderr for everything else until zc_watch_end. */
int zc_watch_init(struct zc_ctl *c, const struct zc_watch_opts *o);
void zc_watch_start(struct zc_ctl *c, size_t planned);		/* event "start" */
void zc_watch_progress(struct zc_ctl *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A sample is taken (not yet in run's samples): the run's merged profile,
 * event "sample". */
void zc_watch_sample_done(struct zc_ctl *c, json_t *run, json_t *sample);
/* Events "run" (each run) and "end"; stdout back; frees the state. */
void zc_watch_end(struct zc_ctl *c, const char *status, int exit_code);

/* In a sample: the live file's name in the environment of role r (local
 * roles only), before it starts. */
void zc_watch_role_env(struct zc_ctl *c, int role);
/* Every role READY, before GO: map their counters, start the profiler
 * (events off). Failures are recorded, never fatal. */
void zc_watch_prepare(struct zc_ctl *c, const struct zc_cfg *cfg, const struct zc_placement *pl,
		      int dut, pid_t dut_pid, int rep);
/* The window, from its opening edge: zc_children_wait(live, n, t_close)
 * with a tick every interval and the profile on in between. Its result. */
int zc_watch_window(struct zc_ctl *c, struct zc_child **live, int n, double t_close);
/* The roles are done: "intervals" and "profile" into sample, files away. */
void zc_watch_finish(struct zc_ctl *c, json_t *sample);

/* ---- the profile of each window (profile_hook.c) ---- */

struct zc_profile;
/* The DUT's CPUs sampled into dir (events off): 0 or -errno with why. */
int zc_run_profile_open(struct zc_profile **p, const char *dir, const struct zc_placement *pl,
			int dut, const char *pid, int backend, char *why, size_t len);
/* The sample's profile (paths relative to resdir), or NULL with why. */
json_t *zc_run_profile_close(struct zc_profile *p, const char *resdir, char *why, size_t len);
/* The run's profile: its samples' stacks (and sample's) merged, the DUT's
 * process as "dut", written to dir (stacks.folded, flamegraph.svg). */
void zc_run_profile_merge(json_t *run, json_t *sample, const char *resdir, const char *dir);

#endif
