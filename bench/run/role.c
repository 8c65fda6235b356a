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
 * edges are marked by SIGALRM, counters are read only at the edges.
 */
#include "lib/zcbench.h"
#include "config/cfg.h"
#include "counters/counters.h"
#include "modes/mode.h"
#include "lib/net.h"
#include "transport/nic.h"
#include "lib/pattern.h"
#include "run/role.h"
#include "lib/cpu.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
	(void)sig;
	stop_flag = 1;
}

struct snap {
	double t;
	uint64_t bytes, calls;
	struct rusage ru;
	struct zc_cpustat cs;
	bool cs_ok;
	struct zc_counters_snap ctr;	/* only at the window's two edges */
};

/* A window edge. ctr: the role's counters, NULL where no figure is derived;
 * they are read innermost (last at the opening edge, first at the closing
 * one) so that this function's own syscalls stay out of the window. */
static void take(struct snap *s, const struct zc_io *io, int cpu, const struct zc_counters *ctr,
		 bool closing)
{
	if (ctr && closing)
		zc_counters_snap(ctr, &s->ctr, true);
	s->t = zc_now();
	s->bytes = io->bytes;
	s->calls = io->calls;
	getrusage(RUSAGE_SELF, &s->ru);
	s->cs_ok = cpu >= 0 && zc_cpustat_read(cpu, &s->cs) == 0;
	if (ctr && !closing)
		zc_counters_snap(ctr, &s->ctr, false);
}

static void arm(double seconds)
{
	struct itimerval it = { 0 };

	stop_flag = 0;
	if (seconds <= 0) {
		stop_flag = 1;
		return;
	}
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (time_t)seconds) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

static double tv(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

static json_t *window_json(const struct snap *a, const struct snap *b)
{
	json_t *o = json_object();
	double win = b->t - a->t;

	json_object_set_new(o, "window_s", json_real(win));
	json_object_set_new(o, "bytes", json_integer(b->bytes - a->bytes));
	json_object_set_new(o, "calls", json_integer(b->calls - a->calls));
	json_object_set_new(o, "rusage_user_s", json_real(tv(&b->ru.ru_utime) - tv(&a->ru.ru_utime)));
	json_object_set_new(o, "rusage_sys_s", json_real(tv(&b->ru.ru_stime) - tv(&a->ru.ru_stime)));
	json_object_set_new(o, "vol_ctx_switches", json_integer(b->ru.ru_nvcsw - a->ru.ru_nvcsw));
	json_object_set_new(o, "invol_ctx_switches", json_integer(b->ru.ru_nivcsw - a->ru.ru_nivcsw));
	if (a->cs_ok && b->cs_ok) {
		struct zc_cpustat d;
		json_t *c = json_object();

		zc_cpustat_delta(&a->cs, &b->cs, &d);
		json_object_set_new(c, "user_s", json_real(d.user));
		json_object_set_new(c, "nice_s", json_real(d.nice));
		json_object_set_new(c, "system_s", json_real(d.system));
		json_object_set_new(c, "irq_s", json_real(d.irq));
		json_object_set_new(c, "softirq_s", json_real(d.softirq));
		json_object_set_new(c, "idle_s", json_real(d.idle));
		json_object_set_new(c, "iowait_s", json_real(d.iowait));
		json_object_set_new(c, "steal_s", json_real(d.steal));
		json_object_set_new(c, "busy_s", json_real(zc_cpustat_busy(&d)));
		json_object_set_new(o, "cpustat", c);
		json_object_set_new(o, "busy_s", json_real(zc_cpustat_busy(&d)));
		json_object_set_new(o, "busy_frac", json_real(win > 0 ? zc_cpustat_busy(&d) / win : 0));
	} else {
		json_object_set_new(o, "cpustat", json_null());
		json_object_set_new(o, "busy_s", json_null());
		json_object_set_new(o, "busy_frac", json_null());
	}
	return o;
}

static void emit(json_t *out)
{
	char *s = json_dumps(out, JSON_COMPACT);

	if (s) {
		fputs(s, stdout);
		fputc('\n', stdout);
		fflush(stdout);
		free(s);
	}
}

static int fail(json_t *out, const char *what, int err)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(-err));
	json_object_set_new(out, "status", json_string("error"));
	json_object_set_new(out, "error", json_string(msg));
	emit(out);
	json_decref(out);
	return ZC_EXIT_FAIL;
}

static int parse_args(int argc, char **argv, struct zc_role_args *ra)
{
	char err[1024];
	int ret = zc_role_args_parse(argc, argv, ra, err, sizeof(err));

	if (ret < 0)
		zc_err("%s: %s", argv[1], err);
	return ret;
}

static int wait_go(void)
{
	char line[64];

	if (!fgets(line, sizeof(line), stdin))
		return -EPIPE;
	return strncmp(line, "GO", 2) ? -EPROTO : 0;
}

int zc_role_main(int argc, char **argv)
{
	struct zc_role_args ra = { .role = zc_role_from_name(argv[1]) };
	const struct zc_mode *m;
	struct zc_io io = { ZC_IO_INIT, .stop = &stop_flag };
	struct sigaction sa = { .sa_handler = on_alarm };
	static struct snap s0, s1, s2;	/* static: BPF snapshots are 16 KiB each */
	struct zc_counters ctr;
	json_t *out = json_object(), *mopts;
	uint8_t *ref = NULL;
	size_t ref_len = 0;
	const char *why;
	char err[256];
	int lfd = -1, port = 0, node = -1, ret, end_ret;
	uint64_t seed;

	if ((ret = parse_args(argc, argv, &ra)))
		return ret == ZC_OPT_HELP ? ZC_EXIT_OK : ZC_EXIT_USAGE;
	/* A peer that goes away is an error to report, not a reason to die. */
	signal(SIGPIPE, SIG_IGN);
	m = zc_mode_find(ra.role, ra.cfg.mode[ra.role]);
	json_object_set_new(out, "role", json_string(argv[1]));
	json_object_set_new(out, "mode", json_string(ra.cfg.mode[ra.role]));
	json_object_set_new(out, "cpu", json_integer(ra.cpu));
	if (!m)
		return fail(out, "mode", -ENOENT);
	if (m->unavailable && (why = m->unavailable())) {
		json_object_set_new(out, "status", json_string("unavailable"));
		json_object_set_new(out, "error", json_string(why));
		emit(out);
		json_decref(out);
		return ZC_EXIT_FAIL;
	}
	if (ra.cpu >= 0 && (ret = zc_pin_cpu(ra.cpu)))
		return fail(out, "sched_setaffinity", ret);

	io.chunk = ra.cfg.chunk;
	io.pipe_size = ra.cfg.pipe_size;
	io.file_dir = ra.cfg.file_dir;
	io.period = ra.cfg.period; /* the controller passes the effective one */
	io.buf_len = ra.role == ZC_ROLE_SOURCE ? io.period
		   : ra.role == ZC_ROLE_PROXY ? ra.cfg.chunk
		   : (ra.cfg.chunk > 262144 ? ra.cfg.chunk : 262144);
	io.buf = zc_buf_alloc(io.buf_len, ra.cpu, &node);
	if (!io.buf)
		return fail(out, "buffer allocation", -ENOMEM);
	json_object_set_new(out, "buffer_numa_node", json_integer(node));
	json_object_set_new(out, "cpu_numa_node", json_integer(ra.cpu >= 0 ? zc_cpu_node(ra.cpu) : -1));
	seed = ra.cfg.seed;
	if (ra.role == ZC_ROLE_SOURCE) {
		zc_pattern_fill(io.buf, io.buf_len, seed);
	} else if (ra.role == ZC_ROLE_SINK) {
		if (ra.cfg.sink_seed >= 0)
			seed = ra.cfg.sink_seed;
		ref_len = io.period;
		ref = zc_buf_alloc(ref_len, ra.cpu, &node);
		if (!ref)
			return fail(out, "reference allocation", -ENOMEM);
		zc_pattern_fill(ref, ref_len, seed);
		io.ref = ref;
	}
	/* Counters are loaded before READY, so loading costs nothing in the
	 * window; they count from here, the window is the edges' difference. */
	zc_counters_open(&ctr, zc_counters_parse(ra.cfg.counters), ra.cpu);
	json_object_set_new(out, "period", json_integer(io.period));
	json_object_set_new(out, "verified", json_boolean(ra.role == ZC_ROLE_SINK &&
							   (m->flags & ZC_MODE_VERIFIES)));

	if (ra.role != ZC_ROLE_SOURCE) {
		lfd = zc_listen(ra.listen, &port);
		if (lfd < 0)
			return fail(out, "listen", lfd);
	} else {
		io.out_fd = zc_connect(ra.connect, ra.port);
		if (io.out_fd < 0)
			return fail(out, "connect", io.out_fd);
	}
	printf("READY port=%d\n", port);
	fflush(stdout);
	if (lfd >= 0) {
		io.in_fd = zc_accept(lfd);
		close(lfd);
		if (io.in_fd < 0)
			return fail(out, "accept", io.in_fd);
		if (ra.role == ZC_ROLE_PROXY) {
			io.out_fd = zc_connect(ra.connect, ra.port);
			if (io.out_fd < 0)
				return fail(out, "connect", io.out_fd);
		}
	}
	/* The NICs this role's connections use, seen from its own host. */
	json_object_set_new(out, "nics", zc_nic_of_sockets(io.in_fd, io.out_fd));
	if ((ret = zc_mode_setup(m, &io, ra.cfg.mode_opts, err, sizeof(err))))
		return fail(out, err, ret);
	if ((mopts = zc_mode_opts_json(m, &io)))
		json_object_set_new(out, "mode_options", mopts);
	if ((ret = wait_go()))
		return fail(out, "waiting for GO", ret);

	sigaction(SIGALRM, &sa, NULL);
	arm(ra.cfg.warmup_s);
	ret = zc_mode_pump(m, &io);
	take(&s0, &io, ra.cpu, &ctr, false);
	if (ret == 0) {
		arm(ra.cfg.duration_s);
		ret = zc_mode_pump(m, &io);
	}
	take(&s1, &io, ra.cpu, &ctr, true);
	end_ret = ret;
	if (ret == 0) {
		/* The source stops after its tail; the others drain until EOF. */
		arm(ra.role == ZC_ROLE_SOURCE ? ra.cfg.tail_s : 0);
		if (ra.role != ZC_ROLE_SOURCE)
			stop_flag = 0;
		ret = zc_mode_pump(m, &io);
	}
	take(&s2, &io, ra.cpu, NULL, false);
	if (ra.role == ZC_ROLE_SOURCE && ret >= 0)
		shutdown(io.out_fd, SHUT_WR);

	json_object_set_new(out, "window", window_json(&s0, &s1));
	if (ctr.mask)
		json_object_set_new(out, "counters", zc_counters_json(&ctr, &s0.ctr, &s1.ctr,
								       s1.bytes - s0.bytes, s1.t - s0.t));
	zc_counters_close(&ctr);
	json_object_set_new(out, "bytes_total", json_integer(s2.bytes));
	json_object_set_new(out, "calls_total", json_integer(s2.calls));
	zc_mode_teardown(m, &io);
	if (io.mode_report)
		json_object_set_new(out, "mode_report", io.mode_report);
	if (io.mismatch_off != UINT64_MAX) {
		char msg[160];

		snprintf(msg, sizeof(msg), "payload mismatch at stream offset %llu (sink mode %s)",
			 (unsigned long long)io.mismatch_off, m->name);
		json_object_set_new(out, "mismatch_offset", json_integer(io.mismatch_off));
		json_object_set_new(out, "status", json_string("error"));
		json_object_set_new(out, "error", json_string(msg));
	} else if (end_ret == 1) {
		json_object_set_new(out, "status", json_string("error"));
		json_object_set_new(out, "error",
				    json_string("peer closed the connection before the window ended"));
	} else if (ret < 0) {
		char msg[160];

		snprintf(msg, sizeof(msg), "%s mode %s: %s", argv[1], m->name, strerror(-ret));
		json_object_set_new(out, "status", json_string("error"));
		json_object_set_new(out, "error", json_string(msg));
	} else {
		json_object_set_new(out, "status", json_string("ok"));
	}
	ret = strcmp(json_string_value(json_object_get(out, "status")), "ok") ? ZC_EXIT_FAIL : 0;
	emit(out);
	json_decref(out);
	if (io.in_fd >= 0)
		close(io.in_fd);
	if (io.out_fd >= 0)
		close(io.out_fd);
	zc_buf_free(io.buf, io.buf_len);
	zc_buf_free(ref, ref_len);
	return ret;
}
