// SPDX-License-Identifier: GPL-2.0
/*
 * The files a workload names, read and checked while it is validated: a bad
 * one is refused (exit 2, file:line and key) before any role starts, not by
 * the role that would read it mid-run. Today: object_sizes_file.
 */
#include "config/cfg.h"
#include "lib/http.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int zc_cfg_files_check(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey)
{
	uint64_t *sizes = NULL;
	size_t n = 0;
	char why[400];
	int ret;

	/* Stream runs never read it (zc_cfg_conflicts refuses it there). */
	if (cfg->traffic != ZC_TRAFFIC_RR || !cfg->object_sizes_file[0])
		return 0;
	/* The bound the roles read it with (rr/rr.c, peers/rr_peer.c). */
	ret = zc_sizes_file_read(cfg->object_sizes_file, ZC_OBJECT_SIZE_MAX, &sizes, &n, why,
				 sizeof(why));
	free(sizes);
	if (!ret)
		return 0;
	snprintf(err, errlen, "key 'object_sizes_file': %s", why);
	*badkey = "object_sizes_file";
	return ret;
}
