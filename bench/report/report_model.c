// SPDX-License-Identifier: GPL-2.0
/*
 * What `zcbench report` says about one results file, as JSON (report_int.h):
 * `report --json` prints it and the text report is printed from it, so the
 * two cannot disagree. The ratios come from the headline engine
 * (results/headline.c) and the interval code (results/change.c), as run,
 * plot and the dashboard read them; nothing here computes a ratio.
 */
#include "report/report_int.h"
#include "results/slices.h"
#include "lib/zcbench.h"

#include <stdio.h>
#include <string.h>

static json_t *copy_or_null(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v ? json_deep_copy(v) : json_null();
}

/* The fingerprint's label, side, verdicts and scalars; its bulky parts (every
 * probe and mode) are counted, not copied. */
static json_t *fingerprint(json_t *root)
{
	json_t *fp = json_object_get(root, "fingerprint"), *o, *sc = json_object(), *v;
	json_t *counts = json_object();
	const char *k;
	char line[2048], id[512];

	if (!json_is_object(fp)) {
		json_decref(sc);
		json_decref(counts);
		return json_null();
	}
	zc_an_fingerprint(root, line, sizeof(line), id, sizeof(id));
	o = json_pack("{s:s,s:s,s:o,s:O*,s:o,s:o}", "id", id, "label", line, "kernel_side",
		      zc_an_kernel_side(root) ? json_string(zc_an_kernel_side(root)) : json_null(),
		      "verdicts", json_object_get(fp, "verdicts"), "scalars", sc, "counts", counts);
	json_object_foreach(fp, k, v) {
		if (!strcmp(k, "label") || !strcmp(k, "verdicts"))
			continue;
		if (json_is_object(v) || json_is_array(v))
			json_object_set_new(counts, k, json_integer((json_int_t)(json_is_object(v) ?
				json_object_size(v) : json_array_size(v))));
		else
			json_object_set(sc, k, v);
	}
	return o;
}

/* The engine's rows (results/headline.c) as report --json 1.0 has them:
 * without the exports' keys. */
static json_t *headline(json_t *root, json_t *missing)
{
	static const char *const extra[] = ZC_HEADLINE_ROW_EXTRA;
	json_t *rows = zc_headline_rows(root, ZC_PAIRS_AFTER, missing), *row;
	size_t i;

	json_array_foreach(rows, i, row)
		for (size_t k = 0; k < ZC_ARRAY_SIZE(extra); k++)
			json_object_del(row, extra[k]);
	return rows;
}

/* Each run's key, status and median, min and max of the figures a reader of
 * the ratios wants beside them (the summary the results writer keeps). */
static json_t *run_rows(json_t *runs)
{
	static const char *const figures[] = { "gbps", "gbps_per_core", "dut_busy_frac" };
	json_t *rows = json_array(), *run;
	size_t i;

	json_array_foreach(runs, i, run) {
		json_t *k = json_object_get(run, "key"), *sum = json_object_get(run, "summary");
		/* A size the DUT does not pass on is in no key (1.10): null. */
		json_t *o = json_pack("{s:s,s:s,s:s,s:O?,s:O?,s:I,s:I,s:b}", "name",
				      zc_an_str(run, "name"), "status", zc_an_str(run, "status"),
				      "mode", zc_an_dut_mode(run),
				      "chunk", json_object_get(k, "chunk"),
				      "pipe_size", json_object_get(k, "pipe_size"),
				      "connections", (json_int_t)(zc_an_int(k, "connections") ?: 1),
				      "workers", (json_int_t)(zc_an_int(k, "workers") ?: 1),
				      "verified", json_is_true(json_object_get(run, "verified")));

		for (size_t f = 0; f < ZC_ARRAY_SIZE(figures); f++) {
			json_t *s = json_object_get(sum, figures[f]);

			json_object_set_new(o, figures[f], !json_is_object(s) ? json_null() :
				json_pack("{s:O,s:O,s:O,s:O}", "n", json_object_get(s, "n"),
					  "median", json_object_get(s, "median"),
					  "min", json_object_get(s, "min"),
					  "max", json_object_get(s, "max")));
		}
		json_array_append_new(rows, o);
	}
	return rows;
}

const char *zc_report_load_text(json_t *load_avg, json_t *steal_frac, char *buf, size_t len)
{
	static const char *const edge[] = { "before", "after" };
	size_t o;

	if (!json_is_object(load_avg) && !json_is_number(steal_frac)) {
		snprintf(buf, len, "load average and steal: not recorded (a file before schema 1.9)");
		return buf;
	}
	o = (size_t)snprintf(buf, len, "load average (1, 5, 15 min): ");
	for (int e = 0; e < 2 && o < len; e++) {
		json_t *l = json_object_get(load_avg, edge[e]);

		if (json_array_size(l) == 3)
			o += (size_t)snprintf(buf + o, len - o, "%.2f %.2f %.2f %s, ",
					      json_number_value(json_array_get(l, 0)),
					      json_number_value(json_array_get(l, 1)),
					      json_number_value(json_array_get(l, 2)), edge[e]);
		else
			o += (size_t)snprintf(buf + o, len - o, "? %s, ", edge[e]);
	}
	if (o < len && json_is_number(steal_frac))
		snprintf(buf + o, len - o, "steal %.1f%% of CPU time",
			 100 * json_number_value(steal_frac));
	else if (o < len)
		snprintf(buf + o, len - o, "steal not known");
	return buf;
}

/* Each row's answer in the words the text prints ("above 1.05"). */
static json_t *with_words(json_t *rows)
{
	json_t *h, *v;
	size_t i;
	char words[48];

	json_array_foreach(rows, i, h) {
		v = json_object_get(h, "value");
		if (json_is_number(v))
			zc_ratio_words(zc_an_str(h, "answer"), json_number_value(v), words,
				       sizeof(words));
		json_object_set_new(h, "answer_words", json_is_number(v) ? json_string(words) :
				    json_null());
	}
	return rows;
}

json_t *zc_report_model(const char *path, json_t *root)
{
	json_t *meta = json_object_get(root, "meta"), *steal = json_object_get(meta, "steal");
	json_t *o = json_object(), *missing = json_array();
	json_t *slices = zc_slices_headline(json_object_get(root, "runs"));

	json_object_set_new(o, "file", json_string(path));
	json_object_set_new(o, "schema_version", json_string(zc_an_str(root, "schema_version")));
	json_object_set_new(o, "host", json_string(zc_an_hostname(root)));
	json_object_set_new(o, "kernel", json_string(zc_an_kernel(root)));
	json_object_set_new(o, "date", json_string(zc_an_date(root)));
	json_object_set_new(o, "status", json_string(zc_an_str(root, "status")));
	json_object_set_new(o, "status_reason", *zc_an_str(root, "status_reason") ?
			    json_string(zc_an_str(root, "status_reason")) : json_null());
	json_object_set_new(o, "load_avg", copy_or_null(meta, "load_avg"));
	json_object_set_new(o, "steal_frac", copy_or_null(steal, "frac"));
	json_object_set_new(o, "fingerprint", fingerprint(root));
	json_object_set_new(o, "headline_best",
			    with_words(zc_headline_best(json_object_get(root, "runs"))));
	json_object_set_new(o, "headline", with_words(headline(root, missing)));
	json_object_set_new(o, "missing_after", missing);
	/* Only where a run took turns (alternate), as the text prints them. */
	if (json_array_size(slices))
		json_object_set(o, "headline_slices", slices);
	json_decref(slices);
	json_object_set_new(o, "runs", run_rows(json_object_get(root, "runs")));
	return o;
}
