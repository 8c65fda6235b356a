/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hosts/NAME.ini: where the roles run. A transport is an ops struct (local
 * exec today; netns, ssh and guests plug in the same way): it prepares the
 * place, gives the argv prefix that starts a role there, and undoes it all.
 */
#ifndef ZC_HOST_H
#define ZC_HOST_H

#include "zcbench.h"

#include <jansson.h>

struct zc_host;

struct zc_transport {
	const char *name;
	int (*setup)(struct zc_host *h, char *err, size_t errlen);	/* 0 or -errno */
	/* Write the argv prefix that runs a command for role r; count or -E2BIG. */
	int (*prefix)(const struct zc_host *h, int role, char **argv, int max);
	void (*teardown)(struct zc_host *h);
};

struct zc_host {
	char path[512];
	char name[64];
	const struct zc_transport *transport;
	char address[ZC_ROLE_NR][128];	/* address each role listens on / is reached at */
	int cpu[ZC_ROLE_NR];		/* -1: chosen by placement */
	char exe[ZC_ROLE_NR][512];	/* zcbench binary for each role */
	void *priv;
};

/* 0, or -EINVAL with "file:line: key 'k': why". NULL path: built-in loopback. */
int zc_host_load(const char *path, struct zc_host *h, char *err, size_t errlen);
json_t *zc_host_json(const struct zc_host *h);

#endif
