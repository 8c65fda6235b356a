/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rounds until decided: looking at an interval after every few rounds and
 * stopping when it answers would, at a fixed level, lose the level (stop on
 * a lucky interval: runs that stopped at 3 rounds covered 50-84%). The
 * looks here spend the error rate instead: look j's interval is at level
 * 1 - a_j with a_1 + a_2 + ... <= alpha, so every look's interval holds
 * together at 1 - alpha (Bonferroni over the looks: no assumption on how
 * the looks depend on each other, an unplanned last look included), and so
 * does the interval at whatever look the run stopped.
 *
 * The looks come after ZC_SEQ_FIRST rounds, then each about ZC_SEQ_GROWTH
 * times the last, and at the maximum; alpha is spent as the power family
 * alpha (n / max)^ZC_SEQ_RHO (Lan and DeMets's spending function, Kim and
 * DeMets's rho = 2): little early, where an answer needs a large change,
 * most where the rounds are. A run cut short (a time budget) spends all
 * that is left at its last look. tests/unit/test_sequential.c simulates
 * coverage and error rates over a grid.
 */
#ifndef ZC_SEQUENTIAL_H
#define ZC_SEQUENTIAL_H

#include <stdbool.h>

#define ZC_SEQ_FIRST 3
/* The level every look together holds (the one a reader is shown). */
#define ZC_SEQ_LEVEL 0.95
#define ZC_SEQ_GROWTH 1.5
#define ZC_SEQ_RHO 2.0

struct zc_seq {
	double alpha;		/* two-sided, of every look together: 1 - level */
	long first, max;	/* rounds of the first look; of the last */
	double spent;		/* alpha spent by the looks so far */
	long last;		/* rounds at the last look taken (0: none) */
	int looks;		/* looks taken */
};

/* Looks at level (0.95) from first (>= 1) to max (>= first) rounds.
 * 0 or -EINVAL. */
int zc_seq_init(struct zc_seq *q, double level, long first, long max);
/* The rounds of the look after one at `rounds` (first when rounds <
 * first); max when none is planned before it; 0 past max. */
long zc_seq_next(const struct zc_seq *q, long rounds);
/* Is `rounds` a planned look? */
bool zc_seq_is_look(const struct zc_seq *q, long rounds);
/*
 * Take a look at `rounds` (> the last look's): spends its share and
 * returns the level of this look's interval. final: the run stops here
 * whatever the answer (the maximum, a budget): it spends all that is left.
 * NAN when rounds is not after the last look.
 */
double zc_seq_look(struct zc_seq *q, long rounds, bool final);
/* The level a look at `rounds` would have without taking it (final as
 * above). */
double zc_seq_level_at(const struct zc_seq *q, long rounds, bool final);

#endif
