// SPDX-License-Identifier: GPL-2.0
/* export --format csv: one row per sample, failed samples too (empty figures),
 * and profile_BUCKET_pct columns when a run was profiled; with --what
 * headlines, one row per headline ratio instead (a CSV holds one table). */
#include "export/export.h"
#include "report/breakdown.h"

#include <math.h>
#include <string.h>

static bool any_rr(json_t *runs)
{
	json_t *run;
	size_t i;

	json_array_foreach(runs, i, run)
		if (!strcmp(zc_an_str(json_object_get(run, "key"), "traffic"), "rr"))
			return true;
	return false;
}

/* A headline row's columns: zc_export_headlines' keys (results/README.md's
 * "headline" and "headline_best"), in the order a reader scans them. */
static const char *const headline_cols[] = {
	"ratio", "sizes", "numerator", "denominator", "chunk", "pipe_size", "denominator_chunk",
	"denominator_pipe_size", "numerator_sizes", "denominator_sizes", "connections", "workers",
	"rr", "side", "aa_side", "value", "lo", "hi", "level", "n", "method", "half_width_pct",
	"answer", "threshold_pct", "numerator_gbps_per_core", "denominator_gbps_per_core",
	"numerator_busy_frac", "denominator_busy_frac", "disturbed_left_out", "verified",
};

/* A JSON value as a CSV field: empty when absent or null. */
static void json_field(FILE *f, json_t *v)
{
	if (json_is_string(v))
		zc_csv_field(f, json_string_value(v));
	else if (json_is_integer(v))
		fprintf(f, "%lld", (long long)json_integer_value(v));
	else if (json_is_number(v))
		fprintf(f, "%.10g", json_number_value(v));
	else if (json_is_boolean(v))
		fputs(json_is_true(v) ? "true" : "false", f);
}

static int write_headlines(FILE *f, json_t *root) /* 0 */
{
	json_t *hl = zc_export_headlines(root), *row;
	char fp[8192], fpid[512];
	size_t i;

	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	fputs("date,kernel,host,fingerprint", f);
	for (size_t c = 0; c < ZC_ARRAY_SIZE(headline_cols); c++)
		fprintf(f, ",%s", headline_cols[c]);
	fputc('\n', f);
	json_array_foreach(hl, i, row) {
		const char *strs[] = { zc_an_date(root), zc_an_kernel(root), zc_an_hostname(root),
				       fpid };

		for (size_t c = 0; c < ZC_ARRAY_SIZE(strs); c++) {
			if (c)
				fputc(',', f);
			zc_csv_field(f, strs[c]);
		}
		for (size_t c = 0; c < ZC_ARRAY_SIZE(headline_cols); c++) {
			fputc(',', f);
			json_field(f, json_object_get(row, headline_cols[c]));
		}
		fputc('\n', f);
	}
	json_decref(hl);
	return 0;
}

static int write_csv(FILE *f, json_t *root, enum zc_export_what what) /* 0 */
{
	json_t *run, *smp;
	size_t i, j;
	char fp[8192], fpid[512];
	const char *cols[] = { "date",	 "kernel", "host",	  "fingerprint", "run",
			       "topology", "source", "proxy", "sink",	       "chunk",
			       "pipe_size", "connections", "workers", "emulated", "verified", "rep",
			       "status" };

	bool profiled = zc_an_any_profile(json_object_get(root, "runs"));
	bool rr = any_rr(json_object_get(root, "runs"));

	if (what == ZC_EXPORT_HEADLINES)
		return write_headlines(f, root);
	zc_an_fingerprint(root, fp, sizeof(fp), fpid, sizeof(fpid));
	for (size_t c = 0; c < ZC_ARRAY_SIZE(cols); c++)
		fprintf(f, "%s%s", c ? "," : "", cols[c]);
	zc_for_each_summary_metric(m)
		fprintf(f, ",%s", m->key);
	for (int b = 0; profiled && b < ZC_BUCKET_NR; b++)
		fprintf(f, ",profile_%s_pct", zc_buckets[b].key);
	/* Last, so a stream file's columns stay where they were. */
	if (rr)
		fprintf(f, ",traffic,object_size,churn,inflight,rate,pipe_pool");
	/* The DUT at least ZC_SATURATED_FRAC busy in this sample (empty:
	 * unknown); the options that tell runs of one path apart. */
	fprintf(f, ",saturated,options");
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
				zc_csv_field(f, strs[c]);
			}
			/* chunk, pipe_size: empty where the DUT does not use it (1.10);
			 * workers: runs of a sweep differ by it alone (absent before 1.3: 1);
			 * verified: the sample's own (1.3), else the run's. */
			fputc(',', f);
			json_field(f, json_object_get(k, "chunk"));
			fputc(',', f);
			json_field(f, json_object_get(k, "pipe_size"));
			fprintf(f, ",%lld,%lld,%s,%s,%lld,", zc_an_int(k, "connections"),
				zc_an_int(k, "workers") ?: 1,
				json_is_true(json_object_get(run, "emulated")) ? "true" : "false",
				json_is_true(json_object_get(smp, "verified") ?: json_object_get(run,
					"verified")) ? "true" : "false",
				zc_an_int(smp, "rep"));
			zc_csv_field(f, zc_an_str(smp, "status"));
			zc_for_each_summary_metric(m) {
				json_t *x = json_object_get(smp, m->key);

				/* Empty, not 0, where a failed sample has no figure. */
				if (json_is_number(x))
					fprintf(f, ",%.10g", json_number_value(x));
				else
					fputc(',', f);
			}
			/* The sample's own profile, else the run's (one per run). */
			for (int b = 0; profiled && b < ZC_BUCKET_NR; b++) {
				double x = zc_an_sample_bucket(run, smp, b);

				if (isnan(x))
					fputc(',', f);
				else
					fprintf(f, ",%.6g", x);
			}
			/* An rr run's object sizes are runs of one name: these tell them apart. */
			if (rr)
				fprintf(f, ",%s,%lld,%s,%lld,%lld,%lld", zc_an_str(k, "traffic")[0] ?
					zc_an_str(k, "traffic") : "stream", zc_an_int(k, "object_size"),
					json_is_true(json_object_get(k, "churn")) ? "true" : "false",
					zc_an_int(k, "inflight"), zc_an_int(k, "rate"),
					zc_an_int(k, "pipe_pool"));
			{
				json_t *b = json_object_get(smp, "dut_busy_frac");

				char opts[256];

				fprintf(f, ",%s,", !json_is_number(b) ? "" :
					json_number_value(b) >= ZC_SATURATED_FRAC ? "true" : "false");
				zc_csv_field(f, zc_an_key_opts(run, opts, sizeof(opts)));
			}
			fputc('\n', f);
		}
	}
	return 0;
}

const struct zc_export_format zc_fmt_csv = {
	.name = "csv",
	.help = "one row per sample (failed samples too, empty figures); profile_BUCKET_pct "
		"columns when a run was profiled (its samples' profiles, or the run's); with "
		"request/response runs: traffic, object_size, churn, inflight, rate, pipe_pool; "
		"last, saturated (the DUT at least 0.9 busy in the sample) and options (the run's "
		"mode_opts, alternate ... that tell runs of one path apart); --what headlines: a "
		"row per headline ratio instead (value, lo, hi, n, answer, each side's busy)",
	.write = write_csv,
};
