// SPDX-License-Identifier: GPL-2.0
/* The controller's side of peer modes: what a run says about its peers. */
#include "peers/role_peer.h"

/*
 * "peer": the programs of the run's peer modes by role ({"proxy": "haproxy"}),
 * so every reader can mark the run; a mode whose bytes no sink can check
 * (iperf3) makes the run "verified": false with "unverified" saying why.
 */
void zc_run_peer_json(json_t *run, const struct zc_cfg *cfg)
{
	json_t *peer = json_object();

	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

		if (!m || (r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT))
			continue;
		if (m->flags & ZC_MODE_PEER)
			json_object_set_new(peer, zc_role_names[r], json_string(m->program));
		if (m->flags & ZC_MODE_UNVERIFIED) {
			json_object_set_new(run, "verified", json_false());
			json_object_set_new(run, "unverified", json_string(m->unverified_why));
		}
	}
	if (json_object_size(peer))
		json_object_set_new(run, "peer", peer);
	else
		json_decref(peer);
}
