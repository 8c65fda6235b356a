// SPDX-License-Identifier: GPL-2.0
/*
 * A peer's CPU time and threads from /proc, read at the window edges: one
 * process (every thread, the exited too), or a peer made of several (nginx:
 * a master and its workers, all in the group zc_peer_start made). A worker
 * that exits between two edges is not lost: its master reaps it, and its
 * time moves into the master's cutime+cstime, which is counted.
 */
#include "peers/peer.h"
#include "lib/zcbench.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int zc_peer_parse_stat_full(const char *line, struct zc_peer_stat *st)
{
	/* The name is the only field that may hold spaces and ')': the fields
	 * after the last ')' are fixed: state ppid pgrp session tty_nr tpgid
	 * flags minflt cminflt majflt cmajflt utime stime cutime cstime. */
	const char *s = strrchr(line, ')');
	unsigned long long ut, stt;
	long long cut, cst;
	int ppid, pgrp;
	char state;

	memset(st, 0, sizeof(*st));
	if (!s || sscanf(s + 1, " %c %d %d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
			 &state, &ppid, &pgrp, &ut, &stt, &cut, &cst) != 7 || cut < 0 || cst < 0)
		return -EINVAL;
	st->state = state;
	st->ppid = ppid;
	st->pgrp = pgrp;
	st->user_ticks = ut;
	st->sys_ticks = stt;
	st->self_ticks = ut + stt;
	st->children_user_ticks = (unsigned long long)cut;
	st->children_sys_ticks = (unsigned long long)cst;
	st->children_ticks = (unsigned long long)cut + (unsigned long long)cst;
	return 0;
}

int zc_peer_parse_stat(const char *line, unsigned long long *ticks)
{
	struct zc_peer_stat st;
	int ret = zc_peer_parse_stat_full(line, &st);

	*ticks = st.self_ticks;
	return ret;
}

int zc_peer_read_stat(const char *path, struct zc_peer_stat *st)
{
	char buf[1024];
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
	ret = fgets(buf, sizeof(buf), f) ? zc_peer_parse_stat_full(buf, st) : -ESRCH;
	fclose(f);
	return ret;
}

/* Thread ids from /proc/PID/task: count or -errno; stops at max. */
static int list_tids(pid_t pid, pid_t *tids, int max)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((d = readdir(dir)) && n < max)
		if (isdigit((unsigned char)d->d_name[0]))
			tids[n++] = (pid_t)atoi(d->d_name);
	closedir(dir);
	return n;
}

int zc_peer_tids(const struct zc_peer *p, pid_t *tids, int max)
{
	if (p->pid <= 0 || p->reaped)
		return -ESRCH;
	return list_tids(p->pid, tids, max);
}

/* The CPU time of pids[0..n) (the first the leader: its reaped children's
 * time counts when group) and of their live threads. 0 or -errno. */
static int cpu_of(const pid_t *pids, int n, bool group, struct zc_peer_cpu *out)
{
	double tick = (double)sysconf(_SC_CLK_TCK);

	for (int i = 0; i < n; i++) {
		pid_t tids[ZC_PEER_MAX_THREADS];
		struct zc_peer_stat st;
		char path[96];
		int k, ret;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		ret = zc_peer_read_stat(path, &st);
		if (ret == -ESRCH && i > 0)	/* a worker gone since the listing */
			continue;
		if (ret)
			return ret;
		out->user_s += (st.user_ticks + (group && !i ? st.children_user_ticks : 0)) / tick;
		out->sys_s += (st.sys_ticks + (group && !i ? st.children_sys_ticks : 0)) / tick;
		k = list_tids(pids[i], tids, ZC_PEER_MAX_THREADS - out->nthreads);
		for (int t = 0; t < k; t++) {
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pids[i], (int)tids[t]);
			if (zc_peer_read_stat(path, &st))	/* ended since the listing */
				continue;
			out->tid[out->nthreads] = tids[t];
			out->thread_s[out->nthreads++] = st.self_ticks / tick;
		}
	}
	out->process_s = out->user_s + out->sys_s;
	return 0;
}

int zc_peer_cpu(const struct zc_peer *p, struct zc_peer_cpu *out)
{
	memset(out, 0, sizeof(*out));
	if (p->pid <= 0 || p->reaped)
		return -ESRCH;
	return cpu_of(&p->pid, 1, false, out);
}

int zc_peer_group_pids(const struct zc_peer *p, pid_t *pids, int max)
{
	struct dirent *d;
	DIR *proc;
	int n = 0;

	if (p->pid <= 0 || p->reaped || max < 1)
		return -ESRCH;
	proc = opendir("/proc");
	if (!proc)
		return -errno;
	pids[n++] = p->pid;
	while ((d = readdir(proc)) && n < max) {
		struct zc_peer_stat st;
		char path[300];
		pid_t pid;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		pid = (pid_t)atoi(d->d_name);
		if (pid == p->pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
		if (!zc_peer_read_stat(path, &st) && st.pgrp == p->pid && st.state != 'Z')
			pids[n++] = pid;
	}
	closedir(proc);
	return n;
}

int zc_peer_group_cpu(const struct zc_peer *p, struct zc_peer_cpu *out)
{
	pid_t pids[ZC_PEER_MAX_THREADS];
	int n;

	memset(out, 0, sizeof(*out));
	n = zc_peer_group_pids(p, pids, ZC_PEER_MAX_THREADS);
	return n < 0 ? n : cpu_of(pids, n, true, out);
}
