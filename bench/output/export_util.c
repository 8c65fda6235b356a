// SPDX-License-Identifier: GPL-2.0
/*
 * What the export formats (fmt_*.c) share: a metric's summary over a run's
 * ok samples and a JSON document written out. Below both the formats and
 * export.c, which lists them.
 */
#include "output/export.h"

#include <errno.h>

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
