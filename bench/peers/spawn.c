// SPDX-License-Identifier: GPL-2.0
/* A peer's life: start pinned in its own process group, watch, stop, reap. */
#include "peers/peer.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Only async-signal-safe calls between fork and exec: everything the child
 * needs is opened and built by the parent first. */
struct child_plan {
	pid_t parent;
	cpu_set_t cpus;
	bool pin;
	int null_fd, out_fd, err_fd, status_fd;
};

static void report_errno_and_exit(int status_fd, int err)
{
	ssize_t n = write(status_fd, &err, sizeof(err));

	(void)n;
	_exit(127);
}

static void child(const struct child_plan *c, char *const argv[])
{
	sigset_t none;

	/* Own process group: a terminal's Ctrl-C reaches the controller, which
	 * stops the peer itself; and the peer dies with the controller. */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != c->parent)	/* the caller died before prctl */
		_exit(127);
	/* Pinned before exec: every thread the program creates inherits it. */
	if (c->pin && sched_setaffinity(0, sizeof(c->cpus), &c->cpus))
		report_errno_and_exit(c->status_fd, errno);
	/* Dispositions set to ignore and blocked signals survive exec. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (dup2(c->null_fd, 0) < 0 || dup2(c->out_fd, 1) < 0 || dup2(c->err_fd, 2) < 0)
		report_errno_and_exit(c->status_fd, errno);
	/* Nothing of the caller's reaches the program: an inherited socket
	 * would keep a connection (or a listening port) open for as long as
	 * the peer lives. Close-on-exec, so the status pipe still works until
	 * exec; a kernel without close_range (< 5.11) leaves this to O_CLOEXEC. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execvp(argv[0], argv);
	report_errno_and_exit(c->status_fd, errno);
}

/* 0 or -errno */
static int open_outputs(struct zc_peer *p, const struct zc_peer_spec *s, struct child_plan *c)
{
	if (snprintf(p->log_path, sizeof(p->log_path), "%s/%s.log", s->dir, s->name) >=
	    (int)sizeof(p->log_path))
		return -ENAMETOOLONG;
	c->null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	c->err_fd = open(p->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	c->out_fd = s->stdout_path ? open(s->stdout_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
				   : c->err_fd;
	if (c->null_fd < 0 || c->err_fd < 0 || c->out_fd < 0)
		return -errno;
	return 0;
}

static void close_outputs(struct child_plan *c)
{
	if (c->out_fd >= 0 && c->out_fd != c->err_fd)
		close(c->out_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	if (c->null_fd >= 0)
		close(c->null_fd);
}

/* 0 or -EINVAL */
static int plan_cpus(const struct zc_peer_spec *s, struct child_plan *c)
{
	CPU_ZERO(&c->cpus);
	c->pin = s->ncpus > 0;
	if (s->ncpus < 0 || s->ncpus > ZC_PEER_MAX_CPUS)
		return -EINVAL;
	for (int i = 0; i < s->ncpus; i++) {
		if (s->cpus[i] < 0 || s->cpus[i] >= CPU_SETSIZE)
			return -EINVAL;
		CPU_SET(s->cpus[i], &c->cpus);
	}
	return 0;
}

int zc_peer_start(struct zc_peer *p, const struct zc_peer_spec *s)
{
	struct child_plan c = { .parent = getpid(), .null_fd = -1, .out_fd = -1, .err_fd = -1 };
	int st[2], err = 0, ret;
	ssize_t n;
	pid_t pid;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", s->name);
	ret = plan_cpus(s, &c);
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "%s: bad CPU set", s->name);
		return ret;
	}
	ret = open_outputs(p, s, &c);
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "%s: cannot open its log in %s: %s",
			 s->name, s->dir, strerror(-ret));
		goto undo_outputs;
	}
	/* Closed by a successful exec: EOF says "started", an int says why not. */
	if (pipe2(st, O_CLOEXEC)) {
		ret = -errno;
		snprintf(p->reason, sizeof(p->reason), "%s: pipe: %s", s->name, strerror(errno));
		goto undo_outputs;
	}
	c.status_fd = st[1];
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		snprintf(p->reason, sizeof(p->reason), "%s: fork: %s", s->name, strerror(errno));
		goto undo_pipe;
	}
	if (pid == 0)
		child(&c, s->argv);
	setpgid(pid, pid);
	close(st[1]);
	st[1] = -1;
	do
		n = read(st[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	p->pid = pid;
	if (n == sizeof(err)) {
		zc_peer_stop(p, 0);
		ret = -err;
		snprintf(p->reason, sizeof(p->reason), "%s: %s %s: %s", s->name,
			 err == ENOENT ? "not found in PATH:" : "cannot start",
			 s->argv[0], strerror(err));
	}
undo_pipe:
	if (st[1] >= 0)
		close(st[1]);
	close(st[0]);
undo_outputs:
	close_outputs(&c);
	return ret;
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
