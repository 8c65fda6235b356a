/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_TABLE_H
#define ZC_TABLE_H

#include <jansson.h>
#include <stdio.h>

/* Human table of runs (one line each, the reason under a failed one). */
void zc_print_table(FILE *f, json_t *runs);
/* The headline ratios of a results file's "headline". */
void zc_print_headline(FILE *f, json_t *headline);

#endif
