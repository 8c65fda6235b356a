/* SPDX-License-Identifier: GPL-2.0 */
/* A role whose work a real program does (role_peer.c). */
#ifndef ZC_ROLE_PEER_H
#define ZC_ROLE_PEER_H

#include "modes/mode.h"
#include "wire/wire.h"

#include <jansson.h>

/* The peer mode this role runs: m itself when it is one, the source's iperf3
 * for the sink (iperf3's server takes its place), else NULL. */
const struct zc_mode *zc_role_peer_mode(const struct zc_role_args *ra, const struct zc_mode *m);
/* The whole role with m's program in its place, on cpus[0..nw): READY, GO,
 * edges, stop and reap, its report (out, filled and printed). The exit code. */
int zc_role_peer_main(struct zc_role_args *ra, const struct zc_mode *m, const int *cpus, int nw,
		      json_t *out);

/* peer_run.c, the controller: the run's "peer" (programs by role) and, for
 * a mode no sink can check, "verified": false with "unverified". */
void zc_run_peer_json(json_t *run, const struct zc_cfg *cfg);

#endif
