/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zcbench export's formats: one file each (fmt_NAME.c) exporting a
 * zc_fmt_NAME, and one line in ZC_EXPORT_FORMATS below. export.c loads the
 * file and writes what a format produced, atomically with --out.
 */
#ifndef ZC_EXPORT_H
#define ZC_EXPORT_H

#include "stats/stats.h"
#include "metrics/metrics.h"
#include "results/results.h"

#include <stdio.h>

/* The one list of export formats, X(identifier), in --help's order: a
 * new format is one line here (every line ends in a backslash). */
#define ZC_EXPORT_FORMATS(X) \
	X(csv)               \
	X(bmf)               \
	X(prometheus)        \
	X(gab)               \
	/* end of the list */

/* What an export holds (--what): every part the format can hold (a CSV
 * holds one table: the samples'), each run's figures only, or the headline
 * ratios only (zc_headline: each with its interval, n, answer, DUT busy). */
enum zc_export_what {
	ZC_EXPORT_ALL,
	ZC_EXPORT_RUNS,
	ZC_EXPORT_HEADLINES,
};

struct zc_export_format {
	const char *name;	/* --format NAME */
	/* For export --help: one paragraph, wrapped to the terminal there. */
	const char *help;
	/* The whole text of a results file (root) in this format, the parts
	 * what asks for: 0/-errno */
	int (*write)(FILE *f, json_t *root, enum zc_export_what what);
};

#define ZC_EXPORT_DECL(id) extern const struct zc_export_format zc_fmt_##id;
ZC_EXPORT_FORMATS(ZC_EXPORT_DECL)
extern const struct zc_export_format *const zc_export_formats[];
extern const size_t zc_nexport_formats;

const struct zc_export_format *zc_export_format_find(const char *name); /* NULL if none */
/* The formats' names joined by sep ("csv|bmf|..."), for --help and errors. */
void zc_export_format_names(char *buf, size_t len, const char *sep);

/* Helpers for formats (export_util.c). */
/* Summary of metric over the run's ok samples: 0, -ENODATA when there are none */
int zc_export_summary(json_t *run, const char *metric, struct zc_summary *s);
/* The headline ratios of root's runs as report prints them: each side at
 * its best size first (zc_headline_best, "sizes": "best"), then at each
 * size (zc_headline, "sizes": "same"); flat rows: numerator and denominator
 * the runs' names, chunk and pipe_size the numerator's,
 * denominator_chunk and denominator_pipe_size the denominator's. A new
 * JSON array, [] when none. */
json_t *zc_export_headlines(json_t *root);
/* A headline row's series name: "headline splice/copy proxy 64k/1M
 * (proxy-splice / proxy-copy)", then what tells its rows apart when present
 * (rr pair, connections, workers, A/A side); a best row "headline
 * splice/copy proxy best 64k/1M vs 1M/1M (proxy-splice / proxy-copy)";
 * " unverified" after either when a sink did not check the bytes. */
void zc_export_headline_name(json_t *row, char *buf, size_t len);
/* doc as indented JSON and a newline; takes doc's reference: 0/-EIO */
int zc_export_json(FILE *f, json_t *doc);
/* A CSV field, quoted (RFC 4180) when it holds a comma, quote or newline. */
void zc_csv_field(FILE *f, const char *s);
/* ,name="value" (first: no comma), the value escaped as the exposition
 * format wants (backslash, double quote, newline). */
void zc_prom_label(FILE *f, const char *name, const char *val, bool first);

#endif
