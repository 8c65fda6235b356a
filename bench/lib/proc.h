/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes, all started the same way (fork, exec of an argv, never a
 * shell): programs run to completion (zc_run_argv), long-lived ones the
 * caller watches (zc_spawn), and the roles the controller talks to
 * (zc_child_*: spawn, talk, time out, reap).
 */
#ifndef ZC_PROC_H
#define ZC_PROC_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How a child starts. All zero: like us (our cwd, stdin, stdout, stderr and
 * process group). */
struct zc_spawn_opts {
	const char *cwd;	/* run there (NULL: ours) */
	const char *out_path;	/* stdout and stderr to this file, truncated; opened
				 * by us, so relative to our cwd, not to .cwd */
	/* zc_run_argv only, instead of out_path: stdout and stderr captured in
	 * out (NUL-terminated, cut at outlen - 1, trailing blanks dropped). */
	char *out;
	size_t outlen;
	bool null_stdin;	/* stdin from /dev/null */
	/* In its own process group: the terminal's Ctrl-C goes to us, who decide
	 * (and must not kill, say, the `ip netns del` of our teardown). */
	bool own_group;
	/* SIGKILLed when we die (PR_SET_PDEATHSIG), SIGINT/SIGTERM back to their
	 * defaults: nothing of ours outlives a killed controller. */
	bool die_with_us;
	/* stderr to this file instead, truncated (stdout stays with out_path, or
	 * ours); opened by us. Must not name out_path's file: two truncating
	 * opens would overwrite each other's lines. */
	const char *err_path;
	/* Pinned to these CPUs before exec: every thread the program makes
	 * inherits it (NULL: our affinity). */
	const cpu_set_t *cpus;
	/* A child that cannot start (pin, stdio, chdir, exec) is reaped and its
	 * -errno returned (-ENOENT: not in PATH), instead of exit status 126/127
	 * with the reason on its stderr. */
	bool exec_errno;
	/* Nothing of ours reaches the program: fds above 2 closed (an inherited
	 * socket would keep a connection or port open as long as it lives),
	 * signal mask emptied, SIGPIPE at its default. */
	bool clean;
	/* zc_run_argv only: SIGKILLed (its group if own_group) when it runs
	 * longer, and -ETIMEDOUT returned, out keeping what it printed. 0: no limit. */
	double timeout_s;
	/* zc_run_argv only: the raw waitpid status stored here (NULL: not). */
	int *wait_status;
};

/* Start argv[0] (searched in the PATH of the moment, as execvp does) as how
 * says (NULL: like us): its pid, or -errno. An exec that fails shows as exit
 * status 127 with the reason on the child's stderr, unless how->exec_errno. */
pid_t zc_spawn(char *const argv[], const struct zc_spawn_opts *how);
/* Run argv to completion: its exit status, 128 + the signal that killed it,
 * or -errno (-ETIMEDOUT past how->timeout_s). how may be NULL (like us). */
int zc_run_argv(char *const argv[], const struct zc_spawn_opts *how);

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

/* Start a role: argv[0] with stdin/stdout on pipes (stderr ours), in its own
 * process group, killed if the controller dies. 0 or -errno. */
int zc_child_spawn(struct zc_child *c, char *const argv[]);
int zc_child_send(struct zc_child *c, const char *s); /* 0 or -errno */
/* Wait for the line ready (a scanf format with one %d, the port: the
 * protocol's READY, wire.h) and consume it: 0, -ETIMEDOUT, -EPIPE, -EINTR,
 * or -EPROTO when the role printed something else first (its report,
 * saying why it cannot start), which is left in the buffer. */
int zc_child_ready(struct zc_child *c, double deadline, const char *ready, int *port);
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
