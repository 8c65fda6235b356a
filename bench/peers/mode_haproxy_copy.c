// SPDX-License-Identifier: GPL-2.0
/*
 * proxy haproxy-copy: the system's HAProxy in the proxy's place, TCP mode,
 * nosplice (recv()/send() through its buffers, tune.bufsize = chunk), its
 * threads pinned to the DUT's CPUs (peers/role_peer.c starts and measures it).
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(haproxy_copy, .role = ZC_ROLE_PROXY, .flags = ZC_MODE_PEER, .program = "haproxy",
	.uses = ZC_USES(chunk),
	.summary = "HAProxy itself (TCP mode, nosplice: recv()/send() through its buffers, "
		   "tune.bufsize = chunk), pinned to the DUT's CPUs",
	.path = "HAProxy recv+send",
	.imitated_by = ZC_MODE_REF(copy),
	.unavailable = zc_peer_haproxy_unavailable);
