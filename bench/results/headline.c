// SPDX-License-Identifier: GPL-2.0
/*
 * The headline/peer engine. Which runs are compared with which comes only
 * from the modes' declarations (mode.h): a mode's vs gives a headline ratio
 * (its Gbps per core over vs's), its after-modes (declared after_of it) give
 * the "after" side of that ratio and the before/after pairs. A peer is the
 * run with the same key but the device under test's mode. run's headline,
 * report, plot, the dashboard and before-after all ask here.
 */
#include "results/results.h"
#include "lib/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *zc_an_dut_role(json_t *run)
{
	const char *dut = zc_an_str(run, "dut");

	if (*dut)
		return dut;
	return strcmp(zc_an_str(json_object_get(run, "key"), "topology"), "proxy") ? "source" : "proxy";
}

json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode)
{
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key"), *r;
	bool direct = !strcmp(zc_an_str(k, "topology"), "direct");
	size_t i;

	json_array_foreach(runs, i, r) {
		json_t *q = json_object_get(r, "key");
		bool same = zc_an_int(q, "chunk") == zc_an_int(k, "chunk") &&
			    zc_an_int(q, "pipe_size") == zc_an_int(k, "pipe_size") &&
			    zc_an_int(q, "connections") == zc_an_int(k, "connections") &&
			    (zc_an_int(q, "workers") ?: 1) == (zc_an_int(k, "workers") ?: 1);

		for (size_t j = 0; j < ZC_ARRAY_SIZE(fields) && same; j++) {
			if (!strcmp(fields[j], role))
				same = !strcmp(zc_an_str(q, role), mode);
			else if (!(direct && !strcmp(fields[j], "proxy")))
				same = !strcmp(zc_an_str(q, fields[j]), zc_an_str(k, fields[j]));
		}
		if (same)
			return r;
	}
	return NULL;
}

/* Is run a run of m as the device under test? */
static bool run_of(json_t *run, const struct zc_mode *m)
{
	const char *role = zc_role_names[m->role];

	return !strcmp(zc_an_dut_role(run), role) &&
	       !strcmp(zc_an_str(json_object_get(run, "key"), role), m->name);
}

struct pairs {
	struct zc_pair *v;
	size_t n, cap;
	bool oom;
};

/* A new zeroed pair at the end, or NULL when out of memory (then the list
 * stops growing: callers print what fits). */
static struct zc_pair *push(struct pairs *p, enum zc_pair_kind kind, const struct zc_mode *m)
{
	if (p->oom)
		return NULL;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct zc_pair *v = realloc(p->v, cap * sizeof(*v));

		if (!v) {
			p->oom = true;
			return NULL;
		}
		p->v = v;
		p->cap = cap;
	}
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	p->v[p->n].kind = kind;
	p->v[p->n].role = zc_role_names[m->role];
	return &p->v[p->n++];
}

static size_t done(struct pairs *p, struct zc_pair **out)
{
	if (!p->n) {
		free(p->v);
		p->v = NULL;
	}
	*out = p->v;
	return p->n;
}

/* Is m in pass of the headline order: the mission's two first (splice/copy
 * on the proxy, then tee/send), then every other mode with a vs? */
static bool in_pass(const struct zc_mode *m, int pass)
{
	return m->vs && pass == (!m->principal ? 2 : m->role == ZC_ROLE_PROXY ? 0 : 1);
}

/* Copy of pair i (by index: push may move the array) as another kind. */
static struct zc_pair *push_like(struct pairs *p, size_t i, enum zc_pair_kind kind)
{
	struct zc_pair *q = push(p, kind, p->v[i].mode);

	if (q) {
		*q = p->v[i];
		q->kind = kind;
	}
	return q;
}

/* The headline rows of mode m (and their after rows) into p. */
static void headline_of(struct pairs *p, json_t *runs, const struct zc_mode *m, unsigned flags)
{
	const char *role = zc_role_names[m->role];
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters)), i;
	json_t *run;

	json_array_foreach(runs, i, run) {
		json_t *den = run_of(run, m) ? zc_an_peer(runs, run, role, m->vs->name) : NULL;
		struct zc_pair *q;
		size_t h, found = 0;

		if (!den || !(q = push(p, ZC_PAIR_HEADLINE, m)))
			continue;
		q->mode = m;
		q->peer = m->vs;
		q->run = run;
		q->peer_run = den;
		q->principal = m->principal;
		snprintf(q->name, sizeof(q->name), "%s/%s %s", m->name, m->vs->name, role);
		h = p->n - 1;
		for (size_t a = 0; (flags & ZC_PAIRS_AFTER) && a < na; a++) {
			json_t *ar = zc_an_peer(runs, run, role, afters[a]->name);

			if (!ar || !(q = push_like(p, h, ZC_PAIR_AFTER)))
				continue;
			q->mode = afters[a];
			q->native = m;
			q->run = ar;
			found++;
		}
		if ((flags & ZC_PAIRS_AFTER) && (flags & ZC_PAIRS_UNPAIRED) && !found &&
		    m->principal && (q = push_like(p, h, ZC_PAIR_AFTER))) {
			q->mode = NULL;
			q->native = m;
			q->run = NULL;
		}
	}
}

size_t zc_headline_pairs(json_t *runs, unsigned flags, struct zc_pair **out)
{
	struct pairs p = { 0 };

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < zc_nmodes; i++)
			if (in_pass(zc_modes[i], pass))
				headline_of(&p, runs, zc_modes[i], flags);
	return done(&p, out);
}

size_t zc_before_after_pairs(json_t *runs, unsigned flags, struct zc_pair **out)
{
	struct pairs p = { 0 };

	for (size_t x = 0; x < zc_nmodes; x++) {
		const struct zc_mode *m = zc_modes[x], *afters[ZC_AFTERS_MAX];
		size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters));
		const char *role = zc_role_names[m->role];

		for (size_t a = 0; a < na; a++) {
			json_t *run;
			size_t i;

			json_array_foreach(runs, i, run) {
				struct zc_pair *q;
				json_t *ar;

				if (!run_of(run, m))
					continue;
				ar = zc_an_peer(runs, run, role, afters[a]->name);
				if ((!ar && !(flags & ZC_PAIRS_UNPAIRED)) ||
				    !(q = push(&p, ZC_PAIR_BEFORE_AFTER, m)))
					continue;
				q->mode = m;
				q->peer = afters[a];
				q->run = run;
				q->peer_run = ar;
				q->principal = m->principal;
				snprintf(q->name, sizeof(q->name), "%s/%s %s", m->name, afters[a]->name,
					 role);
			}
		}
	}
	return done(&p, out);
}

void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX];

	r->nn = zc_an_values(num, "gbps_per_core", a, ZC_SAMPLES_MAX);
	r->nd = zc_an_values(den, "gbps_per_core", b, ZC_SAMPLES_MAX);
	r->num_gpc = zc_median(a, r->nn);
	r->den_gpc = zc_median(b, r->nd);
	r->value = r->nn && r->nd && r->den_gpc != 0 ? r->num_gpc / r->den_gpc : NAN;
	r->lo = r->hi = NAN;
	if (!isnan(r->value))
		zc_bootstrap_ratio_ci(a, r->nn, b, r->nd, ZC_BOOT_ROUNDS, ZC_BOOT_SEED, 0.95,
				      &r->lo, &r->hi);
}

static double med(json_t *run, const char *metric)
{
	json_t *m = json_object_get(json_object_get(json_object_get(run, "summary"), metric),
				    "median");

	return json_is_number(m) ? json_number_value(m) : NAN;
}

json_t *zc_headline(json_t *runs)
{
	json_t *out = json_array();
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(runs, 0, &pv);

	for (size_t i = 0; i < n; i++) {
		json_t *k = json_object_get(pv[i].run, "key");
		double a = med(pv[i].run, "gbps_per_core"), b = med(pv[i].peer_run, "gbps_per_core");

		/* A side without a successful sample is null, never a 0. */
		json_array_append_new(out, json_pack("{s:s,s:s,s:s,s:I,s:I,s:o,s:o,s:o}",
			"ratio", pv[i].name, "numerator", zc_an_str(pv[i].run, "name"),
			"denominator", zc_an_str(pv[i].peer_run, "name"),
			"chunk", json_integer_value(json_object_get(k, "chunk")),
			"pipe_size", json_integer_value(json_object_get(k, "pipe_size")),
			"numerator_gbps_per_core", isnan(a) ? json_null() : json_real(a),
			"denominator_gbps_per_core", isnan(b) ? json_null() : json_real(b),
			"value", isnan(a) || isnan(b) || b == 0 ? json_null() : json_real(a / b)));
	}
	free(pv);
	return out;
}
