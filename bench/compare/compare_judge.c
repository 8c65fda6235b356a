// SPDX-License-Identifier: GPL-2.0
/*
 * One cell of compare: base against one other side for one metric of one
 * run. Its change with an interval (lib/verdict.h): Student's t on the
 * per-round log ratios when both sides come from rounds of one invocation,
 * else Welch's on the two sides' logs, widened by the offset between
 * invocations an A/A noise file measured; percent metrics in points. Then
 * the answer at +-T: changed, unchanged or can't tell.
 */
#include "compare/compare_int.h"
#include "compare/noise.h"

#include <math.h>
#include <string.h>

/* Every value of a and b[0..n) > 0 (NaN: missing): their logs are defined. */
static bool positive(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((!isnan(a[i]) && a[i] <= 0) || (!isnan(b[i]) && b[i] <= 0))
			return false;
	return true;
}

/* The paired interval; false when fewer than ZC_INTERVAL_MIN_N complete pairs. */
static bool judge_paired(const struct zc_cmp_cell *in, bool log_scale, double level,
			 struct zc_cmp_verdict *v)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX];
	size_t na = zc_an_values_by_rep(in->b->run, in->m->key, a, ZC_SAMPLES_MAX);
	size_t nb = zc_an_values_by_rep(in->n->run, in->m->key, b, ZC_SAMPLES_MAX);
	size_t n = na > nb ? na : nb;

	if (log_scale && !positive(a, b, n))
		return false;
	if (zc_change_paired(a, b, n, log_scale, level, &v->ch) || !v->ch.ok)
		return false;
	v->paired = true;
	return true;
}

void zc_cmp_regate(struct zc_cmp_verdict *v, const struct zc_metric *m, double level,
		   double threshold_pct)
{
	bool pct = zc_metric_is_pct(m);
	double t = pct ? threshold_pct : threshold_pct / 100;

	zc_change_relevel(&v->ch, level, NAN);
	/* A ratio metric with values <= 0 is judged on the raw scale, with T
	 * a share of the base's mean. */
	if (!pct && !v->ch.log_scale)
		t *= fabs(v->base_mean);
	zc_verdict_judge(&v->ch, t, &v->vd);
	/* The same samples on both sides: no change, even where n makes no
	 * interval (a file against itself). */
	if (v->identical && !v->ch.ok)
		v->vd.answer = ZC_ANSWER_UNCHANGED;
	v->tested = v->ch.ok;
	v->significant = v->ch.ok && (v->ch.lo > 0 || v->ch.hi < 0);
	v->regression = v->gated && v->vd.answer == ZC_ANSWER_CHANGED &&
			(m->better == ZC_BETTER_HIGHER ? v->vd.direction < 0 :
			 m->better == ZC_BETTER_LOWER ? v->vd.direction > 0 : false);
}

void zc_cmp_judge(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v)
{
	const struct zc_cmp_side *b = in->b, *n = in->n;
	bool pct = zc_metric_is_pct(in->m), pair, log_scale;
	double level = 1 - in->alpha;

	memset(v, 0, sizeof(*v));
	v->noise_rel = NAN;
	v->base_mean = b->s.mean;
	v->points = pct;
	v->identical = b->n && b->n == n->n && !memcmp(b->v, n->v, b->n * sizeof(*b->v));
	/* Each side alone: the logs of both must be defined. */
	log_scale = !pct && positive(b->v, b->v, b->n) && positive(n->v, n->v, n->n);
	pair = in->pairing == ZC_PAIRING_REP ||
	       (in->pairing == ZC_PAIRING_AUTO &&
		zc_an_paired(in->root_b, b->run, in->root_n, n->run));
	if (!pair || !judge_paired(in, log_scale, level, v))
		zc_change_unpaired(b->v, b->n, n->v, n->n, log_scale, level, &v->ch);
	/* Two invocations drift apart by more than their samples spread: an
	 * A/A file's floor for this run and metric widens the interval. */
	if (!v->paired && in->noise && log_scale) {
		v->noise_rel = zc_noise_floor_of(in->noise, in->key, in->m->key);
		if (!isnan(v->noise_rel))
			zc_change_relevel(&v->ch, NAN, zc_offset_sd_of_floor(v->noise_rel));
	}
	v->change = isnan(v->ch.d) ? NAN :
		    v->ch.log_scale || pct ? zc_change_pct(&v->ch, v->ch.d) :
		    b->s.mean != 0 ? 100 * v->ch.d / fabs(b->s.mean) : NAN;
	v->robot = b->n && n->n &&
		   (n->s.median < b->s.min || n->s.median > b->s.max) &&
		   (b->s.median < n->s.min || b->s.median > n->s.max);
	if (in->m->better != ZC_BETTER_NEITHER && isfinite(v->change) && v->change != 0)
		v->direction = (v->change > 0) == (in->m->better == ZC_BETTER_HIGHER) ? 1 : -1;
	zc_cmp_regate(v, in->m, level, in->threshold_pct);
}

void zc_cmp_bounds(const struct zc_cmp_verdict *v, double *lo, double *hi)
{
	if (v->points || v->ch.log_scale || !(v->base_mean != 0)) {
		*lo = zc_change_pct(&v->ch, v->ch.lo);
		*hi = zc_change_pct(&v->ch, v->ch.hi);
	} else {
		*lo = 100 * v->ch.lo / fabs(v->base_mean);
		*hi = 100 * v->ch.hi / fabs(v->base_mean);
	}
}

void zc_cmp_fmt_p(const struct zc_cmp_verdict *v, char *out, size_t len)
{
	double lo, hi;
	bool points = v->points;

	if (!(v->ch.level > 0)) {	/* a profile row: U on the shares */
		if (!v->tested)
			snprintf(out, len, "n too small");
		else
			snprintf(out, len, "U p=%.3f%s", v->t.p, v->t.exact ? "" : " approx");
		return;
	}
	if (!v->ch.ok) {
		snprintf(out, len, "n too small");
		return;
	}
	zc_cmp_bounds(v, &lo, &hi);
	snprintf(out, len, points ? "[%+.1f, %+.1f] pt %s" : "[%+.1f%%, %+.1f%%] %s", lo, hi,
		 v->paired ? "paired" : "unpaired");
}
