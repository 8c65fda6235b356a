// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench export --format csv|bmf|prometheus|gab FILE: a results file in the
 * shapes dashboards read. csv: one row per sample; bmf: Bencher Metric
 * Format; prometheus: node_exporter textfile-collector (.prom, written to a
 * temp file and renamed so the collector never reads half a file); gab:
 * github-action-benchmark's customBiggerIsBetter array.
 */
#include "results/results.h"
#include "output/report.h"
#include "lib/stats.h"
#include "lib/opt.h"
#include "lib/zcbench.h"
#include "metrics/metrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static void csv_field(FILE *f, const char *s)
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

static void export_csv(FILE *f, json_t *root)
{
	json_t *run, *smp;
	size_t i, j;
	char fp[8192], fpid[512];
	const char *cols[] = { "date",	 "kernel", "host",	  "fingerprint", "run",
			       "topology", "source", "proxy", "sink",	       "chunk",
			       "pipe_size", "connections", "emulated", "rep", "status" };

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	for (size_t c = 0; c < ZC_ARRAY_SIZE(cols); c++)
		fprintf(f, "%s%s", c ? "," : "", cols[c]);
	for (size_t m = 0; m < zc_nmetrics; m++)
		fprintf(f, ",%s", zc_metrics[m].key);
	fputc('\n', f);
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		json_t *k = json_object_get(run, "key");

		json_array_foreach(json_object_get(run, "samples"), j, smp) {
			const char *strs[] = { zc_an_date(root), zc_an_kernel(root),
					       zc_an_hostname(root), fpid, zc_an_str(run, "name"),
					       zc_an_str(k, "topology"), zc_an_str(k, "source"),
					       zc_an_str(k, "proxy"), zc_an_str(k, "sink") };

			for (size_t c = 0; c < ZC_ARRAY_SIZE(strs); c++) {
				if (c)
					fputc(',', f);
				csv_field(f, strs[c]);
			}
			fprintf(f, ",%lld,%lld,%lld,%s,%lld,", zc_an_int(k, "chunk"),
				zc_an_int(k, "pipe_size"), zc_an_int(k, "connections"),
				json_is_true(json_object_get(run, "emulated")) ? "true" : "false",
				zc_an_int(smp, "rep"));
			csv_field(f, zc_an_str(smp, "status"));
			for (size_t m = 0; m < zc_nmetrics; m++) {
				json_t *x = json_object_get(smp, zc_metrics[m].key);

				/* Empty, not 0, where a failed sample has no figure. */
				if (json_is_number(x))
					fprintf(f, ",%.10g", json_number_value(x));
				else
					fputc(',', f);
			}
			fputc('\n', f);
		}
	}
}

static int summary_of(json_t *run, const char *metric, struct zc_summary *s)
{
	static double v[ZC_SAMPLES_MAX];
	size_t n = zc_an_values(run, metric, v, ZC_SAMPLES_MAX);

	zc_summarize(v, n, s);
	return n ? 0 : -ENODATA;
}

static json_t *export_bmf(json_t *root)
{
	json_t *out = json_object(), *run;
	size_t i;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		json_t *measures = json_object();
		char key[512];

		zc_an_key(run, key, sizeof(key));
		for (size_t m = 0; m < zc_nmetrics; m++) {
			struct zc_summary s;

			if (summary_of(run, zc_metrics[m].key, &s))
				continue;
			json_object_set_new(measures, zc_metrics[m].key,
					    json_pack("{s:f,s:f,s:f}", "value", s.median,
						      "lower_value", s.min, "upper_value", s.max));
		}
		if (json_object_size(measures))
			json_object_set_new(out, key, measures);
		else
			json_decref(measures);
	}
	return out;
}

static json_t *export_gab(json_t *root)
{
	json_t *out = json_array(), *run;
	size_t i;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		char key[512], name[600], range[64], extra[512];

		zc_an_key(run, key, sizeof(key));
		for (size_t m = 0; m < zc_nmetrics; m++) {
			struct zc_summary s;

			/* customBiggerIsBetter: only metrics where bigger is better. */
			if (zc_metrics[m].higher_is_better != 1 ||
			    summary_of(run, zc_metrics[m].key, &s))
				continue;
			snprintf(name, sizeof(name), "%s %s", key, zc_metrics[m].key);
			snprintf(range, sizeof(range), "± %.4g", s.stddev);
			snprintf(extra, sizeof(extra),
				 "median of %zu repetitions, min %.4g max %.4g; run %s; kernel %s",
				 s.n, s.min, s.max, zc_an_str(run, "name"), zc_an_kernel(root));
			json_array_append_new(out, json_pack("{s:s,s:s,s:f,s:s,s:s}", "name", name,
							     "unit", zc_metrics[m].unit, "value",
							     s.median, "range", range, "extra", extra));
		}
	}
	return out;
}

/* Label values escape backslash, double quote and newline (exposition format). */
static void prom_label(FILE *f, const char *name, const char *val,
		       bool first)
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

static void export_prometheus(FILE *f, json_t *root)
{
	char fp[8192], fpid[512];
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i;

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	for (size_t m = 0; m < zc_nmetrics; m++) {
		bool any = false;

		json_array_foreach(runs, i, run) {
			struct zc_summary s;
			json_t *k = json_object_get(run, "key");
			char num[32];

			if (summary_of(run, zc_metrics[m].key, &s))
				continue;
			if (!any) {
				fprintf(f, "# HELP zcbench_%s %s, median of repetitions (%s)\n",
					zc_metrics[m].key, zc_metrics[m].help, zc_metrics[m].unit);
				fprintf(f, "# TYPE zcbench_%s gauge\n", zc_metrics[m].key);
				any = true;
			}
			fprintf(f, "zcbench_%s{", zc_metrics[m].key);
			prom_label(f, "run", zc_an_str(run, "name"), true);
			prom_label(f, "topology", zc_an_str(k, "topology"), false);
			prom_label(f, "mode", zc_an_dut_mode(run), false);
			prom_label(f, "source", zc_an_str(k, "source"), false);
			prom_label(f, "proxy", zc_an_str(k, "proxy"), false);
			prom_label(f, "sink", zc_an_str(k, "sink"), false);
			snprintf(num, sizeof(num), "%lld", zc_an_int(k, "chunk"));
			prom_label(f, "chunk", num, false);
			snprintf(num, sizeof(num), "%lld", zc_an_int(k, "pipe_size"));
			prom_label(f, "pipe_size", num, false);
			snprintf(num, sizeof(num), "%lld", zc_an_int(k, "connections"));
			prom_label(f, "connections", num, false);
			prom_label(f, "emulated",
				   json_is_true(json_object_get(run, "emulated")) ? "true" : "false",
				   false);
			prom_label(f, "kernel", zc_an_kernel(root), false);
			prom_label(f, "fingerprint", fpid, false);
			prom_label(f, "host", zc_an_hostname(root), false);
			fprintf(f, "} %.10g\n", s.median);
		}
	}
	if (zc_an_epoch(root) >= 0) {
		fprintf(f, "# HELP zcbench_results_timestamp_seconds when the results file was "
			   "started (meta.date)\n# TYPE zcbench_results_timestamp_seconds gauge\n"
			   "zcbench_results_timestamp_seconds{");
		prom_label(f, "kernel", zc_an_kernel(root), true);
		prom_label(f, "fingerprint", fpid, false);
		prom_label(f, "host", zc_an_hostname(root), false);
		fprintf(f, "} %lld\n", zc_an_epoch(root));
	}
}

struct export_args {
	const char *format, *out, *path;
};

static int check_format(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "csv") || !strcmp(v, "bmf") || !strcmp(v, "prometheus") || !strcmp(v, "gab"))
		return 0;
	snprintf(why, len, "'%s' is not one of csv, bmf, prometheus, gab", v);
	return -EINVAL;
}

#define AT(field) ZC_OPT_AT(struct export_args, field)
static const struct zc_opt export_optv[] = {
	{ "format", ZC_OPT_TEXT, NULL, AT(format), ZC_OPT_REQ, .check = check_format,
	  .meta = "csv|bmf|prometheus|gab",
	  .help = "csv: one row per sample (failed samples too, empty figures); bmf: Bencher Metric "
		  "Format {key: {metric: {value, lower_value, upper_value}}} (median, min, max of the "
		  "ok samples); prometheus: textfile-collector exposition, labels mode, chunk, kernel, "
		  "fingerprint; gab: github-action-benchmark customBiggerIsBetter array" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "PATH",
	  .help = "write there atomically (temp file + rename); default stdout" },
	{ "FILE.json", ZC_OPT_TEXT, NULL, AT(path), ZC_OPT_POS | ZC_OPT_REQ,
	  .help = "a results file" },
};

int zc_cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	const struct zc_optgroup group = { .opts = export_optv, .n = ZC_ARRAY_SIZE(export_optv),
					   .base = &a };
	const struct zc_cmdline cmdline = { .name = "export", .groups = &group, .ngroups = 1 };
	const char *format, *out, *path;
	json_t *root, *doc = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret = zc_opt_main(&cmdline, argc, argv);

	if (ret >= 0)
		return ret;
	ret = 0;
	format = a.format;
	out = a.out;
	path = a.path;
	root = zc_an_load("export", path);
	if (!root)
		return ZC_EXIT_USAGE;
	/* Build the whole text in memory: written at once, atomically. */
	f = open_memstream(&buf, &len);
	if (!f) {
		zc_err("export: open_memstream: %s", strerror(errno));
		json_decref(root);
		return ZC_EXIT_FAIL;
	}
	if (!strcmp(format, "csv"))
		export_csv(f, root);
	else if (!strcmp(format, "prometheus"))
		export_prometheus(f, root);
	else {
		doc = !strcmp(format, "bmf") ? export_bmf(root) : export_gab(root);
		json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', f);
		json_decref(doc);
	}
	fclose(f);
	if (out) {
		ret = zc_write_atomic(out, buf, len);
		if (ret) {
			zc_err("export: %s: %s", out, strerror(-ret));
			ret = ZC_EXIT_FAIL;
		}
	} else if (fwrite(buf, 1, len, stdout) != len) {
		ret = ZC_EXIT_FAIL;
	}
	free(buf);
	json_decref(root);
	return ret;
}
