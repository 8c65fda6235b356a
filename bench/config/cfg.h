/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One table of run options. Workload keys, command-line flags, the values
 * written into every results file and `zcbench help keys` all come from
 * zc_opts[] (see cfg.c), so a key is declared once with type, default,
 * bounds and help.
 */
#ifndef ZC_CFG_H
#define ZC_CFG_H

#include "lib/zcbench.h"

#define ZC_LIST_MAX 16
#define ZC_NAME_MAX 64
#define ZC_MODE_NAME_MAX 32

struct zc_cfg {
	char name[ZC_NAME_MAX];		/* run section name */
	int topology;			/* enum zc_topology */
	char mode[ZC_ROLE_NR][ZC_MODE_NAME_MAX];
	uint64_t chunk;			/* bytes per call */
	uint64_t pipe_size;		/* F_SETPIPE_SZ for pipe-based modes */
	uint64_t period;		/* pattern period (modes with a static chunk use chunk) */
	double warmup_s, duration_s, tail_s, timeout_s;
	long repetitions;
	long seed, sink_seed;		/* sink_seed < 0: same as seed */
	char file_dir[256];		/* where sendfile/splice-file keep their file */
	char counters[8];		/* none|perf|bpf|all (counters.h) */
	char counters_roles[8];		/* dut|all: which roles load the BPF programs */
	char mode_opts[256];		/* modes' own options: KEY=VALUE,... (modes/options.c) */
	/* list-valued keys, expanded into one run per combination */
	uint64_t chunks[ZC_LIST_MAX];
	int nchunks;
	uint64_t pipe_sizes[ZC_LIST_MAX];
	int npipe_sizes;
};

enum zc_opt_type { ZC_OPT_SIZE, ZC_OPT_DOUBLE, ZC_OPT_LONG, ZC_OPT_STR, ZC_OPT_TOPO,
		   ZC_OPT_MODE };

#define ZC_OPT_LIST 0x1		/* comma-separated list, expands the matrix */
#define ZC_OPT_RUN_ONLY 0x2	/* not settable from the command line */

struct zc_opt {
	const char *key;
	enum zc_opt_type type;
	const char *def;
	double min, max;
	size_t off, size;
	int role;		/* for ZC_OPT_MODE */
	unsigned flags;
	const char *help;
};

extern const struct zc_opt zc_opts[];
extern const size_t zc_nopts;

const struct zc_opt *zc_opt_find(const char *key); /* NULL if unknown; '-' == '_' */
void zc_cfg_defaults(struct zc_cfg *cfg);
/* Set one key from its text. 0, or -EINVAL with a message in err. */
int zc_opt_set(struct zc_cfg *cfg, const struct zc_opt *o, const char *value,
	       char *err, size_t errlen);
/* Cross-key checks once all keys are set. 0, or -EINVAL with a message. */
/* *badkey names the key to blame. */
int zc_cfg_validate(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey);
/* Pattern period that source and sink agree on for this run. */
uint64_t zc_cfg_period(const struct zc_cfg *cfg);
void zc_opts_help(FILE *f);
/* The --counters value a role gets: BPF only on the device under test
 * unless counters_roles = all (each role's programs run on every event of
 * the host, so three roles triple the DUT's cost); perf everywhere. */
const char *zc_counters_for_role(const struct zc_cfg *cfg, int role);

#endif
