/* SPDX-License-Identifier: GPL-2.0 */
/* Inside zcbench plot: what plot.c and the pictures' files (plot_core.c,
 * plot_live.c, plot_scale.c, plot_sweep.c, dashboard.c) share; most of it is
 * in plot_gp.c, below them all. */
#ifndef ZC_PLOT_H
#define ZC_PLOT_H

#include "lib/outpath.h"

#include <jansson.h>

#define MAX_FILES 1024
#define MAX_SERIES 256

struct plot_ctx {
	const char *outdir, *scripts;
	int nfiles;
	char *paths[MAX_FILES];
	json_t *roots[MAX_FILES];
	int latest;		/* index of the newest file by meta.date */
	char caption[512];	/* kernel and host of the latest file */
	char history_caption[1024];
	/* The pictures not drawn and why ("scale: no workers sweep ..."), one
	 * per line: printed by plot and listed on the page. */
	char skipped[2048];
};

/* Every picture plot may draw, in the page's order: name (OUTDIR/NAME.png)
 * and caption. One not drawn is left out of the page. */
#define ZC_PLOT_NFIGS 13
extern const char *const zc_plot_figs[ZC_PLOT_NFIGS][2];

/* Median, min and max Gbps per core of a run's ok samples: 0 or -ENODATA. */
struct gpc {
	double median, min, max;
	size_t n;
};
int zc_gpc_of(json_t *run, struct gpc *g);

/* The zcbench that measured (the results file's meta.git), not this binary:
 * the sha ("unknown"), and with " (dirty tree)" when it was (out returned). */
const char *zc_an_git_sha(json_t *root);
const char *zc_an_git_label(json_t *root, char *out, size_t len);

/* plots/out/index.html: every picture drawn, with the ratios and runs of the
 * newest file (order: files by date). 0 or -errno. */
int zc_write_index(struct plot_ctx *c, const int *order);

/* s as a gnuplot single-quoted string into out (only ' is escaped, as ''),
 * cut to fit len. plot_gp.c and plot_scale.c. */
void zc_gp_quote(char *out, size_t len, const char *s);

/* The gnuplot scripts' folder: plots/ beside bench/ of this zcbench (also
 * from build/asan/), else "plots". */
void zc_plot_scripts_dir(char *out, size_t len);

/* Run plots/SCRIPT.gp on OUTDIR/SCRIPT.csv for PNG and SVG: 0, else failed (said). */
int zc_plot_both(struct plot_ctx *c, const char *script, const char *extra, const char *caption);
/* Run gnuplot on script with vars and outfile set to a temp file beside
 * out, renamed over out when gnuplot succeeded (lib/outpath.h): 0, -errno,
 * or gnuplot's exit status. */
int zc_gnuplot(const char *script, const char *vars, const char *out);
FILE *zc_plot_csv(struct plot_ctx *c, const char *name);	/* OUTDIR/NAME.csv, NULL (said) */
/* Remove OUTDIR/NAME.{png,svg,csv}: a picture this file has no data for. */
void zc_plot_drop(struct plot_ctx *c, const char *name);
/* A picture with no data is not drawn: drop its files (an older drawing
 * must not stay on the page) and note NAME and why in c->skipped. */
void zc_plot_skip(struct plot_ctx *c, const char *name, const char *why);
/* The top of a y axis from 0 that shows max (the largest value drawn,
 * interval tops included) with a margin, on a round tick: 1, 2 or 5 times
 * a power of ten, about 5 to 10 ticks (step). 1 when max is not a positive
 * number. */
double zc_plot_ytop(double max, double *step);
/* gnuplot's "ytop=T; ystep=S" for a picture whose largest value is max. */
void zc_plot_yvars(double max, char *out, size_t len);
/* *max raised to v when v is a number above it (NaN at first: none yet). */
void zc_plot_max(double *max, double v);


/* plot_sweep.c: sweep_pipe and sweep_chunk.{png,svg,csv}: each headline
 * ratio against the pipe size and the chunk, only through two sizes or
 * more. 0, or -1 (said). */
int zc_plot_sweep(struct plot_ctx *c);

/* plot_core.c: 0, or -1 (said). */
int zc_plot_core(struct plot_ctx *c);		/* core.{png,svg}: per run, where the core goes */
int zc_plot_ratio(struct plot_ctx *c);		/* ratio.{png,svg}: headline intervals vs 1.0 */
int zc_plot_profile(struct plot_ctx *c);	/* profile.{png,svg}: only with profiled runs */
int zc_plot_flames(struct plot_ctx *c);		/* flame-RUNINDEX.svg per profiled run */
/* plot_live.c: intervals.{png,svg}, only when a run has intervals: 0, or -1 (said). */
int zc_plot_intervals(struct plot_ctx *c);
/* plot_rr.c: rr_crossover and rr_latency.{png,svg,csv}, only with request/
 * response runs: 0, or -1 (said). */
int zc_plot_rr(struct plot_ctx *c);

#endif
