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
			round[run] = (struct zc_slot){ run, rep };
		/* Round by round from one generator: round r's shuffle does not
		 * depend on how many rounds follow (prefix-stable). */
		if (rng)
			gsl_ran_shuffle(rng, round, runs, sizeof(*round));
	}
	gsl_rng_free(rng);
	return 0;
}
