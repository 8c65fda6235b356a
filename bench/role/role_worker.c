// SPDX-License-Identifier: GPL-2.0
/*
 * A role's workers. Worker 0 is the role's main thread; workers 1..M-1 are
 * threads of their own. Each pins itself to its CPU, allocates its buffers
 * on that CPU's NUMA node, sets its connections up (an io_uring ring must be
 * made by the thread that submits to it), then runs warm-up, window and
 * tail, reading its own counters at each edge.
 *
 * Edges: SIGALRM goes to worker 0 only (the others block it) and sets the
 * phase's flag; worker 0's pump returns, it wakes the others with SIGUSR1
 * (no SA_RESTART: a blocked call returns EINTR), and each reads its own
 * edge: its bytes and calls, its thread's CPU time, its CPU's /proc/stat.
 * Nothing but the data path runs between two edges.
 */
#include "role/role_int.h"
#include "lib/pattern.h"
#include "metrics/figures.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>

static volatile sig_atomic_t phase_stop[PH_NR];
static volatile sig_atomic_t armed_phase;
static pthread_t main_thread;
static pthread_barrier_t ready_bar, go_bar;
static volatile sig_atomic_t setup_failed;
/* alternate (slices.h): slice k of the window ends with slice_stop[k]. */
static volatile sig_atomic_t slice_stop[ZC_SLICES_MAX];
static volatile sig_atomic_t slice_cur, slice_n;
static double slice_last_t;	/* when the window's last slice starts */

static void on_alarm(int sig)
{
	(void)sig;
	if (armed_phase == PH_WINDOW && slice_n) {
		slice_stop[slice_cur] = 1;
		/* A loaded machine merges ticks: the clock, not their count, ends it. */
		if (++slice_cur < slice_n && zc_now() < slice_last_t)
			return;
		/* The window's last slice: the periodic timer stops with it. */
		setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, NULL);
		slice_n = 0;
	}
	phase_stop[armed_phase] = 1;
}

static void on_kick(int sig)
{
	(void)sig;	/* only to interrupt a blocked call */
}

/* The timer for phase p: its flag is set after seconds (at once for <= 0). */
static void arm(int p, double seconds)
{
	struct itimerval it = { 0 };

	armed_phase = p;
	if (seconds <= 0) {
		phase_stop[p] = 1;
		return;
	}
	it.it_value.tv_sec = (time_t)seconds;
	it.it_value.tv_usec = (suseconds_t)((seconds - (time_t)seconds) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* The window in slices: the timer ticks every slice, the last tick ends it. */
static void arm_slices(const struct zc_slicing *sl)
{
	struct itimerval it = { 0 };

	it.it_value.tv_sec = (time_t)sl->slice_s;
	it.it_value.tv_usec = (suseconds_t)((sl->slice_s - (time_t)sl->slice_s) * 1e6);
	it.it_interval = it.it_value;
	slice_cur = 0;
	slice_n = (sig_atomic_t)sl->nslices;
	slice_last_t = zc_now() + (sl->nslices - 0.5) * sl->slice_s;
	armed_phase = PH_WINDOW;
	setitimer(ITIMER_REAL, &it, NULL);
}

/*
 * When phase p ends, counted from the controller's GO as every role counts it
 * (request/response does the same, rr.c's edges). A role that took its
 * window's opening edge late (a busy core, the counters' snapshot) still ends
 * the window with the others instead of that much later, so the source's tail
 * has to cover only the closing signal's own delay.
 */
static double phase_end(const struct role *r, int p)
{
	const struct zc_role_args *ra = r->ra;

	return r->go_t + ra->cfg.warmup_s + (p >= PH_WINDOW ? ra->cfg.duration_s : 0) +
	       (p >= PH_TAIL ? ra->cfg.tail_s : 0);
}

static void kick_others(struct role *r, const struct role_worker *self)
{
	for (int i = 0; i < r->nworkers; i++)
		if (&r->w[i] != self && r->w[i].started)
			pthread_kill(r->w[i].th, SIGUSR1);
	if (self->idx != 0)
		pthread_kill(main_thread, SIGUSR1);
}

/* A worker failed: end every phase everywhere, so the role reports soon. */
static void abort_all(struct role *r, const struct role_worker *self)
{
	for (int p = 0; p < PH_NR; p++)
		phase_stop[p] = 1;
	for (size_t k = 0; r->sl && k < ZC_SLICES_MAX; k++)
		slice_stop[k] = 1;
	kick_others(r, self);
}

/*
 * An edge of worker w. Worker 0 also reads the process's CPU time and the
 * role's counters, innermost (last at the opening edge, first at the
 * closing one) so this function's own syscalls stay out of the window.
 */
static void take(struct role *r, struct role_worker *w, int p)
{
	struct wsnap *s = &w->s[p];
	bool ctr = w->idx == 0 && p < PH_TAIL && r->ctr.mask;

	if (w->idx == 0 && p == PH_WINDOW)
		zc_toggle_window(r->toggle, false);
	if (ctr && p == PH_WINDOW)
		zc_counters_snap(&r->ctr, &r->ctr_snap[1], true);
	s->t = zc_now();
	s->bytes = s->calls = 0;
	for (size_t i = 0; i < w->set.n; i++) {
		const struct zc_io *io = w->set.io[i];

		s->bytes += io->bytes;
		s->calls += io->calls;
		r->edge[io - r->io][p] = io->bytes;
	}
	s->waits = w->set.waits;
	if (w->idx == 0)
		getrusage(RUSAGE_SELF, &r->ru_self[p]);
	getrusage(RUSAGE_THREAD, &s->ru);
	s->cs_ok = w->cpu >= 0 && zc_cpustat_read(w->cpu, &s->cs) == 0;
	if (ctr && p == PH_WARMUP)
		zc_counters_snap(&r->ctr, &r->ctr_snap[0], false);
	if (w->idx == 0 && p == PH_WARMUP)
		zc_toggle_window(r->toggle, true);
}

static void run_phases(struct role *r, struct role_worker *w)
{
	bool source = r->ra->role == ZC_ROLE_SOURCE;
	int ret = 0;

	for (int p = 0; p < PH_NR; p++) {
		if (ret == 0 && r->sl && p == PH_TAIL)
			ret = zc_slices_end(r, w);
		w->set.stop = &phase_stop[p];
		if (ret == 0 && r->sl && p == PH_WINDOW)
			ret = zc_slices_window(r, w, slice_stop, &phase_stop[p], kick_others);
		else if (ret == 0)
			ret = zc_conns_pump(r->m, &w->set);
		w->ret[p] = ret;
		if (ret < 0)
			abort_all(r, w);
		else if (w->idx == 0 && r->nworkers > 1)
			kick_others(r, w);
		take(r, w, p);
		/* The source stops after its tail; the others drain until EOF. */
		if (w->idx == 0 && p == PH_WARMUP && r->sl)
			arm_slices(r->sl);
		else if (w->idx == 0 && p == PH_WARMUP)
			arm(PH_WINDOW, phase_end(r, PH_WINDOW) - zc_now());
		else if (w->idx == 0 && p == PH_WINDOW && source)
			arm(PH_TAIL, phase_end(r, PH_TAIL) - zc_now());
	}
	if (source && ret >= 0) {
		/* What is still in flight counts before the stream ends (io_uring). */
		zc_conns_settle(r->m, &w->set);
		for (size_t i = 0; i < w->set.n; i++)
			shutdown(w->set.io[i]->out_fd, SHUT_WR);
	}
}

/* Pin, buffers on the CPU's node, the connections' mode setup. 0 or -errno. */
static int worker_setup(struct role *r, struct role_worker *w, char *err, size_t errlen)
{
	struct zc_role_args *ra = r->ra;
	int ret, node;

	if (w->cpu >= 0 && (ret = zc_pin_cpu(w->cpu))) {
		snprintf(err, errlen, "sched_setaffinity (worker %d, CPU %d)", w->idx, w->cpu);
		return ret;
	}
	w->node = w->cpu >= 0 ? zc_cpu_node(w->cpu) : -1;
	if (ra->role != ZC_ROLE_PROXY) {
		w->buf_len = ra->role == ZC_ROLE_SOURCE ? ra->cfg.period
			   : ra->cfg.chunk > 262144 ? ra->cfg.chunk : 262144;
		if (!(w->buf = zc_buf_alloc(w->buf_len, w->cpu, &node))) {
			snprintf(err, errlen, "buffer allocation (worker %d)", w->idx);
			return -ENOMEM;
		}
		if (ra->role == ZC_ROLE_SOURCE)
			zc_pattern_fill(w->buf, w->buf_len, ra->cfg.seed);
	}
	for (size_t i = 0; i < w->set.n; i++) {
		struct zc_io *io = w->set.io[i];
		size_t c = io - r->io;

		io->buf = w->buf;
		io->buf_len = w->buf_len;
		if (ra->role == ZC_ROLE_PROXY) {
			/* A proxy holds what it could not send yet: a buffer per connection. */
			io->buf_len = ra->cfg.chunk;
			if (!(r->cbuf[c] = zc_buf_alloc(io->buf_len, w->cpu, &node))) {
				snprintf(err, errlen, "buffer allocation (connection %zu)", c);
				return -ENOMEM;
			}
			io->buf = r->cbuf[c];
		}
	}
	zc_slices_presetup(r, w);
	if ((ret = zc_conns_setup(r->m, &w->set, ra->cfg.mode_opts, err, errlen)))
		return ret;
	return zc_slices_setup(r, w, err, errlen);
}

struct thread_arg {
	struct role *r;
	struct role_worker *w;
	char err[256];
	int ret;
};

static void worker_teardown(struct role *r, struct role_worker *w)
{
	zc_slices_teardown(r, w);
	zc_conns_teardown(r->m, &w->set);
	zc_buf_free(w->buf, w->buf_len);
	w->buf = NULL;
}

static void *worker_thread(void *p)
{
	struct thread_arg *a = p;

	a->ret = worker_setup(a->r, a->w, a->err, sizeof(a->err));
	if (a->ret)
		setup_failed = 1;
	pthread_barrier_wait(&ready_bar);
	pthread_barrier_wait(&go_bar);
	if (!setup_failed)
		run_phases(a->r, a->w);
	worker_teardown(a->r, a->w);
	return NULL;
}

static struct thread_arg *targs;

int zc_role_workers_setup(struct role *r, char *err, size_t errlen)
{
	struct sigaction kick = { .sa_handler = on_kick }, alrm = { .sa_handler = on_alarm };
	sigset_t block, old;
	int ret;

	main_thread = pthread_self();
	/* No SA_RESTART: a kick or the alarm ends a blocked call with EINTR. */
	sigaction(SIGUSR1, &kick, NULL);
	sigaction(SIGALRM, &alrm, NULL);
	for (int c = 0; c < r->nconn; c++)
		r->w[r->owner[c]].set.io[r->w[r->owner[c]].set.n++] = &r->io[c];
	targs = calloc(r->nworkers, sizeof(*targs));
	if (!targs)
		return -ENOMEM;
	if ((ret = zc_slices_init(r, err, errlen)))
		return ret;
	pthread_barrier_init(&ready_bar, NULL, r->nworkers);
	pthread_barrier_init(&go_bar, NULL, r->nworkers);
	/* Only worker 0 takes SIGALRM: the others start with it blocked. */
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (int i = 1; i < r->nworkers; i++) {
		targs[i] = (struct thread_arg){ .r = r, .w = &r->w[i] };
		if ((ret = pthread_create(&r->w[i].th, NULL, worker_thread, &targs[i]))) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			snprintf(err, errlen, "pthread_create (worker %d)", i);
			/* The barriers wait for every worker: this role cannot go on. */
			zc_die("%s: %s", err, strerror(ret));
		}
		r->w[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ret = worker_setup(r, &r->w[0], err, errlen);
	if (ret)
		setup_failed = 1;
	pthread_barrier_wait(&ready_bar);
	for (int i = 1; i < r->nworkers && !ret; i++)
		if (targs[i].ret) {
			snprintf(err, errlen, "%s", targs[i].err);
			ret = targs[i].ret;
		}
	return ret;
}

int zc_role_workers_run(struct role *r, int *window_ret)
{
	int ret = 0;

	/* The warm-up runs from the controller's GO, so every role's window
	 * starts and ends together however late each read the line. */
	r->go_t = zc_now() - r->go_late_s;
	if (!setup_failed)
		arm(PH_WARMUP, phase_end(r, PH_WARMUP) - zc_now());
	pthread_barrier_wait(&go_bar);
	if (!setup_failed)
		run_phases(r, &r->w[0]);
	for (int i = 1; i < r->nworkers; i++)
		if (r->w[i].started)
			pthread_join(r->w[i].th, NULL);
	*window_ret = 0;
	for (int i = 0; i < r->nworkers; i++) {
		/* Any worker's error; else "a peer closed early" from any window. */
		if (r->w[i].ret[PH_WINDOW] == 1 && !*window_ret)
			*window_ret = 1;
		for (int p = 0; p < PH_NR; p++)
			if (r->w[i].ret[p] < 0 && ret >= 0)
				ret = r->w[i].ret[p];
	}
	return ret;
}

void zc_role_workers_teardown(struct role *r)
{
	/* Worker 0's part; the threads tore theirs down before they ended. */
	if (r->w)
		worker_teardown(r, &r->w[0]);
	for (int c = 0; r->cbuf && c < r->nconn; c++)
		zc_buf_free(r->cbuf[c], r->ra->cfg.chunk);
	free(targs);
	targs = NULL;
}

static double tv(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

static double wwin(const struct role_worker *w)
{
	return w->s[PH_WINDOW].t - w->s[PH_WARMUP].t;
}

json_t *zc_role_window_json(const struct role *r)
{
	struct zc_window win;

	zc_window_init(&win, 0);
	win.bytes = win.calls = 0;
	win.bytes_from = "the mode's data calls on the role's connections";
	win.rusage_from = "the role's process (getrusage RUSAGE_SELF)";
	for (int i = 0; i < r->nworkers; i++) {
		const struct wsnap *a = &r->w[i].s[PH_WARMUP], *b = &r->w[i].s[PH_WINDOW];

		win.window_s += wwin(&r->w[i]) / r->nworkers;
		win.bytes += b->bytes - a->bytes;
		win.calls += b->calls - a->calls;
		zc_window_cpu(&win, r->w[i].cpu, &a->cs, &b->cs, a->cs_ok && b->cs_ok);
	}
	zc_window_rusage(&win, &r->ru_self[PH_WARMUP], &r->ru_self[PH_WINDOW]);
	return zc_window_json(&win);
}

json_t *zc_role_workers_json(struct role *r)
{
	json_t *a = json_array();
	struct zc_window seen;	/* the CPUs of the workers before (zc_window_cpu) */

	zc_window_init(&seen, 0);
	for (int i = 0; i < r->nworkers; i++) {
		const struct role_worker *w = &r->w[i];
		const struct wsnap *s0 = &w->s[PH_WARMUP], *s1 = &w->s[PH_WINDOW];
		double win = wwin(w), gbps = zc_fig_gbps(s1->bytes - s0->bytes, win);
		json_t *o = json_pack("{s:i,s:i,s:i,s:I,s:s,s:f,s:I,s:I,s:I,s:o,s:f,s:b}", "worker", i,
				      "cpu", w->cpu, "numa_node", w->node, "connections",
				      (json_int_t)w->set.n, "driver", w->set.driver ?: "none",
				      "window_s", win, "bytes", (json_int_t)(s1->bytes - s0->bytes),
				      "calls", (json_int_t)(s1->calls - s0->calls),
				      "epoll_waits", (json_int_t)(s1->waits - s0->waits),
				      "gbps", zc_wire_num(gbps), "thread_cpu_s",
				      tv(&s1->ru.ru_utime) + tv(&s1->ru.ru_stime) -
				      tv(&s0->ru.ru_utime) - tv(&s0->ru.ru_stime),
				      "cpu_shared", !zc_window_cpu(&seen, w->cpu, NULL, NULL, false));

		if (s0->cs_ok && s1->cs_ok) {
			struct zc_cpustat d;
			double busy;

			zc_cpustat_delta(&s0->cs, &s1->cs, &d);
			busy = zc_cpustat_busy(&d);
			json_object_set_new(o, "busy_s", json_real(busy));
			json_object_set_new(o, "softirq_s", json_real(d.softirq));
			json_object_set_new(o, "gbps_per_core", zc_wire_num(
				zc_fig_per_core(gbps, zc_fig_busy_cores(busy, win))));
		}
		json_array_append_new(a, o);
	}
	return a;
}

json_t *zc_role_conns_json(struct role *r)
{
	json_t *a = json_array();

	for (int c = 0; c < r->nconn; c++) {
		const struct zc_io *io = &r->io[c];
		uint64_t wb = r->edge[c][PH_WINDOW] - r->edge[c][PH_WARMUP];
		json_t *o = json_pack("{s:i,s:i,s:I,s:I,s:o}", "id", (int)io->conn_id, "worker",
				      r->owner[c], "bytes", (json_int_t)io->bytes, "window_bytes",
				      (json_int_t)wb, "gbps",
				      zc_wire_num(zc_fig_gbps(wb, wwin(&r->w[r->owner[c]]))));

		if (io->mismatch_off != UINT64_MAX)
			json_object_set_new(o, "mismatch_offset",
					    json_integer(io->mismatch_off - r->shift[c]));
		json_array_append_new(a, o);
	}
	return a;
}

/* Merge b into a: integers summed, reals averaged over n, the rest a's. */
static void merge_report(json_t *a, json_t *b, size_t n)
{
	const char *k;
	json_t *v;

	json_object_foreach(b, k, v) {
		json_t *x = json_object_get(a, k);

		if (json_is_integer(x) && json_is_integer(v))
			json_integer_set(x, json_integer_value(x) + json_integer_value(v));
		else if (json_is_real(x) && json_is_real(v))
			json_real_set(x, json_real_value(x) + json_real_value(v) / n);
	}
}

json_t *zc_role_mode_report(struct role *r)
{
	json_t *out = NULL;

	for (int c = 0; c < r->nconn; c++) {
		json_t *rep = r->io[c].mode_report;

		r->io[c].mode_report = NULL;
		if (!rep)
			continue;
		if (!out) {
			const char *k;
			json_t *v;

			out = rep;
			/* Fractions are averaged: the first one's share, the rest added. */
			json_object_foreach(out, k, v)
				if (json_is_real(v) && r->nconn > 1)
					json_real_set(v, json_real_value(v) / r->nconn);
			continue;
		}
		merge_report(out, rep, r->nconn);
		json_decref(rep);
	}
	if (out && r->nconn > 1)
		json_object_set_new(out, "connections_merged", json_integer(r->nconn));
	return out;
}
