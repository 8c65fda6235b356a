/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_TABLE_H
#define ZC_TABLE_H

#include <jansson.h>
#include <stdio.h>

/*
 * Human table of runs (one line each, the reason under a failed one).
 * width 0: every column (run --wide); else the narrow table (run, path,
 * chunk, the metrics marked narrow in metrics.c, status), each row cut to
 * width characters rather than wrapped.
 */
void zc_print_table(FILE *f, json_t *runs, int width);
/* The headline ratios of a results file's "headline": each with its
 * interval, what it says against 1.0+-5%, each side's DUT busy (not
 * saturated under 0.9), and the disturbed samples
 * left out. width as zc_print_table's: 0 every figure, else rows cut to it
 * and without the two Gbps per core (the table has them). */
void zc_print_headline(FILE *f, json_t *headline, json_t *runs, int width);
/* headline_best (results/best.c): each ratio at each side's best chunk and pipe
 * size, with its answer and each DUT's busy: printed before zc_print_headline. */
/* What the best-size headline is, said once for the run table and report. */
#define ZC_BEST_INTRO                                                                     \
	"Headline, the fair question first: each side at its best size among those run "  \
	"(the best median Gbps/core; the interval leaves the choice out, which favours "  \
	"a noisy high side a little):"
void zc_print_headline_best(FILE *f, json_t *best, int width);
/* One line: the order the samples were taken in, and for repetitions =
 * auto why it stopped. */
void zc_print_schedule(FILE *f, json_t *schedule);
/* "position effect (balanced order, ...): place 1 +0.4% +-0.9, ...": each
 * place's effect in its round (results/results.h, zc_position_effect);
 * nothing when the order does not vary the places. */
void zc_print_position(FILE *f, json_t *root);

#endif
