// SPDX-License-Identifier: GPL-2.0
/*
 * Disturbed samples: /proc/stat counts another process's time on the DUT's
 * core as the DUT's busy time, so a neighbour looks like the DUT working
 * harder (its Gbps per core falls while its throughput does not move). The
 * controller reads every task's utime+stime at both window edges, right
 * after the CPU edges; what the DUT's cores were busy beyond the DUT's own
 * threads and the irq/softirq work there is foreign (lib/foreign.c).
 */
#include "run/disturbed.h"
#include "lib/foreign.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* TID/stat under /proc/PID/task (dirfd) into t: 0 or -errno (gone, or unreadable). */
static int task_read(int dirfd, const char *name, pid_t tgid, struct zc_task_time *t)
{
	char buf[1024], *p, *e;
	unsigned long long v[40];
	ssize_t len;
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC), k;

	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return len < 0 ? -errno : -ENODATA;
	buf[len] = 0;
	/* The name may hold spaces and parentheses: fields follow the last ')'. */
	p = strchr(buf, '(');
	e = strrchr(buf, ')');
	if (!p || !e || e < p)
		return -EPROTO;
	memset(t, 0, sizeof(*t));
	t->tid = (pid_t)strtol(buf, NULL, 10);
	t->tgid = tgid;
	snprintf(t->comm, sizeof(t->comm), "%.*s", (int)(e - p - 1), p + 1);
	/* Field 3 is the state (a letter), numbers from field 4 (ppid) on. */
	p = e + 2;
	if (*p)
		p++;
	for (k = 4; k <= 39; k++) {
		char *end;

		v[k] = strtoull(p, &end, 10);
		if (end == p)
			return -EPROTO;
		p = end;
	}
	t->ppid = (pid_t)v[4];
	t->ticks = v[14] + v[15];
	t->start = v[22];
	t->cpu = (int)v[39];
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	pid_t x = ((const struct zc_task_time *)a)->tid, y = ((const struct zc_task_time *)b)->tid;

	return (x > y) - (x < y);
}

int zc_tasks_read(struct zc_task_edge *e)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;

	e->t_s = zc_now();
	e->n = 0;
	e->truncated = false;
	if (!proc)
		return -errno;
	while ((d = readdir(proc))) {
		char path[64];
		pid_t tgid = (pid_t)strtol(d->d_name, NULL, 10);
		DIR *task;
		struct dirent *t;

		if (tgid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
		task = opendir(path);
		if (!task)
			continue;	/* gone since readdir */
		while ((t = readdir(task))) {
			if (t->d_name[0] < '1' || t->d_name[0] > '9')
				continue;
			if (e->n == ZC_TASKS_MAX) {
				e->truncated = true;
				break;
			}
			snprintf(path, sizeof(path), "%.20s/stat", t->d_name);
			if (!task_read(dirfd(task), path, tgid, &e->t[e->n]))
				e->n++;
		}
		closedir(task);
	}
	closedir(proc);
	qsort(e->t, (size_t)e->n, sizeof(e->t[0]), by_tid);
	return 0;
}

static const struct zc_task_time *find(const struct zc_task_edge *e, pid_t tid)
{
	struct zc_task_time key = { .tid = tid };

	return bsearch(&key, e->t, (size_t)e->n, sizeof(e->t[0]), by_tid);
}

/* Is process tgid pid or one of its descendants (through edge e's ppids)? */
static bool descends(const struct zc_task_edge *e, pid_t tgid, pid_t pid)
{
	for (int depth = 0; depth < 32 && tgid > 1; depth++) {
		const struct zc_task_time *m;

		if (tgid == pid)
			return true;
		m = find(e, tgid);	/* the main thread's tid is the tgid */
		if (!m)
			return false;
		tgid = m->ppid;
	}
	return false;
}

/* The role whose process tree holds the task, or -1. */
static int task_role(const struct zc_task_edge *e, const struct zc_task_time *t,
		     const pid_t role_pid[ZC_ROLE_NR])
{
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (role_pid[r] > 0 && descends(e, t->tgid, role_pid[r]))
			return r;
	return -1;
}

struct other {
	const struct zc_task_time *t;
	double busy_s;
	int role;
};

static int by_busy_desc(const void *a, const void *b)
{
	double x = ((const struct other *)a)->busy_s, y = ((const struct other *)b)->busy_s;

	return (x < y) - (x > y);
}

/* The tasks listed as seen on the DUT's cores, the busiest first. */
#define OTHERS_LISTED 8

static json_t *unknown(json_t *sample, const char *why)
{
	json_object_set_new(sample, "foreign_busy", json_null());
	json_object_set_new(sample, "foreign_busy_reason", json_string(why));
	json_object_set_new(sample, "disturbed", json_false());
	return NULL;
}

void zc_disturbed_json(json_t *sample, const struct zc_cpu_edge *a, const struct zc_cpu_edge *b,
		       const struct zc_task_edge *ta, const struct zc_task_edge *tb,
		       const pid_t role_pid[ZC_ROLE_NR], const struct zc_placement *pl, int dut,
		       double window_s, double threshold_share)
{
	static struct other others[ZC_TASKS_MAX];
	const int *cpus = pl->wcpu[dut];
	int ncpus = pl->nworkers[dut], nothers = 0;
	double hz = (double)sysconf(_SC_CLK_TCK), core_busy_s = 0, irq_s = 0, dut_s = 0, roles_s = 0;
	struct zc_foreign f;
	json_t *fb, *list, *cj;

	if (!a || !b || !ta || !tb) {
		unknown(sample, "the DUT's cores were not read at both window edges");
		return;
	}
	if (ncpus < 1 || !(hz > 0)) {
		unknown(sample, "the DUT has no placed CPU");
		return;
	}
	/* A DUT that had exited by the end edge (the controller read late)
	 * leaves its time out of the tasks: unknown rather than all foreign. */
	if (role_pid[dut] <= 0 || !find(ta, role_pid[dut]) || !find(tb, role_pid[dut])) {
		unknown(sample, "the DUT's process was not there at both window edges");
		return;
	}
	if (tb->t_s - ta->t_s > window_s)
		window_s = tb->t_s - ta->t_s;
	for (int i = 0; i < ncpus; i++) {
		struct zc_cpustat d;
		int cpu = cpus[i];

		if (cpu < 0 || cpu >= a->n || cpu >= b->n || !a->ok[cpu] || !b->ok[cpu]) {
			unknown(sample, "a DUT CPU is missing from /proc/stat");
			return;
		}
		zc_cpustat_delta(&a->cs[cpu], &b->cs[cpu], &d);
		core_busy_s += zc_cpustat_busy(&d);
		irq_s += d.irq + d.softirq;
	}
	for (int i = 0; i < tb->n; i++) {
		const struct zc_task_time *t = &tb->t[i], *p = find(ta, t->tid);
		/* A task born in the window ran only in it. */
		double s = (p && p->start == t->start ? (double)(t->ticks - p->ticks)
						       : (double)t->ticks) / hz;
		bool seen = zc_has_cpu(cpus, ncpus, t->cpu) || (p && zc_has_cpu(cpus, ncpus, p->cpu));
		int role = task_role(tb, t, role_pid);

		if (role == dut) {
			/* Wherever it ran: a DUT thread elsewhere can only hide foreign time. */
			dut_s += s;
			continue;
		}
		if (!seen || !(s > 0))
			continue;
		/* Another role placed on the DUT's cores on purpose (the placement
		 * says dut_alone false) is the run's design, not a disturbance. */
		if (role >= 0 && !pl->dut_alone)
			roles_s += s;
		others[nothers++] = (struct other){ .t = t, .busy_s = s, .role = role };
	}
	zc_foreign_busy(core_busy_s, dut_s + roles_s, irq_s, window_s, ncpus, threshold_share, &f);
	qsort(others, (size_t)nothers, sizeof(others[0]), by_busy_desc);
	list = json_array();
	for (int i = 0; i < nothers && i < OTHERS_LISTED; i++) {
		json_t *o = json_pack("{s:i,s:i,s:s,s:f}", "pid", (int)others[i].t->tgid, "tid",
				      (int)others[i].t->tid, "comm", others[i].t->comm, "busy_s",
				      others[i].busy_s);

		if (others[i].role >= 0)
			json_object_set_new(o, "role", json_string(zc_role_names[others[i].role]));
		json_array_append_new(list, o);
	}
	cj = json_array();
	for (int i = 0; i < ncpus; i++)
		json_array_append_new(cj, json_integer(cpus[i]));
	fb = json_pack("{s:o,s:o,s:f,s:f,s:o,s:f,s:f,s:f,s:f,s:b,s:o}",
		       "busy_s", isfinite(f.busy_s) ? json_real(f.busy_s) : json_null(),
		       "share", isfinite(f.share) ? json_real(f.share) : json_null(),
		       "threshold_share", threshold_share, "window_s", window_s, "cpus", cj,
		       "core_busy_s", core_busy_s, "dut_threads_s", dut_s, "irq_softirq_s", irq_s,
		       "roles_s", roles_s, "tasks_truncated", ta->truncated || tb->truncated,
		       "others", list);
	json_object_set_new(sample, "foreign_busy", fb);
	json_object_set_new(sample, "disturbed", json_boolean(f.disturbed));
}
