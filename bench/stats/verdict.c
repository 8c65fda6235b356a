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
static double t_two_sided(double level, double df)
{
	double p = 0.5 + level / 2;

	return isfinite(df) && df < 1e7 ? gsl_cdf_tdist_Pinv(p, df) : gsl_cdf_ugaussian_Pinv(p);
}

static void interval(struct zc_change *c)
{
	double t, z;

	if (!c->ok) {
		c->half = c->lo = c->hi = NAN;
		return;
	}
	t = c->se > 0 ? t_two_sided(c->level, c->df) : 0;
	z = c->offset_sd > 0 ? gsl_cdf_ugaussian_Pinv(0.5 + c->level / 2) : 0;
	c->half = hypot(t * c->se, z * c->offset_sd);
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

int zc_change_unpaired(const double *base, size_t nb, const double *new, size_t nn,
		       bool log_scale, double level, struct zc_change *c)
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

/* The margin beyond T a change needs to be called changed about
 * ZC_VERDICT_POWER of the time: the half-width plus the power quantile of
 * the estimate's spread, at se (of n) and the offset. */
static double margin(double se, double df, double offset_sd, double level)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + level / 2), q, t;
	double tot = hypot(se, offset_sd);

	t = se > 0 ? t_two_sided(level, df) : 0;
	/* The estimate's own spread: t's when only the samples' se counts. */
	q = offset_sd > 0 || !(se > 0) ? gsl_cdf_ugaussian_Pinv(ZC_VERDICT_POWER) :
					 gsl_cdf_tdist_Pinv(ZC_VERDICT_POWER, df);
	return hypot(t * se, z * offset_sd) + q * tot;
}

static double margin_at(const struct zc_change *c, double per, size_t k)
{
	double df = c->paired ? (double)k - 1 : 2 * ((double)k - 1);

	return margin(sqrt(per / (double)k), df, c->offset_sd, c->level);
}

/* The fewest rounds at which margin() fits within tau (the narrower side of
 * the band); margin() falls as rounds grow, so a bisection finds them. */
static size_t rounds_for(const struct zc_change *c, double tau)
{
	double per = c->paired ? c->var_b : c->var_b + c->var_n;
	size_t lo = ZC_INTERVAL_MIN_N, hi = 1000000;

	if (!c->ok || isnan(per))
		return 0;
	if (margin_at(c, per, lo) <= tau)
		return lo;
	if (margin_at(c, per, hi) > tau)
		return SIZE_MAX;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		*(margin_at(c, per, mid) <= tau ? &hi : &lo) = mid;
	}
	return hi;
}

int zc_verdict_judge(const struct zc_change *c, double threshold, struct zc_verdict *v)
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
	m = margin(c->se, c->df, c->offset_sd, c->level);
	if (c->log_scale) {
		v->can_see_down = isfinite(blo) ? -expm1(blo - m) : NAN;
		v->can_see_up = expm1(bhi + m);
	} else {
		v->can_see_down = threshold + m;
		v->can_see_up = threshold + m;
	}
	v->rounds_for_threshold = rounds_for(c, fmin(-blo, bhi));
	return 0;
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
		snprintf(rounds, sizeof(rounds), ", no number of rounds resolves +-%s", t);
	else if (v->rounds_for_threshold)
		snprintf(rounds, sizeof(rounds), ", ~%zu %s for +-%s", v->rounds_for_threshold,
			 c->paired ? "rounds" : "repetitions a side", t);
	if (c->log_scale)
		snprintf(buf, len, "can't tell at +-%s: %s, could see -%.0f%%/+%.0f%%%s", t, ch,
			 100 * v->can_see_down, 100 * v->can_see_up, rounds);
	else
		snprintf(buf, len, "can't tell at +-%s: %s, could see +-%.1f pt%s", t, ch,
			 v->can_see_up, rounds);
}
