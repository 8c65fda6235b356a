/* SPDX-License-Identifier: GPL-2.0 */
/* Private to metrics/: what a metric's derive function reads. */
#ifndef ZC_METRICS_INT_H
#define ZC_METRICS_INT_H

#include "metrics/metrics.h"

/*
 * One ok sample's inputs, read once from its role reports. Figures are NaN
 * where a report lacks them. For a foreign DUT (a program that reports
 * nothing) the DUT's window is the configured one, its bytes the sink's and
 * its busy time the controller's own /proc/stat read.
 */
struct zc_derive_in {
	json_t *sample;		/* the metrics of earlier rows are already set */
	json_t *roles;		/* {ROLE: REPORT} */
	json_t *dut;		/* the DUT's report; NULL for a foreign DUT */
	const char *dut_role;
	double sink_window_s, sink_bytes;
	double dut_window_s, dut_bytes, dut_busy_s, dut_calls;
	double dut_rusage_s;	/* getrusage user + sys over the DUT's window */
	json_t *sink_conns;	/* the sink's "connections": [{id, gbps, ...}], or NULL */
};

/* report_num.c: the number at o.key, NaN when absent or not a number. */
double zc_derive_num(json_t *o, const char *key);
/* The number at a dotted path ("counters.perf.ipc") in o, NaN if none. */
double zc_derive_at(json_t *o, const char *path);

#endif
