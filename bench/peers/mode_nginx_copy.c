// SPDX-License-Identifier: GPL-2.0
/*
 * sink nginx-copy: nginx as the server of request/response runs
 * (traffic = rr), `sendfile off`: each body is read from its file into
 * nginx's output buffers (output_buffers 2 chunk) and written from there,
 * the copy that nginx-sendfile saves (peers/rr_peer.c).
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(nginx_copy, .role = ZC_ROLE_SINK, .flags = ZC_MODE_PEER | ZC_MODE_HTTP,
	.uses = ZC_USES(chunk),
	.program = "nginx",
	.summary = "nginx as the request/response server (traffic = rr only), sendfile off: "
		   "bodies read into its buffers of chunk bytes and written from there",
	.path = "nginx read+write",
	.unavailable = zc_peer_nginx_unavailable);
