// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench source|proxy|sink: one role, pinned to one CPU, speaking the
 * controller protocol on stdin/stdout:
 *
 *   role -> "READY port=N"     (listening, or connected for the source)
 *   ctl  -> "GO"
 *   role -> one JSON object    (what it measured on its own host)
 *
 * The same protocol works for every transport (local, netns, ssh, guest).
 * Between GO and the JSON the role does nothing but its mode's pump: window
 * edges are marked by SIGALRM, counters are read only at the edges. A role
 * serves `connections` connections with its workers (role_conn.c: making
 * them; role_worker.c: the threads, their edges and figures).
 */
#include "lib/zcbench.h"
#include "config/cfg.h"
#include "counters/counters.h"
#include "modes/mode.h"
#include "lib/net.h"
#include "transport/nic.h"
#include "lib/pattern.h"
#include "wire/wire.h"
#include "role/role_int.h"
#include "peers/role_peer.h"
#include "rr/rr.h"
#include "lib/cpu.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int fail(json_t *out, const char *what, int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(-err));
	zc_wire_emit(out, "error", msg);
	json_decref(out);
	return ZC_EXIT_FAIL;
}

static void set_status(json_t *out, const char *status, const char *error)
{
	json_object_set_new(out, "status", json_string(status));
	json_object_set_new(out, "error", json_string(error));
}

static int parse_args(int argc, char **argv, struct zc_role_args *ra)
{
	char err[1024];
	int ret = zc_role_args_parse(argc, argv, ra, err, sizeof(err));

	if (ret < 0)
		zc_err("%s: %s", argv[1], err);
	return ret;
}

/* Workers of this role: as the controller resolved them, else its own
 * placement's (a role placing itself on another machine); never more than
 * connections (a worker without one would idle). */
static int role_workers(struct zc_role_args *ra, int *cpus, int max)
{
	int n = zc_cfg_role_workers(&ra->cfg, ra->role), k = 0;
	char buf[sizeof(ra->cpus)], *save, *tok;

	snprintf(buf, sizeof(buf), "%s", ra->cpus);
	for (tok = strtok_r(buf, ", ", &save); tok && k < max; tok = strtok_r(NULL, ", ", &save))
		cpus[k++] = atoi(tok);
	if (n <= 0)
		n = k ? k : 1;
	if (n > ra->cfg.connections)
		n = (int)ra->cfg.connections;
	if (n > max)
		n = max;
	for (int i = k; i < n; i++)
		cpus[i] = k ? cpus[i % k] : ra->cpu;
	return n;
}

static int alloc_role(struct role *r, int nworkers)
{
	/* io and edge: where a watching controller can read them (wire.h). */
	struct zc_live_role live = { .nconn = r->nconn };

	zc_live_role_alloc(&live);
	r->io = live.io;
	r->edge = live.edge;
	r->cbuf = calloc(r->nconn, sizeof(*r->cbuf));
	r->owner = calloc(r->nconn, sizeof(*r->owner));
	r->shift = calloc(r->nconn, sizeof(*r->shift));
	r->w = calloc(nworkers, sizeof(*r->w));
	if (!r->io || !r->cbuf || !r->edge || !r->owner || !r->shift || !r->w)
		return -ENOMEM;
	r->nworkers = nworkers;
	for (int i = 0; i < nworkers; i++) {
		/* Connection c belongs to worker c mod workers. */
		r->w[i].set.io = calloc(r->nconn / nworkers + 1, sizeof(*r->w[i].set.io));
		if (!r->w[i].set.io)
			return -ENOMEM;
		r->w[i].idx = i;
		r->w[i].set.epfd = -1;
	}
	return 0;
}

static void free_role(struct role *r)
{
	for (int i = 0; r->w && i < r->nworkers; i++)
		free(r->w[i].set.io);
	zc_live_role_free(&(struct zc_live_role){ .nconn = r->nconn, .io = r->io, .edge = r->edge });
	r->io = NULL;
	r->edge = NULL;
	free(r->cbuf);
	free(r->owner);
	free(r->shift);
	zc_slices_free(r);
	free(r->w);
	zc_buf_free(r->ref, r->ref_len);
	json_decref(r->rlimit);
}

/* The run's per-connection state: settings, pattern start, owner. */
static void init_conns(struct role *r)
{
	struct zc_role_args *ra = r->ra;
	const struct zc_mode *src = zc_mode_find(ZC_ROLE_SOURCE, ra->cfg.mode[ZC_ROLE_SOURCE]);
	bool static_chunk = src && (src->flags & ZC_MODE_STATIC_CHUNK);

	for (int c = 0; c < r->nconn; c++) {
		struct zc_io *io = &r->io[c];

		*io = (struct zc_io){ ZC_IO_INIT };
		io->chunk = ra->cfg.chunk;
		io->pipe_size = ra->cfg.pipe_size;
		io->file_dir = ra->cfg.file_dir;
		io->period = ra->cfg.period; /* the controller passes the effective one */
		io->ref = r->ref;
		io->conn_id = (uint32_t)c;
		r->shift[c] = zc_pattern_shift((uint32_t)c, (uint32_t)r->nconn, io->period,
					       static_chunk);
		/* Source and sink agree where connection c starts in the pattern. */
		if (ra->role != ZC_ROLE_PROXY)
			io->fill_off = r->shift[c];
		r->owner[c] = c % r->nworkers;
	}
}

/* A sink's first corrupted byte: which connection, where in its stream. */
static bool mismatch(struct role *r, char *msg, size_t len, json_t *out)
{
	for (int c = 0; c < r->nconn; c++) {
		const struct zc_io *io = &r->io[c];

		if (io->mismatch_off == UINT64_MAX)
			continue;
		/* One connection: the message it always had. */
		if (r->nconn == 1)
			snprintf(msg, len, "payload mismatch at stream offset %llu (sink mode %s)",
				 (unsigned long long)(io->mismatch_off - r->shift[c]), r->m->name);
		else
			snprintf(msg, len, "payload mismatch on connection %d of %d at stream offset "
				 "%llu (sink mode %s)", c, r->nconn,
				 (unsigned long long)(io->mismatch_off - r->shift[c]), r->m->name);
		json_object_set_new(out, "mismatch_offset", json_integer(io->mismatch_off - r->shift[c]));
		json_object_set_new(out, "mismatch_connection", json_integer(c));
		return true;
	}
	return false;
}

/* Worker 0's bytes so far, for the sliced overhead (another thread reads). */
static uint64_t worker0_bytes(void *arg)
{
	const struct role_worker *w = arg;
	uint64_t sum = 0;

	for (size_t i = 0; i < w->set.n; i++)
		sum += __atomic_load_n(&w->set.io[i]->bytes, __ATOMIC_RELAXED);
	return sum;
}

/*
 * make bench-overhead's sliced way (counters/toggle.h): with ZC_BPF_TOGGLE_MS
 * in the environment, a thread off the workers' CPUs switches the role's BPF
 * programs off and on through the window. Why it could not is said in the
 * role's "counters_toggle_error".
 */
static void toggle_start(struct role *r, const int *cpus, int nw, json_t *out)
{
	double slice = zc_toggle_slice_s();
	clockid_t clock;
	char why[160];

	if (!slice)
		return;
	if (slice < 0)
		snprintf(why, sizeof(why), "ZC_BPF_TOGGLE_MS: not a whole number of milliseconds "
			 "in 10..10000");
	else if (pthread_getcpuclockid(pthread_self(), &clock))
		snprintf(why, sizeof(why), "no CPU clock for the role's thread");
	else if (!zc_toggle_start(&r->toggle, r->ctr.bpf, clock, worker0_bytes, &r->w[0], cpus,
				  nw, slice, why, sizeof(why)))
		return;
	json_object_set_new(out, "counters_toggle_error", json_string(why));
}

int zc_role_main(int argc, char **argv)
{
	static struct zc_role_args ra;
	static struct role r;
	json_t *out = json_object(), *mopts;
	int cpus[ZC_WORKERS_MAX], nw, port = 0, node = -1, ret, end_ret = 0;
	const char *why;
	char err[320], msg[400];
	uint64_t bytes_total = 0, calls_total = 0;

	memset(&ra, 0, sizeof(ra));
	ra.role = zc_role_from_name(argv[1]);
	if ((ret = parse_args(argc, argv, &ra))) {
		/* --help too: zcbench man calls every role's --help in one process */
		json_decref(out);
		return ret == ZC_OPT_HELP ? ZC_EXIT_OK : ZC_EXIT_USAGE;
	}
	/* A peer that goes away is an error to report, not a reason to die. */
	signal(SIGPIPE, SIG_IGN);
	r.ra = &ra;
	r.lfd = -1;
	r.m = zc_mode_find(ra.role, ra.cfg.mode[ra.role]);
	r.nconn = (int)ra.cfg.connections;
	nw = role_workers(&ra, cpus, ZC_WORKERS_MAX);
	json_object_set_new(out, "role", json_string(argv[1]));
	json_object_set_new(out, "mode", json_string(ra.cfg.mode[ra.role]));
	json_object_set_new(out, "cpu", json_integer(cpus[0]));
	if (!r.m)
		return fail(out, "mode", -ENOENT);
	/* An HTTP server or client program in a request/response role's place
	 * (nginx, wrk, h2load): rr_peer.c. HAProxy in HTTP mode is a proxy peer. */
	ret = -1;
	if (ra.cfg.traffic == ZC_TRAFFIC_RR && (r.m->flags & ZC_MODE_HTTP) &&
	    ra.role != ZC_ROLE_PROXY)
		ret = zc_rr_peer_main(&ra, r.m, cpus, nw, out);
	/* A real program in this role's place (HAProxy, iperf3): role_peer.c. */
	else if (zc_role_peer_mode(&ra, r.m))
		ret = zc_role_peer_main(&ra, zc_role_peer_mode(&ra, r.m), cpus, nw, out);
	/* Request/response: connections that come and go, rr/rr*.c. */
	else if (ra.cfg.traffic == ZC_TRAFFIC_RR)
		ret = zc_rr_main(&ra, r.m, cpus, nw, out);
	if (ret >= 0) {	/* an exit code */
		json_decref(out);
		return ret;
	}
	why = r.m->unavailable ? r.m->unavailable() : NULL;
	if (!why)
		why = zc_conns_unsupported(r.m, (r.nconn + nw - 1) / nw);
	if (why) {
		zc_wire_emit(out, "unavailable", why);
		json_decref(out);
		return ZC_EXIT_FAIL;
	}
	if (alloc_role(&r, nw))
		return fail(out, "role state", -ENOMEM);
	for (int i = 0; i < nw; i++)
		r.w[i].cpu = cpus[i];
	/* The main thread is worker 0: pinned before its counters and buffers. */
	if (cpus[0] >= 0 && (ret = zc_pin_cpu(cpus[0])))
		return fail(out, "sched_setaffinity", ret);
	if ((ret = zc_wire_nofile(r.nconn, &r.rlimit, err, sizeof(err))))
		return fail(out, err, ret);
	json_object_set_new(out, "cpu_numa_node", json_integer(cpus[0] >= 0 ? zc_cpu_node(cpus[0]) : -1));
	if (ra.role == ZC_ROLE_SINK) {
		r.ref_len = ra.cfg.period;
		if (!(r.ref = zc_buf_alloc(r.ref_len, cpus[0], &node)))
			return fail(out, "reference allocation", -ENOMEM);
		zc_pattern_fill(r.ref, r.ref_len, ra.cfg.sink_seed >= 0 ? ra.cfg.sink_seed : ra.cfg.seed);
	}
	init_conns(&r);
	/* Counters are loaded before READY, so loading costs nothing in the
	 * window; they count from here, the window is the edges' difference. */
	zc_counters_open(&r.ctr, zc_counters_parse(ra.cfg.counters), cpus[0]);
	json_object_set_new(out, "period", json_integer(ra.cfg.period));
	if ((ret = zc_role_conns_open(&r, &port, err, sizeof(err))))
		return fail(out, err, ret);
	zc_wire_ready(port);
	if ((ret = zc_role_conns_accept(&r, err, sizeof(err))))
		return fail(out, err, ret);
	/* The NICs this role's connections use, seen from its own host. */
	json_object_set_new(out, "nics", zc_nic_of_sockets(r.io[0].in_fd, r.io[0].out_fd));
	ret = zc_role_workers_setup(&r, err, sizeof(err));
	json_object_set_new(out, "buffer_numa_node", json_integer(r.w[0].node));
	if (ret)
		snprintf(msg, sizeof(msg), "%s: %s", err, strerror(-ret));
	if (ret)
		set_status(out, ret == -EOPNOTSUPP ? "unavailable" : "error",
			   ret == -EOPNOTSUPP ? err : msg);
	if (!ret && (mopts = zc_mode_opts_json(r.m, &r.io[0])))
		json_object_set_new(out, "mode_options", mopts);
	if (!ret)
		toggle_start(&r, cpus, nw, out);
	/* GO: the warm-up runs from when the controller sent it. */
	if (!ret && (ret = zc_wire_wait_go(&r.go_late_s))) {
		snprintf(msg, sizeof(msg), "waiting for GO: %s", strerror(-ret));
		set_status(out, "error", msg);
	}
	/* Past here every worker runs (or, after a failed setup, only tears down). */
	if (!ret)
		ret = zc_role_workers_run(&r, &end_ret);
	else
		zc_role_workers_run(&r, &end_ret);
	if (!json_object_get(out, "status")) {
		json_t *win = zc_role_window_json(&r);

		json_object_set_new(out, "window", win);
		if (r.ctr.mask)
			json_object_set_new(out, "counters", zc_counters_json(&r.ctr, &r.ctr_snap[0],
				&r.ctr_snap[1], json_integer_value(json_object_get(win, "bytes")),
				json_real_value(json_object_get(win, "window_s"))));
		if (r.ctr.mask && nw > 1)
			json_object_set_new(out, "counters_scope", json_string(
				"worker 0's thread and CPU only"));
	}
	if (r.toggle) {
		json_t *ctr = json_object_get(out, "counters"), *bpf = json_object_get(ctr, "bpf");
		json_t *tj = zc_toggle_finish(r.toggle);

		r.toggle = NULL;
		/* Counted in the "on" slices only: no per-MB figure from them. */
		if (json_is_object(bpf)) {
			static const char *const per_mb[] = { "syscalls_per_mb",
				"rx_copied_per_payload_byte", "tx_copied_per_payload_byte" };

			for (size_t k = 0; k < ZC_ARRAY_SIZE(per_mb); k++)
				json_object_set_new(bpf, per_mb[k], json_null());
			json_object_set_new(bpf, "partial", json_string("the programs were switched "
				"off and on through the window (ZC_BPF_TOGGLE_MS, make bench-overhead): "
				"counts cover its \"on\" slices only, so no per-MB figure"));
		}
		if (ctr)
			json_object_set_new(ctr, "toggle", tj);
		else
			json_decref(tj);
	}
	zc_counters_close(&r.ctr);
	zc_role_workers_teardown(&r);
	for (int c = 0; c < r.nconn; c++) {
		bytes_total += r.io[c].bytes;
		calls_total += r.io[c].calls;
	}
	json_object_set_new(out, "bytes_total", json_integer(bytes_total));
	json_object_set_new(out, "calls_total", json_integer(calls_total));
	json_object_set_new(out, "connections_total", json_integer(r.nconn));
	json_object_set_new(out, "accept", json_string(r.accept_how));
	json_object_set_new(out, "rlimit_nofile", json_incref(r.rlimit));
	json_object_set_new(out, "workers", zc_role_workers_json(&r));
	json_object_set_new(out, "connections", zc_role_conns_json(&r));
	zc_slices_json(&r, out);
	zc_role_verified_json(&r, out);
	if ((mopts = zc_role_mode_report(&r)))
		json_object_set_new(out, "mode_report", mopts);
	/* A status set above (unavailable, setup or GO failed) stays. */
	if (ret < 0)
		snprintf(msg, sizeof(msg), "%s mode %s: %s", argv[1], r.m->name, strerror(-ret));
	if (!json_object_get(out, "status"))
		why = mismatch(&r, msg, sizeof(msg), out) ? msg : end_ret == 1 ?
		      "peer closed the connection before the window ended" : ret < 0 ? msg : NULL;
	ret = zc_wire_emit(out, json_object_get(out, "status") ? NULL : why ? "error" : "ok", why);
	json_decref(out);
	zc_role_conns_close(&r);
	free_role(&r);
	return ret;
}
