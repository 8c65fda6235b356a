// SPDX-License-Identifier: GPL-2.0
#include "stats/order.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <string.h>

static const char *const order_names[] = {
	[ZC_ORDER_SEQUENTIAL] = "sequential",
	[ZC_ORDER_INTERLEAVED] = "interleaved",
	[ZC_ORDER_RANDOM] = "random",
	[ZC_ORDER_BALANCED] = "balanced",
};

const char *zc_order_name(enum zc_order o)
{
	return (unsigned)o < sizeof(order_names) / sizeof(order_names[0]) ? order_names[o] : NULL;
}

int zc_order_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof(order_names) / sizeof(order_names[0]); i++)
		if (!strcmp(name, order_names[i]))
			return (int)i;
	return -EINVAL;
}

size_t zc_order_period(size_t m)
{
	return m % 2 ? 2 * m : m;
}

/* Place j of row r of a Williams square of m: the first row is 0, 1, m-1,
 * 2, m-2, ..., row r adds r (mod m); rows m..2m-1 of an odd m are rows
 * 0..m-1 reversed. */
static size_t williams(size_t m, size_t r, size_t j)
{
	size_t first;

	if (m % 2 && r % (2 * m) >= m) {
		r -= m;
		j = m - 1 - j;
	}
	first = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : m - j / 2;
	return (first + r) % m;
}

int zc_order_round(enum zc_order kind, const size_t *in, size_t m, size_t round,
		   const gsl_rng *rng, size_t *out)
{
	if (!zc_order_name(kind) || kind == ZC_ORDER_SEQUENTIAL)
		return -EINVAL;
	for (size_t j = 0; j < m; j++)
		out[j] = kind == ZC_ORDER_BALANCED ? in[williams(m, round % zc_order_period(m), j)] : in[j];
	if (kind == ZC_ORDER_RANDOM && rng && m > 1)
		gsl_ran_shuffle(rng, out, m, sizeof(*out));
	return 0;
}

int zc_order_fill(enum zc_order kind, size_t runs, size_t reps, unsigned long seed,
		  struct zc_slot *out)
{
	gsl_rng *rng = NULL;

	if (!runs || !reps || !zc_order_name(kind))
		return -EINVAL;
	if (reps > SIZE_MAX / sizeof(*out) / runs)
		return -EOVERFLOW;
	if (kind == ZC_ORDER_SEQUENTIAL) {
		for (size_t run = 0; run < runs; run++)
			for (size_t rep = 0; rep < reps; rep++)
				out[run * reps + rep] = (struct zc_slot){ run, rep };
		return 0;
	}
	if (kind == ZC_ORDER_RANDOM) {
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!rng)
			return -ENOMEM;
		gsl_rng_set(rng, seed);
	}
	for (size_t rep = 0; rep < reps; rep++) {
		struct zc_slot *round = out + rep * runs;

		for (size_t run = 0; run < runs; run++)
			round[run] = (struct zc_slot){ kind == ZC_ORDER_BALANCED ?
						       williams(runs, rep % zc_order_period(runs), run) : run,
						       rep };
		/* Round by round from one generator: round r's shuffle does not
		 * depend on how many rounds follow (prefix-stable). */
		if (rng)
			gsl_ran_shuffle(rng, round, runs, sizeof(*round));
	}
	gsl_rng_free(rng);
	return 0;
}
