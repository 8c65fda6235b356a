// SPDX-License-Identifier: GPL-2.0
/*
 * A role's "window" object (wire.h), built here for every producer: the
 * stream role (role/role_worker.c), the request/response role (rr/rr.c) and
 * a program in a role's place (peers/role_peer.c, peers/rr_peer*.c). Each
 * turns its two edges into a struct zc_window; this prints every key of
 * ZC_WINDOW_KEYS, null where the producer measured nothing, and derives
 * busy_s and busy_frac the one way (metrics/figures.h).
 */
#include "wire/wire.h"
#include "metrics/figures.h"

#include <math.h>
#include <string.h>

const char *const zc_window_keys[ZC_WK_NR] = {
#define ZC_WK_NAME(k) #k,
	ZC_WINDOW_KEYS(ZC_WK_NAME)
#undef ZC_WK_NAME
};

const char *const zc_cpustat_keys[ZC_CK_NR] = {
#define ZC_CK_NAME(f) #f "_s",
	ZC_CPUSTAT_KEYS(ZC_CK_NAME)
#undef ZC_CK_NAME
	"busy_s",
};

json_t *zc_wire_num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *count(int64_t v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

static json_t *text(const char *s)
{
	return s ? json_string(s) : json_null();
}

void zc_window_init(struct zc_window *w, double window_s)
{
	memset(w, 0, sizeof(*w));
	w->window_s = window_s;
	w->bytes = w->calls = w->transactions = w->tcp_bytes = -1;
	w->user_s = w->sys_s = NAN;
	w->vol_cs = w->invol_cs = -1;
	w->cs_ok = true;
}

bool zc_window_cpu(struct zc_window *w, int cpu, const struct zc_cpustat *a,
		   const struct zc_cpustat *b, bool ok)
{
	struct zc_cpustat d;

	for (int i = 0; i < w->ncpus; i++)
		if (w->cpus[i] == cpu)
			return false;
	if (w->ncpus == ZC_WORKERS_MAX)
		return false;
	w->cpus[w->ncpus++] = cpu;
	if (!ok) {
		w->cs_ok = false;
		return true;
	}
	zc_cpustat_delta(a, b, &d);
#define ZC_CK_ADD(f) w->cs.f += d.f;
	ZC_CPUSTAT_KEYS(ZC_CK_ADD)
#undef ZC_CK_ADD
	return true;
}

static double tv(const struct timeval *t)
{
	return t->tv_sec + t->tv_usec / 1e6;
}

void zc_window_rusage(struct zc_window *w, const struct rusage *a, const struct rusage *b)
{
	if (isnan(w->user_s))
		w->user_s = w->sys_s = 0, w->vol_cs = w->invol_cs = 0;
	w->user_s += tv(&b->ru_utime) - tv(&a->ru_utime);
	w->sys_s += tv(&b->ru_stime) - tv(&a->ru_stime);
	w->vol_cs += b->ru_nvcsw - a->ru_nvcsw;
	w->invol_cs += b->ru_nivcsw - a->ru_nivcsw;
}

json_t *zc_window_json(const struct zc_window *w)
{
	json_t *v[ZC_WK_NR] = { 0 }, *o = json_object(), *cpus = json_array();
	double busy = w->cs_ok ? zc_cpustat_busy(&w->cs) : NAN;

	for (int i = 0; i < w->ncpus; i++)
		json_array_append_new(cpus, json_integer(w->cpus[i]));
	v[ZC_WK_window_s] = zc_wire_num(w->window_s);
	v[ZC_WK_bytes] = count(w->bytes);
	v[ZC_WK_bytes_from] = text(w->bytes_from);
	v[ZC_WK_calls] = count(w->calls);
	v[ZC_WK_transactions] = count(w->transactions);
	v[ZC_WK_rusage_user_s] = zc_wire_num(w->user_s);
	v[ZC_WK_rusage_sys_s] = zc_wire_num(w->sys_s);
	v[ZC_WK_rusage_from] = text(w->rusage_from);
	v[ZC_WK_vol_ctx_switches] = count(w->vol_cs);
	v[ZC_WK_invol_ctx_switches] = count(w->invol_cs);
	v[ZC_WK_cpus] = cpus;
	if (w->cs_ok) {
		json_t *c = json_object();
		double f[ZC_CK_NR] = {
#define ZC_CK_VAL(x) w->cs.x,
			ZC_CPUSTAT_KEYS(ZC_CK_VAL)
#undef ZC_CK_VAL
			busy,
		};

		for (int k = 0; k < ZC_CK_NR; k++)
			json_object_set_new(c, zc_cpustat_keys[k], json_real(f[k]));
		v[ZC_WK_cpustat] = c;
	}
	v[ZC_WK_busy_s] = zc_wire_num(busy);
	/* Busy cores: a fraction for one CPU, more with several workers. */
	v[ZC_WK_busy_frac] = zc_wire_num(zc_fig_busy_cores(busy, w->window_s));
	if (w->tcp) {
		v[ZC_WK_tcp_bytes] = count(w->tcp_bytes);
		v[ZC_WK_sockets] = json_integer(w->sockets);
		v[ZC_WK_sockets_at_start] = json_integer(w->sockets_at_start);
		v[ZC_WK_tcp_edges] = json_pack("[I,I,I,I]", (json_int_t)w->tcp_edges[0],
					       (json_int_t)w->tcp_edges[1], (json_int_t)w->tcp_edges[2],
					       (json_int_t)w->tcp_edges[3]);
	}
	/* Every key, in the list's order: what was not measured is null. */
	for (int k = 0; k < ZC_WK_NR; k++)
		json_object_set_new(o, zc_window_keys[k], v[k] ? v[k] : json_null());
	return o;
}
