// SPDX-License-Identifier: GPL-2.0
/*
 * Disturbed samples from made-up edges (run/disturbed.c): the foreign figure
 * is the DUT cores' busy time less the DUT's threads (its process and its
 * children, wherever they ran) and the irq/softirq there; tasks seen on the
 * DUT's cores are listed busiest first with their role; another role placed
 * on the DUT's cores on purpose is not foreign; a DUT gone by the end edge or
 * a missing edge gives no figure; a late end edge stretches the window.
 * zc_tasks_read on this machine finds this very thread.
 */
#include "zc_test.h"

#include "run/disturbed.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct zc_cpu_edge ca, cb;
static struct zc_task_edge ta, tb;
static struct zc_placement pl;
static double hz;

static void task(struct zc_task_edge *e, pid_t tid, pid_t tgid, pid_t ppid, int cpu, double s,
		 const char *comm)
{
	struct zc_task_time *t = &e->t[e->n++];

	*t = (struct zc_task_time){ .tid = tid, .tgid = tgid, .ppid = ppid, .cpu = cpu,
				    .start = 7, .ticks = (unsigned long long)llround(s * hz) };
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/*
 * CPU 1 is the DUT's: busy 0.9 s of a 1 s window, 0.1 s of it softirq. The
 * proxy (pid 100, a worker thread 101 and a child process 120) ran 0.5 s
 * there; "hog" (pid 300) 0.3 s; the sink (pid 200) ran on CPU 0.
 */
static void setup_edges(void)
{
	hz = (double)sysconf(_SC_CLK_TCK);
	memset(&ca, 0, sizeof(ca));
	memset(&cb, 0, sizeof(cb));
	ca.n = cb.n = 2;
	ca.ok[0] = ca.ok[1] = cb.ok[0] = cb.ok[1] = true;
	ca.cs[1] = (struct zc_cpustat){ .user = 10, .system = 5, .softirq = 1, .idle = 100 };
	cb.cs[1] = (struct zc_cpustat){ .user = 10.4, .system = 5.4, .softirq = 1.1, .idle = 100.1 };
	memset(&pl, 0, sizeof(pl));
	pl.nworkers[ZC_ROLE_PROXY] = 1;
	pl.wcpu[ZC_ROLE_PROXY][0] = 1;
	pl.dut_alone = true;
	ta.n = tb.n = 0;
	ta.t_s = 10;
	tb.t_s = 11;
	/* sorted by tid, as zc_tasks_read leaves them */
	task(&ta, 1, 1, 0, 0, 5, "init");
	task(&ta, 100, 100, 1, 1, 1.0, "zcbench");
	task(&ta, 101, 100, 1, 1, 2.0, "zcbench-w0");
	task(&ta, 120, 120, 100, 1, 0.0, "helper");
	task(&ta, 200, 200, 1, 0, 3.0, "zcbench");
	task(&ta, 300, 300, 1, 1, 4.0, "hog");
	task(&tb, 1, 1, 0, 0, 5, "init");
	task(&tb, 100, 100, 1, 1, 1.05, "zcbench");
	task(&tb, 101, 100, 1, 1, 2.4, "zcbench-w0");
	task(&tb, 120, 120, 100, 1, 0.05, "helper");
	task(&tb, 200, 200, 1, 0, 3.9, "zcbench");
	task(&tb, 300, 300, 1, 1, 4.3, "hog");
}

static const pid_t pids[ZC_ROLE_NR] = { [ZC_ROLE_SOURCE] = 400, [ZC_ROLE_PROXY] = 100,
					[ZC_ROLE_SINK] = 200 };

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

static void test_figure(void **st)
{
	json_t *s = json_object(), *fb, *o;

	(void)st;
	setup_edges();
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	fb = json_object_get(s, "foreign_busy");
	assert_non_null(fb);
	/* 0.9 busy - 0.5 the DUT's (0.05 + 0.4 + its child's 0.05) - 0.1 softirq */
	assert_float_equal(num(fb, "core_busy_s"), 0.9, 1e-9);
	assert_float_equal(num(fb, "dut_threads_s"), 0.5, 1.5 / hz);
	assert_float_equal(num(fb, "irq_softirq_s"), 0.1, 1e-9);
	assert_float_equal(num(fb, "busy_s"), 0.3, 1.5 / hz);
	assert_float_equal(num(fb, "share"), 0.3, 1.5 / hz);
	assert_true(json_is_true(json_object_get(s, "disturbed")));
	/* the hog is listed; the sink ran elsewhere; the DUT is not "other" */
	assert_int_equal(json_array_size(json_object_get(fb, "others")), 1);
	o = json_array_get(json_object_get(fb, "others"), 0);
	assert_int_equal(json_integer_value(json_object_get(o, "pid")), 300);
	assert_string_equal(json_string_value(json_object_get(o, "comm")), "hog");
	assert_null(json_object_get(o, "role"));
	json_decref(s);

	/* Under the threshold: recorded, not disturbed. */
	s = json_object();
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.5);
	assert_false(json_is_true(json_object_get(s, "disturbed")));
	assert_float_equal(num(json_object_get(s, "foreign_busy"), "share"), 0.3, 1.5 / hz);
	json_decref(s);

	/* A controller that read the end edge 1 s late: the share is of 2 s. */
	tb.t_s = 12;
	s = json_object();
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	assert_float_equal(num(json_object_get(s, "foreign_busy"), "window_s"), 2, 1e-9);
	assert_float_equal(num(json_object_get(s, "foreign_busy"), "share"), 0.15, 1.5 / hz);
	json_decref(s);
}

/* The sink placed on the DUT's CPU on purpose (dut_alone false) is the run's
 * design: listed with its role, not foreign. Placed elsewhere but found
 * there, it is foreign. */
static void test_roles(void **st)
{
	json_t *s = json_object(), *fb;

	(void)st;
	setup_edges();
	tb.t[4].cpu = 1;	/* the sink, last seen on CPU 1 */
	cb.cs[1].user += 0.9;	/* its 0.9 s there */
	pl.dut_alone = false;
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	fb = json_object_get(s, "foreign_busy");
	assert_float_equal(num(fb, "roles_s"), 0.9, 1.5 / hz);
	assert_float_equal(num(fb, "busy_s"), 0.3, 2.5 / hz);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
		json_object_get(fb, "others"), 0), "role")), "sink");
	json_decref(s);

	s = json_object();
	pl.dut_alone = true;
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	/* 1.8 - 0.5 - 0.1 = 1.2 s, clamped to the 1 s window of one core */
	assert_float_equal(num(json_object_get(s, "foreign_busy"), "busy_s"), 1.0, 1e-9);
	assert_float_equal(num(json_object_get(s, "foreign_busy"), "share"), 1.0, 1e-9);
	json_decref(s);
}

static void test_unknown(void **st)
{
	json_t *s = json_object();

	(void)st;
	setup_edges();
	zc_disturbed_json(s, NULL, &cb, NULL, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	assert_true(json_is_null(json_object_get(s, "foreign_busy")));
	assert_non_null(json_string_value(json_object_get(s, "foreign_busy_reason")));
	assert_true(json_is_false(json_object_get(s, "disturbed")));
	json_decref(s);

	/* The DUT gone by the end edge: no figure, rather than all foreign. */
	s = json_object();
	memmove(&tb.t[1], &tb.t[2], (size_t)(tb.n - 2) * sizeof(tb.t[0]));
	tb.n--;
	zc_disturbed_json(s, &ca, &cb, &ta, &tb, pids, &pl, ZC_ROLE_PROXY, 1.0, 0.02);
	assert_true(json_is_null(json_object_get(s, "foreign_busy")));
	assert_true(json_is_false(json_object_get(s, "disturbed")));
	json_decref(s);
}

static void test_read(void **st)
{
	static struct zc_task_edge e;
	const struct zc_task_time *me = NULL;

	(void)st;
	assert_int_equal(zc_tasks_read(&e), 0);
	assert_true(e.n > 1);
	for (int i = 0; i < e.n; i++) {
		if (i)
			assert_true(e.t[i - 1].tid < e.t[i].tid);
		if (e.t[i].tid == getpid())
			me = &e.t[i];
	}
	assert_non_null(me);
	assert_int_equal(me->tgid, getpid());
	assert_int_equal(me->ppid, getppid());
	assert_true(me->cpu >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_figure),
		cmocka_unit_test(test_roles),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_read),
	};

	return zc_run_tests(tests, NULL, NULL);
}
