// SPDX-License-Identifier: GPL-2.0
/*
 * What a program in a role's place is measured with (rr_peer_int.h), at
 * the window's edges: the role's CPUs, the program's sockets and its (or
 * its process group's) CPU time.
 */
#include "peers/rr_peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void zc_hp_init(struct hp *h, const struct zc_role_args *ra, const struct zc_mode *m,
		const int *cpus, int nw)
{
	h->ra = ra;
	h->m = m;
	h->pidfd = -1;
	for (int i = 0; i < nw && h->ncpus < HP_CPUS; i++) {
		bool seen = false;

		for (int k = 0; k < h->ncpus; k++)
			seen |= h->cpus[k] == cpus[i];
		if (!seen)
			h->cpus[h->ncpus++] = cpus[i];
	}
	if (cpus[0] >= 0)
		zc_pin_cpu(cpus[0]);
}

void zc_hp_take(struct hp *h, struct hp_edge *e)
{
	struct zc_peer_cpu pc;

	e->t = zc_now();
	e->cs_ok = true;
	for (int i = 0; i < h->ncpus; i++)
		e->cs_ok &= h->cpus[i] >= 0 && zc_cpustat_read(h->cpus[i], &e->cs[i]) == 0;
	e->tcp_ret = zc_peer_tcp_bytes(h->tcp_pid, h->lport, h->rport, &e->tcp);
	/* Its CPU time (with group, its process group's: nginx's workers). */
	e->cpu_ok = !(h->group ? zc_peer_group_cpu : zc_peer_cpu)(h->p, &pc);
	e->user_s = pc.user_s;
	e->sys_s = pc.sys_s;
}

int zc_hp_sleep_until(struct hp *h, double t)
{
	for (;;) {
		double left = t - zc_now();
		struct pollfd pfd = { .fd = h->pidfd, .events = POLLIN };
		int k;

		if (left <= 0)
			return zc_peer_alive(h->p) ? 0 : -ECHILD;
		if (h->pidfd < 0) {
			/* No pidfd (kernel < 5.3): look every 50 ms. */
			if (!zc_peer_alive(h->p))
				return -ECHILD;
			usleep(left < 0.05 ? (useconds_t)(left * 1e6) : 50000);
			continue;
		}
		k = poll(&pfd, 1, (int)ceil(left * 1000));
		/* Readable: it exited (checked, and reaped, by zc_peer_alive);
		 * otherwise time passed or a signal came: look at the clock again. */
		if (k > 0 && !zc_peer_alive(h->p))
			return -ECHILD;
		if (k > 0)
			usleep(10000);
	}
}

json_t *zc_hp_window_json(const struct hp *h, uint64_t responses, uint64_t said_bytes,
			  int64_t *tx)
{
	const struct hp_edge *a = &h->e[HP_WARMUP], *b = &h->e[HP_WINDOW];
	uint64_t x0 = h->read ? a->tcp.read : a->tcp.written, x1 = h->read ? b->tcp.read : b->tcp.written;
	bool rr = h->ra->cfg.traffic == ZC_TRAFFIC_RR;
	struct zc_window w;

	zc_window_init(&w, b->t - a->t);
	for (int i = 0; i < h->ncpus; i++)
		zc_window_cpu(&w, h->cpus[i], &a->cs[i], &b->cs[i], a->cs_ok && b->cs_ok);
	/* The program's own CPU time stands where a role's getrusage would. */
	if (a->cpu_ok && b->cpu_ok) {
		w.user_s = b->user_s - a->user_s;
		w.sys_s = b->sys_s - a->sys_s;
	}
	w.rusage_from = h->group ? "the program's process group (/proc/PID/stat of each member, "
		"and the children its leader reaped)" : "the program (/proc/PID/stat, every thread)";
	w.tcp = true;
	/* Under churn a socket closed inside the window takes its count along. */
	w.tcp_bytes = a->tcp_ret || b->tcp_ret || x1 < x0 ? -1 : (int64_t)(x1 - x0);
	w.sockets = b->tcp.nsocks;
	w.sockets_at_start = a->tcp.nsocks;
	w.tcp_edges[0] = a->tcp.written;
	w.tcp_edges[1] = b->tcp.written;
	w.tcp_edges[2] = a->tcp.read;
	w.tcp_edges[3] = b->tcp.read;
	w.bytes_from = h->read ?
		"the program's TCP sockets: tcpi_bytes_received - receive queue (sock_diag)" :
		"the program's TCP sockets: tcpi_bytes_acked + send queue (sock_diag)";
	if (!rr || h->ra->role == ZC_ROLE_SINK) {
		w.bytes = w.tcp_bytes;
	} else if (h->ra->role == ZC_ROLE_SOURCE) {
		double share = w.tcp_bytes >= 0 && said_bytes ? (double)w.tcp_bytes / said_bytes : NAN;

		/* Body bytes, as zcbench's client counts them (unchecked here). */
		w.transactions = isfinite(share) ? llround(share * (double)responses) : 0;
		w.bytes = w.transactions * (int64_t)h->ra->cfg.object_size;
		w.bytes_from = "the responses' bodies: object_size times the transactions "
			       "(rr.transactions_from); tcp_bytes: what its sockets read, heads included";
		if (tx)
			*tx = w.transactions;
	} else {
		/* Connections open and close inside the window: the live
		 * sockets' counts at its edges are no window figure. */
		w.bytes_from = "none: connections come and go in a request/response run; "
			       "per-byte figures count the client's verified response bytes";
	}
	return zc_window_json(&w);
}

void zc_hp_died(struct hp *h, const char *when, char *err, size_t len)
{
	char desc[64], tail[600];

	zc_peer_describe(h->p, desc, sizeof(desc));
	zc_peer_log_tail(h->p->log_path, tail, sizeof(tail));
	snprintf(err, len, "%s exited %s (%s)%s%s", h->p->name, when, desc,
		 tail[0] ? "; its log ends: " : "", tail);
}
