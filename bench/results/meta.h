/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_META_H
#define ZC_META_H

#include "lib/cpu.h"

#include <jansson.h>

/* Metadata of this host (DESIGN.md's list): a new JSON object. */
json_t *zc_meta_collect(void);
/*
 * The load and the steal time around the measurement (1.9), on this host
 * (the controller's): at the first edge (after = false) meta gets
 * "load_avg": {"before": [1, 5, 15 min]} from /proc/loadavg and e keeps the
 * CPU time of /proc/stat; at the second, "load_avg"."after" and "steal":
 * {"frac", "steal_s", "cpu_s"}, the steal time over the CPU time of every
 * CPU between the two edges. A value that cannot be read is null.
 */
struct zc_meta_edge {
	struct zc_cpustat cpu;	/* every CPU summed, at the first edge */
	bool cpu_ok;
};
void zc_meta_edge(json_t *meta, struct zc_meta_edge *e, bool after);
/* Kernel fingerprint (zcbench probe); JSON null until probes exist. */
json_t *zc_fingerprint_collect(void);

#endif
