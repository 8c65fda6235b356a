// SPDX-License-Identifier: GPL-2.0
/*
 * A role of a request/response run (traffic = rr, rr_int.h): its workers,
 * the window edges kept by the clock, and its report. The client and the
 * server are zcbench's own (a minimal HTTP/1.1, lib/http.h); the proxy runs
 * the run's proxy mode in both directions of every connection.
 */
#include "rr/rr.h"
#include "rr/rr_int.h"
#include "lib/http.h"
#include "lib/net.h"
#include "lib/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static pthread_barrier_t go_bar;

static int resolve_peer(struct rr *rr)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV }, *ai;
	char port[16];

	snprintf(port, sizeof(port), "%d", rr->ra->port);
	if (getaddrinfo(rr->ra->connect, port, &hints, &ai))
		return -EADDRNOTAVAIL;
	memcpy(&rr->peer, ai->ai_addr, ai->ai_addrlen);
	rr->peer_len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

static const struct rr_ops *ops_of(int role)
{
	return role == ZC_ROLE_SOURCE ? &zc_rr_client : role == ZC_ROLE_SINK ? &zc_rr_server
									      : &zc_rr_proxy;
}

static void *worker_main(void *p)
{
	struct rr_worker *w = p;
	const struct rr_ops *ops = ops_of(w->rr->role);
	int ret = 0;

	if (w->cpu >= 0 && (ret = zc_pin_cpu(w->cpu)))
		zc_rr_fail(w, ret, "sched_setaffinity (worker %d, CPU %d)", w->idx, w->cpu);
	if (!ret && ((ret = zc_rr_epoll(w)) || (ret = ops->setup(w))) && !w->ret)
		zc_rr_fail(w, ret, "worker %d: setup", w->idx);
	pthread_barrier_wait(&go_bar);	/* setup done */
	pthread_barrier_wait(&go_bar);	/* GO */
	if (!w->rr->abort && ops->loop)
		ops->loop(w);
	else if (!w->rr->abort)
		zc_rr_serve(w, ops);
	/* Edges a failed or early loop never reached: its state at the end. */
	for (; w->phase < RR_NR; w->phase++)
		zc_rr_take(w, w->phase);
	ops->teardown(w);
	if (w->epfd >= 0)
		close(w->epfd);
	return NULL;
}

/* The server's body pattern, or the client's reference (sink_seed: test the
 * verifier), one period from offset 0; the server's file for sendfile. */
static int pattern_setup(struct rr *rr, int cpu)
{
	const struct zc_cfg *cfg = rr->cfg;
	long seed = rr->role == ZC_ROLE_SOURCE && cfg->sink_seed >= 0 ? cfg->sink_seed : cfg->seed;
	int node;

	rr->period = cfg->period;
	if (!(rr->pattern = zc_buf_alloc(rr->period, cpu, &node)))
		return -ENOMEM;
	zc_pattern_fill(rr->pattern, rr->period, (uint64_t)seed);
	if (rr->role == ZC_ROLE_SINK && cfg->server_send == ZC_RR_SENDFILE) {
		struct zc_io io = { ZC_IO_INIT };

		io.file_dir = cfg->file_dir;
		io.buf = rr->pattern;
		io.period = rr->period;
		if (zc_payload_file(&io))
			return -errno ? -errno : -EIO;
		rr->file_fd = io.file_fd;
	}
	return 0;
}

json_t *zc_rr_window_json(const struct rr *rr)
{
	static const char *const from[ZC_ROLE_NR] = {
		[ZC_ROLE_SOURCE] = "the client's response body bytes, each checked against the pattern",
		[ZC_ROLE_PROXY] = "the proxy's bytes forwarded, both directions",
		[ZC_ROLE_SINK] = "the server's bytes sent, heads and bodies",
	};
	struct zc_window win;

	zc_window_init(&win, 0);
	win.bytes = win.calls = win.transactions = 0;
	win.bytes_from = from[rr->role];
	win.rusage_from = "the role's worker threads (getrusage RUSAGE_THREAD, summed)";
	for (int i = 0; i < rr->nw; i++) {
		const struct rr_snap *a = &rr->w[i].s[RR_WARMUP], *b = &rr->w[i].s[RR_WINDOW];

		win.window_s += (b->t - a->t) / rr->nw;
		win.bytes += b->bytes - a->bytes;
		win.calls += b->calls - a->calls;
		win.transactions += b->tx - a->tx;
		zc_window_rusage(&win, &a->ru, &b->ru);
		zc_window_cpu(&win, rr->w[i].cpu, &a->cs, &b->cs, a->cs_ok && b->cs_ok);
	}
	return zc_window_json(&win);
}

static json_t *rr_json(struct rr *rr, json_t *window)
{
	double win = json_real_value(json_object_get(window, "window_s"));
	json_int_t tx = json_integer_value(json_object_get(window, "transactions"));
	uint64_t opened = 0, closed = 0, resets = 0, txt = 0;
	int first = 0;
	json_t *o = json_object(), *ws = json_array();

	for (int i = 0; i < rr->nw; i++) {
		const struct rr_worker *w = &rr->w[i];
		const struct rr_snap *a = &w->s[RR_WARMUP], *b = &w->s[RR_WINDOW];

		opened += w->opened;
		closed += w->closed;
		resets += w->resets;
		if (!first)
			first = w->first_reset;
		txt += w->tx;
		json_array_append_new(ws, json_pack("{s:i,s:i,s:I,s:I,s:I}", "worker", i, "cpu",
						    w->cpu, "transactions", (json_int_t)(b->tx - a->tx),
						    "bytes", (json_int_t)(b->bytes - a->bytes),
						    "connections_opened", (json_int_t)w->opened));
	}
	json_object_set_new(o, "transactions", json_integer(tx));
	json_object_set_new(o, "tps", json_real(win > 0 ? tx / win : 0));
	json_object_set_new(o, "transactions_total", json_integer((json_int_t)txt));
	json_object_set_new(o, rr->role == ZC_ROLE_SOURCE ? "connections_opened"
			    : "connections_accepted", json_integer((json_int_t)opened));
	json_object_set_new(o, "connections_closed", json_integer((json_int_t)closed));
	json_object_set_new(o, "connection_errors", json_integer((json_int_t)resets));
	if (first)
		json_object_set_new(o, "first_connection_error", json_string(strerror(-first)));
	json_object_set_new(o, "workers", ws);
	ops_of(rr->role)->report(rr, o);
	return o;
}

int zc_rr_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
	       json_t *out)
{
	static struct rr rr;
	const struct zc_cfg *cfg = &ra->cfg;
	char err[600] = "";
	int port = 0, ret = 0, code;
	double t0, late = 0, margin;
	bool measured;

	memset(&rr, 0, sizeof(rr));
	rr.ra = ra;
	rr.cfg = cfg;
	rr.role = ra->role;
	rr.m = m;
	rr.nw = nw;
	rr.lfd = rr.file_fd = -1;
	json_object_set_new(out, "traffic", json_string("rr"));
	if (rr.role != ZC_ROLE_PROXY)
		json_object_set_new(out, "mode", json_string(rr.role == ZC_ROLE_SOURCE ? "rr-client"
									   : "rr-server"));
	if (rr.role == ZC_ROLE_PROXY && !m->step) {
		snprintf(err, sizeof(err), "proxy mode %s has no step to forward connections that "
			 "come and go (traffic = rr takes copy, splice, splice-as-copy ...)", m->name);
		return zc_wire_emit(out, "unavailable", err);
	}
	if (rr.role == ZC_ROLE_SOURCE && cfg->object_sizes_file[0] &&
	    (ret = zc_sizes_file_read(cfg->object_sizes_file, ZC_OBJECT_SIZE_MAX, &rr.sizes, &rr.nsizes,
				      err, sizeof(err))))
		goto early;
	if (cpus[0] >= 0 && (ret = zc_pin_cpu(cpus[0]))) {
		snprintf(err, sizeof(err), "sched_setaffinity");
		goto early;
	}
	if (rr.role != ZC_ROLE_PROXY && (ret = pattern_setup(&rr, cpus[0]))) {
		snprintf(err, sizeof(err), "payload pattern (period %llu, file_dir %s)",
			 (unsigned long long)cfg->period, cfg->file_dir);
		goto early;
	}
	if (rr.role != ZC_ROLE_SOURCE) {
		if ((rr.lfd = zc_listen(ra->listen, &port)) < 0) {
			ret = rr.lfd;
			snprintf(err, sizeof(err), "listen on %s", ra->listen);
			goto early;
		}
		listen(rr.lfd, 4096);
		zc_set_nonblock(rr.lfd);
	}
	if (rr.role != ZC_ROLE_SINK && (ret = resolve_peer(&rr))) {
		snprintf(err, sizeof(err), "resolve %s:%d", ra->connect, ra->port);
		goto early;
	}
	zc_rr_live.nconn = nw;
	if (zc_live_role_alloc(&zc_rr_live))
		zc_live_role_free(&zc_rr_live);
	if (!(rr.w = calloc(nw, sizeof(*rr.w)))) {
		ret = -ENOMEM;
		goto early;
	}
	pthread_barrier_init(&go_bar, NULL, nw + 1);
	for (int i = 0; i < nw; i++) {
		rr.w[i] = (struct rr_worker){ .rr = &rr, .idx = i, .cpu = cpus[i], .epfd = -1 };
		if ((ret = pthread_create(&rr.w[i].th, NULL, worker_main, &rr.w[i])))
			zc_die("pthread_create (rr worker %d): %s", i, strerror(ret));
		rr.w[i].started = true;
	}
	pthread_barrier_wait(&go_bar);	/* every worker set up (or failed) */
	zc_wire_ready(port);
	/* The edges count from when the controller sent GO. */
	measured = !rr.abort;
	ret = rr.abort ? 0 : zc_wire_wait_go(&late);
	if (ret)
		rr.abort = 1;
	measured &= !ret;
	t0 = zc_now() - late;
	rr.edge[RR_WARMUP] = t0 + cfg->warmup_s;
	rr.edge[RR_WINDOW] = rr.edge[RR_WARMUP] + cfg->duration_s;
	rr.edge[RR_TAIL] = rr.edge[RR_WINDOW] + cfg->tail_s;
	/*
	 * Past the tail the client waits for the responses still due, giving
	 * up (a stall, named) before the controller's timeout runs out; the
	 * server and the proxy wait a little longer for its closes, so that the
	 * client's verdict, not an end they caused, is what the run reports.
	 * The margin leaves the roles time to exit (seconds under ASan's leak
	 * check on a loaded machine) before the controller's deadline.
	 */
	margin = cfg->timeout_s / 2 < 2 ? cfg->timeout_s / 2 : 2;
	rr.give_up = rr.edge[RR_TAIL] + cfg->timeout_s - margin;
	rr.end = rr.edge[RR_TAIL] + cfg->timeout_s - margin / 2;
	pthread_barrier_wait(&go_bar);
	for (int i = 0; i < nw; i++)
		pthread_join(rr.w[i].th, NULL);
	/* As every role's report: a window only when the role got to measure
	 * one (its workers set up, GO read), else the error alone. */
	if (measured) {
		json_object_set_new(out, "window", zc_rr_window_json(&rr));
		json_object_set_new(out, "rr", rr_json(&rr, json_object_get(out, "window")));
	}
	if (strcmp(cfg->counters, "none"))
		json_object_set_new(out, "counters_error", json_string("--counters are not read in "
				    "request/response runs yet (traffic = rr)"));
	for (int i = 0; i < nw; i++)
		if (rr.w[i].ret && !err[0]) {
			snprintf(err, sizeof(err), "%s", rr.w[i].err);
			ret = rr.w[i].ret;
		}
	if (ret && !err[0])
		snprintf(err, sizeof(err), "waiting for GO: %s", strerror(-ret));
	code = zc_wire_emit(out, err[0] ? "error" : "ok", err[0] ? err : NULL);
	goto cleanup;
early:
	{
		char msg[700];

		/* The sizes file's message says it all; the others add the errno. */
		if (rr.role == ZC_ROLE_SOURCE && cfg->object_sizes_file[0] && !rr.sizes)
			snprintf(msg, sizeof(msg), "object_sizes_file %s", err);
		else
			snprintf(msg, sizeof(msg), "%s: %s", err, strerror(ret < 0 ? -ret : EINVAL));
		code = zc_wire_emit(out, "error", msg);
	}
cleanup:
	zc_live_role_free(&zc_rr_live);
	for (int i = 0; rr.w && i < nw; i++)
		zc_hdr_free(rr.w[i].lat);
	free(rr.w);
	free(rr.sizes);
	if (rr.lfd >= 0)
		close(rr.lfd);
	if (rr.file_fd >= 0)
		close(rr.file_fd);
	zc_buf_free(rr.pattern, rr.period);
	return code;
}
