// SPDX-License-Identifier: GPL-2.0
/*
 * export --format prometheus: node_exporter's textfile-collector exposition,
 * one gauge per metric (median of repetitions), labelled with the run's key,
 * kernel and fingerprint. export --out writes it atomically, so the collector
 * never reads half a file.
 */
#include "output/export.h"

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

static int write_prometheus(FILE *f, json_t *root) /* 0 */
{
	char fp[8192], fpid[512];
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i;

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	zc_for_each_summary_metric(m) {
		bool any = false;

		json_array_foreach(runs, i, run) {
			struct zc_summary s;
			json_t *k = json_object_get(run, "key");
			char num[32];

			if (zc_export_summary(run, m->key, &s))
				continue;
			if (!any) {
				fprintf(f, "# HELP zcbench_%s %s, median of repetitions (%s)\n",
					m->key, m->help, m->unit);
				fprintf(f, "# TYPE zcbench_%s gauge\n", m->key);
				any = true;
			}
			fprintf(f, "zcbench_%s{", m->key);
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
	return 0;
}

const struct zc_export_format zc_fmt_prometheus = {
	.name = "prometheus",
	.help = "textfile-collector exposition, labels mode, chunk, kernel, fingerprint",
	.write = write_prometheus,
};
