// SPDX-License-Identifier: GPL-2.0
#include "stats/verdict.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *zc_answer_name(enum zc_answer a)
{
	return a == ZC_ANSWER_CHANGED ? "changed" : a == ZC_ANSWER_UNCHANGED ? "unchanged" :
										"can't tell";
}

const char *zc_answer_key(enum zc_answer a)
{
	return a == ZC_ANSWER_CHANGED ? "changed" : a == ZC_ANSWER_UNCHANGED ? "unchanged" :
										"cant_tell";
}

/* The two-sided quantile of t with df degrees of freedom (normal if df is
 * infinite or huge). */
/*
 * A direct-mapped cache of a function of (level, df): a gate or a
 * simulation asks the same few hundred pairs often (sequential looks, each
 * at its own level, at every df), and each value is an iteration.
 */
struct memo {
	double level, df, v;
	bool set;
};
#define MEMO_BITS 10

static struct memo *memo_slot(struct memo *m, double level, double df)
{
	uint64_t a, b;

	memcpy(&a, &level, sizeof(a));
	memcpy(&b, &df, sizeof(b));
	return &m[((a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL)) >> (64 - MEMO_BITS)];
}

static double t_two_sided(double level, double df)
{
	static struct memo memo[1 << MEMO_BITS];
	struct memo *m = memo_slot(memo, level, df);
	double p = 0.5 + level / 2;

	if (m->set && m->level == level && m->df == df)
		return m->v;
	*m = (struct memo){ level, df, isfinite(df) && df < 1e7 ? gsl_cdf_tdist_Pinv(p, df) :
			    gsl_cdf_ugaussian_Pinv(p), true };
	return m->v;
}

/* Satterthwaite's df of se^2 (df) plus off^2 (df_off, may be infinite). */
static double df_sum(double se, double df, double off, double df_off)
{
	double a = se * se, b = off * off, den;

	if (!(b > 0))
		return df;
	if (!(a > 0))
		return df_off;
	den = (isfinite(df) ? a * a / df : 0) + (isfinite(df_off) ? b * b / df_off : 0);
	return den > 0 ? (a + b) * (a + b) / den : INFINITY;
}

/* The interval's spread and its df: the samples' se and the offset's sd
 * added (the offset's df infinite: a stated or long-measured value). */
static double total_se(const struct zc_change *c, double *df)
{
	double off = c->offset_sd > 0 ? c->offset_sd : 0;

	*df = df_sum(c->se, c->df, off, INFINITY);
	return hypot(c->se > 0 ? c->se : 0, off);
}

static void interval(struct zc_change *c)
{
	double tot, df;

	if (!c->ok) {
		c->half = c->lo = c->hi = NAN;
		return;
	}
	tot = total_se(c, &df);
	c->half = tot > 0 ? t_two_sided(c->level, df) * tot : 0;
	c->lo = c->d - c->half;
	c->hi = c->d + c->half;
}

/* Values on the change's scale, NaN kept as NaN; -EINVAL on a value <= 0
 * (or infinite) that the log scale cannot take. */
static int scaled(double x, bool log_scale, double *out)
{
	if (isnan(x)) {
		*out = NAN;
		return 0;
	}
	if (!isfinite(x) || (log_scale && x <= 0))
		return -EINVAL;
	*out = log_scale ? log(x) : x;
	return 0;
}

static void start(struct zc_change *c, bool log_scale, bool paired, double level)
{
	*c = (struct zc_change){ .log_scale = log_scale, .paired = paired, .level = level,
				 .d = NAN, .se = NAN, .df = NAN, .var_b = NAN, .var_n = NAN,
				 .lo = NAN, .hi = NAN, .half = NAN };
}

int zc_change_paired(const double *base, const double *new, size_t n, bool log_scale,
		     double level, struct zc_change *c)
{
	double *d;
	size_t k = 0;
	int ret = 0;

	start(c, log_scale, true, level);
	if (!(level > 0 && level < 1))
		return -EINVAL;
	d = malloc((n ? n : 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double b, x;

		if ((ret = scaled(base[i], log_scale, &b)) || (ret = scaled(new[i], log_scale, &x)))
			goto out;
		if (!isnan(b) && !isnan(x))
			d[k++] = x - b;
	}
	c->n = c->n2 = k;
	if (k)
		c->d = gsl_stats_mean(d, 1, k);
	if (k >= ZC_INTERVAL_MIN_N) {
		c->var_b = gsl_stats_variance_m(d, 1, k, c->d);
		c->se = sqrt(c->var_b / (double)k);
		c->df = (double)k - 1;
		c->ok = true;
	}
	interval(c);
out:
	free(d);
	return ret;
}

/* Mean and variance of one side's scaled values; how many. */
static int side(const double *v, size_t n, bool log_scale, double *buf, size_t *k)
{
	int ret;

	*k = 0;
	for (size_t i = 0; i < n; i++) {
		double x;

		if ((ret = scaled(v[i], log_scale, &x)))
			return ret;
		if (!isnan(x))
			buf[(*k)++] = x;
	}
	return 0;
}

static int two_sides(const double *base, size_t nb, const double *new, size_t nn,
		     bool log_scale, double level, bool pooled, struct zc_change *c)
{
	double *a, *b, mb, mn, sb, sn;
	size_t ka, kb;
	int ret;

	start(c, log_scale, false, level);
	if (!(level > 0 && level < 1))
		return -EINVAL;
	a = malloc((nb ? nb : 1) * sizeof(*a));
	b = malloc((nn ? nn : 1) * sizeof(*b));
	if (!a || !b) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = side(base, nb, log_scale, a, &ka)) || (ret = side(new, nn, log_scale, b, &kb)))
		goto out;
	c->n = ka;
	c->n2 = kb;
	if (!ka || !kb)
		goto out;
	mb = gsl_stats_mean(a, 1, ka);
	mn = gsl_stats_mean(b, 1, kb);
	c->d = mn - mb;
	if (ka < ZC_INTERVAL_MIN_N || kb < ZC_INTERVAL_MIN_N)
		goto out;
	c->var_b = gsl_stats_variance_m(a, 1, ka, mb);
	c->var_n = gsl_stats_variance_m(b, 1, kb, mn);
	if (pooled) {
		double v = (c->var_b * ((double)ka - 1) + c->var_n * ((double)kb - 1)) /
			   ((double)(ka + kb) - 2);

		c->var_b = c->var_n = v;
		c->se = sqrt(v * (1 / (double)ka + 1 / (double)kb));
		c->df = (double)(ka + kb) - 2;
		c->ok = true;
		goto out;
	}
	sb = c->var_b / (double)ka;
	sn = c->var_n / (double)kb;
	c->se = sqrt(sb + sn);
	/* Welch-Satterthwaite; both variances 0 leaves se 0 and df moot. */
	c->df = sb + sn > 0 ? (sb + sn) * (sb + sn) /
				      (sb * sb / ((double)ka - 1) + sn * sn / ((double)kb - 1)) :
			      INFINITY;
	c->ok = true;
out:
	interval(c);
	free(a);
	free(b);
	return ret;
}

int zc_change_unpaired(const double *base, size_t nb, const double *new, size_t nn,
		       bool log_scale, double level, struct zc_change *c)
{
	return two_sides(base, nb, new, nn, log_scale, level, false, c);
}

int zc_change_pooled(const double *base, size_t nb, const double *new, size_t nn, bool log_scale,
		     double level, struct zc_change *c)
{
	return two_sides(base, nb, new, nn, log_scale, level, true, c);
}

void zc_change_method(const struct zc_change *c, char *buf, size_t len)
{
	if (!c->invocations) {
		snprintf(buf, len, "%s", c->paired ? "paired" : "unpaired");
		return;
	}
	if (c->between == ZC_BETWEEN_DEFAULT)
		snprintf(buf, len, "%zu+%zu invocations, the spread between them stated (%.0f%%)", c->n,
			 c->n2, 100 * ZC_BETWEEN_DEFAULT_SD);
	else
		snprintf(buf, len, "%zu+%zu invocations, the spread between them %s", c->n, c->n2,
			 c->between == ZC_BETWEEN_SIDES ? "measured from them" :
			 c->between == ZC_BETWEEN_PROFILE ? "from the profile" :
			 "measured and the profile's");
}

const char *zc_between_name(enum zc_between b)
{
	static const char *const names[] = { "", "measured", "profile", "measured+profile", "default" };

	return b <= ZC_BETWEEN_DEFAULT ? names[b] : "?";
}

int zc_invocation_of(const double *v, size_t n, bool log_scale, struct zc_invocation *inv)
{
	double sum = 0, ss = 0, x;
	size_t k = 0;
	int ret;

	*inv = (struct zc_invocation){ .mean = NAN, .var = NAN };
	for (size_t i = 0; i < n; i++) {
		if ((ret = scaled(v[i], log_scale, &x)))
			return ret;
		if (!isnan(x)) {
			sum += x;
			k++;
		}
	}
	if (!k)
		return -ENODATA;
	inv->n = k;
	inv->mean = sum / (double)k;
	for (size_t i = 0; i < n; i++)
		if (!scaled(v[i], log_scale, &x) && !isnan(x))
			ss += (x - inv->mean) * (x - inv->mean);
	if (k >= 2)
		inv->var = ss / (double)(k - 1);
	return 0;
}

/* The within variance pooled over invocations with two samples or more
 * (NaN: none has), and their mean number of samples. */
static double pooled_within(const struct zc_invocation *inv, size_t k, double *n_mean)
{
	double ss = 0, df = 0, n = 0;

	for (size_t i = 0; i < k; i++) {
		n += (double)inv[i].n;
		if (inv[i].n >= 2 && isfinite(inv[i].var)) {
			ss += inv[i].var * (double)(inv[i].n - 1);
			df += (double)(inv[i].n - 1);
		}
	}
	if (n_mean)
		*n_mean = k ? n / (double)k : NAN;
	return df > 0 ? ss / df : NAN;
}

/* Sum of squares of the means about their mean; that mean in *m. */
static double means_ss(const struct zc_invocation *inv, size_t k, double *m)
{
	double sum = 0, ss = 0;

	for (size_t i = 0; i < k; i++)
		sum += inv[i].mean;
	*m = k ? sum / (double)k : NAN;
	for (size_t i = 0; i < k; i++)
		ss += (inv[i].mean - *m) * (inv[i].mean - *m);
	return ss;
}

int zc_between_measure(const struct zc_invocation *inv, size_t k, struct zc_between_spread *b)
{
	double m;

	*b = (struct zc_between_spread){ .inv_var = NAN, .n = NAN, .within_var = NAN, .df = NAN };
	if (k < 2)
		return -EDOM;
	b->inv_var = means_ss(inv, k, &m) / (double)(k - 1);
	b->within_var = pooled_within(inv, k, &b->n);
	b->df = (double)(k - 1);
	return 0;
}

/* The profile's variance of one invocation's mean, moved from the samples
 * per invocation it was measured with to n: the within part scales with
 * 1/n, the offset's does not (never below the within part alone). */
static double profile_var_at(const struct zc_between_spread *p, double n, double within)
{
	double w = isfinite(p->within_var) ? p->within_var : within, v = p->inv_var, lo, hi;

	if (!isfinite(w) || !(n > 0) || !(p->n > 0) || n == p->n)
		return v;
	/* Between all offset (unmoved) and all within (times p->n / n). */
	lo = fmin(v, v * p->n / n);
	hi = fmax(v, v * p->n / n);
	return fmin(fmax(v + w * (1 / n - 1 / p->n), lo), hi);
}

int zc_change_invocations(const struct zc_invocation *b, size_t kb, const struct zc_invocation *x,
			  size_t kx, bool log_scale, const struct zc_between_spread *profile,
			  double level, struct zc_change *c)
{
	double mb, mx, ss, within, n_mean, df_m, v = NAN, df = NAN;
	bool prof = profile && isfinite(profile->inv_var) && profile->inv_var >= 0 &&
		    profile->df > 0;

	start(c, log_scale, false, level);
	c->invocations = true;
	c->n = kb;
	c->n2 = kx;
	if (!(level > 0 && level < 1))
		return -EINVAL;
	if (!kb || !kx)
		return 0;
	ss = means_ss(b, kb, &mb) + means_ss(x, kx, &mx);
	c->d = mx - mb;
	{
		struct zc_invocation all[2 * ZC_INVOCATIONS_MAX];
		size_t k = 0;

		for (size_t i = 0; i < kb && k < 2 * ZC_INVOCATIONS_MAX; i++)
			all[k++] = b[i];
		for (size_t i = 0; i < kx && k < 2 * ZC_INVOCATIONS_MAX; i++)
			all[k++] = x[i];
		within = pooled_within(all, k, &n_mean);
	}
	df_m = (double)(kb + kx) - 2;
	if (df_m >= 1) {
		v = ss / df_m;
		df = df_m;
		c->between = ZC_BETWEEN_SIDES;
	}
	if (prof) {
		double vp = profile_var_at(profile, n_mean, within);

		if (c->between == ZC_BETWEEN_SIDES && isfinite(profile->df)) {
			v = (df_m * v + profile->df * vp) / (df_m + profile->df);
			df = df_m + profile->df;
			c->between = ZC_BETWEEN_BOTH;
		} else if (c->between != ZC_BETWEEN_SIDES) {
			v = vp;
			df = profile->df;
			c->between = ZC_BETWEEN_PROFILE;
		}
		c->df_extra = profile->df;
	}
	if (c->between == ZC_BETWEEN_NONE) {
		double sd = log_scale ? ZC_BETWEEN_DEFAULT_SD : ZC_BETWEEN_DEFAULT_SD * fabs(mb);

		v = sd * sd;
		df = INFINITY;
		c->df_extra = INFINITY;
		c->between = ZC_BETWEEN_DEFAULT;
	}
	c->var_b = v;
	c->se = sqrt(v * (1 / (double)kb + 1 / (double)kx));
	c->df = df;
	c->ok = isfinite(c->se);
	interval(c);
	return 0;
}

void zc_change_relevel(struct zc_change *c, double level, double offset_sd)
{
	if (level > 0 && level < 1)
		c->level = level;
	if (offset_sd >= 0)
		c->offset_sd = offset_sd;
	interval(c);
}

double zc_offset_sd_of_floor(double floor_rel)
{
	return floor_rel >= 0 ? log1p(floor_rel) / gsl_cdf_ugaussian_Pinv(0.975) : NAN;
}

double zc_change_pct(const struct zc_change *c, double x)
{
	return c->log_scale ? 100 * expm1(x) : x;
}

/* The bounds of +-T on c's scale. */
static void band(const struct zc_change *c, double t, double *lo, double *hi)
{
	if (c->log_scale) {
		*lo = t < 1 ? log1p(-t) : -INFINITY;
		*hi = log1p(t);
	} else {
		*lo = -t;
		*hi = t;
	}
}

/*
 * What "could see" and "N more would tell" promise is a power averaged over
 * the spread's estimate: a spread estimated at df degrees of freedom is
 * sqrt(chi2_df / df) times the true one, both in the comparison that makes
 * the promise (a) and in the one that keeps it (b). Quantile nodes of that
 * scale (equal weights; one node of 1 for an infinite df).
 */
#define POWER_NODES 32

static size_t scale_nodes(double df, double *x)
{
	if (!isfinite(df) || df > 1e6) {
		x[0] = 1;
		return 1;
	}
	df = fmax(df, 1);	/* Satterthwaite's never falls below its parts' (>= 1) */
	for (size_t i = 0; i < POWER_NODES; i++) {
		double p = (i + 0.5) / POWER_NODES, w;

		if (df <= 100) {
			x[i] = sqrt(gsl_cdf_chisq_Pinv(p, df) / df);
			continue;
		}
		/* Wilson-Hilferty, within 1e-4 here (and gsl's inverse may
		 * not converge at a large df). */
		w = 1 - 2 / (9 * df) + gsl_cdf_ugaussian_Pinv(p) * sqrt(2 / (9 * df));
		x[i] = sqrt(w * w * w);
	}
	return POWER_NODES;
}

/* E over a (df_a), b (df_b) of P(called): one-sided Phi(x a - t b), or
 * two-sided (within both bounds) 2 Phi(x a - t b) - 1 when positive. x is
 * the distance to be crossed in units of the true spread as the promise
 * estimated it, t the interval's quantile. */
struct nodes {
	double x[POWER_NODES];
	size_t n;
};

static double mean_power(double x, double t, const struct nodes *na_, const struct nodes *nb_,
			 bool two_sided)
{
	const double *a = na_->x, *b = nb_->x;
	size_t na = na_->n, nb = nb_->n;
	double sum = 0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			double p = gsl_cdf_ugaussian_P(x * a[i] - t * b[j]);

			sum += two_sided ? (p > 0.5 ? 2 * p - 1 : 0) : p;
		}
	return sum / (double)(na * nb);
}

/* The margin beyond T, in units of the spread, that a change needs to be
 * called changed ZC_VERDICT_POWER of the time at this df and level: t +
 * z_power for a known spread, more for an estimated one. Bisection (the
 * power rises with the margin); the last few are kept, as a compare judges
 * many figures at one df. */
static double power_margin(double df, double level)
{
	static struct memo memo[1 << MEMO_BITS];
	struct memo *slot = memo_slot(memo, level, df);
	double t = t_two_sided(level, df), lo = 0, hi = 200;

	if (slot->set && slot->level == level && slot->df == df)
		return slot->v;
	if (!isfinite(df) || df > 1e6)
		lo = hi = t + gsl_cdf_ugaussian_Pinv(ZC_VERDICT_POWER);
	{
		/* The nodes depend on df alone: once, not at every step. */
		struct nodes a;

		a.n = scale_nodes(df, a.x);
		while (hi - lo > 1e-4) {
			double mid = (lo + hi) / 2;

			*(mean_power(mid, t, &a, &a, false) >= ZC_VERDICT_POWER ? &hi : &lo) = mid;
		}
	}
	*slot = (struct memo){ level, df, hi, true };
	return hi;
}

/* The spread (and its df) a comparison of this design would have with k
 * rounds (pairs; a side unpaired) or k invocations a side. */
static double spread_at(const struct zc_change *c, size_t k, double *df)
{
	double off = c->offset_sd > 0 ? c->offset_sd : 0, se;

	if (c->invocations) {
		/* The default's df is infinite, but invocations measured for the
		 * next comparison bring their own. */
		double extra = c->between == ZC_BETWEEN_DEFAULT ? 0 : c->df_extra;

		*df = 2 * ((double)k - 1) + extra;
		return sqrt(c->var_b * 2 / (double)k);
	}
	se = sqrt((c->paired ? c->var_b : c->var_b + c->var_n) / (double)k);
	*df = df_sum(se, c->paired ? (double)k - 1 : 2 * ((double)k - 1), off, INFINITY);
	return hypot(se, off);
}

/* How often a comparison of k resolves tau (the narrower side of the
 * band): no change called unchanged (both bounds within: the stricter of
 * the two answers; a change of 2 tau is called changed at least as often),
 * averaged over this comparison's estimate of the spread (its df) and the
 * next one's. */
static double resolve_power(const struct zc_change *c, size_t k, double tau,
			    const struct nodes *now)
{
	double df, tot = spread_at(c, k, &df);
	struct nodes b;

	if (!(tot > 0))
		return 1;
	b.n = scale_nodes(df, b.x);
	return mean_power(tau / tot, t_two_sided(c->level, df), now, &b, true);
}

/* The rounds (invocations a side) whose power to resolve tau is nearest
 * ZC_VERDICT_POWER: the fewest that reach it, or one fewer when that one
 * falls short by less than the fewest overshoot (at small k one more round
 * moves the power by 10% or more, and always rounding up promised 80% and
 * delivered up to 87%). Resolving grows with k, so a bisection finds them. */
static size_t rounds_for(const struct zc_change *c, double tau)
{
	size_t lo = c->invocations ? 2 : ZC_INTERVAL_MIN_N, hi = c->invocations ? 100000 : 1000000;
	size_t least = lo;
	double df_now, p_hi, p_below;
	struct nodes now;

	if (!c->ok || isnan(c->invocations ? c->var_b : c->paired ? c->var_b : c->var_b + c->var_n))
		return 0;
	total_se(c, &df_now);
	now.n = scale_nodes(df_now, now.x);
	if (resolve_power(c, lo, tau, &now) >= ZC_VERDICT_POWER)
		return lo;
	if (resolve_power(c, hi, tau, &now) < ZC_VERDICT_POWER)
		return SIZE_MAX;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		*(resolve_power(c, mid, tau, &now) >= ZC_VERDICT_POWER ? &hi : &lo) = mid;
	}
	if (hi - 1 < least)
		return hi;
	p_hi = resolve_power(c, hi, tau, &now);
	p_below = resolve_power(c, hi - 1, tau, &now);
	return ZC_VERDICT_POWER - p_below < p_hi - ZC_VERDICT_POWER ? hi - 1 : hi;
}

static int judge(const struct zc_change *c, double threshold, struct zc_verdict *v, bool rounds)
{
	double blo, bhi, m;

	*v = (struct zc_verdict){ .answer = ZC_ANSWER_CANT_TELL, .threshold = threshold,
				  .can_see_down = NAN, .can_see_up = NAN };
	if (!(threshold >= 0))
		return -EDOM;
	v->direction = c->d > 0 ? 1 : c->d < 0 ? -1 : 0;
	if (!c->ok)
		return 0;
	band(c, threshold, &blo, &bhi);
	if (c->hi < blo || c->lo > bhi)
		v->answer = ZC_ANSWER_CHANGED;
	else if (c->lo >= blo && c->hi <= bhi)
		v->answer = ZC_ANSWER_UNCHANGED;
	{
		double df, tot = total_se(c, &df);

		m = tot > 0 ? power_margin(df, c->level) * tot : 0;
	}
	if (c->log_scale) {
		v->can_see_down = isfinite(blo) ? -expm1(blo - m) : NAN;
		v->can_see_up = expm1(bhi + m);
	} else {
		v->can_see_down = threshold + m;
		v->can_see_up = threshold + m;
	}
	if (rounds)
		v->rounds_for_threshold = rounds_for(c, fmin(-blo, bhi));
	return 0;
}

int zc_verdict_judge(const struct zc_change *c, double threshold, struct zc_verdict *v)
{
	return judge(c, threshold, v, true);
}

int zc_verdict_answer(const struct zc_change *c, double threshold, struct zc_verdict *v)
{
	return judge(c, threshold, v, false);
}

static void pct(const struct zc_change *c, double x, char *buf, size_t len)
{
	if (c->log_scale)
		snprintf(buf, len, "%+.1f%%", zc_change_pct(c, x));
	else
		snprintf(buf, len, "%+.1f pt", x);
}

void zc_change_fmt(const struct zc_change *c, char *buf, size_t len)
{
	char d[32], lo[32], hi[32];

	if (isnan(c->d)) {
		snprintf(buf, len, "- (no sample on a side)");
		return;
	}
	pct(c, c->d, d, sizeof(d));
	if (!c->ok) {
		snprintf(buf, len, "%s (no interval: n=%zu)", d, c->n < c->n2 ? c->n : c->n2);
		return;
	}
	pct(c, c->lo, lo, sizeof(lo));
	pct(c, c->hi, hi, sizeof(hi));
	snprintf(buf, len, "%s [%s, %s]", d, lo, hi);
}

/* "5%" or "5 pt" for T. */
static void thr(const struct zc_change *c, double t, char *buf, size_t len)
{
	snprintf(buf, len, c->log_scale ? "%g%%" : "%g pt", c->log_scale ? 100 * t : t);
}

void zc_verdict_fmt(const struct zc_change *c, const struct zc_verdict *v, char *buf, size_t len)
{
	char ch[96], t[32], rounds[96] = "";
	size_t nmin = c->n < c->n2 ? c->n : c->n2;

	thr(c, v->threshold, t, sizeof(t));
	if (!c->ok) {
		if (isnan(c->d))
			snprintf(buf, len, "can't tell: no sample on a side");
		else
			snprintf(buf, len, "can't tell: %zu %s, an interval needs %d", nmin,
				 c->paired ? (nmin == 1 ? "pair" : "pairs") :
					     (nmin == 1 ? "sample" : "samples"), ZC_INTERVAL_MIN_N);
		return;
	}
	zc_change_fmt(c, ch, sizeof(ch));
	switch (v->answer) {
	case ZC_ANSWER_CHANGED:
		snprintf(buf, len, "changed %s", ch);
		return;
	case ZC_ANSWER_UNCHANGED:
		snprintf(buf, len, "unchanged within +-%s: %s", t, ch);
		return;
	case ZC_ANSWER_CANT_TELL:
		break;
	}
	if (v->rounds_for_threshold == SIZE_MAX)
		snprintf(rounds, sizeof(rounds), ", no number of %s resolves +-%s",
			 c->invocations ? "invocations" : "rounds", t);
	else if (v->rounds_for_threshold)
		snprintf(rounds, sizeof(rounds), ", ~%zu %s for +-%s", v->rounds_for_threshold,
			 c->invocations ? "invocations a side" : c->paired ? "rounds" : "repetitions a side", t);
	if (c->log_scale)
		snprintf(buf, len, "can't tell at +-%s: %s, could see -%.0f%%/+%.0f%%%s", t, ch,
			 100 * v->can_see_down, 100 * v->can_see_up, rounds);
	else
		snprintf(buf, len, "can't tell at +-%s: %s, could see +-%.1f pt%s", t, ch,
			 v->can_see_up, rounds);
}
