/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h2load (nghttp2-client) as the HTTP client (issue 23), speaking HTTP/1.1
 * (--h1): -c clients over -t threads, -m requests in flight per client
 * (1: one at a time, as wrk; more: HTTP/1.1 pipelining), for -D seconds
 * after --warm-up-time, or -n requests. Its summary is parsed from the text
 * it prints; h2load (1.52 in Debian 12) prints no latency percentiles, only
 * min, max, mean and sd of "time for request": use wrk for percentiles.
 *
 * Pinned like wrk: the whole process on the CPUs given. Its runs are
 * unverified (it discards the bodies).
 */
#ifndef ZC_PEERS_H2LOAD_H
#define ZC_PEERS_H2LOAD_H

#include "peers/peer.h"

#include <stdbool.h>
#include <stdint.h>

struct json_t;

#define ZC_H2LOAD_UNVERIFIED \
	"h2load discards the response bodies without checking them: no byte is verified"

struct zc_h2load_cfg {
	const char *url;		/* zc_peer_http_url() */
	int threads;			/* -t (1..clients) */
	int clients;			/* -c: connections */
	int max_streams;		/* -m: requests in flight per connection; 0: 1 */
	int seconds;			/* -D: measured seconds; 0: use requests */
	int warmup_s;			/* --warm-up-time (with seconds) */
	uint64_t requests;		/* -n (without seconds) */
	bool h2;			/* HTTP/2 (h2c upgrade-less, prior knowledge) instead of --h1 */
};

struct zc_h2load_result {
	double finished_s;		/* "finished in" */
	double requests_per_s;		/* as printed */
	double bytes_per_s;		/* as printed (units of 1024) */
	uint64_t total, started, done, succeeded, failed, errored, timeout;
	uint64_t status_2xx, status_3xx, status_4xx, status_5xx;
	uint64_t traffic_bytes, header_bytes, data_bytes; /* exact counts in () */
	/* "time for request", microseconds */
	double req_min_us, req_max_us, req_mean_us, req_sd_us;
	char application_protocol[32];	/* "http/1.1", "h2c" */
};

/* Usable here? 0, or -ENOENT ("h2load not installed (apt-get install
 * nghttp2-client)"), -EIO; why says it. */
int zc_h2load_available(char *why, size_t len);
/* {"path", "version"} or {"error"}; NULL only out of memory. */
struct json_t *zc_h2load_info(void);
/* The command line (strings in buf): 0, -EINVAL or -ENOSPC. */
int zc_h2load_argv(const struct zc_h2load_cfg *c, char *argv[], int max, char *buf, size_t len);
/* Start it pinned to cpus, stdout into DIR/h2load.out, stderr into
 * DIR/h2load.log; it exits by itself (zc_peer_wait_exit, then
 * zc_h2load_result). 0 or -errno; p->reason says why. */
int zc_h2load_start(struct zc_peer *p, const struct zc_h2load_cfg *c, const int *cpus,
		    int ncpus, const char *dir);
/* Parse its stdout: 0, -EINVAL (no summary) or -EPROTO (no request succeeded). */
int zc_h2load_parse(const char *out, struct zc_h2load_result *r);
/* Read and parse DIR/h2load.out: as zc_h2load_parse, or -errno. */
int zc_h2load_result(const char *dir, struct zc_h2load_result *r);
/* The result as JSON for a results file; NULL only out of memory. */
struct json_t *zc_h2load_result_json(const struct zc_h2load_result *r);

#endif
