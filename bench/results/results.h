/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RESULTS_H
#define ZC_RESULTS_H

#include <jansson.h>
#include <stdio.h>

/* Write root to path atomically (temp file in the same folder, fsync,
 * rename): a reader sees the old file or the new one, never half. 0/-errno */
int zc_json_write_atomic(json_t *root, const char *path);
/* Load a results file and check its schema. NULL with a message in err. */
json_t *zc_results_load(const char *path, char *err, size_t errlen);

/* Metrics derived for every sample, in this order in tables and summaries. */
struct zc_metric {
	const char *key;
	const char *unit;
	int higher_is_better;	/* 1, 0 (lower is better), -1 (neither) */
	const char *help;
};
extern const struct zc_metric zc_metrics[];
extern const size_t zc_nmetrics;

/* Summaries of the samples of one run (median, min, max, stddev, n). */
json_t *zc_run_summary(json_t *samples);
/* Human table of runs, then the headline ratios; ratios also into *headline. */
void zc_print_table(FILE *f, json_t *runs);
json_t *zc_headline(json_t *runs);
void zc_print_headline(FILE *f, json_t *headline);
/* Key identifying a run across results files: "topology/source/proxy/sink/chunk/pipe". */
void zc_run_key(json_t *run, char *out, size_t len);

#endif
