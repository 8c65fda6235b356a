/* SPDX-License-Identifier: GPL-2.0 */
/* The slice ratios of alternate runs (results/slices.h) under the table. */
#ifndef ZC_OUTPUT_SLICES_H
#define ZC_OUTPUT_SLICES_H

#include <jansson.h>
#include <stdio.h>

/* hs: zc_slices_headline()'s array; nothing when empty or NULL. */
void zc_print_slices_headline(FILE *f, json_t *hs);

#endif
