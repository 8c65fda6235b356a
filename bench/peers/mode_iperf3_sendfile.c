// SPDX-License-Identifier: GPL-2.0
/*
 * source iperf3-sendfile: iperf3 -Z (sendfile() from its own file) as the
 * device under test, against an iperf3 server in the sink's place
 * (peers/role_peer.c). Unverified, like iperf3-send.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(iperf3_sendfile, .role = ZC_ROLE_SOURCE, .flags = ZC_MODE_PEER | ZC_MODE_UNVERIFIED,
	.uses = ZC_USES(chunk),
	.program = "iperf3",
	.summary = "iperf3 -Z: its client's sendfile() of chunk bytes to iperf3 -s in the sink's "
		   "place",
	.path = "iperf3 -Z sendfile()",
	.vs = ZC_MODE_REF(iperf3_send),
	.imitated_by = ZC_MODE_REF(sendfile),
	.unverified_why = ZC_IPERF3_UNVERIFIED_WHY,
	.unavailable = zc_peer_iperf3_sendfile_unavailable);
