/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_RESCUE_H
#define ZC_RUN_RESCUE_H

/*
 * A results file that cannot be written (full or read-only filesystem) must
 * not pass for a current one: the controller notes each write (here), and
 * at the end says whether PATH holds everything, or that it is stale and
 * where everything measured went instead.
 */
#include "run/controller.h"

/* After each write of c->root to c->path: ret is its result (0 or -errno).
 * A failed one writes the rescue copy ($TMPDIR or /tmp) at once. */
void zc_results_written(struct zc_ctl *c, int ret);

/*
 * The closing "results: PATH" line on stdout. When the last write failed:
 * the line says that PATH is stale, with how many samples it holds, and
 * names the rescue copy (stderr gets the JSON when that cannot be written
 * either). When PATH caught up, the rescue copy is removed. 0, or the last
 * write's -errno.
 */
int zc_results_final_line(struct zc_ctl *c, bool interrupted);

#endif
