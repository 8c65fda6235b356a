/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wrk as the HTTP/1.1 client (issue 23): closed loop, keep-alive, GET of
 * one URL on every connection. Its figures are its own: a Lua script (-s,
 * written by zc_wrk_start) prints, at done(), one JSON line with the
 * duration, requests, bytes, errors and the latency percentiles from wrk's
 * own HdrHistogram (latency:percentile()); zc_wrk_parse reads that line and
 * wrk's printed Requests/sec and Transfer/sec beside it.
 *
 * wrk has no affinity flag: the whole process (its -t threads and the
 * main thread) is pinned to the CPUs given, not one thread per CPU.
 * wrk2 (open loop, -R rate) is not packaged in Debian: not offered.
 * wrk sends its own request ("GET /N HTTP/1.1", "Host: ADDR:PORT") and
 * reads the body without checking it: its runs are unverified.
 */
#ifndef ZC_PEERS_WRK_H
#define ZC_PEERS_WRK_H

#include "peers/peer.h"

#include <stdbool.h>
#include <stdint.h>

struct json_t;

#define ZC_WRK_UNVERIFIED \
	"wrk reads the response bodies without checking them: no byte is verified"

struct zc_wrk_cfg {
	const char *url;		/* zc_peer_http_url() */
	int threads;			/* -t: event loops (1..connections) */
	int connections;		/* -c: keep-alive connections, spread over the threads */
	int seconds;			/* -d: wrk takes whole seconds */
	int timeout_s;			/* --timeout: a request slower than this is an error; 0: wrk's 2 s */
	bool latency;			/* --latency: its printed distribution too */
	const char *script;		/* -s: the Lua script's path (zc_wrk_start writes it) */
};

struct zc_wrk_result {
	double duration_s;		/* from its first connect to its stop */
	uint64_t requests;		/* completed */
	uint64_t bytes;			/* read, heads included */
	double requests_per_s, bytes_per_s; /* the two above over duration_s */
	/* errors: socket connect/read/write, timeouts (no response within
	 * --timeout), responses with a status >= 400 (wrk's "Non-2xx or 3xx") */
	uint64_t err_connect, err_read, err_write, err_timeout, err_status;
	/* latency of a request, microseconds (HdrHistogram) */
	double lat_min_us, lat_max_us, lat_mean_us, lat_stdev_us;
	double lat_p50_us, lat_p75_us, lat_p90_us, lat_p99_us, lat_p999_us;
	/* wrk's own printed "Requests/sec:" and "Transfer/sec:" (units of 1024) */
	double printed_requests_per_s, printed_bytes_per_s;
};

/* The Lua script zc_wrk_start writes (for a results file). */
const char *zc_wrk_script(void);
/* Usable here? 0, or -ENOENT ("wrk not installed (apt-get install wrk)"),
 * -EIO (-v printed no version); why says it. */
int zc_wrk_available(char *why, size_t len);
/* {"path", "version"} or {"error"}; NULL only out of memory. */
struct json_t *zc_wrk_info(void);
/* The command line (strings in buf): 0, -EINVAL or -ENOSPC. */
int zc_wrk_argv(const struct zc_wrk_cfg *c, char *argv[], int max, char *buf, size_t len);
/* Write DIR/zcbench-wrk.lua, start wrk with it (c->script is set here)
 * pinned to cpus, stdout into DIR/wrk.out, stderr into DIR/wrk.log. It
 * exits by itself after c->seconds: zc_peer_wait_exit, then
 * zc_wrk_result. 0 or -errno; p->reason says why. */
int zc_wrk_start(struct zc_peer *p, const struct zc_wrk_cfg *c, const int *cpus, int ncpus,
		 const char *dir);
/* Parse wrk's stdout: 0, -EINVAL (no line of the script's JSON) or
 * -EPROTO (nothing completed: every request failed or none was made). */
int zc_wrk_parse(const char *out, struct zc_wrk_result *r);
/* Read and parse DIR/wrk.out: as zc_wrk_parse, or -errno. */
int zc_wrk_result(const char *dir, struct zc_wrk_result *r);
/* The result as JSON for a results file; NULL only out of memory. */
struct json_t *zc_wrk_result_json(const struct zc_wrk_result *r);

#endif
