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
#include <stdio.h>

/* "DUT not saturated: 0.67" into buf, with advice (more source or sink
 * workers where cores are spare, else more connections); false (buf "")
 * when saturated or unknown. */
bool zc_run_unsaturated(json_t *run, bool advice, char *buf, size_t len);
/* "    DUT busy 0.47 / 0.84 of a core: NOT SATURATED (numerator)": a
 * ratio's two DUTs' busy fractions (NaN: unknown), the mark on each under
 * ZC_SATURATED_FRAC; fitted to width (0: as is). only_unsaturated: nothing
 * when both are saturated. */
void zc_print_busy_pair(FILE *f, double num, double den, int width, bool only_unsaturated);

#endif
