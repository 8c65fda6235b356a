// SPDX-License-Identifier: GPL-2.0
/*
 * A role whose work a real program does (peer modes: HAProxy as the proxy,
 * iperf3's client as the source and its server in the sink's place). The
 * role process stays the role: it speaks the same READY/GO protocol, starts
 * the program pinned to the role's CPUs (bench/peers/), marks the same
 * warm-up, window and tail with its own clock, reads at each edge the same
 * figures a zcbench role reads (its CPUs' /proc/stat, the program's CPU time
 * instead of getrusage, the bytes the program moved from its TCP sockets'
 * tcp_info instead of its calls' return values), then stops and reaps the
 * program on every path and prints the same report, with the program's
 * version, configuration or command line and log under "peer".
 *
 * Between the edges this process sleeps in poll() on the program's pidfd:
 * it wakes at an edge or when the program dies (that sample then fails with
 * the program's exit and its log's tail), never in between.
 */
#include "peers/role_peer.h"
#include "peers/rr_peer_int.h"
#include "lib/cpu.h"
#include "lib/zcbench.h"
#include "counters/counters.h"
#include "peers/haproxy.h"
#include "peers/iperf3.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct peer_role {
	/* The program, the role's CPUs and the edges (rr_peer_int.h). Whose
	 * sockets count: the local port (sink side, read) or the remote port
	 * (sending side, written). */
	struct hp h;
	const char *what;		/* "haproxy", "iperf3-client", "iperf3-server" */
	struct zc_peer p;
	/* --counters on the program's main thread (all of HAProxy's work with
	 * nbthread 1, iperf3's) and its first CPU */
	struct zc_counters ctr;
	struct zc_counters_snap ctr_snap[HP_NR];
	bool ctr_open;
};

const struct zc_mode *zc_role_peer_mode(const struct zc_role_args *ra, const struct zc_mode *m)
{
	const struct zc_mode *src = zc_mode_find(ZC_ROLE_SOURCE, ra->cfg.mode[ZC_ROLE_SOURCE]);

	if (m && (m->flags & ZC_MODE_PEER))
		return m;
	/* iperf3's client talks only to iperf3's server: it takes the sink's place. */
	if (ra->role == ZC_ROLE_SINK && src && (src->flags & ZC_MODE_PEER) && src->program &&
	    !strcmp(src->program, "iperf3"))
		return src;
	return NULL;
}

/* Counters from here on, on the program's main thread (0 when none asked). */
static void counters_open(struct peer_role *pr)
{
	int mask = zc_counters_parse(pr->h.ra->cfg.counters);

	if (mask <= 0 || pr->ctr_open)
		return;
	zc_counters_open_tid(&pr->ctr, mask, pr->h.cpus[0], pr->p.pid);
	pr->ctr_open = true;
}

static void take(struct peer_role *pr, int e)
{
	/* Counters innermost, as a zcbench role reads them. */
	if (pr->ctr_open && e == HP_WINDOW)
		zc_counters_snap(&pr->ctr, &pr->ctr_snap[HP_WINDOW], true);
	zc_hp_take(&pr->h, &pr->h.e[e]);
	if (pr->ctr_open && e == HP_WARMUP)
		zc_counters_snap(&pr->ctr, &pr->ctr_snap[HP_WARMUP], false);
}

/* A peer's folder and the files the programs leave there. */
static void remove_dir(const char *dir)
{
	char path[128];

	for (const char *f = "haproxy.cfg\0haproxy.log\0iperf3-server.log\0iperf3-client.log\0"
			     "iperf3-client.json\0"; *f; f += strlen(f) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, f);
		unlink(path);
	}
	rmdir(dir);
}

/* Folders of roles that were SIGKILLed (the controller's Ctrl-C, a timeout)
 * before they could remove theirs: the role's pid is in the name. */
static void remove_stale_dirs(void)
{
	DIR *d = opendir("/tmp");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[128];
		int pid;

		if (sscanf(e->d_name, "zcbench-peer-%d-", &pid) != 1 || pid <= 0 ||
		    !(kill(pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "/tmp/%.100s", e->d_name);
		remove_dir(path);
	}
	if (d)
		closedir(d);
}

/* Start the program of this role (before READY, except the client). 0 or
 * -errno, reason in pr->p.reason. *port: what READY says. */
static int start_listener(struct peer_role *pr, json_t *peer, int *port)
{
	const struct zc_role_args *ra = pr->h.ra;
	double limit = 10 + ra->cfg.timeout_s;
	int ret = zc_peer_pick_port(ra->listen, port);

	if (ret) {
		snprintf(pr->p.reason, sizeof(pr->p.reason), "no free port on %s", ra->listen);
		return ret;
	}
	if (ra->role == ZC_ROLE_PROXY) {
		static char text[8192];
		struct zc_haproxy_cfg hc = {
			.listen_addr = ra->listen, .listen_port = *port,
			.server_addr = ra->connect, .server_port = ra->port,
			.splice = !!(pr->h.m->flags & ZC_MODE_PEER_SPLICE),
			.http = !!(pr->h.m->flags & ZC_MODE_HTTP),
			.nbthread = pr->h.ncpus > 0 ? pr->h.ncpus : 1,
			.cpus = pr->h.cpus, .ncpus = pr->h.cpus[0] >= 0 ? pr->h.ncpus : 0,
			.pipe_size = ra->cfg.pipe_size,
			/* Its buffer holds what one recv() takes: zcbench copy's chunk. */
			.bufsize = ra->cfg.chunk,
			.connections = (int)ra->cfg.connections,
		};

		/* Threads: as many as the DUT's workers, one per CPU. */
		if (ra->cfg.connections < hc.nbthread)
			hc.nbthread = (int)ra->cfg.connections;
		ret = zc_haproxy_start(&pr->p, &hc, pr->h.dir, limit, text, sizeof(text));
		json_object_set_new(peer, "config", json_string(text));
		json_object_set_new(peer, "nbthread", json_integer(hc.nbthread));
		pr->h.rport = ra->port;	/* its connections to the sink: what it forwarded */
		return ret;
	}
	ret = zc_iperf3_start_server(&pr->p, ra->listen, *port, pr->h.cpus[0] >= 0 ? pr->h.cpus : NULL,
				     pr->h.cpus[0] >= 0 ? pr->h.ncpus : 0, pr->h.dir, limit);
	json_object_set_new(peer, "command", json_sprintf("iperf3 -s -1 -p %d -B %s", *port,
							  ra->listen));
	pr->h.lport = *port;
	pr->h.read = true;
	return ret;
}

/* The iperf3 client, at GO. 0 or -errno. */
static int start_client(struct peer_role *pr, json_t *peer, int *seconds)
{
	const struct zc_role_args *ra = pr->h.ra;
	struct zc_iperf3_client_cfg c = {
		.addr = ra->connect, .port = ra->port,
		/* iperf3 takes whole seconds: its warm-up (-O, left out of its own
		 * figures) covers ours, its test our window and tail and a second
		 * more, so it sends through our whole window. */
		.omit_s = (int)ceil(ra->cfg.warmup_s),
		.seconds = (int)ceil(ra->cfg.duration_s + ra->cfg.tail_s) + 1,
		.chunk = ra->cfg.chunk,
		.sendfile = !strcmp(pr->h.m->name, "iperf3-sendfile"),
		.streams = (int)ra->cfg.connections,
	};
	char *argv[20], nums[128], cmd[512];
	size_t k = 0;

	*seconds = c.omit_s + c.seconds;
	if (!zc_iperf3_client_argv(&c, argv, ZC_ARRAY_SIZE(argv), nums, sizeof(nums)))
		for (int i = 0; argv[i] && k < sizeof(cmd); i++)
			k += snprintf(cmd + k, sizeof(cmd) - k, "%s%s", i ? " " : "", argv[i]);
	json_object_set_new(peer, "command", json_string(k ? cmd : ""));
	pr->h.rport = ra->port;
	return zc_iperf3_start_client(&pr->p, &c, pr->h.cpus[0] >= 0 ? pr->h.cpus : NULL,
				      pr->h.cpus[0] >= 0 ? pr->h.ncpus : 0, pr->h.dir);
}

/* The proxy: wait until HAProxy has no connection to the sink left (the
 * source closed, HAProxy passed the close on), so the stream is whole
 * before it is stopped. 0, or -ETIMEDOUT. */
static int wait_drained(struct peer_role *pr, double until)
{
	struct zc_peer_tcp t;

	while (zc_now() < until) {
		struct timespec nap = { .tv_nsec = 20 * 1000000L };

		if (!zc_peer_alive(&pr->p) ||
		    (zc_peer_tcp_bytes(pr->p.pid, 0, pr->h.rport, &t) == 0 && t.nsocks == 0))
			return 0;
		nanosleep(&nap, NULL);
	}
	return -ETIMEDOUT;
}

static void add_info(const struct zc_mode *m, json_t *peer)
{
	json_t *info = !strcmp(m->program, "haproxy") ? zc_haproxy_info() : zc_iperf3_info();

	json_object_update(peer, info);
	json_decref(info);
}

int zc_role_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		      json_t *out)
{
	struct peer_role pr = { 0 };
	json_t *peer = json_object();
	char err[1400] = "";
	int ret = 0, port = 0, seconds = 0;
	double late;
	bool client = ra->role == ZC_ROLE_SOURCE;
	struct zc_iperf3_result res;
	const char *why = m->unavailable ? m->unavailable() : NULL;

	pr.what = ra->role == ZC_ROLE_PROXY ? "haproxy" : client ? "iperf3-client" : "iperf3-server";
	json_object_set_new(out, "peer", peer);
	if (why) {
		/* A program that is missing fails the run (exit 1), unlike a data
		 * path this kernel lacks: its runs were asked for by name. */
		snprintf(err, sizeof(err), "%s unavailable: %s", m->name, why);
		return zc_wire_emit(out, "error", err);
	}
	json_object_set_new(peer, "program", json_string(m->program));
	json_object_set_new(peer, "mode", json_string(m->name));
	json_object_set_new(peer, "process", json_string(pr.what));
	add_info(m, peer);
	/* Only a zcbench sink verifies; iperf3's server in its place cannot. */
	json_object_set_new(out, "verified", json_false());
	if (m->unverified_why)
		json_object_set_new(out, "unverified", json_string(m->unverified_why));
	/* This process takes the role's first CPU, as a zcbench role's worker 0 does. */
	zc_hp_init(&pr.h, ra, m, cpus, nw);
	pr.h.p = &pr.p;
	remove_stale_dirs();
	snprintf(pr.h.dir, sizeof(pr.h.dir), "/tmp/zcbench-peer-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(pr.h.dir)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mkdtemp %s: %s", pr.h.dir, strerror(errno));
		pr.h.dir[0] = 0;
		goto out;
	}
	if (!client && (ret = start_listener(&pr, peer, &port))) {
		snprintf(err, sizeof(err), "%s", pr.p.reason);
		goto out;
	}
	if (!client)
		counters_open(&pr);
	zc_wire_ready(port);
	/* The edges count from here (the program's start), not from GO's time. */
	if ((ret = zc_wire_wait_go(&late))) {
		snprintf(err, sizeof(err), "waiting for GO: %s", strerror(-ret));
		goto out;
	}
	if (client && (ret = start_client(&pr, peer, &seconds))) {
		snprintf(err, sizeof(err), "%s", pr.p.reason);
		goto out;
	}
	if (client)
		counters_open(&pr);	/* in its warm-up: loading costs no window time */
	json_object_set_new(peer, "pid", json_integer(pr.p.pid));
	pr.h.tcp_pid = pr.p.pid;
	pr.h.pidfd = (int)syscall(SYS_pidfd_open, pr.p.pid, 0);
	{
		double t0 = zc_now();
		double edge[HP_NR] = { t0 + ra->cfg.warmup_s, t0 + ra->cfg.warmup_s + ra->cfg.duration_s };

		for (int e = 0; e < HP_NR && !ret; e++) {
			if ((ret = zc_hp_sleep_until(&pr.h, edge[e]))) {
				zc_hp_died(&pr.h, e == HP_WARMUP ? "during the warm-up" :
					   "during the window", err, sizeof(err));
				break;
			}
			take(&pr, e);
		}
	}
	/* Byte counts only grow while the sockets live: less at the window's
	 * end means a socket the program held at its start was gone (a stream
	 * run's connections last; a request/response run's come and go). */
	if (!ret && ra->cfg.traffic != ZC_TRAFFIC_RR && (pr.h.e[HP_WINDOW].tcp.written < pr.h.e[HP_WARMUP].tcp.written ||
		     pr.h.e[HP_WINDOW].tcp.read < pr.h.e[HP_WARMUP].tcp.read)) {
		ret = -EPROTO;
		snprintf(err, sizeof(err), "%s's socket byte counts went back over the window (%d "
			 "sockets at its start, %d at its end): a connection closed inside it", pr.what,
			 pr.h.e[HP_WARMUP].tcp.nsocks, pr.h.e[HP_WINDOW].tcp.nsocks);
	}
	if (!ret) {
		json_t *thr = json_array();
		struct zc_peer_cpu pc;

		/* Its threads and their CPU time so far: pinned where we said? */
		if (!zc_peer_cpu(&pr.p, &pc))
			for (int i = 0; i < pc.nthreads; i++)
				json_array_append_new(thr, json_pack("{s:i,s:f}", "tid", (int)pc.tid[i],
								     "cpu_s", pc.thread_s[i]));
		json_object_set_new(peer, "threads", thr);
		json_object_set_new(out, "window", zc_hp_window_json(&pr.h, 0, 0, NULL));
		if (pr.ctr_open) {
			json_t *w = json_object_get(out, "window");

			json_object_set_new(out, "counters", zc_counters_json(&pr.ctr,
				&pr.ctr_snap[HP_WARMUP], &pr.ctr_snap[HP_WINDOW],
				json_integer_value(json_object_get(w, "bytes")),
				json_real_value(json_object_get(w, "window_s"))));
			/* The program refreshes the CPU's softirq tick only on the counted
			 * thread's own edge calls, which a peer never makes: not a figure
			 * here (window.cpustat.softirq_s has the CPU's softirq time). */
			json_t *sirq = json_object_get(json_object_get(json_object_get(out,
				"counters"), "bpf"), "softirq");

			if (json_is_object(sirq)) {
				json_object_del(sirq, "share_of_core");
				json_object_set_new(sirq, "time_ns", json_null());
				json_object_set_new(sirq, "time_reason", json_string(
					"not read for a peer: see window.cpustat.softirq_s"));
			}
			json_object_set_new(out, "counters_scope", json_sprintf(
				"the program's main thread (%d) and CPU %d", (int)pr.p.pid, pr.h.cpus[0]));
		}
	}
	/* The tail: the stream ends, then the program is stopped. */
	if (!ret && ra->role == ZC_ROLE_PROXY) {
		/* Request/response: between two requests of a churning client
		 * HAProxy has no connection to the sink; the client stops asking
		 * at the tail's end, so drained means something only after it. */
		if (ra->cfg.traffic == ZC_TRAFFIC_RR &&
		    (ret = zc_hp_sleep_until(&pr.h, pr.h.e[HP_WINDOW].t + ra->cfg.tail_s)))
			zc_hp_died(&pr.h, "during the tail", err, sizeof(err));
		else
			ret = wait_drained(&pr, zc_now() + ra->cfg.tail_s + ra->cfg.timeout_s + 5);
		if (ret && !err[0])
			snprintf(err, sizeof(err), "haproxy still had connections to the sink %.0f s "
				 "after the window", ra->cfg.tail_s + ra->cfg.timeout_s + 5);
	} else if (!ret) {
		double left = pr.h.e[HP_WARMUP].t - ra->cfg.warmup_s + seconds + ra->cfg.timeout_s + 10 -
			      zc_now();

		/* iperf3 ends by itself: the client after -O + -t, the server (-1) with it. */
		ret = zc_peer_wait_exit(&pr.p, ra->cfg.tail_s + (left > 0 ? left : 0));
		if (ret == -ETIMEDOUT)
			snprintf(err, sizeof(err), "%s still running %.0f s after its test should have "
				 "ended", pr.what, ra->cfg.timeout_s + 10);
		else if (ret)
			zc_hp_died(&pr.h, "with a failure", err, sizeof(err));
	}
	if (!ret && client) {
		ret = zc_iperf3_client_result(pr.h.dir, &res);
		if (ret)
			snprintf(err, sizeof(err), "iperf3 -J report: %s%s%s", strerror(-ret),
				 res.error[0] ? ": " : "", res.error);
		else
			json_object_set_new(peer, "report", json_pack(
				"{s:I,s:I,s:f,s:f,s:f,s:f,s:I,s:i,s:i,s:i}",
				"bytes_sent", (json_int_t)res.bytes_sent,
				"bytes_received", (json_int_t)res.bytes_received,
				"seconds_sent", res.seconds_sent, "seconds_received",
				res.seconds_received, "host_total_pct", res.host_total_pct,
				"remote_total_pct", res.remote_total_pct, "blksize",
				(json_int_t)res.blksize, "num_streams", res.num_streams, "omit_s",
				res.omit_s, "duration_s", res.duration_s));
	}
out:
	if (pr.ctr_open)
		zc_counters_close(&pr.ctr);
	/* Stopped and reaped on every path: nothing of it outlives the sample. */
	zc_peer_stop(&pr.p, 2);
	if (pr.h.pidfd >= 0)
		close(pr.h.pidfd);
	if (pr.p.pid) {
		char desc[64];

		zc_peer_describe(&pr.p, desc, sizeof(desc));
		json_object_set_new(peer, "exit", json_string(desc));
	}
	if (pr.h.dir[0]) {
		char tail[2048];

		zc_peer_log_tail(pr.p.log_path, tail, sizeof(tail));
		json_object_set_new(peer, "log_tail", json_string(tail));
		/* Its configuration and log were kept in the report; the folder goes. */
		remove_dir(pr.h.dir);
	}
	return zc_wire_emit(out, ret ? "error" : "ok", ret ? err[0] ? err : strerror(-ret) : NULL);
}
