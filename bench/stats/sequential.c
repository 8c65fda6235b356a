// SPDX-License-Identifier: GPL-2.0
/* Looks that spend the error rate (sequential.h). */
#include "stats/sequential.h"

#include <errno.h>
#include <math.h>

int zc_seq_init(struct zc_seq *q, double level, long first, long max)
{
	if (!(level > 0 && level < 1) || first < 1 || max < first)
		return -EINVAL;
	*q = (struct zc_seq){ .alpha = 1 - level, .first = first, .max = max };
	return 0;
}

long zc_seq_next(const struct zc_seq *q, long rounds)
{
	long n = q->first;

	if (rounds >= q->max)
		return 0;
	while (n <= rounds)
		n = (long)ceil((double)n * ZC_SEQ_GROWTH);
	/* A look too close under the maximum gives way to it (it would take
	 * a share the maximum's interval needs more). */
	if (n >= q->max || (double)q->max <= 1.25 * (double)n)
		return q->max;
	return n;
}

bool zc_seq_is_look(const struct zc_seq *q, long rounds)
{
	return rounds >= q->first && rounds <= q->max && zc_seq_next(q, rounds - 1) == rounds;
}

static double spent_by(const struct zc_seq *q, long rounds)
{
	double t = (double)rounds / (double)q->max;

	return q->alpha * pow(t > 1 ? 1 : t, ZC_SEQ_RHO);
}

double zc_seq_level_at(const struct zc_seq *q, long rounds, bool final)
{
	double a;

	if (rounds <= q->last)
		return NAN;
	a = final || rounds >= q->max ? q->alpha - q->spent : spent_by(q, rounds) - q->spent;
	/* Never nothing: a look the plan gave no share (rounds below the
	 * last look's share) still spends a sliver of what is left. */
	if (!(a > 0))
		a = (q->alpha - q->spent) * 1e-3;
	return 1 - a;
}

double zc_seq_look(struct zc_seq *q, long rounds, bool final)
{
	double level = zc_seq_level_at(q, rounds, final);

	if (isnan(level))
		return NAN;
	q->spent += 1 - level;
	q->last = rounds;
	q->looks++;
	return level;
}
