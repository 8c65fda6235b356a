/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_WIRE_H
#define ZC_WIRE_H

#include "config/cfg.h"
#include "lib/cpu.h"
#include "modes/mode.h"

#include <jansson.h>
#include <stdint.h>
#include <sys/resource.h>

#include <net/if.h>

/* The three phases of a role's run: warm-up, window, tail; an edge closes
 * each (the live file's edges are the first two). */
enum { PH_WARMUP, PH_WINDOW, PH_TAIL, PH_NR };

/* How a sample that timed out is told, by the controller (a role never
 * ended) and by a request/response client (a response never came). */
#define ZC_STALLED "a role stalled"

#define ZC_CPU_AUTO (-2)	/* --cpu=auto: a role on another machine places itself */

/*
 * What a role is told, as one struct: its own options (the rows of
 * zc_role_opts) and every workload key (zc_opts) in cfg. The controller
 * fills it and writes it as argv with zc_role_args_argv; the role parses the
 * same rows back with zc_role_args_parse. A new workload key reaches the role
 * by being a row of zc_opts, nothing else.
 */
struct zc_role_args {
	int role;
	int cpu;			/* -1: not pinned; ZC_CPU_AUTO: place yourself */
	char cpus[2048];		/* the workers' CPUs, "3,5,7" ("": cpu for them all) */
	char listen[128];		/* address to listen on (proxy, sink) */
	char peer[160];			/* --connect HOST:PORT, the next hop ("" for the sink) */
	char bind_device[IF_NAMESIZE];	/* SO_BINDTODEVICE every socket to it, "" none */
	struct zc_cfg cfg;		/* the run as this role sees it (zc_cfg_for_role) */
	/* peer, split by zc_role_args_parse */
	char connect[128];
	int port;
};

extern const struct zc_opt zc_role_opts[];
extern const size_t zc_nrole_opts;

/* Entries of a role's command line: its rows (one per role and workload
 * key, about 70 with request/response and slices) and a transport's prefix
 * (ssh: about 15). */
#define ZC_ROLE_ARGV_MAX 160

/* Role and workload rows as "--key=value" into argv (texts in store):
 * count, or -E2BIG. */
int zc_role_args_argv(const struct zc_role_args *ra, char **argv, int max, char *store,
		      size_t storelen);
/* The role's argv (argv[1] is its name, ra->role set): 0, ZC_OPT_HELP (help
 * printed), or -EINVAL with "command line: --key: why" in err. */
int zc_role_args_parse(int argc, char **argv, struct zc_role_args *ra, char *err,
		       size_t errlen);

int zc_role_main(int argc, char **argv); /* argv[1] is the role's name */

/* ---- the shared counters (live.c) ---- */

#define ZC_LIVE_ENV "ZCBENCH_LIVE_FILE"

struct zc_live_map {
	void *base;
	size_t len;
};

/* The controller: make an empty file for role (its path into path). 0/-errno. */
int zc_live_create(int role, char *path, size_t len);
/* Map a role's file once it has filled it in: 0, -EAGAIN (not yet), -errno. */
int zc_live_open(struct zc_live_map *m, const char *path);
/* Every connection's bytes now, summed; at the end of phase p (0 warm-up,
 * 1 window) as the role took them. 0 or -ENODATA. */
int zc_live_bytes(const struct zc_live_map *m, uint64_t *bytes);
int zc_live_edge(const struct zc_live_map *m, int phase, uint64_t *bytes);
void zc_live_close(struct zc_live_map *m);
/* Remove the files of controllers that died between making one and mapping it. */
void zc_live_reap_stale(void);

/* A role's connection counters as the controller reads them: nconn io
 * entries (their bytes) and each one's bytes at each phase's edge. */
struct zc_live_role {
	int nconn;
	struct zc_io *io;
	uint64_t (*edge)[PH_NR];
};
/* The role (role.c, rr.c): io and edge in the file named by
 * $ZCBENCH_LIVE_FILE, else on the heap. 0 or -ENOMEM. */
int zc_live_role_alloc(struct zc_live_role *l);
void zc_live_role_free(struct zc_live_role *l);

/* ---- the protocol's lines, both sides' spelling (proto.c) ---- */

/* role -> controller: listening (the source: connected), port N (printf
 * and scanf both; lib/proc.c's zc_child_ready is given it). */
#define ZC_READY "READY port=%d"
/* controller -> role: start now; roles on the controller's host get GO_AT,
 * the controller's CLOCK_MONOTONIC when it sent it (%lf prints as %f). */
#define ZC_GO "GO"
#define ZC_GO_AT ZC_GO " t=%lf"

/* The role: READY on stdout, flushed. */
void zc_wire_ready(int port);
/* The role: wait for GO on stdin. 0, -EPIPE (stdin closed) or -EPROTO
 * (another line); *late_s: how long after the controller sent it we read
 * it (0 when it gave no time). */
int zc_wire_wait_go(double *late_s);
/* The role's report, its last line on stdout: with status, "status" (and
 * "error" when error is not NULL) set first. ZC_EXIT_OK when out's status
 * is "ok", else ZC_EXIT_FAIL. */
int zc_wire_emit(json_t *out, const char *status, const char *error);
/* RLIMIT_NOFILE raised for conns connections where allowed (the controller
 * for the roles it starts, each role for itself): *out {needed, soft_before,
 * soft, hard}, NULL when unread. 0, or -EMFILE (why in err) when it stays
 * below what they need. */
int zc_wire_nofile(long long conns, json_t **out, char *err, size_t errlen);

/* ---- a role's window report (window.c) ---- */

/*
 * Every key of a role's "window", in the order it prints them. Every
 * producer (the stream role, the request/response role, a program in a
 * role's place) prints every one; null is "not measured by this one".
 *   window_s            seconds between the two edges (several workers: their mean)
 *   bytes               the role's payload bytes in the window
 *   bytes_from          what bytes counts
 *   calls               data system calls (a program's are not counted)
 *   transactions        request/response: transactions completed
 *   rusage_user_s/_sys_s  CPU time of rusage_from in the window
 *   rusage_from         whose: the process, the worker threads, the program
 *   vol_/invol_ctx_switches  of the same, where known
 *   cpus                the role's workers' distinct CPUs
 *   cpustat             their /proc/stat seconds summed (ZC_CPUSTAT_KEYS, busy_s)
 *   busy_s, busy_frac   cpustat's busy seconds, and per second (busy cores)
 *   tcp_bytes           a program's TCP sockets' bytes in the window (sock_diag)
 *   sockets, sockets_at_start  its sockets at the window's end and start
 *   tcp_edges           [written at start, at end, read at start, at end]
 */
#define ZC_WINDOW_KEYS(X) \
	X(window_s) X(bytes) X(bytes_from) X(calls) X(transactions) \
	X(rusage_user_s) X(rusage_sys_s) X(rusage_from) X(vol_ctx_switches) \
	X(invol_ctx_switches) X(cpus) X(cpustat) X(busy_s) X(busy_frac) \
	X(tcp_bytes) X(sockets) X(sockets_at_start) X(tcp_edges)

enum zc_window_key {
#define ZC_WK_ENUM(k) ZC_WK_##k,
	ZC_WINDOW_KEYS(ZC_WK_ENUM)
#undef ZC_WK_ENUM
	ZC_WK_NR
};
extern const char *const zc_window_keys[ZC_WK_NR];

/* window.cpustat: struct zc_cpustat's fields, each as FIELD_s, then busy_s. */
#define ZC_CPUSTAT_KEYS(X) X(user) X(nice) X(system) X(irq) X(softirq) X(idle) X(iowait) X(steal)
enum {
#define ZC_CK_ENUM(f) ZC_CK_##f,
	ZC_CPUSTAT_KEYS(ZC_CK_ENUM)
#undef ZC_CK_ENUM
	ZC_CK_busy, ZC_CK_NR
};
extern const char *const zc_cpustat_keys[ZC_CK_NR];

/* What a producer measured at its two edges (zc_window_init: nothing yet). */
struct zc_window {
	double window_s;
	int64_t bytes, calls, transactions;	/* < 0: not counted */
	const char *bytes_from, *rusage_from;	/* NULL: not said */
	double user_s, sys_s;			/* NAN: not read */
	int64_t vol_cs, invol_cs;		/* < 0: not read */
	int cpus[ZC_WORKERS_MAX], ncpus;	/* distinct */
	struct zc_cpustat cs;			/* their deltas, summed */
	bool cs_ok;				/* each one's read at both edges */
	bool tcp;				/* a program's sockets were read (peers) */
	int64_t tcp_bytes;			/* < 0: not a window figure */
	int sockets, sockets_at_start;
	uint64_t tcp_edges[4];
};

void zc_window_init(struct zc_window *w, double window_s);
/* A worker's CPU and its /proc/stat at the two edges (ok: both read): each
 * distinct CPU counted once. False when cpu was counted already. */
bool zc_window_cpu(struct zc_window *w, int cpu, const struct zc_cpustat *a,
		   const struct zc_cpustat *b, bool ok);
/* getrusage at the two edges, added (a role's process, or each thread). */
void zc_window_rusage(struct zc_window *w, const struct rusage *a, const struct rusage *b);
/* The "window" object: every key of ZC_WINDOW_KEYS. */
json_t *zc_window_json(const struct zc_window *w);
/* v as a JSON real, null when not finite. */
json_t *zc_wire_num(double v);

#endif
