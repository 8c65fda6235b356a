/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An external program in a role's place (HAProxy as the proxy, iperf3 as
 * source and sink): started pinned, in its own process group, its output
 * in a log file; watched until it listens; its CPU time and threads read at
 * the window edges; stopped and reaped, on every path, with nothing left.
 */
#ifndef ZC_PEER_H
#define ZC_PEER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ZC_PEER_MAX_CPUS 64
#define ZC_PEER_MAX_THREADS 256

struct zc_peer_spec {
	const char *name;		/* "haproxy": log file name and messages */
	char *const *argv;		/* argv[0] is looked up in PATH */
	const int *cpus;		/* CPUs the program starts on (all threads) */
	int ncpus;			/* 0: not pinned */
	const char *dir;		/* folder of NAME.log (stderr, and stdout too
					 * unless stdout_path) */
	const char *stdout_path;	/* NULL: stdout into the log as well */
};

struct zc_peer {
	pid_t pid;			/* leader of its own process group; 0: none */
	char name[32];
	char log_path[PATH_MAX];
	bool reaped;
	int status;			/* waitpid status once reaped */
	double cpu_s_at_exit;		/* user+system of every thread, from wait4 */
	char reason[1024];		/* why the last call failed, with the log's tail */
};

/* CPU time of a peer, in seconds: utime+stime. */
struct zc_peer_cpu {
	double process_s;		/* /proc/PID/stat: every thread, the exited too */
	double user_s, sys_s;		/* process_s = user_s + sys_s */
	int nthreads;
	pid_t tid[ZC_PEER_MAX_THREADS];	/* /proc/PID/task/: the threads alive now */
	double thread_s[ZC_PEER_MAX_THREADS];
};

/* Start the program: fork, pin (sched_setaffinity before exec), own process
 * group, SIGKILL when the calling thread dies (call it from one that outlives
 * the peer: the controller's main thread), none of the caller's fds, output
 * into DIR/NAME.log. 0 or -errno (-ENOENT: not in PATH; the reason says it). */
int zc_peer_start(struct zc_peer *p, const struct zc_peer_spec *s);
/* Wait until the program listens on TCP port (a LISTEN socket in its
 * own /proc/PID/net/tcp{,6} that it holds an fd of: no connection is made,
 * which HAProxy would forward to the sink and iperf3 -s -1 would take as its
 * one test). 0, -ETIMEDOUT or -ECHILD (exited first), -EINTR (zc_interrupted);
 * on failure the program is stopped and reaped and p->reason has the log's tail. */
int zc_peer_wait_listen(struct zc_peer *p, int port, double timeout_s);
/* Wait for the program to exit by itself: 0 on exit code 0; -ETIMEDOUT
 * (still running, left so), -EPROTO (failed: reason has the log's tail),
 * -EINTR (zc_interrupted). */
int zc_peer_wait_exit(struct zc_peer *p, double timeout_s);
/* Alive (not exited) now; reaps it if it has exited. */
bool zc_peer_alive(struct zc_peer *p);
/* CPU time of the program and its threads now: 0 or -errno (-ESRCH: gone). */
int zc_peer_cpu(const struct zc_peer *p, struct zc_peer_cpu *out);
/* Thread ids of the program now, for filtering counters: count or -errno. */
int zc_peer_tids(const struct zc_peer *p, pid_t *tids, int max);
/* SIGTERM to its process group, SIGKILL after grace_s, reap; idempotent, safe
 * on a peer never started. 0, or -ETIMEDOUT when SIGKILL was needed. */
int zc_peer_stop(struct zc_peer *p, double grace_s);
/* "exit code 1", "killed by signal 9", "running" */
void zc_peer_describe(const struct zc_peer *p, char *out, size_t len);

/* A peer of several processes (nginx's master and workers). */
/* The live members of its process group, the leader first: count or -errno
 * (-ESRCH: the leader is gone); stops at max. */
int zc_peer_group_pids(const struct zc_peer *p, pid_t *pids, int max);
/* As zc_peer_cpu, over every process of its group: process_s is the sum of
 * each member's utime+stime plus the leader's cutime+cstime (children it
 * reaped: an exited worker's time is not lost); tid/thread_s list the
 * threads of every member. 0 or -errno (-ESRCH: gone). */
int zc_peer_group_cpu(const struct zc_peer *p, struct zc_peer_cpu *out);

/* The fields of a /proc/PID/stat line a group needs. */
struct zc_peer_stat {
	char state;			/* 'R', 'S', 'Z' ... */
	int ppid, pgrp;
	unsigned long long user_ticks, sys_ticks, self_ticks;	/* utime, stime, their sum */
	/* cutime, cstime, their sum: reaped children */
	unsigned long long children_user_ticks, children_sys_ticks, children_ticks;
};
/* 0 or -EINVAL. */
int zc_peer_parse_stat_full(const char *line, struct zc_peer_stat *st);
/* One /proc/.../stat file read and parsed: 0 or -errno (-ESRCH: gone). */
int zc_peer_read_stat(const char *path, struct zc_peer_stat *st);

/* "http://ADDR:PORT/SIZE" ("[ADDR]" for IPv6): the URL of object SIZE, as
 * zcbench's HTTP roles and nginx's docroot name it (http.c). 0, -EINVAL or -ENOSPC. */
int zc_peer_http_url(const char *addr, int port, uint64_t object_size, char *out, size_t len);

/* Parse one /proc/PID/stat or /proc/PID/task/TID/stat line: utime+stime in
 * clock ticks (the command name may hold spaces and parentheses). 0 or -EINVAL. */
int zc_peer_parse_stat(const char *line, unsigned long long *ticks);

/* Full path of an executable found in $PATH (as execvp would): 0 or -ENOENT. */
int zc_peer_which(const char *prog, char *out, size_t len);
/* Run argv (PATH lookup) with output captured into out (stdout and stderr,
 * truncated to len-1, trailing newlines and blanks dropped), its process
 * group killed after timeout_s; lib/proc.c's zc_run_argv. Wait status in
 * *status. 0, -ENOENT, -ETIMEDOUT or -errno. */
int zc_peer_capture(char *const argv[], double timeout_s, char *out, size_t len, int *status);
/* A program and how its version is asked for: `prog arg`, its package
 * (apt-get install pkg), its output's start (NULL: any), any exit status
 * (wrk -v exits 1) or only 0. */
struct zc_peer_prog {
	const char *prog, *arg, *pkg, *prefix;
	bool any_exit;
};
/* Its version output into out: 0 (why emptied), or -errno with why
 * "PROG not installed (apt-get install PKG)" or "PROG ARG failed (...): OUTPUT". */
int zc_peer_version(const struct zc_peer_prog *pp, char *out, size_t outlen, char *why,
		    size_t len);
/* {"path": where PATH finds prog ("" if not), "version": version} */
struct json_t *zc_peer_info(const char *prog, const char *version);
/* zc_peer_version, then zc_peer_info with the version sscanf'd from its
 * output with scan ("h2load nghttp2/%63s"), or {"error": why}. */
struct json_t *zc_peer_version_info(const struct zc_peer_prog *pp, const char *scan, char *out,
				    size_t outlen);
/* Last lines of a log file (at most len-1 bytes, whole lines) into out. */
void zc_peer_log_tail(const char *path, char *out, size_t len);
/* A free TCP port on addr, for programs that need one on their command
 * line (another process may take it before they bind: rare, and then the
 * peer fails to listen with its reason). 0 or -errno. */
int zc_peer_pick_port(const char *addr, int *port);

/* Bytes through a peer's TCP sockets, from the kernel (tcpbytes.c). */
struct zc_peer_tcp {
	uint64_t written;		/* by the program: bytes acked + send queue */
	uint64_t read;			/* by the program: bytes received - receive queue */
	int nsocks;
};
/* Sum over this network namespace's TCP sockets (not listening, not in
 * TIME_WAIT) with local port lport and remote port rport (0: any), held by
 * pid (0: anyone's). 0 or -errno (no sock_diag: -EPROTONOSUPPORT ...). */
int zc_peer_tcp_bytes(pid_t pid, int lport, int rport, struct zc_peer_tcp *out);
/* The inodes of the sockets pid holds an fd of (/proc/PID/fd), sorted, at
 * most max of them: the count or -errno. zc_peer_holds() is whether one of
 * want[0..nwant) is among ino[0..n). */
int zc_peer_socket_inodes(pid_t pid, unsigned long *ino, int max);
bool zc_peer_holds(const unsigned long *ino, int n, const unsigned long *want, int nwant);

#endif
