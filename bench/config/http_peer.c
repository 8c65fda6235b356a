// SPDX-License-Identifier: GPL-2.0
/* HTTP programs (ZC_MODE_HTTP: nginx, wrk, h2load) against the run (cfg.h). */
#include "config/cfg.h"
#include "modes/mode.h"

#include <errno.h>
#include <stdio.h>

#define REFUSE(key, ...) do {						\
		int n_ = snprintf(err, errlen, "key '%s': ", key);	\
		if (n_ > 0 && (size_t)n_ < errlen)			\
			snprintf(err + n_, errlen - n_, __VA_ARGS__);	\
		*badkey = key;						\
		return -EINVAL;						\
	} while (0)

/* The HTTP program in the run's path (the proxy only with topology = proxy), or NULL. */
static const struct zc_mode *http_program(const struct zc_cfg *cfg)
{
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

		if (m && (m->flags & ZC_MODE_HTTP) && (r != ZC_ROLE_PROXY ||
						       cfg->topology == ZC_TOPO_PROXY))
			return m;
	}
	return NULL;
}

int zc_cfg_rr_check(const struct zc_cfg *cfg)
{
	if (cfg->rr_check != ZC_RR_CHECK_AUTO)
		return cfg->rr_check;
	return http_program(cfg) ? ZC_RR_CHECK_HTTP : ZC_RR_CHECK_EXACT;
}

int zc_cfg_http_check(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey)
{
	const struct zc_mode *src = zc_mode_find(ZC_ROLE_SOURCE, cfg->mode[ZC_ROLE_SOURCE]);
	const struct zc_mode *snk = zc_mode_find(ZC_ROLE_SINK, cfg->mode[ZC_ROLE_SINK]);
	bool src_http = src && (src->flags & ZC_MODE_HTTP), snk_http = snk && (snk->flags & ZC_MODE_HTTP);

	if (cfg->traffic != ZC_TRAFFIC_RR && (src_http || snk_http))
		REFUSE(src_http ? "source" : "sink", "%s is an HTTP program: only request/response "
		       "runs take it (set traffic = rr)", src_http ? src->name : snk->name);
	if (cfg->traffic == ZC_TRAFFIC_RR && cfg->rr_check == ZC_RR_CHECK_EXACT && http_program(cfg))
		REFUSE("rr_check", "exact holds every head to the bytes zcbench's client and server "
		       "write, and %s writes or rewrites its own (set http, or auto)",
		       http_program(cfg)->name);
	if (!src_http || cfg->traffic != ZC_TRAFFIC_RR)
		return 0;
	/* The client programs: closed loop, keep-alive, one URL, their own requests. */
	if (cfg->churn)
		REFUSE("churn", "source %s keeps its connections open (it has no new connection "
		       "per request)", src->name);
	if (cfg->rate_rps > 0)
		REFUSE("rate", "source %s runs a closed loop (wrk2's open loop is not packaged)",
		       src->name);
	if (cfg->inflight > 1)
		REFUSE("inflight", "source %s sends one request at a time per connection",
		       src->name);
	if (cfg->object_sizes_file[0])
		REFUSE("object_sizes_file", "source %s asks for one URL, one object size",
		       src->name);
	if (cfg->request_size)
		REFUSE("request_size", "source %s writes its own requests", src->name);
	return 0;
}
