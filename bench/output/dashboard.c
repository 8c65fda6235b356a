// SPDX-License-Identifier: GPL-2.0
/* The dashboard page; index.html with the pictures, the ratios, the runs and the fingerprint, readable offline. */
#include "results/results.h"
#include "output/report.h"
#include "output/plot.h"
#include "lib/stats.h"
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
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
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

static void html_ratios(FILE *f, json_t *root)
{
	const char *ks = zc_an_kernel_side(root);
	const char *native = !ks ? "this kernel" : !strcmp(ks, "after") ? "after (measured)" :
			     "before (measured)";
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root, "runs"), ZC_PAIRS_AFTER, &pv);

	fprintf(f, "<table id=\"headline\">\n<tr><th>ratio</th><th class=\"t\">side</th><th>chunk</th>"
		   "<th>pipe</th><th>Gbps/core ratio</th><th>95%% CI (bootstrap)</th>"
		   "<th>numerator Gbps/core</th><th>denominator Gbps/core</th><th>n</th></tr>\n");
	for (size_t i = 0; i < n; i++) {
		json_t *k = json_object_get(pv[i].run, "key");
		struct zc_ratio r;
		char chunk[24], pipe[24];

		zc_an_ratio(pv[i].run, pv[i].peer_run, &r);
		zc_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
		zc_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
		fprintf(f, "<tr%s><td>%s</td><td class=\"t\">%s</td><td>%s</td><td>%s</td>",
			pv[i].principal ? " class=\"principal\"" : "", pv[i].name,
			pv[i].kind == ZC_PAIR_AFTER ? "after (emulated)" : native, chunk, pipe);
		if (isnan(r.value))
			fprintf(f, "<td>n/a</td><td></td>");
		else
			fprintf(f, "<td>%.2f&times;</td><td>%.2f&ndash;%.2f</td>", r.value, r.lo, r.hi);
		fprintf(f, "<td>%.2f</td><td>%.2f</td><td>%zu/%zu</td></tr>\n", r.num_gpc, r.den_gpc,
			r.nn, r.nd);
	}
	if (!n)
		fprintf(f, "<tr><td colspan=\"9\">no pair of runs for a headline ratio</td></tr>\n");
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

int zc_write_index(struct plot_ctx *c, const int *order)
{
	static const char *const figs[][2] = {
		{ "bars", "Gbps per core by data path and chunk size (latest results)" },
		{ "chunk", "Gbps per core against chunk size (latest results)" },
		{ "before_after", "Before and after: native path against its emulated after mode" },
		{ "history", "History: Gbps per core of every results file" },
		{ "scale", "Scaling: Gbps and Gbps per core against the DUT's workers (latest results)" },
	};
	json_t *root = c->roots[c->latest];
	char path[PATH_MAX], tmp[PATH_MAX], fp[8192], fpid[512], url[PATH_MAX * 3];
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", c->outdir);
	snprintf(tmp, sizeof(tmp), "%s/.index.html.tmp", c->outdir);
	f = fopen(tmp, "w");
	if (!f) {
		zc_err("plot: %s: %s", tmp, strerror(errno));
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
	fprintf(f, ".</p>\n");
	html_fingerprint(f, root, fp, fpid);
	fprintf(f, "<h2>Headline</h2>\n<p>Ratio of Gbps per core (median over median of "
		   "repetitions), 95%% percentile bootstrap CI (%d resamples, fixed seed).</p>\n",
		ZC_BOOT_ROUNDS);
	html_ratios(f, root);
	fprintf(f, "<h2>Runs</h2>\n");
	html_runs(f, root);
	fprintf(f, "<h2>Plots</h2>\n");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(figs); i++)
		fprintf(f, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s\"></a>"
			   "<figcaption>%s (<a href=\"%s.csv\">csv</a>, <a href=\"%s.svg\">svg</a>)"
			   "</figcaption></figure>\n", figs[i][0], figs[i][0], figs[i][1], figs[i][1],
			figs[i][0], figs[i][0]);
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
	if (fclose(f) || rename(tmp, path)) {
		zc_err("plot: %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
