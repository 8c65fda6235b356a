// SPDX-License-Identifier: GPL-2.0
/*
 * What the modes declare, and the headline/peer engine built from it:
 * - every declaration is well formed (relations within a role, after-modes
 *   emulated, option keys unique per mode (shared keys such as splice_chunk_cap declared alike) and clear of the workload keys, option
 *   fields inside priv, one way to run the data path);
 * - mode options parse, check their bounds and land in priv;
 * - on results/fixtures, the engine finds a pair for every declared
 *   relation (runs of the modes a fixture lacks are derived from one of the
 *   same role), and run's headline is what the old table wrote there.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include "zc_test.h"

#include "config/cfg.h"
#include "modes/mode.h"
#include "results/results.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURES "results/fixtures/"

static size_t opt_size(const struct zc_mode_opt *o)
{
	return o->type == ZC_MODE_OPT_LONG ? sizeof(long) :
	       o->type == ZC_MODE_OPT_SIZE ? sizeof(uint64_t) : sizeof(double);
}

static void declarations(void **state)
{
	(void)state;
	for (size_t i = 0; i < zc_nmodes; i++) {
		const struct zc_mode *m = zc_modes[i];
		int ways = !!m->step + !!m->fill;

		assert_non_null(m->name);
		assert_ptr_equal(zc_mode_find(m->role, m->name), m);
		/* Names are unique: one name, one mode, whatever the role. */
		assert_ptr_equal(zc_mode_find_any(m->name), m);
		assert_non_null(m->summary);
		/* A pump of its own, or exactly one of step and fill; a peer mode
		 * (a real program) has none, its program and an imitator of its role. */
		if (m->flags & ZC_MODE_PEER) {
			if (ways || m->pump || !m->program || !m->unavailable)
				fail_msg("%s: a peer has a program and unavailable(), no data path",
					 m->name);
			if (m->imitated_by && (m->imitated_by->role != m->role ||
					       (m->imitated_by->flags & ZC_MODE_PEER)))
				fail_msg("%s: imitated by a zcbench mode of its role", m->name);
		} else if (!m->pump && ways != 1) {
			fail_msg("%s: needs exactly one of step and fill (or a pump)", m->name);
		}
		if ((m->flags & ZC_MODE_UNVERIFIED) && !m->unverified_why)
			fail_msg("%s: unverified without saying why", m->name);
		if (m->fill && m->step)
			fail_msg("%s: both step and fill", m->name);
		if (m->vs) {
			assert_int_equal(m->vs->role, m->role);
			assert_ptr_not_equal(m->vs, m);
			/* A sink is the DUT only as an HTTP server (traffic = rr, dut = server). */
			assert_true(m->role != ZC_ROLE_SINK || (m->flags & ZC_MODE_HTTP));
		} else {
			assert_false(m->principal);
		}
		{
			const struct zc_mode *afters[ZC_AFTERS_MAX + 1];

			assert_true(zc_mode_afters(m, afters, ZC_AFTERS_MAX + 1) <= ZC_AFTERS_MAX);
		}
		/* An emulated mode says what it emulates, or nothing pairs it. */
		if ((m->flags & ZC_MODE_EMULATED) && !(m->after_of && *m->after_of))
			fail_msg("%s: emulated but declares no after_of", m->name);
		for (const struct zc_mode *const *a = m->after_of; a && *a; a++) {
			/* An after-mode stands for a native mode of its role. */
			if (!(m->flags & ZC_MODE_EMULATED))
				fail_msg("%s: after_of but not ZC_MODE_EMULATED", m->name);
			assert_int_equal((*a)->role, m->role);
			assert_false((*a)->flags & ZC_MODE_EMULATED);
			assert_true(zc_mode_is_after_of(m, *a));
		}
		for (const struct zc_mode_opt *o = m->opts; o && o->key; o++) {
			const struct zc_mode *owner = NULL;
			char err[256];

			const struct zc_mode_opt *first = zc_mode_opt_find(o->key, &owner);

			/* A key several modes declare (splice_chunk_cap) is one option:
			 * the same type, bounds and default, so checking a text against
			 * the first declaration is right for every mode taking it. */
			assert_non_null(first);
			if (first != o && (first->type != o->type || first->min != o->min ||
					   first->max != o->max || strcmp(first->def, o->def)))
				fail_msg("%s: option %s differs from %s's", m->name, o->key, owner->name);
			if (zc_opt_find(o->key))
				fail_msg("%s: option %s is also a workload key", m->name, o->key);
			if (o->off + opt_size(o) > m->priv_size)
				fail_msg("%s: option %s lies outside priv", m->name, o->key);
			assert_non_null(o->help);
			assert_true(o->min <= o->max);
			/* Its default is a legal value. */
			snprintf(err, sizeof(err), "%s=%s", o->key, o->def);
			assert_int_equal(zc_mode_opts_check(err, err, sizeof(err)), 0);
		}
	}
	/* The mission's two ratios are declared. */
	assert_ptr_equal(zc_mode_find(ZC_ROLE_PROXY, "splice")->vs, zc_mode_find(ZC_ROLE_PROXY, "copy"));
	assert_true(zc_mode_find(ZC_ROLE_PROXY, "splice")->principal);
	assert_ptr_equal(zc_mode_find(ZC_ROLE_SOURCE, "tee")->vs, zc_mode_find(ZC_ROLE_SOURCE, "send"));
	assert_true(zc_mode_find(ZC_ROLE_SOURCE, "tee")->principal);
}

static void options(void **state)
{
	const struct zc_mode *m = zc_mode_find(ZC_ROLE_SOURCE, "msg-zerocopy");
	const struct zc_mode_opt *o = zc_mode_opt_find("msg-zerocopy-max-outstanding", NULL);
	char err[256];
	void *priv;

	(void)state;
	assert_non_null(m);
	assert_non_null(o);
	priv = calloc(1, m->priv_size);
	assert_non_null(priv);
	/* Defaults, then the run's keys of this mode; other modes' keys skipped. */
	assert_int_equal(zc_mode_opts_apply(m, priv, NULL, err, sizeof(err)), 0);
	assert_int_equal(*(long *)((char *)priv + o->off), 128);
	assert_int_equal(zc_mode_opts_apply(m, priv, "msg_zerocopy_max_outstanding=16", err,
					    sizeof(err)), 0);
	assert_int_equal(*(long *)((char *)priv + o->off), 16);
	assert_int_equal(zc_mode_opts_apply(zc_mode_find(ZC_ROLE_SOURCE, "send"), NULL,
					    "msg_zerocopy_max_outstanding=16", err, sizeof(err)), 0);
	/* Out of bounds, not a number, unknown key, not KEY=VALUE: refused, said why. */
	assert_int_equal(zc_mode_opts_check("msg_zerocopy_max_outstanding=0", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "msg_zerocopy_max_outstanding"));
	assert_int_equal(zc_mode_opts_check("msg_zerocopy_max_outstanding=x", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(zc_mode_opts_check("no_such_key=1", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no_such_key"));
	assert_int_equal(zc_mode_opts_check("msg_zerocopy_max_outstanding", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(zc_mode_opts_check("", err, sizeof(err)), 0);
	free(priv);
}

static json_t *load(const char *name)
{
	char err[256];
	json_t *root = zc_results_load(name, err, sizeof(err));

	if (!root)
		fail_msg("%s: %s", name, err);
	return root;
}

/* A run of m in runs (as the device under test), or NULL. */
static json_t *run_of(json_t *runs, const struct zc_mode *m)
{
	const char *role = zc_role_names[m->role];
	json_t *r;
	size_t i;

	json_array_foreach(runs, i, r)
		if (!strcmp(zc_an_dut_role(r), role) &&
		    !strcmp(zc_an_str(json_object_get(r, "key"), role), m->name))
			return r;
	return NULL;
}

/* emulated.json, plus a run for every source or proxy mode it lacks: a copy
 * of its send (direct) or copy (proxy) run with the mode replaced; an HTTP
 * server (nginx) as the DUT of a copy of the send run (dut = server). */
static json_t *every_mode(json_t *root)
{
	json_t *runs = json_deep_copy(json_object_get(root, "runs"));

	for (size_t i = 0; i < zc_nmodes; i++) {
		const struct zc_mode *m = zc_modes[i];
		const char *base = m->role == ZC_ROLE_PROXY ? "copy" : "send";
		bool server = m->role == ZC_ROLE_SINK && (m->flags & ZC_MODE_HTTP);
		json_t *r;

		if ((m->role == ZC_ROLE_SINK && !server) || run_of(runs, m))
			continue;
		r = json_deep_copy(run_of(runs, server ? ZC_MODE_REF(send) :
					  zc_mode_find(m->role, base)));
		assert_non_null(r);
		if (server)
			json_object_set_new(r, "dut", json_string("sink"));
		json_object_set_new(json_object_get(r, "key"), zc_role_names[m->role],
				    json_string(m->name));
		json_object_set_new(r, "name", json_string(m->name));
		json_array_append_new(runs, r);
	}
	return runs;
}

static bool has_pair(const struct zc_pair *pv, size_t n, enum zc_pair_kind kind,
		     const struct zc_mode *mode, const struct zc_mode *peer)
{
	for (size_t i = 0; i < n; i++)
		if (pv[i].kind == kind && pv[i].mode == mode && pv[i].peer == peer && pv[i].run &&
		    pv[i].peer_run)
			return true;
	return false;
}

static void engine_every_relation(void **state)
{
	json_t *root = load(FIXTURES "emulated.json"), *runs = every_mode(root);
	struct zc_pair *hv, *bv;
	size_t nh = zc_headline_pairs(runs, ZC_PAIRS_AFTER, &hv);
	size_t nb = zc_before_after_pairs(runs, 0, &bv);
	size_t relations = 0;

	(void)state;
	for (size_t i = 0; i < zc_nmodes; i++) {
		const struct zc_mode *m = zc_modes[i];

		if (m->vs) {
			if (!has_pair(hv, nh, ZC_PAIR_HEADLINE, m, m->vs))
				fail_msg("no headline pair %s/%s", m->name, m->vs->name);
			relations++;
		}
		{
			const struct zc_mode *afters[ZC_AFTERS_MAX + 1];

			assert_true(zc_mode_afters(m, afters, ZC_AFTERS_MAX + 1) <= ZC_AFTERS_MAX);
		}
		/* An emulated mode says what it emulates, or nothing pairs it. */
		if ((m->flags & ZC_MODE_EMULATED) && !(m->after_of && *m->after_of))
			fail_msg("%s: emulated but declares no after_of", m->name);
		for (const struct zc_mode *const *a = m->after_of; a && *a; a++) {
			if (!has_pair(bv, nb, ZC_PAIR_BEFORE_AFTER, *a, m))
				fail_msg("no before/after pair %s -> %s", (*a)->name, m->name);
			/* The after side of the native's headline ratio, where it has one. */
			if ((*a)->vs && !has_pair(hv, nh, ZC_PAIR_AFTER, m, (*a)->vs))
				fail_msg("no after pair %s/%s for %s", m->name, (*a)->vs->name,
					 (*a)->name);
			relations++;
		}
	}
	/* 9 headline ratios and 7 after relations today; more only by declaration. */
	assert_true(relations >= 16);
	/* Each pair's runs really are peers: same chunk, the other mode. */
	for (size_t i = 0; i < nh; i++) {
		if (!hv[i].run)
			continue;
		assert_int_equal(zc_an_int(json_object_get(hv[i].run, "key"), "chunk"),
				 zc_an_int(json_object_get(hv[i].peer_run, "key"), "chunk"));
		assert_string_equal(zc_an_str(json_object_get(hv[i].peer_run, "key"), hv[i].role),
				    hv[i].peer->name);
	}
	/* The principal ratios come first, splice/copy then tee/send. */
	assert_true(nh >= 2);
	assert_string_equal(hv[0].name, "splice/copy proxy");
	assert_int_equal(hv[1].kind, ZC_PAIR_AFTER);
	assert_string_equal(hv[1].mode->name, "splice-as-copy");
	assert_string_equal(hv[2].name, "tee/send source");
	free(hv);
	free(bv);
	json_decref(runs);
	json_decref(root);
}

/* A file without after-mode runs: a principal row says its after side is missing. */
static void engine_unpaired(void **state)
{
	json_t *root = load(FIXTURES "base.json");
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"),
				     ZC_PAIRS_AFTER | ZC_PAIRS_UNPAIRED, &pv);
	int missing = 0;

	(void)state;
	for (size_t i = 0; i < n; i++)
		if (pv[i].kind == ZC_PAIR_AFTER) {
			assert_null(pv[i].run);
			assert_true(pv[i].native->principal);
			missing++;
		}
	assert_int_equal(missing, 2);
	free(pv);
	assert_int_equal(zc_before_after_pairs(json_object_get(root, "runs"), 0, &pv), 0);
	assert_null(pv);
	json_decref(root);
}

/* Same keys and values (the fixtures keep numbers to 10 digits). */
static bool same_row(json_t *a, json_t *b)
{
	const char *k;
	json_t *v;

	/* b is the stored row: every key of it must be there, unchanged (1.3
	 * added the interval's keys beside them). */
	if (json_object_size(a) < json_object_size(b))
		return false;
	json_object_foreach(b, k, v) {
		json_t *w = json_object_get(a, k);

		/* 1.7 made the ratio a geometric mean with a t interval: the
		 * pairs and their medians are what must not move. */
		if (!strcmp(k, "value") || !strcmp(k, "lo") || !strcmp(k, "hi") ||
		    !strcmp(k, "half_width_pct"))
			continue;
		/* 1.10: a size neither side's mode passes on is null. */
		if (json_is_null(w) && (!strcmp(k, "chunk") || !strcmp(k, "pipe_size")))
			continue;
		if (json_is_number(v) && json_is_number(w)) {
			double x = json_number_value(v), y = json_number_value(w);

			if (fabs(x - y) > 1e-8 * fabs(y))
				return false;
		} else if (!json_equal(v, w)) {
			return false;
		}
	}
	return true;
}

/* The headline from the declarations is the one the old table wrote. */
static void headline_as_stored(void **state)
{
	static const char *const files[] = { "base.json", "new.json", "emulated.json" };

	(void)state;
	for (size_t f = 0; f < ZC_ARRAY_SIZE(files); f++) {
		char path[256];
		json_t *root, *got, *want;

		snprintf(path, sizeof(path), FIXTURES "%s", files[f]);
		root = load(path);
		want = json_object_get(root, "headline");
		got = zc_headline_rows(root, 0, NULL);
		assert_int_equal(json_array_size(got), json_array_size(want));
		for (size_t i = 0; i < json_array_size(got); i++)
			if (!same_row(json_array_get(got, i), json_array_get(want, i)))
				fail_msg("%s: headline row %zu differs", files[f], i);
		json_decref(got);
		json_decref(root);
	}
}


/* splice_chunk_cap, declared by three modes, lands in each one's priv. */
static void shared_option(void **state)
{
	static const char *const names[] = { "splice", "splice-as-copy", "uring-splice" };
	char err[256];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(names); i++) {
		const struct zc_mode *m = zc_mode_find_any(names[i]);
		char canon[128];
		void *priv = calloc(1, m->priv_size);
		const struct zc_mode_opt *o = m->opts;

		assert_non_null(priv);
		assert_string_equal(o->key, "splice_chunk_cap");
		assert_int_equal(zc_mode_opts_apply(m, priv, "splice_chunk_cap=1", err, sizeof(err)), 0);
		assert_int_equal(*(long *)((char *)priv + o->off), 1);
		assert_int_equal(zc_mode_opts_canon(m, "", canon, sizeof(canon)), 0);
		assert_string_equal(canon, "splice_chunk_cap=0");
		free(priv);
	}
}

static json_t *opt_run(const char *name, const char *proxy, const char *opts)
{
	return json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I},s:{s:s}}", "name", name,
			 "dut", "proxy", "key", "topology", "proxy", "source", "send", "proxy", proxy,
			 "sink", "recv", "chunk", (json_int_t)65536, "pipe_size", (json_int_t)1 << 20,
			 "connections", (json_int_t)1, "workers", (json_int_t)1, "options",
			 "mode_opts", opts);
}

/* Runs pair only when the mode looked up takes the same options from both:
 * a chunk-capped splice with a chunk-capped splice-as-copy, any splice with
 * copy (which has none), an explicit default like no text at all. */
static void pairs_by_options(void **state)
{
	json_t *runs = json_array();
	json_t *copy = opt_run("copy", "copy", "");
	json_t *spl = opt_run("spl", "splice", "");
	json_t *cap = opt_run("cap", "splice", "splice_chunk_cap=1");
	json_t *spc = opt_run("spc", "splice-as-copy", "splice_chunk_cap=0");
	json_t *spc_cap = opt_run("spc-cap", "splice-as-copy", "splice_chunk_cap=1");
	struct zc_run_index *x;

	(void)state;
	json_array_append_new(runs, copy);
	json_array_append_new(runs, spl);
	json_array_append_new(runs, cap);
	json_array_append_new(runs, spc);
	json_array_append_new(runs, spc_cap);
	x = zc_run_index_new(runs);
	/* The index and the scan (zc_an_peer) agree. */
#define PEER(pass, run, mode) \
	((pass) ? zc_run_index_peer(x, run, "proxy", mode) : zc_an_peer(runs, run, "proxy", mode))
	for (int pass = 0; pass < 2; pass++) {
		assert_ptr_equal(PEER(pass, cap, "copy"), copy);
		assert_ptr_equal(PEER(pass, cap, "splice-as-copy"), spc_cap);
		assert_ptr_equal(PEER(pass, spl, "splice-as-copy"), spc);
		assert_ptr_equal(PEER(pass, spc, "splice"), spl);
		assert_ptr_equal(PEER(pass, copy, "splice"), spl);
	}
#undef PEER
	zc_run_index_free(x);
	json_decref(runs);
}

/* A run of mode (the DUT: the proxy, else the source) whose key has the
 * sizes given (0: none, as a run whose DUT does not use it is written). */
static json_t *size_run(const char *name, const char *mode, long long chunk, long long pipe)
{
	bool proxy = zc_mode_find_any(mode)->role == ZC_ROLE_PROXY;
	json_t *r = json_pack("{s:s,s:s,s:{s:s,s:s,s:s,s:s,s:I,s:I},s:{s:s}}", "name", name,
			      "dut", proxy ? "proxy" : "source", "key", "topology",
			      proxy ? "proxy" : "direct", "source", proxy ? "send" : mode,
			      "proxy", proxy ? mode : "", "sink", "recv", "connections",
			      (json_int_t)1, "workers", (json_int_t)1, "options", "mode_opts", "");
	json_t *k = json_object_get(r, "key");

	if (chunk)
		json_object_set_new(k, "chunk", json_integer(chunk));
	if (pipe)
		json_object_set_new(k, "pipe_size", json_integer(pipe));
	return r;
}

/* Item 7: what each mode passes on, and the pairs of runs whose DUTs ignore
 * a size: a splice run without a chunk pairs with the copy run at each
 * chunk, each row's sizes taken from the side that uses them; a file that
 * has every size (before 1.10) pairs at equal sizes as it always did. */
static void pairs_by_sizes(void **state)
{
	json_t *runs = json_array(), *old = json_array(), *root, *rows;
	struct zc_pair *pv;
	size_t n;

	(void)state;
	assert_int_equal(zc_mode_uses(zc_mode_find_any("splice"), ""), ZC_USE_pipe_size);
	assert_int_equal(zc_mode_uses(zc_mode_find_any("splice"), "splice_chunk_cap=1"), ZC_USE_ALL);
	assert_int_equal(zc_mode_uses(zc_mode_find_any("uring-splice"), "splice_chunk_cap=1"),
			 ZC_USE_ALL);
	assert_int_equal(zc_mode_uses(zc_mode_find_any("copy"), NULL), ZC_USE_chunk);
	assert_int_equal(zc_mode_uses(zc_mode_find_any("tee"), NULL), ZC_USE_ALL);
	assert_int_equal(zc_mode_uses(zc_mode_find_any("wrk"), NULL), 0);
	assert_int_equal(zc_mode_uses(NULL, NULL), ZC_USE_ALL);
	json_array_append_new(runs, size_run("spl-1M", "splice", 0, 1 << 20));
	json_array_append_new(runs, size_run("spl-64k", "splice", 0, 65536));
	json_array_append_new(runs, size_run("copy-64k", "copy", 65536, 0));
	json_array_append_new(runs, size_run("copy-1M", "copy", 1 << 20, 0));
	n = zc_headline_pairs(runs, 0, &pv);
	assert_int_equal(n, 4);
	assert_string_equal(zc_an_str(pv[0].run, "name"), "spl-1M");
	assert_string_equal(zc_an_str(pv[0].peer_run, "name"), "copy-64k");
	assert_int_equal(pv[0].chunk, 65536);
	assert_int_equal(pv[0].pipe_size, 1 << 20);
	assert_string_equal(zc_an_str(pv[1].peer_run, "name"), "copy-1M");
	assert_int_equal(pv[1].chunk, 1 << 20);
	assert_int_equal(pv[3].pipe_size, 65536);
	free(pv);
	/* The same runs written with every size: equal sizes only. */
	json_array_append_new(old, size_run("spl-old", "splice", 65536, 1 << 20));
	json_array_append_new(old, size_run("copy-old-1M", "copy", 1 << 20, 1 << 20));
	json_array_append_new(old, size_run("copy-old", "copy", 65536, 1 << 20));
	json_array_append_new(old, size_run("sendfile", "sendfile", 65536, 1 << 20));
	json_array_append_new(old, size_run("send", "send", 65536, 1 << 20));
	root = json_pack("{s:O}", "runs", old);
	rows = zc_headline_rows(root, 0, NULL);
	assert_int_equal(json_array_size(rows), 2);
	assert_string_equal(zc_an_str(json_array_get(rows, 0), "denominator"), "copy-old");
	/* Neither sendfile nor send passes the pipe size on: the row has none. */
	assert_string_equal(zc_an_str(json_array_get(rows, 1), "ratio"), "sendfile/send source");
	assert_int_equal(zc_an_int(json_array_get(rows, 1), "chunk"), 65536);
	assert_true(json_is_null(json_object_get(json_array_get(rows, 1), "pipe_size")));
	json_decref(rows);
	json_decref(root);
	json_decref(old);
	json_decref(runs);
}

/* The splice proxy asks for the pipe's room per call (HAProxy's way), at
 * most a chunk with splice_chunk_cap=1: one step over pipes shows it. */
static void splice_call_size(void **state)
{
	const struct zc_mode *m = zc_mode_find_any("splice");
	static uint8_t data[256 << 10];

	(void)state;
	for (int cap = 0; cap < 2; cap++) {
		int in[2], out[2];
		volatile sig_atomic_t stop = 0;
		struct zc_io io = { ZC_IO_INIT, .chunk = 64 << 10, .pipe_size = 1 << 20, .stop = &stop };
		char err[256];
		ssize_t n;

		assert_int_equal(pipe(in), 0);
		assert_int_equal(pipe(out), 0);
		assert_true(fcntl(in[1], F_SETPIPE_SZ, 1 << 20) > 0);
		assert_true(fcntl(out[1], F_SETPIPE_SZ, 1 << 20) > 0);
		assert_int_equal(write(in[1], data, sizeof(data)), (ssize_t)sizeof(data));
		io.in_fd = in[0];
		io.out_fd = out[1];
		assert_int_equal(zc_mode_setup(m, &io, cap ? "splice_chunk_cap=1" : "", err,
					       sizeof(err)), 0);
		n = zc_mode_step(m, &io);
		/* capped: one chunk in, one call out; else all 256 KiB in one call */
		assert_int_equal(n, cap ? 64 << 10 : (ssize_t)sizeof(data));
		assert_int_equal(io.calls, 2);
		zc_mode_teardown(m, &io);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(declarations),
		cmocka_unit_test(options),
		cmocka_unit_test(engine_every_relation),
		cmocka_unit_test(engine_unpaired),
		cmocka_unit_test(headline_as_stored),
		cmocka_unit_test(shared_option),
		cmocka_unit_test(pairs_by_options),
		cmocka_unit_test(pairs_by_sizes),
		cmocka_unit_test(splice_call_size),
	};

	return zc_run_tests(tests, NULL, NULL);
}
