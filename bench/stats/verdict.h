/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdicts with three answers: a change's interval against a threshold T.
 *
 *   changed     the interval lies wholly beyond -T or wholly beyond +T
 *   unchanged   the interval lies wholly within [-T, +T]
 *   can't tell  the interval spans -T or +T (or there is no interval: too few
 *               samples); then the smallest change this comparison would call
 *               changed, and about how many rounds would resolve T
 *
 * The interval is Student's t on the logs of the values (a ratio metric: the
 * change is new/base, its interval exp(d -+ half)) or on the values
 * themselves (a percent metric: the change is new - base in points). Paired
 * when both sides were taken in rounds of one invocation (the per-round log
 * ratios, df = n - 1), else Welch's unequal-variance interval on the two
 * sides' logs (Welch-Satterthwaite df). Under lognormal noise both are exact
 * or close to it at any n >= 3, where a percentile bootstrap of 3 values is
 * their min..max (tests/unit/test_verdict.c simulates the coverage).
 *
 * This is an equivalence-test reading of an interval (Schuirmann's TOST
 * when T > 0; the plain two-sided test when T = 0), with T the magnitude
 * floor Perfherder puts under its alerts and the "unknown, take more
 * samples" answer Pinpoint gives when its test cannot decide.
 *
 * Changes, thresholds and results are fractions on the log scale's reading
 * (0.05 = 5%) or points on the additive one.
 */
#ifndef ZC_VERDICT_H
#define ZC_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

/* Fewer complete pairs (or samples on a side) than this: no interval. */
#define ZC_INTERVAL_MIN_N 3
/* The power "could see" and "N more would tell" promise: a change of that
 * size is called changed this often, averaged over what the spread's
 * estimate could have been at its degrees of freedom (so at n = 3 the
 * margin is wider than t + t_power: tests/unit/test_verdict.c). */
#define ZC_VERDICT_POWER 0.8

/* Where the spread between invocations came from (zc_change_invocations). */
enum zc_between {
	ZC_BETWEEN_NONE,	/* not a question across invocations */
	ZC_BETWEEN_SIDES,	/* measured: the sides' own invocations */
	ZC_BETWEEN_PROFILE,	/* the host's noise profile (one invocation a side) */
	ZC_BETWEEN_BOTH,	/* the sides' invocations and the profile, pooled */
	ZC_BETWEEN_DEFAULT,	/* neither: ZC_BETWEEN_DEFAULT_SD, stated */
};
/* "", "measured", "profile", "measured+profile", "default" */
const char *zc_between_name(enum zc_between b);

enum zc_answer {
	ZC_ANSWER_CHANGED,
	ZC_ANSWER_UNCHANGED,
	ZC_ANSWER_CANT_TELL,
};
/* "changed", "unchanged", "can't tell" */
const char *zc_answer_name(enum zc_answer a);
/* "changed", "unchanged", "cant_tell": for JSON and exports */
const char *zc_answer_key(enum zc_answer a);

/* The change from base to new and its interval, on the scale it was made on. */
struct zc_change {
	bool log_scale;		/* d, lo, hi are logs of new/base; else new - base */
	bool paired;		/* per-round pairs (else two independent sides) */
	bool ok;		/* an interval exists: n (and n2) >= ZC_INTERVAL_MIN_N */
	size_t n, n2;		/* complete pairs; or base's and new's samples */
	double d;		/* the estimate: mean log ratio, or mean difference */
	double se;		/* its standard error from the samples */
	double df;		/* of se: n - 1 paired, Welch-Satterthwaite unpaired */
	double var_b, var_n;	/* per-sample variances: of the pairs' d (var_b) or of each side */
	double offset_sd;	/* sd of an offset between invocations added (A/A), 0: none */
	/* Across invocations (zc_change_invocations): n and n2 count
	 * invocations, var_b is the variance of one invocation's mean, se and
	 * df are the t on invocation means'. */
	bool invocations;
	enum zc_between between;
	double df_extra;	/* of df, what the profile brought (INFINITY: the default's) */
	double level;		/* of the interval: 0.95, or 1 - alpha/m for m gated together */
	double half;		/* t(level, df_eff) sqrt(se^2 + offset_sd^2), df_eff by
				 * Satterthwaite (the offset's df infinite) */
	double lo, hi;		/* d - half, d + half (NaN without an interval) */
};

/* Paired: base[i], new[i] of round i (NaN: a missing side, that pair is
 * dropped). log_scale: every kept value must be > 0. 0 (c->ok may still be
 * false: fewer than ZC_INTERVAL_MIN_N pairs), -EINVAL (a kept value <= 0 on
 * the log scale, level outside (0,1)) */
int zc_change_paired(const double *base, const double *new, size_t n, bool log_scale,
		     double level, struct zc_change *c);
/* Unpaired: two independent sides (NaN values dropped). Same returns. */
int zc_change_unpaired(const double *base, size_t nb, const double *new, size_t nn,
		       bool log_scale, double level, struct zc_change *c);
/* Unpaired with one spread shared by both sides (Student's pooled t, df =
 * nb + nn - 2): nights of a series, each one invocation of one build, whose
 * spread the step (if any) moves and does not widen. Welch's at 3 nights
 * against 27 is too liberal when the 3 happen to be tight and useless when
 * they happen to be wide (tests/unit/test_between.c, the nightly gate).
 * Same returns as zc_change_unpaired. */
int zc_change_pooled(const double *base, size_t nb, const double *new, size_t nn, bool log_scale,
		     double level, struct zc_change *c);
/* Invocations a side zc_change_invocations reads (more are left out). */
#define ZC_INVOCATIONS_MAX 256

/* One invocation's samples of one figure, on a change's scale (logs for a
 * ratio metric): the unit a question across invocations (two kernels, two
 * builds, two nights) varies over. */
struct zc_invocation {
	double mean;		/* of its samples, on the scale */
	double var;		/* their variance within it (n - 1); NaN when n < 2 */
	size_t n;
};
/* The values v[0..n) (NaN dropped) as one invocation. 0, -EINVAL (a value
 * <= 0 or infinite the scale cannot take), -ENODATA (no value) */
int zc_invocation_of(const double *v, size_t n, bool log_scale, struct zc_invocation *inv);

/* A host's spread between invocations of one figure (a noise profile's
 * entry): how far one invocation's mean moves from the next, measured from
 * invocations of one build, or stated. */
struct zc_between_spread {
	double inv_var;		/* variance of one invocation's mean, on the scale */
	double n;		/* samples per invocation it was measured with */
	double within_var;	/* the samples' variance within an invocation (NaN: unknown) */
	double df;		/* inv_var's: invocations - 1 (INFINITY: stated) */
};
/* With nothing that measured it: this sd of one invocation's mean on the log
 * scale (12%: above this 2-core VM's 7-9% between invocations with 3 samples'
 * spread on top, docs/gating.md, and small enough that a halved figure is
 * still told at a family's level: tests/unit/test_between.c). On the
 * additive scale, this share of the base's mean. */
#define ZC_BETWEEN_DEFAULT_SD 0.12
/* The spread of k >= 2 invocations of one build. 0, -EDOM (k < 2) */
int zc_between_measure(const struct zc_invocation *inv, size_t k, struct zc_between_spread *b);

/*
 * Across invocations: kb invocations of base against kx of new, each side's
 * change the mean of its invocations' means, Student's t on invocation
 * means. The spread of one invocation's mean comes from the sides' own
 * invocations (pooled over both, df = kb + kx - 2) when there are three or
 * more in all, from the profile (may be NULL; its df, its inv_var moved to
 * this comparison's samples per invocation by the within variance), both
 * pooled by their df, or, with neither, from ZC_BETWEEN_DEFAULT_SD (df
 * infinite) and c->between says which. c->ok whenever both sides have an
 * invocation. 0, -EINVAL (level outside (0,1)).
 */
int zc_change_invocations(const struct zc_invocation *b, size_t kb, const struct zc_invocation *x,
			  size_t kx, bool log_scale, const struct zc_between_spread *profile,
			  double level, struct zc_change *c);

/* The interval at another level (a family's Bonferroni level), or with an
 * offset between invocations of sd offset_sd added (on c's scale; from an A/A
 * floor, zc_offset_sd_of_floor). Either argument NaN: keep c's. */
void zc_change_relevel(struct zc_change *c, double level, double offset_sd);
/* An A/A noise floor (fraction: the 95% quantile of |new/base - 1| between
 * two invocations of one build) as the sd of a normal offset on the log
 * scale: log1p(floor) / z(0.975). NaN for NaN or a negative floor. */
double zc_offset_sd_of_floor(double floor_rel);

/* On the reading scale: 100 (exp(x) - 1) percent for the log scale, x points else. */
double zc_change_pct(const struct zc_change *c, double x);

struct zc_verdict {
	enum zc_answer answer;
	int direction;		/* changed: +1 up, -1 down; else the estimate's sign */
	double threshold;	/* T: a fraction (log scale) or points */
	/* The smallest drop and rise (fractions or points, positive) this
	 * comparison calls changed with about ZC_VERDICT_POWER chance, at its
	 * n and spread; NaN without an interval. */
	double can_see_down, can_see_up;
	/* About how many rounds (pairs; per side unpaired; invocations a side
	 * across invocations) resolve T: a change of 2T called changed and no
	 * change called unchanged, each about ZC_VERDICT_POWER of the time.
	 * 0: unknown (no interval); SIZE_MAX: no number of rounds does (the
	 * offset between invocations alone is wider). */
	size_t rounds_for_threshold;
};
/* Judge c against +-threshold (>= 0; a fraction or points). 0, -EDOM (threshold
 * NaN or negative). */
int zc_verdict_judge(const struct zc_change *c, double threshold, struct zc_verdict *v);
/* The same without rounds_for_threshold (left 0): its bisection costs a
 * millisecond or so, which a simulation of thousands of verdicts skips. */
int zc_verdict_answer(const struct zc_change *c, double threshold, struct zc_verdict *v);

/*
 * One line a reader acts on, on c's reading scale, e.g.
 *   "changed -50.0% [-61.2%, -35.6%]"
 *   "unchanged within +-5%: -0.4% [-3.1%, +2.4%]"
 *   "can't tell at +-5%: -1.0% [-31.0%, +40.2%], could see -26%/+35%, ~40 rounds for +-5%"
 *   "can't tell: 2 pairs, an interval needs 3"
 */
void zc_verdict_fmt(const struct zc_change *c, const struct zc_verdict *v, char *buf, size_t len);
/* How the interval was made, for the words beside it: "paired",
 * "unpaired", or across invocations "2 invocations, the spread between them
 * stated (12%)" / "... measured" / "... from the profile". */
void zc_change_method(const struct zc_change *c, char *buf, size_t len);
/* The interval alone: "-1.0% [-31.0%, +40.2%]" or "-1.0% (no interval: n=2)". */
void zc_change_fmt(const struct zc_change *c, char *buf, size_t len);

#endif
