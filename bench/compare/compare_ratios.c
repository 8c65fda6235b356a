// SPDX-License-Identifier: GPL-2.0
/*
 * compare's headline ratios: each pair of runs the modes declare (splice over
 * copy, tee over send ...) in BASE, matched by both runs' whole keys in NEW,
 * and the ratio's change from BASE to NEW with its interval: the ratio is
 * taken per round in each file (the two runs of a round share the machine's
 * state), then Student's t on the log ratios paired by round when both files
 * are one invocation; from two invocations, each file's ratio is one
 * invocation's, held to the spread between invocations of that ratio (the
 * profile's, or the stated default), as a run's figure is (verdict.c): the
 * ratio cancels much of what an invocation's offset does to both runs, not
 * all of it. A drop of the ratio is the bad way: the numerator's path lost
 * against its reference.
 */
#include "compare/compare_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What the gate and the lines read of a ratio: its name, higher is better. */
static const struct zc_metric ratio_metric = {
	.key = "ratio", .unit = "x", .better = ZC_BETTER_HIGHER,
	.help = "a headline ratio of Gbit/s per core, numerator over denominator",
};

/* The two sides' per-round ratios as a cell's samples (for the table). */
static void fill(struct zc_cmp_side *s, const double *r, size_t n)
{
	s->n = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(r[i]))
			s->v[s->n++] = r[i];
	zc_summarize(s->v, s->n, &s->s);
}

size_t zc_cmp_ratio_cells(json_t *root_b, json_t *root_n, const char *path_n,
			  const struct zc_cmp_invs *inv_b, const struct zc_cmp_invs *inv_n,
			  const struct zc_cmp_invs *profile, double alpha,
			  double threshold_pct, bool gated, struct zc_cmp_cell_v **out,
			  struct zc_cmp_side **sides)
{
	static double rb[ZC_SAMPLES_MAX], rn[ZC_SAMPLES_MAX];
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(json_object_get(root_b, "runs"), 0, &pv), k = 0;
	struct zc_cmp_cell_v *cells = calloc(n ? 2 * n : 1, sizeof(*cells));
	struct zc_cmp_side *sd = calloc(n ? 2 * n : 1, sizeof(*sd));

	*out = NULL;
	*sides = NULL;
	if (!cells || !sd) {
		free(cells);
		free(sd);
		free(pv);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		char kn[512], kd[512], id[300], chunk[24], pipe[24];
		json_t *nn, *nd;
		struct zc_cmp_cell_v *cl = &cells[k];
		struct zc_cmp_side *b = &sd[2 * k], *m = &sd[2 * k + 1];
		size_t cb, cn;
		const char *at;

		zc_an_key(pv[i].run, kn, sizeof(kn));
		zc_an_key(pv[i].peer_run, kd, sizeof(kd));
		nn = zc_cmp_find_run(root_n, kn, 0);
		nd = zc_cmp_find_run(root_n, kd, 0);
		if (!nn || !nd)
			continue;
		cb = zc_cmp_ratios_by_round(pv[i].run, pv[i].peer_run, rb, ZC_SAMPLES_MAX);
		cn = zc_cmp_ratios_by_round(nn, nd, rn, ZC_SAMPLES_MAX);
		fill(b, rb, cb);
		fill(m, rn, cn);
		memset(&cl->v, 0, sizeof(cl->v));
		if (zc_an_paired(root_b, pv[i].run, root_n, nn) &&
		    !zc_change_paired(rb, rn, cb > cn ? cb : cn, true, 1 - alpha, &cl->v.ch) &&
		    cl->v.ch.ok) {
			cl->v.paired = true;
		} else if (zc_an_cross(root_b, root_n)) {
			static struct zc_invocation ib[ZC_PROFILE_FILES_MAX], inn[ZC_PROFILE_FILES_MAX];
			struct zc_between_spread ps;
			bool has = zc_cmp_profile_ratio_spread(profile, kn, kd, &ps);
			size_t kb = zc_cmp_invs_of_ratio(inv_b, kn, kd, ib);
			size_t kx = zc_cmp_invs_of_ratio(inv_n, kn, kd, inn);

			zc_cmp_across(ib, kb, inn, kx, b, m, true, has ? &ps : NULL, 1 - alpha, &cl->v.ch);
		} else {
			zc_change_unpaired(b->v, b->n, m->v, m->n, true, 1 - alpha, &cl->v.ch);
		}
		cl->v.base_mean = b->s.mean;
		cl->v.identical = b->n && b->n == m->n && !memcmp(b->v, m->v, b->n * sizeof(*b->v));
		cl->v.change = isnan(cl->v.ch.d) ? NAN : zc_change_pct(&cl->v.ch, cl->v.ch.d);
		cl->v.direction = !isfinite(cl->v.change) || cl->v.change == 0 ? 0 :
				  cl->v.change > 0 ? 1 : -1;
		cl->v.robot = b->n && m->n && (m->s.median < b->s.min || m->s.median > b->s.max) &&
			      (b->s.median < m->s.min || b->s.median > m->s.max);
		cl->m = &ratio_metric;
		cl->gated = gated;
		cl->path = path_n;
		/* The pair's sizes (each from the side whose mode uses it), then
		 * what else tells the numerator's run apart ("splice/copy proxy@64k/1M"). */
		zc_an_run_id(pv[i].run, id, sizeof(id));
		at = strchr(id, '@') ? strchr(strchr(id, '@'), ',') : NULL;
		snprintf(cl->name, sizeof(cl->name), "%s@%s/%s%s", pv[i].name,
			 zc_an_fmt_size(pv[i].chunk, chunk, sizeof(chunk)),
			 zc_an_fmt_size(pv[i].pipe_size, pipe, sizeof(pipe)), at ? at : "");
		snprintf(cl->key, sizeof(cl->key), "%s", kn);
		zc_cmp_regate(&cl->v, cl->m, 1 - alpha, threshold_pct);
		k++;
	}
	free(pv);
	if (!k) {
		free(cells);
		free(sd);
		return 0;
	}
	*out = cells;
	*sides = sd;
	return k;
}

/* The geometric mean of a side's per-round ratios: what the change's
 * estimate (a difference of mean logs) is about, so the row's two figures
 * and its change agree. NaN without a value. */
static double gmean(const struct zc_cmp_side *s)
{
	double sum = 0;

	for (size_t i = 0; i < s->n; i++)
		sum += log(s->v[i]);
	return s->n ? exp(sum / (double)s->n) : NAN;
}

void zc_cmp_ratio_rows(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
		       const struct zc_cmp_side *sides, size_t n)
{
	int w = 0;

	zc_cmp_put_fitted(f, c, "\nHeadline ratios (Gbit/s per core, numerator over denominator; "
			  "the geometric mean of the per-round ratios in each file, the change and its "
			  "interval on their logs):", 2);
	for (size_t i = 0; i < n; i++)
		w = (int)strlen(cells[i].name) > w ? (int)strlen(cells[i].name) : w;
	w = w > 40 ? 40 : w;
	for (size_t i = 0; i < n; i++) {
		const struct zc_cmp_cell_v *cl = &cells[i];
		struct zc_cmp_notes notes = { "", 0 };
		char line[1024];

		zc_cmp_verdict_note(&cl->v, &notes);
		snprintf(line, sizeof(line), "  %-*s %6.2fx -> %6.2fx  %s%s%s", w, cl->name,
			 gmean(&sides[2 * i]), gmean(&sides[2 * i + 1]), notes.text,
			 c->nfiles > 2 ? " in " : "", c->nfiles > 2 ? cl->path : "");
		zc_cmp_put_fitted(f, c, line, 4);
	}
}
