// SPDX-License-Identifier: GPL-2.0
/*
 * What the export formats (fmt_*.c, and trend's events) share: a metric's
 * summary over a run's ok samples, a JSON document written out, a CSV
 * field and a Prometheus label escaped. Below both the formats and
 * export.c, which lists them.
 */
#include "output/export.h"

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
