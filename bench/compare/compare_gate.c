// SPDX-License-Identifier: GPL-2.0
/*
 * compare's regression gate: the gated figures' intervals held together
 * (Bonferroni over them, each answer one-sided), each answered at +-T (lib/verdict.h), one line a
 * reader acts on per figure, and the exit code a nightly job reads: 0 when
 * every gated figure is shown within T (or better), 1 when one regressed
 * beyond it, 3 when one cannot tell.
 */
#include "compare/compare_int.h"
#include "lib/zcbench.h"

#include <math.h>
#include <string.h>

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
	bool aa_used = false, cross = false;
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
		aa_used |= !isnan(cl->v.noise_rel);
		cross |= cl->v.tested && !cl->v.paired;
	}
	if (!c->gated)
		fprintf(f, "  (no gated figure in these files: --gate names the metrics)\n");
	if (aa_used)
		snprintf(line, sizeof(line), "  sides from two invocations: their intervals add the "
			 "offset between invocations measured by %s", c->noise_path);
	else if (cross)
		snprintf(line, sizeof(line), "  sides from two invocations, no --noise FILE: the "
			 "intervals hold the samples' spread only, not how far two invocations drift "
			 "apart (zcbench noise measures that)");
	if (aa_used || cross)
		zc_cmp_put_fitted(f, c, line, 2);
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
