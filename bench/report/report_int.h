/* SPDX-License-Identifier: GPL-2.0 */
/* zcbench report's parts (report.c prints, report_model.c reads the file). */
#ifndef ZC_REPORT_INT_H
#define ZC_REPORT_INT_H

#include "results/results.h"

#include <jansson.h>
#include <stddef.h>

/* What report says about one results file (path, root), as `report --json`
 * prints it (results/README.md, "JSON output of zcbench report --json"):
 * the file's host, load and fingerprint, the headline ratios at each side's
 * best size and at each size with their intervals, n and answers, the
 * after-modes without a run, and each run's figures. A new object. */
json_t *zc_report_model(const char *path, json_t *root);

/* "load average (1, 5, 15 min): 0.52 0.40 0.35 before, ... after, steal 0.0%
 * of CPU time" from meta.load_avg and meta.steal.frac (results 1.9), or that
 * the file has neither; into buf, which is returned. report and its mail. */
const char *zc_report_load_text(json_t *load_avg, json_t *steal_frac, char *buf, size_t len);

#endif
