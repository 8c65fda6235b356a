// SPDX-License-Identifier: GPL-2.0
/*
 * A run's key: what tells it from another run in a results file (compare
 * matches on it, the headline pairs by it). Its sizes are those the device
 * under test's mode passes on (modes/mode.h, uses): a chunk the splice
 * proxy never asks for is no part of a splice run's key, and a sweep over
 * it runs once (zc_cfg_expand).
 */
#include "config/cfg.h"
#include "modes/mode.h"

#include <jansson.h>

int zc_cfg_dut(const struct zc_cfg *cfg)
{
	if (cfg->topology == ZC_TOPO_DIRECT && cfg->traffic == ZC_TRAFFIC_RR)
		return cfg->rr_dut == ZC_RR_DUT_SERVER ? ZC_ROLE_SINK : ZC_ROLE_SOURCE;
	return cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
}

unsigned zc_cfg_uses(const struct zc_cfg *cfg)
{
	int dut = zc_cfg_dut(cfg);
	unsigned uses = zc_mode_uses(zc_mode_find(dut, cfg->mode[dut]), cfg->mode_opts);

	if (cfg->alternate[0])
		uses |= zc_mode_uses(zc_mode_find(dut, cfg->alternate), cfg->mode_opts);
	return uses;
}

json_t *zc_cfg_key_json(const struct zc_cfg *cfg)
{
	static const char *const sizes[] = ZC_USE_KEYS;
	unsigned uses = zc_cfg_uses(cfg);
	json_t *k = json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I}", "topology", zc_topo_names[cfg->topology],
			 "source", cfg->mode[ZC_ROLE_SOURCE],
			 "proxy", cfg->topology == ZC_TOPO_PROXY ? cfg->mode[ZC_ROLE_PROXY] : "",
			 "sink", cfg->mode[ZC_ROLE_SINK], "chunk", (json_int_t)cfg->chunk,
			 "pipe_size", (json_int_t)cfg->pipe_size, "connections",
			 (json_int_t)cfg->connections, "workers", (json_int_t)cfg->workers);

	/* A size the DUT does not pass on is no part of its run's key. */
	for (size_t i = 0; i < ZC_ARRAY_SIZE(sizes); i++)
		if (!(uses & (1u << i)))
			json_object_del(k, sizes[i]);
	/* request/response: what tells two rr runs apart (stream keys unchanged) */
	if (cfg->traffic == ZC_TRAFFIC_RR)
		json_object_update_new(k, json_pack("{s:s,s:I,s:s,s:b,s:I,s:f,s:I}", "traffic", "rr",
				       "object_size", (json_int_t)cfg->object_size,
				       "object_sizes_file", cfg->object_sizes_file, "churn",
				       cfg->churn, "inflight", (json_int_t)cfg->inflight, "rate",
				       cfg->rate_rps, "pipe_pool", (json_int_t)cfg->pipe_pool));
	return k;
}
