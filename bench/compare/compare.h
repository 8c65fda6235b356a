/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zcbench compare's layouts: one file each (layout_NAME.c) exporting a
 * zc_layout_NAME, and one line in ZC_COMPARE_LAYOUTS below. compare.c
 * matches the runs, runs the tests and the regression gate; a layout only
 * prints what they found.
 */
#ifndef ZC_COMPARE_H
#define ZC_COMPARE_H

#include "stats/stats.h"
#include "stats/verdict.h"
#include "metrics/metrics.h"
#include "results/results.h"

#include <stdio.h>

/* The one list of layouts, X(identifier); the first is the default. A new
 * layout is one line here (every line ends in a backslash). */
#define ZC_COMPARE_LAYOUTS(X) \
	X(lkp)                \
	X(mmtests)            \
	/* end of the list */

#define ZC_COMPARE_FILES_MAX 16

/* One metric of one run in one file. */
struct zc_cmp_side {
	json_t *run;		/* NULL: no such run in this file */
	double v[ZC_SAMPLES_MAX];	/* the ok samples' values */
	size_t n;
	struct zc_summary s;
};

/* One metric of one run, base against one other file. */
struct zc_cmp_verdict {
	double change;		/* percent of the base (the interval's estimate), or points for
				 * percent metrics */
	struct zc_change ch;	/* the change's interval (stats/verdict.h); level 0: none was
				 * made (the profile rows, tested with U) */
	struct zc_verdict vd;	/* its answer at +-the threshold */
	struct zc_test t;	/* profile rows: Mann-Whitney U on the shares */
	bool paired;		/* both sides taken in rounds of one invocation (or --pairing rep) */
	bool tested;		/* an interval (profile rows: a test) could be made */
	bool significant;	/* the interval excludes no change (profile rows: U p < alpha) */
	bool robot;		/* medians outside each other's min..max */
	int direction;		/* +1 better, -1 worse, 0 neither/no change */
	double base_mean;	/* the base side's mean: the raw scale's share of T */
	bool points;		/* a percent metric: change and interval in points */
	bool gated;		/* --fail-on-regression judged it */
	bool headline;		/* a figure the gate judges (or would, with --fail-on-regression) */
	bool identical;		/* both sides hold the same samples: unchanged whatever n */
	bool regression;	/* gated, and changed beyond the threshold the bad way */
};

/* What a layout may read of the comparison. */
struct zc_cmp {
	const struct zc_compare_layout *layout;
	double alpha;		/* 1 - the intervals' level (the gated: alpha / gated) */
	int nfiles;		/* the base and the others (one file: its occurrences) */
	char **paths;
	json_t **roots;
	size_t gated;		/* figures the gate judged together (Bonferroni over them) */
	size_t npaired, nunpaired;	/* cells with an interval each way */
	size_t ninvocations;		/* of the unpaired: t on invocation means */
	double threshold_pct;	/* +-T of "unchanged": the gate's, else ZC_CMP_THRESHOLD_PCT */
	double fail_pct;	/* the gate's threshold (NaN: no gate) */
	const struct zc_cmp_invs *inv;	/* [nfiles]: a folder's invocations (n 0: a file) */
	const char *profile_path;	/* --profile PATH, or NULL */
	size_t profile_n;	/* its invocations */
	int width;		/* the terminal's (lib/term.h): rows and prose fit it */
};
/* T of the words when no gate sets one. */
#define ZC_CMP_THRESHOLD_PCT 5.0

/* The notes at the end of a metric row, "; "-separated. */
struct zc_cmp_notes {
	char text[512];
	size_t len;
};

struct zc_compare_layout {
	const char *name;	/* --format NAME */
	const char *help;	/* one line for compare --help */
	/* After the "# base/new FILE" lines: the "# test" line (zc_cmp_test_line),
	 * the layout's legend, a blank line and the column titles. */
	void (*head)(FILE *f, const struct zc_cmp *c);
	/* Before one run's metric rows; NULL for none. */
	void (*run_head)(FILE *f, const struct zc_cmp *c, const char *key, const char *name);
	/* A metric row starts with the base's cell. full: "RUN.METRIC". */
	void (*row_base)(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
			 const char *full, const struct zc_cmp_side *base);
	/* One other file's cell, judged against the base; v is NULL (and other
	 * empty) when the run is missing there. */
	void (*row_cell)(FILE *f, const struct zc_cmp *c, const struct zc_metric *m,
			 const struct zc_cmp_side *base, const struct zc_cmp_side *other,
			 const struct zc_cmp_verdict *v, struct zc_cmp_notes *notes);
	/* Ends the row; the notes go on the lines under it, fitted to c->width. */
	void (*row_end)(FILE *f, const struct zc_cmp *c, const char *full,
			const struct zc_cmp_notes *notes);
};

#define ZC_LAYOUT_DECL(id) extern const struct zc_compare_layout zc_layout_##id;
ZC_COMPARE_LAYOUTS(ZC_LAYOUT_DECL)
extern const struct zc_compare_layout *const zc_compare_layouts[];
extern const size_t zc_ncompare_layouts;

const struct zc_compare_layout *zc_compare_layout_find(const char *name); /* NULL if none */
/* The layouts' names joined by sep ("lkp|mmtests"), for --help and errors. */
void zc_compare_layout_names(char *buf, size_t len, const char *sep);

/* Helpers for layouts (compare.c). */
void zc_cmp_fmt_value(double x, char *out, size_t len);	/* "-" for NaN */
/* The cell's interval, "-50.0% [-62.1%, -35.6%] paired" (profile rows: "U p=0.100"). */
void zc_cmp_fmt_p(const struct zc_cmp_verdict *v, char *out, size_t len);
/* Column title: the file's base name, or "base"/"new N" when wider than width. */
const char *zc_cmp_file_label(const struct zc_cmp *c, int idx, size_t width, char *buf,
			      size_t len);
/* "# intervals: t on the logs ..." + suffix + newline, fitted to c->width. */
void zc_cmp_test_line(FILE *f, const struct zc_cmp *c, const char *suffix);
void zc_cmp_note(struct zc_cmp_notes *n, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A gated figure's notes: its answer as the gate reads it ("changed +2.0%
 * [+1.0%, +3.1%]", "unchanged within +-5%: ...", "can't tell at +-5%: ...,
 * could see -9%/+10%"), paired or not, and the robot's rule. */
void zc_cmp_verdict_note(const struct zc_cmp_verdict *v, struct zc_cmp_notes *n);
/* The answer with its interval and what it could see, as the gate's lines
 * and the notes say it. */
void zc_cmp_verdict_text(const struct zc_cmp_verdict *v, char *buf, size_t len);
/* Text fitted to c->width: each line broken at spaces, its continuations
 * indented by its own indent plus hang. */
void zc_cmp_put_fitted(FILE *f, const struct zc_cmp *c, const char *text, int hang);

#endif
