/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Disturbed samples (issue 14, item 3): at the window edges the controller
 * reads every task's CPU time (/proc/PID/task/TID/stat) beside /proc/stat;
 * the DUT's cores' busy time that neither the DUT's threads nor the irq and
 * softirq work there account for is another task's (lib/foreign.c). Above a
 * threshold the sample is marked disturbed, with the figure and the tasks
 * seen on those cores, and summaries and headlines leave it out.
 */
#ifndef ZC_DISTURBED_H
#define ZC_DISTURBED_H

#include "run/controller.h"

#include <jansson.h>
#include <stdint.h>
#include <sys/types.h>

/* Tasks of the machine read at one edge; more are counted, not kept. */
#define ZC_TASKS_MAX 16384

struct zc_task_time {
	pid_t tid, tgid, ppid;
	int cpu;			/* the CPU it last ran on */
	unsigned long long start;	/* start time in ticks: tells a reused tid */
	unsigned long long ticks;	/* utime + stime, in clock ticks */
	char comm[16];
};

struct zc_task_edge {
	double t_s;			/* zc_now() when the reading began */
	int n;
	bool truncated;			/* more tasks than ZC_TASKS_MAX */
	struct zc_task_time t[ZC_TASKS_MAX];	/* sorted by tid */
};

/* Every task's CPU time now: 0 or -errno (no /proc). */
int zc_tasks_read(struct zc_task_edge *e);

/*
 * The sample's "foreign_busy" and "disturbed" from the CPU edges a, b and the
 * task edges ta, tb of one window (read right after them: the share is of the
 * time between the task edges, which a late controller stretches beyond the
 * configured window_s, kept as a floor): role_pid[r] is each role's process (0: not
 * in the run), the DUT's threads are those of role_pid[dut] and its
 * descendants; threshold_share is the share of the DUT cores' window above
 * which the sample is disturbed. With a or ta missing (NULL) the figure is
 * unknown: "foreign_busy" null with a reason, not disturbed.
 */
void zc_disturbed_json(json_t *sample, const struct zc_cpu_edge *a, const struct zc_cpu_edge *b,
		       const struct zc_task_edge *ta, const struct zc_task_edge *tb,
		       const pid_t role_pid[ZC_ROLE_NR], const struct zc_placement *pl, int dut,
		       double window_s, double threshold_share);

#endif
