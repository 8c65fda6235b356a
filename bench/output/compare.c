// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench compare BASE.json NEW.json [more.json ...]: the A/B table kernel
 * people paste into a mail, in one of the layouts of output/compare.h (the
 * 0-day robot's lkp, mmtests' compare-kernels ...), with a significance test
 * on the raw samples and a regression gate for nightly CI (exit 1).
 */
#include "output/compare.h"
#include "output/breakdown.h"
#include "output/report.h"
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES ZC_COMPARE_FILES_MAX

#define ZC_LAYOUT_PTR(id) &zc_layout_##id,
const struct zc_compare_layout *const zc_compare_layouts[] = { ZC_COMPARE_LAYOUTS(ZC_LAYOUT_PTR) };
const size_t zc_ncompare_layouts = ZC_ARRAY_SIZE(zc_compare_layouts);

const struct zc_compare_layout *zc_compare_layout_find(const char *name)
{
	for (size_t i = 0; i < zc_ncompare_layouts; i++)
		if (!strcmp(zc_compare_layouts[i]->name, name))
			return zc_compare_layouts[i];
	return NULL;
}

void zc_compare_layout_names(char *buf, size_t len, const char *sep)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < zc_ncompare_layouts && n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? sep : "", zc_compare_layouts[i]->name);
}

struct cmp_opts {
	const char *layout_name;	/* --format, a row of ZC_COMPARE_LAYOUTS */
	const struct zc_compare_layout *layout;
	enum zc_test_kind test;
	double alpha;
	double fail_pct;	/* NaN: no gate */
	const char *metrics;	/* comma list, NULL: every metric */
};

/* A layout of the one list (compare.h), or why not with the names. */
static int check_layout(const char *v, char *why, size_t len)
{
	char names[256];

	if (zc_compare_layout_find(v))
		return 0;
	zc_compare_layout_names(names, sizeof(names), ", ");
	snprintf(why, len, "'%s' is not one of %s", v, names);
	return -EINVAL;
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

static void judge(const struct cmp_opts *o, const struct zc_metric *m, struct zc_cmp_side *b,
		  struct zc_cmp_side *n, struct zc_cmp_verdict *v)
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
	if (m->better != ZC_BETTER_NEITHER && isfinite(v->change) && v->change != 0)
		v->direction = (v->change > 0) == (m->better == ZC_BETTER_HIGHER) ? 1 : -1;
}

void zc_cmp_fmt_value(double x, char *out, size_t len)
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

void zc_cmp_fmt_p(const struct zc_cmp_verdict *v, char *out, size_t len)
{
	const char *name = v->t.kind == ZC_TEST_WELCH ? "t" : "U";

	if (!v->tested)
		snprintf(out, len, "n too small");
	else
		snprintf(out, len, "%s p=%.3f%s", name, v->t.p,
			 v->t.kind == ZC_TEST_MWU && !v->t.exact ? " approx" : "");
}

void zc_cmp_note(struct zc_cmp_notes *n, const char *fmt, ...)
{
	va_list ap;

	if (n->len) {
		n->len += snprintf(n->text + n->len, sizeof(n->text) - n->len, "; ");
		if (n->len >= sizeof(n->text))
			n->len = sizeof(n->text) - 1;
	}
	va_start(ap, fmt);
	n->len += vsnprintf(n->text + n->len, sizeof(n->text) - n->len, fmt, ap);
	va_end(ap);
	if (n->len >= sizeof(n->text))
		n->len = sizeof(n->text) - 1;
}

void zc_cmp_test_line(FILE *f, const struct zc_cmp *c, const char *suffix)
{
	fprintf(f, "# test: %s, two-sided, alpha %g%s\n",
		c->test == ZC_TEST_WELCH ? "Welch's t" : "Mann-Whitney U on raw samples", c->alpha,
		suffix);
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

const char *zc_cmp_file_label(const struct zc_cmp *c, int idx, size_t width, char *buf,
			      size_t len)
{
	const char *path = c->paths[idx], *b = strrchr(path, '/');
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
	static char about[2048];
	json_t *roots[MAX_FILES] = { 0 }, *keys = json_array(), *seen = json_object(), *run;
	static struct zc_cmp_side sides[MAX_FILES];
	struct zc_cmp c;
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
		.about = about,
	};

	/* The layouts and their help come from the one list (compare.h). */
	{
		int n = snprintf(about, sizeof(about), "Runs are matched by workload key (topology, modes, "
				 "chunk, pipe size, connections).\nExit: 0 ok, 1 regression past the "
				 "gate, 2 bad usage or unreadable file.\nLayouts:\n");

		for (size_t l = 0; l < zc_ncompare_layouts && n > 0 && (size_t)n < sizeof(about); l++)
			n += snprintf(about + n, sizeof(about) - n, "  %-9s %s\n",
				      zc_compare_layouts[l]->name, zc_compare_layouts[l]->help);
	}
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		goto out;
	ret = ZC_EXIT_OK;
	nfiles = files.n;
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

	c = (struct zc_cmp){ o.layout, o.test, o.alpha, nfiles, paths, roots };
	header(f, &c);

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

		if (o.layout->run_head)
			o.layout->run_head(f, &c, key, name);
		zc_for_each_metric(mt) {
			struct zc_cmp_notes notes = { "", 0 };
			char full[160];

			/* Sample-only metrics (window_agreement ...) when asked by name. */
			if (mt->sample_only ? !o.metrics || !metric_wanted(&o, mt->key) :
					      !metric_wanted(&o, mt->key))
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
			o.layout->row_base(f, &c, mt, full, &sides[0]);
			for (int fi = 1; fi < nfiles; fi++) {
				struct zc_cmp_verdict v;
				char ps[48];

				if (!runs[fi]) {
					o.layout->row_cell(f, &c, mt, &sides[0], &sides[fi], NULL, &notes);
					continue;
				}
				judge(&o, mt, &sides[0], &sides[fi], &v);
				zc_cmp_fmt_p(&v, ps, sizeof(ps));
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
				o.layout->row_cell(f, &c, mt, &sides[0], &sides[fi], &v, &notes);
				if (!isnan(o.fail_pct) && v.significant && v.direction < 0 &&
				    fabs(v.change) > o.fail_pct) {
					regressions++;
					zc_err("compare: REGRESSION %s: %s %s %+.1f%s (%s, gate %g%s)",
					       paths[fi], key, mt->key, v.change,
					       zc_metric_is_pct(mt) ? " points" : "%", ps, o.fail_pct,
					       zc_metric_is_pct(mt) ? " points" : "%");
				}
			}
			o.layout->row_end(f, full, &notes);
		}
		if (!o.metrics)	/* perf-profile lines (compare_profile.c), as the robot's */
			lines += zc_cmp_profile_rows(f, &c, runs, name);
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
