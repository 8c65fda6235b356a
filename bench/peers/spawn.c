// SPDX-License-Identifier: GPL-2.0
/* A peer's life: start pinned in its own process group (lib/proc.c's
 * zc_spawn), watch, stop, reap. */
#include "peers/peer.h"
#include "peers/peer_int.h"
#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* 0 or -errno */
static int can_write(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The output files can be made: zc_spawn's -ENOENT is then the program's
 * (not in PATH), not a missing folder. 0 or -errno */
static int check_outputs(struct zc_peer *p, const struct zc_peer_spec *s)
{
	int ret;

	if (snprintf(p->log_path, sizeof(p->log_path), "%s/%s.log", s->dir, s->name) >=
	    (int)sizeof(p->log_path))
		return -ENAMETOOLONG;
	ret = can_write(p->log_path);
	if (!ret && s->stdout_path)
		ret = can_write(s->stdout_path);
	return ret;
}

/* 0 or -EINVAL */
static int plan_cpus(const struct zc_peer_spec *s, cpu_set_t *cpus)
{
	CPU_ZERO(cpus);
	if (s->ncpus < 0 || s->ncpus > ZC_PEER_MAX_CPUS)
		return -EINVAL;
	for (int i = 0; i < s->ncpus; i++) {
		if (s->cpus[i] < 0 || s->cpus[i] >= CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(s->cpus[i], cpus);
	}
	return 0;
}

int zc_peer_start(struct zc_peer *p, const struct zc_peer_spec *s)
{
	cpu_set_t cpus;
	/* Own process group: a terminal's Ctrl-C reaches the controller, which
	 * stops the peer itself; and the peer dies with the controller. Pinned
	 * before exec: every thread the program creates inherits it. */
	struct zc_spawn_opts how = { .null_stdin = true, .own_group = true, .die_with_us = true,
				     .clean = true, .exec_errno = true };
	int ret;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", s->name);
	if (plan_cpus(s, &cpus)) {
		snprintf(p->reason, sizeof(p->reason), "%s: bad CPU set", s->name);
		return -EINVAL;
	}
	if (s->ncpus > 0)
		how.cpus = &cpus;
	ret = check_outputs(p, s);
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "%s: cannot open its log in %s: %s",
			 s->name, s->dir, strerror(-ret));
		return ret;
	}
	/* stderr always into the log; stdout there too unless it has its own file. */
	how.out_path = s->stdout_path ? s->stdout_path : p->log_path;
	how.err_path = s->stdout_path ? p->log_path : NULL;
	pid = zc_spawn(s->argv, &how);
	if (pid < 0) {
		snprintf(p->reason, sizeof(p->reason), "%s: %s %s: %s", s->name,
			 pid == -ENOENT ? "not found in PATH:" : "cannot start",
			 s->argv[0], strerror(-pid));
		return pid;
	}
	p->pid = pid;
	return 0;
}

/* 1 reaped now or before, 0 still running, -errno. The group's strays are
 * killed while the leader is a zombie, so its group id cannot be reused yet. */
static int reap(struct zc_peer *p, bool block)
{
	siginfo_t si = { 0 };
	struct rusage ru;

	if (p->reaped || p->pid <= 0)
		return 1;
	if (waitid(P_PID, p->pid, &si, WEXITED | WNOWAIT | (block ? 0 : WNOHANG))) {
		if (errno == EINTR)
			return 0;
		if (errno != ECHILD)
			return -errno;
		/* Reaped behind our back (a waitpid(-1) elsewhere): gone, status unknown. */
		p->reaped = true;
		p->status = -1;
		return 1;
	}
	if (si.si_pid != p->pid)
		return 0;
	kill(-p->pid, SIGKILL);
	while (wait4(p->pid, &p->status, 0, &ru) < 0)
		if (errno != EINTR)
			return -errno;
	p->reaped = true;
	p->cpu_s_at_exit = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			   ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return 1;
}

bool zc_peer_alive(struct zc_peer *p)
{
	return p->pid > 0 && reap(p, false) == 0;
}

static void nap_ms(int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int zc_peer_wait_exit(struct zc_peer *p, double timeout_s)
{
	double deadline = zc_now() + timeout_s;

	while (zc_peer_alive(p)) {
		if (zc_interrupted)
			return -EINTR;
		if (zc_now() >= deadline)
			return -ETIMEDOUT;
		nap_ms(10);
	}
	if (WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0)
		return 0;
	zc_peer_fail_reason(p, "failed");
	return -EPROTO;
}

void zc_peer_fail_reason(struct zc_peer *p, const char *what)
{
	char how[64], tail[600];

	zc_peer_describe(p, how, sizeof(how));
	zc_peer_log_tail(p->log_path, tail, sizeof(tail));
	snprintf(p->reason, sizeof(p->reason), "%s %.100s (%s); %.200s ends: %.500s", p->name,
		 what, how, p->log_path, tail[0] ? tail : "(empty)");
}

int zc_peer_stop(struct zc_peer *p, double grace_s)
{
	double deadline = zc_now() + grace_s;

	if (p->pid <= 0 || p->reaped)
		return 0;
	kill(-p->pid, SIGTERM);
	while (zc_now() < deadline) {
		if (reap(p, false))
			return 0;
		nap_ms(10);
	}
	if (reap(p, false))
		return 0;
	kill(-p->pid, SIGKILL);
	while (reap(p, true) == 0)
		;
	return -ETIMEDOUT;
}

void zc_peer_describe(const struct zc_peer *p, char *out, size_t len)
{
	if (p->pid <= 0)
		snprintf(out, len, "not started");
	else if (!p->reaped)
		snprintf(out, len, "running");
	else if (WIFEXITED(p->status))
		snprintf(out, len, "exit code %d", WEXITSTATUS(p->status));
	else if (WIFSIGNALED(p->status))
		snprintf(out, len, "killed by signal %d (%s)", WTERMSIG(p->status),
			 strsignal(WTERMSIG(p->status)));
	else
		snprintf(out, len, "status 0x%x", p->status);
}
