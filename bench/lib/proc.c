// SPDX-License-Identifier: GPL-2.0
#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int zc_child_spawn(struct zc_child *c, char *const argv[])
{
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
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(in[0]); close(in[1]); close(out[0]); close(out[1]);
		return e;
	}
	if (pid == 0) {
		/* Own process group: the terminal's Ctrl-C goes to the controller,
		 * which decides; and the role dies with the controller. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		fprintf(stderr, "zcbench: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(in[0]);
	close(out[1]);
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

static int ms_until(double deadline)
{
	double left = deadline - zc_now();

	return left <= 0 ? 0 : (int)(left * 1000) + 1;
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

int zc_child_line(struct zc_child *c, double deadline, char *line, size_t len)
{
	char *nl;
	int ret = wait_line(c, deadline, &nl);

	if (ret)
		return ret;
	snprintf(line, len, "%.*s", (int)(nl - c->buf), c->buf);
	consume(c, nl);
	return 0;
}

int zc_child_ready(struct zc_child *c, double deadline, int *port)
{
	char *nl;
	int ret = wait_line(c, deadline, &nl);

	if (ret)
		return ret;
	if (sscanf(c->buf, "READY port=%d", port) != 1)
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
	if (c->pid > 0 && !c->reaped) {
		c->killed = true;
		kill(-c->pid, SIGKILL);
	}
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
