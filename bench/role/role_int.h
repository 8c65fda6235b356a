/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside a role process (role.c, role_conn.c, role_worker.c): its
 * connections, its workers and their window edges.
 */
#ifndef ZC_ROLE_INT_H
#define ZC_ROLE_INT_H

#include "counters/counters.h"
#include "counters/toggle.h"
#include "lib/cpu.h"
#include "modes/mode.h"
#include "wire/wire.h"
#include "role/slices.h"

#include <pthread.h>
#include <sys/resource.h>


/* One worker at one edge: read by the worker itself, on its own thread. */
struct wsnap {
	double t;
	uint64_t bytes, calls, waits;
	struct rusage ru;		/* the worker's thread (RUSAGE_THREAD) */
	struct zc_cpustat cs;		/* its CPU's /proc/stat line */
	bool cs_ok;
};

struct role_worker {
	int idx, cpu, node;
	pthread_t th;
	bool started;			/* a thread of its own (worker 0 is the main thread) */
	struct zc_conns set;		/* its connections, for the mode framework */
	uint8_t *buf;			/* shared by its connections (source pattern, sink buffer) */
	size_t buf_len;
	struct wsnap s[PH_NR];
	int ret[PH_NR];			/* the pump's result in each phase */
};

struct role {
	struct zc_role_args *ra;
	const struct zc_mode *m;
	int nconn, nworkers;
	struct zc_io *io;		/* nconn: one per connection */
	uint8_t **cbuf;			/* nconn: a proxy's per-connection buffer, or NULL */
	uint64_t (*edge)[PH_NR];	/* nconn: each connection's bytes at each edge */
	int *owner;			/* nconn: its worker */
	uint64_t *shift;		/* nconn: where its stream starts in the pattern */
	struct role_worker *w;		/* nworkers */
	uint8_t *ref;			/* sink: one period of the pattern */
	size_t ref_len;
	struct rusage ru_self[PH_NR];	/* the whole process (io-wq threads too), worker 0's edges */
	struct zc_counters ctr;		/* worker 0's thread and CPU */
	struct zc_counters_snap ctr_snap[2];
	struct zc_toggle *toggle;	/* ZC_BPF_TOGGLE_MS (make bench-overhead), else NULL */
	struct zc_slicing *sl;		/* run key alternate on the DUT role (slices.h), else NULL */
	int lfd;
	json_t *rlimit;			/* what RLIMIT_NOFILE was and became */
	char accept_how[160];
	double go_late_s;		/* how long after the controller's GO we read it */
	double go_t;			/* that GO on this role's clock (zc_now) */
};

/* role_conn.c: 0 or -errno, what failed in err. */
/* Before READY: the source connects every connection and writes its header;
 * the proxy and the sink listen (*port). */
int zc_role_conns_open(struct role *r, int *port, char *err, size_t errlen);
/* After READY: the proxy and the sink accept their connections (the sink
 * reads each header: connection c goes to io[c]); the proxy connects on. */
int zc_role_conns_accept(struct role *r, char *err, size_t errlen);
void zc_role_conns_close(struct role *r);

/*
 * After the window: a sink's per-connection "verified_bytes"
 * (payload bytes checked against the pattern; 0 for a mode that does not
 * look at them), the role's "verified_bytes" and "verified" (true only when
 * its mode checks bytes and every byte it received was checked).
 */
void zc_role_verified_json(const struct role *r, json_t *out);

/* role_worker.c */
/* Workers, their CPUs, buffers and connections; every connection's mode
 * setup. 0 or -errno, what failed in err. */
int zc_role_workers_setup(struct role *r, char *err, size_t errlen);
/* GO received: run warm-up, window and tail on every worker (the calling
 * thread is worker 0); the window's result (1: a peer closed early) in
 * *window_ret. The worst result of the last phase, or -errno. */
int zc_role_workers_run(struct role *r, int *window_ret);
/* The role's "window" object (sums over workers, distinct CPUs once). */
json_t *zc_role_window_json(const struct role *r);
/* "workers" and "connections": per worker and per connection figures. */
json_t *zc_role_workers_json(struct role *r);
json_t *zc_role_conns_json(struct role *r);
/* The mode's report: one connection's, or all of them merged (counts summed). */
json_t *zc_role_mode_report(struct role *r);
void zc_role_workers_teardown(struct role *r);

#endif
