/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zcbench trend: a series of results files (one per night), grouped by each
 * run's whole key and host, each series' change points (stats/changepoint.h),
 * what changed the night of each step, and a gate on the newest nights.
 * trend_load.c reads the nights and builds the series; trend.c judges and
 * prints them.
 */
#ifndef ZC_TREND_H
#define ZC_TREND_H

#include "metrics/metrics.h"
#include "stats/changepoint.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#define ZC_TREND_NIGHTS_MAX 1024
/* Nights further apart than this are a gap the output names. */
#define ZC_TREND_GAP_DAYS 7

struct zc_night {
	const char *path;
	json_t *root;
	long long epoch;
	char date[32];		/* meta.date */
	char sha[48];		/* zcbench's git sha ("+dirty") */
	char kernel[128];	/* release */
	char fp[512];		/* the fingerprint's label (or hash) */
	char machine[160];	/* cpu model, online cpus */
	char workload[160];	/* workload name and file */
};

/* One figure over the nights: a run's gated metric, or a headline ratio. */
struct zc_series {
	char key[720];		/* "proxy:splice@64k/1M,conn=2 on vm" */
	const char *metric;	/* gbps_per_core ...; "ratio" for a headline ratio */
	enum zc_better better;
	size_t n;
	double *v;		/* the nights' values (geometric mean of ok samples) */
	size_t *night;		/* index into the nights of each value */
	char *notes;		/* nights left out: "2026-11-03 failed (status error)"; NULL: none */
	long last_left;		/* the newest night left out of it (its run failed), -1: none */
};

/* A file the nights could not use (not a results file, no date): said in
 * every output format, and the gate cannot pass with one (trend.c). */
struct zc_left_out {
	char *file;		/* as shown (escaped) */
	char *why;
};

struct zc_trend {
	struct zc_night *nights;
	size_t nnights;
	struct zc_series *series;
	size_t nseries, cap;
	char *notes;		/* copies of one invocation, same-night files, gaps; NULL: none */
	struct zc_left_out *left;	/* files left out, each with why (never cut) */
	size_t nleft;
};

/* The paths: each file, and each folder's *.json (not its subfolders) in
 * name order. malloc'd strings into out; how many, or -1 with why (a path
 * that cannot be read, more than max). */
int zc_trend_expand(char **paths, int npaths, char **out, int max, char *why, size_t len);
/* Load files (zc_trend_expand's: a NULL entry is out of memory) as nights
 * in time order, and build the series. Bad files are left out, each in t->left with why. 0,
 * or -1 with why (no results file at all: every file and why; too many).
 * Either way t is the caller's to free (zc_trend_free): on -1 its t->left
 * still says which files were left out. */
int zc_trend_load(struct zc_trend *t, char *const *files, int n, char *why, size_t len);
/* The same from results files already loaded (plot's): each root gets a
 * reference of its own, paths are copied. */
int zc_trend_build(struct zc_trend *t, json_t *const *roots, char *const *paths, size_t n,
		   char *why, size_t len);
void zc_trend_free(struct zc_trend *t);
/* Days between two nights (fractional). */
double zc_trend_days(const struct zc_trend *t, size_t a, size_t b);

/* What differs between two nights: "kernel 6.1 -> 6.2; fingerprint
 * vmsplice=zero-copy -> vmsplice=copy", or that nothing recorded did. */
void zc_trend_what_changed(const struct zc_night *a, const struct zc_night *b, char *out,
			   size_t len);

#define ZC_TREND_CP_MAX 16
/* One series judged (trend.c): its change points and its newest nights. */
struct zc_trend_v {
	struct zc_cp cp[ZC_TREND_CP_MAX];
	size_t ncp;
	struct zc_change newest;	/* nights from..n against base..from (the gate's) */
	size_t base, from;
	bool of_step;			/* from is the last step's night */
	struct zc_verdict vd;
	bool regression;
	/* Its run was left out of one of the newest nights (failed): the gate
	 * cannot pass it on the nights before (exit 2, as a file left out). */
	bool lost;
	double could_see;		/* the smallest step the series could show (fraction) */
};

/* The events for dashboards (trend_export.c): a row per change point, and
 * per series its newest nights' answer. threshold in percent. */
void zc_trend_csv(FILE *f, const struct zc_trend *t, const struct zc_trend_v *r, double threshold);
void zc_trend_prometheus(FILE *f, const struct zc_trend *t, const struct zc_trend_v *r,
			 double threshold);

int zc_cmd_trend(int argc, char **argv);

#endif
