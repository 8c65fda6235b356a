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
#include "rr/rr.h"
#include "peers/rr_peer_int.h"
#include "lib/http.h"
#include "peers/nginx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* nginx in the sink's place. */
struct server {
	struct hp h;
	struct zc_nginx ng;
	int port;
};

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
	ret = zc_sizes_file_read(cfg->object_sizes_file, ZC_OBJECT_SIZE_MAX, &all, &n, err, len);
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
static int start_nginx(struct server *s, json_t *peer, char *err, size_t len)
{
	struct hp *h = &s->h;
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
	if ((ret = zc_peer_pick_port(h->ra->listen, &s->port))) {
		snprintf(err, len, "no free port on %s: %s", h->ra->listen, strerror(-ret));
		return ret;
	}
	nc.listen_port = s->port;
	ret = zc_nginx_start(&s->ng, &nc, sizes, n, (uint64_t)cfg->seed, h->dir,
			     10 + cfg->timeout_s);
	json_object_set_new(peer, "config", json_string(s->ng.config));
	json_object_set_new(peer, "workers", json_integer(nc.workers));
	if (ret)
		snprintf(err, len, "%s", s->ng.p.reason);
	/* The workers hold the sockets: every one on nginx's port counts. */
	h->p = &s->ng.p;
	h->group = true;
	h->lport = s->port;
	return ret;
}

/* After the client's tail: until nginx holds no connection (the client
 * closed them all) or until, as zcbench's server gives up waiting. */
static void wait_closed(struct server *s, double until)
{
	struct zc_peer_tcp t;

	while (zc_now() < until && zc_peer_alive(&s->ng.p) &&
	       !(zc_peer_tcp_bytes(0, s->port, 0, &t) == 0 && t.nsocks == 0))
		usleep(20000);
}

/* nginx running: READY, GO, the edges, the tail. 0 or -errno (err). */
static int serve(struct server *s, json_t *out, char *err, size_t len)
{
	struct hp *h = &s->h;
	const struct zc_cfg *cfg = &h->ra->cfg;
	double late, edge[HP_NR];
	int ret;

	zc_wire_ready(s->port);
	if ((ret = zc_wire_wait_go(&late))) {
		snprintf(err, len, "waiting for GO: %s", strerror(-ret));
		return ret;
	}
	/* The edges count from when the controller sent GO, as rr.c's do. */
	edge[HP_WARMUP] = zc_now() - late + cfg->warmup_s;
	edge[HP_WINDOW] = edge[HP_WARMUP] + cfg->duration_s;
	h->pidfd = (int)syscall(SYS_pidfd_open, s->ng.p.pid, 0);
	for (int e = 0; e < HP_NR; e++) {
		if ((ret = zc_hp_sleep_until(h, edge[e]))) {
			zc_hp_died(h, e ? "during the window" : "during the warm-up", err, len);
			return ret;
		}
		zc_hp_take(h, &h->e[e]);
	}
	/* "bytes" as zcbench's server says it: what it sent, heads included. */
	json_object_set_new(out, "window", zc_hp_window_json(h, 0, 0, NULL));
	/* The client stops at the tail's edge; zcbench's server waits as long. */
	zc_hp_sleep_until(h, edge[HP_WINDOW] + cfg->tail_s);
	wait_closed(s, edge[HP_WINDOW] + 1 + 2 * cfg->tail_s);
	return 0;
}

/* nginx in the sink's place, from its start to its stop. 0 or -errno (err). */
static int server_main(struct hp *h, json_t *out, json_t *peer, char *err, size_t len)
{
	struct server *s = (struct server *)h;
	json_t *info = zc_nginx_info();
	char path[128];
	int ret;

	json_object_set_new(peer, "process", json_string("nginx"));
	json_object_update(peer, info);
	json_decref(info);
	if (!(ret = start_nginx(s, peer, err, len))) {
		json_object_set_new(peer, "pid", json_integer(s->ng.p.pid));
		ret = serve(s, out, err, len);
	}
	if (s->ng.p.pid) {
		char desc[64], tail[2048];

		zc_nginx_stop(&s->ng, 2);
		zc_peer_describe(&s->ng.p, desc, sizeof(desc));
		json_object_set_new(peer, "exit", json_string(desc));
		zc_peer_log_tail(s->ng.p.log_path, tail, sizeof(tail));
		json_object_set_new(peer, "log_tail", json_string(tail));
	} else {
		zc_nginx_stop(&s->ng, 2);	/* a failed start's folder, if any */
	}
	snprintf(path, sizeof(path), "%s/nginx.log", h->dir);
	unlink(path);
	return ret;
}

int zc_rr_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		    json_t *out)
{
	struct server *s = calloc(1, sizeof(*s));
	struct hp *h = &s->h;
	json_t *peer = json_object();
	const char *why = m->unavailable ? m->unavailable() : NULL;
	char err[1400] = "";
	int ret = 0;

	json_object_set_new(out, "traffic", json_string("rr"));
	json_object_set_new(out, "peer", peer);
	if (!s)
		zc_die("out of memory");
	if (why || m->role == ZC_ROLE_PROXY) {
		/* Not installed: the run is unavailable here, as a data path this
		 * kernel lacks (make bench-rr goes on without it). */
		snprintf(err, sizeof(err), "%s unavailable: %s", m->name,
			 why ? why : "an HTTP program takes the client's or server's place");
		free(s);
		return zc_wire_emit(out, "unavailable", err);
	}
	zc_hp_init(h, ra, m, cpus, nw);
	json_object_set_new(peer, "program", json_string(m->program));
	json_object_set_new(peer, "mode", json_string(m->name));
	snprintf(h->dir, sizeof(h->dir), "/tmp/zcbench-peer-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(h->dir)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mkdtemp %s: %s", h->dir, strerror(errno));
		h->dir[0] = 0;
	} else {
		ret = m->role == ZC_ROLE_SINK ? server_main(h, out, peer, err, sizeof(err))
					      : zc_rr_peer_client(h, out, peer, err, sizeof(err));
		rmdir(h->dir);
	}
	if (h->pidfd >= 0)
		close(h->pidfd);
	if (strcmp(ra->cfg.counters, "none"))
		json_object_set_new(out, "counters_error", json_string("--counters are not read for "
				    "an HTTP program in a request/response run"));
	free(s);
	return zc_wire_emit(out, ret ? "error" : "ok", ret ? err[0] ? err : strerror(-ret) : NULL);
}
