/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/NAME.ini: a [workload] section of defaults (and name, description),
 * then one [run NAME] section per run; list-valued keys (chunk, pipe_size)
 * expand each run into one per combination. Command-line flags override
 * every run's keys.
 */
#ifndef ZC_WORKLOAD_H
#define ZC_WORKLOAD_H

#include "config/cfg.h"

struct zc_kv {
	char key[64];
	char value[512];
	int line;		/* 0: command line */
};

#define ZC_KV_MAX 64
#define ZC_RUNS_MAX 128

struct zc_section {
	char name[ZC_NAME_MAX];
	int line;
	struct zc_kv kv[ZC_KV_MAX];
	int nkv;
};

struct zc_workload {
	char path[512];
	char name[ZC_NAME_MAX];
	char description[256];
	struct zc_section global;
	struct zc_section sec[ZC_RUNS_MAX];
	int nsec;
	/* expanded */
	struct zc_cfg runs[ZC_RUNS_MAX];
	int nruns;
};

/*
 * Parse path and expand it with the overrides (kv from the command line).
 * 0, or -EINVAL with "file:line: key 'k': why" in err.
 */
int zc_workload_load(const char *path, const struct zc_section *overrides,
		     struct zc_workload *w, char *err, size_t errlen);
/* Add "--key=value" to overrides: 0 or -EINVAL with a message. */
int zc_override_add(struct zc_section *ov, const char *key, const char *value,
		    char *err, size_t errlen);

#endif
