/* SPDX-License-Identifier: GPL-2.0 */
/* iperf3: the client as the device under test (send or sendfile -Z), the
 * server in the sink's place; its JSON report parsed. */
#ifndef ZC_PEERS_IPERF3_H
#define ZC_PEERS_IPERF3_H

#include "peers/peer.h"

#include <stdbool.h>
#include <stdint.h>

struct json_t;

/* What a results file says instead of a verified byte count. */
#define ZC_IPERF3_UNVERIFIED \
	"iperf3 sends its own payload, not zcbench's pattern: no sink can check its bytes"

struct zc_iperf3_client_cfg {
	const char *addr;		/* the iperf3 server */
	int port;
	int seconds;			/* -t: measured seconds (iperf3 takes whole seconds) */
	int omit_s;			/* -O: warm-up seconds left out of its figures */
	uint64_t chunk;			/* -l: bytes per send()/sendfile() */
	bool sendfile;			/* -Z */
	int streams;			/* -P; 0 or 1: one connection */
};

/* iperf3 -J's end figures. */
struct zc_iperf3_result {
	uint64_t bytes_sent, bytes_received;
	double seconds_sent, seconds_received;
	/* end.cpu_utilization_percent: iperf3's own getrusage over its test */
	double host_total_pct, host_user_pct, host_system_pct, remote_total_pct;
	uint64_t blksize;
	int num_streams, omit_s, duration_s;
	char version[64];
	char error[256];		/* "error" of a failed test */
};

/* Usable here? 0, or -ENOENT ("iperf3 not installed (apt-get install iperf3)"),
 * -EIO (--version failed), -ENOTSUP (sendfile asked, built without it). */
int zc_iperf3_available(bool sendfile, char *why, size_t len);
/* {"path", "version", "sendfile"} or {"error"}; NULL only out of memory. */
struct json_t *zc_iperf3_info(void);
/* The client's argv (strings in buf): 0, -EINVAL or -ENOSPC. */
int zc_iperf3_client_argv(const struct zc_iperf3_client_cfg *c, char *argv[], int max,
			  char *buf, size_t len);
/* `iperf3 -s -1 -p PORT -B ADDR` pinned to cpus, waited until it listens:
 * one test, then it exits by itself. 0 or -errno; p->reason says why. */
int zc_iperf3_start_server(struct zc_peer *p, const char *addr, int port, const int *cpus,
			   int ncpus, const char *dir, double listen_timeout_s);
/* The client pinned to cpus, its JSON into DIR/iperf3-client.json (stderr in
 * DIR/iperf3-client.log). 0 or -errno. */
int zc_iperf3_start_client(struct zc_peer *p, const struct zc_iperf3_client_cfg *c,
			   const int *cpus, int ncpus, const char *dir);
/* Parse iperf3 -J output: 0, -EINVAL (not its JSON) or -EPROTO (the test
 * failed: r->error says why). */
int zc_iperf3_parse(const char *json, struct zc_iperf3_result *r);
/* Read and parse DIR/iperf3-client.json: as zc_iperf3_parse, or -errno. */
int zc_iperf3_client_result(const char *dir, struct zc_iperf3_result *r);

#endif
