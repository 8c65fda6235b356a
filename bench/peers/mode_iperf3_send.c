// SPDX-License-Identifier: GPL-2.0
/*
 * source iperf3-send: the iperf3 client as the device under test, pinned to
 * the DUT's CPU, send() of -l chunk bytes, against an iperf3 server in the
 * sink's place (peers/role_peer.c). iperf3 sends its own payload: unverified.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(iperf3_send, .role = ZC_ROLE_SOURCE, .flags = ZC_MODE_PEER | ZC_MODE_UNVERIFIED,
	.uses = ZC_USES(chunk),
	.program = "iperf3",
	.summary = "iperf3's client (send() of chunk bytes, -P connections) to iperf3 -s in the "
		   "sink's place",
	.path = "iperf3 send()",
	.imitated_by = ZC_MODE_REF(send),
	.unverified_why = ZC_IPERF3_UNVERIFIED_WHY,
	.unavailable = zc_peer_iperf3_unavailable);
