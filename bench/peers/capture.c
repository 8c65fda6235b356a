// SPDX-License-Identifier: GPL-2.0
/* Small things peers need around them: find a program, run it briefly for
 * its version, read the end of its log, find a free port for it. */
#include "peers/peer.h"
#include "lib/net.h"
#include "lib/proc.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

int zc_peer_capture(char *const argv[], double timeout_s, char *out, size_t len, int *status)
{
	/* Own group, so the deadline's SIGKILL takes what it started too. */
	struct zc_spawn_opts how = { .out = out, .outlen = len, .null_stdin = true,
				     .own_group = true, .die_with_us = true, .clean = true,
				     .exec_errno = true, .timeout_s = timeout_s,
				     .wait_status = status };
	int ret;

	if (len)
		out[0] = 0;
	ret = zc_run_argv(argv, &how);
	return ret < 0 ? ret : 0;
}

int zc_peer_version(const struct zc_peer_prog *pp, char *out, size_t outlen, char *why,
		    size_t len)
{
	char *argv[] = { (char *)pp->prog, (char *)pp->arg, NULL };
	int status = 0, ret = zc_peer_capture(argv, 10, out, outlen, &status);
	bool bad_exit = !pp->any_exit && (!WIFEXITED(status) || WEXITSTATUS(status));

	if (ret == -ENOENT) {
		snprintf(why, len, "%s not installed (apt-get install %s)", pp->prog, pp->pkg);
		return ret;
	}
	if (ret || bad_exit || (pp->prefix && strncmp(out, pp->prefix, strlen(pp->prefix)))) {
		snprintf(why, len, "%s %s failed (%s): %.200s", pp->prog, pp->arg,
			 ret ? strerror(-ret) : bad_exit ? "non-zero exit" : "unexpected output", out);
		return -EIO;
	}
	if (len)
		why[0] = 0;
	return 0;
}

json_t *zc_peer_info(const char *prog, const char *version)
{
	char path[4096];

	if (zc_peer_which(prog, path, sizeof(path)))
		path[0] = 0;
	return json_pack("{s:s, s:s}", "path", path, "version", version);
}

json_t *zc_peer_version_info(const struct zc_peer_prog *pp, const char *scan, char *out,
			     size_t outlen)
{
	char why[256], version[64] = "";

	if (zc_peer_version(pp, out, outlen, why, sizeof(why)))
		return json_pack("{s:s}", "error", why);
	sscanf(out, scan, version);
	return zc_peer_info(pp->prog, version);
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
