// SPDX-License-Identifier: GPL-2.0
/* Looking metrics up, and the per-run summary of the results writer. */
#include "metrics/metrics.h"
#include "lib/hdr.h"
#include "stats/stats.h"

#include <stdlib.h>
#include <string.h>

json_t *zc_run_summary(json_t *samples)
{
	json_t *o = json_object();
	size_t n = json_array_size(samples);
	double *v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		return o; /* an empty summary: the samples stay in the file */

	zc_for_each_summary_metric(m) {
		size_t k = 0;
		struct zc_summary s;
		json_t *so;

		for (size_t i = 0; i < n; i++) {
			json_t *smp = json_array_get(samples, i);
			json_t *x = json_object_get(smp, m->key);

			/* Disturbed samples (another task on the DUT's cores) stay out. */
			if (json_is_number(x) && !strcmp(json_string_value(json_object_get(smp, "status")), "ok") &&
			    !json_is_true(json_object_get(smp, "disturbed")))
				v[k++] = json_number_value(x);
		}
		if (!k)
			continue;
		zc_summarize(v, k, &s);
		so = json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s.n, "median", s.median,
			       "min", s.min, "max", s.max, "mean", s.mean, "stddev", s.stddev);
		json_object_set_new(o, m->key, so);
	}
	free(v);
	return o;
}

json_t *zc_run_latency(json_t *samples)
{
	struct zc_hdr *all = NULL;
	size_t i, n = 0;
	json_t *s, *o;

	json_array_foreach(samples, i, s) {
		json_t *l = json_object_get(json_object_get(json_object_get(json_object_get(s,
			"roles"), "source"), "rr"), "latency");
		struct zc_hdr *h;
		char err[128];

		if (!l || strcmp(json_string_value(json_object_get(s, "status")) ?: "", "ok") ||
		    json_is_true(json_object_get(s, "disturbed")) ||
		    zc_hdr_from_json(l, &h, err, sizeof(err)))
			continue;
		if (!all) {
			all = h;
		} else {
			int bad = zc_hdr_merge(all, h);

			zc_hdr_free(h);
			if (bad)
				continue;
		}
		n++;
	}
	if (!all)
		return NULL;
	o = json_pack("{s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:o}", "count", (json_int_t)zc_hdr_count(all),
		      "samples", (json_int_t)n, "p50_us", zc_hdr_percentile(all, 50) / 1e3,
		      "p90_us", zc_hdr_percentile(all, 90) / 1e3, "p99_us",
		      zc_hdr_percentile(all, 99) / 1e3, "p999_us", zc_hdr_percentile(all, 99.9) / 1e3,
		      "max_us", zc_hdr_max(all) / 1e3, "mean_us", zc_hdr_mean(all) / 1e3,
		      "histogram", zc_hdr_to_json(all));
	zc_hdr_free(all);
	return o;
}

const struct zc_metric *zc_metric_find(const char *key)
{
	zc_for_each_metric(m)
		if (!strcmp(m->key, key))
			return m;
	return NULL;
}

bool zc_metric_is_pct(const struct zc_metric *m)
{
	size_t l = strlen(m->key);

	return (m->unit && (!strcmp(m->unit, "%") || !strcmp(m->unit, "percent"))) ||
	       (l > 4 && !strcmp(m->key + l - 4, "_pct"));
}
