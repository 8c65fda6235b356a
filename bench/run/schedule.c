// SPDX-License-Identifier: GPL-2.0
/* The (run, repetition) slots of a run set, taken in order (schedule.h). */
#include "run/schedule.h"
#include "config/cfg.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>
#include <time.h>

/* "2026-12-03T12:34:56.789Z": when the sample began, for people and plots. */
static json_t *utc_now(void)
{
	struct timeval tv;
	struct tm tm;
	char buf[64];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	return json_sprintf("%s.%03ldZ", buf, (long)(tv.tv_usec / 1000));
}

/* A sample that ends its run's slots: the mode cannot work here, or Ctrl-C. */
static bool closes(json_t *sample)
{
	const char *st = json_string_value(json_object_get(sample, "status"));

	return st && (!strcmp(st, "unavailable") || !strcmp(st, "interrupted"));
}

static bool all_closed(const struct zc_sched *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (!s->runs[i].closed)
			return false;
	return true;
}

int zc_sched_go(struct zc_sched *s)
{
	long reps = 0;
	size_t nslots;
	struct zc_slot *slots;
	double t0 = 0;
	int ret;

	s->rounds = 0;
	s->taken = 0;
	s->why[0] = 0;
	s->stopped = s->autoreps ? "maximum" : "fixed";
	if (!s->nruns)
		return -EINVAL;
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].reps > reps)
			reps = s->runs[i].reps;
	if (s->autoreps)
		reps = s->max_reps;
	if (reps < 1)
		return -EINVAL;
	nslots = s->nruns * (size_t)reps;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	ret = zc_order_fill(s->order, s->nruns, (size_t)reps, s->seed, slots);
	if (ret) {
		free(slots);
		return ret;
	}
	for (size_t k = 0; k < nslots && !zc_interrupted; k++) {
		struct zc_sched_run *r = &s->runs[slots[k].run];
		long rep = (long)slots[k].rep;
		json_t *smp, *at;
		double t;

		/*
		 * A round ends where the next begins (interleaved and random
		 * take rounds in turn; auto needs one of them, see cfg.c).
		 */
		if (s->autoreps && k && k % s->nruns == 0 && k / s->nruns >= ZC_AUTO_MIN_ROUNDS &&
		    s->tight(s->all, s->ci_target_rel, s->why, sizeof(s->why))) {
			s->stopped = "target";
			break;
		}
		if (all_closed(s)) {
			s->stopped = "closed";
			snprintf(s->why, sizeof(s->why), "no run can take another sample");
			break;
		}
		if (r->closed || (!s->autoreps && rep >= r->reps))
			continue;
		if (rep + 1 > s->rounds)
			s->rounds = rep + 1;
		t = zc_now();
		if (!s->taken)
			t0 = t;
		at = utc_now();
		smp = s->sample(s->user, slots[k].run, rep, rep, reps);
		if (!smp) {
			json_decref(at);
			continue;
		}
		json_object_set_new(smp, "round", json_integer(rep));
		json_object_set_new(smp, "slot", json_integer((json_int_t)s->taken));
		json_object_set_new(smp, "start_s", json_real(t - t0));
		json_object_set_new(smp, "started_at", at);
		json_array_append_new(json_object_get(r->run, "samples"), smp);
		s->taken++;
		r->closed |= closes(smp);
		if (s->after)
			s->after(s->user);
	}
	/* The last round may be the one that made it. */
	if (s->autoreps && !strcmp(s->stopped, "maximum") && !zc_interrupted &&
	    s->tight(s->all, s->ci_target_rel, s->why, sizeof(s->why)))
		s->stopped = "target";
	else if (s->autoreps && !strcmp(s->stopped, "maximum") && !zc_interrupted)
		s->tight(s->all, s->ci_target_rel, s->why, sizeof(s->why));
	if (zc_interrupted)
		s->stopped = "interrupted";
	free(slots);
	return 0;
}

json_t *zc_sched_json(const struct zc_sched *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "order", json_string(zc_order_name(s->order)));
	json_object_set_new(o, "order_seed", s->order == ZC_ORDER_RANDOM ?
				json_integer((json_int_t)s->seed) : json_null());
	json_object_set_new(o, "repetitions", s->autoreps ? json_string("auto") : json_null());
	json_object_set_new(o, "ci_target_pct", s->autoreps ? json_real(100 * s->ci_target_rel)
							   : json_null());
	json_object_set_new(o, "max_repetitions", s->autoreps ? json_integer(s->max_reps)
							      : json_null());
	json_object_set_new(o, "min_rounds", s->autoreps ? json_integer(ZC_AUTO_MIN_ROUNDS)
							 : json_null());
	json_object_set_new(o, "rounds", json_integer(s->rounds));
	json_object_set_new(o, "samples", json_integer((json_int_t)s->taken));
	json_object_set_new(o, "stopped", json_string(s->stopped ? s->stopped : "running"));
	json_object_set_new(o, "why", s->why[0] ? json_string(s->why) : json_null());
	return o;
}

int zc_sched_keys_agree(const struct zc_cfg *cfg, size_t n, const char *path, char *err,
			size_t len)
{
	static const char *const keys[] = { "order", "order_seed", "tune", "ci_target",
					    "max_repetitions" };

	for (size_t i = 1; i < n; i++) {
		for (size_t k = 0; k < ZC_ARRAY_SIZE(keys); k++) {
			const struct zc_opt *o = zc_opt_find(keys[k]);
			char va[64], vb[64];

			zc_opt_format(o, &cfg[0], va, sizeof(va));
			zc_opt_format(o, &cfg[i], vb, sizeof(vb));
			if (!strcmp(va, vb))
				continue;
			snprintf(err, len, "%s: key '%s': [run %s] has %s, [run %s] %s: it is the run "
				 "set's, set it once in [workload]", path, keys[k], cfg[0].name, va,
				 cfg[i].name, vb);
			return -EINVAL;
		}
		if ((cfg[0].repetitions == ZC_REPS_AUTO) != (cfg[i].repetitions == ZC_REPS_AUTO)) {
			snprintf(err, len, "%s: key 'repetitions': [run %s] and [run %s] disagree on "
				 "auto: it is the run set's, set it once in [workload]", path,
				 cfg[0].name, cfg[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

json_t *zc_sched_invocation_id(void)
{
	unsigned char b[12];
	char hex[32];

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b))
		return json_sprintf("%ld-%ld", (long)getpid(), (long)time(NULL));
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(hex + 2 * i, 3, "%02x", b[i]);
	return json_string(hex);
}
