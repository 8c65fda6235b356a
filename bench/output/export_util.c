// SPDX-License-Identifier: GPL-2.0
/*
 * What the export formats (fmt_*.c, and trend's events) share: a metric's
 * summary over a run's ok samples, the headline ratios and their series
 * key, a JSON document written out, a CSV field and a Prometheus label
 * escaped. Below both the formats and
 * export.c, which lists them.
 */
#include "output/export.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <string.h>

void zc_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void zc_prom_label(FILE *f, const char *name, const char *val, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	for (; *val; val++) {
		if (*val == '\\' || *val == '"')
			fprintf(f, "\\%c", *val);
		else if (*val == '\n')
			fputs("\\n", f);
		else
			fputc(*val, f);
	}
	fputc('"', f);
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

json_t *zc_export_headlines(json_t *root)
{
	return zc_headline(json_object_get(root, "runs"));
}

void zc_export_headline_key(json_t *row, char *buf, size_t len)
{
	char chunk[24], pipe[24];
	const char *rr = zc_an_str(row, "rr"), *side = zc_an_str(row, "aa_side");
	long long conns = zc_an_int(row, "connections"), workers = zc_an_int(row, "workers");

	zc_fmt_size(zc_an_int(row, "chunk"), chunk, sizeof(chunk));
	zc_fmt_size(zc_an_int(row, "pipe_size"), pipe, sizeof(pipe));
	snprintf(buf, len, "%s %s/%s (%s / %s)%s%s", zc_an_str(row, "ratio"), chunk, pipe,
		 zc_an_str(row, "numerator"), zc_an_str(row, "denominator"), *rr ? " " : "", rr);
	if (conns > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " conns=%lld", conns);
	if (workers > 1)
		snprintf(buf + strlen(buf), len - strlen(buf), " workers=%lld", workers);
	if (*side)
		snprintf(buf + strlen(buf), len - strlen(buf), " %s", side);
}
