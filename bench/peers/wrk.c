// SPDX-License-Identifier: GPL-2.0
/*
 * wrk as the HTTP client: its command line, its Lua script whose done()
 * prints wrk's own figures as one JSON line, and that line parsed (jansson).
 */
#include "peers/wrk.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_TAG "{\"zcbench_wrk\":1,"

/* Latencies in microseconds, as wrk keeps them; the errors as wrk counts
 * them (status: responses with a status above 399). */
static const char script[] =
	"-- zcbench: wrk's own figures as one JSON line, at the end of the run\n"
	"done = function(summary, latency, requests)\n"
	"  local e = summary.errors\n"
	"  io.write(string.format('{\"zcbench_wrk\":1,\"duration_us\":%d,\"requests\":%d,\"bytes\":%d,' ..\n"
	"    '\"errors\":{\"connect\":%d,\"read\":%d,\"write\":%d,\"status\":%d,\"timeout\":%d},' ..\n"
	"    '\"latency_us\":{\"min\":%d,\"max\":%d,\"mean\":%.3f,\"stdev\":%.3f,' ..\n"
	"    '\"p50\":%d,\"p75\":%d,\"p90\":%d,\"p99\":%d,\"p99_9\":%d}}\\n',\n"
	"    summary.duration, summary.requests, summary.bytes,\n"
	"    e.connect, e.read, e.write, e.status, e.timeout,\n"
	"    latency.min, latency.max, latency.mean, latency.stdev,\n"
	"    latency:percentile(50), latency:percentile(75), latency:percentile(90),\n"
	"    latency:percentile(99), latency:percentile(99.9)))\n"
	"end\n";

const char *zc_wrk_script(void)
{
	return script;
}

/* `wrk -v` exits 1 by design. */
static const struct zc_peer_prog wrk = { "wrk", "-v", "wrk", "wrk ", true };

int zc_wrk_available(char *why, size_t len)
{
	char out[2048];

	return zc_peer_version(&wrk, out, sizeof(out), why, len);
}

json_t *zc_wrk_info(void)
{
	char out[2048];

	return zc_peer_version_info(&wrk, "wrk %63s", out, sizeof(out));
}

int zc_wrk_argv(const struct zc_wrk_cfg *c, char *argv[], int max, char *buf, size_t len)
{
	char *pos = buf;
	int n = 0;

	if (!c->url || strncmp(c->url, "http://", 7) || c->threads < 1 || c->connections < c->threads ||
	    c->seconds < 1 || c->timeout_s < 0 || max < 16)
		return -EINVAL;
	argv[n++] = "wrk";
	if (!zc_text_arg(argv, &n, &pos, &len, "-t", "%llu", c->threads) ||
	    !zc_text_arg(argv, &n, &pos, &len, "-c", "%llu", c->connections) ||
	    !zc_text_arg(argv, &n, &pos, &len, "-d", "%llus", c->seconds) ||
	    (c->timeout_s && !zc_text_arg(argv, &n, &pos, &len, "--timeout", "%llus", c->timeout_s)))
		return -ENOSPC;
	if (c->latency)
		argv[n++] = "--latency";
	if (c->script) {
		argv[n++] = "-s";
		argv[n++] = (char *)c->script;
	}
	argv[n++] = (char *)c->url;
	argv[n] = NULL;
	return 0;
}

int zc_wrk_start(struct zc_peer *p, const struct zc_wrk_cfg *c, const int *cpus, int ncpus,
		 const char *dir)
{
	char *argv[20], nums[64], lua[PATH_MAX], out[PATH_MAX];
	struct zc_wrk_cfg cfg = *c;
	struct zc_peer_spec spec = { .name = "wrk", .argv = argv, .cpus = cpus, .ncpus = ncpus,
				     .dir = dir, .stdout_path = out };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "wrk");
	if (snprintf(lua, sizeof(lua), "%s/zcbench-wrk.lua", dir) >= (int)sizeof(lua) ||
	    snprintf(out, sizeof(out), "%s/wrk.out", dir) >= (int)sizeof(out)) {
		snprintf(p->reason, sizeof(p->reason), "wrk: folder name too long");
		return -ENAMETOOLONG;
	}
	cfg.script = lua;
	ret = zc_wrk_argv(&cfg, argv, ZC_ARRAY_SIZE(argv), nums, sizeof(nums));
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "wrk: bad parameters");
		return ret;
	}
	ret = zc_write_atomic(lua, script, strlen(script));
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "wrk: cannot write %.900s: %s", lua,
			 strerror(-ret));
		return ret;
	}
	return zc_peer_start(p, &spec);
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* "Requests/sec:" and "Transfer/sec:" as wrk printed them (absent: 0). */
static void printed_rates(const char *out, struct zc_wrk_result *r)
{
	const char *s = strstr(out, "\nRequests/sec:");
	double v;

	if (s && sscanf(s + strlen("\nRequests/sec:"), "%lf", &v) == 1)
		r->printed_requests_per_s = v;
	s = strstr(out, "\nTransfer/sec:");
	if (s && !zc_peer_parse_bytes(s + strlen("\nTransfer/sec:"), &v, NULL))
		r->printed_bytes_per_s = v;
}

int zc_wrk_parse(const char *out, struct zc_wrk_result *r)
{
	const char *line = out;
	json_t *root, *err, *lat;
	json_error_t jerr;
	size_t len;

	memset(r, 0, sizeof(*r));
	/* The script's line, at the start of a line (wrk's text comes first). */
	while ((line = strstr(line, JSON_TAG)) && line != out && line[-1] != '\n')
		line++;
	if (!line)
		return -EINVAL;
	len = strcspn(line, "\n");
	root = json_loadb(line, len, 0, &jerr);
	err = json_object_get(root, "errors");
	lat = json_object_get(root, "latency_us");
	if (!json_is_object(root) || !json_is_object(err) || !json_is_object(lat) ||
	    !json_is_integer(json_object_get(root, "requests")) ||
	    !json_is_integer(json_object_get(root, "duration_us"))) {
		json_decref(root);
		return -EINVAL;
	}
	r->duration_s = num(root, "duration_us") / 1e6;
	r->requests = json_integer_value(json_object_get(root, "requests"));
	r->bytes = json_integer_value(json_object_get(root, "bytes"));
	r->err_connect = json_integer_value(json_object_get(err, "connect"));
	r->err_read = json_integer_value(json_object_get(err, "read"));
	r->err_write = json_integer_value(json_object_get(err, "write"));
	r->err_timeout = json_integer_value(json_object_get(err, "timeout"));
	r->err_status = json_integer_value(json_object_get(err, "status"));
	r->lat_min_us = num(lat, "min");
	r->lat_max_us = num(lat, "max");
	r->lat_mean_us = num(lat, "mean");
	r->lat_stdev_us = num(lat, "stdev");
	r->lat_p50_us = num(lat, "p50");
	r->lat_p75_us = num(lat, "p75");
	r->lat_p90_us = num(lat, "p90");
	r->lat_p99_us = num(lat, "p99");
	r->lat_p999_us = num(lat, "p99_9");
	json_decref(root);
	if (!r->requests) {
		/* wrk's empty histogram says min INT64_MIN: no latency at all */
		double *lat[] = { &r->lat_min_us, &r->lat_max_us, &r->lat_mean_us, &r->lat_stdev_us,
				  &r->lat_p50_us, &r->lat_p75_us, &r->lat_p90_us, &r->lat_p99_us,
				  &r->lat_p999_us };

		for (size_t i = 0; i < ZC_ARRAY_SIZE(lat); i++)
			*lat[i] = 0;
	}
	if (r->duration_s > 0) {
		r->requests_per_s = r->requests / r->duration_s;
		r->bytes_per_s = r->bytes / r->duration_s;
	}
	printed_rates(out, r);
	return r->requests ? 0 : -EPROTO;
}

int zc_wrk_result(const char *dir, struct zc_wrk_result *r)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(path, sizeof(path), "%s/wrk.out", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	text = zc_read_file(path, 1 << 20, &len);
	if (!text)
		return -errno;
	ret = zc_wrk_parse(text, r);
	free(text);
	return ret;
}

json_t *zc_wrk_result_json(const struct zc_wrk_result *r)
{
	return json_pack("{s:f, s:I, s:I, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I},"
			 " s:{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}, s:f, s:f}",
			 "duration_s", r->duration_s, "requests", (json_int_t)r->requests,
			 "bytes", (json_int_t)r->bytes, "requests_per_s", r->requests_per_s,
			 "bytes_per_s", r->bytes_per_s, "errors",
			 "connect", (json_int_t)r->err_connect, "read", (json_int_t)r->err_read,
			 "write", (json_int_t)r->err_write, "timeout", (json_int_t)r->err_timeout,
			 "status", (json_int_t)r->err_status, "latency_us",
			 "min", r->lat_min_us, "max", r->lat_max_us, "mean", r->lat_mean_us,
			 "stdev", r->lat_stdev_us, "p50", r->lat_p50_us, "p75", r->lat_p75_us,
			 "p90", r->lat_p90_us, "p99", r->lat_p99_us, "p99_9", r->lat_p999_us,
			 "printed_requests_per_s", r->printed_requests_per_s,
			 "printed_bytes_per_s", r->printed_bytes_per_s);
}
