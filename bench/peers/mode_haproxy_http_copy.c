// SPDX-License-Identifier: GPL-2.0
/*
 * proxy haproxy-http-copy: the system's HAProxy in the proxy's place in HTTP
 * mode (mode http: it parses every request and response head, keeps both
 * sides alive, reuses idle server connections), nosplice: bodies through its
 * buffers with recv()/send() (tune.bufsize = chunk). Request/response runs
 * only (traffic = rr): zcbench's client and server speak HTTP/1.1 to it and
 * the client checks every body byte. peers/role_peer.c starts and measures it.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(haproxy_http_copy, .role = ZC_ROLE_PROXY, .flags = ZC_MODE_PEER | ZC_MODE_HTTP,
	.uses = ZC_USES(chunk),
	.program = "haproxy",
	.summary = "HAProxy itself in HTTP mode (heads parsed, keep-alive, http-reuse always; "
		   "nosplice: bodies through its buffers, tune.bufsize = chunk), pinned to the "
		   "DUT's CPUs; traffic = rr only",
	.path = "HAProxy HTTP recv+send",
	.unavailable = zc_peer_haproxy_unavailable);
