/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside zcbench run: the order in which a run set's samples are taken. The
 * (run, repetition) slots come round by round (stats/order.h); each slot
 * calls one sample function and the sample gets its place in the order and
 * its start time. A disturbed sample (run/disturbed.h) is taken again at
 * once, in its round, up to retake times in the run set; both stay in the
 * record. `repetitions = auto` takes rounds until every question is decided
 * (decide: changed or unchanged at +-threshold), looking after 3, 5, 8 ...
 * rounds with the error rate spent over the looks (stats/sequential.h); the
 * later rounds take only the runs an undecided question needs; it stops at
 * max_reps rounds or when a round would begin after budget_s. The sample
 * and decide functions are the caller's, so tests drive it with fakes.
 */
#ifndef ZC_SCHEDULE_H
#define ZC_SCHEDULE_H

#include "stats/order.h"
#include "stats/sequential.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct zc_sched_run {
	json_t *run;	/* the run's JSON: samples are appended to its "samples" */
	long reps;	/* its repetitions (a fixed count; auto: max_reps for all) */
	bool closed;	/* no more slots: not placed, or a sample was unavailable */
	bool active;	/* auto: an undecided question needs it (decide sets it) */
	long taken;	/* slots taken (retakes not counted): what it planned */
	double level;	/* auto: the level its questions stopped at, NaN: in none */
};

struct zc_sched;
/*
 * auto, at a look: judge the questions on s->all at level (final: the
 * run stops here whatever they say); set runs[i].active for the runs of
 * the undecided ones and runs[i].level for those of questions that stop
 * here; fill s->why. 1 when every question is decided.
 */
typedef int (*zc_sched_decide_fn)(struct zc_sched *s, double level, bool final);

struct zc_sched {
	enum zc_order order;
	unsigned long seed;		/* order = random */
	bool autoreps;			/* repetitions = auto */
	double ci_target_rel;		/* auto without a ratio: 0.03 for 3% */
	long max_reps;			/* auto: at most this many rounds */
	double budget_s;		/* auto: no round begun after this, 0: none */
	int decide;			/* auto: enum zc_decide (config/cfg.h) */
	double threshold;		/* auto: +-T a question is decided at */
	long retake;			/* disturbed samples taken again, at most; < 0: nruns */
	struct zc_sched_run *runs;
	size_t nruns;
	json_t *all;			/* the runs array the questions read */
	/* One sample: repetition rep of run i (a new JSON object). */
	json_t *(*sample)(void *user, size_t i, long rep, long round, long nrounds);
	/* After every sample (the results file is rewritten); may be NULL. */
	void (*after)(void *user);
	zc_sched_decide_fn decided;	/* NULL: zc_sched_decide */
	void *user;
	/* Filled by zc_sched_go. */
	long rounds;			/* rounds begun */
	size_t taken;			/* samples taken, retakes included */
	size_t retaken;			/* disturbed samples taken again */
	const char *stopped;		/* "fixed", "decided", "maximum", "budget", "interrupted",
					 * "closed" */
	char why[1024];
	struct zc_seq seq;		/* auto: the looks */
	double level;			/* auto: the last look's */
	json_t *looks;			/* auto: [{rounds, level, undecided}] */
	json_t *questions;		/* auto: each question's answer where it stopped */
	double elapsed_s;
};

/* The decide function repetitions = auto uses unless told otherwise: the
 * questions of results/results.h (zc_headline_questions), each ratio's
 * interval at the look's level against +-s->threshold; without any, each
 * run's own Gbit/s per core held to s->ci_target_rel. */
int zc_sched_decide(struct zc_sched *s, double level, bool final);

/* Take the slots in order until done, stopped or interrupted (zc_interrupted).
 * Every sample gets "round", "slot", "start_s" (since the first sample,
 * monotonic) and "started_at" (UTC). 0, -EINVAL (no runs, bad order),
 * -ENOMEM */
int zc_sched_go(struct zc_sched *s);
/* What the results file says about the schedule (order, seed, repetitions,
 * rounds, why it stopped). */
json_t *zc_sched_json(const struct zc_sched *s);
/* Frees what zc_sched_go made (looks, questions). */
void zc_sched_done(struct zc_sched *s);

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
