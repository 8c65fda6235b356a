/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_H
#define ZC_RUN_H

#include "config/workload.h"
#include "lib/zcbench.h"

/* zcbench run's own options (its table in run.c); workload keys given as
 * flags go into the overrides section. */
struct zc_run_args {
	const char *workload;
	const char *host;
	const char *out;
	const char *only[32];
	int nonly;
	const char *exec[ZC_ROLE_NR];	/* --exec-ROLE: a foreign program as the role */
};

int zc_cmd_run(int argc, char **argv);
/* run's argv (argv[0]: "run"), as kernel-ab checks what it passes on: 0,
 * ZC_OPT_HELP (help printed), or -EINVAL with "command line: ..." in err. */
int zc_run_parse(int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		 char *err, size_t errlen);

#endif
