// SPDX-License-Identifier: GPL-2.0
/*
 * The run set's schedule (run/schedule.h) driven by a fake sample function:
 * the order the slots are taken in (interleaved as documented, sequential,
 * random by its seed), what each sample records, runs with fewer repetitions
 * or closed by an unavailable sample, Ctrl-C; and repetitions = auto on
 * fixture figures with the real tightness test (results/headline.c): tight
 * pairs stop at the first round allowed, noisy ones at the maximum.
 */
#include "zc_test.h"

#include "config/cfg.h"
#include "results/results.h"
#include "run/schedule.h"

#include <math.h>
#include <string.h>

#define MAXRUNS 4
#define MAXSLOTS 256

struct fake {
	size_t calls;
	size_t run[MAXSLOTS];
	long rep[MAXSLOTS];
	/* auto: gbps_per_core of run i at repetition r (fixture figures) */
	const double (*gpc)[40];
	const char *unavailable_run;	/* this run's samples say unavailable */
	json_t **runs;
	size_t interrupt_after;		/* 0: never */
};

static json_t *fake_sample(void *user, size_t i, long rep, long round, long nrounds)
{
	struct fake *f = user;
	json_t *s = json_pack("{s:i,s:s}", "rep", (int)rep, "status", "ok");

	(void)round, (void)nrounds;
	f->run[f->calls] = i;
	f->rep[f->calls] = rep;
	f->calls++;
	if (f->gpc)
		json_object_set_new(s, "gbps_per_core", json_real(f->gpc[i][rep]));
	if (f->unavailable_run && !strcmp(zc_an_str(f->runs[i], "name"), f->unavailable_run))
		json_object_set_new(s, "status", json_string("unavailable"));
	if (f->interrupt_after && f->calls == f->interrupt_after)
		zc_interrupted = 1;
	return s;
}

/* A run JSON as run.c makes it: key, dut, options.order, empty samples. */
static json_t *mkrun(const char *name, const char *proxy)
{
	return json_pack("{s:s,s:{s:s,s:s,s:s,s:s,s:i,s:i,s:i},s:s,s:{s:s},s:[]}", "name", name,
			 "key", "topology", "proxy", "source", "send", "proxy", proxy, "sink", "recv",
			 "chunk", 65536, "pipe_size", 1048576, "connections", 1, "dut", "proxy",
			 "options", "order", "interleaved", "samples");
}

struct setup {
	struct zc_sched s;
	struct zc_sched_run sr[MAXRUNS];
	json_t *all;
	json_t *runs[MAXRUNS];
	struct fake f;
};

static void setup(struct setup *u, size_t n, const long *reps, enum zc_order order)
{
	static const char *const names[] = { "proxy-copy", "proxy-splice", "third", "fourth" };
	static const char *const modes[] = { "copy", "splice", "uring-copy", "uring-splice" };

	memset(u, 0, sizeof(*u));
	u->all = json_array();
	for (size_t i = 0; i < n; i++) {
		u->runs[i] = mkrun(names[i], modes[i]);
		json_array_append(u->all, u->runs[i]);
		u->sr[i] = (struct zc_sched_run){ .run = u->runs[i], .reps = reps[i] };
	}
	u->f.runs = u->runs;
	u->s = (struct zc_sched){ .order = order, .seed = 7, .runs = u->sr, .nruns = n,
				  .all = u->all, .sample = fake_sample, .tight = zc_headline_tight,
				  .user = &u->f };
	zc_interrupted = 0;
}

static void teardown(struct setup *u)
{
	for (size_t i = 0; i < u->s.nruns; i++)
		json_decref(u->runs[i]);
	json_decref(u->all);
	zc_interrupted = 0;
}

static json_t *sample_of(struct setup *u, size_t run, long rep)
{
	json_t *s;
	size_t i;

	json_array_foreach(json_object_get(u->runs[run], "samples"), i, s)
		if (json_integer_value(json_object_get(s, "rep")) == rep)
			return s;
	return NULL;
}

/* README: "interleaved runs repetition 1 of every run, then repetition 2". */
static void interleaved_documented_order(void **state)
{
	const long reps[] = { 3, 3, 3 };
	struct setup u;
	double last = -1;

	(void)state;
	setup(&u, 3, reps, ZC_ORDER_INTERLEAVED);
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_int_equal(u.f.calls, 9);
	for (size_t k = 0; k < 9; k++) {
		json_t *s = sample_of(&u, u.f.run[k], u.f.rep[k]);

		assert_int_equal(u.f.run[k], k % 3);
		assert_int_equal(u.f.rep[k], (long)(k / 3));
		/* Each sample says where it was in the order and when it began. */
		assert_non_null(s);
		assert_int_equal(json_integer_value(json_object_get(s, "slot")), k);
		assert_int_equal(json_integer_value(json_object_get(s, "round")), k / 3);
		assert_true(json_number_value(json_object_get(s, "start_s")) >= last);
		last = json_number_value(json_object_get(s, "start_s"));
		assert_int_equal(strlen(json_string_value(json_object_get(s, "started_at"))), 24);
	}
	assert_string_equal(u.s.stopped, "fixed");
	assert_int_equal(u.s.rounds, 3);
	assert_int_equal(u.s.taken, 9);
	teardown(&u);
}

static void sequential_and_random(void **state)
{
	const long reps[] = { 2, 2, 2 };
	size_t first[6];
	struct setup u;

	(void)state;
	setup(&u, 3, reps, ZC_ORDER_SEQUENTIAL);
	assert_int_equal(zc_sched_go(&u.s), 0);
	for (size_t k = 0; k < 6; k++) {
		assert_int_equal(u.f.run[k], k / 2);
		assert_int_equal(u.f.rep[k], (long)(k % 2));
	}
	teardown(&u);
	/* Random: every round holds each run once; the seed fixes the order. */
	for (int pass = 0; pass < 2; pass++) {
		setup(&u, 3, reps, ZC_ORDER_RANDOM);
		assert_int_equal(zc_sched_go(&u.s), 0);
		for (size_t round = 0; round < 2; round++) {
			unsigned seen = 0;

			for (size_t k = 3 * round; k < 3 * round + 3; k++) {
				assert_int_equal(u.f.rep[k], (long)round);
				seen |= 1u << u.f.run[k];
			}
			assert_int_equal(seen, 7);
		}
		for (size_t k = 0; k < 6; k++) {
			if (pass)
				assert_int_equal(u.f.run[k], first[k]);
			first[k] = u.f.run[k];
		}
		teardown(&u);
	}
}

static void fewer_reps_closed_and_interrupted(void **state)
{
	const long reps[] = { 3, 1, 3 }, two[] = { 2, 2 };
	struct setup u;

	(void)state;
	/* A run with one repetition takes part in the first round only. */
	setup(&u, 3, reps, ZC_ORDER_INTERLEAVED);
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_int_equal(u.f.calls, 7);
	assert_int_equal(json_array_size(json_object_get(u.runs[1], "samples")), 1);
	assert_int_equal(u.f.run[3], 0);
	assert_int_equal(u.f.rep[3], 1);
	teardown(&u);
	/* An unavailable sample ends that run's slots, not the others'. */
	setup(&u, 3, reps, ZC_ORDER_INTERLEAVED);
	u.f.unavailable_run = "proxy-copy";
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_int_equal(json_array_size(json_object_get(u.runs[0], "samples")), 1);
	assert_int_equal(json_array_size(json_object_get(u.runs[2], "samples")), 3);
	assert_true(u.sr[0].closed);
	teardown(&u);
	/* Ctrl-C after the third sample: nothing more is taken. */
	setup(&u, 2, two, ZC_ORDER_INTERLEAVED);
	u.f.interrupt_after = 3;
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_int_equal(u.f.calls, 3);
	assert_string_equal(u.s.stopped, "interrupted");
	teardown(&u);
}

/*
 * Fixture figures (Gbps per core), copy then splice, per repetition. Tight:
 * every splice/copy ratio within 1.99..2.01 (half-width well under 3%).
 * Noisy: the ratio swings between about 1.4 and 2.6, never tight.
 */
static const double tight_gpc[2][40] = {
	{ 10.0, 12.0, 9.0, 11.0, 10.5, 9.5, 10.2, 11.8, 9.1, 10.9 },
	{ 20.0, 24.1, 17.95, 22.1, 21.0, 19.0, 20.3, 23.7, 18.2, 21.8 },
};
static const double noisy_gpc[2][40] = {
	{ 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10 },
	{ 14, 26, 15, 25, 14.5, 26, 15.5, 24.5, 14, 26, 15, 25 },
};

static void auto_stops_by_target_or_maximum(void **state)
{
	const long reps[] = { 0, 0 };
	struct setup u;
	json_t *j;

	(void)state;
	setup(&u, 2, reps, ZC_ORDER_INTERLEAVED);
	u.s.autoreps = true;
	u.s.ci_target_rel = 0.03;
	u.s.max_reps = 8;
	u.f.gpc = tight_gpc;
	assert_int_equal(zc_sched_go(&u.s), 0);
	/* Tight from the start: it stops at the first round it may. */
	assert_string_equal(u.s.stopped, "target");
	assert_int_equal(u.s.rounds, ZC_AUTO_MIN_ROUNDS);
	assert_int_equal(u.f.calls, 2 * ZC_AUTO_MIN_ROUNDS);
	assert_non_null(strstr(u.s.why, "splice/copy proxy"));
	j = zc_sched_json(&u.s);
	assert_string_equal(json_string_value(json_object_get(j, "stopped")), "target");
	assert_string_equal(json_string_value(json_object_get(j, "repetitions")), "auto");
	assert_int_equal(json_integer_value(json_object_get(j, "rounds")), ZC_AUTO_MIN_ROUNDS);
	json_decref(j);
	teardown(&u);

	setup(&u, 2, reps, ZC_ORDER_INTERLEAVED);
	u.s.autoreps = true;
	u.s.ci_target_rel = 0.03;
	u.s.max_reps = 8;
	u.f.gpc = noisy_gpc;
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_string_equal(u.s.stopped, "maximum");
	assert_int_equal(u.s.rounds, 8);
	assert_int_equal(u.f.calls, 16);
	assert_non_null(strstr(u.s.why, "still wide"));
	teardown(&u);

	/* A wide target is met by the noisy pairs too, after enough rounds. */
	setup(&u, 2, reps, ZC_ORDER_INTERLEAVED);
	u.s.autoreps = true;
	u.s.ci_target_rel = 0.5;
	u.s.max_reps = 8;
	u.f.gpc = noisy_gpc;
	assert_int_equal(zc_sched_go(&u.s), 0);
	assert_string_equal(u.s.stopped, "target");
	assert_true(u.s.rounds < 8);
	teardown(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interleaved_documented_order),
		cmocka_unit_test(sequential_and_random),
		cmocka_unit_test(fewer_reps_closed_and_interrupted),
		cmocka_unit_test(auto_stops_by_target_or_maximum),
	};

	return zc_run_tests(tests, NULL, NULL);
}
