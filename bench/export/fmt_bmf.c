// SPDX-License-Identifier: GPL-2.0
/* export --format bmf: Bencher Metric Format, median, min and max per metric,
 * and the profile's buckets (profile_BUCKET_pct) of profiled runs; each
 * headline ratio a benchmark of its own, its 95% interval as the bounds. */
#include "export/export.h"

#include <string.h>
#include "report/breakdown.h"

/* "headline KEY": {"ratio": {value, lower_value, upper_value}}, and the
 * figures beside it as measures of their own (n, each side's busy). A ratio
 * without an interval (under 3 repetitions) has no bounds. */
static void headlines(json_t *out, json_t *root)
{
	json_t *hl = zc_export_headlines(root), *row;
	size_t i;

	json_array_foreach(hl, i, row) {
		json_t *v = json_object_get(row, "value"), *lo = json_object_get(row, "lo"),
		       *hi = json_object_get(row, "hi"), *measures;
		char name[640];
		static const char *const beside[] = { "n", "numerator_busy_frac",
						      "denominator_busy_frac" };

		if (!json_is_number(v))
			continue;
		zc_export_headline_name(row, name, sizeof(name));
		measures = json_pack("{s:{s:f}}", "ratio", "value", json_number_value(v));
		/* No interval (under 3 repetitions): no bounds, never a zero-width
		 * one Bencher would read as exact. */
		if (json_is_number(lo) && json_is_number(hi)) {
			json_t *ratio = json_object_get(measures, "ratio");

			json_object_set(ratio, "lower_value", lo);
			json_object_set(ratio, "upper_value", hi);
		}
		for (size_t k = 0; k < ZC_ARRAY_SIZE(beside); k++) {
			json_t *x = json_object_get(row, beside[k]);

			if (json_is_number(x))
				json_object_set_new(measures, beside[k],
						    json_pack("{s:f}", "value", json_number_value(x)));
		}
		json_object_set_new(out, name, measures);
	}
	json_decref(hl);
}

static int write_bmf(FILE *f, json_t *root, enum zc_export_what what) /* 0/-EIO */
{
	json_t *out = json_object(), *run;
	size_t i;

	if (what != ZC_EXPORT_RUNS)
		headlines(out, root);
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		if (what == ZC_EXPORT_HEADLINES)
			break;
		json_t *measures = json_object();
		char key[512];

		zc_an_key(run, key, sizeof(key));
		/* Unverified figures never join a verified series. */
		if (!json_is_true(json_object_get(run, "verified")))
			strncat(key, " unverified", sizeof(key) - strlen(key) - 1);
		zc_for_each_summary_metric(m) {
			struct zc_summary s;

			if (zc_export_summary(run, m->key, &s))
				continue;
			json_object_set_new(measures, m->key,
					    json_pack("{s:f,s:f,s:f}", "value", s.median,
						      "lower_value", s.min, "upper_value", s.max));
		}
		zc_export_profile_buckets(run, measures);
		if (json_object_size(measures))
			json_object_set_new(out, key, measures);
		else
			json_decref(measures);
	}
	return zc_export_json(f, out);
}

const struct zc_export_format zc_fmt_bmf = {
	.name = "bmf",
	.help = "Bencher Metric Format: {key: {metric: {value, lower_value, upper_value}}} "
		"(median, min, max of the ok samples; profile_BUCKET_pct when profiled); each "
		"headline ratio \"headline RATIO CHUNK/PIPE (NUM / DEN)\": {ratio: its value and "
		"95% interval, n, numerator_busy_frac, denominator_busy_frac}",
	.write = write_bmf,
};
