/* SPDX-License-Identifier: GPL-2.0 */
/* Inside zcbench run: the controller's state, shared by run.c and sample.c. */
#ifndef ZC_CONTROLLER_H
#define ZC_CONTROLLER_H

#include "config/cfg.h"
#include "lib/cpu.h"
#include "transport/host.h"

#include <jansson.h>
#include <sched.h>

struct zc_ctl {
	struct zc_host host;
	const char *outdir;
	char path[1024];
	json_t *root;
	bool tty;
	const char *role_exec[ZC_ROLE_NR];	/* --exec-ROLE: a foreign program as the role */
	char quoted[8192];			/* the role command as one string (ssh) */
	cpu_set_t affinity;			/* the controller's own, restored at the end */
	bool affinity_ok;
};

/* One repetition: a new set of role processes and connections; the sample's
 * JSON (status, reason, the role reports, derived metrics). */
json_t *zc_run_sample(struct zc_ctl *c, const struct zc_cfg *cfg, int rep,
		      const struct zc_placement *pl);

#endif
