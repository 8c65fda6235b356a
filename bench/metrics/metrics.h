/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The metrics of a sample, declared once (metrics.c): key, unit, which way
 * is better, help, how it is derived from the role reports, and its column
 * in the run table. The sample deriver, the run summary, the table,
 * compare, export and the key list of results/README.md all read this list;
 * a new metric is one row there (plus its derive function when it is
 * computed rather than read from a report).
 */
#ifndef ZC_METRICS_H
#define ZC_METRICS_H

#include "lib/zcbench.h"

#include <jansson.h>

/* Which way is better; compare's verdicts and mmtests' gain sign use it. */
enum zc_better { ZC_BETTER_NEITHER, ZC_BETTER_HIGHER, ZC_BETTER_LOWER };

/* When the run table shows a metric's column. */
enum zc_col_show {
	ZC_COL_NONE,		/* not in the table */
	ZC_COL_ALWAYS,
	/* Only when some run has one of the ZC_COL_PRESENT metrics: all of
	 * them then (the --counters columns, "-" where a run lacks one). */
	ZC_COL_PRESENT,
	/* Only when some run is request/response (has one of them): tps, p99. */
	ZC_COL_RR,
};

struct zc_metric_col {
	enum zc_col_show show;
	const char *head;	/* column title */
	int width;		/* characters; at least the title's */
	const char *fmt;	/* printf format of the scaled median: "%.2f" */
	double scale;		/* shown = median * scale (100: a share in percent); 0 is 1 */
	/* "median [min-max]", then an sd% column (stddev / median): the
	 * headline figure, whose spread a reader must see. */
	bool range;
	/* Also in the narrow table run prints by default (without --wide):
	 * the figures a reader needs to read the result. */
	bool narrow;
};

struct zc_derive_in; /* metrics_int.h: what a derive function may read */

struct zc_metric {
	const char *key;	/* JSON key in a sample and in a run's summary */
	const char *unit;
	enum zc_better better;
	const char *help;	/* one line: prometheus HELP, the README key list */
	/*
	 * How it is derived, one of:
	 * derive: computed from the role reports (NaN: not known), with how
	 *         saying so in words for the README;
	 * source: a number read from the DUT's role report at this dotted path.
	 */
	double (*derive)(const struct zc_derive_in *in);
	const char *how;
	const char *source;
	/* Absent (not null) from a sample that could not give it: the
	 * --counters metrics, which a VM or a missing privilege may refuse. */
	bool optional;
	/* Kept in every sample, but not summarised, compared or exported. */
	bool sample_only;
	/* A figure the tool exists for: compare --fail-on-regression gates it
	 * unless --gate names others (the rest are shown, not gated). */
	bool gate;
	/* The greatest value it can take (0: ZC_METRIC_MAX). Every figure is
	 * >= 0: a reader refuses a file with a value below 0 or beyond this,
	 * naming the file and the key (results/schema.c). */
	double max;
	struct zc_metric_col col;
};
/* Beyond any figure zcbench measures (transactions/s, us, calls/MB ...). */
#define ZC_METRIC_MAX 1e12
/* The Gbit/s figures: 1 Pbit/s. */
#define ZC_METRIC_MAX_GBPS 1e6
static inline double zc_metric_max(const struct zc_metric *m)
{
	return m->max > 0 ? m->max : ZC_METRIC_MAX;
}
/* dut_busy_frac under this: the DUT was not saturated (the table and the
 * headline say so, report/saturation.c). */
#define ZC_SATURATED_FRAC 0.9

extern const struct zc_metric zc_metrics[];
extern const size_t zc_nmetrics;

#define zc_for_each_metric(m) \
	for (const struct zc_metric *m = zc_metrics; m < zc_metrics + zc_nmetrics; m++)
/* The metrics of a run's summary, compare and export (not sample_only). */
#define zc_for_each_summary_metric(m) \
	zc_for_each_metric(m) if ((m)->sample_only) {} else

const struct zc_metric *zc_metric_find(const char *key); /* NULL if unknown */
/* Metrics "already in percent" compare by absolute difference. */
bool zc_metric_is_pct(const struct zc_metric *m);

/* Summaries of the samples of one run (median, min, max, stddev, n). */
json_t *zc_run_summary(json_t *samples);
/* Request/response: the client latency histograms of the ok, undisturbed
 * samples merged into one ({count, samples, p50_us ... max_us, mean_us,
 * histogram}), so a run's percentiles are over all its requests; NULL when
 * no sample has one (stream runs). */
json_t *zc_run_latency(json_t *samples);

/*
 * Every metric of one ok sample, from its role reports (sample.roles): dut is
 * the device under test's role; duration_s is the configured window, used
 * for a foreign DUT that reports nothing (the controller's view then).
 */
void zc_sample_derive(json_t *sample, int dut, double duration_s);
/* The optional (--counters) metrics of a sample from the DUT's report in
 * roles ({ROLE: REPORT}); absent counters set nothing. */
void zc_counters_sample_metrics(json_t *sample, json_t *roles, const char *dut);
/* The DUT CPU's share spent in every role's accounting programs, estimated
 * from the programs' mean run time and what the DUT did; NAN without stats. */
double zc_counters_bpf_cost_share(json_t *roles, const char *dut);

/* The metrics section of results/README.md, in Markdown, from the list
 * (between the markers below, which it prints too). */
#define ZC_METRICS_MD_BEGIN "<!-- metrics: generated from bench/metrics/metrics.c -->"
#define ZC_METRICS_MD_END "<!-- end of generated metrics -->"
void zc_metrics_markdown(FILE *f);

#endif
