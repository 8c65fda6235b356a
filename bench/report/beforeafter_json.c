// SPDX-License-Identifier: GPL-2.0
/* before-after --json: every TCP row before-after prints (zc_ba_tcp_rows),
 * each with both sides' medians, the change with its interval and its
 * three-valued answer; results/README.md has the schema. */
#include "report/beforeafter.h"
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include "stats/verdict.h"
#include "lib/zcbench.h"

static const char *label(json_t *root)
{
	return json_string_value(json_object_get(json_object_get(root, "fingerprint"), "label"));
}

static void row_json(const struct zc_ba_row *r, void *user)
{
	json_t *o, *iv = json_null();

	if (r->ch.ok)
		iv = json_pack("{s:o,s:o,s:f,s:b}", "lo_pct", zc_an_num(zc_change_pct(&r->ch, r->ch.lo)),
			       "hi_pct", zc_an_num(zc_change_pct(&r->ch, r->ch.hi)), "level", r->ch.level,
			       "paired", r->ch.paired);
	/* null: a size the modes do not use (1.10: the runs' keys have none) */
	o = json_pack("{s:s,s:o,s:o,s:s,s:s,s:s}", "path", r->path, "chunk",
		      r->chunk ? json_integer(r->chunk) : json_null(), "pipe_size",
		      r->pipe_size ? json_integer(r->pipe_size) : json_null(), "before_mode", r->before_mode,
		      "after_mode", r->after_mode, "after_kind", r->kind);
	json_object_set_new(o, "before_run", json_string(r->before_run));
	json_object_set_new(o, "after_run", json_string(r->after_run));
	json_object_set_new(o, "before", json_pack("{s:o,s:o,s:o}", "gbps_per_core",
		zc_an_num(r->before_gpc), "calls_per_mb", zc_an_num(r->before_calls_per_mb), "fingerprint",
		label(r->before_file) ? json_string(label(r->before_file)) : json_null()));
	json_object_set_new(o, "after", json_pack("{s:o,s:o,s:o}", "gbps_per_core",
		zc_an_num(r->after_gpc), "calls_per_mb", zc_an_num(r->after_calls_per_mb), "fingerprint",
		label(r->after_file ?: r->before_file) ?
			json_string(label(r->after_file ?: r->before_file)) : json_null()));
	json_object_set_new(o, "change_pct", zc_an_num(r->change_pct));	/* of the medians */
	/* The interval's own estimate (the mean of the logs, or of the pairs). */
	json_object_set_new(o, "estimate_pct", zc_an_num(r->ch.n ? zc_change_pct(&r->ch, r->ch.d) : NAN));
	json_object_set_new(o, "interval", iv);
	json_object_set_new(o, "answer", json_string(zc_answer_key(r->vd.answer)));
	json_object_set_new(o, "threshold_pct", json_real(100 * r->vd.threshold));
	json_object_set_new(o, "could_see_down_pct", zc_an_num(r->ch.ok ? 100 * r->vd.can_see_down : NAN));
	json_object_set_new(o, "could_see_up_pct", zc_an_num(r->ch.ok ? 100 * r->vd.can_see_up : NAN));
	json_array_append_new(user, o);
}

int zc_ba_print_json(FILE *f, json_t **files, int nfiles, json_t **after, int nafter)
{
	json_t *rows = json_array();
	json_t *root = json_pack("{s:s,s:s,s:o}", "schema", "zcbench-before-after",
				 "schema_version", "1.0", "rows", rows);
	int ret;

	zc_ba_tcp_rows(files, nfiles, after, nafter, row_json, rows);
	ret = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(root);
	return ret ? -EIO : 0;
}
