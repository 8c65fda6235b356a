/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside zcbench run: the order in which a run set's samples are taken. The
 * (run, repetition) slots come from stats/order.h; each slot calls one sample
 * function and the sample gets its place in the order and its start time.
 * `repetitions = auto` stops after the first round (from ZC_AUTO_MIN_ROUNDS
 * on) in which every headline ratio is tight, or at the maximum. The sample
 * and tightness functions are the caller's, so tests drive it with fakes.
 */
#ifndef ZC_SCHEDULE_H
#define ZC_SCHEDULE_H

#include "stats/order.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct zc_sched_run {
	json_t *run;	/* the run's JSON: samples are appended to its "samples" */
	long reps;	/* its repetitions (a fixed count; auto: max_reps for all) */
	bool closed;	/* no more slots: not placed, or a sample was unavailable */
};

struct zc_sched {
	enum zc_order order;
	unsigned long seed;		/* order = random */
	bool autoreps;			/* repetitions = auto */
	double ci_target_rel;		/* auto: 0.03 for 3% */
	long max_reps;			/* auto: at most this many rounds */
	struct zc_sched_run *runs;
	size_t nruns;
	json_t *all;			/* the runs array the tightness test reads */
	/* One sample: repetition rep of run i (a new JSON object). */
	json_t *(*sample)(void *user, size_t i, long rep, long round, long nrounds);
	/* After every sample (the results file is rewritten); may be NULL. */
	void (*after)(void *user);
	/* auto: 1 when tight enough to stop, why filled (zc_headline_tight). */
	int (*tight)(json_t *all, double target_rel, char *why, size_t len);
	void *user;
	/* Filled by zc_sched_go. */
	long rounds;			/* rounds begun */
	size_t taken;			/* samples taken */
	const char *stopped;		/* "fixed", "target", "maximum", "interrupted", "closed" */
	char why[256];
};

/* Take the slots in order until done, stopped or interrupted (zc_interrupted).
 * Every sample gets "round", "slot", "start_s" (since the first sample,
 * monotonic) and "started_at" (UTC). 0, -EINVAL (no runs, bad order),
 * -ENOMEM */
int zc_sched_go(struct zc_sched *s);
/* What the results file says about the schedule (order, seed, repetitions,
 * rounds, why it stopped). */
json_t *zc_sched_json(const struct zc_sched *s);

struct zc_cfg;
/*
 * Keys that describe the run set, not one run (order, order_seed, tune,
 * ci_target, max_repetitions, repetitions = auto or not) must agree across
 * cfg[0..n). 0, or -EINVAL with "PATH: key 'k': ..." in err.
 */
int zc_sched_keys_agree(const struct zc_cfg *cfg, size_t n, const char *path, char *err,
			size_t len);
/* A random id for everything one invocation writes (results "invocation"):
 * compare pairs repetitions only within one. */
json_t *zc_sched_invocation_id(void);

#endif
