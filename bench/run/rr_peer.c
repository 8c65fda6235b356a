// SPDX-License-Identifier: GPL-2.0
/*
 * An HTTP program in a request/response role's place (a ZC_MODE_HTTP peer
 * mode, traffic = rr): nginx as the server, in the sink's place, facing
 * zcbench's client (which still checks every body byte: nginx serves the
 * run's pattern from offset 0, bench/peers/nginx.c) or its proxy.
 *
 * The role process stays the role: READY with nginx's port, the edges of
 * the controller's GO time (as rr.c's workers keep them), at each edge the
 * role's CPUs' /proc/stat, the CPU time of nginx's process group (its
 * workers do the work) and the bytes its sockets wrote (sock_diag); between
 * the edges it sleeps in poll() on nginx's pidfd. After the client's tail
 * it waits for the connections to close, stops nginx (folder removed) and
 * prints a report shaped as a zcbench server's, so the DUT's busy cores,
 * tps_per_core and the headline come out the same way.
 */
#include "run/rr.h"
#include "run/rr_int.h"
#include "lib/cpu.h"
#include "lib/http.h"
#include "peers/nginx.h"
#include "peers/peer.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HP_CPUS 64

enum { E_WARMUP, E_WINDOW, E_NR };

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
	struct zc_nginx ng;
	int pidfd;
	char dir[64];			/* our folder: nginx's log */
	char log[128];
	int port;
	struct hp_edge e[E_NR];
};

/* User and system seconds of a process group (nginx's master and workers,
 * and the workers the master reaped): 0 or -errno. */
static int group_times(const struct zc_peer *p, double *user_s, double *sys_s)
{
	pid_t pids[HP_CPUS + 8];
	int n = zc_peer_group_pids(p, pids, ZC_ARRAY_SIZE(pids));
	unsigned long long ut = 0, st = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		char path[64], line[1024], *q;
		unsigned long long u, s, cu, cs;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		if (!(f = fopen(path, "re")))
			continue;	/* gone since it was listed */
		q = fgets(line, sizeof(line), f);
		fclose(f);
		/* After the command's closing parenthesis: utime is field 14,
		 * stime 15, cutime 16, cstime 17. */
		if (!q || !(q = strrchr(line, ')')) ||
		    sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			   &u, &s, &cu, &cs) != 4)
			return -EINVAL;
		ut += u + (i == 0 ? cu : 0);
		st += s + (i == 0 ? cs : 0);
	}
	*user_s = ut / (double)sysconf(_SC_CLK_TCK);
	*sys_s = st / (double)sysconf(_SC_CLK_TCK);
	return 0;
}

static void take(struct hp *h, struct hp_edge *e)
{
	e->t = zc_now();
	e->cs_ok = true;
	for (int i = 0; i < h->ncpus; i++)
		e->cs_ok &= h->cpus[i] >= 0 && zc_cpustat_read(h->cpus[i], &e->cs[i]) == 0;
	/* The workers hold the sockets: every one on nginx's port counts. */
	e->tcp_ret = zc_peer_tcp_bytes(0, h->port, 0, &e->tcp);
	e->cpu_ok = group_times(&h->ng.p, &e->user_s, &e->sys_s) == 0;
}

/* Sleep until t, or until nginx's master exits: 0 at t, -ECHILD when it did. */
static int sleep_until(struct hp *h, double t)
{
	for (;;) {
		double left = t - zc_now();
		struct pollfd pfd = { .fd = h->pidfd, .events = POLLIN };

		if (left <= 0)
			return zc_peer_alive(&h->ng.p) ? 0 : -ECHILD;
		if (h->pidfd < 0) {
			/* No pidfd (kernel < 5.3): look every 50 ms. */
			if (!zc_peer_alive(&h->ng.p))
				return -ECHILD;
			usleep(left < 0.05 ? (useconds_t)(left * 1e6) : 50000);
			continue;
		}
		if (poll(&pfd, 1, (int)ceil(left * 1000)) > 0 && !zc_peer_alive(&h->ng.p))
			return -ECHILD;
	}
}

static json_t *window_json(const struct hp *h)
{
	const struct hp_edge *a = &h->e[E_WARMUP], *b = &h->e[E_WINDOW];
	double win = b->t - a->t;
	json_t *o = json_object(), *cpus = json_array();
	struct zc_cpustat sum = { 0 };

	for (int i = 0; i < h->ncpus; i++)
		json_array_append_new(cpus, json_integer(h->cpus[i]));
	json_object_set_new(o, "window_s", json_real(win));
	/* Under churn a socket closed inside the window takes its count along. */
	json_object_set_new(o, "bytes", a->tcp_ret || b->tcp_ret || b->tcp.written < a->tcp.written ?
			    json_null() : json_integer((json_int_t)(b->tcp.written - a->tcp.written)));
	json_object_set_new(o, "bytes_from", json_string("nginx's TCP sockets on its port, heads "
		"and bodies: tcpi_bytes_acked + send queue (sock_diag), live sockets only; per byte "
		"figures use the client's verified body bytes"));
	json_object_set_new(o, "sockets", json_integer(b->tcp.nsocks));
	if (a->cpu_ok && b->cpu_ok) {
		json_object_set_new(o, "rusage_user_s", json_real(b->user_s - a->user_s));
		json_object_set_new(o, "rusage_sys_s", json_real(b->sys_s - a->sys_s));
		json_object_set_new(o, "rusage_from", json_string("nginx's process group "
				    "(/proc/PID/stat of the master and its workers)"));
	}
	json_object_set_new(o, "cpus", cpus);
	if (!a->cs_ok || !b->cs_ok) {
		json_object_set_new(o, "busy_s", json_null());
		return o;
	}
	for (int i = 0; i < h->ncpus; i++) {
		struct zc_cpustat d;

		zc_cpustat_delta(&a->cs[i], &b->cs[i], &d);
		sum.user += d.user, sum.nice += d.nice, sum.system += d.system;
		sum.irq += d.irq, sum.softirq += d.softirq, sum.idle += d.idle;
		sum.iowait += d.iowait, sum.steal += d.steal;
	}
	json_object_set_new(o, "cpustat", json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "user_s",
			    sum.user, "system_s", sum.system, "irq_s", sum.irq, "softirq_s",
			    sum.softirq, "idle_s", sum.idle, "steal_s", sum.steal, "busy_s",
			    zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_s", json_real(zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_frac", json_real(win > 0 ? zc_cpustat_busy(&sum) / win : 0));
	return o;
}

/* The run's object sizes, distinct, into sizes (at most max): count or -errno
 * with the reason in err. */
static int object_sizes(const struct zc_cfg *cfg, uint64_t *sizes, int max, char *err, size_t len)
{
	uint64_t *all = NULL;
	size_t n = 0;
	int k = 0, ret;

	if (!cfg->object_sizes_file[0]) {
		sizes[0] = cfg->object_size;
		return 1;
	}
	ret = zc_sizes_file_read(cfg->object_sizes_file, 1ULL << 40, &all, &n, err, len);
	if (ret) {
		char why[400];

		snprintf(why, sizeof(why), "object_sizes_file %s", err);
		snprintf(err, len, "%s", why);
		return ret;
	}
	for (size_t i = 0; i < n && ret == 0; i++) {
		bool seen = false;

		for (int j = 0; j < k; j++)
			seen |= sizes[j] == all[i];
		if (seen)
			continue;
		if (k == max) {
			snprintf(err, len, "object_sizes_file %s: more than %d distinct sizes, the "
				 "objects nginx is given to serve", cfg->object_sizes_file, max);
			ret = -E2BIG;
		} else {
			sizes[k++] = all[i];
		}
	}
	free(all);
	return ret ? ret : k;
}

/* Start nginx on a free port of the role's address: 0 or -errno (err). */
static int start_nginx(struct hp *h, json_t *peer, char *err, size_t len)
{
	const struct zc_cfg *cfg = &h->ra->cfg;
	uint64_t sizes[ZC_NGINX_MAX_SIZES];
	int n = object_sizes(cfg, sizes, ZC_NGINX_MAX_SIZES, err, len), ret;
	bool pinned = h->cpus[0] >= 0;
	struct zc_nginx_cfg nc = {
		.listen_addr = h->ra->listen, .master = true, .workers = h->ncpus,
		.cpus = pinned ? h->cpus : NULL, .ncpus = pinned ? h->ncpus : 0,
		.sendfile = !strcmp(h->m->name, "nginx-sendfile"), .tcp_nopush = true,
		/* At most chunk bytes a call, as zcbench's own server sends. */
		.sendfile_max_chunk = cfg->chunk, .output_buffer = cfg->chunk,
		.connections = (int)cfg->connections,
	};

	if (n < 0)
		return n;
	if ((ret = zc_peer_pick_port(h->ra->listen, &h->port))) {
		snprintf(err, len, "no free port on %s: %s", h->ra->listen, strerror(-ret));
		return ret;
	}
	nc.listen_port = h->port;
	ret = zc_nginx_start(&h->ng, &nc, sizes, n, (uint64_t)cfg->seed, h->dir,
			     10 + cfg->timeout_s);
	json_object_set_new(peer, "config", json_string(h->ng.config));
	json_object_set_new(peer, "workers", json_integer(nc.workers));
	if (ret)
		snprintf(err, len, "%s", h->ng.p.reason);
	return ret;
}

/* After the client's tail: until nginx holds no connection (the client
 * closed them all) or until, as zcbench's server gives up waiting. */
static void wait_closed(struct hp *h, double until)
{
	struct zc_peer_tcp t;

	while (zc_now() < until && zc_peer_alive(&h->ng.p) &&
	       !(zc_peer_tcp_bytes(0, h->port, 0, &t) == 0 && t.nsocks == 0))
		usleep(20000);
}

static void emit(json_t *out)
{
	char *s = json_dumps(out, JSON_COMPACT);

	if (s) {
		puts(s);
		fflush(stdout);
		free(s);
	}
}

/* The measured part, nginx running: READY, GO, edges, the tail. 0 or -errno (err). */
static int measure(struct hp *h, json_t *out, char *err, size_t len)
{
	const struct zc_cfg *cfg = &h->ra->cfg;
	double t0, edge[E_NR];
	int ret;

	printf("READY port=%d\n", h->port);
	fflush(stdout);
	if ((ret = zc_rr_wait_go(&t0))) {
		snprintf(err, len, "waiting for GO: %s", strerror(-ret));
		return ret;
	}
	edge[E_WARMUP] = t0 + cfg->warmup_s;
	edge[E_WINDOW] = edge[E_WARMUP] + cfg->duration_s;
	h->pidfd = (int)syscall(SYS_pidfd_open, h->ng.p.pid, 0);
	for (int e = 0; e < E_NR; e++) {
		if ((ret = sleep_until(h, edge[e]))) {
			char desc[64], tail[600];

			zc_peer_describe(&h->ng.p, desc, sizeof(desc));
			zc_peer_log_tail(h->ng.p.log_path, tail, sizeof(tail));
			snprintf(err, len, "nginx exited during the %s (%s)%s%s", e ? "window" :
				 "warm-up", desc, tail[0] ? "; its log ends: " : "", tail);
			return ret;
		}
		take(h, &h->e[e]);
	}
	json_object_set_new(out, "window", window_json(h));
	/* The client stops at the tail's edge; zcbench's server waits as long. */
	sleep_until(h, edge[E_WINDOW] + cfg->tail_s);
	wait_closed(h, edge[E_WINDOW] + 1 + 2 * cfg->tail_s);
	return 0;
}

int zc_rr_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		    json_t *out)
{
	struct hp *h = calloc(1, sizeof(*h));
	json_t *peer = json_object(), *info;
	const char *why = m->unavailable ? m->unavailable() : NULL;
	char err[1400] = "";
	int ret = 0;

	json_object_set_new(out, "traffic", json_string("rr"));
	json_object_set_new(out, "peer", peer);
	if (!h)
		zc_die("out of memory");
	h->ra = ra;
	h->m = m;
	h->pidfd = -1;
	if (why || m->role != ZC_ROLE_SINK) {
		/* Not installed: the run is unavailable here, as a data path this
		 * kernel lacks (make bench-rr goes on without it). */
		json_object_set_new(out, "status", json_string("unavailable"));
		json_object_set_new(out, "error", json_sprintf("%s unavailable: %s", m->name,
				    why ? why : "only the server's place is supported"));
		emit(out);
		free(h);
		return ZC_EXIT_FAIL;
	}
	for (int i = 0; i < nw && h->ncpus < HP_CPUS; i++) {
		bool seen = false;

		for (int k = 0; k < h->ncpus; k++)
			seen |= h->cpus[k] == cpus[i];
		if (!seen)
			h->cpus[h->ncpus++] = cpus[i];
	}
	json_object_set_new(peer, "program", json_string(m->program));
	json_object_set_new(peer, "mode", json_string(m->name));
	json_object_set_new(peer, "process", json_string("nginx"));
	info = zc_nginx_info();
	json_object_update(peer, info);
	json_decref(info);
	/* This process wakes only at the edges: on the role's first CPU. */
	if (cpus[0] >= 0)
		zc_pin_cpu(cpus[0]);
	snprintf(h->dir, sizeof(h->dir), "/tmp/zcbench-peer-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(h->dir)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mkdtemp %s: %s", h->dir, strerror(errno));
		h->dir[0] = 0;
	}
	if (!ret && !(ret = start_nginx(h, peer, err, sizeof(err)))) {
		json_object_set_new(peer, "pid", json_integer(h->ng.p.pid));
		ret = measure(h, out, err, sizeof(err));
	}
	if (h->ng.p.pid) {
		char desc[64], tail[2048];

		zc_nginx_stop(&h->ng, 2);
		zc_peer_describe(&h->ng.p, desc, sizeof(desc));
		json_object_set_new(peer, "exit", json_string(desc));
		zc_peer_log_tail(h->ng.p.log_path, tail, sizeof(tail));
		json_object_set_new(peer, "log_tail", json_string(tail));
	} else {
		zc_nginx_stop(&h->ng, 2);	/* a failed start's folder, if any */
	}
	if (h->pidfd >= 0)
		close(h->pidfd);
	if (h->dir[0]) {
		snprintf(h->log, sizeof(h->log), "%s/nginx.log", h->dir);
		unlink(h->log);
		rmdir(h->dir);
	}
	json_object_set_new(out, "status", json_string(ret ? "error" : "ok"));
	if (ret)
		json_object_set_new(out, "error", json_string(err[0] ? err : strerror(-ret)));
	emit(out);
	free(h);
	return ret ? ZC_EXIT_FAIL : ZC_EXIT_OK;
}
