// SPDX-License-Identifier: GPL-2.0
/*
 * perf record as the profiler: started before the window with its events
 * off (-D -1), switched on and off at the edges through its control FIFO
 * (--control fifo:CTL,ACK: "enable"/"disable", each answered "ack"), so
 * perf's start-up (reading /proc, opening rings) stays out of the window.
 * -B skips the build-id pass at exit; `perf script` then names the frames,
 * and fold.c turns its output into folded stacks.
 */
#include "profile/profile_int.h"
#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define READY_S 20.0	/* perf reads every process's maps at start: slow on a busy host */
#define ACK_S 5.0
#define EXIT_S 30.0

bool zc_perf_tool_usable(char *version, size_t len)
{
	char *argv[] = { "perf", "--version", NULL };
	char out[256] = "";
	int ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .out = out, .outlen = sizeof(out),
							     .null_stdin = true });

	snprintf(version, len, "%s", out);
	return ret == 0 && !strncmp(out, "perf version", 12);
}

/* The last line perf printed, for a reason. */
static void log_tail(const char *path, char *out, size_t len)
{
	size_t n;
	char *s = zc_read_file(path, 1 << 16, &n), *last, *nl;

	out[0] = 0;
	if (!s)
		return;
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
	last = s;
	for (nl = strchr(s, '\n'); nl; nl = strchr(nl + 1, '\n'))
		if (nl[1])
			last = nl + 1;
	snprintf(out, len, "%s", last);
	free(s);
}

/* Has perf printed what it prints once its events are set up (disabled)? */
static bool log_has(const char *path, const char *what)
{
	size_t n;
	char *s = zc_read_file(path, 1 << 16, &n);
	bool yes = s && strstr(s, what);

	free(s);
	return yes;
}

static void reap(struct zc_perf_tool *t, double within_s)
{
	double end = zc_now() + within_s;
	int st;

	if (t->pid <= 0)
		return;
	while (waitpid(t->pid, &st, WNOHANG) == 0) {
		if (zc_now() > end) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, &st, 0);
			break;
		}
		usleep(20000);
	}
	t->pid = -1;
}

int zc_perf_tool_open(struct zc_perf_tool *t, const int *cpus, int n, int freq_hz,
		      const char *event, const char *dir, char *why, size_t len)
{
	char ctl[PATH_MAX], ack[PATH_MAX], logp[PATH_MAX], control[2 * PATH_MAX + 16];
	char cpulist[512], freq[24], tail[256];
	double end;
	int ret;

	memset(t, 0, sizeof(*t));
	t->pid = -1;
	t->ctl_fd = t->ack_fd = -1;
	snprintf(t->dir, sizeof(t->dir), "%s", dir);
	snprintf(t->data, sizeof(t->data), "%s/perf.data", dir);
	snprintf(ctl, sizeof(ctl), "%s/perf.ctl", dir);
	snprintf(ack, sizeof(ack), "%s/perf.ack", dir);
	snprintf(logp, sizeof(logp), "%s/perf-record.log", dir);
	unlink(ctl);
	unlink(ack);
	if (mkfifo(ctl, 0600) || mkfifo(ack, 0600)) {
		ret = -errno;
		snprintf(why, len, "mkfifo in %s: %s", dir, strerror(-ret));
		return ret;
	}
	/* Read-write: opening a FIFO this way never waits for the other end. */
	t->ctl_fd = open(ctl, O_RDWR | O_CLOEXEC);
	t->ack_fd = open(ack, O_RDWR | O_CLOEXEC | O_NONBLOCK);
	if (t->ctl_fd < 0 || t->ack_fd < 0) {
		ret = -errno;
		snprintf(why, len, "open %s: %s", ctl, strerror(-ret));
		goto fail;
	}
	zc_profile_cpulist(cpus, n, cpulist, sizeof(cpulist));
	snprintf(freq, sizeof(freq), "%d", freq_hz);
	snprintf(control, sizeof(control), "fifo:%s,%s", ctl, ack);
	{
		char *argv[] = { "perf", "record", "-e", (char *)event, "-F", freq, "-g", "-C", cpulist,
				 "-D", "-1", "--control", control, "-B", "-o", t->data, NULL };

		t->pid = zc_spawn(argv, &(struct zc_spawn_opts){ .out_path = logp, .null_stdin = true,
								  .own_group = true,
								  .die_with_us = true });
	}
	if (t->pid < 0) {
		ret = t->pid;
		snprintf(why, len, "cannot start perf: %s", strerror(-ret));
		goto fail;
	}
	zc_profile_keep_off(t->pid, cpus, n);
	for (end = zc_now() + READY_S; !log_has(logp, "Events disabled");) {
		int st;

		if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
			t->pid = -1;
			log_tail(logp, tail, sizeof(tail));
			snprintf(why, len, "perf record exited at start: %s", tail[0] ? tail : "?");
			ret = -ECHILD;
			goto fail;
		}
		if (zc_now() > end) {
			snprintf(why, len, "perf record not ready after %.0f s", READY_S);
			ret = -ETIMEDOUT;
			goto fail;
		}
		usleep(10000);
	}
	return 0;
fail:
	if (t->pid > 0)
		kill(t->pid, SIGKILL);
	reap(t, 1);
	if (t->ctl_fd >= 0)
		close(t->ctl_fd);
	if (t->ack_fd >= 0)
		close(t->ack_fd);
	t->ctl_fd = t->ack_fd = -1;
	unlink(ctl);
	unlink(ack);
	return ret;
}

int zc_perf_tool_ctl(struct zc_perf_tool *t, const char *cmd)
{
	char buf[64];
	struct pollfd pfd = { .fd = t->ack_fd, .events = POLLIN };
	size_t got = 0;
	double end = zc_now() + ACK_S;

	/* A stale ack from an earlier command would answer this one. */
	while (read(t->ack_fd, buf, sizeof(buf)) > 0)
		;
	if (write(t->ctl_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -EIO;
	while (got < 3) {
		int ms = (int)((end - zc_now()) * 1000);
		ssize_t r;

		if (ms <= 0 || poll(&pfd, 1, ms) <= 0)
			return -ETIMEDOUT;
		r = read(t->ack_fd, buf + got, sizeof(buf) - 1 - got);
		if (r > 0)
			got += (size_t)r;
	}
	buf[got] = 0;
	return strncmp(buf, "ack", 3) ? -EPROTO : 0;
}

int zc_perf_tool_close(struct zc_perf_tool *t, struct zc_stacks *out, char *why, size_t len)
{
	char txt[PATH_MAX], path[PATH_MAX];
	char *argv[] = { "perf", "script", "-i", t->data, "-F", "comm,pid,tid,ip,sym,dso",
			 "--no-inline", NULL };
	FILE *f;
	int ret;

	if (t->pid > 0)
		kill(t->pid, SIGINT);
	reap(t, EXIT_S);
	close(t->ctl_fd);
	close(t->ack_fd);
	t->ctl_fd = t->ack_fd = -1;
	snprintf(path, sizeof(path), "%s/perf.ctl", t->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/perf.ack", t->dir);
	unlink(path);
	snprintf(txt, sizeof(txt), "%s/perf-script.txt", t->dir);
	ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .out_path = txt, .null_stdin = true });
	if (ret) {
		log_tail(txt, path, sizeof(path));
		snprintf(why, len, "perf script failed (%s %d): %s", ret < 0 ? "errno" : "exit",
			 ret < 0 ? -ret : ret, path);
		return ret < 0 ? ret : -EIO;
	}
	f = fopen(txt, "r");
	if (!f) {
		ret = -errno;
		snprintf(why, len, "%s: %s", txt, strerror(-ret));
		return ret;
	}
	ret = zc_stacks_from_perf_script(out, f);
	fclose(f);
	if (ret)
		snprintf(why, len, "perf script output: %s", ret == -ENODATA ? "no samples" :
			 strerror(-ret));
	else
		unlink(txt);	/* megabytes of text; perf.data and the folded file stay */
	return ret;
}
