// SPDX-License-Identifier: GPL-2.0
/* The (run, repetition) slots of a run set, taken in order (schedule.h). */
#include "run/schedule.h"
#include "config/cfg.h"
#include "lib/zcbench.h"
#include "results/results.h"
#include "stats/paired.h"
#include "stats/verdict.h"

#include <gsl/gsl_rng.h>
#include <math.h>

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

struct go {
	struct zc_sched *s;
	double t0;
	bool started;
	long retakes_left;
	long nrounds;		/* for the progress line */
};

/* One sample of run i at rep, with its place in the order; NULL when the
 * sample function gave none. */
static json_t *take_one(struct go *g, size_t i, long rep)
{
	struct zc_sched *s = g->s;
	struct zc_sched_run *r = &s->runs[i];
	json_t *smp, *at;
	double t = zc_now();

	if (!g->started) {
		g->t0 = t;
		g->started = true;
	}
	at = utc_now();
	smp = s->sample(s->user, i, rep, rep, g->nrounds);
	if (!smp) {
		json_decref(at);
		return NULL;
	}
	json_object_set_new(smp, "round", json_integer(rep));
	json_object_set_new(smp, "slot", json_integer((json_int_t)s->taken));
	json_object_set_new(smp, "start_s", json_real(t - g->t0));
	json_object_set_new(smp, "started_at", at);
	json_array_append_new(json_object_get(r->run, "samples"), smp);
	s->taken++;
	r->closed |= closes(smp);
	if (s->after)
		s->after(s->user);
	return smp;
}

/* Slot (i, rep): its sample, and while it is disturbed and the run set has
 * retakes left, another at once in its place (the disturbed one stays in
 * the record, left out; the new one says which slot it replaces). */
static void take_slot(struct go *g, size_t i, long rep)
{
	struct zc_sched *s = g->s;
	json_t *smp = take_one(g, i, rep);

	s->runs[i].taken++;
	if (rep + 1 > s->rounds)
		s->rounds = rep + 1;
	while (smp && zc_an_disturbed(smp) && !strcmp(zc_an_str(smp, "status"), "ok") &&
	       g->retakes_left > 0 && !zc_interrupted && !s->runs[i].closed) {
		json_int_t slot = json_integer_value(json_object_get(smp, "slot"));

		json_object_set_new(smp, "retaken", json_true());
		g->retakes_left--;
		s->retaken++;
		smp = take_one(g, i, rep);
		if (smp)
			json_object_set_new(smp, "replaces_slot", json_integer(slot));
	}
}

static bool all_closed(const struct zc_sched *s)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (!s->runs[i].closed)
			return false;
	return true;
}

/* auto: a look after `rounds`; 1 when the run set stops here. */
static int look(struct go *g, long rounds, bool final, const char *why_final)
{
	struct zc_sched *s = g->s;
	zc_sched_decide_fn decide = s->decided ? s->decided : zc_sched_decide;
	double level = zc_seq_look(&s->seq, rounds, final);
	size_t undecided = 0;
	int done;

	if (isnan(level))
		return 0;
	s->level = level;
	done = decide(s, level, final);
	for (size_t i = 0; i < s->nruns; i++)
		undecided += s->runs[i].active && !s->runs[i].closed;
	json_array_append_new(s->looks, json_pack("{s:I,s:f,s:b}", "rounds", (json_int_t)rounds,
						  "level", level, "decided", done == 1));
	if (done == 1) {
		s->stopped = "decided";
		return 1;
	}
	if (final) {
		s->stopped = why_final;
		return 1;
	}
	if (!undecided)		/* every run a question needs is closed */
		s->stopped = "closed";
	return !undecided;
}

int zc_sched_go(struct zc_sched *s)
{
	struct go g = { .s = s };
	long reps = 0;
	size_t *in, *out;
	gsl_rng *rng = NULL;

	s->rounds = 0;
	s->taken = s->retaken = 0;
	s->why[0] = 0;
	s->elapsed_s = 0;
	s->stopped = s->autoreps ? "maximum" : "fixed";
	json_decref(s->looks);
	json_decref(s->questions);
	s->looks = s->autoreps ? json_array() : NULL;
	s->questions = s->autoreps ? json_array() : NULL;
	if (!s->nruns || !zc_order_name(s->order))
		return -EINVAL;
	for (size_t i = 0; i < s->nruns; i++) {
		if (s->runs[i].reps > reps)
			reps = s->runs[i].reps;
		s->runs[i].active = true;
		s->runs[i].taken = 0;
		s->runs[i].level = NAN;
	}
	if (s->autoreps) {
		reps = s->max_reps;
		if (s->order == ZC_ORDER_SEQUENTIAL ||
		    zc_seq_init(&s->seq, ZC_SEQ_LEVEL, ZC_SEQ_FIRST < reps ? ZC_SEQ_FIRST : reps, reps))
			return -EINVAL;
	}
	if (reps < 1)
		return -EINVAL;
	g.nrounds = reps;
	g.retakes_left = s->retake < 0 ? (long)s->nruns : s->retake;
	if (s->order == ZC_ORDER_SEQUENTIAL) {
		for (size_t i = 0; i < s->nruns && !zc_interrupted; i++)
			for (long rep = 0; rep < s->runs[i].reps && !s->runs[i].closed && !zc_interrupted;
			     rep++)
				take_slot(&g, i, rep);
		goto out;
	}
	in = calloc(s->nruns, sizeof(*in));
	out = calloc(s->nruns, sizeof(*out));
	if (s->order == ZC_ORDER_RANDOM && (rng = gsl_rng_alloc(gsl_rng_mt19937)))
		gsl_rng_set(rng, s->seed);
	if (!in || !out || (s->order == ZC_ORDER_RANDOM && !rng)) {
		free(in);
		free(out);
		gsl_rng_free(rng);
		return -ENOMEM;
	}
	for (long round = 0; round < reps && !zc_interrupted; round++) {
		size_t m = 0;

		if (all_closed(s)) {
			s->stopped = "closed";
			snprintf(s->why, sizeof(s->why), "no run can take another sample");
			break;
		}
		/* A budget ends the rounds where the next would begin: its last
		 * look spends what is left. */
		if (s->autoreps && s->budget_s > 0 && round >= s->seq.first &&
		    zc_now() - g.t0 >= s->budget_s) {
			if (s->seq.last < round)
				look(&g, round, true, "budget");
			else if (!(s->decided ? s->decided : zc_sched_decide)(s, s->level, true))
				s->stopped = "budget";	/* looked here already: nothing spent */
			break;
		}
		for (size_t i = 0; i < s->nruns; i++)
			if (!s->runs[i].closed && (s->autoreps ? s->runs[i].active : round < s->runs[i].reps))
				in[m++] = i;
		if (!m && !s->autoreps)
			break;
		zc_order_round(s->order, in, m, (size_t)round, rng, out);
		for (size_t j = 0; j < m && !zc_interrupted; j++)
			if (!s->runs[out[j]].closed)
				take_slot(&g, out[j], round);
		if (s->autoreps && !zc_interrupted &&
		    (zc_seq_is_look(&s->seq, round + 1) || round + 1 == reps) &&
		    look(&g, round + 1, round + 1 == reps, "maximum"))
			break;
	}
	free(in);
	free(out);
	gsl_rng_free(rng);
out:
	if (zc_interrupted)
		s->stopped = "interrupted";
	/* What a reader holds each run's ratios to (results/results.h,
	 * zc_an_run_level). */
	for (size_t i = 0; s->autoreps && i < s->nruns; i++)
		if (!isnan(s->runs[i].level))
			json_object_set_new(s->runs[i].run, "level", json_real(s->runs[i].level));
	s->elapsed_s = g.started ? zc_now() - g.t0 : 0;
	return 0;
}

void zc_sched_done(struct zc_sched *s)
{
	json_decref(s->looks);
	json_decref(s->questions);
	s->looks = s->questions = NULL;
}

/* Without a ratio: run i's Gbit/s per core, its interval half-width at
 * level against the target. 1 tight (or nothing to tighten). */
static int run_tight(struct zc_sched *s, json_t *run, double level, double *w)
{
	static double v[ZC_SAMPLES_MAX], one[ZC_SAMPLES_MAX];
	size_t n = zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX);
	struct zc_change c;

	for (size_t j = 0; j < n; j++)
		one[j] = 1;
	if (!n || zc_change_paired(one, v, n, true, level, &c) || !c.ok) {
		*w = n ? INFINITY : 0;
		return !n;
	}
	*w = zc_ci_half_width_rel(exp(c.lo), exp(c.hi), exp(c.d));
	return *w < s->ci_target_rel;
}

static struct zc_sched_run *sched_run_of(struct zc_sched *s, json_t *run)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (s->runs[i].run == run)
			return &s->runs[i];
	return NULL;
}

int zc_sched_decide(struct zc_sched *s, double level, bool final)
{
	struct zc_question q[64];
	size_t nq = zc_headline_questions(s->all, s->decide == ZC_DECIDE_ALL, q, ZC_ARRAY_SIZE(q));
	size_t open = 0, cant = 0, o = 0;
	char *w = s->why;

	for (size_t i = 0; i < s->nruns; i++)
		s->runs[i].active = false;
	w[0] = 0;
	if (!nq) {
		for (size_t i = 0; i < s->nruns; i++) {
			double hw;
			int tight = run_tight(s, s->runs[i].run, level, &hw);

			if (tight || final)
				s->runs[i].level = level;
			s->runs[i].active = !tight && !final;
			open += !tight;
			if (!tight && o < sizeof(s->why))
				o += (size_t)snprintf(w + o, sizeof(s->why) - o, "%s%s %.1f%% (target %.1f%%)",
						      o ? "; " : "", zc_an_str(s->runs[i].run, "name"),
						      100 * hw, 100 * s->ci_target_rel);
		}
		return !open;
	}
	for (size_t k = 0; k < nq; k++) {
		struct zc_sched_run *a = sched_run_of(s, q[k].num), *b = sched_run_of(s, q[k].den);
		struct zc_ratio r;
		struct zc_verdict v = { .answer = ZC_ANSWER_CANT_TELL };
		json_t *prev = NULL, *qj;
		size_t i;

		/* Asked and answered at an earlier look: it stays answered. */
		json_array_foreach(s->questions, i, qj)
			if (!strcmp(zc_an_str(qj, "question"), q[k].name))
				prev = qj;
		if (prev && !json_is_true(json_object_get(prev, "open")))
			continue;
		zc_an_ratio(q[k].num, q[k].den, &r);
		if (r.ch.ok) {
			zc_change_relevel(&r.ch, level, NAN);
			zc_verdict_judge(&r.ch, s->threshold, &v);
		}
		cant += v.answer == ZC_ANSWER_CANT_TELL;
		if (v.answer == ZC_ANSWER_CANT_TELL && !final) {
			open++;
			if (a)
				a->active = true;
			if (b)
				b->active = true;
			if (o < sizeof(s->why))
				o += (size_t)snprintf(w + o, sizeof(s->why) - o, "%sopen: %s",
						      o ? "; " : "", q[k].name);
			continue;
		}
		/* Where it stops: its runs are read at this look's level. */
		if (a)
			a->level = isnan(a->level) ? level : fmax(a->level, level);
		if (b)
			b->level = isnan(b->level) ? level : fmax(b->level, level);
		qj = json_pack("{s:s,s:s,s:s,s:s,s:I,s:f,s:o,s:o,s:o,s:b}", "question", q[k].name,
			       "numerator", zc_an_str(q[k].num, "name"), "denominator",
			       zc_an_str(q[k].den, "name"), "answer",
			       r.ch.ok ? zc_answer_key(v.answer) : "cant_tell",
			       "rounds", (json_int_t)(r.ch.ok ? r.ch.n : 0), "level", level,
			       "value", zc_an_num(r.ch.ok ? exp(r.ch.d) : NAN),
			       "lo", zc_an_num(r.ch.ok ? exp(r.ch.lo) : NAN),
			       "hi", zc_an_num(r.ch.ok ? exp(r.ch.hi) : NAN), "open", false);
		json_object_set_new(qj, "disturbed_left_out", json_integer((json_int_t)r.disturbed));
		/* Can't tell at the end: about how many rounds in all would. */
		json_object_set_new(qj, "rounds_would_tell",
				    v.answer == ZC_ANSWER_CANT_TELL && v.rounds_for_threshold &&
				    v.rounds_for_threshold != SIZE_MAX ?
				    json_integer((json_int_t)v.rounds_for_threshold) : json_null());
		json_array_append_new(s->questions, qj);
		if (v.answer == ZC_ANSWER_CANT_TELL && o < sizeof(s->why))
			o += (size_t)snprintf(w + o, sizeof(s->why) - o, "%scan't tell: %s",
					      o ? "; " : "", q[k].name);
	}
	return !cant;
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
	json_object_set_new(o, "min_rounds", s->autoreps ? json_integer(ZC_SEQ_FIRST)
							 : json_null());
	json_object_set_new(o, "decide", s->autoreps ? json_string(s->decide == ZC_DECIDE_ALL ?
								   "all" : "fair") : json_null());
	json_object_set_new(o, "threshold_pct", s->autoreps ? json_real(100 * s->threshold) :
			    json_null());
	json_object_set_new(o, "budget_s", s->autoreps && s->budget_s > 0 ? json_real(s->budget_s) :
			    json_null());
	json_object_set_new(o, "looks", s->autoreps && s->looks ? json_copy(s->looks) : json_null());
	json_object_set_new(o, "questions", s->autoreps && s->questions ? json_copy(s->questions) :
			    json_null());
	json_object_set_new(o, "rounds", json_integer(s->rounds));
	json_object_set_new(o, "samples", json_integer((json_int_t)s->taken));
	json_object_set_new(o, "retaken", json_integer((json_int_t)s->retaken));
	json_object_set_new(o, "elapsed_s", json_real(s->elapsed_s));
	json_object_set_new(o, "stopped", json_string(s->stopped ? s->stopped : "running"));
	json_object_set_new(o, "why", s->why[0] ? json_string(s->why) : json_null());
	return o;
}

int zc_sched_keys_agree(const struct zc_cfg *cfg, size_t n, const char *path, char *err,
			size_t len)
{
	static const char *const keys[] = { "order", "order_seed", "tune", "ci_target",
					    "max_repetitions", "decide", "budget", "retake_disturbed" };

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
