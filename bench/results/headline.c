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
#include "stats/paired.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run's mode options text ("" when none). */
static const char *run_opts(json_t *run)
{
	return zc_an_str(json_object_get(run, "options"), "mode_opts");
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
	const char *text = run_opts(run);
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

/*
 * Peers by key. The index maps a run's key but for its sizes (with the
 * DUT's mode put in) to its runs in file order, so pairing a file of
 * 20,000 runs is linear; the sizes and the mode options are compared per
 * candidate: a run whose DUT ignores a size has none in its key (mode.h,
 * uses) and pairs with the other side's run at each size, and which options
 * count depends on the mode looked up (dut_opts).
 */
struct zc_run_index {
	json_t *map;	/* key but for the sizes -> [run positions in file order] */
	json_t *runs;
};

/* The canonical key but for the sizes of run with role's mode replaced by
 * mode (NULL: its own); the proxy left out when direct. */
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
	json_array_append_new(a, json_integer(zc_an_int(k, "connections")));
	/* The same workers (absent before 1.3: 1) and A/A side: an A/A file
	 * (zcbench noise) holds every run twice, a ratio stays within its side. */
	json_array_append_new(a, json_integer(zc_an_int(k, "workers") ?: 1));
	json_array_append_new(a, json_string(zc_an_str(run, "aa_side")));
	json_array_append_new(a, json_string(zc_an_rr_key(k, false, rr, sizeof(rr))));
	json_array_append_new(a, json_string(run_alternate(run)));
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s;
}

/* Do keys a and b agree on every size both have (both == true: and have
 * the same ones)? */
static bool sizes_agree(json_t *a, json_t *b, bool both)
{
	static const char *const sizes[] = ZC_USE_KEYS;

	for (size_t j = 0; j < ZC_ARRAY_SIZE(sizes); j++) {
		json_t *x = json_object_get(a, sizes[j]), *y = json_object_get(b, sizes[j]);

		if (x && y ? json_integer_value(x) != json_integer_value(y) : both && (x || y))
			return false;
	}
	return true;
}

/*
 * The runs that pair with run when role's mode is replaced by mode: those
 * of x's (or, x NULL, of runs) with its key but for the sizes, the sizes
 * equal where both have them, and the same options of mode; the first at
 * each size, in file order, at most max into out. How many. A direct run
 * has no proxy to replace: none.
 */
static size_t peers(struct zc_run_index *x, json_t *runs, json_t *run, const char *role,
		    const char *mode, json_t **out, size_t max)
{
	json_t *k = json_object_get(run, "key"), *at;
	char want[256], have[256], *key;
	size_t n = 0, count;

	if (!strcmp(role, "proxy") && !strcmp(zc_an_str(k, "topology"), "direct"))
		return 0;
	if (!(key = peer_key(run, role, mode)))
		return 0;
	runs = x ? x->runs : runs;
	at = x && x->map ? json_object_get(x->map, key) : NULL;
	count = at ? json_array_size(at) : x && x->map ? 0 : json_array_size(runs);
	dut_opts(run, role, mode, want, sizeof(want));
	for (size_t i = 0; i < count && n < max; i++) {
		json_t *r = json_array_get(runs, at ? (size_t)json_integer_value(json_array_get(at, i)) : i);
		bool dup = false;

		if (!at) {	/* no index (out of memory): the key of each */
			char *rk = peer_key(r, NULL, NULL);
			bool same = rk && !strcmp(rk, key);

			free(rk);
			if (!same)
				continue;
		}
		if (!sizes_agree(json_object_get(r, "key"), k, false))
			continue;
		dut_opts(r, role, mode, have, sizeof(have));
		for (size_t j = 0; j < n && !dup; j++)
			dup = sizes_agree(json_object_get(out[j], "key"), json_object_get(r, "key"), true);
		if (!strcmp(want, have) && !dup)
			out[n++] = r;
	}
	free(key);
	return n;
}

json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode)
{
	json_t *r;

	return peers(NULL, runs, run, role, mode, &r, 1) ? r : NULL;
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
	json_t *r;

	return peers(x, NULL, run, role, mode, &r, 1) ? r : NULL;
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
	const char *t = *run_opts(run) ? run_opts(run) : run_opts(peer);
	size_t o = 0;

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

/* A pair's size key (its ZC_USE_ bit and name): from the side whose mode
 * passes it on, the numerator's first; 0 ("-") when neither's does. */
static long long pair_size(json_t *num, const struct zc_mode *nm, json_t *den,
			   const struct zc_mode *dm, unsigned bit, const char *key)
{
	json_t *run = zc_mode_uses(nm, run_opts(num)) & bit ? num :
		      zc_mode_uses(dm, run_opts(den)) & bit ? den : NULL;

	return zc_an_int(json_object_get(run, "key"), key);
}

/* The headline row of run (of m) over den (of den_mode), and its after
 * rows, into p. */
static void headline_pair(struct pairs *p, struct zc_run_index *x, json_t *run, json_t *den,
			  const struct zc_mode *m, const struct zc_mode *den_mode, unsigned flags)
{
	const char *role = zc_role_names[m->role];
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters)), h, found = 0;
	struct zc_pair *q = push(p, ZC_PAIR_HEADLINE, m);

	if (!q)
		return;
	q->mode = m;
	q->peer = den_mode;
	q->run = run;
	q->peer_run = den;
	q->principal = m->principal && den_mode == m->vs;
	q->chunk = pair_size(run, m, den, den_mode, ZC_USE_chunk, "chunk");
	q->pipe_size = pair_size(run, m, den, den_mode, ZC_USE_pipe_size, "pipe_size");
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

/* The headline rows of mode m over den_mode (and their after rows) into p:
 * each run of m over each run of den_mode it pairs with (one, unless a
 * side's DUT ignores a size the other was run at several of). */
static void headline_of(struct pairs *p, json_t *runs, struct zc_run_index *x,
			const struct zc_mode *m, const struct zc_mode *den_mode, unsigned flags)
{
	json_t *run, *dens[ZC_PEERS_MAX];
	size_t i;

	json_array_foreach(runs, i, run) {
		size_t nd = run_of(run, m) ? peers(x, runs, run, zc_role_names[m->role],
						   den_mode->name, dens, ZC_PEERS_MAX) : 0;

		for (size_t d = 0; d < nd; d++)
			headline_pair(p, x, run, dens[d], m, den_mode, flags);
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
	/* null: neither side's mode passes it on (modes/mode.h, uses). */
	json_object_set_new(row, "chunk", p->chunk ? json_integer(p->chunk) : json_null());
	json_object_set_new(row, "pipe_size", p->pipe_size ? json_integer(p->pipe_size) : json_null());
	json_object_set_new(row, "connections", json_integer(zc_an_int(k, "connections") ?: 1));
	json_object_set_new(row, "workers", json_integer(zc_an_int(k, "workers") ?: 1));
	/* Request/response pairs of one path differ by these ("rr object=1024 churn"). */
	json_object_set_new(row, "rr", *zc_an_rr_key(k, true, rr, sizeof(rr)) ?
			    json_string(rr) : json_null());
	/* A side without a successful sample is null, never a 0. */
	json_object_set_new(row, "value", zc_an_num(r.value));
	zc_an_ratio_json(row, num, den, &r);
	json_object_set_new(row, "numerator_gbps_per_core", zc_an_num(r.num_gpc));
	json_object_set_new(row, "denominator_gbps_per_core", zc_an_num(r.den_gpc));
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
