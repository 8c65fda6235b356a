/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Request/response runs (traffic = rr) inside a role process: the source is
 * the client (rr_client.c), the sink the server (rr_server.c), the proxy
 * forwards both directions with its mode's step (rr_proxy.c); rr.c is what
 * they share: workers, window edges, the report.
 *
 * Unlike a stream run's, connections come and go through the window (churn),
 * so the phases are kept by the clock rather than by SIGALRM: every role
 * computes the same edges from the controller's GO time, and each worker
 * takes its edge (bytes, calls, transactions, its thread's CPU time, its
 * CPU's /proc/stat) when its loop first sees the clock past it; its epoll
 * waits never outlast the next edge.
 */
#ifndef ZC_RR_INT_H
#define ZC_RR_INT_H

#include "lib/cpu.h"
#include "lib/hdr.h"
#include "modes/mode.h"
#include "wire/wire.h"

#include <jansson.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>

/* warm-up, window, tail; the tail's edge ends the client. */
enum { RR_WARMUP, RR_WINDOW, RR_TAIL, RR_NR };

struct rr_snap {
	double t;
	uint64_t bytes, calls, tx;
	struct rusage ru;
	struct zc_cpustat cs;
	bool cs_ok;
};

struct rr;

struct rr_worker {
	struct rr *rr;
	int idx, cpu;
	pthread_t th;
	bool started;
	int epfd;
	int phase;			/* the phase the clock is in (RR_NR: past the tail) */
	/* running counts: bytes (client: body bytes verified; server: bytes
	 * sent; proxy: bytes forwarded both ways), data calls, transactions */
	uint64_t bytes, calls, tx;
	uint64_t opened, closed, resets;	/* connections */
	int first_reset;		/* the first connection error's -errno */
	uint64_t stalled;		/* client: requests given up on, unanswered */
	/* client, open loop, requests intended in the window: sent more than an
	 * interval after their time (late), never sent before the run ended
	 * (unsent: in the latency from their time to the end) */
	uint64_t late, unsent;
	struct rr_snap s[RR_NR];
	struct zc_hdr *lat;		/* client: the window's latencies, ns */
	struct zc_pipe_pool pool;	/* proxy */
	uint8_t *buf;			/* receive buffer (client), chunk bytes */
	size_t buf_len;
	void *priv;			/* the role's per-worker state */
	int ret;			/* 0, or -errno: what failed in err */
	char err[512];
};

struct rr {
	struct zc_role_args *ra;
	const struct zc_cfg *cfg;
	int role;
	const struct zc_mode *m;	/* proxy: its mode */
	int nw;
	struct rr_worker *w;
	int lfd;			/* server, proxy: the listener */
	struct sockaddr_storage peer;	/* client, proxy: where to connect */
	socklen_t peer_len;
	double edge[RR_NR];		/* CLOCK_MONOTONIC of each edge */
	double give_up;			/* client: past the tail, wait no longer for responses */
	double end;			/* server, proxy: give up waiting for the client */
	volatile int abort;		/* a worker failed: everyone stops */
	uint8_t *pattern;		/* one period from offset 0 (the run's seed) */
	uint64_t period;
	int file_fd;			/* server_send = sendfile: the pattern as a file */
	uint64_t *sizes;		/* object_sizes_file, or NULL */
	size_t nsizes;
};

/* rr_worker.c */
/* The workers' byte counts where a watching controller reads them (live.c:
 * one "connection" per worker, its edges the workers'), for --interval. */
extern struct zc_live_role zc_rr_live;
/* w's state at the edge p (PH_* / RR_*): time, bytes, calls, CPU. */
void zc_rr_take(struct rr_worker *w, int p);
/* The phase of now, taking w's edges it passed: true while before the
 * tail's end. */
bool zc_rr_tick(struct rr_worker *w, double now);
/* Milliseconds from now to w's next edge, at most cap (epoll's timeout). */
int zc_rr_wait_ms(const struct rr_worker *w, double now, int cap);
/* A non-blocking connection to rr->peer (SO_BINDTODEVICE as the role's):
 * fd (connecting), or -errno. */
int zc_rr_connect(const struct rr *rr);
/* w's epoll set, with the listener in it when there is one (EPOLLEXCLUSIVE,
 * data.ptr NULL: a connection's is never NULL). 0 or -errno. */
int zc_rr_epoll(struct rr_worker *w);
struct rr_ops;
/* The server's and the proxy's loop: tick the edges, wait on w->epfd, hand
 * each connection the listener has (TCP_NODELAY set) to ops->accept and any
 * other event to ops->event (its data.ptr); past the tail wait for the
 * client's closes, at most until rr->end. */
void zc_rr_serve(struct rr_worker *w, const struct rr_ops *ops);
/* Append c to *all (*n of *cap, grown as needed): false when out of memory. */
bool zc_rr_keep(void ***all, size_t *n, size_t *cap, void *c);
/* TCP_NODELAY on a request/response socket (every one zcbench opens or
 * accepts in rr runs), as neper, netperf's RR tests, HAProxy and nginx's
 * keep-alive do: else a response's last short segment waits for the
 * client's delayed ACK (40 ms) whenever the one before is unacknowledged. */
void zc_rr_nodelay(int fd);
/* w failed: note it (first failure wins) and stop every worker. */
void zc_rr_fail(struct rr_worker *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* rr.c: the role's "window" from its workers' edges. */
json_t *zc_rr_window_json(const struct rr *rr);

/* Each role's worker: setup (per worker, on its thread, w->epfd made),
 * loop (NULL: zc_rr_serve's with accept and event), teardown, and its part
 * of the report. */
struct rr_ops {
	int (*setup)(struct rr_worker *w);
	void (*loop)(struct rr_worker *w);
	void (*teardown)(struct rr_worker *w);
	void (*report)(struct rr *rr, json_t *rrj);
	void (*accept)(struct rr_worker *w, int fd);
	void (*event)(struct rr_worker *w, void *ptr);
};
extern const struct rr_ops zc_rr_client, zc_rr_server, zc_rr_proxy;


/*
 * rr_check = exact (zcbench's client and server, a proxy that forwards each
 * connection as it is): the k-th response of a TCP connection carries the
 * pattern from offset mark(k) = k * ZC_RR_MARK_STRIDE mod period on, so a
 * response replayed, swapped or answered for another request of the same
 * size fails the body check, naming the connection and the request. With
 * rr_check = http (an HTTP program in the path may pool connections) every
 * response starts at 0: what a same-size swap there goes unseen.
 */
#define ZC_RR_MARK_STRIDE 4099ULL
static inline uint64_t zc_rr_mark(const struct rr *rr, uint64_t k)
{
	return rr->cfg->rr_check == ZC_RR_CHECK_EXACT ? k * ZC_RR_MARK_STRIDE % rr->period : 0;
}

#endif
