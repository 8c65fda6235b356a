// SPDX-License-Identifier: GPL-2.0
/*
 * compare's verdicts. One cell (base against one other side for one metric
 * of one run): its change with an interval (stats/verdict.h), Student's t on
 * the per-round log ratios when both sides come from rounds of one
 * invocation; sides from two invocations are one invocation each, the
 * change between them held to the spread between invocations that the
 * host's profile measured (--profile) or, without one, a stated default
 * (zc_change_invocations); percent metrics in points; then the answer at
 * +-T: changed, unchanged or can't tell.
 * The regression gate: the gated figures' intervals held together
 * (Bonferroni over them, each answer one-sided), each answered at +-T, one
 * line a reader acts on per figure, and the exit code a nightly job reads:
 * 0 when every gated figure is shown within T (or better), 1 when one
 * regressed beyond it, 3 when one cannot tell.
 */
#include "compare/compare_int.h"
#include "lib/zcbench.h"

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

void zc_cmp_across(const struct zc_invocation *ib, size_t kb, const struct zc_invocation *in,
		   size_t kn, const struct zc_cmp_side *b, const struct zc_cmp_side *n, bool log_scale,
		   const struct zc_between_spread *profile, double level, struct zc_change *ch)
{
	struct zc_invocation one_b, one_n;

	/* A file side: its samples are one invocation. */
	if (!kb && !zc_invocation_of(b->v, b->n, log_scale, &one_b)) {
		ib = &one_b;
		kb = 1;
	}
	if (!kn && !zc_invocation_of(n->v, n->n, log_scale, &one_n)) {
		in = &one_n;
		kn = 1;
	}
	if (!kb || !kn) {
		/* A side with no value: no interval, as the samples' own test says. */
		zc_change_unpaired(b->v, b->n, n->v, n->n, log_scale, level, ch);
		return;
	}
	zc_change_invocations(ib, kb, in, kn, log_scale, profile, level, ch);
	/* Too few samples to stand for their invocation (the spread a profile
	 * or the default states is of a mean of several). */
	if ((kb == 1 && ib[0].n < ZC_INTERVAL_MIN_N) || (kn == 1 && in[0].n < ZC_INTERVAL_MIN_N)) {
		ch->ok = false;
		ch->lo = ch->hi = NAN;
	}
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
	v->base_mean = b->s.mean;
	v->points = pct;
	v->identical = b->n && b->n == n->n && !memcmp(b->v, n->v, b->n * sizeof(*b->v));
	/* Each side alone: the logs of both must be defined. */
	log_scale = !pct && positive(b->v, b->v, b->n) && positive(n->v, n->v, n->n);
	pair = in->pairing == ZC_PAIRING_REP ||
	       (in->pairing == ZC_PAIRING_AUTO &&
		zc_an_paired(in->root_b, b->run, in->root_n, n->run));
	if (pair && judge_paired(in, log_scale, level, v)) {
		/* rounds of one invocation: its offset cancels in each pair */
	} else if (zc_an_cross(in->root_b, in->root_n)) {
		/* Two invocations drift apart by more than their samples spread:
		 * each is one look at the question. */
		static struct zc_invocation ib[ZC_PROFILE_FILES_MAX], inn[ZC_PROFILE_FILES_MAX];
		struct zc_between_spread p;
		bool prof = zc_cmp_profile_spread(in->profile, in->key, in->m->key, log_scale, &p);
		size_t kb = zc_cmp_invs_of_metric(in->inv_b, in->key, in->m->key, log_scale, ib);
		size_t kn = zc_cmp_invs_of_metric(in->inv_n, in->key, in->m->key, log_scale, inn);

		zc_cmp_across(ib, kb, inn, kn, b, n, log_scale, prof ? &p : NULL, level, &v->ch);
	} else {
		zc_change_unpaired(b->v, b->n, n->v, n->n, log_scale, level, &v->ch);
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

void zc_cmp_gate_family(struct zc_cmp_cell_v *cells, size_t n, size_t gated, double alpha,
			double fail_pct, struct zc_cmp_tally *t)
{
	/* Each answer is one-sided (beyond -T, beyond +T, or within both:
	 * Schuirmann's two one-sided tests), so an interval at 1 - 2 alpha/m
	 * holds each one-sided bound at 1 - alpha/m: no more than alpha of the
	 * families of m raise a false alarm (tests/unit/test_verdict.c). */
	double level = 1 - 2 * alpha / (double)(gated ? gated : 1);

	*t = (struct zc_cmp_tally){ .could_see = NAN };
	for (size_t i = 0; i < n; i++) {
		struct zc_cmp_cell_v *cl = &cells[i];
		double see;

		if (!cl->gated)
			continue;
		cl->v.gated = true;
		zc_cmp_regate(&cl->v, cl->m, level, fail_pct);
		if (cl->v.regression) {
			t->regressions++;
			continue;
		}
		if (cl->v.vd.answer == ZC_ANSWER_UNCHANGED) {
			t->within++;
			continue;
		}
		if (cl->v.vd.answer == ZC_ANSWER_CHANGED) {
			t->better++;
			continue;
		}
		t->cant_tell++;
		see = cl->m->better == ZC_BETTER_LOWER ? cl->v.vd.can_see_up : cl->v.vd.can_see_down;
		if (!cl->v.points && isfinite(see) && !(100 * see >= t->could_see))
			t->could_see = 100 * see;
	}
}

/* A gated cell's verdict as a line a reader acts on. */
static void verdict_line(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cl)
{
	char vs[320], line[1200];
	const char *mark = cl->v.regression ? "REGRESSION" :
			   cl->v.vd.answer == ZC_ANSWER_CANT_TELL ? "can't tell" :
			   cl->v.vd.answer == ZC_ANSWER_UNCHANGED ? "within" :
			   cl->v.direction > 0 ? "better" : "changed";

	/* What it could have seen, on every line: a pass says how large a
	 * regression it would have caught (can't tell says so itself). */
	zc_cmp_verdict_text(&cl->v, vs, sizeof(vs));
	snprintf(line, sizeof(line), "  %-10s %s.%s%s%s: %s%s", mark, cl->name, cl->m->key,
		 c->nfiles > 2 ? " in " : "", c->nfiles > 2 ? cl->path : "", vs,
		 cl->m->better == ZC_BETTER_LOWER ? " (lower is better)" : "");
	zc_cmp_put_fitted(f, c, line, 11);
}

int zc_cmp_gate_summary(FILE *f, const struct zc_cmp *c, const struct zc_cmp_cell_v *cells,
			size_t n, const struct zc_cmp_tally *t, int lost, int empty_sides,
			bool pass_cant_tell)
{
	int from_profile = 0, from_default = 0, from_sides = 0;
	const char *word;
	char line[1200];
	size_t len;
	int ret;

	snprintf(line, sizeof(line), "\nGate: each gated figure's change with its interval against "
		 "+-%g%%, all %zu at once: each interval at %.4g%%, so each one-sided bound holds at "
		 "%.4g%% and a false alarm in all %zu is at most %g%% likely:", c->fail_pct,
		 c->gated, 100 * (1 - 2 * c->alpha / (double)(c->gated ? c->gated : 1)),
		 100 * (1 - c->alpha / (double)(c->gated ? c->gated : 1)), c->gated,
		 100 * c->alpha);
	zc_cmp_put_fitted(f, c, line, 2);
	for (size_t i = 0; i < n; i++) {
		const struct zc_cmp_cell_v *cl = &cells[i];

		if (!cl->gated)
			continue;
		verdict_line(f, c, cl);
		from_profile += cl->v.ch.invocations && (cl->v.ch.between == ZC_BETWEEN_PROFILE ||
							  cl->v.ch.between == ZC_BETWEEN_BOTH);
		from_default += cl->v.ch.invocations && cl->v.ch.between == ZC_BETWEEN_DEFAULT;
		from_sides += cl->v.ch.invocations && cl->v.ch.between == ZC_BETWEEN_SIDES;
	}
	if (!c->gated)
		fprintf(f, "  (no gated figure in these files: --gate names the metrics)\n");
	/* Say what the spread between invocations came from. */
	if (from_sides) {
		snprintf(line, sizeof(line), "  sides of several invocations: %d figure%s held to the spread "
			 "between invocations measured from the sides' own (Student's t on their "
			 "invocations' means)", from_sides, from_sides == 1 ? "" : "s");
		zc_cmp_put_fitted(f, c, line, 2);
	}
	if (from_profile) {
		snprintf(line, sizeof(line), "  sides from different invocations: %d figure%s held to the spread "
			 "between invocations measured by --profile %s (%zu invocations)", from_profile,
			 from_profile == 1 ? "" : "s", c->profile_path, c->profile_n);
		zc_cmp_put_fitted(f, c, line, 2);
	}
	if (from_default) {
		snprintf(line, sizeof(line), "  sides from two invocations: %d figure%s held to a stated "
			 "spread between invocations of %.0f%% (sd of an invocation's mean), not "
			 "measured on this host: %s", from_default, from_default == 1 ? "" : "s",
			 100 * ZC_BETWEEN_DEFAULT_SD, c->profile_path ? "--profile has too few "
			 "invocations with these figures" : "--profile PATH measures it");
		zc_cmp_put_fitted(f, c, line, 2);
	}
	/* The best can't-tell figure's reach on a line of its own: the last
	 * line, the one a CI log shows, stays short. */
	if (t->cant_tell && isfinite(t->could_see))
		fprintf(f, "  the best of the can't-tell figures could see a change of %.0f%% the bad "
			   "way\n", t->could_see);
	len = snprintf(line, sizeof(line), "regression gate %g%%: %d regression%s, %d within, %d "
		     "better, %d can't tell", c->fail_pct, t->regressions,
		     t->regressions == 1 ? "" : "s", t->within, t->better, t->cant_tell);
	if (lost && len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - len, ", %d run%s with no ok sample in NEW", lost,
			      lost == 1 ? "" : "s");
	if (empty_sides && len < sizeof(line))
		len += snprintf(line + len, sizeof(line) - len, ", %d file%s with nothing to compare",
			      empty_sides, empty_sides == 1 ? "" : "s");
	ret = zc_cmp_gate_result(c, t, lost, empty_sides, pass_cant_tell, &word);
	if (len < sizeof(line))
		snprintf(line + len, sizeof(line) - len, ": %s", ret == ZC_EXIT_FAIL ? "FAIL" :
			 strcmp(word, "cant_tell") ? "PASS" : pass_cant_tell ?
			 "CAN'T TELL (passed: --pass-cant-tell)" : "CAN'T TELL (exit 3)");
	zc_cmp_put_fitted(f, c, line, 2);
	return ret;
}

int zc_cmp_gate_result(const struct zc_cmp *c, const struct zc_cmp_tally *t, int lost,
		       int empty_sides, bool pass_cant_tell, const char **word)
{
	if (t->regressions || lost || empty_sides || !c->gated) {
		*word = "fail";
		return ZC_EXIT_FAIL;
	}
	if (t->cant_tell) {
		*word = "cant_tell";
		return pass_cant_tell ? ZC_EXIT_OK : ZC_EXIT_CANT_TELL;
	}
	*word = "pass";
	return ZC_EXIT_OK;
}
