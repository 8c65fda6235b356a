// SPDX-License-Identifier: GPL-2.0
/*
 * compare's walk over the files: the runs matched by key, each shown
 * metric's cell judged (first pass) then printed through the layout
 * (second pass), the headline ratios' cells, the runs not compared, and the
 * text around the table. compare.c parses the command line and calls these.
 */
#include "compare/compare_int.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void fill_side(struct zc_cmp_side *s, json_t *run, const char *metric)
{
	s->run = run;
	s->n = run ? zc_an_values(run, metric, s->v, ZC_SAMPLES_MAX) : 0;
	zc_summarize(s->v, s->n, &s->s);
}

/* The files' lines, fitted; the layout's head unless nothing differs. */
static void header(FILE *f, const struct zc_cmp *c, bool table)
{
	for (int i = 0; i < c->nfiles; i++) {
		char fp[256], id[512], line[2048], many[64] = "";

		zc_an_fingerprint(c->roots[i], fp, sizeof(fp), id, sizeof(id));
		if (c->inv && c->inv[i].n)
			snprintf(many, sizeof(many), " (%zu invocations; the first's)", c->inv[i].n);
		snprintf(line, sizeof(line), "# %-5s %s%s: kernel %s, host %s, %s, fingerprint %s",
			 i ? "new" : "base", c->paths[i], many, zc_an_kernel(c->roots[i]),
			 zc_an_hostname(c->roots[i]), zc_an_date(c->roots[i]), id);
		zc_cmp_put_fitted(f, c, line, 8);
	}
	if (table)
		c->layout->head(f, c);
}


static json_t *side_run(const struct zc_cmp_walk *w, int fi, const char *key)
{
	return zc_cmp_find_run(w->c.roots[fi], key, w->occ[fi]);
}

static struct zc_cmp_cell_v *cell_push(struct zc_cmp_walk *w)
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


static void judge_cell(struct zc_cmp_walk *w, const char *key, const char *name,
		       const struct zc_metric *mt, struct zc_cmp_side *sides, int fi)
{
	struct zc_cmp_cell_v *cl = cell_push(w);
	struct zc_cmp_cell in = {
		.m = mt, .key = key, .root_b = w->c.roots[0], .root_n = w->c.roots[fi],
		.b = &sides[0], .n = &sides[fi], .pairing = w->o->pairing,
		.profile = w->profile.n ? &w->profile : NULL, .inv_b = &w->inv[0], .inv_n = &w->inv[fi],
		.alpha = w->o->alpha, .threshold_pct = w->c.threshold_pct,
	};

	if (!cl)
		return;
	zc_cmp_judge(&in, &cl->v);
	cl->m = mt;
	run_label(sides[0].run, name, cl->name, sizeof(cl->name));
	snprintf(cl->key, sizeof(cl->key), "%s", key);
	cl->path = w->c.paths[fi];
	cl->sb = sides[0].s;
	cl->sn = sides[fi].s;
	cl->v.headline = zc_cmp_headline(&w->sel, mt);
	cl->gated = !isnan(w->o->fail_pct) && cl->v.headline;
	w->c.gated += cl->gated;
	if (!cl->v.tested) {
		w->any_untested = true;
		return;
	}
	cl->v.paired ? w->c.npaired++ : w->c.nunpaired++;
	w->c.ninvocations += !cl->v.paired && cl->v.ch.invocations;
}

/* Runs of BASE with an ok sample that have none in a NEW: a gate cannot pass
 * what was not measured (every sample failed is not "0 regressions"). */
static void count_lost(struct zc_cmp_walk *w, const char *key, json_t **runs)
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

/* A sample of this run (or its profile) differs between the base and a
 * file, or the run is missing from one: the files do not hold the same
 * measurements. */
static bool run_differs(const struct zc_cmp_walk *w, json_t *const *runs)
{
	for (int fi = 1; fi < w->c.nfiles; fi++) {
		if (!runs[fi])
			return true;
		if (!json_equal(json_object_get(runs[0], "samples"),
				json_object_get(runs[fi], "samples")))
			return true;
		/* json_equal(NULL, NULL) is false: both without a profile agree. */
		if ((json_object_get(runs[0], "profile") || json_object_get(runs[fi], "profile")) &&
		    !json_equal(json_object_get(runs[0], "profile"),
				json_object_get(runs[fi], "profile")))
			return true;
	}
	return false;
}

/* A gated figure beyond the threshold the bad way, named on stderr. */
static void say_regression(const struct zc_cmp_walk *w, const struct zc_cmp_cell_v *cl)
{
	const char *u = cl->v.points ? " points" : "%";

	if (!cl->v.regression)
		return;
	zc_err("compare: REGRESSION %s: %s %s %+.1f%s, interval [%+.1f, %+.1f]%s beyond the "
	       "threshold %g%s", cl->path, cl->key, cl->m->key, cl->v.change, u,
	       zc_change_pct(&cl->v.ch, cl->v.ch.lo), zc_change_pct(&cl->v.ch, cl->v.ch.hi), u,
	       w->o->fail_pct, u);
}

/* One metric's row of a run: judged in the first pass, printed in the
 * second. Whether it had a value on some side. */
static bool metric_row(struct zc_cmp_walk *w, FILE *f, bool print, const char *key, const char *name,
		       json_t *const *runs, const struct zc_metric *mt)
{
	static struct zc_cmp_side sides[ZC_COMPARE_FILES_MAX];
	const struct zc_compare_layout *lay = w->o->layout;
	struct zc_cmp_notes notes = { "", 0 };
	char full[160];
	int any = 0;

	for (int fi = 0; fi < w->c.nfiles; fi++) {
		fill_side(&sides[fi], runs[fi], mt->key);
		any |= sides[fi].n > 0;
	}
	if (!any)
		return false; /* metric absent everywhere (run failed) */
	snprintf(full, sizeof(full), "%s.%s", name, mt->key);
	if (print)
		lay->row_base(f, &w->c, mt, full, &sides[0]);
	for (int fi = 1; fi < w->c.nfiles; fi++) {
		struct zc_cmp_cell_v *cl;

		if (!runs[fi]) {
			if (print)
				lay->row_cell(f, &w->c, mt, &sides[0], &sides[fi], NULL, &notes);
			continue;
		}
		if (!print) {
			judge_cell(w, key, name, mt, sides, fi);
			continue;
		}
		if (w->cursor >= w->ncells)
			continue;	/* out of memory in the first pass */
		cl = &w->cells[w->cursor++];
		lay->row_cell(f, &w->c, mt, &sides[0], &sides[fi], &cl->v, &notes);
		say_regression(w, cl);
	}
	if (print)
		lay->row_end(f, &w->c, full, &notes);
	return true;
}

/*
 * Both passes walk the same cells in the same order: the first judges them
 * (the gate needs every gated cell, to set their common level, before any
 * is printed), the second prints. In each run the gated figures come first
 * (compare_show.c), then the rest when asked.
 */
void zc_cmp_walk(struct zc_cmp_walk *w, FILE *f, bool print)
{
	const struct zc_cmp_opts *o = w->o;
	json_t *kv;
	size_t i;

	json_array_foreach(w->keys, i, kv) {
		const char *key = json_string_value(kv), *name = NULL;
		json_t *runs[ZC_COMPARE_FILES_MAX];
		int present = 0, lines = 0;

		for (int fi = 0; fi < w->c.nfiles; fi++) {
			runs[fi] = side_run(w, fi, key);
			present += !!runs[fi];
			if (runs[fi] && !name)
				name = zc_an_str(runs[fi], "name");
		}
		if (!print && present < w->c.nfiles)
			w->differs = true;
		if (!runs[0] || present < 2)
			continue; /* listed below */
		if (!print) {
			count_lost(w, key, runs);
			w->differs |= run_differs(w, runs);
		}
		if (print && o->layout->run_head)
			o->layout->run_head(f, &w->c, key, name);
		for (int pass = 0; pass < 2; pass++)
			zc_for_each_metric(mt)
				if (zc_cmp_shown(&w->sel, mt, pass, runs, w->c.nfiles))
					lines += metric_row(w, f, print, key, name, runs, mt);
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
static void list_unmatched(struct zc_cmp_walk *w, FILE *f)
{
	bool header_done = false;
	char line[1200];
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
		if (present < w->c.nfiles) {
			json_t *in = json_array();

			for (int fi = 0; fi < w->c.nfiles; fi++)
				if (side_run(w, fi, key))
					json_array_append_new(in, json_string(w->c.paths[fi]));
			json_array_append_new(w->unmatched, json_pack("{s:s, s:o}", "key", key,
								      "in", in));
		}
		if (present == w->c.nfiles || (side_run(w, 0, key) && present >= 2))
			continue;
		if (!header_done) {
			fprintf(f, "\nRuns not compared (not in the base file, or in it alone):\n");
			header_done = true;
		}
		snprintf(line, sizeof(line), "  %s: only in %s", key, only);
		zc_cmp_put_fitted(f, &w->c, line, 4);
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
				if (!present)
					continue;
				snprintf(line, sizeof(line), "  %s: missing in %s", key, w->c.paths[fi]);
				zc_cmp_put_fitted(f, &w->c, line, 4);
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
			snprintf(line, sizeof(line), "\nnothing compared: %s has no run of the base's keys",
				 w->c.paths[fi]);
			zc_cmp_put_fitted(f, &w->c, line, 2);
		}
	}
}

/* The sides of one file: each key's first occurrence against the later ones.
 * How many sides (0: no key occurs twice). */
int zc_cmp_sides_of_one(struct zc_cmp_walk *w, json_t *root, const char *path, char **paths,
			json_t **roots)
{
	static char labels[ZC_COMPARE_FILES_MAX][1100];
	json_t *kv;
	size_t i;
	int most = 1;

	json_array_foreach(w->keys, i, kv) {
		int n = 0;

		while (n < ZC_COMPARE_FILES_MAX && zc_cmp_find_run(root, json_string_value(kv), n))
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
void zc_cmp_add_ratio_cells(struct zc_cmp_walk *w)
{
	const struct zc_cmp_opts *o = w->o;
	const char *list = o->gate ? o->gate : o->metrics;
	bool headline = !list || zc_cmp_list_has(list, "headline");
	bool gated = !isnan(o->fail_pct) && headline;

	for (int fi = 1; fi < w->c.nfiles; fi++) {
		struct zc_cmp_cell_v *rc;
		struct zc_cmp_side *rs, *all;
		size_t n = zc_cmp_ratio_cells(w->c.roots[0], w->c.roots[fi], w->c.paths[fi],
					      &w->inv[0], &w->inv[fi], w->profile.n ? &w->profile : NULL, o->alpha, w->c.threshold_pct, gated, &rc, &rs);
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
			cl->v.headline = headline;
			cl->sb = rs[2 * k].s;
			cl->sn = rs[2 * k + 1].s;
			w->c.gated += cl->gated;
			if (!cl->v.tested)
				w->any_untested = true;
			else if (cl->v.paired)
				w->c.npaired++;
			else
				w->c.nunpaired++;
			if (cl->v.tested && !cl->v.paired && cl->v.ch.invocations)
				w->c.ninvocations++;
		}
		w->oom |= !all;
		free(rc);
		free(rs);
	}
}

/*
 * The text: the files, then the table of the gated figures (every metric
 * with --all) and the headline ratios, or when no sample differs anywhere,
 * one line saying so (the table too with --all); the runs not compared.
 */
void zc_cmp_report(struct zc_cmp_walk *w, FILE *f, size_t nrun)
{
	bool table = w->differs || w->o->all;

	header(f, &w->c, table);
	if (!w->differs) {
		char line[600];

		snprintf(line, sizeof(line), "\nThe %s hold the same measurements (every sample of "
			 "every run equal): nothing changed%s", w->c.nfiles > 2 ? "files" : "two files",
			 w->o->all ? "" : "; --all shows the table anyway");
		zc_cmp_put_fitted(f, &w->c, line, 2);
	}
	if (table) {
		zc_cmp_walk(w, f, true);
		if (w->ncells > nrun)
			zc_cmp_ratio_rows(f, &w->c, w->cells + nrun, w->ratio_sides, w->ncells - nrun);
	} else {
		/* The gate still reads every cell: its regressions are named. */
		for (size_t i = 0; i < w->ncells; i++)
			say_regression(w, &w->cells[i]);
	}
	if (table && !w->o->all && !w->o->metrics)
		zc_cmp_put_fitted(f, &w->c, "\nThe gated figures only (--gate names others); "
				  "--all shows every metric.", 2);
	list_unmatched(w, f);
	if (table && w->any_untested) {
		char line[300];

		snprintf(line, sizeof(line), "\nnote: n too small = fewer than %d ok samples (or "
			 "complete pairs) on a side: no interval, never \"unchanged\"",
			 ZC_INTERVAL_MIN_N);
		zc_cmp_put_fitted(f, &w->c, line, 2);
	}
}
