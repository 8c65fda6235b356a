/* SPDX-License-Identifier: GPL-2.0 */
/* Inside compare: one cell's verdict (compare_judge.c), before the family's
 * correction and the gate (compare.c). */
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
	enum zc_test_kind test;		/* the unpaired test */
	json_t *noise;			/* --noise FILE's content, or NULL */
	bool want_floor;		/* the gate needs a floor */
};

/* The cell's change, test and noise floor; p_adj, significant and the gate
 * are the family's (compare.c). */
void zc_cmp_judge(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v);

/* compare's perf-profile lines of one run key (runs[i] NULL where missing),
 * after its metric rows, through the layout's row functions (compare_profile.c).
 * How many rows. */
int zc_cmp_profile_rows(FILE *f, const struct zc_cmp *c, json_t *const *runs, const char *name);

/* compare --help's text: matching, exit codes, the layouts. */
void zc_cmp_about(char *buf, size_t len);

#endif
