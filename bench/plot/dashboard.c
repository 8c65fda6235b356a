// SPDX-License-Identifier: GPL-2.0
/* The dashboard page; index.html with the pictures, the ratios, the runs and the fingerprint, readable offline. */
#include "results/results.h"
#include "report/report.h"
#include "plot/plot.h"
#include "report/breakdown.h"
#include "metrics/metrics.h"
#include "stats/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- the dashboard page ---- */

static void html_text(FILE *f, const char *s)
{
	zc_fputs_markup(f, s, false);
}

/* Relative URL from directory `from` to file `to` (both made absolute). */
static void rel_url(const char *from, const char *to, char *out, size_t len)
{
	char a[PATH_MAX], b[PATH_MAX], rel[PATH_MAX * 2] = "";
	size_t common = 0, o = 0;

	if (!realpath(from, a) || !realpath(to, b)) {
		snprintf(out, len, "%s", to);
		return;
	}
	for (size_t i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			common = i;
	if (!a[strlen(a)] && b[strlen(a)] == '/' && !strncmp(a, b, strlen(a)))
		common = strlen(a);
	for (const char *p = a + common; *p; p++)
		if (*p == '/')
			strcat(rel, "../");
	strncat(rel, b + common + 1, sizeof(rel) - strlen(rel) - 1);
	/* Percent-encode what a URL path cannot carry as is. */
	for (const char *p = rel; *p && o + 4 < len; p++) {
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/", *p))
			out[o++] = *p;
		else
			o += snprintf(out + o, len - o, "%%%02X", (unsigned char)*p);
	}
	out[o] = 0;
}

/* A DUT's busy fraction cell, "not saturated" under ZC_SATURATED_FRAC. */
static void html_busy(FILE *f, double frac)
{
	if (isnan(frac))
		fprintf(f, "<td>-</td>");
	else if (frac < ZC_SATURATED_FRAC)
		fprintf(f, "<td class=\"below\">%.2f not saturated</td>", frac);
	else
		fprintf(f, "<td>%.2f</td>", frac);
}

/* The answer cell of a ratio against 1.0+-5%. */
static void html_answer(FILE *f, const char *answer, double value)
{
	char words[48];
	const char *cls = !strcmp(answer, "unchanged") ? "same" : !strcmp(answer, "changed") ?
			  (value > 1 ? "above" : "below") : "unknown";

	fprintf(f, "<td class=\"t %s\">%s</td>", cls,
		zc_ratio_words(answer, value, words, sizeof(words)));
}

/* Each side at its best size among those run: the fair question, first. */
static void html_best(FILE *f, json_t *root)
{
	json_t *best = zc_headline_best(json_object_get(root, "runs")), *h;
	size_t i;

	if (!json_array_size(best)) {
		json_decref(best);
		return;
	}
	fprintf(f, "<p>Each side at its best size among those run (the best median Gbps per "
		   "core; the interval leaves the choice out):</p>\n<table id=\"best\">\n<tr>"
		   "<th>ratio</th><th>numerator chunk/pipe</th><th>denominator chunk/pipe</th>"
		   "<th>Gbps/core ratio</th><th>95%% interval</th><th class=\"t\">against "
		   "1.0&plusmn;5%%</th><th title=\"pairs of rounds, else the fewer repetitions"
		   "\">n</th><th>numerator DUT busy</th><th>denominator DUT busy</th></tr>\n");
	json_array_foreach(best, i, h) {
		json_t *num = json_object_get(h, "numerator"), *den = json_object_get(h, "denominator");
		json_t *v = json_object_get(h, "value"), *lo = json_object_get(h, "lo");
		char ns[48], ds[48];

		fprintf(f, "<tr><td>%s</td><td>%s</td><td>%s</td>", zc_an_str(h, "ratio"),
			zc_an_size_of(num, ns, sizeof(ns)), zc_an_size_of(den, ds, sizeof(ds)));
		if (!json_is_number(v))
			fprintf(f, "<td>n/a</td><td></td><td class=\"t\"></td>");
		else if (!json_is_number(lo))
			fprintf(f, "<td>%.2f&times;</td><td>-</td><td class=\"t\">no interval</td>",
				json_number_value(v));
		else {
			fprintf(f, "<td>%.2f&times;</td><td>%.2f&ndash;%.2f</td>", json_number_value(v),
				json_number_value(lo), json_number_value(json_object_get(h, "hi")));
			html_answer(f, zc_an_str(h, "answer"), json_number_value(v));
		}
		fprintf(f, "<td>%lld</td>", zc_an_int(h, "n"));
		html_busy(f, json_is_number(json_object_get(h, "numerator_busy_frac")) ?
			  json_number_value(json_object_get(h, "numerator_busy_frac")) : NAN);
		html_busy(f, json_is_number(json_object_get(h, "denominator_busy_frac")) ?
			  json_number_value(json_object_get(h, "denominator_busy_frac")) : NAN);
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n<p>At each size:</p>\n");
	json_decref(best);
}

static void html_ratios(FILE *f, json_t *root)
{
	const char *ks = zc_an_kernel_side(root);
	const char *native = !ks ? "this kernel" : !strcmp(ks, "after") ? "after (measured)" :
			     "before (measured)";
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), ZC_PAIRS_AFTER, &pv);

	fprintf(f, "<table id=\"headline\">\n<tr><th>ratio</th><th class=\"t\">side</th><th>chunk</th>"
		   "<th>pipe</th><th>Gbps/core ratio</th><th>95%% interval</th>"
		   "<th class=\"t\">against 1.0&plusmn;5%%</th>"
		   "<th title=\"repetitions: numerator/denominator\">n</th>"
		   "<th>numerator DUT busy</th><th>denominator DUT busy</th>"
		   "<th>numerator Gbps/core</th><th>denominator Gbps/core</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		struct zc_ratio r;
		char chunk[24], pipe[24];

		zc_an_ratio(pv[i].run, pv[i].peer_run, &r);
		zc_an_fmt_size(pv[i].chunk, chunk, sizeof(chunk));
		zc_an_fmt_size(pv[i].pipe_size, pipe, sizeof(pipe));
		fprintf(f, "<tr%s><td>%s</td><td class=\"t\">%s</td><td>%s</td><td>%s</td>",
			pv[i].principal ? " class=\"principal\"" : "", pv[i].name,
			pv[i].kind == ZC_PAIR_AFTER ? "after (emulated)" : native, chunk, pipe);
		if (isnan(r.value))
			fprintf(f, "<td>n/a</td><td></td><td class=\"t\"></td>");
		else if (isnan(r.lo))
			fprintf(f, "<td>%.2f&times;</td><td>-</td><td class=\"t\">no interval</td>",
				r.value);
		else {
			/* What the interval says against 1.0 is the verdict a reader
			 * wants: three answers, never two. */
			fprintf(f, "<td>%.2f&times;</td><td>%.2f&ndash;%.2f</td>", r.value, r.lo, r.hi);
			html_answer(f, zc_answer_key(r.vd.answer), r.value);
		}
		/* n and both DUTs' busy beside the verdict: what it rests on. */
		fprintf(f, "<td>%zu/%zu</td>", r.nn, r.nd);
		html_busy(f, zc_an_busy_frac(pv[i].run));
		html_busy(f, zc_an_busy_frac(pv[i].peer_run));
		fprintf(f, "<td>%.2f</td><td>%.2f</td></tr>\n", r.num_gpc, r.den_gpc);
	}
	if (!n)
		fprintf(f, "<tr><td colspan=\"12\">no pair of runs for a headline ratio</td></tr>\n");
	fprintf(f, "</table>\n");
	free(pv);
}

static void html_runs(FILE *f, json_t *root)
{
	json_t *run;
	size_t i;

	fprintf(f, "<table id=\"runs\">\n<tr><th>run</th><th class=\"t\">key</th><th>Gbps/core median</th>"
		   "<th>min</th><th>max</th><th>n</th><th>status</th></tr>\n");
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		struct gpc g;
		char key[512];

		zc_gpc_of(run, &g);
		zc_an_key(run, key, sizeof(key));
		fprintf(f, "<tr><td>");
		html_text(f, zc_an_str(run, "name"));
		fprintf(f, "</td><td class=\"t\">");
		html_text(f, key);
		if (g.n)
			fprintf(f, "</td><td>%.2f</td><td>%.2f</td><td>%.2f</td><td>%zu</td><td>",
				g.median, g.min, g.max, g.n);
		else
			fprintf(f, "</td><td>-</td><td>-</td><td>-</td><td>0</td><td>");
		html_text(f, zc_an_str(run, "status"));
		if (json_is_true(json_object_get(run, "emulated")))
			fprintf(f, " (emulated)");
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* The probe's label and verdicts in plain words; the whole object folded. */
static void html_fingerprint(FILE *f, json_t *root, const char *fp, const char *fpid)
{
	json_t *verdicts = json_object_get(json_object_get(root, "fingerprint"), "verdicts"), *v;
	size_t i;

	fprintf(f, "<p id=\"fingerprint\">Kernel fingerprint: <b>");
	html_text(f, fpid);
	fprintf(f, "</b>");
	if (zc_an_kernel_side(root))
		fprintf(f, " &mdash; behaves like the <b>%s</b> side", zc_an_kernel_side(root));
	fprintf(f, "</p>\n");
	if (json_array_size(verdicts)) {
		fprintf(f, "<ul>\n");
		json_array_foreach(verdicts, i, v) {
			fprintf(f, "<li>");
			html_text(f, json_string_value(v) ? json_string_value(v) : "?");
			fprintf(f, "</li>\n");
		}
		fprintf(f, "</ul>\n");
	}
	if (strcmp(fp, "none")) {
		fprintf(f, "<details><summary>fingerprint JSON</summary><pre>");
		html_text(f, fp);
		fprintf(f, "</pre></details>\n");
	}
}

static bool drawn(struct plot_ctx *c, const char *name)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s.png", c->outdir, name);
	return !access(p, R_OK);
}

/* The pictures this file has no data for, and why: said, not drawn empty. */
static void html_not_drawn(FILE *f, struct plot_ctx *c)
{
	if (!*c->skipped)
		return;
	fprintf(f, "<p>Not drawn (no data for them in these results):</p>\n<ul id=\"not-drawn\">\n");
	for (char *s = c->skipped, *nl; *s && (nl = strchr(s, '\n')); s = nl + 1) {
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)(nl - s), s);
		fprintf(f, "<li>");
		html_text(f, line);
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ul>\n");
}

/* Each profiled run: its buckets and its flame graph (drawn by plot from the
 * folded stacks the results file names). */
static void html_profiles(FILE *f, struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run, *p;
	size_t i;

	if (!zc_an_any_profile(runs))
		return;
	fprintf(f, "<h2>Profiles</h2>\n<p>Where the DUT core goes in the window, %% of the "
		   "profile's samples by bucket (bench/profile/buckets.c); the flame graph of each "
		   "run is a static SVG (hover a box for its name and share).</p>\n"
		   "<table id=\"profiles\">\n<tr><th>run</th><th class=\"t\">key</th>");
	for (int b = 0; b < ZC_BUCKET_NR; b++)
		fprintf(f, "<th>%s</th>", zc_buckets[b].label);
	fprintf(f, "<th>samples</th><th class=\"t\">event</th><th class=\"t\">flame graph</th></tr>\n");
	json_array_foreach(runs, i, run) {
		char key[512], svg[PATH_MAX];

		if (!(p = zc_an_profile(run)))
			continue;
		zc_an_key(run, key, sizeof(key));
		fprintf(f, "<tr><td>");
		html_text(f, zc_an_str(run, "name"));
		fprintf(f, "</td><td class=\"t\">");
		html_text(f, key);
		fprintf(f, "</td>");
		for (int b = 0; b < ZC_BUCKET_NR; b++)
			fprintf(f, "<td>%.1f</td>", zc_an_bucket(run, b));
		fprintf(f, "<td>%lld</td><td class=\"t\" title=\"", zc_an_int(p, "samples"));
		html_text(f, zc_an_str(p, "event_note"));
		fprintf(f, "\">");
		html_text(f, zc_an_str(p, "event"));
		snprintf(svg, sizeof(svg), "%s/flame-%zu.svg", c->outdir, i);
		if (!access(svg, R_OK)) {
			fprintf(f, "</td><td class=\"t\"><a class=\"flame\" href=\"flame-%zu.svg\">"
				   "flame graph</a></td></tr>\n", i);
		} else {
			fprintf(f, "</td><td class=\"t\">stacks not found: ");
			html_text(f, zc_an_str(p, "folded"));
			fprintf(f, "</td></tr>\n");
		}
	}
	fprintf(f, "</table>\n");
}

int zc_write_index(struct plot_ctx *c, const int *order)
{
	json_t *root = c->roots[c->latest];
	char path[PATH_MAX], tmp[PATH_MAX], fp[8192], fpid[512], url[PATH_MAX * 3], gitlab[80];
	FILE *f;
	int fd, ret;

	snprintf(path, sizeof(path), "%s/index.html", c->outdir);
	/* A temp file beside it, renamed over it whole (lib/outpath.h). */
	if ((fd = zc_out_temp(path, tmp, sizeof(tmp))) < 0 || !(f = fdopen(fd, "w"))) {
		zc_err("plot: %s: %s", path, strerror(fd < 0 ? -fd : errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return -1;
	}
	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<title>zcbench: Gbps per core of Linux zero-copy data paths</title>\n"
		   "<link rel=\"icon\" href=\"data:,\">\n"
		   "<style>\nbody{font-family:sans-serif;margin:1.5em;max-width:1300px}\n"
		   "table{border-collapse:collapse;margin:.5em 0 1.5em}\n"
		   "td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}\n"
		   "td:first-child,th:first-child,td.t,th.t{text-align:left}\n"
		   "tr.principal{font-weight:bold}\nimg{max-width:100%%;border:1px solid #ddd}\n"
		   "td.above{color:#1a7f1a}\ntd.below{color:#b00000}\ntd.same{color:#1f4e9e}\ntd.unknown{color:#666}\n"
		   "figure{margin:1em 0}\ncode{font-size:90%%}\n"
		   "pre{white-space:pre-wrap;word-break:break-all;font-size:80%%}\n</style>\n</head>\n<body>\n");
	fprintf(f, "<h1>zcbench: Gbps per core of Linux zero-copy data paths</h1>\n<p>Latest results: <code>");
	html_text(f, c->paths[c->latest]);
	fprintf(f, "</code>, host <b>");
	html_text(f, zc_an_hostname(root));
	fprintf(f, "</b>, kernel <b>");
	html_text(f, zc_an_kernel(root));
	fprintf(f, "</b>, ");
	html_text(f, zc_an_date(root));
	fprintf(f, ", measured by zcbench <code id=\"provenance\">");
	html_text(f, zc_an_git_label(root, gitlab, sizeof(gitlab)));
	fprintf(f, "</code> (from the results file).</p>\n");
	html_fingerprint(f, root, fp, fpid);
	fprintf(f, "<h2>Headline</h2>\n<p>Ratio of Gbps per core (the geometric mean of the "
		   "per-round ratios when both runs were taken in rounds, else the ratio of the "
		   "geometric means), its 95%% interval (Student's t on the logs; none below 3 "
		   "rounds), and what the interval says against 1.0&plusmn;%g%%: above, below, "
		   "within, or can't tell (it spans a bound).</p>\n", 100 * ZC_RATIO_THRESHOLD);
	html_best(f, root);
	html_ratios(f, root);
	fprintf(f, "<h2>Runs</h2>\n");
	html_runs(f, root);
	fprintf(f, "<h2>Plots</h2>\n");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_plot_figs); i++)
		if (drawn(c, zc_plot_figs[i][0]))
			fprintf(f, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s\"></a>"
			   "<figcaption>%s (<a href=\"%s.csv\">csv</a>, <a href=\"%s.svg\">svg</a>)"
			   "</figcaption></figure>\n", zc_plot_figs[i][0], zc_plot_figs[i][0],
			zc_plot_figs[i][1], zc_plot_figs[i][1], zc_plot_figs[i][0], zc_plot_figs[i][0]);
	html_not_drawn(f, c);
	html_profiles(f, c);
	fprintf(f, "<h2>Results files</h2>\n<ul id=\"files\">\n");
	for (int o = c->nfiles - 1; o >= 0; o--) {
		int fi = order[o];

		rel_url(c->outdir, c->paths[fi], url, sizeof(url));
		fprintf(f, "<li><a href=\"%s\">", url);
		html_text(f, c->paths[fi]);
		fprintf(f, "</a> &mdash; ");
		html_text(f, zc_an_date(c->roots[fi]));
		fprintf(f, ", ");
		html_text(f, zc_an_hostname(c->roots[fi]));
		fprintf(f, ", kernel ");
		html_text(f, zc_an_kernel(c->roots[fi]));
		fprintf(f, "</li>\n");
	}
	/* Lets a headless browser test tell loaded images from broken ones. */
	fprintf(f, "</ul>\n<script>\nwindow.addEventListener('load', function () {\n"
		   "  var imgs = document.images, ok = 0;\n"
		   "  for (var i = 0; i < imgs.length; i++)\n"
		   "    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;\n"
		   "  document.body.setAttribute('data-images-loaded', ok + '/' + imgs.length);\n"
		   "});\n</script>\n</body>\n</html>\n");
	ret = fflush(f) || fsync(fd) || fchmod(fd, 0644) ? -errno : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		unlink(tmp);
	else
		ret = zc_out_install(tmp, path);
	if (ret) {
		zc_err("plot: %s: %s", path, strerror(-ret));
		return -1;
	}
	return 0;
}
