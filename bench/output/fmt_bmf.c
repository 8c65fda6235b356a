// SPDX-License-Identifier: GPL-2.0
/* export --format bmf: Bencher Metric Format, median, min and max per metric,
 * and the profile's buckets (profile_BUCKET_pct) of profiled runs. */
#include "output/export.h"

#include <string.h>
#include "output/breakdown.h"

static int write_bmf(FILE *f, json_t *root) /* 0/-EIO */
{
	json_t *out = json_object(), *run;
	size_t i;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
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
	.help = "Bencher Metric Format: {key: {metric: {value, lower_value, upper_value}}}\n"
		"(median, min, max of the ok samples; profile_BUCKET_pct when profiled)",
	.write = write_bmf,
};
