// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench plot [--out DIR] FILE...: write the CSV that the plots/NAME.gp scripts read, run
 * gnuplot headless on each (pngcairo and svg), and write DIR/index.html, a
 * static dashboard that works from file:// (no server, no network).
 */
#include "results/results.h"
#include "report/report.h"
#include "plot/plot.h"
#include "report/scale.h"
#include "compare/trend.h"
#include "stats/changepoint.h"
#include "stats/stats.h"
#include "lib/opt.h"
#include "lib/zcbench.h"
#include "lib/proc.h"
#include "lib/term.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* gnuplot's marks= and marklabels= of the history picture, at most. */
#define ZC_MARKS_TEXT 8192

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

static int add_unique_str(char set[][160], int *n, const char *v)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(set[i], v))
			return i;
	if (*n == MAX_SERIES)
		return -1;
	snprintf(set[*n], 160, "%s", v);
	return (*n)++;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* The labels of the runs with an ok sample, each once in file order; with
 * chunks, their chunk sizes too (each once). How many labels. */
static int ok_labels(json_t *runs, char labels[][160], long long *chunks, int *nchunks)
{
	json_t *run;
	size_t i;
	int n = 0;

	json_array_foreach(runs, i, run) {
		struct gpc g;
		char lab[96];

		if (zc_gpc_of(run, &g))
			continue;
		zc_an_label(run, lab, sizeof(lab));
		add_unique_str(labels, &n, lab);
		if (chunks && json_object_get(json_object_get(run, "key"), "chunk"))
			add_unique_ll(chunks, nchunks, zc_an_int(json_object_get(run, "key"), "chunk"));
	}
	return n;
}

/* Clustered bars: one row per data path, one bar per chunk size, min/max whiskers. */
/* The runs labelled label with this chunk: the one with the best median
 * Gbps per core (the same path and chunk at several pipe sizes), or NaNs. */
static struct gpc best_gpc(json_t *runs, const char *label, long long chunk)
{
	struct gpc best = { NAN, NAN, NAN, 0 }, g;
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		char lab[96];

		zc_an_label(run, lab, sizeof(lab));
		if (!strcmp(lab, label) && zc_an_int(json_object_get(run, "key"), "chunk") == chunk &&
		    !zc_gpc_of(run, &g) && !(best.median >= g.median))
			best = g;
	}
	return best;
}

/* Any run of the file with an ok sample. */
static bool file_ok(json_t *root)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		struct gpc g;

		if (!zc_gpc_of(run, &g))
			return true;
	}
	return false;
}

/* Any run with an ok sample: in the newest file, or (all) in any. */
static bool any_ok(struct plot_ctx *c, bool all)
{
	for (int f = all ? 0 : c->latest; f < (all ? c->nfiles : c->latest + 1); f++)
		if (file_ok(c->roots[f]))
			return true;
	return false;
}

static int plot_bars(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs");
	long long chunks[MAX_SERIES];
	char labels[MAX_SERIES][160], extra[1024] = "", titles[900] = "", yvars[64];
	int nchunks = 0, nlabels = ok_labels(runs, labels, chunks, &nchunks);
	double ymax = NAN;
	FILE *f;

	qsort(chunks, nchunks, sizeof(*chunks), cmp_ll);
	f = zc_plot_csv(c, "bars");
	if (!f)
		return -1;
	fprintf(f, "path");
	for (int k = 0; k < nchunks; k++) {
		char sz[24];

		zc_fmt_size(chunks[k], sz, sizeof(sz));
		fprintf(f, ",chunk %s median,min,max", sz);
		zc_strcatf(titles, sizeof(titles), "%s%s",
			 k ? " " : "", sz);
	}
	fprintf(f, "\n");
	for (int l = 0; l < nlabels; l++) {
		fprintf(f, "%s", labels[l]);
		for (int k = 0; k < nchunks; k++) {
			struct gpc best = best_gpc(runs, labels[l], chunks[k]);

			fprintf(f, ",%.6g,%.6g,%.6g", best.median, best.min, best.max);
			zc_plot_max(&ymax, best.max);
		}
		fprintf(f, "\n");
	}
	fclose(f);
	zc_plot_yvars(ymax, yvars, sizeof(yvars));
	snprintf(extra, sizeof(extra), "nseries=%d; nrows=%d; titles='%s'; %s", nchunks, nlabels,
		 titles, yvars);
	return zc_plot_both(c, "bars", extra, c->caption);
}

/* Gbps per core at each chunk size, a block (gnuplot index) per path.
 * Chunk sizes are categories, not a scale: each at its own place on the x
 * axis (pos), a point with its min..max bar per path, never joined by a
 * line. With one chunk size bars.png says it all: not drawn. */
static int plot_chunk(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs");
	char labels[MAX_SERIES][160], titles[4096] = "", sizes[MAX_SERIES * 8] = "";
	char extra[4096 + MAX_SERIES * 8 + 128], yvars[64];
	long long chunks[MAX_SERIES];
	int nlabels, nchunks = 0;
	double ymax = NAN;
	FILE *f;

	nlabels = ok_labels(runs, labels, chunks, &nchunks);
	if (nchunks < 2) {
		zc_plot_skip(c, "chunk", "one chunk size (bars.png shows it)");
		return 0;
	}
	qsort(chunks, nchunks, sizeof(*chunks), cmp_ll);
	f = zc_plot_csv(c, "chunk");
	if (!f)
		return -1;
	fprintf(f, "# one block per data path: chunk_bytes,pos,median,min,max (Gbit/s per core; "
		   "pos: the chunk size's place on the x axis)\n");
	for (int l = 0; l < nlabels; l++) {
		fprintf(f, "%s# %s\n", l ? "\n\n" : "", labels[l]);
		for (int k = 0; k < nchunks; k++) {
			struct gpc best = best_gpc(runs, labels[l], chunks[k]);

			if (!best.n)	/* this path did not run at this size */
				continue;
			fprintf(f, "%lld,%d,%.6g,%.6g,%.6g\n", chunks[k], k, best.median, best.min,
				best.max);
			zc_plot_max(&ymax, best.max);
		}
		zc_strcatf(titles, sizeof(titles), "%s%s", l ? " " : "", labels[l]);
	}
	fclose(f);
	for (int k = 0; k < nchunks; k++) {
		char sz[24];

		zc_fmt_size(chunks[k], sz, sizeof(sz));
		zc_strcatf(sizes, sizeof(sizes), "%s%s", k ? " " : "", sz);
	}
	zc_plot_yvars(ymax, yvars, sizeof(yvars));
	snprintf(extra, sizeof(extra), "nseries=%d; nchunks=%d; sizes='%s'; titles='%s'; %s",
		 nlabels, nchunks, sizes, titles, yvars);
	return zc_plot_both(c, "chunk", extra, c->caption);
}

/* Each native mode against each of its after-modes (the headline engine's
 * before/after pairs), same key otherwise. */
static int plot_before_after(struct plot_ctx *c)
{
	struct zc_pair *pv;
	size_t n = zc_before_after_pairs(json_object_get(c->roots[c->latest], "runs"), 0, &pv);
	const char *side;
	char extra[320], yvars[64];
	double ymax = NAN;
	int rows = 0;
	FILE *f = NULL;

	for (size_t i = 0; i < n; i++) {
		struct gpc b, a;

		rows += !zc_gpc_of(pv[i].run, &b) && !zc_gpc_of(pv[i].peer_run, &a);
	}
	if (!rows) {
		free(pv);
		zc_plot_skip(c, "before_after", "no native run beside its emulated after-mode "
			     "(e.g. splice-as-copy)");
		return 0;
	}
	rows = 0;
	if (!(f = zc_plot_csv(c, "before_after"))) {
		free(pv);
		return -1;
	}
	fprintf(f, "path,before median,min,max,after median,min,max\n");
	for (size_t i = 0; i < n; i++) {
		char lab[160], sz[24];
		struct gpc b, a;

		if (zc_gpc_of(pv[i].run, &b) || zc_gpc_of(pv[i].peer_run, &a))
			continue;
		zc_an_fmt_size(zc_an_int(json_object_get(pv[i].run, "key"), "chunk"), sz, sizeof(sz));
		/* "vmsplice / vmsplice-as-writev (source, 64k)": native, then its after-mode. */
		snprintf(lab, sizeof(lab), "%s / %s (%s, %s)", pv[i].mode->name, pv[i].peer->name,
			 pv[i].role, sz);
		fprintf(f, "\"%s\",%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n", lab, b.median, b.min, b.max,
			a.median, a.min, a.max);
		zc_plot_max(&ymax, b.max);
		zc_plot_max(&ymax, a.max);
		rows++;
	}
	fclose(f);
	free(pv);
	side = zc_an_kernel_side(c->roots[c->latest]);
	zc_plot_yvars(ymax, yvars, sizeof(yvars));
	snprintf(extra, sizeof(extra), "nrows=%d; nativetitle='native on this kernel%s%s%s'; %s",
		 rows, side ? " (" : "", side ? side : "", side ? " side, by fingerprint)" : "",
		 yvars);
	return zc_plot_both(c, "before_after", extra, c->caption);
}

static int cmp_epoch(const void *a, const void *b, void *arg)
{
	json_t **roots = arg;
	long long x = zc_an_epoch(roots[*(const int *)a]), y = zc_an_epoch(roots[*(const int *)b]);

	return (x > y) - (x < y);
}

/* A history line: the run's whole key (path@chunk/pipe and whatever else
 * it sets, zc_an_run_id) and host, across kernels: a kernel's step is what
 * the picture is for, marked where the kernel or its fingerprint changed
 * (history_marks). Points of another host are another line, never joined
 * (a faster host is not a speed-up). No spaces: gnuplot's word() splits the
 * titles on them. */
static void history_label(json_t *root, json_t *run, char *out, size_t len)
{
	char id[120];

	zc_an_run_id(run, id, sizeof(id));
	snprintf(out, len, "%s/%s", id, zc_an_hostname(root));
	for (char *p = out; *p; p++)
		if (*p == ' ' || *p == '\'')
			*p = '_';
}

/*
 * Where the history is marked (zcbench trend's nights and change points,
 * trend.h): a night whose kernel or fingerprint differs from the night
 * before, and the first night after each step of a series of Gbit/s per
 * core. history_marks.csv lists them; out gets gnuplot's marks='EPOCH ...'
 * and marklabels='kernel,fingerprint,2_steps ...'. 0, -1 (said).
 */
static int history_marks(struct plot_ctx *c, char *out, size_t len)
{
	struct zc_trend t;
	struct zc_cp_opts o;
	char why[1200], marks[ZC_MARKS_TEXT / 2] = "", labs[ZC_MARKS_TEXT / 2] = "";
	int *steps, nmarks = 0;
	FILE *f;

	if (zc_trend_build(&t, c->roots, c->paths, c->nfiles, why, sizeof(why))) {
		zc_err("plot: history: %s", why);
		return -1;
	}
	steps = calloc(t.nnights ? t.nnights : 1, sizeof(*steps));
	f = zc_plot_csv(c, "history_marks");
	if (!steps || !f) {
		free(steps);
		if (f)
			fclose(f);
		zc_trend_free(&t);
		return -1;
	}
	zc_cp_defaults(&o);
	for (size_t i = 0; i < t.nseries; i++) {
		struct zc_series *s = &t.series[i];
		struct zc_cp cp[16];
		size_t ncp;

		if (strcmp(s->metric, "gbps_per_core") || zc_changepoints(s->v, s->n, &o, cp, 16, &ncp))
			continue;
		for (size_t j = 0; j < ncp; j++)
			steps[s->night[cp[j].at]]++;
	}
	fprintf(f, "epoch_s,date,what\n");
	for (size_t i = 0; i < t.nnights; i++) {
		bool k = i && strcmp(t.nights[i].kernel, t.nights[i - 1].kernel);
		bool fp = i && strcmp(t.nights[i].fp, t.nights[i - 1].fp);
		char lab[64];

		if (!k && !fp && !steps[i])
			continue;
		snprintf(lab, sizeof(lab), "%s%s%s", k ? "kernel" : "", k && fp ? "," : "",
			 fp ? "fingerprint" : "");
		if (steps[i])
			snprintf(lab + strlen(lab), sizeof(lab) - strlen(lab), "%s%d_step%s",
				 *lab ? "," : "", steps[i], steps[i] > 1 ? "s" : "");
		fprintf(f, "%lld,%s,\"%s\"\n", t.nights[i].epoch, t.nights[i].date, lab);
		if (strlen(marks) + 24 < sizeof(marks) && strlen(labs) + strlen(lab) + 2 < sizeof(labs)) {
			zc_strcatf(marks, sizeof(marks), "%s%lld", nmarks ? " " : "", t.nights[i].epoch);
			zc_strcatf(labs, sizeof(labs), "%s%s", nmarks ? " " : "", lab);
			nmarks++;
		}
	}
	fclose(f);
	free(steps);
	zc_trend_free(&t);
	snprintf(out, len, "marks='%s'; marklabels='%s'", marks, labs);
	return 0;
}

/* History: one line per data path, chunk, host and kernel; one point per results file. */
static int plot_history(struct plot_ctx *c, const int *order)
{
	static char labels[MAX_SERIES][160], titles[MAX_SERIES * 161];
	static char extra[MAX_SERIES * 161 + ZC_MARKS_TEXT];
	char yvars[64];
	int nlabels = 0, n, dates = 0;
	long long prev = -1;
	double ymax = NAN;
	size_t i;
	json_t *run;
	FILE *f;

	/* A history is two dates at least: one night is the other pictures'. */
	for (int o = 0; o < c->nfiles; o++) {
		long long e = zc_an_epoch(c->roots[order[o]]);

		if (e >= 0 && e != prev && file_ok(c->roots[order[o]])) {
			dates++;
			prev = e;
		}
	}
	if (dates < 2) {
		zc_plot_skip(c, "history", "one results file (a history needs two dates)");
		return 0;
	}
	titles[0] = 0;
	for (int fi = 0; fi < c->nfiles; fi++)
		json_array_foreach(json_object_get(c->roots[fi], "runs"), i, run) {
			struct gpc g;
			char full[160];

			if (zc_gpc_of(run, &g))
				continue;
			history_label(c->roots[fi], run, full, sizeof(full));
			add_unique_str(labels, &nlabels, full);
		}
	f = zc_plot_csv(c, "history");
	if (!f)
		return -1;
	fprintf(f, "# one block per run key (path@chunk/pipe ...)/host, across kernels: epoch_s,median,min,max "
		   "(Gbit/s per core)\n");
	for (int l = 0; l < nlabels; l++) {
		fprintf(f, "%s# %s\n", l ? "\n\n" : "", labels[l]);
		for (int o = 0; o < c->nfiles; o++) {
			int fi = order[o];
			struct gpc best = { NAN, NAN, NAN, 0 };

			json_array_foreach(json_object_get(c->roots[fi], "runs"), i, run) {
				struct gpc g;
				char full[160];

				history_label(c->roots[fi], run, full, sizeof(full));
				if (!strcmp(full, labels[l]) && !zc_gpc_of(run, &g) &&
				    !(best.median >= g.median))
					best = g;
			}
			if (best.n && zc_an_epoch(c->roots[fi]) >= 0) {
				fprintf(f, "%lld,%.6g,%.6g,%.6g\n", zc_an_epoch(c->roots[fi]),
					best.median, best.min, best.max);
				zc_plot_max(&ymax, best.max);
			}
		}
		zc_strcatf(titles, sizeof(titles), "%s%s",
			 l ? " " : "", labels[l]);
	}
	fclose(f);
	zc_plot_yvars(ymax, yvars, sizeof(yvars));
	n = snprintf(extra, sizeof(extra), "nseries=%d; titles='%s'; %s; ", nlabels, titles, yvars);
	if (history_marks(c, extra + n, sizeof(extra) - n))
		return -1;
	return zc_plot_both(c, "history", extra, c->history_caption);
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

/* Where the page is, and each picture not drawn with why, fitted to the
 * terminal. */
static void print_done(struct plot_ctx *c)
{
	int width = zc_term_width(STDOUT_FILENO);
	char line[PATH_MAX + 200];

	snprintf(line, sizeof(line), "zcbench plot: %s/index.html and the pictures beside it "
		 "(plots/README.md)\n", c->outdir);
	zc_put_fitted(stdout, line, width, 2);
	for (char *s = c->skipped, *nl; *s && (nl = strchr(s, '\n')); s = nl + 1) {
		snprintf(line, sizeof(line), "  not drawn: %.*s\n", (int)(nl - s), s);
		zc_put_fitted(stdout, line, width, 4);
	}
}

#define AT(field) ZC_OPT_AT(struct plot_ctx, field)
static const struct zc_opt plot_optv[] = {
	{ "out", ZC_OPT_TEXT, "plots/out", AT(outdir), .meta = "DIR",
	  .help = "where the pictures (.csv, .png, .svg; plots/README.md) and index.html go" },
	{ "scripts", ZC_OPT_TEXT, NULL, AT(scripts), .meta = "DIR",
	  .help = "the gnuplot scripts (default: plots/ beside this zcbench, or its "
		  "share/zcbench/plots once installed)" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, AT(paths), ZC_OPT_POS,
	  .count_off = offsetof(struct plot_ctx, nfiles),
	  .help = "results files: history uses every one, the other pictures the newest "
		  "(meta.date)" },
};

int zc_cmd_plot(int argc, char **argv)
{
	struct plot_ctx c = { 0 };
	char scripts[PATH_MAX], hosts[200], kernels[240], shas[200], gitlab[80];
	char why[PATH_MAX + 200];
	int order[MAX_FILES], ret = 0;
	const struct zc_optgroup group = ZC_OPT_GROUP1(plot_optv, &c);
	const struct zc_cmdline cmdline = {
		.name = "plot", .groups = &group, .ngroups = 1,
		.about = "Draws with gnuplot (plots/*.gp) and writes a static index.html that works\n"
			 "from file://.\n",
	};

	zc_plot_scripts_dir(scripts, sizeof(scripts));
	c.scripts = scripts;
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		return ret;
	/* Where the pictures go is checked before anything is read (exit 2). */
	if (zc_out_dir(c.outdir, why, sizeof(why))) {
		zc_err("plot: --out %s %s", c.outdir, why);
		return ZC_EXIT_USAGE;
	}
	ret = 0;
	for (int i = 0; i < c.nfiles; i++)
		if (!(c.roots[i] = zc_an_load("plot", c.paths[i]))) {
			ret = ZC_EXIT_USAGE;
			goto out;
		}
	for (int i = 0; i < c.nfiles; i++)
		order[i] = i;
	qsort_r(order, c.nfiles, sizeof(*order), cmp_epoch, c.roots);
	c.latest = order[c.nfiles - 1];
	/* Provenance is the measurement's (meta.git of the results file), never
	 * this plotting binary's. */
	snprintf(c.caption, sizeof(c.caption), "host %s, kernel %s, %s, zcbench %s",
		 zc_an_hostname(c.roots[c.latest]), zc_an_kernel(c.roots[c.latest]),
		 zc_an_date(c.roots[c.latest]), zc_an_git_label(c.roots[c.latest], gitlab,
								 sizeof(gitlab)));
	join_distinct(&c, zc_an_hostname, hosts, sizeof(hosts));
	join_distinct(&c, zc_an_kernel, kernels, sizeof(kernels));
	join_distinct(&c, zc_an_git_sha, shas, sizeof(shas));
	snprintf(c.history_caption, sizeof(c.history_caption), "%d results files; hosts %s; "
		 "kernels %s; zcbench %s", c.nfiles, hosts, kernels, shas);
	/* A file of scaling curves only (no run with an ok sample, e.g.
	 * results/fixtures/scale.json) has nothing for the per-run pictures,
	 * and gnuplot refuses their empty ranges: only scale and the page. */
	/* Without one, no picture of the newest file's runs (one an older plot
	 * left is removed); without one in any file, no history. */
	for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_plot_figs); i++) {
		const char *name = zc_plot_figs[i][0];
		bool history = !strcmp(name, "history");

		if (!strcmp(name, "scale") || any_ok(&c, history))
			continue;
		zc_plot_skip(&c, name, history ? "no run with an ok sample in these files" :
			     "no run with an ok sample in the newest file");
	}
	if ((any_ok(&c, false) &&
	     (plot_bars(&c) || plot_chunk(&c) || zc_plot_core(&c) || zc_plot_ratio(&c) ||
	      zc_plot_sweep(&c) || zc_plot_rr(&c) ||
	      zc_plot_profile(&c) || zc_plot_flames(&c) || zc_plot_intervals(&c) ||
	      plot_before_after(&c))) ||
	    (any_ok(&c, true) && plot_history(&c, order))) {
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	ret = zc_plot_scale(c.roots[c.latest], c.outdir, c.scripts, c.caption);
	if (ret == -ENODATA)
		zc_plot_skip(&c, "scale", "no workers sweep (workloads/scale.ini, make bench-scale)");
	if ((ret && ret != -ENODATA) || zc_write_index(&c, order)) {
		ret = ZC_EXIT_FAIL;
		goto out;
	}
	ret = 0;
	print_done(&c);
out:
	for (int i = 0; i < c.nfiles; i++)
		json_decref(c.roots[i]);
	return ret;
}
