// SPDX-License-Identifier: GPL-2.0
/*
 * The position effect of a run set taken in rounds: does the place a sample
 * had in its round (first, second, ...) move its Gbit/s per core, whatever
 * the run and the round? log(value) = run + round + place + noise, fitted by
 * alternating means (backfitting: each factor the mean residual of the
 * others, until it settles), so rounds that took only some runs (repetitions
 * = auto's later rounds) count too. Each place's effect is its fitted level
 * against the mean sample's, with the standard error its count and
 * the fit's residual spread give. With interleaved rounds a place is a run
 * and the two cannot be told apart: said, not fitted.
 */
#include "results/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PLACES_MAX 64

struct obs {
	size_t run, round, place;
	double y;
};

static int by_round_slot(const void *a, const void *b)
{
	const struct obs *x = a, *y = b;

	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return x->place < y->place ? -1 : x->place > y->place;
}

json_t *zc_position_effect(json_t *root)
{
	json_t *runs = json_object_get(root, "runs"), *run, *smp, *out;
	const char *order = zc_an_str(json_object_get(root, "schedule"), "order");
	struct obs *o = NULL;
	size_t n = 0, cap = 0, nrun = json_array_size(runs), nround = 0, nplace = 0, i, j;
	double *a, *b, *c, ss = 0;
	size_t *cnt_c;

	if (strcmp(order, "balanced") && strcmp(order, "random"))
		return NULL;
	/* Every ok, undisturbed sample with its run, round and slot. */
	json_array_foreach(runs, i, run)
		json_array_foreach(json_object_get(run, "samples"), j, smp) {
			json_t *v = json_object_get(smp, "gbps_per_core");

			if (strcmp(zc_an_str(smp, "status"), "ok") || zc_an_disturbed(smp) ||
			    !json_is_number(v) || !(json_number_value(v) > 0) ||
			    !json_is_integer(json_object_get(smp, "slot")))
				continue;
			if (n == cap) {
				struct obs *p = realloc(o, (cap = cap ? 2 * cap : 256) * sizeof(*o));

				if (!p) {
					free(o);
					return NULL;
				}
				o = p;
			}
			o[n].run = i;
			o[n].round = (size_t)zc_an_int(smp, "round");
			o[n].place = (size_t)zc_an_int(smp, "slot");	/* its slot; its place below */
			o[n].y = log(json_number_value(v));
			if (o[n].round + 1 > nround)
				nround = o[n].round + 1;
			n++;
		}
	/* Its place in its round: how many of the round's samples began before
	 * it (slots rise through the run set). */
	/* Its place in its round: samples sorted by round, then slot (slots
	 * rise through the run set), numbered from each round's first. */
	if (n)	/* qsort wants an array, even of none */
		qsort(o, n, sizeof(*o), by_round_slot);
	for (size_t k = 0; k < n; k++)
		o[k].place = k && o[k - 1].round == o[k].round ? o[k - 1].place + 1 : 0;
	for (size_t k = 0; k < n; k++)
		if (o[k].place + 1 > nplace)
			nplace = o[k].place + 1;
	if (n < 4 || nplace < 2 || nplace > PLACES_MAX || nrun < 2) {
		free(o);
		return NULL;
	}
	a = calloc(nrun, sizeof(*a));
	b = calloc(nround, sizeof(*b));
	c = calloc(nplace, sizeof(*c));
	cnt_c = calloc(nplace, sizeof(*cnt_c));
	if (!a || !b || !c || !cnt_c) {
		free(a), free(b), free(c), free(cnt_c), free(o);
		return NULL;
	}
	{
		size_t most = nrun > nround ? nrun : nround;
		double *sum = calloc(most > nplace ? most : nplace, sizeof(*sum));
		size_t *cnt = calloc(most > nplace ? most : nplace, sizeof(*cnt));

		for (int it = 0; sum && cnt && it < 200; it++) {
			double moved = 0;

			for (int f = 0; f < 3; f++) {
				size_t len = f == 0 ? nrun : f == 1 ? nround : nplace;
				double *x = f == 0 ? a : f == 1 ? b : c;

				memset(sum, 0, len * sizeof(*sum));
				memset(cnt, 0, len * sizeof(*cnt));
				for (size_t k = 0; k < n; k++) {
					size_t at = f == 0 ? o[k].run : f == 1 ? o[k].round : o[k].place;

					sum[at] += o[k].y - a[o[k].run] - b[o[k].round] - c[o[k].place] +
						   x[at];
					cnt[at]++;
				}
				for (size_t q = 0; q < len; q++) {
					double nx = cnt[q] ? sum[q] / (double)cnt[q] : 0;

					moved = fmax(moved, fabs(nx - x[q]));
					x[q] = nx;
				}
			}
			if (moved < 1e-10)
				break;
		}
		free(sum);
		free(cnt);
	}
	for (size_t k = 0; k < n; k++) {
		double r = o[k].y - a[o[k].run] - b[o[k].round] - c[o[k].place];

		ss += r * r;
		cnt_c[o[k].place]++;
	}
	{
		/* Against the mean sample's place (weighted by count: rounds
		 * that took only some runs fill the first places most);
		 * residual df: n less the fitted levels. */
		double mean = 0, df = (double)n - (double)(nrun + nround + nplace) + 2, sd;
		json_t *places = json_array();

		for (size_t p = 0; p < nplace; p++)
			mean += c[p] * (double)cnt_c[p] / (double)n;
		sd = df > 0 ? sqrt(ss / df) : NAN;
		for (size_t p = 0; p < nplace; p++)
			json_array_append_new(places, json_pack("{s:I,s:I,s:o,s:o}", "place",
				(json_int_t)p + 1, "n", (json_int_t)cnt_c[p], "effect_pct",
				zc_an_num(100 * expm1(c[p] - mean)), "se_pct",
				zc_an_num(cnt_c[p] ? 100 * sd / sqrt((double)cnt_c[p]) : NAN)));
		out = json_pack("{s:s,s:I,s:I,s:I,s:o,s:o}", "order", order, "samples", (json_int_t)n,
				"runs", (json_int_t)nrun, "rounds", (json_int_t)nround,
				"residual_sd_pct", zc_an_num(100 * sd), "places", places);
	}
	free(a), free(b), free(c), free(cnt_c), free(o);
	return out;
}
