/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program in a role's place: what it is measured with at the window's
 * edges (rr_peer_edge.c), for HAProxy and iperf3 (role_peer.c) and for an
 * HTTP program in a request/response role's place (rr_peer.c: nginx as the
 * server; rr_peer_client.c: wrk or h2load as the client).
 */
#ifndef ZC_RR_PEER_INT_H
#define ZC_RR_PEER_INT_H

#include "lib/cpu.h"
#include "modes/mode.h"
#include "peers/peer.h"
#include "wire/wire.h"

#include <jansson.h>

#define HP_CPUS 64

enum { HP_WARMUP, HP_WINDOW, HP_NR };

struct hp_edge {
	double t;
	struct zc_cpustat cs[HP_CPUS];
	bool cs_ok;
	struct zc_peer_tcp tcp;
	int tcp_ret;
	double user_s, sys_s;
	bool cpu_ok;
};

struct hp {
	const struct zc_role_args *ra;
	const struct zc_mode *m;
	int cpus[HP_CPUS], ncpus;	/* distinct CPUs of the role's workers */
	struct zc_peer *p;		/* the program (nginx's master) */
	bool group;			/* its CPU time: its process group's (nginx) */
	/* Its sockets: zc_peer_tcp_bytes(pid, lport, rport); pid 0: anyone's
	 * (nginx's workers hold them). read: count what it read (a client, a
	 * sink), else what it wrote. */
	pid_t tcp_pid;
	int lport, rport;
	bool read;
	int pidfd;
	char dir[64];			/* the role's folder: the program's log, output */
	struct hp_edge e[HP_NR];
};

/* h for the role's workers' CPUs cpus[0..nw), each once; this process
 * pinned to the first, where it wakes only at the edges. */
void zc_hp_init(struct hp *h, const struct zc_role_args *ra, const struct zc_mode *m,
		const int *cpus, int nw);
/* At an edge: the role's CPUs' /proc/stat, the bytes of the program's
 * sockets, its CPU time (with group, its process group's: every member,
 * and the children its leader reaped). */
void zc_hp_take(struct hp *h, struct hp_edge *e);
/* Sleep until t, or until the program exits: 0 at t, -ECHILD when it did. */
int zc_hp_sleep_until(struct hp *h, double t);
/*
 * The role's "window" from the two edges. Its bytes: in a stream run, what
 * the program's sockets moved; a request/response server's, what they
 * wrote (heads too); a client's, the bodies of its responses (of
 * said_bytes read over its whole run) in the share of those bytes its
 * sockets read inside the window: those transactions into *tx (may be
 * NULL); HAProxy's in a request/response run: none (null).
 */
json_t *zc_hp_window_json(const struct hp *h, uint64_t responses, uint64_t said_bytes,
			  int64_t *tx);
/* The program exited before it should: why (its exit and log's tail) into err. */
void zc_hp_died(struct hp *h, const char *when, char *err, size_t len);

/* rr_peer_client.c: wrk or h2load in the source's place, from READY to
 * the report's figures (out) and its peer object; 0 or -errno (err). */
int zc_rr_peer_client(struct hp *h, json_t *out, json_t *peer, char *err, size_t len);

#endif
