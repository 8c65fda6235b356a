// SPDX-License-Identifier: GPL-2.0
/*
 * Paired slices inside one window (slices.h): the second mode's setup on
 * the same connections, the switch between slices, the per-slice records
 * and the role report's "slices".
 */
#include "role/role_int.h"
#include "role/slices.h"
#include "config/cfg.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t set_bytes(const struct zc_conns *s)
{
	uint64_t b = 0;

	for (size_t i = 0; i < s->n; i++)
		b += s->io[i]->bytes;
	return b;
}

int zc_slices_init(struct role *r, char *err, size_t errlen)
{
	const struct zc_cfg *cfg = &r->ra->cfg;
	struct zc_slicing *sl;

	if (!cfg->alternate[0] || r->ra->role != zc_cfg_dut(cfg))
		return 0;
	sl = calloc(1, sizeof(*sl));
	if (!sl || !(sl->w = calloc(r->nworkers, sizeof(*sl->w)))) {
		free(sl);
		snprintf(err, errlen, "slices: out of memory");
		return -ENOMEM;
	}
	r->sl = sl;
	sl->m[0] = r->m;
	sl->m[1] = zc_mode_find(r->ra->role, cfg->alternate);
	sl->slice_s = cfg->slice_ms / 1e3;
	sl->nslices = (size_t)lround(cfg->duration_s / sl->slice_s);
	sl->drop = cfg->slice_drop;
	if (!sl->m[1]) {
		snprintf(err, errlen, "alternate: no %s mode '%s'", zc_role_names[r->ra->role],
			 cfg->alternate);
		return -EINVAL;
	}
	if (sl->nslices > ZC_SLICES_MAX)
		sl->nslices = ZC_SLICES_MAX;
	for (int i = 0; i < r->nworkers; i++) {
		struct zc_wslices *ws = &sl->w[i];
		size_t n = r->w[i].set.n ? r->w[i].set.n : 1;

		ws->alt.epfd = -1;
		ws->spare = calloc(n, sizeof(*ws->spare));
		ws->fl = calloc(n, sizeof(*ws->fl));
		ws->rec = calloc(ZC_SLICES_MAX, sizeof(*ws->rec));
		if (!ws->spare || !ws->fl || !ws->rec) {
			snprintf(err, errlen, "slices: out of memory");
			return -ENOMEM;
		}
		for (size_t c = 0; c < n; c++)
			ws->spare[c] = (struct zc_io){ ZC_IO_INIT };
	}
	return 0;
}

static void flags_get(const struct zc_io *io, int fl[2])
{
	fl[0] = io->in_fd >= 0 ? fcntl(io->in_fd, F_GETFL) : -1;
	fl[1] = io->out_fd >= 0 ? fcntl(io->out_fd, F_GETFL) : -1;
}

static void flags_set(const struct zc_io *io, const int fl[2])
{
	if (io->in_fd >= 0 && fl[0] >= 0)
		fcntl(io->in_fd, F_SETFL, fl[0]);
	if (io->out_fd >= 0 && fl[1] >= 0)
		fcntl(io->out_fd, F_SETFL, fl[1]);
}

void zc_slices_presetup(struct role *r, struct role_worker *w)
{
	struct zc_wslices *ws = r->sl ? &r->sl->w[w->idx] : NULL;

	for (size_t i = 0; ws && i < w->set.n; i++)
		flags_get(w->set.io[i], ws->fl[i][0]);
}

/* Exchange the two sides' mode state on every connection of w. */
static void swap_sides(struct zc_wslices *ws, struct role_worker *w)
{
	struct zc_conns t = w->set;

	for (size_t i = 0; i < w->set.n; i++)
		zc_io_swap_mode_state(w->set.io[i], &ws->spare[i]);
	w->set = ws->alt;
	ws->alt = t;
	/* One count of epoll waits for the worker's edges, whichever set waits;
	 * the phase's flag stays the worker's. */
	w->set.waits = t.waits;
	w->set.stop = t.stop;
	ws->cur = !ws->cur;
}

int zc_slices_setup(struct role *r, struct role_worker *w, char *err, size_t errlen)
{
	struct zc_wslices *ws;
	int ret;

	if (!r->sl)
		return 0;
	ws = &r->sl->w[w->idx];
	for (size_t i = 0; i < w->set.n; i++)
		flags_get(w->set.io[i], ws->fl[i][1]);
	/* B's setup on the same connections, as A's found them. */
	ws->alt.io = w->set.io;
	ws->alt.n = w->set.n;
	swap_sides(ws, w);
	for (size_t i = 0; i < w->set.n; i++)
		flags_set(w->set.io[i], ws->fl[i][0]);
	ws->alt_setup = true;
	ret = zc_conns_setup(r->sl->m[1], &w->set, r->ra->cfg.mode_opts, err, errlen);
	for (size_t i = 0; i < w->set.n; i++)
		flags_get(w->set.io[i], ws->fl[i][2]);
	swap_sides(ws, w);
	for (size_t i = 0; i < w->set.n; i++)
		flags_set(w->set.io[i], ws->fl[i][1]);
	return ret;
}

/* Hand the stream from the active side to side `to`. 0 or -errno. */
static int switch_to(struct role *r, struct role_worker *w, int to)
{
	struct zc_wslices *ws = &r->sl->w[w->idx];
	int ret;

	if (ws->cur == to)
		return 0;
	for (size_t i = 0; i < w->set.n; i++)
		if ((ret = zc_mode_flush(r->sl->m[ws->cur], w->set.io[i])))
			return ret;
	swap_sides(ws, w);
	for (size_t i = 0; i < w->set.n; i++)
		flags_set(w->set.io[i], ws->fl[i][1 + to]);
	zc_conns_all_ready(&w->set);
	return 0;
}

static void rec_begin(struct role_worker *w, struct zc_slice_rec *s, struct zc_cpustat *cs)
{
	s->cs_ok = w->cpu >= 0 && zc_cpustat_read(w->cpu, cs) == 0;
	s->bytes = set_bytes(&w->set);
	s->t0 = zc_now();
	s->cpu_ns = thread_cpu_ns();
}

static void rec_end(struct role_worker *w, struct zc_slice_rec *s, const struct zc_cpustat *cs0)
{
	struct zc_cpustat cs1, d;

	s->cpu_ns = thread_cpu_ns() - s->cpu_ns;
	s->t1 = zc_now();
	s->bytes = set_bytes(&w->set) - s->bytes;
	if (s->cs_ok && (s->cs_ok = zc_cpustat_read(w->cpu, &cs1) == 0)) {
		zc_cpustat_delta(cs0, &cs1, &d);
		s->sirq_ns = (uint64_t)llround((d.softirq + d.irq) * 1e9);
		s->busy_ns = (uint64_t)llround(zc_cpustat_busy(&d) * 1e9);
	}
}

int zc_slices_window(struct role *r, struct role_worker *w, volatile sig_atomic_t *flags,
		     volatile sig_atomic_t *window_stop,
		     void (*kick)(struct role *r, const struct role_worker *self))
{
	struct zc_wslices *ws = &r->sl->w[w->idx];
	int ret = 0;

	for (size_t k = 0; k < r->sl->nslices && !*window_stop; k++) {
		struct zc_slice_rec *s = &ws->rec[k];
		struct zc_cpustat cs0;

		if ((ret = switch_to(r, w, zc_slice_side(k, r->sl->drop))))
			break;
		s->side = ws->cur;
		rec_begin(w, s, &cs0);
		w->set.stop = &flags[k];
		ret = zc_conns_pump(r->sl->m[ws->cur], &w->set);
		if (w->idx == 0 && r->nworkers > 1)
			kick(r, w);
		rec_end(w, s, &cs0);
		ws->n = k + 1;
		if (ret)
			break;
	}
	return ret;
}

int zc_slices_end(struct role *r, struct role_worker *w)
{
	return r->sl ? switch_to(r, w, 0) : 0;
}

void zc_slices_teardown(struct role *r, struct role_worker *w)
{
	struct zc_wslices *ws = r->sl ? &r->sl->w[w->idx] : NULL;

	if (!ws || !ws->alt_setup)
		return;
	/* The stream is over: no flush, only A's state back in place. */
	if (ws->cur)
		swap_sides(ws, w);
	swap_sides(ws, w);
	for (size_t i = 0; i < w->set.n; i++) {
		/* B's own figures are not the run mode's report. */
		json_decref(w->set.io[i]->mode_report);
		w->set.io[i]->mode_report = NULL;
	}
	zc_conns_teardown(r->sl->m[1], &w->set);
	for (size_t i = 0; i < w->set.n; i++) {
		json_decref(w->set.io[i]->mode_report);
		w->set.io[i]->mode_report = NULL;
	}
	swap_sides(ws, w);
	ws->alt_setup = false;
}

void zc_slices_json(struct role *r, json_t *out)
{
	const struct zc_slicing *sl = r->sl;
	json_t *a, *dropped;
	size_t n = 0;

	if (!sl)
		return;
	a = json_array();
	dropped = json_array();
	for (int i = 0; i < r->nworkers; i++)
		if (sl->w[i].n > n)
			n = sl->w[i].n;
	for (size_t k = 0; k < n; k++) {
		uint64_t bytes = 0, cpu = 0, sirq = 0, busy = 0;
		double t0 = 0, t1 = 0;
		bool cs_ok = true, drop = sl->drop && zc_slice_first_after_switch(k, sl->drop);
		int side = zc_slice_side(k, sl->drop);
		struct zc_window seen;	/* the workers' CPUs so far (zc_window_cpu) */
		json_t *o;

		zc_window_init(&seen, 0);
		for (int i = 0; i < r->nworkers; i++) {
			const struct zc_slice_rec *s = &sl->w[i].rec[k];
			bool first = zc_window_cpu(&seen, r->w[i].cpu, NULL, NULL, false);

			if (k >= sl->w[i].n)
				continue;
			if (!t0 || s->t0 < t0)
				t0 = s->t0;
			if (s->t1 > t1)
				t1 = s->t1;
			bytes += s->bytes;
			cpu += s->cpu_ns;
			if (!first)	/* a CPU's /proc/stat counts once */
				continue;
			cs_ok = cs_ok && s->cs_ok;
			sirq += s->sirq_ns;
			busy += s->busy_ns;
		}
		o = json_pack("{s:I,s:s,s:s,s:I,s:I,s:I,s:I,s:b}", "k", (json_int_t)k,
			      "side", side ? "B" : "A", "mode", sl->m[side]->name,
			      "t_start_ns", (json_int_t)llround(t0 * 1e9),
			      "t_end_ns", (json_int_t)llround(t1 * 1e9), "bytes", (json_int_t)bytes,
			      "cpu_ns", (json_int_t)cpu, "dropped", drop);
		json_object_set_new(o, "softirq_ns", cs_ok ? json_integer((json_int_t)sirq)
						  : json_null());
		json_object_set_new(o, "busy_ns", cs_ok ? json_integer((json_int_t)busy) : json_null());
		json_array_append_new(a, o);
		if (drop)
			json_array_append_new(dropped, json_integer((json_int_t)k));
	}
	json_object_set_new(out, "slices", a);
	json_object_set_new(out, "slice_drop", json_pack("{s:b,s:o,s:s}", "first_after_switch",
		sl->drop, "dropped", dropped, "why", sl->drop ?
		"the first slice after each switch of mode (slice_drop = 1): it starts on the "
		"other mode's caches and queues; each turn is then three slices, the kept ones "
		"still ABBA" : "none (slice_drop = 0)"));
	json_object_set_new(out, "slice_setup", json_pack("{s:s,s:s,s:f,s:s,s:s,s:f}",
		"a", sl->m[0]->name, "b", sl->m[1]->name, "slice_s", sl->slice_s,
		"order", sl->drop ? "A [B] B B [A] A A [B] B B ... ([dropped]; kept: ABBA)" :
		"ABBA (A B B A A B B A ...)", "cost",
		"cpu_ns: the DUT workers' thread CPU clocks; softirq_ns: softirq + irq time of "
		"their CPUs, busy_ns: their CPUs' busy time with softirq and irq, both from "
		"/proc/stat; a slice costs max(cpu_ns, busy_ns): with IRQ time accounting off, "
		"softirq served in a worker's context is in cpu_ns and in softirq_ns both, so "
		"their sum would count it twice; busy_ns counts it once, cpu_ns is its floor "
		"against the ticks' resolution",
		"softirq_resolution_s", 1.0 / (double)sysconf(_SC_CLK_TCK)));
}

void zc_slices_free(struct role *r)
{
	if (!r->sl)
		return;
	for (int i = 0; i < r->nworkers; i++) {
		free(r->sl->w[i].spare);
		free(r->sl->w[i].fl);
		free(r->sl->w[i].rec);
	}
	free(r->sl->w);
	free(r->sl);
	r->sl = NULL;
}
