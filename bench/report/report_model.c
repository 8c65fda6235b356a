// SPDX-License-Identifier: GPL-2.0
/*
 * What `zcbench report` says about one results file, as JSON (report_int.h):
 * `report --json` prints it and the text report is printed from it, so the
 * two cannot disagree. The ratios come from the headline engine
 * (results/headline.c) and the interval code (results/change.c), as run,
 * plot and the dashboard read them; nothing here computes a ratio.
 */
#include "report/report_int.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

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

/* One headline pair at one size, from zc_an_ratio and zc_an_ratio_json. */
static json_t *pair_row(const struct zc_pair *p, const char *side)
{
	json_t *num = p->run, *den = p->peer_run, *k = json_object_get(num, "key");
	json_t *row = json_object();
	struct zc_ratio r;
	char rr[512];

	zc_an_ratio(num, den, &r);
	json_object_set_new(row, "ratio", json_string(p->name));
	json_object_set_new(row, "side", json_string(side));
	json_object_set_new(row, "numerator", json_string(zc_an_str(num, "name")));
	json_object_set_new(row, "denominator", json_string(zc_an_str(den, "name")));
	json_object_set_new(row, "numerator_mode", json_string(zc_an_dut_mode(num)));
	json_object_set_new(row, "denominator_mode", json_string(zc_an_dut_mode(den)));
	json_object_set_new(row, "chunk", json_integer(zc_an_int(k, "chunk")));
	json_object_set_new(row, "pipe_size", json_integer(zc_an_int(k, "pipe_size")));
	json_object_set_new(row, "connections", json_integer(zc_an_int(k, "connections") ?: 1));
	json_object_set_new(row, "workers", json_integer(zc_an_int(k, "workers") ?: 1));
	/* Request/response pairs of one path differ by these ("rr object=1024
	 * churn", as the results file's headline and the exports spell it). */
	json_object_set_new(row, "rr", *zc_an_rr_key(k, true, rr, sizeof(rr)) ?
			    json_string(rr) : json_null());
	json_object_set_new(row, "value", num_or_null(r.value));
	zc_an_ratio_json(row, num, den, &r);
	json_object_set_new(row, "numerator_gbps_per_core", num_or_null(r.num_gpc));
	json_object_set_new(row, "denominator_gbps_per_core", num_or_null(r.den_gpc));
	json_object_set_new(row, "numerator_samples", json_integer((json_int_t)r.nn));
	json_object_set_new(row, "denominator_samples", json_integer((json_int_t)r.nd));
	json_object_set_new(row, "verified", json_boolean(
		json_is_true(json_object_get(num, "verified")) &&
		json_is_true(json_object_get(den, "verified"))));
	return row;
}

/* A principal ratio whose after-modes have no run in the file. */
static json_t *missing_after(const struct zc_pair *p)
{
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(p->native, afters, ZC_ARRAY_SIZE(afters));
	json_t *modes = json_array();

	for (size_t a = 0; a < na; a++)
		json_array_append_new(modes, json_string(afters[a]->name));
	return json_pack("{s:s,s:o}", "ratio", p->name, "after_modes", modes);
}

static json_t *headline(json_t *root, json_t *missing)
{
	json_t *runs = json_object_get(root, "runs"), *rows = json_array();
	const char *native = zc_an_side_words(root, false);
	struct zc_pair *pv;
	size_t n = zc_headline_pairs(runs, ZC_PAIRS_AFTER | ZC_PAIRS_UNPAIRED, &pv);

	for (size_t i = 0; i < n; i++) {
		const struct zc_pair *p = &pv[i];
		bool seen = false;
		json_t *m;
		size_t j;

		if (p->kind == ZC_PAIR_HEADLINE)
			json_array_append_new(rows, pair_row(p, native));
		else if (p->run)
			json_array_append_new(rows, pair_row(p, zc_an_side_words(root, true)));
		else {
			/* One per ratio, not one per size. */
			json_array_foreach(missing, j, m)
				seen |= !strcmp(zc_an_str(m, "ratio"), p->name);
			if (!seen)
				json_array_append_new(missing, missing_after(p));
		}
	}
	free(pv);
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
		json_t *o = json_pack("{s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:b}", "name",
				      zc_an_str(run, "name"), "status", zc_an_str(run, "status"),
				      "mode", zc_an_dut_mode(run),
				      "chunk", (json_int_t)zc_an_int(k, "chunk"),
				      "pipe_size", (json_int_t)zc_an_int(k, "pipe_size"),
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
	json_object_set_new(o, "runs", run_rows(json_object_get(root, "runs")));
	return o;
}
