// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench plot [--out DIR] FILE...: write the CSV that the plots/NAME.gp scripts read, run
 * gnuplot headless on each (pngcairo and svg), and write DIR/index.html, a
 * static dashboard that works from file:// (no server, no network).
 */
#include "results/results.h"
#include "output/report.h"
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

#define MAX_FILES 1024
#define MAX_SERIES 64

struct plot_ctx {
	const char *outdir, *scripts;
	int nfiles;
	char *paths[MAX_FILES];
	json_t *roots[MAX_FILES];
	int latest;		/* index of the newest file by meta.date */
	char caption[512];	/* kernel and host of the latest file */
	char history_caption[512];
};

/* Append to a string buffer, truncating (titles are cosmetic). */
static void __attribute__((format(printf, 3, 4))) cat_fmt(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

struct gpc {
	double median, min, max;
	size_t n;
};

static int gpc_of(json_t *run, struct gpc *g)
{
	static double v[ZC_SAMPLES_MAX];
	struct zc_summary s;

	g->n = run ? zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX) : 0;
	zc_summarize(v, g->n, &s);
	g->median = s.median;
	g->min = s.min;
	g->max = s.max;
	return g->n ? 0 : -ENODATA;
}

/* A gnuplot single-quoted string: only ' needs escaping (as ''). */
static void gp_quote(char *out, size_t len, const char *s)
{
	size_t o = 0;

	if (len < 3)
		return;
	out[o++] = '\'';
	for (; *s && o + 3 < len; s++) {
		if (*s == '\'')
			out[o++] = '\'';
		out[o++] = *s;
	}
	out[o++] = '\'';
	out[o] = 0;
}

/* 0, or -errno / the exit status of gnuplot (positive) */
static int run_gnuplot(struct plot_ctx *c, const char *script, const char *vars)
{
	char path[PATH_MAX];
	pid_t pid;
	int st;

	snprintf(path, sizeof(path), "%s/%s.gp", c->scripts, script);
	if (access(path, R_OK))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execlp("gnuplot", "gnuplot", "-e", vars, path, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int plot_both(struct plot_ctx *c, const char *script, const char *extra,
		     const char *caption)
{
	static const char *const terms[][2] = { { "pngcairo", "png" }, { "svg", "svg" } };
	char vars[16384], q_in[PATH_MAX + 8], q_out[PATH_MAX + 8], q_cap[1100], buf[PATH_MAX];
	char q_dir[PATH_MAX + 8];
	int ret;

	snprintf(buf, sizeof(buf), "%s/%s.csv", c->outdir, script);
	gp_quote(q_in, sizeof(q_in), buf);
	gp_quote(q_cap, sizeof(q_cap), caption);
	gp_quote(q_dir, sizeof(q_dir), c->scripts);
	for (size_t t = 0; t < ZC_ARRAY_SIZE(terms); t++) {
		snprintf(buf, sizeof(buf), "%s/%s.%s", c->outdir, script, terms[t][1]);
		gp_quote(q_out, sizeof(q_out), buf);
		snprintf(vars, sizeof(vars), "infile=%s; outfile=%s; term='%s'; caption=%s; scriptdir=%s; %s",
			 q_in, q_out, terms[t][0], q_cap, q_dir, extra);
		ret = run_gnuplot(c, script, vars);
		if (ret == 127) {
			zc_err("plot: gnuplot not found (make deps installs gnuplot-nox)");
			return ret;
		}
		if (ret) {
			zc_err("plot: gnuplot %s/%s.gp for %s failed (%s %d)", c->scripts, script,
			       buf, ret < 0 ? "errno" : "exit", ret < 0 ? -ret : ret);
			return ret;
		}
	}
	return 0;
}

static FILE *open_csv(struct plot_ctx *c, const char *name)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.csv", c->outdir, name);
	f = fopen(path, "w");
	if (!f)
		zc_err("plot: %s: %s", path, strerror(errno));
	return f;
}

static int add_unique_ll(long long *set, int *n, long long v)
{
	for (int i = 0; i < *n; i++)
		if (set[i] == v)
			return i;
	if (*n == MAX_SERIES)
		return -1;
	set[*n] = v;
	return (*n)++;
}

static int add_unique_str(char set[][96], int *n, const char *v)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(set[i], v))
			return i;
	if (*n == MAX_SERIES)
		return -1;
	snprintf(set[*n], 96, "%s", v);
	return (*n)++;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* Clustered bars: one row per data path, one bar per chunk size, min/max whiskers. */
static int plot_bars(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	long long chunks[MAX_SERIES];
	char labels[MAX_SERIES][96], extra[1024] = "", titles[900] = "";
	int nchunks = 0, nlabels = 0;
	size_t i;
	FILE *f;

	json_array_foreach(runs, i, run) {
		struct gpc g;
		char lab[96];

		if (gpc_of(run, &g))
			continue;
		zc_an_label(run, lab, sizeof(lab));
		add_unique_str(labels, &nlabels, lab);
		add_unique_ll(chunks, &nchunks, zc_an_int(json_object_get(run, "key"), "chunk"));
	}
	qsort(chunks, nchunks, sizeof(*chunks), cmp_ll);
	f = open_csv(c, "bars");
	if (!f)
		return -1;
	fprintf(f, "path");
	for (int k = 0; k < nchunks; k++) {
		char sz[24];

		zc_fmt_size(chunks[k], sz, sizeof(sz));
		fprintf(f, ",chunk %s median,min,max", sz);
		cat_fmt(titles, sizeof(titles), "%s%s",
			 k ? " " : "", sz);
	}
	fprintf(f, "\n");
	for (int l = 0; l < nlabels; l++) {
		fprintf(f, "%s", labels[l]);
		for (int k = 0; k < nchunks; k++) {
			struct gpc best = { NAN, NAN, NAN, 0 };

			/* Same path and chunk at several pipe sizes: the best median. */
			json_array_foreach(runs, i, run) {
				struct gpc g;
				char lab[96];

				zc_an_label(run, lab, sizeof(lab));
				if (strcmp(lab, labels[l]) ||
				    zc_an_int(json_object_get(run, "key"), "chunk") != chunks[k] ||
				    gpc_of(run, &g))
					continue;
				if (!(best.median >= g.median))
					best = g;
			}
			fprintf(f, ",%.6g,%.6g,%.6g", best.median, best.min, best.max);
		}
		fprintf(f, "\n");
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d; nrows=%d; titles='%s'", nchunks, nlabels,
		 titles);
	return plot_both(c, "bars", extra, c->caption);
}

static int count_chunks(json_t *runs)
{
	long long chunks[MAX_SERIES];
	int n = 0;
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		add_unique_ll(chunks, &n, zc_an_int(json_object_get(run, "key"), "chunk"));
	return n;
}

/* Smallest (dir < 0) or largest chunk of the runs: the x range of one point. */
static long long chunk_bound(json_t *runs, int dir)
{
	long long best = 0;
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		long long v = zc_an_int(json_object_get(run, "key"), "chunk");

		if (!best || (dir < 0 ? v < best : v > best))
			best = v;
	}
	return best ? best : 1;
}

/* Gbps per core against chunk size, one line (gnuplot index block) per path. */
static int plot_chunk(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	char labels[MAX_SERIES][96], titles[4096] = "", extra[4200];
	int nlabels = 0;
	size_t i;
	FILE *f;

	json_array_foreach(runs, i, run) {
		struct gpc g;
		char lab[96];

		if (gpc_of(run, &g))
			continue;
		zc_an_label(run, lab, sizeof(lab));
		add_unique_str(labels, &nlabels, lab);
	}
	f = open_csv(c, "chunk");
	if (!f)
		return -1;
	fprintf(f, "# one block per data path: chunk_bytes,median,min,max (Gbit/s per core)\n");
	for (int l = 0; l < nlabels; l++) {
		long long chunks[MAX_SERIES];
		int n = 0;

		json_array_foreach(runs, i, run) {
			struct gpc g;
			char lab[96];

			zc_an_label(run, lab, sizeof(lab));
			if (!strcmp(lab, labels[l]) && !gpc_of(run, &g))
				add_unique_ll(chunks, &n, zc_an_int(json_object_get(run, "key"),
								    "chunk"));
		}
		qsort(chunks, n, sizeof(*chunks), cmp_ll);
		fprintf(f, "%s# %s\n", l ? "\n\n" : "", labels[l]);
		for (int k = 0; k < n; k++) {
			struct gpc best = { NAN, NAN, NAN, 0 };

			json_array_foreach(runs, i, run) {
				struct gpc g;
				char lab[96];

				zc_an_label(run, lab, sizeof(lab));
				if (!strcmp(lab, labels[l]) &&
				    zc_an_int(json_object_get(run, "key"), "chunk") == chunks[k] &&
				    !gpc_of(run, &g) && !(best.median >= g.median))
					best = g;
			}
			fprintf(f, "%lld,%.6g,%.6g,%.6g\n", chunks[k], best.median, best.min,
				best.max);
		}
		cat_fmt(titles, sizeof(titles), "%s%s",
			 l ? " " : "", labels[l]);
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d; nchunks=%d; chunkmin=%lld; chunkmax=%lld; "
		 "titles='%s'", nlabels, count_chunks(runs), chunk_bound(runs, -1),
		 chunk_bound(runs, 1), titles);
	return plot_both(c, "chunk", extra, c->caption);
}

/* Native mode X against its emulated "after" X-as-Y, same key otherwise. */
static int plot_before_after(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run;
	const char *side;
	char extra[256];
	int rows = 0;
	size_t i;
	FILE *f = open_csv(c, "before_after");

	if (!f)
		return -1;
	fprintf(f, "path,before median,min,max,after median,min,max\n");
	json_array_foreach(runs, i, run) {
		const char *dut = zc_an_str(run, "dut");
		const char *mode = zc_an_dut_mode(run), *as = strstr(mode, "-as-");
		char native[96], lab[160], sz[24];
		struct gpc b, a;
		json_t *peer;

		if (!*dut || !as)
			continue;
		snprintf(native, sizeof(native), "%.*s", (int)(as - mode), mode);
		peer = zc_an_peer(runs, run, dut, native, false);
		if (!peer || gpc_of(run, &a) || gpc_of(peer, &b))
			continue;
		zc_fmt_size(zc_an_int(json_object_get(run, "key"), "chunk"), sz, sizeof(sz));
		/* "vmsplice / writev (source, 64k)": native, then what it became. */
		snprintf(lab, sizeof(lab), "%s / %s (%s, %s)", native, as + 4, dut, sz);
		fprintf(f, "\"%s\",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", lab, b.median, b.min, b.max,
			a.median, a.min, a.max);
		rows++;
	}
	fclose(f);
	side = zc_an_kernel_side(c->roots[c->latest]);
	snprintf(extra, sizeof(extra), "nrows=%d; nativetitle='native on this kernel%s%s%s'", rows,
		 side ? " (" : "", side ? side : "", side ? " side, by fingerprint)" : "");
	return plot_both(c, "before_after", extra, c->caption);
}

static int cmp_epoch(const void *a, const void *b, void *arg)
{
	json_t **roots = arg;
	long long x = zc_an_epoch(roots[*(const int *)a]), y = zc_an_epoch(roots[*(const int *)b]);

	return (x > y) - (x < y);
}

/* History: one line per data path and chunk, one point per results file. */
static int plot_history(struct plot_ctx *c, const int *order)
{
	char labels[MAX_SERIES][96], titles[4096] = "", extra[4200];
	int nlabels = 0;
	size_t i;
	json_t *run;
	FILE *f;

	for (int fi = 0; fi < c->nfiles; fi++)
		json_array_foreach(json_object_get(c->roots[fi], "runs"), i, run) {
			struct gpc g;
			char lab[96], sz[24], full[128];

			if (gpc_of(run, &g))
				continue;
			zc_an_label(run, lab, sizeof(lab));
			zc_fmt_size(zc_an_int(json_object_get(run, "key"), "chunk"), sz, sizeof(sz));
			snprintf(full, sizeof(full), "%s@%s", lab, sz);
			add_unique_str(labels, &nlabels, full);
		}
	f = open_csv(c, "history");
	if (!f)
		return -1;
	fprintf(f, "# one block per data path@chunk: epoch_s,median,min,max (Gbit/s per core)\n");
	for (int l = 0; l < nlabels; l++) {
		fprintf(f, "%s# %s\n", l ? "\n\n" : "", labels[l]);
		for (int o = 0; o < c->nfiles; o++) {
			int fi = order[o];
			struct gpc best = { NAN, NAN, NAN, 0 };

			json_array_foreach(json_object_get(c->roots[fi], "runs"), i, run) {
				struct gpc g;
				char lab[96], sz[24], full[128];

				zc_an_label(run, lab, sizeof(lab));
				zc_fmt_size(zc_an_int(json_object_get(run, "key"), "chunk"), sz,
					   sizeof(sz));
				snprintf(full, sizeof(full), "%s@%s", lab, sz);
				if (!strcmp(full, labels[l]) && !gpc_of(run, &g) &&
				    !(best.median >= g.median))
					best = g;
			}
			if (best.n && zc_an_epoch(c->roots[fi]) >= 0)
				fprintf(f, "%lld,%.6g,%.6g,%.6g\n", zc_an_epoch(c->roots[fi]),
					best.median, best.min, best.max);
		}
		cat_fmt(titles, sizeof(titles), "%s%s",
			 l ? " " : "", labels[l]);
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d; titles='%s'", nlabels, titles);
	return plot_both(c, "history", extra, c->history_caption);
}

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
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i;
	int rows = 0;

	fprintf(f, "<table id=\"headline\">\n<tr><th>ratio</th><th class=\"t\">side</th><th>chunk</th>"
		   "<th>pipe</th><th>Gbps/core ratio</th><th>95%% CI (bootstrap)</th>"
		   "<th>numerator Gbps/core</th><th>denominator Gbps/core</th><th>n</th></tr>\n");
	for (size_t d = 0; d < zc_nratio_defs; d++) {
		const struct zc_ratio_def *rd = &zc_ratio_defs[d];
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "%s-as-", rd->num);
		json_array_foreach(runs, i, run) {
			json_t *k = json_object_get(run, "key"), *den, *sides[2];
			const char *ks = zc_an_kernel_side(root);
			const char *side_names[2] = {
				!ks ? "this kernel" : !strcmp(ks, "after") ? "after (measured)" :
									      "before (measured)",
				"after (emulated)"
			};

			if (strcmp(zc_an_str(k, "topology"), rd->topology) ||
			    strcmp(zc_an_str(k, rd->role), rd->num))
				continue;
			den = zc_an_peer(runs, run, rd->role, rd->den, false);
			if (!den)
				continue;
			sides[0] = run;
			sides[1] = zc_an_peer(runs, run, rd->role, prefix, true);
			for (int s = 0; s < 2; s++) {
				struct zc_ratio r;
				char chunk[24], pipe[24];

				if (!sides[s])
					continue;
				zc_an_ratio(sides[s], den, &r);
				zc_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
				zc_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
				fprintf(f, "<tr%s><td>%s</td><td class=\"t\">%s</td><td>%s</td><td>%s</td>",
					rd->principal ? " class=\"principal\"" : "", rd->name,
					side_names[s], chunk, pipe);
				if (isnan(r.value))
					fprintf(f, "<td>n/a</td><td></td>");
				else
					fprintf(f, "<td>%.2f&times;</td><td>%.2f&ndash;%.2f</td>", r.value,
						r.lo, r.hi);
				fprintf(f, "<td>%.2f</td><td>%.2f</td><td>%zu/%zu</td></tr>\n",
					r.num_gpc, r.den_gpc, r.nn, r.nd);
				rows++;
			}
		}
	}
	if (!rows)
		fprintf(f, "<tr><td colspan=\"9\">no pair of runs for a headline ratio</td></tr>\n");
	fprintf(f, "</table>\n");
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

		gpc_of(run, &g);
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

static int write_index(struct plot_ctx *c, const int *order)
{
	static const char *const figs[][2] = {
		{ "bars", "Gbps per core by data path and chunk size (latest results)" },
		{ "chunk", "Gbps per core against chunk size (latest results)" },
		{ "before_after", "Before and after: native path against its emulated after mode" },
		{ "history", "History: Gbps per core of every results file" },
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

static void default_scripts(char *out, size_t len)
{
	char exe[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	/* bench/zcbench -> plots/ beside bench/ */
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(out, len, "%s/../plots", exe);
			if (!access(out, R_OK))
				return;
			snprintf(out, len, "%s/../../plots", exe); /* build/asan/zcbench */
			if (!access(out, R_OK))
				return;
		}
	}
	snprintf(out, len, "plots");
}

static void join_distinct(struct plot_ctx *c, const char *(*get)(json_t *), char *out,
			  size_t len)
{
	size_t o = 0;

	out[0] = 0;
	for (int i = 0; i < c->nfiles; i++) {
		const char *v = get(c->roots[i]);
		bool seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(get(c->roots[j]), v);
		if (!seen && o + strlen(v) + 3 < len)
			o += snprintf(out + o, len - o, "%s%s", o ? ", " : "", v);
	}
}

int zc_cmd_plot(int argc, char **argv)
{
	struct plot_ctx c = { .outdir = "plots/out" };
	char scripts[PATH_MAX], hosts[200], kernels[240];
	int order[MAX_FILES], ret = 0;

	default_scripts(scripts, sizeof(scripts));
	c.scripts = scripts;
	for (int a = 1; a < argc; a++) {
		const char *arg = argv[a];

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			printf("usage: zcbench plot [--out DIR] [--scripts DIR] FILE.json...\n"
			       "Writes DIR/{bars,chunk,before_after,history}.{csv,png,svg} with gnuplot\n"
			       "(plots/*.gp) and DIR/index.html (static, works from file://).\n"
			       "Bars, chunk and before/after use the newest file (meta.date);\n"
			       "history uses every file. Default DIR plots/out.\n");
			return 0;
		}
		if (!strcmp(arg, "--out") && a + 1 < argc)
			c.outdir = argv[++a];
		else if (!strncmp(arg, "--out=", 6))
			c.outdir = arg + 6;
		else if (!strcmp(arg, "--scripts") && a + 1 < argc)
			c.scripts = argv[++a];
		else if (!strncmp(arg, "--scripts=", 10))
			c.scripts = arg + 10;
		else if (!strncmp(arg, "--", 2)) {
			zc_err("plot: unknown option %s (zcbench plot --help)", arg);
			return ZC_EXIT_USAGE;
		} else if (c.nfiles == MAX_FILES) {
			zc_err("plot: at most %d results files", MAX_FILES);
			return ZC_EXIT_USAGE;
		} else
			c.paths[c.nfiles++] = (char *)arg;
	}
	if (!c.nfiles) {
		zc_err("plot: need at least one results file");
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < c.nfiles; i++)
		if (!(c.roots[i] = zc_an_load("plot", c.paths[i]))) {
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	if (mkdir(c.outdir, 0755) && errno != EEXIST) {
		zc_err("plot: mkdir %s: %s", c.outdir, strerror(errno));
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	for (int i = 0; i < c.nfiles; i++)
		order[i] = i;
	qsort_r(order, c.nfiles, sizeof(*order), cmp_epoch, c.roots);
	c.latest = order[c.nfiles - 1];
	snprintf(c.caption, sizeof(c.caption), "host %s, kernel %s, %s, zcbench %s",
		 zc_an_hostname(c.roots[c.latest]), zc_an_kernel(c.roots[c.latest]),
		 zc_an_date(c.roots[c.latest]), ZC_GIT_SHA);
	join_distinct(&c, zc_an_hostname, hosts, sizeof(hosts));
	join_distinct(&c, zc_an_kernel, kernels, sizeof(kernels));
	snprintf(c.history_caption, sizeof(c.history_caption), "%d results files; hosts %s; "
		 "kernels %s", c.nfiles, hosts, kernels);
	if (plot_bars(&c) || plot_chunk(&c) || plot_before_after(&c) || plot_history(&c, order) ||
	    write_index(&c, order)) {
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	printf("zcbench plot: %s/index.html and {bars,chunk,before_after,history}.{png,svg}\n",
	       c.outdir);
out:
	for (int i = 0; i < c.nfiles; i++)
		json_decref(c.roots[i]);
	return ret;
}
