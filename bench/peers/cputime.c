// SPDX-License-Identifier: GPL-2.0
/* A peer's CPU time and threads from /proc, read at the window edges. */
#include "peers/peer.h"
#include "lib/zcbench.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int zc_peer_parse_stat(const char *line, unsigned long long *ticks)
{
	/* The name is the only field that may hold spaces and ')': the fields
	 * after the last ')' are fixed. utime and stime are fields 14 and 15,
	 * the 12th and 13th after the name (state is the 1st). */
	const char *s = strrchr(line, ')');
	unsigned long long v[2];
	char *end;

	if (!s)
		return -EINVAL;
	s++;
	for (int field = 1; field <= 13; field++) {
		while (*s == ' ')
			s++;
		if (!*s || *s == '\n')
			return -EINVAL;
		if (field >= 12) {
			if (!isdigit((unsigned char)*s))
				return -EINVAL;
			errno = 0;
			v[field - 12] = strtoull(s, &end, 10);
			if (errno || (*end != ' ' && *end != '\n' && *end))
				return -EINVAL;
			s = end;
			continue;
		}
		while (*s && *s != ' ' && *s != '\n')
			s++;
	}
	*ticks = v[0] + v[1];
	return 0;
}

/* utime+stime of one stat file in seconds: 0 or -errno (-ESRCH: gone). */
static int stat_seconds(const char *path, double *s)
{
	char buf[1024];
	unsigned long long ticks;
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	ret = fgets(buf, sizeof(buf), f) ? zc_peer_parse_stat(buf, &ticks) : -EIO;
	fclose(f);
	if (!ret)
		*s = (double)ticks / sysconf(_SC_CLK_TCK);
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

int zc_peer_cpu(const struct zc_peer *p, struct zc_peer_cpu *out)
{
	char path[96];
	int n, ret;

	memset(out, 0, sizeof(*out));
	if (p->pid <= 0 || p->reaped)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	ret = stat_seconds(path, &out->process_s);
	if (ret)
		return ret;
	n = list_tids(p->pid, out->tid, ZC_PEER_MAX_THREADS);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)p->pid, (int)out->tid[i]);
		ret = stat_seconds(path, &out->thread_s[out->nthreads]);
		if (ret == -ESRCH)	/* the thread ended since the listing */
			continue;
		if (ret)
			return ret;
		out->tid[out->nthreads++] = out->tid[i];
	}
	return 0;
}
