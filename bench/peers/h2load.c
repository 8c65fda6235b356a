// SPDX-License-Identifier: GPL-2.0
/*
 * h2load as the HTTP client: its command line, and its printed summary
 * parsed ("finished in", "requests:", "status codes:", "traffic:",
 * "time for request:").
 */
#include "peers/h2load.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct zc_peer_prog h2load = { "h2load", "--version", "nghttp2-client", "h2load ", false };

int zc_h2load_available(char *why, size_t len)
{
	char out[1024];

	return zc_peer_version(&h2load, out, sizeof(out), why, len);
}

json_t *zc_h2load_info(void)
{
	char out[1024];

	/* "h2load nghttp2/1.52.0" */
	return zc_peer_version_info(&h2load, "h2load nghttp2/%63s", out, sizeof(out));
}

int zc_h2load_argv(const struct zc_h2load_cfg *c, char *argv[], int max, char *buf, size_t len)
{
	int n = 0, m = c->max_streams ? c->max_streams : 1;
	char *pos = buf;
	bool ok;

	if (!c->url || strncmp(c->url, "http://", 7) || c->threads < 1 || c->clients < c->threads ||
	    m < 1 || c->seconds < 0 || c->warmup_s < 0 || (!c->seconds && !c->requests) ||
	    (c->seconds && c->requests) || max < 20)
		return -EINVAL;
	argv[n++] = "h2load";
	if (!c->h2)
		argv[n++] = "--h1";
	ok = zc_text_arg(argv, &n, &pos, &len, "-t", "%llu", c->threads) &&
	     zc_text_arg(argv, &n, &pos, &len, "-c", "%llu", c->clients) &&
	     zc_text_arg(argv, &n, &pos, &len, "-m", "%llu", m);
	if (ok && c->seconds) {
		ok = zc_text_arg(argv, &n, &pos, &len, "-D", "%llu", c->seconds);
		if (ok && c->warmup_s)
			ok = zc_text_arg(argv, &n, &pos, &len, "--warm-up-time", "%llu", c->warmup_s);
	} else if (ok) {
		ok = zc_text_arg(argv, &n, &pos, &len, "-n", "%llu", c->requests);
	}
	if (!ok)
		return -ENOSPC;
	argv[n++] = (char *)c->url;
	argv[n] = NULL;
	return 0;
}

int zc_h2load_start(struct zc_peer *p, const struct zc_h2load_cfg *c, const int *cpus,
		    int ncpus, const char *dir)
{
	char *argv[24], nums[128], out[PATH_MAX];
	struct zc_peer_spec spec = { .name = "h2load", .argv = argv, .cpus = cpus, .ncpus = ncpus,
				     .dir = dir, .stdout_path = out };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "h2load");
	if (snprintf(out, sizeof(out), "%s/h2load.out", dir) >= (int)sizeof(out)) {
		snprintf(p->reason, sizeof(p->reason), "h2load: folder name too long");
		return -ENAMETOOLONG;
	}
	ret = zc_h2load_argv(c, argv, ZC_ARRAY_SIZE(argv), nums, sizeof(nums));
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "h2load: bad parameters");
		return ret;
	}
	return zc_peer_start(p, &spec);
}

/* The line that starts with key (at a line's start), after the key; NULL if none. */
static const char *line_after(const char *out, const char *key)
{
	size_t k = strlen(key);

	for (const char *s = out; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (!strncmp(s, key, k))
			return s + k;
	return NULL;
}

/* "time for request:  38us  42.94ms  166us  481us  97.17%": 0 or -EINVAL. */
static int parse_times(const char *s, double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (zc_peer_parse_time_us(s, &v[i], &s))
			return -EINVAL;
	return 0;
}

int zc_h2load_parse(const char *out, struct zc_h2load_result *r)
{
	const char *s;
	double t[4];

	memset(r, 0, sizeof(*r));
	/* "finished in 1.00s, 23965.00 req/s, 1.47GB/s" */
	if (!(s = line_after(out, "finished in ")) || zc_peer_parse_time_us(s, &r->finished_s, &s) ||
	    sscanf(s, ", %lf req/s,", &r->requests_per_s) != 1 || !(s = strstr(s, "req/s,")) ||
	    zc_peer_parse_bytes(s + strlen("req/s,"), &r->bytes_per_s, NULL))
		return -EINVAL;
	r->finished_s /= 1e6;
	if (!(s = line_after(out, "requests: ")) ||
	    sscanf(s, "%" SCNu64 " total, %" SCNu64 " started, %" SCNu64 " done, %" SCNu64
		      " succeeded, %" SCNu64 " failed, %" SCNu64 " errored, %" SCNu64 " timeout",
		   &r->total, &r->started, &r->done, &r->succeeded, &r->failed, &r->errored,
		   &r->timeout) != 7)
		return -EINVAL;
	if ((s = line_after(out, "status codes: ")))
		sscanf(s, "%" SCNu64 " 2xx, %" SCNu64 " 3xx, %" SCNu64 " 4xx, %" SCNu64 " 5xx",
		       &r->status_2xx, &r->status_3xx, &r->status_4xx, &r->status_5xx);
	/* "traffic: 1.47GB (1576794728) total, 4.71MB (4937614) headers (space
	 * savings 0.00%), 1.46GB (1570832384) data": the exact counts. */
	if ((s = line_after(out, "traffic: ")) && (s = strchr(s, '(')))
		sscanf(s, "(%" SCNu64 ") total", &r->traffic_bytes);
	if (s && (s = strstr(s, "total,")) && (s = strchr(s, '(')))
		sscanf(s, "(%" SCNu64 ") headers", &r->header_bytes);
	if (s && (s = strstr(s, "),")) && (s = strchr(s + 2, '(')))
		sscanf(s, "(%" SCNu64 ") data", &r->data_bytes);
	if ((s = line_after(out, "time for request:")) && !parse_times(s, t, 4)) {
		r->req_min_us = t[0];
		r->req_max_us = t[1];
		r->req_mean_us = t[2];
		r->req_sd_us = t[3];
	}
	if ((s = line_after(out, "Application protocol: ")))
		sscanf(s, "%31s", r->application_protocol);
	return r->succeeded ? 0 : -EPROTO;
}

int zc_h2load_result(const char *dir, struct zc_h2load_result *r)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(path, sizeof(path), "%s/h2load.out", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	text = zc_read_file(path, 4 << 20, &len);
	if (!text)
		return -errno;
	ret = zc_h2load_parse(text, r);
	free(text);
	return ret;
}

json_t *zc_h2load_result_json(const struct zc_h2load_result *r)
{
	return json_pack("{s:f, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I},"
			      " s:{s:I, s:I, s:I, s:I}, s:{s:I, s:I, s:I},"
			      " s:{s:f, s:f, s:f, s:f}, s:s}",
			      "finished_s", r->finished_s, "requests_per_s", r->requests_per_s,
			      "bytes_per_s", r->bytes_per_s, "requests",
			      "total", (json_int_t)r->total, "started", (json_int_t)r->started,
			      "done", (json_int_t)r->done, "succeeded", (json_int_t)r->succeeded,
			      "failed", (json_int_t)r->failed, "errored", (json_int_t)r->errored,
			      "timeout", (json_int_t)r->timeout, "status",
			      "2xx", (json_int_t)r->status_2xx, "3xx", (json_int_t)r->status_3xx,
			      "4xx", (json_int_t)r->status_4xx, "5xx", (json_int_t)r->status_5xx,
			      "traffic_bytes", "total", (json_int_t)r->traffic_bytes,
			      "headers", (json_int_t)r->header_bytes, "data", (json_int_t)r->data_bytes,
			      "time_for_request_us", "min", r->req_min_us, "max", r->req_max_us,
			      "mean", r->req_mean_us, "sd", r->req_sd_us,
			      "application_protocol", r->application_protocol);
}
