// SPDX-License-Identifier: GPL-2.0
/*
 * The change of a figure between two runs, and the ratio of two runs' Gbit/s
 * per core, each with its interval (stats/verdict.h): Student's t on the
 * per-round log ratios when both runs were taken in rounds of one invocation,
 * else Welch's on the two runs' logs. Every reader of a ratio or a change
 * (run's headline, report, the mail, before-after, plots, the dashboard)
 * asks here, so that one figure has one interval everywhere.
 */
#include "results/results.h"
#include "stats/paired.h"
#include "stats/stats.h"
#include "metrics/metrics.h"

#include <math.h>
#include <string.h>

/* Taken in rounds: repetition i of every run in round i. */
static bool in_rounds(json_t *run)
{
	const char *o = zc_an_str(json_object_get(run, "options"), "order");

	return !strcmp(o, "interleaved") || !strcmp(o, "random") || !strcmp(o, "balanced");
}

bool zc_an_paired(json_t *root_a, json_t *a, json_t *root_b, json_t *b)
{
	const char *ia, *ib;

	if (!a || !b || !in_rounds(a) || !in_rounds(b))
		return false;
	if (root_a == root_b)
		return true;
	ia = zc_an_str(root_a, "invocation");
	ib = zc_an_str(root_b, "invocation");
	return *ia && !strcmp(ia, ib);
}

size_t zc_an_values_by_rep(json_t *run, const char *metric, double *out, size_t max)
{
	json_t *smp;
	size_t i, n = 0;

	zc_metric_key(metric);
	for (i = 0; i < max; i++)
		out[i] = NAN;
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *x = json_object_get(smp, metric), *rep = json_object_get(smp, "rep");
		json_int_t r = json_is_integer(rep) ? json_integer_value(rep) : -1;

		if (r < 0 || (size_t)r >= max)
			continue;
		if ((size_t)r + 1 > n)
			n = (size_t)r + 1;
		if (json_is_number(x) && !strcmp(zc_an_str(smp, "status"), "ok") &&
		    !zc_an_disturbed(smp) && isfinite(json_number_value(x)))
			out[r] = json_number_value(x);
	}
	return n;
}

/* Every value > 0 (NaN: missing): the logs are defined. */
static bool positive(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && !(v[i] > 0))
			return false;
	return true;
}

bool zc_an_cross(json_t *root_a, json_t *root_b)
{
	const char *ia = zc_an_str(root_a, "invocation"), *ib = zc_an_str(root_b, "invocation");

	return root_a != root_b && !(*ia && !strcmp(ia, ib));
}

int zc_an_change(json_t *root_b, json_t *b, json_t *root_n, json_t *n, const char *metric,
		 double level, struct zc_change *c)
{
	static double x[ZC_SAMPLES_MAX], y[ZC_SAMPLES_MAX];
	size_t nx, ny;
	bool log_scale;

	if (b && n && zc_an_paired(root_b, b, root_n, n)) {
		nx = zc_an_values_by_rep(b, metric, x, ZC_SAMPLES_MAX);
		ny = zc_an_values_by_rep(n, metric, y, ZC_SAMPLES_MAX);
		nx = nx > ny ? nx : ny;
		log_scale = positive(x, nx) && positive(y, nx);
		/* Fewer than 3 complete pairs: the two sides apart, as below. */
		if (!zc_change_paired(x, y, nx, log_scale, level, c) && c->ok)
			return 0;
	}
	nx = b ? zc_an_values(b, metric, x, ZC_SAMPLES_MAX) : 0;
	ny = n ? zc_an_values(n, metric, y, ZC_SAMPLES_MAX) : 0;
	log_scale = positive(x, nx) && positive(y, ny);
	if (zc_an_cross(root_b, root_n)) {
		struct zc_invocation ib, in;

		if (zc_invocation_of(x, nx, log_scale, &ib) || zc_invocation_of(y, ny, log_scale, &in))
			return zc_change_unpaired(x, nx, y, ny, log_scale, level, c);
		zc_change_invocations(&ib, 1, &in, 1, log_scale, NULL, level, c);
		/* An invocation of fewer samples than an interval needs. */
		if (nx < ZC_INTERVAL_MIN_N || ny < ZC_INTERVAL_MIN_N) {
			c->ok = false;
			c->lo = c->hi = NAN;
		}
		return 0;
	}
	return zc_change_unpaired(x, nx, y, ny, log_scale, level, c);
}

double zc_an_run_level(json_t *num, json_t *den)
{
	json_t *a = json_object_get(num, "level"), *b = json_object_get(den, "level");

	if (!json_is_number(a) || !json_is_number(b))
		return NAN;
	return fmax(json_number_value(a), json_number_value(b));
}

void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r)
{
	static double a[ZC_SAMPLES_MAX], b[ZC_SAMPLES_MAX];
	double level = zc_an_run_level(num, den);

	r->nn = zc_an_values(num, "gbps_per_core", a, ZC_SAMPLES_MAX);
	r->nd = zc_an_values(den, "gbps_per_core", b, ZC_SAMPLES_MAX);
	r->num_gpc = zc_median(a, r->nn);
	r->den_gpc = zc_median(b, r->nd);
	r->disturbed = zc_an_disturbed_count(num) + zc_an_disturbed_count(den);
	r->value = r->lo = r->hi = NAN;
	/* The ratio num/den is the change from den to num. Two runs of one
	 * file: run's headline, report, the dashboard. */
	zc_an_change(NULL, den, NULL, num, "gbps_per_core", isnan(level) ? ZC_LEVEL : level, &r->ch);
	r->paired = r->ch.paired;
	r->npairs = r->ch.paired ? r->ch.n : 0;
	if (!r->ch.log_scale || isnan(r->ch.d))
		return;
	r->value = exp(r->ch.d);
	if (r->ch.ok) {
		r->lo = exp(r->ch.lo);
		r->hi = exp(r->ch.hi);
	}
	zc_verdict_judge(&r->ch, ZC_RATIO_THRESHOLD, &r->vd);
}

const char *zc_ratio_words(const char *answer, double value, char *buf, size_t len)
{
	double t = ZC_RATIO_THRESHOLD;

	if (!strcmp(answer, "changed"))
		snprintf(buf, len, value > 1 ? "above %.2f" : "below %.2f", value > 1 ? 1 + t : 1 - t);
	else if (!strcmp(answer, "unchanged"))
		snprintf(buf, len, "within %.2f-%.2f", 1 - t, 1 + t);
	else
		snprintf(buf, len, "can't tell");
	return buf;
}

double zc_an_median(json_t *run, const char *metric)
{
	static double v[ZC_SAMPLES_MAX];

	return zc_median(v, run ? zc_an_values(run, metric, v, ZC_SAMPLES_MAX) : 0);
}

double zc_an_busy_frac(json_t *run)
{
	return zc_an_median(run, "dut_busy_frac");
}

void zc_an_ratio_json(json_t *row, json_t *num, json_t *den, const struct zc_ratio *r)
{
	size_t n = r->paired ? r->npairs : r->nn < r->nd ? r->nn : r->nd;
	double bn = zc_an_busy_frac(num), bd = zc_an_busy_frac(den);

	json_object_set_new(row, "lo", r->ch.ok ? json_real(r->lo) : json_null());
	json_object_set_new(row, "hi", r->ch.ok ? json_real(r->hi) : json_null());
	json_object_set_new(row, "level", json_real(r->ch.level));
	json_object_set_new(row, "n", json_integer((json_int_t)n));
	json_object_set_new(row, "method", json_string(r->paired ? "paired" : "unpaired"));
	json_object_set_new(row, "interval", json_string("t-log"));
	json_object_set_new(row, "half_width_pct", r->ch.ok && isfinite(r->value) ?
			    json_real(100 * zc_ci_half_width_rel(r->lo, r->hi, r->value)) :
			    json_null());
	json_object_set_new(row, "answer", json_string(isnan(r->value) || !r->ch.ok ? "cant_tell" :
						       zc_answer_key(r->vd.answer)));
	json_object_set_new(row, "threshold_pct", json_real(100 * ZC_RATIO_THRESHOLD));
	/* 1.7: how busy each side's DUT was; under ZC_SATURATED_FRAC its
	 * Gbit/s per core is that of a DUT that waited for its peers. */
	json_object_set_new(row, "numerator_busy_frac", zc_an_num(bn));
	json_object_set_new(row, "denominator_busy_frac", zc_an_num(bd));
}
