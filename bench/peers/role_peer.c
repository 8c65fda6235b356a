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

#define PEER_CPUS 64

enum { E_WARMUP, E_WINDOW, E_NR };

struct edge {
	double t;
	struct zc_cpustat cs[PEER_CPUS];
	bool cs_ok;
	struct zc_peer_tcp tcp;
	int tcp_ret;
	double user_s, sys_s;
	bool cpu_ok;
};

struct peer_role {
	const struct zc_role_args *ra;
	const struct zc_mode *m;
	const char *what;		/* "haproxy", "iperf3-client", "iperf3-server" */
	int cpus[PEER_CPUS], ncpus;	/* distinct CPUs of the role's workers */
	struct zc_peer p;
	int pidfd;
	char dir[64];
	/* whose sockets count: local port (sink side) or remote port (sending side) */
	int lport, rport;
	bool count_read;		/* the sink: bytes read, else bytes written */
	struct edge e[E_NR];
	/* --counters on the program's main thread (all of HAProxy's work with
	 * nbthread 1, iperf3's) and its first CPU */
	struct zc_counters ctr;
	struct zc_counters_snap ctr_snap[E_NR];
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

/* user and system seconds of pid (every thread, the exited too): 0 or -errno. */
static int proc_times(pid_t pid, double *user_s, double *sys_s)
{
	char path[64], line[1024], *p;
	unsigned long long ut, st;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	p = fgets(line, sizeof(line), f);
	fclose(f);
	/* After the command's closing parenthesis: state is field 3, utime 14, stime 15. */
	if (!p || !(p = strrchr(line, ')')) ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -EINVAL;
	*user_s = ut / (double)sysconf(_SC_CLK_TCK);
	*sys_s = st / (double)sysconf(_SC_CLK_TCK);
	return 0;
}

/* Counters from here on, on the program's main thread (0 when none asked). */
static void counters_open(struct peer_role *pr)
{
	int mask = zc_counters_parse(pr->ra->cfg.counters);

	if (mask <= 0 || pr->ctr_open)
		return;
	zc_counters_open_tid(&pr->ctr, mask, pr->cpus[0], pr->p.pid);
	pr->ctr_open = true;
}

static void take(struct peer_role *pr, struct edge *e)
{
	/* Counters innermost, as a zcbench role reads them. */
	if (pr->ctr_open && e == &pr->e[E_WINDOW])
		zc_counters_snap(&pr->ctr, &pr->ctr_snap[E_WINDOW], true);
	e->t = zc_now();
	e->cs_ok = true;
	for (int i = 0; i < pr->ncpus; i++)
		e->cs_ok &= pr->cpus[i] >= 0 && zc_cpustat_read(pr->cpus[i], &e->cs[i]) == 0;
	e->tcp_ret = zc_peer_tcp_bytes(pr->p.pid, pr->lport, pr->rport, &e->tcp);
	e->cpu_ok = proc_times(pr->p.pid, &e->user_s, &e->sys_s) == 0;
	if (pr->ctr_open && e == &pr->e[E_WARMUP])
		zc_counters_snap(&pr->ctr, &pr->ctr_snap[E_WARMUP], false);
}

/* Sleep until t, or until the program exits: 0 at t, -ECHILD when it exited. */
static int sleep_until(struct peer_role *pr, double t)
{
	for (;;) {
		double left = t - zc_now();
		struct pollfd pfd = { .fd = pr->pidfd, .events = POLLIN };
		int k;

		if (left <= 0)
			return zc_peer_alive(&pr->p) ? 0 : -ECHILD;
		if (pr->pidfd < 0) {
			/* No pidfd (kernel < 5.3): look every 50 ms. */
			struct timespec nap = { .tv_nsec = 50 * 1000000L };

			if (!zc_peer_alive(&pr->p))
				return -ECHILD;
			if (left < 0.05)
				nap.tv_nsec = (long)(left * 1e9);
			nanosleep(&nap, NULL);
			continue;
		}
		k = poll(&pfd, 1, (int)ceil(left * 1000));
		/* Readable: it exited (checked, and reaped, by zc_peer_alive);
		 * otherwise time passed or a signal came: look at the clock again. */
		if (k > 0 && !zc_peer_alive(&pr->p))
			return -ECHILD;
		if (k > 0) {
			struct timespec nap = { .tv_nsec = 10 * 1000000L };

			nanosleep(&nap, NULL);
		}
	}
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

static void emit(json_t *out)
{
	char *s = json_dumps(out, JSON_COMPACT);

	if (s) {
		puts(s);
		fflush(stdout);
		free(s);
	}
}

static int wait_go(void)
{
	char line[64];

	if (!fgets(line, sizeof(line), stdin))
		return -EPIPE;
	return strncmp(line, "GO", 2) ? -EPROTO : 0;
}

/* Start the program of this role (before READY, except the client). 0 or
 * -errno, reason in pr->p.reason. *port: what READY says. */
static int start_listener(struct peer_role *pr, json_t *peer, int *port)
{
	const struct zc_role_args *ra = pr->ra;
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
			.splice = !!(pr->m->flags & ZC_MODE_PEER_SPLICE),
			.http = !!(pr->m->flags & ZC_MODE_HTTP),
			.nbthread = pr->ncpus > 0 ? pr->ncpus : 1,
			.cpus = pr->cpus, .ncpus = pr->cpus[0] >= 0 ? pr->ncpus : 0,
			.pipe_size = ra->cfg.pipe_size,
			/* Its buffer holds what one recv() takes: zcbench copy's chunk. */
			.bufsize = ra->cfg.chunk,
			.connections = (int)ra->cfg.connections,
		};

		/* Threads: as many as the DUT's workers, one per CPU. */
		if (ra->cfg.connections < hc.nbthread)
			hc.nbthread = (int)ra->cfg.connections;
		ret = zc_haproxy_start(&pr->p, &hc, pr->dir, limit, text, sizeof(text));
		json_object_set_new(peer, "config", json_string(text));
		json_object_set_new(peer, "nbthread", json_integer(hc.nbthread));
		pr->rport = ra->port;	/* its connections to the sink: what it forwarded */
		return ret;
	}
	ret = zc_iperf3_start_server(&pr->p, ra->listen, *port, pr->cpus[0] >= 0 ? pr->cpus : NULL,
				     pr->cpus[0] >= 0 ? pr->ncpus : 0, pr->dir, limit);
	json_object_set_new(peer, "command", json_sprintf("iperf3 -s -1 -p %d -B %s", *port,
							  ra->listen));
	pr->lport = *port;
	pr->count_read = true;
	return ret;
}

/* The iperf3 client, at GO. 0 or -errno. */
static int start_client(struct peer_role *pr, json_t *peer, int *seconds)
{
	const struct zc_role_args *ra = pr->ra;
	struct zc_iperf3_client_cfg c = {
		.addr = ra->connect, .port = ra->port,
		/* iperf3 takes whole seconds: its warm-up (-O, left out of its own
		 * figures) covers ours, its test our window and tail and a second
		 * more, so it sends through our whole window. */
		.omit_s = (int)ceil(ra->cfg.warmup_s),
		.seconds = (int)ceil(ra->cfg.duration_s + ra->cfg.tail_s) + 1,
		.chunk = ra->cfg.chunk,
		.sendfile = !strcmp(pr->m->name, "iperf3-sendfile"),
		.streams = (int)ra->cfg.connections,
	};
	char *argv[20], nums[128], cmd[512];
	size_t k = 0;

	*seconds = c.omit_s + c.seconds;
	if (!zc_iperf3_client_argv(&c, argv, ZC_ARRAY_SIZE(argv), nums, sizeof(nums)))
		for (int i = 0; argv[i] && k < sizeof(cmd); i++)
			k += snprintf(cmd + k, sizeof(cmd) - k, "%s%s", i ? " " : "", argv[i]);
	json_object_set_new(peer, "command", json_string(k ? cmd : ""));
	pr->rport = ra->port;
	return zc_iperf3_start_client(&pr->p, &c, pr->cpus[0] >= 0 ? pr->cpus : NULL,
				      pr->cpus[0] >= 0 ? pr->ncpus : 0, pr->dir);
}

static json_t *window_json(const struct peer_role *pr)
{
	const struct edge *a = &pr->e[E_WARMUP], *b = &pr->e[E_WINDOW];
	double win = b->t - a->t;
	bool rr = pr->ra->cfg.traffic == ZC_TRAFFIC_RR;
	uint64_t bytes = pr->count_read ? b->tcp.read - a->tcp.read : b->tcp.written - a->tcp.written;
	json_t *o = json_object(), *cpus = json_array();
	struct zc_cpustat sum = { 0 };

	for (int i = 0; i < pr->ncpus; i++)
		json_array_append_new(cpus, json_integer(pr->cpus[i]));
	json_object_set_new(o, "window_s", json_real(win));
	json_object_set_new(o, "bytes", a->tcp_ret || b->tcp_ret || rr ? json_null() :
				json_integer(bytes));
	/* Request/response: connections open and close inside the window, so
	 * the live sockets' counts at its edges are no window figure. */
	json_object_set_new(o, "bytes_from", json_string(rr ?
		"none: connections come and go in a request/response run; per-byte figures "
		"count the client's verified response bytes" : pr->count_read ?
		"the program's TCP sockets: tcpi_bytes_received - receive queue (sock_diag)" :
		"the program's TCP sockets: tcpi_bytes_acked + send queue (sock_diag)"));
	json_object_set_new(o, "sockets", json_integer(b->tcp.nsocks));
	json_object_set_new(o, "sockets_at_start", json_integer(a->tcp.nsocks));
	json_object_set_new(o, "tcp_edges", json_pack("[I,I,I,I]", (json_int_t)a->tcp.written,
		(json_int_t)b->tcp.written, (json_int_t)a->tcp.read, (json_int_t)b->tcp.read));
	/* The program's own CPU time stands where a role's getrusage would. */
	if (a->cpu_ok && b->cpu_ok) {
		json_object_set_new(o, "rusage_user_s", json_real(b->user_s - a->user_s));
		json_object_set_new(o, "rusage_sys_s", json_real(b->sys_s - a->sys_s));
	}
	json_object_set_new(o, "cpus", cpus);
	if (!a->cs_ok || !b->cs_ok) {
		json_object_set_new(o, "cpustat", json_null());
		json_object_set_new(o, "busy_s", json_null());
		return o;
	}
	for (int i = 0; i < pr->ncpus; i++) {
		struct zc_cpustat d;

		zc_cpustat_delta(&a->cs[i], &b->cs[i], &d);
		sum.user += d.user, sum.nice += d.nice, sum.system += d.system;
		sum.irq += d.irq, sum.softirq += d.softirq, sum.idle += d.idle;
		sum.iowait += d.iowait, sum.steal += d.steal;
	}
	json_object_set_new(o, "cpustat", json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}",
		"user_s", sum.user, "nice_s", sum.nice, "system_s", sum.system, "irq_s", sum.irq,
		"softirq_s", sum.softirq, "idle_s", sum.idle, "iowait_s", sum.iowait,
		"steal_s", sum.steal, "busy_s", zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_s", json_real(zc_cpustat_busy(&sum)));
	json_object_set_new(o, "busy_frac", json_real(win > 0 ? zc_cpustat_busy(&sum) / win : 0));
	return o;
}

/* The program is gone before it should be: why, into err. */
static void died(struct peer_role *pr, const char *when, char *err, size_t len)
{
	char desc[64], tail[600];

	zc_peer_describe(&pr->p, desc, sizeof(desc));
	zc_peer_log_tail(pr->p.log_path, tail, sizeof(tail));
	snprintf(err, len, "%s exited %s (%s)%s%s", pr->what, when, desc, tail[0] ? "; its log ends: " : "",
		 tail);
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
		    (zc_peer_tcp_bytes(pr->p.pid, 0, pr->rport, &t) == 0 && t.nsocks == 0))
			return 0;
		nanosleep(&nap, NULL);
	}
	return -ETIMEDOUT;
}

static void add_info(struct peer_role *pr, json_t *peer)
{
	json_t *info = !strcmp(pr->m->program, "haproxy") ? zc_haproxy_info() : zc_iperf3_info();

	json_object_update(peer, info);
	json_decref(info);
}

int zc_role_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		      json_t *out)
{
	struct peer_role pr = { .ra = ra, .m = m, .pidfd = -1 };
	json_t *peer = json_object();
	char err[1400] = "";
	int ret = 0, port = 0, seconds = 0;
	bool client = ra->role == ZC_ROLE_SOURCE;
	struct zc_iperf3_result res;
	const char *why = m->unavailable ? m->unavailable() : NULL;

	pr.what = ra->role == ZC_ROLE_PROXY ? "haproxy" : client ? "iperf3-client" : "iperf3-server";
	for (int i = 0; i < nw && pr.ncpus < PEER_CPUS; i++) {
		bool seen = false;

		for (int k = 0; k < pr.ncpus; k++)
			seen |= pr.cpus[k] == cpus[i];
		if (!seen)
			pr.cpus[pr.ncpus++] = cpus[i];
	}
	json_object_set_new(out, "peer", peer);
	if (why) {
		/* A program that is missing fails the run (exit 1), unlike a data
		 * path this kernel lacks: its runs were asked for by name. */
		json_object_set_new(out, "status", json_string("error"));
		json_object_set_new(out, "error", json_sprintf("%s unavailable: %s", m->name, why));
		emit(out);
		return ZC_EXIT_FAIL;
	}
	json_object_set_new(peer, "program", json_string(m->program));
	json_object_set_new(peer, "mode", json_string(m->name));
	json_object_set_new(peer, "process", json_string(pr.what));
	add_info(&pr, peer);
	/* Only a zcbench sink verifies; iperf3's server in its place cannot. */
	json_object_set_new(out, "verified", json_false());
	if (m->unverified_why)
		json_object_set_new(out, "unverified", json_string(m->unverified_why));
	/* This process takes the role's first CPU, as a zcbench role's worker 0 does:
	 * it only wakes at the edges. */
	if (cpus[0] >= 0)
		zc_pin_cpu(cpus[0]);
	remove_stale_dirs();
	snprintf(pr.dir, sizeof(pr.dir), "/tmp/zcbench-peer-%d-XXXXXX", (int)getpid());
	if (!mkdtemp(pr.dir)) {
		ret = -errno;
		snprintf(err, sizeof(err), "mkdtemp %s: %s", pr.dir, strerror(errno));
		pr.dir[0] = 0;
		goto out;
	}
	if (!client && (ret = start_listener(&pr, peer, &port))) {
		snprintf(err, sizeof(err), "%s", pr.p.reason);
		goto out;
	}
	if (!client)
		counters_open(&pr);
	printf("READY port=%d\n", port);
	fflush(stdout);
	if ((ret = wait_go())) {
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
	pr.pidfd = (int)syscall(SYS_pidfd_open, pr.p.pid, 0);
	{
		double t0 = zc_now() - 0.0;
		double edge[E_NR] = { t0 + ra->cfg.warmup_s, t0 + ra->cfg.warmup_s + ra->cfg.duration_s };

		for (int e = 0; e < E_NR && !ret; e++) {
			if ((ret = sleep_until(&pr, edge[e]))) {
				died(&pr, e == E_WARMUP ? "during the warm-up" : "during the window", err,
				     sizeof(err));
				break;
			}
			take(&pr, &pr.e[e]);
		}
	}
	/* Byte counts only grow while the sockets live: less at the window's
	 * end means a socket the program held at its start was gone (a stream
	 * run's connections last; a request/response run's come and go). */
	if (!ret && ra->cfg.traffic != ZC_TRAFFIC_RR && (pr.e[E_WINDOW].tcp.written < pr.e[E_WARMUP].tcp.written ||
		     pr.e[E_WINDOW].tcp.read < pr.e[E_WARMUP].tcp.read)) {
		ret = -EPROTO;
		snprintf(err, sizeof(err), "%s's socket byte counts went back over the window (%d "
			 "sockets at its start, %d at its end): a connection closed inside it", pr.what,
			 pr.e[E_WARMUP].tcp.nsocks, pr.e[E_WINDOW].tcp.nsocks);
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
		json_object_set_new(out, "window", window_json(&pr));
		if (pr.ctr_open) {
			json_t *w = json_object_get(out, "window");

			json_object_set_new(out, "counters", zc_counters_json(&pr.ctr,
				&pr.ctr_snap[E_WARMUP], &pr.ctr_snap[E_WINDOW],
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
				"the program's main thread (%d) and CPU %d", (int)pr.p.pid, pr.cpus[0]));
		}
	}
	/* The tail: the stream ends, then the program is stopped. */
	if (!ret && ra->role == ZC_ROLE_PROXY) {
		/* Request/response: between two requests of a churning client
		 * HAProxy has no connection to the sink; the client stops asking
		 * at the tail's end, so drained means something only after it. */
		if (ra->cfg.traffic == ZC_TRAFFIC_RR &&
		    (ret = sleep_until(&pr, pr.e[E_WINDOW].t + ra->cfg.tail_s)))
			died(&pr, "during the tail", err, sizeof(err));
		else
			ret = wait_drained(&pr, zc_now() + ra->cfg.tail_s + ra->cfg.timeout_s + 5);
		if (ret && !err[0])
			snprintf(err, sizeof(err), "haproxy still had connections to the sink %.0f s "
				 "after the window", ra->cfg.tail_s + ra->cfg.timeout_s + 5);
	} else if (!ret) {
		double left = pr.e[E_WARMUP].t - ra->cfg.warmup_s + seconds + ra->cfg.timeout_s + 10 -
			      zc_now();

		/* iperf3 ends by itself: the client after -O + -t, the server (-1) with it. */
		ret = zc_peer_wait_exit(&pr.p, ra->cfg.tail_s + (left > 0 ? left : 0));
		if (ret == -ETIMEDOUT)
			snprintf(err, sizeof(err), "%s still running %.0f s after its test should have "
				 "ended", pr.what, ra->cfg.timeout_s + 10);
		else if (ret)
			died(&pr, "with a failure", err, sizeof(err));
	}
	if (!ret && client) {
		ret = zc_iperf3_client_result(pr.dir, &res);
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
	if (pr.pidfd >= 0)
		close(pr.pidfd);
	if (pr.p.pid) {
		char desc[64];

		zc_peer_describe(&pr.p, desc, sizeof(desc));
		json_object_set_new(peer, "exit", json_string(desc));
	}
	if (pr.dir[0]) {
		char tail[2048];

		zc_peer_log_tail(pr.p.log_path, tail, sizeof(tail));
		json_object_set_new(peer, "log_tail", json_string(tail));
		/* Its configuration and log were kept in the report; the folder goes. */
		remove_dir(pr.dir);
	}
	json_object_set_new(out, "status", json_string(ret ? "error" : "ok"));
	if (ret)
		json_object_set_new(out, "error", json_string(err[0] ? err : strerror(-ret)));
	emit(out);
	return ret ? ZC_EXIT_FAIL : 0;
}
