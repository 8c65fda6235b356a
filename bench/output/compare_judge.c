// SPDX-License-Identifier: GPL-2.0
/*
 * One cell of compare: base against one other side for one metric of one
 * run. Paired (Wilcoxon signed-rank on the repetitions taken in the same
 * round) when both sides come from rounds of one invocation, else the
 * unpaired test on the raw samples; the change; the noise floor the gate
 * holds it to (the A/A file's, else the within-file spread of the sides).
 */
#include "output/compare_int.h"
#include "output/noise.h"

#include <math.h>
#include <string.h>

/* Every value of both sides > 0: ratios (and their logs) are defined. */
static bool positive(const double *a, const double *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((!isnan(a[i]) && a[i] <= 0) || (!isnan(b[i]) && b[i] <= 0))
			return false;
	return true;
}

/* The paired verdict; false when fewer than ZC_TEST_MIN_N complete pairs. */
static bool judge_paired(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX], d[ZC_SAMPLES_MAX];
	size_t na = zc_an_values_by_rep(in->b->run, in->m->key, a, ZC_SAMPLES_MAX);
	size_t nb = zc_an_values_by_rep(in->n->run, in->m->key, b, ZC_SAMPLES_MAX);
	size_t n = na > nb ? na : nb, complete = 0;
	bool pct = zc_metric_is_pct(in->m), pos = positive(a, b, n);
	struct zc_paired pr;
	int ret;

	for (size_t i = 0; i < n; i++) {
		d[i] = b[i] - a[i];
		complete += !isnan(d[i]);
	}
	if (complete < ZC_TEST_MIN_N)
		return false;
	/* Logs of the ratios when defined: a pair taken while the machine was
	 * slow weighs like one taken while it was fast. */
	ret = pos && !pct ? zc_wilcoxon_ratio(b, a, n, &v->w) : zc_wilcoxon(d, n, &v->w);
	if (ret)
		return false;
	v->paired = true;
	v->tested = true;
	v->p = v->w.p;
	if (!pct && pos && !zc_paired_ratio_ci(b, a, n, ZC_BOOT_ROUNDS, ZC_BOOT_SEED, 0.95, &pr))
		v->change = 100 * (pr.median - 1);
	else if (pct) {
		size_t k = 0;

		/* The median paired difference, in points. */
		for (size_t i = 0; i < n; i++)
			if (!isnan(d[i]))
				d[k++] = d[i];
		v->change = zc_median(d, k);
	}
	return true;
}

static double floor_within(const struct zc_cmp_side *s)
{
	double f;

	return s->n >= 2 && !zc_noise_floor_within(s->v, s->n, ZC_BOOT_ROUNDS, ZC_BOOT_SEED,
						   ZC_NOISE_QUANTILE, &f) ? f : NAN;
}

void zc_cmp_judge(const struct zc_cmp_cell *in, struct zc_cmp_verdict *v)
{
	const struct zc_cmp_side *b = in->b, *n = in->n;
	bool pct = zc_metric_is_pct(in->m), pair;
	int ret;

	memset(v, 0, sizeof(*v));
	v->p = v->p_adj = v->noise_rel = NAN;
	v->change = pct ? n->s.mean - b->s.mean :
		    b->s.mean != 0 ? 100 * (n->s.mean - b->s.mean) / fabs(b->s.mean) : NAN;
	pair = in->pairing == ZC_PAIRING_REP ||
	       (in->pairing == ZC_PAIRING_AUTO &&
		zc_an_paired(in->root_b, b->run, in->root_n, n->run));
	if (!pair || !judge_paired(in, v)) {
		ret = in->test == ZC_TEST_WELCH ? zc_welch(b->v, b->n, n->v, n->n, &v->t) :
						  zc_mann_whitney(b->v, b->n, n->v, n->n, &v->t);
		v->tested = !ret;
		v->p = v->tested ? v->t.p : NAN;
	}
	v->robot = b->n && n->n &&
		   (n->s.median < b->s.min || n->s.median > b->s.max) &&
		   (b->s.median < n->s.min || b->s.median > n->s.max);
	if (in->m->better != ZC_BETTER_NEITHER && isfinite(v->change) && v->change != 0)
		v->direction = (v->change > 0) == (in->m->better == ZC_BETTER_HIGHER) ? 1 : -1;
	/* Percent metrics change by points: a relative floor does not apply. */
	if (!in->want_floor || pct)
		return;
	if (in->noise) {
		v->noise_rel = zc_noise_floor_of(in->noise, in->key, in->m->key);
		v->noise_src = "A/A";
	}
	if (isnan(v->noise_rel)) {
		/* How far apart two runs with these spreads come out when nothing
		 * changed: the wider side's. Blind to drift between runs. */
		double fb = floor_within(b), fn = floor_within(n);

		v->noise_rel = isnan(fb) ? fn : isnan(fn) ? fb : fmax(fb, fn);
		v->noise_src = isnan(v->noise_rel) ? NULL : "within-file";
	}
}

void zc_cmp_fmt_p(const struct zc_cmp_verdict *v, char *out, size_t len)
{
	const char *name = v->paired ? "W" : v->t.kind == ZC_TEST_WELCH ? "t" : "U";
	int k;

	if (!v->tested) {
		snprintf(out, len, "n too small");
		return;
	}
	k = snprintf(out, len, "%s p=%.3f%s%s", name, v->p,
		     v->paired ? (v->w.exact ? "" : " approx") :
		     v->t.kind == ZC_TEST_MWU && !v->t.exact ? " approx" : "",
		     v->paired ? " paired" : "");
	if (k > 0 && (size_t)k < len && isfinite(v->p_adj) && v->p_adj != v->p)
		snprintf(out + k, len - k, " adj %.3f", v->p_adj);
}

void zc_cmp_gate_note(const struct zc_cmp *c, const struct zc_cmp_verdict *v,
		      struct zc_cmp_notes *n)
{
	if (!v->gated)
		return;
	if (isnan(v->noise_rel))
		zc_cmp_note(n, "floor none, threshold %g%s", c->fail_pct,
			    v->gate.regression ? ": REGRESSION" : "");
	else
		zc_cmp_note(n, "floor %.1f%% %s, threshold %g%%%s", 100 * v->noise_rel, v->noise_src,
			    c->fail_pct, v->gate.regression ? ": REGRESSION" : "");
}
