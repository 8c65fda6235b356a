// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench compare BASE.json NEW.json [more.json ...]: the A/B table kernel
 * people paste into a mail, in one of the layouts of output/compare.h (the
 * 0-day robot's lkp, mmtests' compare-kernels ...), with a significance test
 * on the raw samples and a regression gate for nightly CI (exit 1).
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
	enum zc_test_kind test;
	double alpha;
	double fail_pct;	/* NaN: no gate */
	const char *metrics;	/* comma list, NULL: every metric */
	int correction;		/* enum zc_padj */
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
	{ "test", ZC_OPT_CHOICE, "mwu", AT(test), .choices = "mwu|welch",
	  .help = "Mann-Whitney U on the raw samples, or Welch's t-test" },
	{ "alpha", ZC_OPT_DOUBLE, "0.05", 1e-9, 0.999, AT(alpha), .meta = "P",
	  .help = "significance level" },
	{ "metrics", ZC_OPT_TEXT, NULL, AT(metrics), .meta = "LIST",
	  .help = "only these metrics, comma list (shown and gated); default all" },
	{ "fail-on-regression", ZC_OPT_DOUBLE, NULL, 0, 1e9, AT(fail_pct), .meta = "PCT",
	  .help = "exit 1 if a change in the bad direction is significant after the correction, "
		  "larger than PCT percent (percent metrics: PCT points) and larger than the noise "
		  "floor; or if a run has no ok sample in NEW" },
	{ "correction", ZC_OPT_CHOICE, "holm", AT(correction), .choices = "none|holm|bh",
	  .help = "p-values corrected for the number of tests (the metrics and runs with a bad "
		  "direction): holm (family-wise), bh (Benjamini-Hochberg, false discovery rate)" },
	{ "noise", ZC_OPT_TEXT, NULL, AT(noise), .meta = "FILE",
	  .help = "noise floors from an A/A run (zcbench noise); without it the gate uses each "
		  "run's own spread (within-file) and says so" },
	{ "pairing", ZC_OPT_CHOICE, "auto", AT(pairing), .choices = "auto|rep|none",
	  .help = "auto: Wilcoxon signed-rank on pairs by repetition when both sides were taken "
		  "in rounds of one invocation; rep: pair by repetition index anyway; none: never" },
};
static const struct zc_opt cmp_files_optv[] = {
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, MAX_FILES, ZC_OPT_AT(struct cmp_files, paths),
	  ZC_OPT_POS, .count_off = offsetof(struct cmp_files, n),
	  .help = "BASE.json then NEW.json [more.json ...]; or one file holding each run key more "
		  "than once (an A/A file of zcbench noise, an A/B taken in one run): its first "
		  "occurrences against the later ones" },
};

static bool metric_wanted(const struct cmp_opts *o, const char *key)
{
	const char *p = o->metrics;
	size_t len = strlen(key);

	if (!p)
		return true;
	while (*p) {
		const char *e = strchrnul(p, ',');

		if ((size_t)(e - p) == len && !strncmp(p, key, len))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
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

/* One compared cell, in the order both passes visit them. */
struct cell {
	struct zc_cmp_verdict v;
	const struct zc_metric *m;
	bool family;		/* tested, with a bad direction: corrected and gated */
};

struct walk {
	const struct cmp_opts *o;
	struct zc_cmp c;
	int occ[MAX_FILES];	/* one file: which occurrence of a key each side is */
	json_t *keys, *noise;
	struct cell *cells;
	size_t ncells, cap, cursor;
	int regressions, lost, empty_sides;
	bool any_untested, weak_n, oom;
	double min_p;		/* the largest "smallest p" of a weak cell */
	double best_min_p;	/* the smallest p any tested cell could reach */
};

static json_t *side_run(const struct walk *w, int fi, const char *key)
{
	return find_run_occ(w->c.roots[fi], key, w->occ[fi]);
}

static struct cell *cell_push(struct walk *w)
{
	if (w->ncells == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct cell *c = realloc(w->cells, cap * sizeof(*c));

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

/* The smallest two-sided p this cell's test could give. */
static double cell_min_p(const struct zc_cmp_verdict *v, size_t nb, size_t nn)
{
	if (v->paired)
		return v->w.exact ? zc_wilcoxon_min_p(v->w.n) : 0;
	if (v->t.kind == ZC_TEST_MWU && nb <= ZC_MWU_EXACT_MAX && nn <= ZC_MWU_EXACT_MAX)
		return zc_mann_whitney_min_p(nb, nn);
	return 0;
}

static void judge_cell(struct walk *w, const char *key, const struct zc_metric *mt,
		       struct zc_cmp_side *sides, int fi)
{
	struct cell *cl = cell_push(w);
	struct zc_cmp_cell in = {
		.m = mt, .key = key, .root_b = w->c.roots[0], .root_n = w->c.roots[fi],
		.b = &sides[0], .n = &sides[fi], .pairing = w->o->pairing, .test = w->o->test,
		.noise = w->noise, .want_floor = !isnan(w->o->fail_pct),
	};
	double mp;

	if (!cl)
		return;
	zc_cmp_judge(&in, &cl->v);
	cl->m = mt;
	cl->family = cl->v.tested && mt->better != ZC_BETTER_NEITHER;
	if (!cl->v.tested) {
		w->any_untested = true;
		return;
	}
	cl->v.paired ? w->c.npaired++ : w->c.nunpaired++;
	mp = cell_min_p(&cl->v, sides[0].n, sides[fi].n);
	if (cl->family && (w->best_min_p < 0 || mp < w->best_min_p))
		w->best_min_p = mp;
	if (!cl->v.paired && mp >= w->o->alpha) {
		w->weak_n = true;
		w->min_p = fmax(w->min_p, mp);
	}
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

static void report_regression(const struct walk *w, int fi, const char *key,
			      const struct cell *cl)
{
	char ps[96], fl[64];
	bool pct = zc_metric_is_pct(cl->m);

	zc_cmp_fmt_p(&cl->v, ps, sizeof(ps));
	if (isnan(cl->v.noise_rel))
		snprintf(fl, sizeof(fl), "none");
	else
		snprintf(fl, sizeof(fl), "%.1f%% %s", 100 * cl->v.noise_rel, cl->v.noise_src);
	zc_err("compare: REGRESSION %s: %s %s %+.1f%s (%s, %s; threshold %g%s, noise floor %s)",
	       w->c.paths[fi], key, cl->m->key, cl->v.change, pct ? " points" : "%", ps,
	       zc_padj_name(w->c.correction), w->o->fail_pct, pct ? " points" : "%", fl);
}

/*
 * Both passes walk the same cells in the same order: the first judges them
 * (the correction needs every p before any is printed), the second prints.
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
				struct cell *cl;

				if (!runs[fi]) {
					if (print)
						o->layout->row_cell(f, &w->c, mt, &sides[0], &sides[fi],
								    NULL, &notes);
					continue;
				}
				if (!print) {
					judge_cell(w, key, mt, sides, fi);
					continue;
				}
				if (w->cursor >= w->ncells)
					continue;	/* out of memory in the first pass */
				cl = &w->cells[w->cursor++];
				o->layout->row_cell(f, &w->c, mt, &sides[0], &sides[fi], &cl->v, &notes);
				if (cl->v.gated && cl->v.gate.regression)
					report_regression(w, fi, key, cl);
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

/* The family's p corrected together, then the gate on each. */
static void correct_and_gate(struct walk *w)
{
	double *p = calloc(w->ncells ? w->ncells : 1, sizeof(*p));

	if (!p) {
		w->oom = true;
		return;
	}
	for (size_t i = 0; i < w->ncells; i++) {
		p[i] = w->cells[i].family ? w->cells[i].v.p : NAN;
		w->c.family += w->cells[i].family;
	}
	zc_p_adjust(p, w->ncells, w->c.correction, p);
	for (size_t i = 0; i < w->ncells; i++) {
		struct cell *cl = &w->cells[i];
		bool pct = zc_metric_is_pct(cl->m);

		/* A metric with no bad direction keeps its own p and is never gated. */
		cl->v.p_adj = cl->family ? p[i] : cl->v.p;
		cl->v.significant = cl->v.tested && cl->v.p_adj < w->o->alpha;
		if (!cl->family || isnan(w->o->fail_pct) || !isfinite(cl->v.change))
			continue;
		cl->v.gated = !zc_gate_judge(cl->v.p_adj, w->o->alpha,
					     pct ? cl->v.change : cl->v.change / 100,
					     cl->m->better == ZC_BETTER_HIGHER ? 1 : -1,
					     pct ? w->o->fail_pct : w->o->fail_pct / 100,
					     cl->v.noise_rel, &cl->v.gate);
		w->regressions += cl->v.gated && cl->v.gate.regression;
	}
	free(p);
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

int zc_cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .fail_pct = NAN };	/* no gate unless asked */
	static struct cmp_files files;
	static char about[2048];
	static struct walk w;
	char *paths[MAX_FILES];
	json_t *roots[MAX_FILES] = { 0 }, *keys = json_array(), *seen = json_object(), *run;
	int nfiles = 0, ret = ZC_EXIT_OK;
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
	for (const char *p = o.metrics; p && *p;) {
		const char *e = strchrnul(p, ',');
		char mk[64];

		snprintf(mk, sizeof(mk), "%.*s", (int)(e - p), p);
		if (!zc_metric_find(mk)) {
			zc_err("compare: --metrics: unknown metric '%s'", mk);
			ret = ZC_EXIT_USAGE;
			goto out;
		}
		p = *e ? e + 1 : e;
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
	w.best_min_p = -1;
	w.c = (struct zc_cmp){ .layout = o.layout, .test = o.test, .alpha = o.alpha,
			       .nfiles = nfiles, .paths = paths, .roots = roots,
			       .correction = (enum zc_padj)o.correction, .fail_pct = o.fail_pct,
			       .noise_path = o.noise };
	walk(&w, f, false);
	correct_and_gate(&w);
	header(f, &w.c);
	walk(&w, f, true);
	list_unmatched(&w, f);
	if (w.any_untested)
		fprintf(f, "\nnote: n too small = fewer than %d ok samples (or complete pairs) on a "
			   "side: no test, never significant\n", ZC_TEST_MIN_N);
	if (w.weak_n)
		fprintf(f, "\nnote: with these sample counts the smallest two-sided U-test p is "
			   "%.3f >= alpha %g: no change can be significant; run more repetitions "
			   "(4 against 4 reach p=0.029) or use --test welch\n", w.min_p, o.alpha);
	if (w.c.correction == ZC_PADJ_HOLM && w.c.family > 1 && w.best_min_p >= 0 &&
	    w.best_min_p * (double)w.c.family >= o.alpha)
		fprintf(f, "\nnote: holm over %zu tests: a change needs p < %.2g; the smallest p "
			   "these sample counts allow is %.3g: nothing can pass; take more "
			   "repetitions, or fewer --metrics\n", w.c.family,
			o.alpha / (double)w.c.family, w.best_min_p);
	if (!isnan(o.fail_pct)) {
		fprintf(f, "\nregression gate: threshold %g%%, noise floor %s, p corrected: %s over "
			   "%zu tests, alpha %g\n", o.fail_pct,
			o.noise ? "from the A/A file (per run and metric)" :
				  "from each run's own spread (within-file: no --noise FILE; it "
				  "cannot see what drifts between runs, so it is smaller than an "
				  "A/A floor)",
			zc_padj_name(w.c.correction), w.c.family, o.alpha);
		if (o.noise)
			fprintf(f, "  noise file: %s\n", o.noise);
		fprintf(f, "regression gate %g%%: %d regression%s", o.fail_pct, w.regressions,
			w.regressions == 1 ? "" : "s");
		if (w.lost)
			fprintf(f, ", %d run%s with no ok sample in NEW", w.lost, w.lost == 1 ? "" : "s");
		if (w.empty_sides)
			fprintf(f, ", %d file%s with nothing to compare", w.empty_sides,
				w.empty_sides == 1 ? "" : "s");
		fprintf(f, "%s\n", w.regressions || w.lost || w.empty_sides ? ": FAIL" : "");
		if (w.regressions || w.lost || w.empty_sides)
			ret = ZC_EXIT_FAIL;
	}
	if (w.oom) {
		zc_err("compare: out of memory");
		ret = ZC_EXIT_FAIL;
	}
out:
	for (int i = 0; i < nfiles; i++)
		json_decref(roots[i]);
	json_decref(w.noise);
	free(w.cells);
	json_decref(keys);
	json_decref(seen);
	return ret;
}
