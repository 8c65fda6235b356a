// SPDX-License-Identifier: GPL-2.0
/*
 * export --format prometheus: node_exporter's textfile-collector exposition,
 * one gauge per metric (median of repetitions) in base units named in the
 * metric's name, as Prometheus' naming rules ask (_bytes_per_second,
 * _seconds, _ratio; never Gbit/s or microseconds per KiB), labelled with
 * the run's key, the kernel and two short fingerprint labels (vmsplice
 * before/after, fs.splice_needs_write); then the headline ratios with their
 * 95% intervals, n, answers and each side's DUT busy.
 * The fingerprint's long text is an info metric of its own, so no series
 * carries a label of a hundred characters. export --out writes the file
 * atomically, so the collector never reads half a file. `promtool check
 * metrics` passes it (tests/integration/export.sh).
 */
#include "export/export.h"

#include <math.h>
#include <string.h>

/* A metric's name and scale in base units, from its unit: the key's unit
 * word (token, a whole "_"-separated part of the key) is taken out and the
 * base unit's suffix goes last, as Prometheus names end in their unit
 * (conn_gbps_min: zcbench_conn_min_bytes_per_second). A key that is its unit
 * word alone is named alone + suffix. Units not listed are counts, cores or
 * ratios of like quantities already, and keep key and value. */
static const struct base_unit {
	const char *unit, *token, *alone, *suffix;
	double scale;
	const char *says;	/* the exported value's unit, for HELP */
} base_units[] = {
	/* Bytes, not bits: Prometheus' base unit, and promtool's lint refuses
	 * "bits" ('use base unit "bytes" instead of "bits"'). */
	{ "Gbit/s", "gbps", "payload", "bytes_per_second", 1e9 / 8, "bytes per second" },
	{ "Gbit/s/core", "gbps_per_core", "payload", "bytes_per_second_per_core", 1e9 / 8,
	  "bytes per second per busy core of the device under test" },
	/* netperf's KB is a KiB: us per 1024 bytes */
	{ "us/KB", "us_per_kb", "", "seconds_per_byte", 1e-6 / 1024,
	  "seconds of the device under test's CPU per payload byte" },
	/* MB: 1e6 bytes (metrics.c) */
	{ "calls/MB", "per_mb", "", "per_byte", 1e-6, "calls per payload byte" },
	{ "syscalls/MB", "per_mb", "", "per_byte", 1e-6, "syscalls per payload byte" },
	{ "us", "us", "", "seconds", 1e-6, "seconds" },
	{ "transactions/s", "tps", "", "transactions_per_second", 1, "transactions per second" },
	{ "transactions/s/core", "tps_per_core", "", "transactions_per_second_per_core", 1,
	  "transactions per second per busy core of the device under test" },
	{ "fraction", "frac", "", "ratio", 1, "a ratio, 0..1" },
};

/* key with the part token taken out ("" when none left), or NULL when key
 * has no such part. */
static const char *cut_token(const char *key, const char *token, char *out, size_t len)
{
	size_t tl = strlen(token);

	for (const char *p = key; (p = strstr(p, token)); p++) {
		bool starts = p == key || p[-1] == '_', ends = !p[tl] || p[tl] == '_';
		size_t head = p == key ? 0 : (size_t)(p - key) - 1;	/* without its '_' */

		if (!starts || !ends)
			continue;
		snprintf(out, len, "%.*s%s%s", (int)head, key, head && p[tl] ? "_" : "",
			 p[tl] ? p + tl + 1 : "");
		return out;
	}
	return NULL;
}

static const struct base_unit *prom_name(const struct zc_metric *m, char *out, size_t len)
{
	char rest[128];

	for (size_t i = 0; i < ZC_ARRAY_SIZE(base_units); i++) {
		const struct base_unit *u = &base_units[i];
		const char *r;

		if (strcmp(m->unit, u->unit) || !(r = cut_token(m->key, u->token, rest, sizeof(rest))))
			continue;
		if (!*r)
			r = u->alone;
		snprintf(out, len, "zcbench_%s%s%s", r, *r ? "_" : "", u->suffix);
		return u;
	}
	snprintf(out, len, "zcbench_%s", m->key);
	return NULL;
}

/* A label whose value is an integer (digits: nothing to escape). */
static void prom_label_int(FILE *f, const char *name, long long val)
{
	fprintf(f, ",%s=\"%lld\"", name, val);
}

/* HELP text escapes backslash and newline. */
static void prom_text(FILE *f, const char *text)
{
	for (; *text; text++)
		fputs(*text == '\\' ? "\\\\" : *text == '\n' ? "\\n" : (char[]){ *text, 0 }, f);
}

/* The exported value's unit first (what a reader of the gauge needs), then
 * the metric's meaning, which may speak of the results file's unit. */
static void prom_help(FILE *f, const char *name, const struct zc_metric *m,
		      const struct base_unit *u)
{
	fprintf(f, "# HELP %s ", name);
	if (u && u->scale != 1)
		fprintf(f, "Unit: %s (the results files' %s in %s x %.10g; median of repetitions). ",
			u->says, m->key, m->unit, u->scale);
	else if (u)
		fprintf(f, "Unit: %s (the results files' %s; median of repetitions). ", u->says,
			m->key);
	else
		fprintf(f, "Unit: %s (median of repetitions). ", m->unit);
	prom_text(f, m->help);
	fputc('\n', f);
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
		/* None where the DUT does not use it (1.10). */
		if (json_object_get(k, "chunk"))
			prom_label_int(f, "chunk", zc_an_int(k, "chunk"));
		if (json_object_get(k, "pipe_size"))
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

/* A headline row's labels: what tells its series apart, then host, kernel. */
static void headline_labels(FILE *f, json_t *root, json_t *row)
{
	static const char *const strs[] = { "ratio", "sizes", "numerator", "denominator", "rr",
					    "aa_side" };
	static const char *const ints[] = { "chunk", "pipe_size", "denominator_chunk",
					    "denominator_pipe_size", "connections", "workers" };

	for (size_t k = 0; k < ZC_ARRAY_SIZE(strs); k++)
		if (*zc_an_str(row, strs[k]))
			zc_prom_label(f, strs[k], zc_an_str(row, strs[k]), !k);
	/* A best row has no connections or workers of its own: absent. */
	for (size_t k = 0; k < ZC_ARRAY_SIZE(ints); k++)
		if (json_is_integer(json_object_get(row, ints[k])))
			prom_label_int(f, ints[k], zc_an_int(row, ints[k]));
	/* An emulated after-mode's ratio (report's "after, emulated"); the
	 * kernel's own side is the fingerprint's vmsplice label. */
	if (json_is_boolean(json_object_get(row, "emulated")))
		zc_prom_label(f, "emulated", json_is_true(json_object_get(row, "emulated")) ? "true" :
			      "false", false);
	zc_prom_label(f, "verified", json_is_true(json_object_get(row, "verified")) ? "true" :
		      "false", false);
	host_labels(f, root, false);
	fp_labels(f, root);
}

/* One sample of a headline gauge: its labels, one more (key NULL: none), the value. */
static void headline_sample(FILE *f, const char *name, json_t *root, json_t *row, const char *key,
			    const char *value, double v)
{
	fprintf(f, "%s{", name);
	headline_labels(f, root, row);
	if (key)
		zc_prom_label(f, key, value, false);
	fprintf(f, "} %.10g\n", v);
}

/* The headline ratios (report's, zc_headline): the ratio with its 95%
 * interval (bound estimate, lower, upper), its repetitions, its answer
 * against 1.0 and each side's DUT busy fraction, a gauge each. */
static void write_headlines(FILE *f, json_t *root)
{
	static const char *const help[][2] = {
		{ "zcbench_headline_ratio", "Unit: ratio. A headline ratio (report's): the "
		  "numerator run's Gbit/s per core over the denominator run's, both at one "
		  "size (sizes same) or each at its best (sizes best); bound estimate, "
		  "lower and upper: the value and its 95% interval (t on the logs; none under 3 "
		  "repetitions)" },
		{ "zcbench_headline_repetitions", "Unit: repetitions. A headline ratio's n: "
		  "the pairs of repetitions (paired) or the fewer ok samples of its two runs" },
		{ "zcbench_headline_answer_info", "Unit: none, value always 1. A headline "
		  "ratio's answer against 1.0 at +-5%: changed (the whole interval outside), "
		  "unchanged (inside), cant_tell" },
		{ "zcbench_headline_dut_busy_ratio", "Unit: a ratio, 0..1. How busy each "
		  "side's device under test was (side numerator or denominator); under 0.9 it "
		  "waited for its peers and its Gbit/s per core is not its best" },
	};
	static const char *const bound[][2] = { { "estimate", "value" }, { "lower", "lo" },
						{ "upper", "hi" } };
	static const char *const side[][2] = { { "numerator", "numerator_busy_frac" },
					       { "denominator", "denominator_busy_frac" } };
	json_t *hl = zc_export_headlines(root), *row;
	size_t i;

	for (size_t g = 0; g < ZC_ARRAY_SIZE(help) && json_array_size(hl); g++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", help[g][0], help[g][1], help[g][0]);
		json_array_foreach(hl, i, row) {
			json_t *x;

			for (size_t k = 0; g == 0 && k < ZC_ARRAY_SIZE(bound); k++)
				if (json_is_number(x = json_object_get(row, bound[k][1])))
					headline_sample(f, help[g][0], root, row, "bound", bound[k][0],
							json_number_value(x));
			if (g == 1)
				headline_sample(f, help[g][0], root, row, NULL, NULL,
						(double)zc_an_int(row, "n"));
			if (g == 2)
				headline_sample(f, help[g][0], root, row, "answer",
						zc_an_str(row, "answer"), 1);
			for (size_t k = 0; g == 3 && k < ZC_ARRAY_SIZE(side); k++)
				if (json_is_number(x = json_object_get(row, side[k][1])))
					headline_sample(f, help[g][0], root, row, "side", side[k][0],
							json_number_value(x));
		}
	}
	json_decref(hl);
}

/* Each run's figures, a gauge per metric, and whether its DUT was saturated. */
static void write_runs(FILE *f, json_t *root)
{
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i;

	zc_for_each_summary_metric(m) {
		char name[160];
		const struct base_unit *u = prom_name(m, name, sizeof(name));
		double scale = u ? u->scale : 1;
		bool any = false;

		json_array_foreach(runs, i, run) {
			struct zc_summary s;

			if (zc_export_summary(run, m->key, &s))
				continue;
			if (!any) {
				prom_help(f, name, m, u);
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
	fprintf(f, "# HELP zcbench_dut_saturated Unit: none. 1 when the device under test's median busy "
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
}

static int write_prometheus(FILE *f, json_t *root, enum zc_export_what what) /* 0 */
{
	char fp[8192], fpid[512];

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	if (what != ZC_EXPORT_HEADLINES)
		write_runs(f, root);
	if (what != ZC_EXPORT_RUNS)
		write_headlines(f, root);
	/* The long text once, joined to the series by kernel and host. */
	fprintf(f, "# HELP zcbench_fingerprint_info Unit: none, value always 1. The kernel fingerprint of the results file "
		   "(zcbench probe's label, or a hash of its JSON)\n"
		   "# TYPE zcbench_fingerprint_info gauge\nzcbench_fingerprint_info{");
	host_labels(f, root, true);
	fp_labels(f, root);
	zc_prom_label(f, "fingerprint", fpid, false);
	fprintf(f, "} 1\n");
	if (zc_an_epoch(root) >= 0) {
		fprintf(f, "# HELP zcbench_results_timestamp_seconds Unit: seconds since the "
			   "epoch. When the results file was started (meta.date)\n# TYPE zcbench_results_timestamp_seconds gauge\n"
			   "zcbench_results_timestamp_seconds{");
		host_labels(f, root, true);
		fp_labels(f, root);
		fprintf(f, "} %lld\n", zc_an_epoch(root));
	}
	return 0;
}

const struct zc_export_format zc_fmt_prometheus = {
	.name = "prometheus",
	.help = "textfile-collector exposition in base units named in each metric's name "
		"(_bytes_per_second, _seconds, _ratio); zcbench_headline_ratio (bound estimate, "
		"lower, upper), _repetitions, _answer_info, _dut_busy_ratio: the headline ratios; "
		"labels mode, chunk, kernel, host, vmsplice, splice_needs_write (request/"
		"response runs also traffic, object_size, churn, pipe_pool, inflight, rate); the "
		"fingerprint's text in zcbench_fingerprint_info; zcbench_dut_saturated 0 where the "
		"DUT waited for its peers",
	.write = write_prometheus,
};
