/* SPDX-License-Identifier: GPL-2.0 */
/* Role processes as seen by the controller: spawn, talk, time out, reap. */
#ifndef ZC_PROC_H
#define ZC_PROC_H

#include <stdbool.h>
#include <sys/types.h>

struct zc_child {
	pid_t pid;
	int to_fd;		/* role's stdin */
	int from_fd;		/* role's stdout */
	char buf[1 << 20];	/* everything the role printed (a report with counters is large) */
	size_t len;
	bool eof;
	int status;		/* waitpid status once reaped */
	bool reaped;
	bool killed;		/* by the controller, not by something else */
};

/* Start argv[0] with stdin/stdout on pipes, in its own process group,
 * killed if the controller dies. 0 or -errno. */
int zc_child_spawn(struct zc_child *c, char *const argv[]);
/* Read one line (without '\n') by deadline (zc_now() seconds).
 * 0, -ETIMEDOUT, -EPIPE (EOF first) or -EINTR (interrupted). */
int zc_child_line(struct zc_child *c, double deadline, char *line, size_t len);
int zc_child_send(struct zc_child *c, const char *s); /* 0 or -errno */
/* Wait for "READY port=N" and consume it: 0, -ETIMEDOUT, -EPIPE, -EINTR,
 * or -EPROTO when the role printed something else first (its report,
 * saying why it cannot start), which is left in the buffer. */
int zc_child_ready(struct zc_child *c, double deadline, int *port);
/* Read what the role still prints until EOF or deadline, keeping it. */
void zc_child_drain(struct zc_child *c, double deadline);
/* Wait until every child has closed stdout, by deadline. 0, -ETIMEDOUT or
 * -EINTR; stops early (returning 1) when a child exits with failure. */
int zc_children_wait(struct zc_child **c, int n, double deadline);
void zc_child_kill(struct zc_child *c);
/* Wait for the exit (after EOF); SIGKILL the group if it lingers past 5 s. */
void zc_child_reap(struct zc_child *c);
/* "exit code 1", "killed by signal 9" ... */
void zc_child_describe(const struct zc_child *c, char *out, size_t len);

#endif
