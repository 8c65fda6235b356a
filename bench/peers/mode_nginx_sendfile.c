// SPDX-License-Identifier: GPL-2.0
/*
 * sink nginx-sendfile: nginx as the server of request/response runs
 * (traffic = rr), `sendfile on` (tcp_nopush, sendfile_max_chunk = chunk):
 * each body goes from its file to the socket in the kernel. Its workers are
 * pinned to the sink's CPUs (peers/rr_peer.c starts and measures them); with
 * dut = server it is the device under test. zcbench's client checks every
 * body byte against the pattern the objects were written with.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(nginx_sendfile, .role = ZC_ROLE_SINK, .flags = ZC_MODE_PEER | ZC_MODE_HTTP,
	.uses = ZC_USES(chunk),
	.program = "nginx",
	.summary = "nginx as the request/response server (traffic = rr only), sendfile on: "
		   "bodies from their files by sendfile() of at most chunk bytes",
	.path = "nginx sendfile()",
	.vs = ZC_MODE_REF(nginx_copy),
	.unavailable = zc_peer_nginx_unavailable);
