// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench compare BASE.json NEW.json [more.json ...]: the A/B table kernel
 * people paste into a mail, in the 0-day robot's layout (lkp) or mmtests'
 * compare-kernels layout, with a significance test on the raw samples and a
 * regression gate for nightly CI (exit 1).
 */
#include "results/results.h"
#include "output/report.h"
#include "lib/stats.h"
#include "lib/opt.h"
#include "lib/zcbench.h"
#include "metrics/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 16

enum layout { LAYOUT_LKP, LAYOUT_MMTESTS };

struct cmp_opts {
	enum layout layout;
	enum zc_test_kind test;
	double alpha;
	double fail_pct;	/* NaN: no gate */
	const char *metrics;	/* comma list, NULL: every metric */
};

struct side {
	json_t *run;
	double v[ZC_SAMPLES_MAX];
	size_t n;
	struct zc_summary s;
};

/* One metric of one run, base against one other file. */
struct verdict {
	double change;		/* percent, or absolute points for percent metrics */
	struct zc_test t;
	bool tested;		/* both sides had ZC_TEST_MIN_N samples */
	bool significant;	/* tested and p < alpha */
	bool robot;		/* medians outside each other's min..max */
	int direction;		/* +1 better, -1 worse, 0 neither/no change */
};

struct cmp_files {
	char *paths[MAX_FILES];
	int n;
};

#define AT(field) ZC_OPT_AT(struct cmp_opts, field)
static const struct zc_opt cmp_optv[] = {
	{ "format", ZC_OPT_CHOICE, "lkp", AT(layout), .choices = "lkp|mmtests",
	  .help = "lkp: 0-day robot table, base mean +-stddev%, %change, new mean +-stddev%; "
		  "mmtests: compare-kernels, Hmean/Amean, gain % (positive = better), *significant*" },
	{ "test", ZC_OPT_CHOICE, "mwu", AT(test), .choices = "mwu|welch",
	  .help = "Mann-Whitney U on the raw samples, or Welch's t-test" },
	{ "alpha", ZC_OPT_DOUBLE, "0.05", 1e-9, 0.999, AT(alpha), .meta = "P",
	  .help = "significance level" },
	{ "metrics", ZC_OPT_TEXT, NULL, AT(metrics), .meta = "LIST",
	  .help = "only these metrics, comma list (shown and gated); default all" },
	{ "fail-on-regression", ZC_OPT_DOUBLE, NULL, 0, 1e9, AT(fail_pct), .meta = "PCT",
	  .help = "exit 1 if a significant change in the bad direction is larger than PCT "
		  "percent (percent metrics: PCT points)" },
};
static const struct zc_opt cmp_files_optv[] = {
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 2, MAX_FILES, ZC_OPT_AT(struct cmp_files, paths),
	  ZC_OPT_POS, .count_off = offsetof(struct cmp_files, n),
	  .help = "BASE.json then NEW.json [more.json ...]" },
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

static json_t *find_run(json_t *root, const char *key)
{
	json_t *run;
	size_t i;
	char k[512];

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		zc_an_key(run, k, sizeof(k));
		if (!strcmp(k, key))
			return run;
	}
	return NULL;
}

static void judge(const struct cmp_opts *o, const struct zc_metric *m, struct side *b,
		  struct side *n, struct verdict *v)
{
	bool pct = zc_metric_is_pct(m);
	int ret;

	memset(v, 0, sizeof(*v));
	v->change = pct ? n->s.mean - b->s.mean :
		    b->s.mean != 0 ? 100 * (n->s.mean - b->s.mean) / fabs(b->s.mean) : NAN;
	ret = o->test == ZC_TEST_WELCH ? zc_welch(b->v, b->n, n->v, n->n, &v->t) :
					 zc_mann_whitney(b->v, b->n, n->v, n->n, &v->t);
	v->tested = !ret;
	v->significant = v->tested && v->t.p < o->alpha;
	v->robot = b->n && n->n &&
		   (n->s.median < b->s.min || n->s.median > b->s.max) &&
		   (b->s.median < n->s.min || b->s.median > n->s.max);
	if (m->higher_is_better >= 0 && isfinite(v->change) && v->change != 0)
		v->direction = (v->change > 0) == (m->higher_is_better == 1) ? 1 : -1;
}

static void fmt_value(double x, char *out, size_t len)
{
	double a = fabs(x);

	if (isnan(x))
		snprintf(out, len, "-");
	else if (a >= 1e6)
		snprintf(out, len, "%.3e", x);
	else if (a >= 100)
		snprintf(out, len, "%.1f", x);
	else if (a >= 0.01 || a == 0)
		snprintf(out, len, "%.2f", x);
	else
		snprintf(out, len, "%.4f", x);
}

/* lkp prints "± 3%" only where there is spread worth a percent. */
static void fmt_sd(const struct side *s, char *out, size_t len)
{
	double pct = s->s.mean != 0 ? 100 * s->s.stddev / fabs(s->s.mean) : NAN;

	if (s->n < 2 || !isfinite(pct) || pct < 0.5)
		snprintf(out, len, "%5s", "");
	else
		snprintf(out, len, "±%3.0f%%", pct);
}

static void fmt_p(const struct verdict *v, char *out, size_t len)
{
	const char *name = v->t.kind == ZC_TEST_WELCH ? "t" : "U";

	if (!v->tested)
		snprintf(out, len, "n too small");
	else
		snprintf(out, len, "%s p=%.3f%s", name, v->t.p,
			 v->t.kind == ZC_TEST_MWU && !v->t.exact ? " approx" : "");
}

static void fill_side(struct side *s, json_t *run, const char *metric)
{
	s->run = run;
	s->n = run ? zc_an_values(run, metric, s->v, ZC_SAMPLES_MAX) : 0;
	zc_summarize(s->v, s->n, &s->s);
}

static void header(FILE *f, const struct cmp_opts *o, char **paths, json_t **roots, int nfiles)
{
	for (int i = 0; i < nfiles; i++) {
		char fp[256], id[512];

		zc_an_fingerprint(roots[i], fp, sizeof(fp), id, sizeof(id));
		fprintf(f, "# %-5s %s: kernel %s, host %s, %s, fingerprint %s\n",
			i ? "new" : "base", paths[i], zc_an_kernel(roots[i]),
			zc_an_hostname(roots[i]), zc_an_date(roots[i]), id);
	}
	fprintf(f, "# test: %s, two-sided, alpha %g%s\n",
		o->test == ZC_TEST_WELCH ? "Welch's t" : "Mann-Whitney U on raw samples", o->alpha,
		o->layout == LAYOUT_LKP ?
			"; robot: medians outside each other's min..max" : "");
	if (o->layout == LAYOUT_MMTESTS)
		fprintf(f, "# gain %%: positive is better (mmtests' convention), *x%%* significant\n");
	fprintf(f, "\n");
}

/* Column title: the file's base name, or "base"/"new N" when it does not fit
 * (the full names are in the # lines above the table). */
static const char *file_label(const char *path, int idx, size_t width, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t l;

	b = b ? b + 1 : path;
	l = strlen(b);
	if (l > 5 && !strcmp(b + l - 5, ".json"))
		l -= 5;
	if (l <= width)
		snprintf(buf, len, "%.*s", (int)l, b);
	else if (idx)
		snprintf(buf, len, "new %d", idx);
	else
		snprintf(buf, len, "base");
	return buf;
}

int zc_cmd_compare(int argc, char **argv)
{
	struct cmp_opts o = { .fail_pct = NAN };	/* no gate unless asked */
	static struct cmp_files files;
	char **paths = files.paths;
	json_t *roots[MAX_FILES] = { 0 }, *keys = json_array(), *seen = json_object(), *run;
	static struct side sides[MAX_FILES];
	int nfiles = 0, ret = ZC_EXIT_OK, regressions = 0;
	size_t i;
	bool any_untested = false, weak_n = false;
	double min_p = 0;
	FILE *f = stdout;
	const struct zc_optgroup groups[] = {
		{ .opts = cmp_optv, .n = ZC_ARRAY_SIZE(cmp_optv), .base = &o },
		{ .opts = cmp_files_optv, .n = ZC_ARRAY_SIZE(cmp_files_optv), .base = &files },
	};
	const struct zc_cmdline cmdline = {
		.name = "compare", .groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
		.about = "Runs are matched by workload key (topology, modes, chunk, pipe size, connections).\n"
			 "Exit: 0 ok, 1 regression past the gate, 2 bad usage or unreadable file.\n",
	};

	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		goto out;
	ret = ZC_EXIT_OK;
	nfiles = files.n;
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

	header(f, &o, paths, roots, nfiles);
	if (o.layout == LAYOUT_LKP) {
		char lab[64];

		fprintf(f, "%16s", file_label(paths[0], 0, 16, lab, sizeof(lab)));
		for (int i = 1; i < nfiles; i++)
			fprintf(f, " %27s", file_label(paths[i], i, 27, lab, sizeof(lab)));
		fprintf(f, "\n----------------");
		for (int i = 1; i < nfiles; i++)
			fprintf(f, " ---------------------------");
		fprintf(f, "\n         %%stddev");
		for (int i = 1; i < nfiles; i++)
			fprintf(f, "     %%change         %%stddev");
		fprintf(f, "\n             \\  ");
		for (int i = 1; i < nfiles; i++)
			fprintf(f, "        |                \\  ");
		fprintf(f, "\n");
	} else {
		char lab[64];

		fprintf(f, "%-56s", "");
		for (int i = 0; i < nfiles; i++)
			fprintf(f, " %22.22s", zc_an_kernel(roots[i]));
		fprintf(f, "\n%-56s", "");
		for (int i = 0; i < nfiles; i++)
			fprintf(f, " %22.22s", file_label(paths[i], i, 22, lab, sizeof(lab)));
		fprintf(f, "\n");
	}

	json_t *kv;

	json_array_foreach(keys, i, kv) {
		const char *key = json_string_value(kv);
		json_t *runs[MAX_FILES];
		const char *name = NULL;
		int present = 0;

		for (int fi = 0; fi < nfiles; fi++) {
			runs[fi] = find_run(roots[fi], key);
			present += !!runs[fi];
			if (runs[fi] && !name)
				name = zc_an_str(runs[fi], "name");
		}
		if (!runs[0] || present < 2)
			continue; /* listed below */
		int lines = 0;

		if (o.layout == LAYOUT_LKP)
			fprintf(f, "\n%16s  # %s (%s)\n", "", key, name);
		for (size_t m = 0; m < zc_nmetrics; m++) {
			const struct zc_metric *mt = &zc_metrics[m];
			char full[160], bv[32], bsd[16];

			if (!metric_wanted(&o, mt->key))
				continue;
			for (int fi = 0; fi < nfiles; fi++)
				fill_side(&sides[fi], runs[fi], mt->key);
			if (!sides[0].n) {
				int any = 0;

				for (int fi = 1; fi < nfiles; fi++)
					any |= sides[fi].n > 0;
				if (!any)
					continue; /* metric absent everywhere (run failed) */
			}
			lines++;
			snprintf(full, sizeof(full), "%s.%s", name, mt->key);
			if (o.layout == LAYOUT_LKP) {
				fmt_value(sides[0].s.mean, bv, sizeof(bv));
				fmt_sd(&sides[0], bsd, sizeof(bsd));
				fprintf(f, "%10s %5s", bv, bsd);
			} else {
				fmt_value(mt->higher_is_better == 1 ? zc_hmean(sides[0].v, sides[0].n) :
								      sides[0].s.mean, bv, sizeof(bv));
				fprintf(f, "%-9s %-46.46s %12s (%7.2f%%)",
					mt->higher_is_better == 1 ? "Hmean" : "Amean", full, bv, 0.0);
			}
			char notes[256] = "";
			size_t nl = 0;

			for (int fi = 1; fi < nfiles; fi++) {
				struct verdict v;
				char nv[32], nsd[16], ch[32], ps[48];

				if (!runs[fi]) {
					fprintf(f, o.layout == LAYOUT_LKP ? " %27s" : " %22s", "(missing)");
					continue;
				}
				judge(&o, mt, &sides[0], &sides[fi], &v);
				fmt_p(&v, ps, sizeof(ps));
				if (!v.tested) {
					any_untested = true;
				} else if (v.t.kind == ZC_TEST_MWU && sides[0].n <= ZC_MWU_EXACT_MAX &&
					   sides[fi].n <= ZC_MWU_EXACT_MAX) {
					double mp = zc_mann_whitney_min_p(sides[0].n, sides[fi].n);

					if (mp >= o.alpha) {
						weak_n = true;
						min_p = fmax(min_p, mp);
					}
				}
				if (o.layout == LAYOUT_LKP) {
					fmt_value(sides[fi].s.mean, nv, sizeof(nv));
					fmt_sd(&sides[fi], nsd, sizeof(nsd));
					if (!isfinite(v.change))
						snprintf(ch, sizeof(ch), "-");
					else if (zc_metric_is_pct(mt))
						snprintf(ch, sizeof(ch), "%+.1f", v.change);
					else
						snprintf(ch, sizeof(ch), "%+.1f%%", v.change);
					fprintf(f, " %10s %10s %5s", ch, nv, nsd);
					nl += snprintf(notes + nl, sizeof(notes) - nl, "%s%s%s%s",
						       nl ? "; " : "", ps,
						       v.robot ? ", medians outside ranges" : "",
						       v.significant && v.robot ?
							       (v.direction < 0 ? ": REGRESSION" :
							        v.direction > 0 ? ": improvement" : "") : "");
				} else {
					/* The gain of the statistic shown: Hmean for throughputs. */
					double bc = mt->higher_is_better == 1 ?
						    zc_hmean(sides[0].v, sides[0].n) : sides[0].s.mean;
					double nc = mt->higher_is_better == 1 ?
						    zc_hmean(sides[fi].v, sides[fi].n) : sides[fi].s.mean;
					double gain = zc_metric_is_pct(mt) ? nc - bc :
						      bc != 0 ? 100 * (nc - bc) / fabs(bc) : NAN;

					if (mt->higher_is_better == 0)
						gain = -gain;
					fmt_value(nc, nv, sizeof(nv));
					if (!isfinite(gain))
						fprintf(f, " %12s (%8s)", nv, "-");
					else if (v.significant)
						fprintf(f, " %12s *%7.2f%%*", nv, gain);
					else
						fprintf(f, " %12s (%7.2f%%)", nv, gain);
					if (!v.tested)
						nl += snprintf(notes + nl, sizeof(notes) - nl, "%sn too small",
							       nl ? "; " : "");
				}
				if (nl >= sizeof(notes))
					nl = sizeof(notes) - 1;
				if (!isnan(o.fail_pct) && v.significant && v.direction < 0 &&
				    fabs(v.change) > o.fail_pct) {
					regressions++;
					zc_err("compare: REGRESSION %s: %s %s %+.1f%s (%s, gate %g%s)",
					       paths[fi], key, mt->key, v.change,
					       zc_metric_is_pct(mt) ? " points" : "%", ps, o.fail_pct,
					       zc_metric_is_pct(mt) ? " points" : "%");
				}
			}
			if (o.layout == LAYOUT_LKP)
				fprintf(f, "  %s  (%s)\n", full, notes);
			else
				fprintf(f, "%s%s\n", *notes ? "  " : "", notes);
		}
		if (!lines) {
			/* Failed or unavailable everywhere: say so rather than vanish. */
			fprintf(f, "%-9s %s: no ok sample on any side (status", "", name);
			for (int fi = 0; fi < nfiles; fi++)
				fprintf(f, " %s", runs[fi] ? zc_an_str(runs[fi], "status") : "missing");
			fprintf(f, ")\n");
		}
	}

	/* Runs not on every side: listed, never dropped silently. */
	bool header_done = false;

	json_array_foreach(keys, i, kv) {
		const char *key = json_string_value(kv);
		char only[512] = "";
		size_t ol = 0;
		int present = 0;

		for (int fi = 0; fi < nfiles; fi++) {
			json_t *r = find_run(roots[fi], key);

			if (r) {
				present++;
				ol += snprintf(only + ol, sizeof(only) - ol, "%s%s", ol ? ", " : "",
					       paths[fi]);
				if (ol >= sizeof(only))
					ol = sizeof(only) - 1;
			}
		}
		if (present == nfiles || (find_run(roots[0], key) && present >= 2))
			continue;
		if (!header_done) {
			fprintf(f, "\nRuns not compared (not in the base file, or in it alone):\n");
			header_done = true;
		}
		fprintf(f, "  %s: only in %s\n", key, only);
	}
	/* Keys in base and some, not all, of the others. */
	json_array_foreach(keys, i, kv) {
		const char *key = json_string_value(kv);

		if (!find_run(roots[0], key))
			continue;
		for (int fi = 1; fi < nfiles; fi++)
			if (!find_run(roots[fi], key)) {
				int present = 0;

				for (int fj = 1; fj < nfiles; fj++)
					present += !!find_run(roots[fj], key);
				if (present)
					fprintf(f, "  %s: missing in %s\n", key, paths[fi]);
			}
	}
	if (any_untested)
		fprintf(f, "\nnote: n too small = fewer than %d ok samples on a side: no test, "
			   "never significant\n", ZC_TEST_MIN_N);
	if (weak_n)
		fprintf(f, "\nnote: with these sample counts the smallest two-sided U-test p is "
			   "%.3f >= alpha %g: no change can be significant; run more repetitions "
			   "(4 against 4 reach p=0.029) or use --test welch\n", min_p, o.alpha);
	if (!isnan(o.fail_pct)) {
		fprintf(f, "\nregression gate %g%%: %d regression%s\n", o.fail_pct, regressions,
			regressions == 1 ? "" : "s");
		if (regressions)
			ret = ZC_EXIT_FAIL;
	}
out:
	for (int i = 0; i < nfiles; i++)
		json_decref(roots[i]);
	json_decref(keys);
	json_decref(seen);
	return ret;
}
