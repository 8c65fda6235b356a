// SPDX-License-Identifier: GPL-2.0
/* export --format gab: github-action-benchmark's customBiggerIsBetter array;
 * the headline ratios first (a zero-copy path over its copy: bigger is better). */
#include "export/export.h"

#include <string.h>

static void headlines(json_t *out, json_t *root)
{
	json_t *hl = zc_export_headlines(root), *row;
	size_t i;

	json_array_foreach(hl, i, row) {
		json_t *v = json_object_get(row, "value"), *lo = json_object_get(row, "lo"),
		       *hi = json_object_get(row, "hi"), *nb = json_object_get(row, "numerator_busy_frac"),
		       *db = json_object_get(row, "denominator_busy_frac");
		char name[640], range[64], extra[600], busy[64] = "", words[48];
		int verified = json_is_true(json_object_get(row, "verified"));

		if (!json_is_number(v))
			continue;
		zc_export_headline_name(row, name, sizeof(name));
		if (json_is_number(lo) && json_is_number(hi))
			snprintf(range, sizeof(range), "95%% [%.4g, %.4g]", json_number_value(lo),
				 json_number_value(hi));
		else
			snprintf(range, sizeof(range), "no interval (under 3 repetitions)");
		if (json_is_number(nb) && json_is_number(db))
			snprintf(busy, sizeof(busy), "; DUT busy %.2f / %.2f of a core",
				 json_number_value(nb), json_number_value(db));
		zc_ratio_words(zc_an_str(row, "answer"), json_number_value(v), words, sizeof(words));
		snprintf(extra, sizeof(extra), "Gbps per core ratio, n=%lld %s; against 1.0+-%g%%: %s%s; "
			 "kernel %s%s", zc_an_int(row, "n"), zc_an_str(row, "method"),
			 100 * ZC_RATIO_THRESHOLD, words, busy, zc_an_kernel(root),
			 verified ? "" : "; UNVERIFIED: a sink did not check the bytes");
		json_array_append_new(out, json_pack("{s:s,s:s,s:f,s:s,s:s}", "name", name,
						     "unit", "ratio", "value", json_number_value(v),
						     "range", range, "extra", extra));
	}
	json_decref(hl);
}

static int write_gab(FILE *f, json_t *root, enum zc_export_what what) /* 0/-EIO */
{
	json_t *out = json_array(), *run;
	size_t i;

	if (what != ZC_EXPORT_RUNS)
		headlines(out, root);
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		if (what == ZC_EXPORT_HEADLINES)
			break;
		char key[512], name[600], range[64], extra[512];

		zc_an_key(run, key, sizeof(key));
		/* Unverified figures never join a verified series. */
		if (!json_is_true(json_object_get(run, "verified")))
			strncat(key, " unverified", sizeof(key) - strlen(key) - 1);
		zc_for_each_summary_metric(m) {
			struct zc_summary s;

			/* customBiggerIsBetter: only metrics where bigger is better. */
			if (m->better != ZC_BETTER_HIGHER || zc_export_summary(run, m->key, &s))
				continue;
			snprintf(name, sizeof(name), "%s %s", key, m->key);
			snprintf(range, sizeof(range), "± %.4g", s.stddev);
			snprintf(extra, sizeof(extra),
				 "median of %zu repetitions, min %.4g max %.4g; run %s; kernel %s%s",
				 s.n, s.min, s.max, zc_an_str(run, "name"), zc_an_kernel(root),
				 json_is_true(json_object_get(run, "verified")) ? ""
				 : "; UNVERIFIED: the sink did not check the bytes");
			json_array_append_new(out, json_pack("{s:s,s:s,s:f,s:s,s:s}", "name", name,
							     "unit", m->unit, "value", s.median,
							     "range", range, "extra", extra));
		}
	}
	return zc_export_json(f, out);
}

const struct zc_export_format zc_fmt_gab = {
	.name = "gab",
	.help = "github-action-benchmark customBiggerIsBetter array: the headline ratios "
		"(\"headline RATIO CHUNK/PIPE (NUM / DEN)\", unit ratio, range its 95% interval), "
		"then each run's bigger-is-better figures",
	.write = write_gab,
};
