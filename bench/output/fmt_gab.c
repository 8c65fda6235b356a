// SPDX-License-Identifier: GPL-2.0
/* export --format gab: github-action-benchmark's customBiggerIsBetter array. */
#include "output/export.h"

#include <string.h>

static int write_gab(FILE *f, json_t *root) /* 0/-EIO */
{
	json_t *out = json_array(), *run;
	size_t i;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
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
	.help = "github-action-benchmark customBiggerIsBetter array",
	.write = write_gab,
};
