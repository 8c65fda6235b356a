// SPDX-License-Identifier: GPL-2.0
/* Small things peers need around them: find a program, run it briefly for
 * its version, read the end of its log, find a free port for it. */
#include "peers/peer.h"
#include "lib/net.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int zc_peer_which(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(prog, '/')) {
		if (access(prog, X_OK))
			return -ENOENT;
		snprintf(out, len, "%s", prog);
		return 0;
	}
	/* No PATH at all is execvp's default; an empty one finds nothing. */
	if (!path)
		path = "/bin:/usr/bin";
	while (*path) {
		const char *colon = strchrnul(path, ':');
		struct stat st;

		if (colon > path &&
		    snprintf(out, len, "%.*s/%s", (int)(colon - path), path, prog) < (int)len &&
		    !stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK))
			return 0;
		path = *colon ? colon + 1 : colon;
	}
	if (len)
		out[0] = 0;
	return -ENOENT;
}

/* Read what the child prints until EOF or deadline: 0 or -ETIMEDOUT. */
static int collect(int fd, double deadline, char *out, size_t len)
{
	size_t used = 0;
	char sink[4096];

	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		double left = deadline - zc_now();
		ssize_t n;
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -ETIMEDOUT;
		/* Past len the output is read and dropped, so the child never
		 * blocks on a full pipe. */
		if (used + 1 < len)
			n = read(fd, out + used, len - 1 - used);
		else
			n = read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		if (used + 1 < len) {
			used += n;
			out[used] = 0;
		}
	}
}

int zc_peer_capture(char *const argv[], double timeout_s, char *out, size_t len, int *status)
{
	char path[4096];
	int fds[2], ret;
	pid_t pid, parent = getpid();

	if (len)
		out[0] = 0;
	if (zc_peer_which(argv[0], path, sizeof(path)))
		return -ENOENT;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		dup2(null, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execv(path, argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[1]);
	ret = collect(fds[0], zc_now() + timeout_s, out, len);
	close(fds[0]);
	if (ret)
		kill(-pid, SIGKILL);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

void zc_peer_log_tail(const char *path, char *out, size_t len)
{
	struct stat st;
	ssize_t n;
	off_t from;
	char *s;
	int fd;

	if (!len)
		return;
	out[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st)) {
		close(fd);
		return;
	}
	from = st.st_size > (off_t)(len - 1) ? st.st_size - (off_t)(len - 1) : 0;
	n = pread(fd, out, len - 1, from);
	close(fd);
	if (n <= 0)
		return;
	out[n] = 0;
	/* Whole lines only, and on one line: it goes into a reason. */
	s = out;
	if (from > 0 && (s = strchr(out, '\n')))
		memmove(out, s + 1, strlen(s + 1) + 1);
	for (n = strlen(out); n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '); n--)
		out[n - 1] = 0;
	for (s = out; *s; s++)
		if (*s == '\n' || *s == '\r' || *s == '\t')
			*s = *s == '\n' ? '|' : ' ';
}

int zc_peer_pick_port(const char *addr, int *port)
{
	int fd = zc_listen(addr, port);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
