// SPDX-License-Identifier: GPL-2.0
#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* stdin, stdout, stderr of a child: an fd of ours, or -1 for what how says. */
struct stdio_fds {
	int fd[3];
};

/* The child could not become the program: say why (as an errno through
 * status_fd when the parent reads one, else on stderr) and exit. */
static void __attribute__((noreturn))
child_fail(int status_fd, int code, const char *argv0, const char *what, int err)
{
	if (status_fd >= 0) {
		ssize_t n = write(status_fd, &err, sizeof(err));

		(void)n;
	} else if (what) {	/* NULL: said already */
		fprintf(stderr, "zcbench: %s%s: %s\n", what, argv0, strerror(err));
	}
	_exit(code);
}

static void __attribute__((noreturn))
exec_child(char *const argv[], const struct zc_spawn_opts *how, const struct stdio_fds *io,
	   pid_t parent, int status_fd)
{
	if (how->own_group)
		setpgid(0, 0);
	if (how->die_with_us) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* We may have died before the prctl: then no signal comes. */
		if (getppid() != parent)
			raise(SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	if (how->cpus && sched_setaffinity(0, sizeof(*how->cpus), how->cpus))
		child_fail(status_fd, 126, argv[0], "pin ", errno);
	if (how->clean) {
		sigset_t none;

		/* Blocked signals and ignored dispositions survive exec. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
	}
	for (int i = 0; i < 3; i++) {
		if (io->fd[i] < 0)
			continue;
		/* dup2 onto itself would leave O_CLOEXEC set. */
		if ((io->fd[i] == i ? fcntl(i, F_SETFD, 0) : dup2(io->fd[i], i)) < 0)
			child_fail(status_fd, 126, argv[0], "stdio of ", errno);
	}
	if (how->cwd && chdir(how->cwd)) {
		if (status_fd < 0)
			fprintf(stderr, "zcbench: %s: chdir %s: %s\n", argv[0], how->cwd,
				strerror(errno));
		child_fail(status_fd, 126, argv[0], NULL, errno);
	}
	/* Close-on-exec, so status_fd still works until exec; a kernel without
	 * close_range (< 5.11) leaves this to our O_CLOEXEC. */
	if (how->clean)
		close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execvp(argv[0], argv);
	child_fail(status_fd, 127, argv[0], "exec ", errno);
}

static const struct zc_spawn_opts like_us;

/* 0, or -errno with *fd unchanged. */
static int open_out(const char *path, int *fd)
{
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (f < 0)
		return -errno;
	*fd = f;
	return 0;
}

/* After fork: with a status pipe, wait for its EOF (exec done) or an errno
 * (then reap the child). pid, or -errno. */
static pid_t exec_result(pid_t pid, int st[2])
{
	int err = 0;
	ssize_t n;

	close(st[1]);
	do
		n = read(st[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(st[0]);
	if (n != sizeof(err))
		return pid;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return -(err ? err : EIO);
}

/* fork and exec with io's fds (those at -1 from how): pid or -errno. */
static pid_t spawn_io(char *const argv[], const struct zc_spawn_opts *how, struct stdio_fds io)
{
	int opened[3] = { -1, -1, -1 }, st[2] = { -1, -1 }, e;
	pid_t pid, parent = getpid();

	if (!how)
		how = &like_us;
	if (how->null_stdin && io.fd[0] < 0 &&
	    (io.fd[0] = opened[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (how->out_path && io.fd[1] < 0) {
		if ((e = open_out(how->out_path, &opened[1])))
			goto out_close;
		io.fd[1] = opened[1];
		if (io.fd[2] < 0 && !how->err_path)
			io.fd[2] = opened[1];
	}
	if (how->err_path && io.fd[2] < 0) {
		if ((e = open_out(how->err_path, &opened[2])))
			goto out_close;
		io.fd[2] = opened[2];
	}
	/* Closed by a successful exec: EOF says "started", an int says why not. */
	if (how->exec_errno && pipe2(st, O_CLOEXEC)) {
		e = -errno;
		goto out_close;
	}
	pid = fork();
	if (pid == 0)
		exec_child(argv, how, &io, parent, st[1]);
	e = pid < 0 ? -errno : pid;
	/* Both sides set the group: whoever runs first, a kill(-pid) after
	 * this finds it. */
	if (pid > 0 && how->own_group)
		setpgid(pid, pid);
	if (st[0] >= 0 && pid > 0) {
		e = exec_result(pid, st);
	} else if (st[0] >= 0) {
		close(st[0]);
		close(st[1]);
	}
out_close:
	for (int i = 0; i < 3; i++)
		if (opened[i] >= 0)
			close(opened[i]);
	return e;
}

pid_t zc_spawn(char *const argv[], const struct zc_spawn_opts *how)
{
	return spawn_io(argv, how, (struct stdio_fds){ { -1, -1, -1 } });
}

static int ms_until(double deadline)
{
	double left = deadline - zc_now();

	return left <= 0 ? 0 : (int)(left * 1000) + 1;
}

/* Everything fd gives until EOF, the first len - 1 bytes kept in out (the
 * rest read and dropped, so the child never blocks on a full pipe). 0, or
 * -ETIMEDOUT at deadline (0: none). */
static int capture(int fd, char *out, size_t len, double deadline)
{
	size_t n = 0;
	int ret = 0;

	for (;;) {
		char tmp[512];
		ssize_t k;

		if (deadline > 0) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };
			int r = poll(&pfd, 1, ms_until(deadline));

			if (r < 0 && errno == EINTR)
				continue;
			if (r == 0) {
				ret = -ETIMEDOUT;
				break;
			}
		}
		k = read(fd, tmp, sizeof(tmp));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		for (ssize_t i = 0; i < k && n < len - 1; i++)
			out[n++] = tmp[i];
	}
	/* The last line is what an error message needs. */
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	out[n] = 0;
	return ret;
}

/* Wait for pid until deadline (0: none), then SIGKILL it (or its group) and
 * reap. 0, -ETIMEDOUT (killed) or -errno. */
static int wait_until(pid_t pid, bool group, double deadline, int *status)
{
	pid_t r = -1;

	while (deadline > 0 && (r = waitpid(pid, status, WNOHANG)) == 0 && zc_now() < deadline)
		usleep(10000);
	if (deadline > 0 && r == pid)
		return 0;
	if (deadline > 0 && r == 0)
		kill(group ? -pid : pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return deadline > 0 && r == 0 ? -ETIMEDOUT : 0;
}

int zc_run_argv(char *const argv[], const struct zc_spawn_opts *how)
{
	struct stdio_fds io = { { -1, -1, -1 } };
	int pfd[2] = { -1, -1 }, status = 0, ret = 0;
	double deadline = 0;
	pid_t pid;

	if (how && how->timeout_s > 0)
		deadline = zc_now() + how->timeout_s;
	if (how && how->out && how->outlen) {
		how->out[0] = 0;
		if (pipe2(pfd, O_CLOEXEC))
			return -errno;
		io.fd[1] = io.fd[2] = pfd[1];
	}
	pid = spawn_io(argv, how, io);
	if (pfd[1] >= 0)
		close(pfd[1]);
	if (pid > 0 && pfd[0] >= 0)
		ret = capture(pfd[0], how->out, how->outlen, deadline);
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pid < 0)
		return pid;
	/* Output captured past the deadline: kill now, not after a wait. */
	if (ret)
		deadline = zc_now() - 1;
	ret = wait_until(pid, how && how->own_group, deadline, &status);
	if (how && how->wait_status)
		*how->wait_status = status;
	if (ret)
		return ret;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int zc_child_spawn(struct zc_child *c, char *const argv[])
{
	static const struct zc_spawn_opts role = { .own_group = true, .die_with_us = true };
	int in[2], out[2];
	pid_t pid;

	memset(c, 0, sizeof(*c));
	c->to_fd = c->from_fd = -1;
	if (pipe2(in, O_CLOEXEC))
		return -errno;
	if (pipe2(out, O_CLOEXEC)) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	pid = spawn_io(argv, &role, (struct stdio_fds){ { in[0], out[1], -1 } });
	close(in[0]);
	close(out[1]);
	if (pid < 0) {
		close(in[1]);
		close(out[0]);
		return pid;
	}
	c->pid = pid;
	c->to_fd = in[1];
	c->from_fd = out[0];
	return 0;
}

static int fill(struct zc_child *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->from_fd, .events = POLLIN };
	ssize_t n;
	int r = poll(&pfd, 1, timeout_ms);

	if (r < 0)
		return -errno;
	if (r == 0)
		return -ETIMEDOUT;
	if (c->len == sizeof(c->buf) - 1)
		return -E2BIG;
	n = read(c->from_fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len);
	if (n < 0)
		return errno == EINTR ? -EINTR : -errno;
	if (n == 0) {
		c->eof = true;
		return -EPIPE;
	}
	c->len += n;
	c->buf[c->len] = 0;
	return 0;
}

/* Wait until a whole line is buffered: 0 with *nl at its end, or -errno. */
static int wait_line(struct zc_child *c, double deadline, char **nl)
{
	for (;;) {
		int ret;

		if ((*nl = memchr(c->buf, '\n', c->len)))
			return 0;
		if (zc_interrupted)
			return -EINTR;
		if (c->eof)
			return -EPIPE;
		ret = fill(c, ms_until(deadline));
		if (ret == -EINTR)
			continue;
		if (ret && ret != -EPIPE)
			return ret;
	}
}

static void consume(struct zc_child *c, char *nl)
{
	size_t n = nl - c->buf + 1;

	memmove(c->buf, nl + 1, c->len - n);
	c->len -= n;
	c->buf[c->len] = 0;
}

int zc_child_ready(struct zc_child *c, double deadline, const char *ready, int *port)
{
	char *nl;
	int ret = wait_line(c, deadline, &nl);

	if (ret)
		return ret;
	if (sscanf(c->buf, ready, port) != 1)
		return -EPROTO;
	consume(c, nl);
	return 0;
}

void zc_child_drain(struct zc_child *c, double deadline)
{
	while (!c->eof && c->from_fd >= 0 && fill(c, ms_until(deadline)) == 0)
		;
}

int zc_child_send(struct zc_child *c, const char *s)
{
	size_t n = strlen(s);

	return write(c->to_fd, s, n) == (ssize_t)n ? 0 : -errno;
}

int zc_children_wait(struct zc_child **c, int n, double deadline)
{
	for (;;) {
		struct pollfd pfd[8];
		int idx[8], np = 0, r;

		for (int i = 0; i < n; i++) {
			if (c[i]->eof) {
				zc_child_reap(c[i]);
				if (!WIFEXITED(c[i]->status) || WEXITSTATUS(c[i]->status))
					return 1;
				continue;
			}
			pfd[np].fd = c[i]->from_fd;
			pfd[np].events = POLLIN;
			idx[np++] = i;
		}
		if (!np)
			return 0;
		if (zc_interrupted)
			return -EINTR;
		r = poll(pfd, np, ms_until(deadline));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		for (int i = 0; i < np; i++)
			if (pfd[i].revents) {
				int ret = fill(c[idx[i]], 0);

				if (ret == -E2BIG)
					return ret;
			}
	}
}

void zc_child_kill(struct zc_child *c)
{
	siginfo_t si = { 0 };

	if (c->pid <= 0 || c->reaped)
		return;
	/*
	 * A child that already ended (killed from outside before its pipe was
	 * read to the end) is not ours to blame away: look without reaping.
	 */
	if (waitid(P_PID, c->pid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid != c->pid)
		c->killed = true;
	kill(-c->pid, SIGKILL);
}

void zc_child_reap(struct zc_child *c)
{
	double give_up = zc_now() + 5;
	pid_t r;

	if (c->pid <= 0 || c->reaped)
		return;
	/* A program may close stdout and linger (a foreign --exec-ROLE, ssh). */
	while ((r = waitpid(c->pid, &c->status, WNOHANG)) == 0 && zc_now() < give_up)
		usleep(10000);
	if (r == 0) {
		c->killed = true;
		kill(-c->pid, SIGKILL);
	}
	while (r <= 0 && (r = waitpid(c->pid, &c->status, 0)) < 0 && errno == EINTR)
		;
	c->reaped = true;
	if (c->to_fd >= 0)
		close(c->to_fd);
	if (c->from_fd >= 0)
		close(c->from_fd);
	c->to_fd = c->from_fd = -1;
}

void zc_child_describe(const struct zc_child *c, char *out, size_t len)
{
	if (!c->reaped)
		snprintf(out, len, "still running");
	else if (WIFSIGNALED(c->status))
		snprintf(out, len, "killed by signal %d (%s)", WTERMSIG(c->status),
			 strsignal(WTERMSIG(c->status)));
	else
		snprintf(out, len, "exit code %d", WEXITSTATUS(c->status));
}
