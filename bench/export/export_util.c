// SPDX-License-Identifier: GPL-2.0
/*
 * What the export formats (fmt_*.c, and trend's events) share: a metric's
 * summary over a run's ok samples, the headline ratios and their series
 * key, a JSON document written out, a CSV field and a Prometheus label
 * escaped. Below both the formats and
 * export.c, which lists them.
 */
#include "export/export.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Both formats get text a terminal may show: control characters escaped
 * (zc_escape) first, whatever the caller passed (a path, a file's string). */
void zc_csv_field(FILE *f, const char *s)
{
	char *esc = zc_needs_escape(s) ? zc_escape(s) : NULL;
	const char *p = esc ? esc : s;

	if (!strpbrk(p, ",\"")) {
		fputs(p, f);
	} else {
		fputc('"', f);
		for (; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	}
	free(esc);
}

void zc_prom_label(FILE *f, const char *name, const char *val, bool first)
{
	char *esc = zc_needs_escape(val) ? zc_escape(val) : NULL;

	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = esc ? esc : val; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(f, "\\%c", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
	free(esc);
}

int zc_export_summary(json_t *run, const char *metric, struct zc_summary *s)
{
	static double v[ZC_SAMPLES_MAX];
	size_t n = zc_an_values(run, metric, v, ZC_SAMPLES_MAX);

	zc_summarize(v, n, s);
	return n ? 0 : -ENODATA;
}

int zc_export_json(FILE *f, json_t *doc)
{
	int ret = json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));

	fputc('\n', f);
	json_decref(doc);
	return ret ? -EIO : 0;
}

/* A side of a headline_best row ({run, chunk, pipe_size}) into row's flat keys. */
static void flat_side(json_t *row, const char *side, const char *chunk, const char *pipe)
{
	json_t *o = json_incref(json_object_get(row, side));

	json_object_set_new(row, side, json_string(zc_an_str(o, "run")));
	json_object_set(row, chunk, json_object_get(o, "chunk"));	/* null: not used */
	json_object_set(row, pipe, json_object_get(o, "pipe_size"));
	json_decref(o);
}

json_t *zc_export_headlines(json_t *root)
{
	json_t *runs = json_object_get(root, "runs"), *out = zc_headline_best(runs);
	json_t *each = zc_headline_rows(root, ZC_PAIRS_AFTER, NULL), *row;
	size_t i;

	/* Report's order: each side at its best size first, the fair question. */
	json_array_foreach(out, i, row) {
		json_object_set_new(row, "sizes", json_string("best"));
		flat_side(row, "numerator", "chunk", "pipe_size");
		flat_side(row, "denominator", "denominator_chunk", "denominator_pipe_size");
	}
	json_array_foreach(each, i, row) {
		json_object_set_new(row, "sizes", json_string("same"));
		json_object_set(row, "denominator_chunk", json_object_get(row, "chunk"));
		json_object_set(row, "denominator_pipe_size", json_object_get(row, "pipe_size"));
	}
	json_array_extend(out, each);
	json_decref(each);
	return out;
}

void zc_export_headline_name(json_t *row, char *buf, size_t len)
{
	char chunk[24], pipe[24];
	const char *rr = zc_an_str(row, "rr"), *side = zc_an_str(row, "aa_side");
	/* Unverified figures never join a verified series. */
	const char *unv = json_is_true(json_object_get(row, "verified")) ? "" : " unverified";
	long long conns = zc_an_int(row, "connections"), workers = zc_an_int(row, "workers");

	zc_an_fmt_size(zc_an_int(row, "chunk"), chunk, sizeof(chunk));
	zc_an_fmt_size(zc_an_int(row, "pipe_size"), pipe, sizeof(pipe));
	if (!strcmp(zc_an_str(row, "sizes"), "best")) {
		char dchunk[24], dpipe[24];

		zc_an_fmt_size(zc_an_int(row, "denominator_chunk"), dchunk, sizeof(dchunk));
		zc_an_fmt_size(zc_an_int(row, "denominator_pipe_size"), dpipe, sizeof(dpipe));
		snprintf(buf, len, "headline %s best %s/%s vs %s/%s (%s / %s)%s", zc_an_str(row, "ratio"),
			 chunk, pipe, dchunk, dpipe, zc_an_str(row, "numerator"),
			 zc_an_str(row, "denominator"), unv);
		return;
	}
	snprintf(buf, len, "headline %s %s/%s (%s / %s)%s%s", zc_an_str(row, "ratio"), chunk, pipe,
		 zc_an_str(row, "numerator"), zc_an_str(row, "denominator"), *rr ? " " : "", rr);
	if (conns > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " conns=%lld", conns);
	if (workers > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " workers=%lld", workers);
	snprintf(buf + strlen(buf), len - strlen(buf), "%s%s%s", *side ? " " : "", side, unv);
}
