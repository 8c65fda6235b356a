/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An HTTP program in a request/response role's place (rr_peer.c: nginx as
 * the server; rr_peer_client.c: wrk or h2load as the client): what both
 * measure it with, at the edges of the controller's GO time (rr_peer_edge.c).
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
	/* Its sockets: zc_peer_tcp_bytes(pid, lport, rport); pid 0: anyone's
	 * (nginx's workers hold them). read: count what it read (a client). */
	pid_t tcp_pid;
	int lport, rport;
	bool read;
	int pidfd;
	char dir[64];			/* the role's folder: the program's log, output */
	struct hp_edge e[HP_NR];
};

/* At an edge: the role's CPUs' /proc/stat, the bytes of the program's
 * sockets, the CPU time of its process group (every member, and the
 * children its leader reaped). */
void zc_hp_take(struct hp *h, struct hp_edge *e);
/* Sleep until t, or until the program exits: 0 at t, -ECHILD when it did. */
int zc_hp_sleep_until(struct hp *h, double t);
/* The role's "window" from the two edges, shaped as a zcbench role's. */
json_t *zc_hp_window_json(const struct hp *h);
/* The program exited before it should: why (its exit and log's tail) into err. */
void zc_hp_died(struct hp *h, const char *when, char *err, size_t len);
/* Print the report (one line). */
void zc_hp_emit(json_t *out);

/* rr_peer_client.c: wrk or h2load in the source's place, from READY to
 * the report's figures (out) and its peer object; 0 or -errno (err). */
int zc_rr_peer_client(struct hp *h, json_t *out, json_t *peer, char *err, size_t len);

#endif
