// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench trend's events for dashboards (trend.h), in the formats export
 * writes: CSV, an annotation row per change point (Grafana's CSV and
 * Perfherder's alert rows read alike), and the Prometheus exposition, a
 * gauge per change point and per series' newest nights. Below trend.c.
 */
#include "compare/trend.h"
#include "export/export.h"

#include <math.h>
#include <string.h>

static double pct(const struct zc_change *c, double x)
{
	return c->ok || x == c->d ? zc_change_pct(c, x) : NAN;
}

static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.4g", v);
}

/* One event row: what the change points' and the newest nights' rows share. */
static void csv_row(FILE *f, const char *event, const struct zc_night *b,
		    const struct zc_series *s, size_t night, const struct zc_change *c,
		    const char *answer, double p, const char *wc)
{
	fprintf(f, "%s,%s,%lld,", event, b->date, b->epoch);
	zc_csv_field(f, s->key);
	fprintf(f, ",%s,%zu,", s->metric, night);
	num(f, c->n2 ? pct(c, c->d) : NAN);
	fputc(',', f);
	num(f, pct(c, c->lo));
	fputc(',', f);
	num(f, pct(c, c->hi));
	fprintf(f, ",%s,", answer);
	num(f, p);
	fputc(',', f);
	zc_csv_field(f, b->sha);
	fputc(',', f);
	zc_csv_field(f, b->kernel);
	fputc(',', f);
	zc_csv_field(f, b->fp);
	fputc(',', f);
	zc_csv_field(f, wc);
	fputc('\n', f);
}

void zc_trend_csv(FILE *f, const struct zc_trend *t, const struct zc_trend_v *r, double threshold)
{
	char wc[1200], ans[64];

	fprintf(f, "event,date,epoch_s,key,metric,night,step_pct,lo_pct,hi_pct,answer,p,zcbench,"
		   "kernel,fingerprint,what_changed\n");
	for (size_t i = 0; i < t->nseries; i++) {
		const struct zc_series *s = &t->series[i];

		for (size_t j = 0; j < r[i].ncp; j++) {
			const struct zc_cp *c = &r[i].cp[j];
			const struct zc_night *b = &t->nights[s->night[c->at]];
			struct zc_verdict vd;

			zc_verdict_judge(&c->step, threshold / 100, &vd);
			zc_trend_what_changed(&t->nights[s->night[c->at - 1]], b, wc, sizeof(wc));
			csv_row(f, "change_point", b, s, c->at + 1, &c->step, zc_answer_key(vd.answer),
				c->p, wc);
		}
	}
	/* Each file left out: a row of its own (the file in key, why in
	 * what_changed), so that a dashboard sees it. */
	for (size_t i = 0; i < t->nleft; i++) {
		fputs("left_out,,,", f);
		zc_csv_field(f, t->left[i].file);
		fputs(",,,,,,left_out,,,,,", f);
		zc_csv_field(f, t->left[i].why);
		fputc('\n', f);
	}
	/* Each series' newest nights as one more event: the gate's reading. */
	for (size_t i = 0; i < t->nseries; i++) {
		const struct zc_series *s = &t->series[i];
		const struct zc_night *b = s->n ? &t->nights[s->night[s->n - 1]] : &t->nights[0];

		snprintf(ans, sizeof(ans), "%s%s", r[i].lost ? "left_out" :
			 zc_answer_key(r[i].vd.answer), r[i].regression ? "_regression" : "");
		csv_row(f, "newest", b, s, s->n, &r[i].newest, ans, NAN, "");
	}
}

static void labels(FILE *f, const struct zc_series *s, const struct zc_night *b, const char *answer)
{
	fputc('{', f);
	zc_prom_label(f, "key", s->key, true);
	zc_prom_label(f, "metric", s->metric, false);
	zc_prom_label(f, "date", b->date, false);
	zc_prom_label(f, "kernel", b->kernel, false);
	zc_prom_label(f, "answer", answer, false);
}

void zc_trend_prometheus(FILE *f, const struct zc_trend *t, const struct zc_trend_v *r,
			 double threshold)
{
	static const char *const gauges[][2] = {
		{ "zcbench_trend_step_ratio", "Unit: ratio. A change point: the figure (label "
					      "metric) after the step over the figure before it (1: "
					      "none); bound estimate, lower and upper: the value and its "
					      "95% interval; date: the first night after it" },
		{ "zcbench_trend_newest_ratio", "Unit: ratio. A series' newest nights over the "
						"nights before them (the gate's reading; 1: no change)" },
		{ "zcbench_trend_left_out_files", "Unit: files. The files trend could not use (not "
						  "a results file, no date): the gate cannot pass "
						  "while there is one" },
		{ "zcbench_trend_left_out", "Unit: file. One file left out (label file) and why "
					    "(label reason)" },
	};
	char wc[1200];

	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", gauges[0][0], gauges[0][1], gauges[0][0]);
	for (size_t i = 0; i < t->nseries; i++)
		for (size_t j = 0; j < r[i].ncp; j++) {
			const struct zc_series *s = &t->series[i];
			const struct zc_cp *c = &r[i].cp[j];
			const struct zc_night *b = &t->nights[s->night[c->at]];
			struct zc_verdict vd;
			static const char *const bound[] = { "estimate", "lower", "upper" };
			const double x[] = { c->step.d, c->step.lo, c->step.hi };

			zc_verdict_judge(&c->step, threshold / 100, &vd);
			zc_trend_what_changed(&t->nights[s->night[c->at - 1]], b, wc, sizeof(wc));
			for (int k = 0; k < 3; k++) {
				if (!isfinite(x[k]))
					continue;
				fprintf(f, "%s", gauges[0][0]);
				labels(f, s, b, zc_answer_key(vd.answer));
				zc_prom_label(f, "bound", bound[k], false);
				zc_prom_label(f, "what_changed", wc, false);
				fprintf(f, "} %.6g\n", exp(x[k]));
			}
		}
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", gauges[2][0], gauges[2][1], gauges[2][0]);
	fprintf(f, "%s %zu\n", gauges[2][0], t->nleft);
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", gauges[3][0], gauges[3][1], gauges[3][0]);
	for (size_t i = 0; i < t->nleft; i++) {
		fprintf(f, "%s", gauges[3][0]);
		fputc('{', f);
		zc_prom_label(f, "file", t->left[i].file, true);
		zc_prom_label(f, "reason", t->left[i].why, false);
		fputs("} 1\n", f);
	}
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", gauges[1][0], gauges[1][1], gauges[1][0]);
	for (size_t i = 0; i < t->nseries; i++) {
		const struct zc_series *s = &t->series[i];

		if (!r[i].newest.n2 || !s->n)
			continue;
		fprintf(f, "%s", gauges[1][0]);
		labels(f, s, &t->nights[s->night[s->n - 1]],
		       r[i].regression ? "regression" : r[i].lost ? "left_out" :
		       zc_answer_key(r[i].vd.answer));
		fprintf(f, "} %.6g\n", exp(r[i].newest.d));
	}
}
