// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a results file's runs: a run's key, name and label, its samples'
 * values, the file's kernel, host, date and fingerprint.
 */
#include "results/results.h"
#include "stats/stats.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *zc_an_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, zc_key(key)));

	return s ? s : "";
}

double zc_an_real(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, zc_key(key));

	return json_is_number(v) ? json_number_value(v) : NAN;
}

long long zc_an_int(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, zc_key(key));
	double d = json_real_value(v);

	if (json_is_integer(v))
		return (long long)json_integer_value(v);
	/* Converting a double outside long long's range is undefined: 0. */
	return json_is_real(v) && d > -9.2e18 && d < 9.2e18 ? (long long)d : 0;
}

/* The options of run that change what is measured, where set, each
 * " name=value" into out at *n (options absent before schema 1.2: none). */
static void append_opts(json_t *run, char *out, size_t len, int *n, const char *sep)
{
	json_t *o = json_object_get(run, "options");
	static const char *const texts[][2] = { { "mode_opts", "opts" }, { "alternate", "alt" } };
	static const char *const counts[][2] = {
		{ "source_workers", "srcw" }, { "sink_workers", "sinkw" }, { "request_size", "req" }
	};

	for (size_t t = 0; t < ZC_ARRAY_SIZE(texts); t++)
		if (*zc_an_str(o, texts[t][0]) && *n >= 0 && (size_t)*n < len)
			*n += snprintf(out + *n, len - *n, "%s%s=%s", sep, texts[t][1],
				       zc_an_str(o, texts[t][0]));
	for (size_t c = 0; c < ZC_ARRAY_SIZE(counts); c++)
		if (zc_an_int(o, counts[c][0]) > 0 && *n >= 0 && (size_t)*n < len)
			*n += snprintf(out + *n, len - *n, "%s%s=%lld", sep, counts[c][1],
				       zc_an_int(o, counts[c][0]));
}

/* A size of key k in bytes, "-" when k has none (its DUT ignores it:
 * schema 1.10; an older file keeps the size it stored, so its runs stay
 * apart as they were measured). */
static const char *bytes_of(json_t *k, const char *key, char *out, size_t len)
{
	if (json_object_get(k, key))
		snprintf(out, len, "%lld", zc_an_int(k, key));
	else
		snprintf(out, len, "-");
	return out;
}

void zc_an_key(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");
	long long conn = zc_an_int(k, "connections"), wk = zc_an_int(k, "workers");
	char chunk[24], pipe[24];
	bool proxy;
	int n;

	bytes_of(k, "chunk", chunk, sizeof(chunk));
	bytes_of(k, "pipe_size", pipe, sizeof(pipe));
	proxy = !strcmp(zc_an_str(k, "topology"), "proxy");
	n = snprintf(out, len, "%s %s>%s%s%s chunk=%s pipe=%s conn=%lld", zc_an_str(k, "topology"),
		     zc_an_str(k, "source"), proxy ? zc_an_str(k, "proxy") : "", proxy ? ">" : "",
		     zc_an_str(k, "sink"), chunk, pipe, conn ? conn : 1);
	/* One worker (or none recorded, before schema 1.3) keeps the old key. */
	if (wk > 1 && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, " workers=%lld", wk);
	if (n > 0 && (size_t)n + 1 < len && !strcmp(zc_an_str(k, "traffic"), "rr")) {
		out[n++] = ' ';
		n += (int)strlen(zc_an_rr_key(k, true, out + n, len - n));
	}
	/* The options that change what is measured, where set: runs that differ
	 * by any of them are other runs (1.7). Unset, the key is as before. */
	append_opts(run, out, len, &n, " ");
}

json_t *zc_an_num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

const char *zc_an_fmt_size(long long v, char *out, size_t len)
{
	if (v > 0)
		zc_fmt_size(v, out, len);
	else
		snprintf(out, len, "-");
	return out;
}

const char *zc_an_size_of(json_t *o, char *out, size_t len)
{
	char chunk[24], pipe[24];

	snprintf(out, len, "%s/%s", zc_an_fmt_size(zc_an_int(o, "chunk"), chunk, sizeof(chunk)),
		 zc_an_fmt_size(zc_an_int(o, "pipe_size"), pipe, sizeof(pipe)));
	return out;
}

const char *zc_an_key_opts(json_t *run, char *out, size_t len)
{
	int n = 0;

	if (!len)
		return out;
	out[0] = 0;
	append_opts(run, out, len, &n, ",");
	/* Each item comes with its separator: the first one's goes. */
	if (out[0] == ',')
		memmove(out, out + 1, strlen(out));
	return out;
}

void zc_an_run_id(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");
	char lab[96], chunk[24], pipe[24], rr[256];
	long long conn = zc_an_int(k, "connections"), wk = zc_an_int(k, "workers");
	int n;

	zc_an_label(run, lab, sizeof(lab));
	zc_an_fmt_size(zc_an_int(k, "chunk"), chunk, sizeof(chunk));
	zc_an_fmt_size(zc_an_int(k, "pipe_size"), pipe, sizeof(pipe));
	n = snprintf(out, len, "%s@%s/%s", lab, chunk, pipe);
	if (conn > 1 && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, ",conn=%lld", conn);
	if (wk > 1 && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, ",workers=%lld", wk);
	if (*zc_an_rr_key(k, true, rr, sizeof(rr)) && n > 0 && (size_t)n < len) {
		/* "rr object=65536 churn" as ",object=64k,churn": one word. */
		char obj[24];

		zc_fmt_size(zc_an_int(k, "object_size"), obj, sizeof(obj));
		n += snprintf(out + n, len - n, ",object=%s%s", obj,
			      json_is_true(json_object_get(k, "churn")) ? ",churn" : "");
		if (zc_an_int(k, "inflight") > 1 && n > 0 && (size_t)n < len)
			n += snprintf(out + n, len - n, ",inflight=%lld", zc_an_int(k, "inflight"));
		if (json_number_value(json_object_get(k, "rate")) > 0 && n > 0 && (size_t)n < len)
			n += snprintf(out + n, len - n, ",rate=%g",
				      json_number_value(json_object_get(k, "rate")));
		if (zc_an_int(k, "pipe_pool") && n > 0 && (size_t)n < len)
			n += snprintf(out + n, len - n, ",pool=%lld", zc_an_int(k, "pipe_pool"));
	}
	append_opts(run, out, len, &n, ",");
	/* One word: gnuplot's word() splits titles on spaces. */
	for (char *p = out; *p; p++)
		if (*p == ' ' || *p == '\'')
			*p = '_';
}

const char *zc_an_rr_key(json_t *k, bool with_pool, char *out, size_t len)
{
	double rate = json_number_value(json_object_get(k, "rate"));
	long long inflight = zc_an_int(k, "inflight"), pool = zc_an_int(k, "pipe_pool");
	int n;

	if (!len)
		return out;
	out[0] = 0;
	if (strcmp(zc_an_str(k, "traffic"), "rr"))
		return out;
	n = snprintf(out, len, "rr object=%lld%s", zc_an_int(k, "object_size"),
		     json_is_true(json_object_get(k, "churn")) ? " churn" : "");
	if (inflight > 1 && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, " inflight=%lld", inflight);
	if (rate > 0 && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, " rate=%g", rate);
	if (*zc_an_str(k, "object_sizes_file") && n > 0 && (size_t)n < len)
		n += snprintf(out + n, len - n, " sizes=%s", zc_an_str(k, "object_sizes_file"));
	if (with_pool && pool && n > 0 && (size_t)n < len)
		snprintf(out + n, len - n, " pool=%lld", pool);
	return out;
}

const char *zc_an_dut_role(json_t *run)
{
	const char *dut = zc_an_str(run, "dut");

	if (*dut)
		return dut;
	return strcmp(zc_an_str(json_object_get(run, "key"), "topology"), "proxy") ? "source" : "proxy";
}

const char *zc_an_dut_mode(json_t *run)
{
	/* The run's own "dut" says which role the per-core figures belong to. */
	return zc_an_str(json_object_get(run, "key"), zc_an_dut_role(run));
}

void zc_an_label(json_t *run, char *out, size_t len)
{
	json_t *k = json_object_get(run, "key");
	const char *topo = zc_an_str(k, "topology");

	if (!strcmp(topo, "proxy"))
		snprintf(out, len, "proxy:%s", zc_an_str(k, "proxy"));
	else if (strcmp(zc_an_str(k, "sink"), "recv"))
		snprintf(out, len, "%s>%s", zc_an_str(k, "source"), zc_an_str(k, "sink"));
	else
		snprintf(out, len, "%s", zc_an_str(k, "source"));
	/* A real program (HAProxy, iperf3) in a role's place is marked as such. */
	if (json_object_get(run, "peer") && strlen(out) + 8 < len)
		strcat(out, " [peer]");
}

bool zc_an_disturbed(json_t *sample)
{
	return json_is_true(json_object_get(sample, "disturbed"));
}

size_t zc_an_disturbed_count(json_t *run)
{
	json_t *smp;
	size_t i, n = 0;

	/* A failed sample is out anyway: only ok ones are left out for it. */
	json_array_foreach(json_object_get(run, "samples"), i, smp)
		n += zc_an_disturbed(smp) && !strcmp(zc_an_str(smp, "status"), "ok");
	return n;
}

size_t zc_an_values(json_t *run, const char *metric, double *out, size_t max)
{
	json_t *smp;
	size_t i, n = 0;

	zc_metric_key(metric);
	json_array_foreach(json_object_get(run, "samples"), i, smp) {
		json_t *x = json_object_get(smp, metric);

		if (n < max && json_is_number(x) && !strcmp(zc_an_str(smp, "status"), "ok") &&
		    isfinite(json_number_value(x)) && !zc_an_disturbed(smp))
			out[n++] = json_number_value(x);
	}
	return n;
}

const char *zc_an_kernel(json_t *root)
{
	const char *s = zc_an_str(json_object_get(json_object_get(root, "meta"), "kernel"),
				  "release");

	return *s ? s : "unknown-kernel";
}

const char *zc_an_hostname(json_t *root)
{
	const char *s = zc_an_str(json_object_get(root, "meta"), "hostname");

	return *s ? s : "unknown-host";
}

const char *zc_an_date(json_t *root)
{
	return zc_an_str(json_object_get(root, "meta"), "date");
}

long long zc_an_epoch(json_t *root)
{
	struct tm tm = { 0 };
	const char *d = zc_an_date(root), *end;

	end = strptime(d, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return -1;
	return (long long)timegm(&tm);
}

void zc_an_fingerprint(json_t *root, char *line, size_t len, char *id, size_t idlen)
{
	json_t *fp = json_object_get(root, "fingerprint");
	char *dump;
	uint32_t h = 2166136261u; /* FNV-1a: a short label that changes with the behaviour */

	if (!fp || json_is_null(fp)) {
		snprintf(line, len, "none");
		snprintf(id, idlen, "none");
		return;
	}
	dump = json_dumps(fp, JSON_COMPACT | JSON_SORT_KEYS);
	/* zcbench probe writes a one-line "label" of the behaviours: the best id. */
	if (json_is_string(json_object_get(fp, "label")) && dump) {
		snprintf(line, len, "%s", dump);
		snprintf(id, idlen, "%s", json_string_value(json_object_get(fp, "label")));
		free(dump);
		return;
	}
	if (!dump) {
		snprintf(line, len, "(unprintable)");
		snprintf(id, idlen, "unknown");
		return;
	}
	for (const char *p = dump; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(line, len, "%s", dump);
	snprintf(id, idlen, "fp-%08x", h);
	free(dump);
}


const char *zc_an_kernel_side(json_t *root)
{
	const char *s = json_string_value(
		json_object_get(json_object_get(root, "fingerprint"), "vmsplice_state"));

	return s && (!strcmp(s, "before") || !strcmp(s, "after")) ? s : NULL;
}

const char *zc_an_side_words(json_t *root, bool emulated)
{
	const char *side = zc_an_kernel_side(root);

	if (emulated)
		return "after, emulated";
	return !side ? "this kernel" : !strcmp(side, "after") ? "after, measured" : "before, measured";
}
