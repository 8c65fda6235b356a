/* SPDX-License-Identifier: GPL-2.0 */
/* HAProxy as the proxy under test: its configuration, version and start. */
#ifndef ZC_PEERS_HAPROXY_H
#define ZC_PEERS_HAPROXY_H

#include "peers/peer.h"

#include <stdbool.h>
#include <stdint.h>

struct json_t;

struct zc_haproxy_cfg {
	const char *listen_addr;	/* where the source connects */
	int listen_port;
	const char *server_addr;	/* the sink */
	int server_port;
	bool splice;			/* splice-request/-response, else nosplice */
	/* HTTP mode (the sink is an HTTP server, nginx): mode http, keep-alive
	 * both sides, idle server connections reused by any client (http-reuse
	 * always), HTTP timeouts; HAProxy parses each request and response head
	 * and can splice only the bodies. Else mode tcp: bytes forwarded as they are. */
	bool http;
	/* With splice: option splice-auto (HAProxy splices when it guesses it
	 * pays) instead of forcing splice-request/-response. */
	bool splice_auto;
	int nbthread;			/* the DUT's workers */
	/* cpu-map: with nbthread <= the distinct CPUs, thread i runs on the
	 * i-th lowest of them alone; with more threads, each on all of them.
	 * The process starts confined to them in any case. */
	const int *cpus;
	int ncpus;			/* 0: no cpu-map, not confined */
	uint64_t pipe_size;		/* tune.pipesize; 0: the system's default */
	uint64_t bufsize;		/* tune.bufsize; 0: HAProxy's default (16k) */
	int connections;		/* the run's connections: maxconn, maxpipes */
	int timeout_s;			/* client/server idle timeouts; 0: 3600 */
};

/* What `haproxy -vv` says that a result needs. */
struct zc_haproxy_vv {
	char version[64];		/* "2.6.12-1+deb12u4" */
	bool splice;			/* +LINUX_SPLICE in the feature list */
	bool threads;			/* built with multi-threading support */
	char head[512];			/* the first lines, as printed */
};

/* The configuration text into out: 0, -EINVAL (bad parameters) or -ENOSPC. */
int zc_haproxy_config(const struct zc_haproxy_cfg *c, char *out, size_t len);
/* Parse `haproxy -vv` output: 0 or -EINVAL (no version line). */
int zc_haproxy_parse_vv(const char *text, struct zc_haproxy_vv *vv);
/* Run `haproxy -vv`: 0 or -errno with the reason in why (as availability). */
int zc_haproxy_vv(struct zc_haproxy_vv *vv, char *why, size_t len);
/* Usable here? 0, or -ENOENT ("haproxy not installed (apt-get install haproxy)"),
 * -EIO (-vv failed), -ENOTSUP (splice asked, built without it); why says it. */
int zc_haproxy_available(bool splice, char *why, size_t len);
/* {"path", "version", "splice", "threads", "vv_head"} or {"error"}: for the
 * results file. A new reference, NULL only when out of memory. */
struct json_t *zc_haproxy_info(void);
/* Write DIR/haproxy.cfg, start `haproxy -db -f` pinned to c->cpus (cpu-map
 * then pins each thread), wait until it listens and runs nbthread threads
 * (it listens first), all within listen_timeout_s. 0 or -errno, p->reason
 * says why; on failure nothing is left running. The text in cfg_out. */
int zc_haproxy_start(struct zc_peer *p, const struct zc_haproxy_cfg *c, const char *dir,
		     double listen_timeout_s, char *cfg_out, size_t cfg_len);

#endif
