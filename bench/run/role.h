/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_ROLE_H
#define ZC_ROLE_H

#include "config/cfg.h"

struct zc_role_args {
	int role;
	int cpu;
	char listen[128];
	char connect[128];
	int port;
	struct zc_cfg cfg;
};

int zc_role_main(int argc, char **argv); /* argv[1] is the role's name */

#endif
