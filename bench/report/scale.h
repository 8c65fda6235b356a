/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scaling curves and sizing (issue 11): the runs of a results file that
 * differ only in the DUT's workers form a curve (one per mode, host,
 * topology, chunk, pipe size and connections); zcbench scale prints it, plot
 * draws it, zcbench size answers "how many cores for this traffic" from it.
 */
#ifndef ZC_SCALE_H
#define ZC_SCALE_H

#include "lib/zcbench.h"

#include <jansson.h>

#define ZC_CURVE_PTS 32

/* One run of a curve: medians and the spread of its repetitions. */
struct zc_curve_pt {
	int workers;			/* configured */
	double gbps, gbps_min, gbps_max;
	double cores;			/* DUT busy cores, median */
	double gpc, gpc_min, gpc_max;	/* Gbps per core: median, min, max over repetitions */
	size_t n;			/* ok samples */
	bool shared;			/* the DUT shared its cores with other roles */
};

struct zc_curve {
	char host[64];
	char topology[16];
	char mode[32];			/* the DUT's */
	char role[8];			/* the DUT's role */
	char path[128];			/* source>proxy>sink */
	char modes[ZC_ROLE_NR][32];	/* each role's mode ("" proxy when direct) */
	long long chunk, pipe_size, connections;
	int npts;
	struct zc_curve_pt pt[ZC_CURVE_PTS];	/* by workers */
};

/* Every curve in the files' ok runs (each run one point), in file order.
 * Count (at most max). */
int zc_curves(json_t *const *roots, int nroots, struct zc_curve *out, int max);
/* Scaling efficiency of point i: Gbps(M) / (M x Gbps(1)), NaN without a
 * one-worker point. */
double zc_curve_efficiency(const struct zc_curve *c, int i);
/* The curve's name: with_key, everything ("proxy splice on loopback (send>
 * splice>recv, chunk 64k, pipe 1M), 16 connections"), else a short one. */
void zc_curve_label(const struct zc_curve *c, char *buf, size_t len, bool with_key);

/* Cores a curve needs for target_gbps: value and interval, extrapolated
 * past its largest point. NaN value when the curve has no point. */
struct zc_size {
	double cores, lo, hi;
	bool extrapolated;
};
void zc_curve_size(const struct zc_curve *c, double target_gbps, struct zc_size *out);
/* The sizing of every declared pair (a mode and its vs) in runs of roots, for
 * each target: the JSON of zcbench size --json and of a results file's
 * "sizing". */
json_t *zc_sizing_json(json_t *const *roots, int nroots, const double *targets, int ntargets);
/* What zcbench run writes into every results file's "sizing": 10, 40, 100 Gbit/s. */
extern const double zc_sizing_targets[3];
/* "100G", "40g", "10000M", "1.5T", "25" (Gbit/s): 0 and *gbps, or -EINVAL. */
int zc_parse_rate(const char *s, double *gbps);

/* report/size_rr.c: a request/response target, "100k/s@64k" (requests/s
 * with /s, k/s, M/s or G/s, '@', an object size as zc_parse_size reads it):
 * 0, -EINVAL (not that shape, size 0 or over 1T), -ERANGE (over 1e12/s). */
int zc_parse_rr_target(const char *s, double *rps, long long *size);
/* Per rr run of that object size in roots: cores = rps / tps_per_core
 * (median of ok samples), low/high from the samples' greatest/least. An
 * empty array when no run has that size. */
json_t *zc_sizing_rr_json(json_t *const *roots, int nroots, double rps, long long size);
void zc_print_sizing_rr(FILE *f, json_t *a, double rps, long long size);

/* plot/plot_scale.c: scale.csv and scale.{png,svg} in outdir from the
 * newest file's curves: 0, -ENODATA when no curve has two worker counts
 * (nothing drawn, older files removed), or gnuplot's failure. */
int zc_plot_scale(json_t *root, const char *outdir, const char *scripts, const char *caption);

int zc_cmd_scale(int argc, char **argv);
int zc_cmd_size(int argc, char **argv);

#endif
