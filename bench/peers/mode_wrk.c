// SPDX-License-Identifier: GPL-2.0
/*
 * source wrk: wrk as the client of request/response runs (traffic = rr),
 * closed loop on keep-alive connections, one object size, pinned to the
 * source's CPUs (peers/rr_peer_client.c). It reads the bodies without
 * checking them: its runs are unverified. Its own latency percentiles
 * (HdrHistogram) fill the lat_* figures.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(wrk, .role = ZC_ROLE_SOURCE, .flags = ZC_MODE_PEER | ZC_MODE_HTTP | ZC_MODE_UNVERIFIED,
	.uses = ZC_USES(),
	.program = "wrk",
	.summary = "wrk as the request/response client (traffic = rr only): closed loop, "
		   "keep-alive, one request at a time per connection",
	.path = "wrk",
	.unverified_why = "wrk reads the response bodies without checking them: no byte is "
			  "verified",
	.unavailable = zc_peer_wrk_unavailable);
