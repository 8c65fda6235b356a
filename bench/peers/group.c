// SPDX-License-Identifier: GPL-2.0
/*
 * A peer made of several processes (nginx: a master and its workers, all in
 * the group zc_peer_start made): its members and their CPU time, from /proc.
 * A worker that exits between two edges is not lost: its master reaps it,
 * and its time moves into the master's cutime+cstime, which is counted.
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
	/* Fields after the name (the last ')'): state ppid pgrp session tty_nr
	 * tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime. */
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
	st->self_ticks = ut + stt;
	st->children_ticks = (unsigned long long)cut + (unsigned long long)cst;
	return 0;
}

/* One stat file parsed: 0 or -errno (-ESRCH: gone). */
static int read_stat(const char *path, struct zc_peer_stat *st)
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
		if (!read_stat(path, &st) && st.pgrp == p->pid && st.state != 'Z')
			pids[n++] = pid;
	}
	closedir(proc);
	return n;
}

int zc_peer_group_cpu(const struct zc_peer *p, struct zc_peer_cpu *out)
{
	pid_t pids[ZC_PEER_MAX_THREADS];
	double tick = (double)sysconf(_SC_CLK_TCK);
	int n;

	memset(out, 0, sizeof(*out));
	n = zc_peer_group_pids(p, pids, ZC_PEER_MAX_THREADS);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		struct zc_peer_stat st;
		char path[96];
		struct dirent *d;
		DIR *task;
		int ret;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		ret = read_stat(path, &st);
		if (ret == -ESRCH && i > 0)	/* a worker gone since the listing */
			continue;
		if (ret)
			return ret;
		/* The leader's reaped children are exited workers: their time counts. */
		out->process_s += (st.self_ticks + (i == 0 ? st.children_ticks : 0)) / tick;
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		if (!(task = opendir(path)))
			continue;
		while ((d = readdir(task)) && out->nthreads < ZC_PEER_MAX_THREADS) {
			struct zc_peer_stat ts;
			char tpath[320];

			if (!isdigit((unsigned char)d->d_name[0]))
				continue;
			snprintf(tpath, sizeof(tpath), "/proc/%d/task/%s/stat", (int)pids[i], d->d_name);
			if (read_stat(tpath, &ts))
				continue;
			out->tid[out->nthreads] = (pid_t)atoi(d->d_name);
			out->thread_s[out->nthreads++] = ts.self_ticks / tick;
		}
		closedir(task);
	}
	return 0;
}
