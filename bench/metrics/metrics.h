/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics of a sample: the one list (key, unit, which way is better,
 * help), how each is derived from the role reports, and the per-run summary.
 * The results writer, the table, compare, report, export and plot read
 * metrics from here.
 */
#ifndef ZC_METRICS_H
#define ZC_METRICS_H

#include "lib/zcbench.h"

#include <jansson.h>

struct zc_metric {
	const char *key;
	const char *unit;
	int higher_is_better;	/* 1, 0 (lower is better), -1 (neither) */
	const char *help;
};
extern const struct zc_metric zc_metrics[];
extern const size_t zc_nmetrics;

const struct zc_metric *zc_metric_find(const char *key); /* NULL if unknown */
/* Metrics "already in percent" compare by absolute difference. */
bool zc_metric_is_pct(const struct zc_metric *m);

/* Summaries of the samples of one run (median, min, max, stddev, n). */
json_t *zc_run_summary(json_t *samples);

/*
 * Every metric of one ok sample, from its role reports (sample.roles): dut is
 * the device under test's role; duration_s is the configured window, used
 * for a foreign DUT that reports nothing (the controller's view then).
 */
void zc_sample_derive(json_t *sample, int dut, double duration_s);
/* The --counters metrics of a sample (keys of zc_metrics[]) from the DUT's
 * report in roles ({ROLE: REPORT}); absent counters set nothing. */
void zc_counters_sample_metrics(json_t *sample, json_t *roles, const char *dut);
/* The DUT CPU's share spent in every role's accounting programs, estimated
 * from the programs' mean run time and what the DUT did; NAN without stats. */
double zc_counters_bpf_cost_share(json_t *roles, const char *dut);

#endif
