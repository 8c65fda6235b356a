// SPDX-License-Identifier: GPL-2.0
/*
 * export --format prometheus: node_exporter's textfile-collector exposition,
 * one gauge per metric (median of repetitions) in base units, as
 * Prometheus' naming rules ask (bytes per second, seconds; never Gbit/s or
 * microseconds per KiB), labelled with the run's key, the kernel and two
 * short fingerprint labels (vmsplice before/after, fs.splice_needs_write).
 * The fingerprint's long text is an info metric of its own, so no series
 * carries a label of a hundred characters. export --out writes the file
 * atomically, so the collector never reads half a file. `promtool check
 * metrics` passes it (tests/integration/export.sh).
 */
#include "output/export.h"

#include <math.h>
#include <string.h>

/* A metric's name and scale in base units, from its unit: the key's unit
 * part (strip) becomes the base unit's suffix. Units not listed are already
 * ratios or counts and keep key and value. */
static const struct base_unit {
	const char *unit, *strip, *suffix;
	double scale;
} base_units[] = {
	{ "Gbit/s", "gbps", "payload_bytes_per_second", 1e9 / 8 },
	{ "Gbit/s/core", "gbps_per_core", "payload_bytes_per_second_per_core", 1e9 / 8 },
	{ "us/KB", "_us_per_kb", "_seconds_per_byte", 1e-6 / 1024 },	/* netperf's KB is KiB */
	{ "calls/MB", "_per_mb", "_per_byte", 1e-6 },
	{ "syscalls/MB", "_per_mb", "_per_byte", 1e-6 },
};

static double prom_name(const struct zc_metric *m, char *out, size_t len)
{
	for (size_t i = 0; i < ZC_ARRAY_SIZE(base_units); i++) {
		const struct base_unit *u = &base_units[i];
		size_t kl = strlen(m->key), sl = strlen(u->strip);

		if (strcmp(m->unit, u->unit) || kl < sl || strcmp(m->key + kl - sl, u->strip))
			continue;
		snprintf(out, len, "zcbench_%.*s%s", (int)(kl - sl), m->key, u->suffix);
		return u->scale;
	}
	snprintf(out, len, "zcbench_%s", m->key);
	return 1;
}

/* A label whose value is an integer (digits: nothing to escape). */
static void prom_label_int(FILE *f, const char *name, long long val)
{
	fprintf(f, ",%s=\"%lld\"", name, val);
}

/* HELP text escapes backslash and newline. */
static void prom_help(FILE *f, const char *name, const char *text, const char *unit)
{
	fprintf(f, "# HELP %s ", name);
	for (; *text; text++)
		fputs(*text == '\\' ? "\\\\" : *text == '\n' ? "\\n" : (char[]){ *text, 0 }, f);
	fprintf(f, " (median of repetitions; results files say %s)\n", unit);
}

/* The fingerprint's short labels: what before/after questions group by. */
static void fp_labels(FILE *f, json_t *root)
{
	json_t *fp = json_object_get(root, "fingerprint");
	const char *snw = zc_an_str(json_object_get(json_object_get(fp, "probes"),
						    "splice_needs_write"), "verdict");

	zc_prom_label(f, "vmsplice", zc_an_kernel_side(root) ? zc_an_kernel_side(root) : "unknown",
		   false);
	zc_prom_label(f, "splice_needs_write", *snw ? snw : "unknown", false);
}

static void host_labels(FILE *f, json_t *root, bool first)
{
	zc_prom_label(f, "kernel", zc_an_kernel(root), first);
	zc_prom_label(f, "host", zc_an_hostname(root), false);
}

/* A run's labels: every key that tells its series apart, then host and kernel. */
static void run_labels(FILE *f, json_t *root, json_t *run)
{
	json_t *k = json_object_get(run, "key");

		zc_prom_label(f, "run", zc_an_str(run, "name"), true);
		zc_prom_label(f, "topology", zc_an_str(k, "topology"), false);
		zc_prom_label(f, "mode", zc_an_dut_mode(run), false);
		zc_prom_label(f, "source", zc_an_str(k, "source"), false);
		zc_prom_label(f, "proxy", zc_an_str(k, "proxy"), false);
		zc_prom_label(f, "sink", zc_an_str(k, "sink"), false);
		prom_label_int(f, "chunk", zc_an_int(k, "chunk"));
		prom_label_int(f, "pipe_size", zc_an_int(k, "pipe_size"));
		prom_label_int(f, "connections", zc_an_int(k, "connections"));
		/* Without it a workers sweep's runs would be duplicate series. */
		prom_label_int(f, "workers", zc_an_int(k, "workers") ?: 1);
		/* An rr run has a series per object size: without these they
		 * would be duplicates. Stream runs' label sets are unchanged. */
		if (!strcmp(zc_an_str(k, "traffic"), "rr")) {
			zc_prom_label(f, "traffic", "rr", false);
			prom_label_int(f, "object_size", zc_an_int(k, "object_size"));
			zc_prom_label(f, "churn", json_is_true(json_object_get(k, "churn")) ?
				   "true" : "false", false);
			prom_label_int(f, "pipe_pool", zc_an_int(k, "pipe_pool"));
			prom_label_int(f, "inflight", zc_an_int(k, "inflight"));
			prom_label_int(f, "rate", zc_an_int(k, "rate"));
		}
		/* Runs that differ by an option (mode_opts, alternate, workers of
	 * the peers ...) are other series; without one the set is as before. */
	{
		char opts[256];

		if (*zc_an_key_opts(run, opts, sizeof(opts)))
			zc_prom_label(f, "options", opts, false);
	}
	zc_prom_label(f, "emulated",
			   json_is_true(json_object_get(run, "emulated")) ? "true" : "false",
			   false);
		zc_prom_label(f, "verified",
			   json_is_true(json_object_get(run, "verified")) ? "true" : "false",
			   false);
		host_labels(f, root, false);
		fp_labels(f, root);
}

static int write_prometheus(FILE *f, json_t *root) /* 0 */
{
	char fp[8192], fpid[512];
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i;

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	zc_for_each_summary_metric(m) {
		char name[160];
		double scale = prom_name(m, name, sizeof(name));
		bool any = false;

		json_array_foreach(runs, i, run) {
			struct zc_summary s;

			if (zc_export_summary(run, m->key, &s))
				continue;
			if (!any) {
				prom_help(f, name, m->help, m->unit);
				fprintf(f, "# TYPE %s gauge\n", name);
				any = true;
			}
			fprintf(f, "%s{", name);
			run_labels(f, root, run);
			fprintf(f, "} %.10g\n", s.median * scale);
		}
	}
	/* A DUT under ZC_SATURATED_FRAC busy waited for its peers: its per-core
	 * figures are not the DUT's best, and a dashboard should say so. */
	fprintf(f, "# HELP zcbench_dut_saturated 1 when the device under test's median busy "
		   "fraction is at least %g, 0 when it waited for its peers (its Gbit/s per core "
		   "is then not its best)\n# TYPE zcbench_dut_saturated gauge\n", ZC_SATURATED_FRAC);
	json_array_foreach(runs, i, run) {
		double busy = zc_an_busy_frac(run);

		if (isnan(busy))
			continue;
		fprintf(f, "zcbench_dut_saturated{");
		run_labels(f, root, run);
		fprintf(f, "} %d\n", busy >= ZC_SATURATED_FRAC);
	}
	/* The long text once, joined to the series by kernel and host. */
	fprintf(f, "# HELP zcbench_fingerprint_info the kernel fingerprint of the results file "
		   "(zcbench probe's label, or a hash of its JSON), value always 1\n"
		   "# TYPE zcbench_fingerprint_info gauge\nzcbench_fingerprint_info{");
	host_labels(f, root, true);
	fp_labels(f, root);
	zc_prom_label(f, "fingerprint", fpid, false);
	fprintf(f, "} 1\n");
	if (zc_an_epoch(root) >= 0) {
		fprintf(f, "# HELP zcbench_results_timestamp_seconds when the results file was "
			   "started (meta.date)\n# TYPE zcbench_results_timestamp_seconds gauge\n"
			   "zcbench_results_timestamp_seconds{");
		host_labels(f, root, true);
		fp_labels(f, root);
		fprintf(f, "} %lld\n", zc_an_epoch(root));
	}
	return 0;
}

const struct zc_export_format zc_fmt_prometheus = {
	.name = "prometheus",
	.help = "textfile-collector exposition in base units (bytes per second, seconds);\n"
		"labels mode, chunk, kernel, host, vmsplice, splice_needs_write (request/\n"
		"response runs also traffic, object_size, churn, pipe_pool, inflight, rate); the\n"
		"fingerprint's text in zcbench_fingerprint_info; zcbench_dut_saturated 0 where the\n"
		"DUT waited for its peers",
	.write = write_prometheus,
};
