/* SPDX-License-Identifier: GPL-2.0 */
/* What before-after computes for the TCP paths, for other readers (report --mail). */
#ifndef ZC_BEFOREAFTER_H
#define ZC_BEFOREAFTER_H

#include "stats/verdict.h"

#include <jansson.h>

/* One patched path before and after, as a row of before-after's table. */
struct zc_ba_row {
	const char *path;		/* the data path, short (the mode's .path) */
	long long chunk, pipe_size;
	const char *before_mode, *after_mode;
	const char *before_run, *after_run;	/* the runs' names */
	const char *kind;		/* "emulated", "measured", "measured (guest, tcg)" */
	double before_gpc, after_gpc;	/* Gbps per core, medians (NaN: none) */
	double change_pct;		/* after against before, percent (NaN: none) */
	struct zc_change ch;		/* its interval (paired when one invocation took both) */
	struct zc_verdict vd;		/* its answer at +-ZC_RATIO_THRESHOLD */
	double before_calls_per_mb, after_calls_per_mb;
	json_t *before_file;		/* the results file of the before run */
	json_t *after_file;		/* of the after run; NULL: the same file (emulated) */
};

/* Every row before-after prints for the results files (each native mode
 * against its emulated after-mode) or, with after files, against the same
 * mode measured there: fn once per row. The count of rows. */
int zc_ba_tcp_rows(json_t **files, int nfiles, json_t **after, int nafter,
		   void (*fn)(const struct zc_ba_row *row, void *user), void *user);
/* A run's median of metric (summary), NaN unless the run is ok or partial. */
double zc_ba_med(json_t *run, const char *metric);
/* "measured", or "measured (guest, tcg)" for a file kernel-ab brought back
 * from a qemu guest. */
const char *zc_ba_measured_kind(json_t *root, char *buf, size_t len);
/* after over before in percent, NaN without both. */
double zc_ba_change_pct(double before, double after);
/* The same rows as JSON on f (before-after --json; results/README.md). 0 or -EIO. */
int zc_ba_print_json(FILE *f, json_t **files, int nfiles, json_t **after, int nafter);

#endif
