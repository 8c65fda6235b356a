/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A DUT below ZC_SATURATED_FRAC busy (issue 22, item 3): its Gbit/s per
 * core is that of a DUT that waited for its peers. The table and the
 * headline say so, with the way to load it where the machine has the cores.
 */
#ifndef ZC_OUTPUT_SATURATION_H
#define ZC_OUTPUT_SATURATION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The median dut_busy_frac of run's ok, undisturbed samples; NaN when none. */
double zc_run_busy_frac(json_t *run);
/* "DUT not saturated: 0.67" into buf, with advice (more source or sink
 * workers where cores are spare, else more connections); false (buf "")
 * when saturated or unknown. */
bool zc_run_unsaturated(json_t *run, bool advice, char *buf, size_t len);
/* The run of runs called name, or NULL. */
json_t *zc_run_named(json_t *runs, const char *name);

#endif
