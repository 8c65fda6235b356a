/* SPDX-License-Identifier: GPL-2.0 */
/* Inside compare: one cell's interval and answer and the gate
 * over the gated cells (verdict.c), the profile rows (compare_profile.c). */
#ifndef ZC_COMPARE_INT_H
#define ZC_COMPARE_INT_H

#include "compare/between.h"
#include "compare/compare.h"

enum zc_pairing {
	ZC_PAIRING_AUTO,	/* pairs when both sides were taken in rounds of one invocation */
	ZC_PAIRING_REP,		/* pairs by repetition index whatever their origin */
	ZC_PAIRING_NONE,	/* never: the unpaired test on the raw samples */
};

struct zc_cmp_cell {
	const struct zc_metric *m;
	const char *key;		/* the run key (zc_an_key) */
	json_t *root_b, *root_n;	/* the files of the two sides */
	const struct zc_cmp_side *b, *n;
	enum zc_pairing pairing;
	const struct zc_cmp_invs *profile;	/* --profile, or NULL */
	const struct zc_cmp_invs *inv_b, *inv_n;	/* a folder side's invocations (n 0: a file) */
	double alpha;			/* the interval's level is 1 - alpha */
	double threshold_pct;		/* +-T of the answer */
};

/* The cell's change, its interval and answer at 1 - alpha; the gated cells
 * are judged again at the family's level (compare.c, zc_cmp_regate). */
void zc_cmp_judge(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v);
/* Sides from different invocations: each side's invocations (a folder's,
 * ib/in with n > 0, or the side's samples as one), their change held to the
 * spread between invocations: the sides' own when they have three or more
 * in all, pooled with the profile's (may be NULL), else the profile's or the
 * stated default (stats/verdict.h, zc_change_invocations); no interval when
 * a side of one invocation has fewer than ZC_INTERVAL_MIN_N samples. */
void zc_cmp_across(const struct zc_invocation *ib, size_t kb, const struct zc_invocation *in,
		   size_t kn, const struct zc_cmp_side *b, const struct zc_cmp_side *n, bool log_scale,
		   const struct zc_between_spread *profile, double level, struct zc_change *ch);
/* The cell's interval at level, its answer at +-threshold_pct, and whether
 * that is a regression for a metric whose better direction is better. */
void zc_cmp_regate(struct zc_cmp_verdict *v, const struct zc_metric *m, double level,
		   double threshold_pct);

/* lo, hi of the cell's interval as the change column reads them: percent
 * of the base, or points for a percent metric. */
void zc_cmp_bounds(const struct zc_cmp_verdict *v, double *lo, double *hi);

/* One judged cell, in the order compare's two passes visit them. */
struct zc_cmp_cell_v {
	struct zc_cmp_verdict v;
	const struct zc_metric *m;
	char name[400];		/* the run's name and the sizes that tell it from its siblings */
	char key[512];		/* the run key (zc_an_key); a headline ratio's: its numerator's */
	const char *path;	/* the other side's file */
	struct zc_summary sb, sn;	/* the base's and the other side's samples */
	bool gated;
};

/* What compare shows (compare_show.c): --metrics, --gate, --all. */
struct zc_cmp_sel {
	const char *metrics, *gate;	/* comma lists, or NULL */
	bool all;
};

/* Is key an item of the comma list? */
bool zc_cmp_list_has(const char *list, const char *key);
/* A figure the gate judges (when --fail-on-regression is given): --gate's
 * list, else --metrics', else the metrics declared .gate; never a metric
 * with no better direction. */
bool zc_cmp_headline(const struct zc_cmp_sel *s, const struct zc_metric *m);
/* Does compare show m in this run (runs[0]: the base's, never NULL) in
 * this pass: 0 the gated figures, 1 the rest (--all, --metrics), a metric
 * equal to another shown one left out? */
bool zc_cmp_shown(const struct zc_cmp_sel *s, const struct zc_metric *m, int pass,
		  json_t *const *runs, int nfiles);

/* The gate's answers over the gated cells. */
struct zc_cmp_tally {
	int regressions, cant_tell, within, better;
	double could_see;	/* the smallest bad-way change a can't-tell cell could see, % */
};

/* The gated cells judged together (verdict.c): each interval at
 * 1 - alpha/gated (Bonferroni), so that all hold at 1 - alpha at once, then
 * answered at +-fail_pct and counted. */
void zc_cmp_gate_family(struct zc_cmp_cell_v *cells, size_t n, size_t gated, double alpha,
			double fail_pct, struct zc_cmp_tally *t);
/* The gate's result: its exit code, 1 (a regression, a run lost in NEW, a
 * side with nothing compared, or no gated figure), 3 (can't tell; 0 with
 * pass_cant_tell), else 0; *word "fail", "cant_tell" or "pass". */
int zc_cmp_gate_result(const struct zc_cmp *c, const struct zc_cmp_tally *t, int lost,
		       int empty_sides, bool pass_cant_tell, const char **word);
/* The gate's lines, one per gated figure, and its summary; the exit code
 * (zc_cmp_gate_result). */
int zc_cmp_gate_summary(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
			size_t n, const struct zc_cmp_tally *t, int lost, int empty_sides,
			bool pass_cant_tell);

/* The headline ratios of root_b matched in root_n (compare_ratios.c), as
 * cells after the runs' (their metric "ratio", higher is better) with each
 * file's per-round ratios in (*sides)[2k] and [2k + 1]: both malloc'd, free
 * them. How many. From two invocations, the profile (may be NULL) gives the
 * ratio's spread between invocations. */
size_t zc_cmp_ratio_cells(json_t *root_b, json_t *root_n, const char *path_n,
			  const struct zc_cmp_invs *inv_b, const struct zc_cmp_invs *inv_n,
			  const struct zc_cmp_invs *profile, double alpha,
			  double threshold_pct, bool gated, struct zc_cmp_cell_v **out,
			  struct zc_cmp_side **sides);
/* The occ-th (0: first) run of root with key (zc_an_key), or NULL. */
json_t *zc_cmp_find_run(json_t *root, const char *key, int occ);
/* num/den of Gbit/s per core by round into r[0..max) (NaN where a side is
 * missing); how many rounds. */
size_t zc_cmp_ratios_by_round(json_t *num, json_t *den, double *r, size_t max);
/* Their rows under the runs' table: both files' medians of the per-round
 * ratios, the change with its interval and answer. */
void zc_cmp_ratio_rows(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
		       const struct zc_cmp_side *sides, size_t n);

/* compare's perf-profile lines of one run key (runs[i] NULL where missing),
 * after its metric rows, through the layout's row functions (compare_profile.c).
 * How many rows. */
int zc_cmp_profile_rows(FILE *f, const struct zc_cmp *c, json_t *const *runs, const char *name);

/* What compare --json writes (compare_json.c). */
struct zc_cmp_json {
	const struct zc_cmp *c;
	const struct zc_cmp_cell_v *cells;
	size_t n;
	const struct zc_cmp_tally *tally;
	bool all, same, pass_cant_tell;
	int lost, empty_sides, exit_code;
	json_t *unmatched;	/* [{"key", "only_in": [paths]}] */
};
/* The comparison as one JSON object (results/README.md); 0 or -errno. */
int zc_cmp_json_write(FILE *f, const struct zc_cmp_json *j);

/* compare's options (compare.c). */
struct zc_cmp_opts {
	const char *layout_name;	/* --layout, a row of ZC_COMPARE_LAYOUTS */
	const struct zc_compare_layout *layout;
	double alpha;
	double fail_pct;	/* NaN: no gate */
	const char *metrics;	/* comma list, NULL: every metric */
	const char *gate;	/* comma list, NULL: the metrics' own .gate (or --metrics) */
	bool pass_cant_tell;	/* exit 0, not 3, when the gate could not tell */
	const char *noise;	/* --noise FILE: refused (compare.c says why) */
	const char *profile;	/* --profile PATH */
	int pairing;		/* enum zc_pairing */
	bool all;		/* every metric, not only the gated figures */
	bool json;
};

/* The comparison as it is walked (compare_walk.c). */
struct zc_cmp_walk {
	const struct zc_cmp_opts *o;
	struct zc_cmp_sel sel;	/* which metrics (compare_show.c) */
	struct zc_cmp c;
	int occ[ZC_COMPARE_FILES_MAX];	/* one file: which occurrence of a key each side is */
	json_t *keys;
	struct zc_cmp_invs profile;	/* --profile's invocations (n 0: none) */
	struct zc_cmp_invs inv[ZC_COMPARE_FILES_MAX];	/* a folder side's (n 0: a file) */
	struct zc_cmp_cell_v *cells;
	size_t ncells, cap, cursor;
	struct zc_cmp_tally tally;	/* the gate's answers */
	struct zc_cmp_side *ratio_sides;	/* the headline ratios' per-round values */
	size_t nratio;
	int lost, empty_sides;
	bool any_untested, oom;
	bool differs;		/* a sample of some run differs between the base and a file */
	json_t *unmatched;	/* --json: the runs not on every side */
};

/* Both passes over the runs: judge (print false) every shown cell, or
 * print the table of what the first pass judged, in the same order. */
void zc_cmp_walk(struct zc_cmp_walk *w, FILE *f, bool print);
/* The headline ratios of the base matched in each other file, as cells
 * after the runs'; gated by default, or when --gate (--metrics) names
 * "headline". */
void zc_cmp_add_ratio_cells(struct zc_cmp_walk *w);
/* The sides of one file: each key's first occurrence against the later
 * ones. How many sides (0: no key occurs twice). */
int zc_cmp_sides_of_one(struct zc_cmp_walk *w, json_t *root, const char *path, char **paths,
			json_t **roots);
/* The text: the files, the table (or one line when nothing differs), the
 * headline ratios, the runs not compared; nrun: the cells before the
 * ratios'. */
void zc_cmp_report(struct zc_cmp_walk *w, FILE *f, size_t nrun);

/* compare --help's text: matching, exit codes, the layouts. */
void zc_cmp_about(char *buf, size_t len);

#endif
