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
#include "lib/paired.h"
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

/*
 * The options the DUT's mode (role's, or run's own DUT role's; mode, or
 * run's own) takes from run's mode_opts, in canonical form: two runs pair
 * only when the mode looked up would take the same options from both (a
 * splice run with splice_chunk_cap=1 pairs with a splice-as-copy run with
 * it, not with one without). Modes without options: "".
 */
static void dut_opts(json_t *run, const char *role, const char *mode, char *out, size_t len)
{
	const char *text = zc_an_str(json_object_get(run, "options"), "mode_opts");
	const struct zc_mode *m;

	if (!role)
		role = zc_an_dut_role(run);
	if (!mode)
		mode = zc_an_str(json_object_get(run, "key"), role);
	m = zc_mode_find_any(mode);
	out[0] = 0;
	if (m && zc_mode_opts_canon(m, text, out, len))
		snprintf(out, len, "?%s", text);	/* a bad text pairs only with itself */
}

/* A run whose modes took turns (key alternate) mixes two modes: it pairs
 * with its like only, its own ratio is the slices' (results/slices.h). */
static const char *run_alternate(json_t *run)
{
	return zc_an_str(json_object_get(run, "options"), "alternate");
}

json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode)
{
	char want[256], have[256], rq[512], rk[512];
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key"), *r;
	bool direct = !strcmp(zc_an_str(k, "topology"), "direct");
	size_t i;

	dut_opts(run, role, mode, want, sizeof(want));
	json_array_foreach(runs, i, r) {
		json_t *q = json_object_get(r, "key");
		/* An A/A file (zcbench noise) holds every run twice: a ratio
		 * stays within its side. */
		bool same = zc_an_int(q, "chunk") == zc_an_int(k, "chunk") &&
			    zc_an_int(q, "pipe_size") == zc_an_int(k, "pipe_size") &&
			    zc_an_int(q, "connections") == zc_an_int(k, "connections") &&
			    (zc_an_int(q, "workers") ?: 1) == (zc_an_int(k, "workers") ?: 1) &&
			    !strcmp(zc_an_str(r, "aa_side"), zc_an_str(run, "aa_side")) &&
			    !strcmp(zc_an_rr_key(q, false, rq, sizeof(rq)), zc_an_rr_key(k, false, rk, sizeof(rk))) &&
			    !strcmp(run_alternate(r), run_alternate(run));

		for (size_t j = 0; j < ZC_ARRAY_SIZE(fields) && same; j++) {
			if (!strcmp(fields[j], role))
				same = !strcmp(zc_an_str(q, role), mode);
			else if (!(direct && !strcmp(fields[j], "proxy")))
				same = !strcmp(zc_an_str(q, fields[j]), zc_an_str(k, fields[j]));
		}
		if (same) {
			dut_opts(r, role, mode, have, sizeof(have));
			same = !strcmp(want, have);
		}
		if (same)
			return r;
	}
	return NULL;
}

/*
 * Peers by key, for files of many runs: zc_an_peer scans the whole list for
 * each run, which made every pairing of a 20,000-run file quadratic. The
 * index maps a run's key (with the DUT's mode put in) to its runs in file
 * order; the mode options are compared per lookup, because which of them
 * count depends on the mode looked up (dut_opts), so the first candidate
 * whose options match is what zc_an_peer answers.
 */
struct zc_run_index {
	json_t *map;	/* canonical key -> [run positions in file order] */
	json_t *runs;
};

/* The canonical key of run with role's mode replaced by mode (NULL: its own);
 * the proxy left out when direct, as zc_an_peer ignores it then. */
static char *peer_key(json_t *run, const char *role, const char *mode)
{
	static const char *const fields[] = { "topology", "source", "proxy", "sink" };
	json_t *k = json_object_get(run, "key"), *a = json_array();
	bool direct = !strcmp(zc_an_str(k, "topology"), "direct");
	char *s, rr[512];

	for (size_t j = 0; j < ZC_ARRAY_SIZE(fields); j++) {
		const char *v = mode && !strcmp(fields[j], role) ? mode : zc_an_str(k, fields[j]);

		json_array_append_new(a, json_string(direct && !strcmp(fields[j], "proxy") ? "" : v));
	}
	json_array_append_new(a, json_integer(zc_an_int(k, "chunk")));
	json_array_append_new(a, json_integer(zc_an_int(k, "pipe_size")));
	json_array_append_new(a, json_integer(zc_an_int(k, "connections")));
	/* As zc_an_peer: the same workers (absent before 1.3: 1) and A/A side. */
	json_array_append_new(a, json_integer(zc_an_int(k, "workers") ?: 1));
	json_array_append_new(a, json_string(zc_an_str(run, "aa_side")));
	json_array_append_new(a, json_string(zc_an_rr_key(k, false, rr, sizeof(rr))));
	json_array_append_new(a, json_string(run_alternate(run)));
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

struct zc_run_index *zc_run_index_new(json_t *runs)
{
	struct zc_run_index *x = calloc(1, sizeof(*x));
	json_t *run;
	size_t i;

	if (!x)
		return NULL;
	x->runs = runs;
	x->map = json_object();
	json_array_foreach(runs, i, run) {
		char *key = peer_key(run, NULL, NULL);
		json_t *at = key ? json_object_get(x->map, key) : NULL;

		if (key && !at) {
			at = json_array();
			json_object_set_new(x->map, key, at);
		}
		if (at)
			json_array_append_new(at, json_integer((json_int_t)i));
		free(key);
	}
	return x;
}

void zc_run_index_free(struct zc_run_index *x)
{
	if (x)
		json_decref(x->map);
	free(x);
}

json_t *zc_run_index_peer(struct zc_run_index *x, json_t *run, const char *role, const char *mode)
{
	json_t *k = json_object_get(run, "key"), *at, *pos;
	char want[256], have[256];
	char *key;
	size_t i;

	/* Without an index, or the one case the key cannot tell (a direct
	 * run's proxy asked for): the scan. */
	if (!x || !x->map || (!strcmp(role, "proxy") && !strcmp(zc_an_str(k, "topology"), "direct")))
		return zc_an_peer(x ? x->runs : NULL, run, role, mode);
	key = peer_key(run, role, mode);
	at = key ? json_object_get(x->map, key) : NULL;
	free(key);
	dut_opts(run, role, mode, want, sizeof(want));
	/* The first run with the key and the same options, as in zc_an_peer. */
	json_array_foreach(at, i, pos) {
		json_t *r = json_array_get(x->runs, (size_t)json_integer_value(pos));

		dut_opts(r, role, mode, have, sizeof(have));
		if (!strcmp(want, have))
			return r;
	}
	return NULL;
}

/* Is run a run of m as the device under test? */
static bool run_of(json_t *run, const struct zc_mode *m)
{
	const char *role = zc_role_names[m->role];

	return !strcmp(zc_an_dut_role(run), role) && !*run_alternate(run) &&
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

/*
 * The mode options a pair was measured with, for its name, so two rows of
 * one ratio stay apart: " (KEY=VALUE,...)" of the items of run's (else
 * peer's) mode_opts that a or b declares; "" when they take none of them.
 */
static const char *opts_label(json_t *run, json_t *peer, const struct zc_mode *a,
			      const struct zc_mode *b)
{
	static char buf[160];
	const char *t = zc_an_str(json_object_get(run, "options"), "mode_opts");
	size_t o = 0;

	if (!*t)
		t = zc_an_str(json_object_get(peer, "options"), "mode_opts");
	while (*t && o + 4 < sizeof(buf)) {
		size_t len = strcspn(t, ",");
		char key[64];

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(t, "=,"), t);
		if (zc_mode_own_opt(a, key) || zc_mode_own_opt(b, key))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%.*s", o ? "," : " (",
					      (int)len, t);
		t += len + (t[len] == ',');
	}
	if (!o)
		return "";
	snprintf(buf + (o < sizeof(buf) - 2 ? o : sizeof(buf) - 2), 2, ")");
	return buf;
}

/* The headline rows of mode m over den (and their after rows) into p. */
static void headline_of(struct pairs *p, json_t *runs, struct zc_run_index *x,
			const struct zc_mode *m, const struct zc_mode *den_mode, unsigned flags)
{
	const char *role = zc_role_names[m->role];
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters)), i;
	json_t *run;

	json_array_foreach(runs, i, run) {
		json_t *den = run_of(run, m) ? zc_run_index_peer(x, run, role, den_mode->name) : NULL;
		struct zc_pair *q;
		size_t h, found = 0;

		if (!den || !(q = push(p, ZC_PAIR_HEADLINE, m)))
			continue;
		q->mode = m;
		q->peer = den_mode;
		q->run = run;
		q->peer_run = den;
		q->principal = m->principal && den_mode == m->vs;
		/* A real program on either side is marked wherever the pair is shown. */
		snprintf(q->name, sizeof(q->name), "%s/%s %s%s%s", m->name, den_mode->name, role,
			 (m->flags | den_mode->flags) & ZC_MODE_PEER ? " [peer]" : "",
			 opts_label(run, den, m, den_mode));
		h = p->n - 1;
		for (size_t a = 0; (flags & ZC_PAIRS_AFTER) && a < na; a++) {
			json_t *ar = zc_run_index_peer(x, run, role, afters[a]->name);

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
	struct zc_run_index *x = zc_run_index_new(runs);

	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < zc_nmodes; i++)
			if (in_pass(zc_modes[i], pass))
				headline_of(&p, runs, x, zc_modes[i], zc_modes[i]->vs, flags);
	/* Then zcbench against the real programs: each peer mode's imitator
	 * over it (splice/haproxy-splice), without after rows. */
	for (size_t i = 0; i < zc_nmodes; i++)
		if (zc_modes[i]->imitated_by)
			headline_of(&p, runs, x, zc_modes[i]->imitated_by, zc_modes[i],
				    flags & ~ZC_PAIRS_AFTER);
	zc_run_index_free(x);
	return done(&p, out);
}

size_t zc_before_after_pairs(json_t *runs, unsigned flags, struct zc_pair **out)
{
	struct pairs p = { 0 };
	struct zc_run_index *idx = zc_run_index_new(runs);

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
				ar = zc_run_index_peer(idx, run, role, afters[a]->name);
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
	zc_run_index_free(idx);
	return done(&p, out);
}

static json_t *num_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* A principal ratio whose after-modes have no run in the file. */
static json_t *missing_after(const struct zc_pair *p)
{
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(p->native, afters, ZC_ARRAY_SIZE(afters));
	json_t *modes = json_array();

	for (size_t a = 0; a < na; a++)
		json_array_append_new(modes, json_string(afters[a]->name));
	return json_pack("{s:s,s:o}", "ratio", p->name, "after_modes", modes);
}

/* One headline pair at one size: report's row, then what the exports add. */
static json_t *pair_row(json_t *root, const struct zc_pair *p)
{
	json_t *num = p->run, *den = p->peer_run, *k = json_object_get(num, "key");
	json_t *row = json_object();
	const char *side = zc_an_str(num, "aa_side");
	struct zc_ratio r;
	char rr[512];

	/* The medians of the ok, undisturbed samples: the summaries' own. */
	zc_an_ratio(num, den, &r);
	json_object_set_new(row, "ratio", json_string(p->name));
	json_object_set_new(row, "side", json_string(zc_an_side_words(root, p->kind == ZC_PAIR_AFTER)));
	json_object_set_new(row, "numerator", json_string(zc_an_str(num, "name")));
	json_object_set_new(row, "denominator", json_string(zc_an_str(den, "name")));
	json_object_set_new(row, "numerator_mode", json_string(zc_an_dut_mode(num)));
	json_object_set_new(row, "denominator_mode", json_string(zc_an_dut_mode(den)));
	json_object_set_new(row, "chunk", json_integer(zc_an_int(k, "chunk")));
	json_object_set_new(row, "pipe_size", json_integer(zc_an_int(k, "pipe_size")));
	json_object_set_new(row, "connections", json_integer(zc_an_int(k, "connections") ?: 1));
	json_object_set_new(row, "workers", json_integer(zc_an_int(k, "workers") ?: 1));
	/* Request/response pairs of one path differ by these ("rr object=1024 churn"). */
	json_object_set_new(row, "rr", *zc_an_rr_key(k, true, rr, sizeof(rr)) ?
			    json_string(rr) : json_null());
	/* A side without a successful sample is null, never a 0. */
	json_object_set_new(row, "value", num_or_null(r.value));
	zc_an_ratio_json(row, num, den, &r);
	json_object_set_new(row, "numerator_gbps_per_core", num_or_null(r.num_gpc));
	json_object_set_new(row, "denominator_gbps_per_core", num_or_null(r.den_gpc));
	json_object_set_new(row, "numerator_samples", json_integer((json_int_t)r.nn));
	json_object_set_new(row, "denominator_samples", json_integer((json_int_t)r.nd));
	/* Both sides' sinks checked every byte (run "verified"). */
	json_object_set_new(row, "verified", json_boolean(
		json_is_true(json_object_get(num, "verified")) &&
		json_is_true(json_object_get(den, "verified"))));
	/* The exports' (ZC_HEADLINE_ROW_EXTRA): an emulated after-mode's row, the
	 * A/A side, the disturbed samples left out. */
	json_object_set_new(row, "emulated", json_boolean(p->kind == ZC_PAIR_AFTER));
	if (*side)
		json_object_set_new(row, "aa_side", json_string(side));
	json_object_set_new(row, "disturbed_left_out", json_integer((json_int_t)r.disturbed));
	return row;
}

json_t *zc_headline_rows(json_t *root, unsigned flags, json_t *missing)
{
	json_t *rows = json_array(), *m;
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"),
				     flags | (missing ? ZC_PAIRS_UNPAIRED : 0), &pv), j;

	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		if (pv[i].run) {
			json_array_append_new(rows, pair_row(root, &pv[i]));
			continue;
		}
		/* ZC_PAIRS_UNPAIRED: one per ratio, not one per size. */
		json_array_foreach(missing, j, m)
			seen |= !strcmp(zc_an_str(m, "ratio"), pv[i].name);
		if (!seen)
			json_array_append_new(missing, missing_after(&pv[i]));
	}
	free(pv);
	return rows;
}

int zc_headline_tight(json_t *runs, double target_rel, char *why, size_t len)
{
	json_t *root = json_pack("{s:O}", "runs", runs), *hl = zc_headline_rows(root, 0, NULL);
	json_t *row, *run;
	double worst = -1;
	const char *worst_name = NULL;
	char name[160] = "";
	size_t i, considered = 0;

	json_array_foreach(hl, i, row) {
		double w;

		if (!json_is_number(json_object_get(row, "value")))
			continue;
		considered++;
		w = zc_ci_half_width_rel(json_number_value(json_object_get(row, "lo")),
					 json_number_value(json_object_get(row, "hi")),
					 json_number_value(json_object_get(row, "value")));
		if (isnan(w))
			w = INFINITY;
		if (w > worst) {
			worst = w;
			worst_name = zc_an_str(row, "ratio");
			snprintf(name, sizeof(name), "%s", worst_name);
		}
	}
	if (!considered) {
		/* No ratio to hold to the target: each run's own median instead. */
		static double v[ZC_SAMPLES_MAX], one[ZC_SAMPLES_MAX];

		json_array_foreach(runs, i, run) {
			size_t n = zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX);
			struct zc_change c;
			double w;

			for (size_t j = 0; j < n; j++)
				one[j] = 1;
			if (!n || zc_change_paired(one, v, n, true, ZC_LEVEL, &c))
				continue;
			considered++;
			w = c.ok ? zc_ci_half_width_rel(exp(c.lo), exp(c.hi), exp(c.d)) : NAN;
			w = isnan(w) ? INFINITY : w;
			if (w > worst) {
				worst = w;
				snprintf(name, sizeof(name), "%s Gbps/core", zc_an_str(run, "name"));
			}
		}
	}
	json_decref(hl);
	json_decref(root);
	if (!considered) {
		snprintf(why, len, "no ok sample to tighten");
		return 1;
	}
	snprintf(why, len, "%s %s: %.2f%% half-width (target %.2f%%)",
		 worst < target_rel ? "widest" : "still wide", name, 100 * worst, 100 * target_rel);
	return worst < target_rel;
}
