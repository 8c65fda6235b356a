// SPDX-License-Identifier: GPL-2.0
/*
 * proxy haproxy-splice: the system's HAProxy in the proxy's place, TCP mode,
 * option splice-request/splice-response, tune.pipesize = pipe_size, its
 * threads pinned to the DUT's CPUs (run/role_peer.c starts and measures it;
 * bench/peers/haproxy.c writes its configuration). The same source and sink
 * as zcbench's proxies, every byte verified.
 */
#include "modes/mode.h"
#include "modes/peer_program.h"

static const char *haproxy_splice_unavailable(void)
{
	static char why[256];
	static const char *cached;
	static bool done;

	if (!done)
		cached = zc_peer_program_why("haproxy", "-vv", "+LINUX_SPLICE", "splice", why,
					     sizeof(why));
	done = true;
	return cached;
}

ZC_MODE(haproxy_splice, .role = ZC_ROLE_PROXY, .flags = ZC_MODE_PEER, .program = "haproxy",
	.summary = "HAProxy itself (TCP mode, option splice-request/-response, tune.pipesize = "
		   "pipe_size), pinned to the DUT's CPUs",
	.path = "HAProxy socket->pipe->socket",
	.vs = ZC_MODE_REF(haproxy_copy),
	.imitated_by = ZC_MODE_REF(splice),
	.unavailable = haproxy_splice_unavailable);
