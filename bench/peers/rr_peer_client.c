// SPDX-License-Identifier: GPL-2.0
/*
 * wrk or h2load (--h1) in the client's place of a request/response run
 * (the source role, closed loop, keep-alive, one object size): started at
 * GO pinned to the role's CPUs for whole seconds covering the warm-up and
 * the window, measured at the same edges as any role (its sockets' bytes
 * read, its CPU time, its CPUs' /proc/stat), then waited for and its own
 * report parsed (bench/peers/wrk.c, h2load.c).
 *
 * Neither has a warm-up we could align, so its counts span its whole run:
 * the window's transactions are its responses in the share of the bytes it
 * read that fell inside the window (every response has the same size),
 * said in the report. Both discard the bodies: the run is unverified, with
 * the mode's reason. wrk's latency percentiles (its HdrHistogram, over its
 * whole run) fill the same fields as zcbench's client; h2load prints none.
 */
#include "peers/rr_peer_int.h"
#include "peers/h2load.h"
#include "peers/wrk.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What either program said, for the window's figures. */
struct said {
	uint64_t responses, bytes, errors;
	json_t *latency;	/* wrk's, as zc_hdr_to_json names them; NULL: none */
};

static json_t *wrk_latency(const struct zc_wrk_result *r)
{
	return json_pack("{s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:s}", "count", (json_int_t)r->requests,
			 "min_ns", r->lat_min_us * 1e3, "mean_ns", r->lat_mean_us * 1e3,
			 "p50_ns", r->lat_p50_us * 1e3, "p90_ns", r->lat_p90_us * 1e3,
			 "p99_ns", r->lat_p99_us * 1e3, "p999_ns", r->lat_p999_us * 1e3,
			 "max_ns", r->lat_max_us * 1e3, "over",
			 "wrk's own HdrHistogram of its whole run (its first seconds, our warm-up, "
			 "included), microseconds");
}

/* Start the program: 0 or -errno (h->p->reason). */
static int start(struct hp *h, struct zc_peer *p, const char *url, int seconds, json_t *peer)
{
	const struct zc_cfg *cfg = &h->ra->cfg;
	bool pinned = h->cpus[0] >= 0, wrk = !strcmp(h->m->program, "wrk");
	int threads = h->ncpus < cfg->connections ? h->ncpus : (int)cfg->connections;
	char *argv[24], buf[256], cmd[512];
	size_t k = 0;
	int ret;

	if (wrk) {
		struct zc_wrk_cfg c = { .url = url, .threads = threads,
					.connections = (int)cfg->connections, .seconds = seconds,
					.timeout_s = (int)ceil(cfg->timeout_s) };

		ret = zc_wrk_argv(&c, argv, ZC_ARRAY_SIZE(argv), buf, sizeof(buf));
		if (!ret)
			ret = zc_wrk_start(p, &c, pinned ? h->cpus : NULL, pinned ? h->ncpus : 0,
					   h->dir);
	} else {
		struct zc_h2load_cfg c = { .url = url, .threads = threads,
					   .clients = (int)cfg->connections, .seconds = seconds };

		ret = zc_h2load_argv(&c, argv, ZC_ARRAY_SIZE(argv), buf, sizeof(buf));
		if (!ret)
			ret = zc_h2load_start(p, &c, pinned ? h->cpus : NULL, pinned ? h->ncpus : 0,
					      h->dir);
	}
	for (int i = 0; argv[i] && k < sizeof(cmd) && ret != -EINVAL; i++)
		k += snprintf(cmd + k, sizeof(cmd) - k, "%s%s", i ? " " : "", argv[i]);
	json_object_set_new(peer, "command", json_string(k ? cmd : ""));
	return ret;
}

/* Its report, parsed, into peer and s: 0 or -errno (err). */
static int result(struct hp *h, json_t *peer, struct said *s, char *err, size_t len)
{
	int ret;

	if (!strcmp(h->m->program, "wrk")) {
		struct zc_wrk_result r;

		if ((ret = zc_wrk_result(h->dir, &r))) {
			snprintf(err, len, "wrk's report: %s", ret == -EPROTO ? "no request completed"
				 : strerror(-ret));
			return ret;
		}
		json_object_set_new(peer, "report", zc_wrk_result_json(&r));
		s->responses = r.requests;
		s->bytes = r.bytes;
		s->errors = r.err_connect + r.err_read + r.err_write + r.err_timeout + r.err_status;
		s->latency = wrk_latency(&r);
	} else {
		struct zc_h2load_result r;

		if ((ret = zc_h2load_result(h->dir, &r))) {
			snprintf(err, len, "h2load's report: %s", ret == -EPROTO ? "no request "
				 "succeeded" : strerror(-ret));
			return ret;
		}
		json_object_set_new(peer, "report", zc_h2load_result_json(&r));
		s->responses = r.succeeded;
		s->bytes = r.traffic_bytes;
		s->errors = r.failed + r.errored + r.timeout + r.status_4xx + r.status_5xx;
	}
	if (s->errors) {
		snprintf(err, len, "%s counted %llu failed requests (errors, timeouts or 4xx/5xx "
			 "answers): see peer.report", h->m->program, (unsigned long long)s->errors);
		return -EPROTO;
	}
	return 0;
}

/* The window's figures from the edges and what the program said. */
static void figures(struct hp *h, const struct said *s, json_t *out)
{
	const struct zc_cfg *cfg = &h->ra->cfg;
	json_t *rr = json_object();
	double ws = h->e[HP_WINDOW].t - h->e[HP_WARMUP].t;
	int64_t tx = 0;

	json_object_set_new(out, "window", zc_hp_window_json(h, s->responses, s->bytes, &tx));
	json_object_set_new(rr, "transactions", json_integer(tx));
	json_object_set_new(rr, "tps", json_real(ws > 0 ? tx / ws : 0));
	json_object_set_new(rr, "transactions_total", json_integer((json_int_t)s->responses));
	json_object_set_new(rr, "transactions_from", json_string("the program's responses times "
		"the share of the bytes it read (its own count) that its sockets read inside the "
		"window (sock_diag at the edges)"));
	json_object_set_new(rr, "connections_opened", json_integer(cfg->connections));
	json_object_set_new(rr, "loop", json_string("closed"));
	if (s->latency)
		json_object_set_new(rr, "latency", s->latency);
	else
		json_object_set_new(rr, "latency_why", json_sprintf("%s prints no latency "
				    "percentiles (only min, max, mean and sd of its time for "
				    "request, in peer.report)", h->m->program));
	json_object_set_new(out, "rr", rr);
}

int zc_rr_peer_client(struct hp *h, json_t *out, json_t *peer, char *err, size_t len)
{
	const struct zc_role_args *ra = h->ra;
	const struct zc_cfg *cfg = &ra->cfg;
	/* Whole seconds past the window's end, well before the servers stop waiting. */
	int seconds = (int)ceil(cfg->warmup_s + cfg->duration_s + 0.1);
	json_t *info = !strcmp(h->m->program, "wrk") ? zc_wrk_info() : zc_h2load_info();
	struct zc_peer p = { 0 };
	struct said s = { 0 };
	char url[256];
	double t0, late;
	int ret;

	json_object_set_new(peer, "process", json_string(h->m->program));
	json_object_update(peer, info);
	json_decref(info);
	json_object_set_new(out, "verified", json_false());
	json_object_set_new(out, "unverified", json_string(h->m->unverified_why));
	h->p = &p;
	h->rport = ra->port;
	h->read = true;
	if ((ret = zc_peer_http_url(ra->connect, ra->port, cfg->object_size, url, sizeof(url)))) {
		snprintf(err, len, "URL of %s:%d: %s", ra->connect, ra->port, strerror(-ret));
		return ret;
	}
	zc_wire_ready(0);
	if ((ret = zc_wire_wait_go(&late))) {
		snprintf(err, len, "waiting for GO: %s", strerror(-ret));
		return ret;
	}
	/* The edges count from when the controller sent GO, as rr.c's do. */
	t0 = zc_now() - late;
	if ((ret = start(h, &p, url, seconds, peer))) {
		snprintf(err, len, "%s", p.reason);
		goto out;
	}
	h->tcp_pid = p.pid;
	json_object_set_new(peer, "pid", json_integer(p.pid));
	h->pidfd = (int)syscall(SYS_pidfd_open, p.pid, 0);
	for (int e = 0; e < HP_NR; e++) {
		double at = t0 + cfg->warmup_s + (e == HP_WINDOW ? cfg->duration_s : 0);

		if ((ret = zc_hp_sleep_until(h, at))) {
			zc_hp_died(h, e ? "during the window" : "during the warm-up", err, len);
			goto out;
		}
		zc_hp_take(h, &h->e[e]);
	}
	if ((ret = zc_peer_wait_exit(&p, seconds + cfg->timeout_s + 10))) {
		zc_hp_died(h, ret == -ETIMEDOUT ? "not: it ran past its time" : "with a failure",
			   err, len);
		goto out;
	}
	if (!(ret = result(h, peer, &s, err, len)))
		figures(h, &s, out);
out:
	json_decref(ret ? s.latency : NULL);
	zc_peer_stop(&p, 2);
	if (p.pid) {
		char desc[64], tail[2048], path[128];

		zc_peer_describe(&p, desc, sizeof(desc));
		json_object_set_new(peer, "exit", json_string(desc));
		zc_peer_log_tail(p.log_path, tail, sizeof(tail));
		json_object_set_new(peer, "log_tail", json_string(tail));
		for (const char *f = "wrk.log\0wrk.out\0zcbench-wrk.lua\0h2load.log\0h2load.out\0"; *f;
		     f += strlen(f) + 1) {
			snprintf(path, sizeof(path), "%s/%s", h->dir, f);
			unlink(path);
		}
	}
	return ret;
}
