// SPDX-License-Identifier: GPL-2.0
/*
 * source h2load: h2load --h1 (nghttp2-client) as the client of
 * request/response runs (traffic = rr), closed loop on keep-alive
 * connections, one object size, pinned to the source's CPUs
 * (peers/rr_peer_client.c). It discards the bodies (unverified) and prints no
 * latency percentiles: its lat_* figures are absent.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(h2load, .role = ZC_ROLE_SOURCE, .flags = ZC_MODE_PEER | ZC_MODE_HTTP | ZC_MODE_UNVERIFIED,
	.uses = ZC_USES(),
	.program = "h2load",
	.summary = "h2load --h1 as the request/response client (traffic = rr only): closed loop, "
		   "keep-alive, one request at a time per connection; no latency percentiles",
	.path = "h2load --h1",
	.unverified_why = "h2load discards the response bodies without checking them: no byte "
			  "is verified",
	.unavailable = zc_peer_h2load_unavailable);
