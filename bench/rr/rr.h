/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RR_H
#define ZC_RR_H

#include "modes/mode.h"
#include "wire/wire.h"

#include <jansson.h>

/*
 * A role of a request/response run (traffic = rr): the source as the
 * client, the sink as the server, the proxy forwarding both ways with its
 * mode m; cpus[0..nw) its workers' CPUs. Speaks the role protocol (READY,
 * GO, one JSON report into out, printed) and returns the exit code.
 */
int zc_rr_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
	       json_t *out);

/*
 * rr_peer.c: an HTTP program (a ZC_MODE_HTTP mode m: nginx as the server)
 * in the role's place, measured as a zcbench role of the run would be:
 * the same protocol, edges and report shape. The exit code.
 */
int zc_rr_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		    json_t *out);

#endif
