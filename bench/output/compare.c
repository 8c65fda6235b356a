// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench compare BASE.json NEW.json [more.json ...]: the A/B table kernel
 * people paste into a mail, in one of the layouts of output/compare.h (the
 * 0-day robot's lkp, mmtests' compare-kernels ...), every change with its
 * interval, and a regression gate for nightly CI with three answers: exit 0
 * (every gated figure within the threshold or better), 1 (one regressed
 * beyond it), 3 (one it cannot tell: the interval spans the threshold).
 */
#include "output/compare_int.h"
#include "output/breakdown.h"
#include "output/noise.h"
#include "output/report.h"
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES ZC_COMPARE_FILES_MAX

struct cmp_opts {
	const char *layout_name;	/* --format, a row of ZC_COMPARE_LAYOUTS */
	const struct zc_compare_layout *layout;
	double alpha;
	double fail_pct;	/* NaN: no gate */
	const char *metrics;	/* comma list, NULL: every metric */
	const char *gate;	/* comma list, NULL: the metrics' own .gate (or --metrics) */
	bool pass_cant_tell;	/* exit 0, not 3, when the gate could not tell */
	const char *noise;	/* --noise FILE */
	int pairing;		/* enum zc_pairing */
};

/* A layout of the one list (compare.h), or why not with the names. */
static int check_layout(const char *v, char *why, size_t len)
{
	return zc_row_check((const void *const *)zc_compare_layouts, zc_ncompare_layouts, v, why, len);
}

struct cmp_files {
	char *paths[MAX_FILES];
	int n;
};

#define AT(field) ZC_OPT_AT(struct cmp_opts, field)
static const struct zc_opt cmp_optv[] = {
	{ "format", ZC_OPT_TEXT, "lkp", AT(layout_name), .check = check_layout, .meta = "NAME",
	  .help = "the table's layout (the layouts are listed above)" },
	{ "alpha", ZC_OPT_DOUBLE, "0.05", 1e-9, 0.5, AT(alpha), .meta = "P",
	  .help = "1 - the intervals' level (0.05: 95%); the gated figures' intervals hold "
		  "together at that level (each at 1 - P/m, Bonferroni over the m gated)" },
	{ "metrics", ZC_OPT_TEXT, NULL, AT(metrics), .meta = "LIST",
	  .help = "only these metrics, comma list (shown, and gated unless --gate); default all" },
	{ "fail-on-regression", ZC_OPT_DOUBLE, NULL, 0, 1e9, AT(fail_pct), .meta = "PCT",
	  .help = "the gate: exit 1 if a gated figure's interval lies wholly beyond PCT percent "
		  "(percent metrics: points) the bad way, or a run has no ok sample in NEW; exit 3 "
		  "if one's interval spans PCT (can't tell); exit 0 when every one lies within "
		  "+-PCT or beyond it the good way" },
	{ "gate", ZC_OPT_TEXT, NULL, AT(gate), .meta = "LIST",
	  .help = "the metrics the gate judges, comma list; default: Gbit/s per DUT core (request/"
		  "response: transactions per core and p99), or those --metrics names" },
	{ "pass-cant-tell", ZC_OPT_BOOL, "no", AT(pass_cant_tell),
	  .help = "exit 0, not 3, when the gate cannot tell (still said on every line)" },
	{ "noise", ZC_OPT_TEXT, NULL, AT(noise), .meta = "FILE",
	  .help = "an A/A run's noise file (zcbench noise): how far two invocations of one build "
		  "come apart, added to the interval of sides from two invocations; without it "
		  "their intervals hold the samples' spread only, and the gate says so" },
	{ "pairing", ZC_OPT_CHOICE, "auto", AT(pairing), .choices = "auto|rep|none",
	  .help = "auto: the interval of the per-round log ratios when both sides were taken "
		  "in rounds of one invocation; rep: pair by repetition index anyway; none: never" },
};
static const struct zc_opt cmp_files_optv[] = {
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, MAX_FILES, ZC_OPT_AT(struct cmp_files, paths),
	  ZC_OPT_POS, .count_off = offsetof(struct cmp_files, n),
	  .help = "BASE.json then NEW.json [more.json ...]; or one file holding each run key more "
		  "than once (an A/A file of zcbench noise, an A/B taken in one run): its first "
		  "occurrences against the later ones" },
};

/* Is key an item of the comma list (checked by metric_list_ok)? */
static bool list_has(const char *list, const char *key)
{
	char buf[1024], *it[128], why[256];
	int n = zc_list_split(list, buf, sizeof(buf), it, (int)ZC_ARRAY_SIZE(it), why, sizeof(why));

	for (int i = 0; i < n; i++)
		if (!strcmp(it[i], key))
			return true;
	return false;
}

static bool metric_wanted(const struct cmp_opts *o, const char *key)
{
	return !o->metrics || list_has(o->metrics, key);
}

/* The occ-th (0: first) run with key in root, or NULL. */
static json_t *find_run_occ(json_t *root, const char *key, int occ)
{
	json_t *run;
	size_t i;
	char k[512];

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		zc_an_key(run, k, sizeof(k));
		if (!strcmp(k, key) && !occ--)
			return run;
	}
	return NULL;
}

static void fill_side(struct zc_cmp_side *s, json_t *run, const char *metric)
{
	s->run = run;
	s->n = run ? zc_an_values(run, metric, s->v, ZC_SAMPLES_MAX) : 0;
	zc_summarize(s->v, s->n, &s->s);
}

static void header(FILE *f, const struct zc_cmp *c)
{
	for (int i = 0; i < c->nfiles; i++) {
		char fp[256], id[512];

		zc_an_fingerprint(c->roots[i], fp, sizeof(fp), id, sizeof(id));
		fprintf(f, "# %-5s %s: kernel %s, host %s, %s, fingerprint %s\n",
			i ? "new" : "base", c->paths[i], zc_an_kernel(c->roots[i]),
			zc_an_hostname(c->roots[i]), zc_an_date(c->roots[i]), id);
	}
	c->layout->head(f, c);
}

struct walk {
	const struct cmp_opts *o;
	struct zc_cmp c;
	int occ[MAX_FILES];	/* one file: which occurrence of a key each side is */
	json_t *keys, *noise;
	struct zc_cmp_cell_v *cells;
	size_t ncells, cap, cursor;
	struct zc_cmp_tally tally;	/* the gate's answers */
	struct zc_cmp_side *ratio_sides;	/* the headline ratios' per-round values */
	size_t nratio;
	int lost, empty_sides;
	bool any_untested, oom;
};

static json_t *side_run(const struct walk *w, int fi, const char *key)
{
	return find_run_occ(w->c.roots[fi], key, w->occ[fi]);
}

static struct zc_cmp_cell_v *cell_push(struct walk *w)
{
	if (w->ncells == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct zc_cmp_cell_v *c = realloc(w->cells, cap * sizeof(*c));

		if (!c) {
			w->oom = true;
			return NULL;
		}
		w->cells = c;
		w->cap = cap;
	}
	memset(&w->cells[w->ncells], 0, sizeof(w->cells[0]));
	return &w->cells[w->ncells++];
}

/* "proxy-copy@64k/1M": a run's name and its whole key past the path
 * (zc_an_run_id: chunk/pipe, connections, object size, options ...), so
 * that runs of one [run] section stay apart in the verdict lines. */
static void run_label(json_t *run, const char *name, char *out, size_t len)
{
	char id[300];
	const char *at;

	zc_an_run_id(run, id, sizeof(id));
	at = strchr(id, '@');
	snprintf(out, len, "%s%s", name, at ? at : "");
}

/* Does the gate judge this metric? */
static bool metric_gated(const struct cmp_opts *o, const struct zc_metric *m)
{
	if (isnan(o->fail_pct) || m->better == ZC_BETTER_NEITHER)
		return false;
	if (o->gate)
		return list_has(o->gate, m->key);
	return o->metrics ? list_has(o->metrics, m->key) : m->gate;
}

static void judge_cell(struct walk *w, const char *key, const char *name,
		       const struct zc_metric *mt, struct zc_cmp_side *sides, int fi)
{
	struct zc_cmp_cell_v *cl = cell_push(w);
	struct zc_cmp_cell in = {
		.m = mt, .key = key, .root_b = w->c.roots[0], .root_n = w->c.roots[fi],
		.b = &sides[0], .n = &sides[fi], .pairing = w->o->pairing, .noise = w->noise,
		.alpha = w->o->alpha, .threshold_pct = w->c.threshold_pct,
	};

	if (!cl)
		return;
	zc_cmp_judge(&in, &cl->v);
	cl->m = mt;
	run_label(sides[0].run, name, cl->name, sizeof(cl->name));
	cl->path = w->c.paths[fi];
	cl->gated = metric_gated(w->o, mt);
	w->c.gated += cl->gated;
	if (!cl->v.tested) {
		w->any_untested = true;
		return;
	}
	cl->v.paired ? w->c.npaired++ : w->c.nunpaired++;
}

/* Runs of BASE with an ok sample that have none in a NEW: a gate cannot pass
 * what was not measured (every sample failed is not "0 regressions"). */
static void count_lost(struct walk *w, const char *key, json_t **runs)
{
	static double v[ZC_SAMPLES_MAX];

	if (!runs[0] || !zc_an_values(runs[0], "gbps_per_core", v, ZC_SAMPLES_MAX))
		return;
	for (int fi = 1; fi < w->c.nfiles; fi++) {
		if (!runs[fi] || zc_an_values(runs[fi], "gbps_per_core", v, ZC_SAMPLES_MAX))
			continue;
		w->lost++;
		if (!isnan(w->o->fail_pct))
			zc_err("compare: FAILED %s: %s (%s): no ok sample in this file (status %s%s%s; "
			       "%zu disturbed left out)",
			       w->c.paths[fi], key, zc_an_str(runs[fi], "name"),
			       zc_an_str(runs[fi], "status"),
			       json_is_string(json_object_get(runs[fi], "reason")) ? ": " : "",
			       zc_an_str(runs[fi], "reason"), zc_an_disturbed_count(runs[fi]));
	}
}

/*
 * Both passes walk the same cells in the same order: the first judges them
 * (the gate needs every gated cell, to set their common level, before any
 * is printed), the second prints.
 */
static void walk(struct walk *w, FILE *f, bool print)
{
	static struct zc_cmp_side sides[MAX_FILES];
	const struct cmp_opts *o = w->o;
	json_t *kv;
	size_t i;

	json_array_foreach(w->keys, i, kv) {
		const char *key = json_string_value(kv), *name = NULL;
		json_t *runs[MAX_FILES];
		int present = 0, lines = 0;

		for (int fi = 0; fi < w->c.nfiles; fi++) {
			runs[fi] = side_run(w, fi, key);
			present += !!runs[fi];
			if (runs[fi] && !name)
				name = zc_an_str(runs[fi], "name");
		}
		if (!runs[0] || present < 2)
			continue; /* listed below */
		if (!print)
			count_lost(w, key, runs);
		if (print && o->layout->run_head)
			o->layout->run_head(f, &w->c, key, name);
		zc_for_each_metric(mt) {
			struct zc_cmp_notes notes = { "", 0 };
			char full[160];
			int any = 0;

			/* Sample-only metrics (window_agreement ...) when asked by name. */
			if (mt->sample_only ? !o->metrics || !metric_wanted(o, mt->key) :
					      !metric_wanted(o, mt->key))
				continue;
			for (int fi = 0; fi < w->c.nfiles; fi++) {
				fill_side(&sides[fi], runs[fi], mt->key);
				any |= sides[fi].n > 0;
			}
			if (!any)
				continue; /* metric absent everywhere (run failed) */
			lines++;
			snprintf(full, sizeof(full), "%s.%s", name, mt->key);
			if (print)
				o->layout->row_base(f, &w->c, mt, full, &sides[0]);
			for (int fi = 1; fi < w->c.nfiles; fi++) {
				struct zc_cmp_cell_v *cl;

				if (!runs[fi]) {
					if (print)
						o->layout->row_cell(f, &w->c, mt, &sides[0], &sides[fi],
								    NULL, &notes);
					continue;
				}
				if (!print) {
					judge_cell(w, key, name, mt, sides, fi);
					continue;
				}
				if (w->cursor >= w->ncells)
					continue;	/* out of memory in the first pass */
				cl = &w->cells[w->cursor++];
				o->layout->row_cell(f, &w->c, mt, &sides[0], &sides[fi], &cl->v, &notes);
				if (cl->v.regression)
					zc_err("compare: REGRESSION %s: %s %s %+.1f%s, interval [%+.1f, "
					       "%+.1f]%s beyond the threshold %g%s", w->c.paths[fi], key,
					       mt->key, cl->v.change, cl->v.points ? " points" : "%",
					       zc_change_pct(&cl->v.ch, cl->v.ch.lo),
					       zc_change_pct(&cl->v.ch, cl->v.ch.hi),
					       cl->v.points ? " points" : "%", w->o->fail_pct,
					       cl->v.points ? " points" : "%");
			}
			if (print)
				o->layout->row_end(f, full, &notes);
		}
		if (print && !o->metrics)	/* perf-profile lines (compare_profile.c), as the robot's */
			lines += zc_cmp_profile_rows(f, &w->c, runs, name);
		if (print && !lines) {
			/* Failed or unavailable everywhere: say so rather than vanish. */
			fprintf(f, "%-9s %s: no ok sample on any side (status", "", name);
			for (int fi = 0; fi < w->c.nfiles; fi++)
				fprintf(f, " %s", runs[fi] ? zc_an_str(runs[fi], "status") : "missing");
			fprintf(f, ")\n");
		}
	}
}

/* Runs not on every side: listed, never dropped silently. */
static void list_unmatched(struct walk *w, FILE *f)
{
	bool header_done = false;
	json_t *kv;
	size_t i;

	json_array_foreach(w->keys, i, kv) {
		const char *key = json_string_value(kv);
		char only[512] = "";
		size_t ol = 0;
		int present = 0;

		for (int fi = 0; fi < w->c.nfiles; fi++)
			if (side_run(w, fi, key)) {
				present++;
				ol += snprintf(only + ol, sizeof(only) - ol, "%s%s", ol ? ", " : "",
					       w->c.paths[fi]);
				if (ol >= sizeof(only))
					ol = sizeof(only) - 1;
			}
		if (present == w->c.nfiles || (side_run(w, 0, key) && present >= 2))
			continue;
		if (!header_done) {
			fprintf(f, "\nRuns not compared (not in the base file, or in it alone):\n");
			header_done = true;
		}
		fprintf(f, "  %s: only in %s\n", key, only);
	}
	/* Keys in base and some, not all, of the others. */
	json_array_foreach(w->keys, i, kv) {
		const char *key = json_string_value(kv);

		if (!side_run(w, 0, key))
			continue;
		for (int fi = 1; fi < w->c.nfiles; fi++)
			if (!side_run(w, fi, key)) {
				int present = 0;

				for (int fj = 1; fj < w->c.nfiles; fj++)
					present += !!side_run(w, fj, key);
				if (present)
					fprintf(f, "  %s: missing in %s\n", key, w->c.paths[fi]);
			}
	}
	/* A side with nothing in common with the base cannot pass a gate. */
	for (int fi = 1; fi < w->c.nfiles; fi++) {
		bool any = false;

		json_array_foreach(w->keys, i, kv)
			any |= side_run(w, 0, json_string_value(kv)) &&
			       side_run(w, fi, json_string_value(kv));
		if (!any) {
			w->empty_sides++;
			fprintf(f, "\nnothing compared: %s has no run of the base's keys\n",
				w->c.paths[fi]);
		}
	}
}

/* The sides of one file: each key's first occurrence against the later ones.
 * How many sides (0: no key occurs twice). */
static int sides_of_one(struct walk *w, json_t *root, const char *path, char **paths,
			json_t **roots)
{
	static char labels[MAX_FILES][1100];
	json_t *kv;
	size_t i;
	int most = 1;

	json_array_foreach(w->keys, i, kv) {
		int n = 0;

		while (n < MAX_FILES && find_run_occ(root, json_string_value(kv), n))
			n++;
		most = n > most ? n : most;
	}
	if (most < 2)
		return 0;
	for (int s = 0; s < most; s++) {
		snprintf(labels[s], sizeof(labels[s]), "%s#%c", path, 'A' + s);
		paths[s] = labels[s];
		roots[s] = s ? json_incref(root) : root;
		w->occ[s] = s;
	}
	return most;
}

/* The headline ratios of BASE matched in each other file, after the run
 * cells; gated by default, or when --gate (--metrics) names "headline". */
static void add_ratio_cells(struct walk *w)
{
	const struct cmp_opts *o = w->o;
	const char *list = o->gate ? o->gate : o->metrics;
	bool gated = !isnan(o->fail_pct) && (!list || list_has(list, "headline"));

	for (int fi = 1; fi < w->c.nfiles; fi++) {
		struct zc_cmp_cell_v *rc;
		struct zc_cmp_side *rs, *all;
		size_t n = zc_cmp_ratio_cells(w->c.roots[0], w->c.roots[fi], w->c.paths[fi],
					      o->alpha, w->c.threshold_pct, gated, &rc, &rs);
		size_t had = w->nratio;

		if (!n)
			continue;
		all = realloc(w->ratio_sides, 2 * (had + n) * sizeof(*all));
		if (all) {
			memcpy(all + 2 * had, rs, 2 * n * sizeof(*rs));
			w->ratio_sides = all;
			w->nratio += n;
		}
		for (size_t k = 0; all && k < n; k++) {
			struct zc_cmp_cell_v *cl = cell_push(w);

			if (!cl)
				break;
			*cl = rc[k];
			w->c.gated += cl->gated;
			if (!cl->v.tested)
				w->any_untested = true;
			else if (cl->v.paired)
				w->c.npaired++;
			else
				w->c.nunpaired++;
		}
		w->oom |= !all;
		free(rc);
		free(rs);
	}
}

/* Every item of --FLAG's comma list a metric, or an error naming it. */
static bool metric_list_ok(const char *flag, const char *list)
{
	char buf[1024], *it[128], why[512];
	int n = list ? zc_list_split(list, buf, sizeof(buf), it, (int)ZC_ARRAY_SIZE(it), why,
				     sizeof(why)) : 0;

	if (n < 0)
		zc_err("compare: --%s: %s", flag, why);
	for (int i = 0; i < n; i++)
		/* "headline": the headline ratios (compare_ratios.c). */
		if (!zc_metric_find(it[i]) && strcmp(it[i], "headline")) {
			zc_err("compare: --%s: unknown metric '%s' (or 'headline' for the headline "
			       "ratios)", flag, it[i]);
			return false;
		}
	return n >= 0;
}

int zc_cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .fail_pct = NAN };	/* no gate unless asked */
	static struct cmp_files files;
	static char about[2048];
	static struct walk w;
	char *paths[MAX_FILES];
	json_t *roots[MAX_FILES] = { 0 }, *keys = json_array(), *seen = json_object(), *run;
	int nfiles = 0, ret = ZC_EXIT_OK;
	bool one_file = false;
	size_t nrun;
	size_t i;
	FILE *f = stdout;
	const struct zc_optgroup groups[] = {
		{ .opts = cmp_optv, .n = ZC_ARRAY_SIZE(cmp_optv), .base = &o },
		{ .opts = cmp_files_optv, .n = ZC_ARRAY_SIZE(cmp_files_optv), .base = &files },
	};
	const struct zc_cmdline cmdline = {
		.name = "compare", .groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
		.about = about,
	};

	memset(&w, 0, sizeof(w));
	zc_cmp_about(about, sizeof(about));
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		goto out;
	ret = ZC_EXIT_OK;
	nfiles = files.n;
	memcpy(paths, files.paths, sizeof(paths));
	o.layout = zc_compare_layout_find(o.layout_name);
	if (!metric_list_ok("metrics", o.metrics) || !metric_list_ok("gate", o.gate)) {
		ret = ZC_EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < nfiles; i++)
		if (!(roots[i] = zc_an_load("compare", paths[i]))) {
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	if (o.noise) {
		char err[1200];

		if (!(w.noise = zc_noise_load(o.noise, err, sizeof(err)))) {
			zc_err("compare: --noise: %s", err);
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	/* Every key, in the order the files list them, base first. */
	for (int fi = 0; fi < nfiles; fi++)
		json_array_foreach(json_object_get(roots[fi], "runs"), i, run) {
			char k[512];

			zc_an_key(run, k, sizeof(k));
			if (json_object_get(seen, k))
				continue;
			json_object_set_new(seen, k, json_true());
			json_array_append_new(keys, json_string(k));
		}
	w.keys = keys;
	if (nfiles == 1) {
		const char *path = paths[0];

		one_file = true;
		nfiles = sides_of_one(&w, roots[0], path, paths, roots);
		if (!nfiles) {
			zc_err("compare: %s: no run key occurs twice in it, so one file has nothing to "
			       "compare (zcbench noise writes such a file); give BASE.json NEW.json",
			       path);
			nfiles = 1;
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	w.o = &o;
	w.c = (struct zc_cmp){ .layout = o.layout, .alpha = o.alpha, .nfiles = nfiles,
			       .paths = paths, .roots = roots, .fail_pct = o.fail_pct,
			       .threshold_pct = isnan(o.fail_pct) ? ZC_CMP_THRESHOLD_PCT : o.fail_pct,
			       .noise_path = o.noise };
	walk(&w, f, false);
	nrun = w.ncells;
	if (!one_file)
		add_ratio_cells(&w);
	zc_cmp_gate_family(w.cells, w.ncells, w.c.gated, o.alpha, o.fail_pct, &w.tally);
	header(f, &w.c);
	walk(&w, f, true);
	if (w.ncells > nrun)
		zc_cmp_ratio_rows(f, &w.c, w.cells + nrun, w.ratio_sides, w.ncells - nrun);
	list_unmatched(&w, f);
	if (w.any_untested)
		fprintf(f, "\nnote: n too small = fewer than %d ok samples (or complete pairs) on a "
			   "side: no interval, never \"unchanged\"\n", ZC_INTERVAL_MIN_N);
	if (!isnan(o.fail_pct))
		ret = zc_cmp_gate_summary(f, &w.c, w.cells, w.ncells, &w.tally, w.lost, w.empty_sides,
					  o.pass_cant_tell);
	if (w.oom) {
		zc_err("compare: out of memory");
		ret = ZC_EXIT_FAIL;
	}
out:
	for (int i = 0; i < nfiles; i++)
		json_decref(roots[i]);
	json_decref(w.noise);
	free(w.cells);
	free(w.ratio_sides);
	json_decref(keys);
	json_decref(seen);
	return ret;
}
