// SPDX-License-Identifier: GPL-2.0
/*
 * proxy haproxy-splice: the system's HAProxy in the proxy's place, TCP mode,
 * option splice-request/splice-response, tune.pipesize = pipe_size, its
 * threads pinned to the DUT's CPUs (peers/role_peer.c starts and measures it;
 * bench/peers/haproxy.c writes its configuration). The same source and sink
 * as zcbench's proxies, every byte verified.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(haproxy_splice, .role = ZC_ROLE_PROXY, .flags = ZC_MODE_PEER | ZC_MODE_PEER_SPLICE,
	.uses = ZC_USES(chunk, pipe_size),
	.program = "haproxy",
	.summary = "HAProxy itself (TCP mode, option splice-request/-response, tune.pipesize = "
		   "pipe_size), pinned to the DUT's CPUs",
	.path = "HAProxy socket->pipe->socket",
	.vs = ZC_MODE_REF(haproxy_copy),
	.imitated_by = ZC_MODE_REF(splice),
	.unavailable = zc_peer_haproxy_splice_unavailable);
