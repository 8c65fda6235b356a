/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order in which a run set's repetitions are taken. Interleaved (the
 * default) takes repetition 1 of every run, then repetition 2, ...: a machine
 * that slows down halfway then slows every run alike, and repetition i of two
 * runs is a pair taken close together (stats/paired.h).
 */
#ifndef ZC_ORDER_H
#define ZC_ORDER_H

#include <gsl/gsl_rng.h>
#include <stddef.h>

enum zc_order {
	ZC_ORDER_SEQUENTIAL,	/* "sequential": every repetition of run 0, then run 1, ... */
	ZC_ORDER_INTERLEAVED,	/* "interleaved": round r is repetition r of runs 0..R-1 */
	ZC_ORDER_RANDOM,	/* "random": interleaved rounds, runs shuffled within each */
	ZC_ORDER_BALANCED,	/* "balanced": interleaved rounds, each a row of a Williams square */
};
const char *zc_order_name(enum zc_order o); /* NULL if unknown */
int zc_order_from_name(const char *name); /* enum zc_order or -EINVAL */

/* One slot of the order: repetition `rep` (0-based) of run `run` (0-based). */
struct zc_slot {
	size_t run, rep;
};

/*
 * The runs x reps slots of a run set into out[0..runs*reps), in the order they
 * are taken. Random shuffles the runs within each round (GSL's
 * gsl_ran_shuffle, MT19937 seeded with `seed`, one generator for all rounds)
 * rather than all slots globally: every round still holds repetition r of
 * every run, so pairs stay adjacent in time and a drift hits every run alike,
 * while no run keeps the same place in its round (the first of a round may
 * meet a colder cache or a higher clock). A global shuffle could put most of
 * one run's repetitions at the end. Interleaved and random are prefix-stable:
 * the first k*runs slots are rounds 0..k-1 whatever reps is, so `repetitions =
 * auto` can fill with max_repetitions and stop after any round; seed is
 * ignored by the other two. 0, -EINVAL (runs or reps 0, unknown kind),
 * -EOVERFLOW (runs*reps), -ENOMEM
 */
int zc_order_fill(enum zc_order kind, size_t runs, size_t reps, unsigned long seed,
		  struct zc_slot *out);

/*
 * One round of an interleaved, random or balanced order, over the m runs
 * in[0..m) taking part in it (a run whose question is decided sits the
 * rest out): out[0..m) is in[] in the order they are taken. Balanced: row
 * `round` of a Williams square of m (m rows for an even m, 2m for an odd:
 * every run takes every place in the round equally often and follows every
 * other run equally often, so a place's offset, a colder cache for the
 * first, a warmer one after a like run, falls on every run alike instead of
 * on the run that always goes second). Random: shuffled with rng (GSL's
 * gsl_ran_shuffle; NULL: as interleaved). 0, -EINVAL
 */
int zc_order_round(enum zc_order kind, const size_t *in, size_t m, size_t round,
		   const gsl_rng *rng, size_t *out);
/* Rounds after which a balanced order has had every run at every place
 * (m even: m, odd: 2m). */
size_t zc_order_period(size_t m);

#endif
