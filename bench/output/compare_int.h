/* SPDX-License-Identifier: GPL-2.0 */
/* Inside compare: one cell's interval and answer (compare_judge.c), the gate
 * over the gated cells (compare_gate.c), the profile rows (compare_profile.c). */
#ifndef ZC_COMPARE_INT_H
#define ZC_COMPARE_INT_H

#include "output/compare.h"

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
	json_t *noise;			/* --noise FILE's content, or NULL */
	double alpha;			/* the interval's level is 1 - alpha */
	double threshold_pct;		/* +-T of the answer */
};

/* The cell's change, its interval and answer at 1 - alpha; the gated cells
 * are judged again at the family's level (compare.c, zc_cmp_regate). */
void zc_cmp_judge(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v);
/* The cell's interval at level, its answer at +-threshold_pct, and whether
 * that is a regression for a metric whose better direction is better. */
void zc_cmp_regate(struct zc_cmp_verdict *v, const struct zc_metric *m, double level,
		   double threshold_pct);

/* One judged cell, in the order compare's two passes visit them. */
struct zc_cmp_cell_v {
	struct zc_cmp_verdict v;
	const struct zc_metric *m;
	char name[400];		/* the run's name and the sizes that tell it from its siblings */
	const char *path;	/* the other side's file */
	bool gated;
};

/* The gate's answers over the gated cells. */
struct zc_cmp_tally {
	int regressions, cant_tell, within, better;
	double could_see;	/* the smallest bad-way change a can't-tell cell could see, % */
};

/* The gated cells judged together (compare_gate.c): each interval at
 * 1 - alpha/gated (Bonferroni), so that all hold at 1 - alpha at once, then
 * answered at +-fail_pct and counted. */
void zc_cmp_gate_family(struct zc_cmp_cell_v *cells, size_t n, size_t gated, double alpha,
			double fail_pct, struct zc_cmp_tally *t);
/* The gate's lines, one per gated figure, and its summary; the exit code:
 * 1 (a regression, a run lost in NEW, a side with nothing compared, or no
 * gated figure), 3 (can't tell; 0 with pass_cant_tell), else 0. */
int zc_cmp_gate_summary(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
			size_t n, const struct zc_cmp_tally *t, int lost, int empty_sides,
			bool pass_cant_tell);

/* The headline ratios of root_b matched in root_n (compare_ratios.c), as
 * cells after the runs' (their metric "ratio", higher is better) with each
 * file's per-round ratios in (*sides)[2k] and [2k + 1]: both malloc'd, free
 * them. How many. */
size_t zc_cmp_ratio_cells(json_t *root_b, json_t *root_n, const char *path_n, double alpha,
			  double threshold_pct, bool gated, struct zc_cmp_cell_v **out,
			  struct zc_cmp_side **sides);
/* Their rows under the runs' table: both files' medians of the per-round
 * ratios, the change with its interval and answer. */
void zc_cmp_ratio_rows(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
		       const struct zc_cmp_side *sides, size_t n);

/* compare's perf-profile lines of one run key (runs[i] NULL where missing),
 * after its metric rows, through the layout's row functions (compare_profile.c).
 * How many rows. */
int zc_cmp_profile_rows(FILE *f, const struct zc_cmp *c, json_t *const *runs, const char *name);

/* compare --help's text: matching, exit codes, the layouts. */
void zc_cmp_about(char *buf, size_t len);

#endif
