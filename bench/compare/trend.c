// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench trend FILE|DIR...: each series' change points (stats/changepoint.h),
 * the size of each step with its interval and the three answers at +-T,
 * what changed that night (kernel, its fingerprint, zcbench, the machine,
 * the workload), and with --fail-on-regression a gate on the newest nights:
 * their figure against the stretch before them, exit 0/1/3 as compare's.
 */
#include "compare/trend.h"
#include "results/results.h"
#include "stats/changepoint.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "lib/term.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


struct trend_opts {
	char *paths[ZC_TREND_NIGHTS_MAX];
	int npaths;
	double threshold, fail_pct, alpha;
	long newest;
	const char *out;
	int format;	/* FMT_* */
	bool gate, pass_cant_tell, json;
};

enum { FMT_TEXT, FMT_JSON, FMT_CSV, FMT_PROMETHEUS };

#define AT(field) ZC_OPT_AT(struct trend_opts, field)
static const struct zc_opt trend_optv[] = {
	{ "threshold", ZC_OPT_DOUBLE, "5", 0, 1000, AT(threshold), .meta = "PCT",
	  .help = "a step is judged against +-PCT percent: changed (its interval beyond), "
		  "unchanged (within), can't tell (it spans PCT)" },
	{ "fail-on-regression", ZC_OPT_DOUBLE, NULL, 0, 1000, AT(fail_pct), .meta = "PCT",
	  .help = "the gate (sets --threshold): exit 1 if a series' newest nights lie beyond PCT "
		  "percent the bad way against the nights before them, 3 if one cannot tell, 0 "
		  "when each is within +-PCT or better" },
	{ "newest", ZC_OPT_LONG, "3", 3, ZC_TREND_NIGHTS_MAX, AT(newest), .meta = "K",
	  .help = "how many newest nights the gate judges (3 at least: an interval needs 3)" },
	{ "alpha", ZC_OPT_DOUBLE, "0.05", 1e-6, 0.5, AT(alpha), .meta = "P",
	  .help = "a change point is taken at p < P (its split against shuffles of its "
		  "segment); each of the m series' gate intervals is at 1 - 2P/m, so that their "
		  "one-sided answers are wrong together at most P of the time (as two-sided "
		  "intervals: 1 - 2P)" },
	{ "pass-cant-tell", ZC_OPT_BOOL, "no", AT(pass_cant_tell),
	  .help = "exit 0, not 3, when the gate cannot tell (still said)" },
	{ "format", ZC_OPT_CHOICE, "text", AT(format), .choices = "text|json|csv|prometheus",
	  .help = "text for a reader; json: the nights, series, steps and gate; csv: an event "
		  "row per change point and per series' newest nights (dashboards' annotations); "
		  "prometheus: a gauge per step and per series' newest nights" },
	{ "json", ZC_OPT_BOOL, "no", AT(json), .help = "the same as --format json" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "PATH",
	  .help = "write the output there atomically (a regular file or a new one; - or none: "
		  "standard output)" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, ZC_TREND_NIGHTS_MAX, AT(paths), ZC_OPT_POS,
	  .count_off = offsetof(struct trend_opts, npaths),
	  .help = "results files or folders of them (their *.json), one file per night" },
};

/*
 * The gate's reading of a series: what its newest K nights say. When its
 * last step lies among them or fewer than ZC_INTERVAL_MIN_N nights before
 * them, that step is judged (the nights from it on against the stretch
 * before it): a step stays in the gate until the newest nights are all after
 * it and 3 more precede them. Otherwise the newest K nights against the
 * stretch since the last step before them (a step in the last nights, too
 * near the end for the search, still moves them).
 */
static void judge(const struct trend_opts *o, struct zc_series *s, const struct zc_cp_opts *cpo,
		  double level, struct zc_trend_v *r)
{
	size_t k = (size_t)o->newest, n = s->n;

	memset(r, 0, sizeof(*r));
	if (zc_changepoints(s->v, n, cpo, r->cp, ZC_TREND_CP_MAX, &r->ncp))
		r->ncp = 0;
	r->could_see = zc_cp_can_see(s->v, n, r->cp, r->ncp, n / 2, cpo);
	r->from = n > k ? n - k : 0;
	r->base = 0;
	if (r->ncp) {
		const struct zc_cp *last = &r->cp[r->ncp - 1];

		if (last->at + k + ZC_INTERVAL_MIN_N > n) {
			r->from = last->at;
			r->base = r->ncp > 1 ? r->cp[r->ncp - 2].at : 0;
			r->of_step = true;
		} else {
			r->base = last->at;
		}
	}
	if (n < k + ZC_INTERVAL_MIN_N)
		zc_change_pooled(NULL, 0, NULL, 0, true, level, &r->newest);
	else
		zc_change_pooled(s->v + r->base, r->from - r->base, s->v + r->from, n - r->from,
				 true, level, &r->newest);
	zc_verdict_judge(&r->newest, o->threshold / 100, &r->vd);
	r->regression = r->vd.answer == ZC_ANSWER_CHANGED &&
			(s->better == ZC_BETTER_LOWER ? r->newest.lo > 0 : r->newest.hi < 0);
}

static const char *night_label(const struct zc_night *nt, char *buf, size_t len)
{
	snprintf(buf, len, "%.10s (zcbench %.12s, kernel %s)", nt->date, nt->sha, nt->kernel);
	return buf;
}

static void print_series(FILE *f, const struct zc_trend *t, const struct zc_series *s,
			 const struct zc_trend_v *r, const struct trend_opts *o)
{
	char vs[400], lab[240], wc[1200];

	fprintf(f, "\n%s  %s  %zu nights\n", s->key, s->metric, s->n);
	if (s->notes)
		fprintf(f, "  ! %s\n", s->notes);
	for (size_t j = 0; j < r->ncp; j++) {
		const struct zc_cp *c = &r->cp[j];
		const struct zc_night *b = &t->nights[s->night[c->at]];
		const struct zc_night *a = &t->nights[s->night[c->at - 1]];
		struct zc_verdict vd;
		double gap = zc_trend_days(t, s->night[c->at - 1], s->night[c->at]);

		zc_verdict_judge(&c->step, o->threshold / 100, &vd);
		zc_verdict_fmt(&c->step, &vd, vs, sizeof(vs));
		zc_trend_what_changed(a, b, wc, sizeof(wc));
		fprintf(f, "  step at night %zu, %s: %s (p %.3f)\n", c->at + 1,
			night_label(b, lab, sizeof(lab)), vs, c->p);
		fprintf(f, "    that night: %s%s\n", wc,
			gap > ZC_TREND_GAP_DAYS ? " (after a gap of more than a week)" : "");
	}
	if (!r->ncp)
		fprintf(f, "  no step found (p < %g)\n", o->alpha);
	zc_verdict_fmt(&r->newest, &r->vd, vs, sizeof(vs));
	if (r->of_step)
		fprintf(f, "  gate, the step at night %zu is recent (among the newest %ld nights or "
			   "the 3 before them): nights %zu-%zu against %zu-%zu: %s%s%s\n", r->from + 1,
			o->newest, r->from + 1, s->n,
			r->base + 1, r->from, vs, r->regression ? "  REGRESSION" : "",
			s->better == ZC_BETTER_LOWER ? " (lower is better)" : "");
	else
		fprintf(f, "  gate, the newest %ld nights (%zu-%zu) against %zu-%zu: %s%s%s\n",
			o->newest, r->from + 1, s->n, r->base + 1, r->from, vs,
			r->regression ? "  REGRESSION" : "",
			s->better == ZC_BETTER_LOWER ? " (lower is better)" : "");
	if (r->lost)
		fprintf(f, "  ! its run was left out of night %ld, one of the newest %ld: the gate "
			   "cannot pass it\n", s->last_left + 1, o->newest);
	if (isfinite(r->could_see))
		fprintf(f, "  smallest step this series could show: %.0f%% at its middle (found "
			   "80%% of the time at the noise between its steps)\n",
			100 * expm1(r->could_see));
	else
		fprintf(f, "  too few nights to search for a step (%d each side at least)\n",
			ZC_CP_MIN_SIDE);
}

static json_t *series_json(const struct zc_trend *t, const struct zc_series *s,
			   const struct zc_trend_v *r, const struct trend_opts *o)
{
	json_t *cps = json_array(), *vals = json_array(), *js;
	char wc[1200];

	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(vals, json_pack("{s:s,s:f}", "date",
						      t->nights[s->night[i]].date, "value", s->v[i]));
	for (size_t j = 0; j < r->ncp; j++) {
		const struct zc_cp *c = &r->cp[j];
		const struct zc_night *b = &t->nights[s->night[c->at]];
		struct zc_verdict vd;

		zc_verdict_judge(&c->step, o->threshold / 100, &vd);
		zc_trend_what_changed(&t->nights[s->night[c->at - 1]], b, wc, sizeof(wc));
		json_array_append_new(cps, json_pack(
			"{s:I,s:s,s:s,s:s,s:s,s:s,s:f,s:o,s:o,s:s,s:f,s:s}", "night", (json_int_t)c->at,
			"date", b->date, "file", b->path, "sha", b->sha, "kernel", b->kernel,
			"fingerprint", b->fp, "step_pct", zc_change_pct(&c->step, c->step.d),
			"lo_pct", c->step.ok ? json_real(zc_change_pct(&c->step, c->step.lo)) : json_null(),
			"hi_pct", c->step.ok ? json_real(zc_change_pct(&c->step, c->step.hi)) : json_null(),
			"answer", zc_answer_key(vd.answer), "p", c->p, "what_changed", wc));
	}
	js = json_pack("{s:s,s:s,s:I,s:o,s:o,s:s}", "key", s->key, "metric", s->metric, "nights",
		       (json_int_t)s->n, "values", vals, "change_points", cps, "notes",
		       s->notes ? s->notes : "");
	json_object_set_new(js, "newest", json_pack("{s:I,s:s,s:o,s:o,s:o,s:b}", "nights",
		(json_int_t)o->newest, "answer", zc_answer_key(r->vd.answer),
		"change_pct", r->newest.n2 ? json_real(zc_change_pct(&r->newest, r->newest.d)) : json_null(),
		"lo_pct", r->newest.ok ? json_real(zc_change_pct(&r->newest, r->newest.lo)) : json_null(),
		"hi_pct", r->newest.ok ? json_real(zc_change_pct(&r->newest, r->newest.hi)) : json_null(),
		"regression", r->regression));
	json_object_set_new(json_object_get(js, "newest"), "left_out_night",
			    r->lost ? json_string(t->nights[s->last_left].date) : json_null());
	json_object_set_new(js, "could_see_pct", isfinite(r->could_see) ?
			    json_real(100 * expm1(r->could_see)) : json_null());
	return js;
}

/* The files left out, for --json (results/README.md: zcbench trend). */
static json_t *left_json(const struct zc_trend *t)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->nleft; i++)
		json_array_append_new(a, json_pack("{s:s,s:s}", "file", t->left[i].file, "reason",
						   t->left[i].why));
	return a;
}

static void free_files(char **files, int n)
{
	for (int i = 0; files && i < n; i++)
		free(files[i]);
	free(files);
}

/* Each file left out on stderr too, whatever the format (a CSV or an
 * exposition read by a program has its own rows for them). */
static void say_left(const struct zc_trend *t)
{
	for (size_t i = 0; i < t->nleft; i++)
		zc_warn("trend: left out %s: %s", t->left[i].file, t->left[i].why);
}

static void print_json(FILE *f, const struct zc_trend *t, const struct zc_trend_v *res,
		       const struct trend_opts *o, size_t regress, size_t cant, size_t within)
{
	json_t *root = json_pack("{s:s,s:s}", "schema", "zcbench-trend", "schema_version", "1.1");
	json_t *arr = json_array(), *nights = json_array();

	for (size_t i = 0; i < t->nnights; i++)
		json_array_append_new(nights, json_pack("{s:s,s:s,s:s,s:s,s:s}", "file",
			t->nights[i].path, "date", t->nights[i].date, "sha", t->nights[i].sha,
			"kernel", t->nights[i].kernel, "fingerprint", t->nights[i].fp));
	for (size_t i = 0; i < t->nseries; i++)
		json_array_append_new(arr, series_json(t, &t->series[i], &res[i], o));
	json_object_set_new(root, "nights", nights);
	json_object_set_new(root, "notes", json_string(t->notes ? t->notes : ""));
	json_object_set_new(root, "left_out", left_json(t));
	json_object_set_new(root, "method", json_string(
		"binary segmentation (e-divisive), pooled t on the logs, permutation p"));
	json_object_set_new(root, "threshold_pct", json_real(o->threshold));
	json_object_set_new(root, "series", arr);
	json_object_set_new(root, "gate", json_pack("{s:b,s:I,s:I,s:I}", "on", o->gate,
		"regressions", (json_int_t)regress, "cant_tell", (json_int_t)cant,
		"within", (json_int_t)within));
	json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6));
	fputc('\n', f);
	json_decref(root);
}

/* The text, each line fitted to the terminal (lib/term.h) with its
 * continuations under its own indent. */
static void print_text(FILE *out, const struct zc_trend *t, const struct zc_trend_v *res,
		       const struct trend_opts *o, const struct zc_cp_opts *cpo, double level,
		       size_t regress, size_t cant, size_t within)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		f = out;	/* out of memory: unfitted */
	fprintf(f, "trend: %zu nights, %.10s to %.10s, %zu series; change points: binary "
	       "segmentation (e-divisive's search), t on the logs, %u shuffles, p < %g; "
	       "steps judged at +-%g%%\n", t->nnights, t->nights[0].date,
	       t->nights[t->nnights - 1].date, t->nseries, cpo->perms, o->alpha, o->threshold);
	if (t->notes)
		fputs(t->notes, f);
	for (size_t i = 0; i < t->nleft; i++)
		fprintf(f, "left out %s: %s\n", t->left[i].file, t->left[i].why);
	for (size_t i = 0; i < t->nseries; i++)
		print_series(f, t, &t->series[i], &res[i], o);
	if (o->gate)
		fprintf(f, "\nGate on the newest %ld nights at +-%g%% (%zu series, each interval "
		       "at %.4g%%): %zu regressed, %zu can't tell, %zu within or better\n",
		       o->newest, o->threshold, t->nseries, 100 * level, regress, cant, within);
	if (f == out)
		return;
	fclose(f);
	zc_put_hanging(out, buf, zc_term_width(STDOUT_FILENO), 2);
	free(buf);
}

int zc_cmd_trend(int argc, char **argv)
{
	static struct trend_opts o;
	const struct zc_optgroup g = ZC_OPT_GROUP1(trend_optv, &o);
	const struct zc_cmdline cmd = {
		.name = "trend", .groups = &g, .ngroups = 1,
		.about = "A series of results files, one per night: per run key and host, each gated\n"
			 "figure's and each headline ratio's change points (binary segmentation as\n"
			 "e-divisive's, the t statistic on the logs, each split against 999 shuffles\n"
			 "of its segment), each step's size with its 95% interval and its answer at\n"
			 "+-threshold, and what changed that night. Exit codes with\n"
			 "--fail-on-regression as compare's: 0 pass, 1 regression, 2 bad input,\n"
			 "3 can't tell. A file it cannot use, or a run that failed in the newest\n"
			 "nights, is named in every format and the gate cannot pass (exit 2).\n",
	};
	struct zc_trend t;
	struct zc_cp_opts cpo;
	struct zc_trend_v *res;
	int kind = ZC_OUT_STDOUT;
	FILE *f;
	char why[1200], target[PATH_MAX], *buf = NULL;
	size_t len = 0, regress = 0, cant = 0, within = 0, lost = 0;
	char **files;
	int nfiles;
	double level;
	int ret;

	memset(&o, 0, sizeof(o));
	o.fail_pct = NAN;
	if ((ret = zc_opt_main(&cmd, argc, argv)) >= 0)
		return ret;
	o.gate = !isnan(o.fail_pct);
	if (o.out && (kind = zc_out_file(o.out, true, target, sizeof(target), why, sizeof(why))) < 0) {
		zc_err("trend: --out %s %s", o.out, why);
		return ZC_EXIT_USAGE;
	}
	if (o.gate)
		o.threshold = o.fail_pct;
	/* The files, once: --out may be none of them (checked before any is read). */
	files = calloc(ZC_TREND_NIGHTS_MAX, sizeof(*files));
	nfiles = files ? zc_trend_expand(o.paths, o.npaths, files, ZC_TREND_NIGHTS_MAX, why,
					 sizeof(why)) : -1;
	if (nfiles < 0 || (kind == ZC_OUT_FILE &&
			   zc_out_not_input(target, files, (size_t)nfiles, why, sizeof(why)))) {
		if (!files)
			zc_err("trend: %s", strerror(ENOMEM));
		else if (nfiles < 0)
			zc_err("trend: %s", why);
		else
			zc_err("trend: --out %s %s", o.out, why);
		free_files(files, nfiles);
		return ZC_EXIT_USAGE;
	}
	ret = zc_trend_load(&t, files, nfiles, why, sizeof(why));
	free_files(files, nfiles);
	say_left(&t);
	if (ret) {
		zc_err("trend: %s", why);
		zc_trend_free(&t);
		return ZC_EXIT_USAGE;
	}
	zc_cp_defaults(&cpo);
	cpo.alpha = o.alpha;
	level = 1 - 2 * o.alpha / (double)(t.nseries ? t.nseries : 1);
	res = calloc(t.nseries ? t.nseries : 1, sizeof(*res));
	if (!res) {
		zc_trend_free(&t);
		return ZC_EXIT_FAIL;
	}
	for (size_t i = 0; i < t.nseries; i++) {
		const struct zc_series *s = &t.series[i];

		judge(&o, &t.series[i], &cpo, level, &res[i]);
		res[i].lost = o.gate && s->last_left >= 0 &&
			      (size_t)s->last_left + (size_t)o.newest >= t.nnights;
		if (res[i].lost) {
			lost++;
			zc_warn("trend: %s %s: its run was left out of night %ld (%.10s), one of the "
				"newest %ld: the gate cannot pass it on the nights before", s->key,
				s->metric, s->last_left + 1, t.nights[s->last_left].date, o.newest);
		}
		regress += res[i].regression;
		cant += res[i].vd.answer == ZC_ANSWER_CANT_TELL;
		within += !res[i].regression && res[i].vd.answer != ZC_ANSWER_CANT_TELL;
	}
	if (o.json)
		o.format = FMT_JSON;
	f = kind == ZC_OUT_FILE ? open_memstream(&buf, &len) : stdout;
	if (!f) {
		zc_err("trend: %s", strerror(errno));
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	if (o.format == FMT_JSON)
		print_json(f, &t, res, &o, regress, cant, within);
	else if (o.format == FMT_CSV)
		zc_trend_csv(f, &t, res, o.threshold);
	else if (o.format == FMT_PROMETHEUS)
		zc_trend_prometheus(f, &t, res, o.threshold);
	else
		print_text(f, &t, res, &o, &cpo, level, regress, cant, within);
	if (f != stdout) {
		int w = fclose(f) ? -errno : zc_write_atomic(target, buf, len);

		free(buf);
		if (w) {
			/* The output path's fault, as when it is refused first: exit 2. */
			zc_err("trend: --out %s: %s", target, strerror(-w));
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	}
	ret = !o.gate ? ZC_EXIT_OK : regress ? ZC_EXIT_FAIL :
	      cant && !o.pass_cant_tell ? ZC_EXIT_CANT_TELL : ZC_EXIT_OK;
	/* A gate never passes on what it could not read: the file left out may
	 * be the newest night (docs/trend.md). */
	if (o.gate && t.nleft && ret != ZC_EXIT_FAIL) {
		zc_err("trend: the gate cannot judge the series: %zu file%s left out (above); "
		       "repair or remove %s", t.nleft, t.nleft == 1 ? " was" : "s were",
		       t.nleft == 1 ? "it" : "them");
		ret = ZC_EXIT_USAGE;
	} else if (lost && ret != ZC_EXIT_FAIL) {
		zc_err("trend: the gate cannot pass %zu series whose run failed in the newest "
		       "nights (above)", lost);
		ret = ZC_EXIT_USAGE;
	}
out:
	free(res);
	zc_trend_free(&t);
	return ret;
}
