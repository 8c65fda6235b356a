/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results files: written atomically by run, read back by compare, report,
 * export and plot (schema in results/README.md).
 * A run is identified across files by its workload key (topology, modes,
 * chunk, pipe size, connections), never by its section name.
 */
#ifndef ZC_RESULTS_H
#define ZC_RESULTS_H

#include "lib/zcbench.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* At most this many samples of one run are read back. */
#define ZC_SAMPLES_MAX 4096

/* Write root to path atomically (zc_write_atomic): 0/-errno */
int zc_json_write_atomic(json_t *root, const char *path);
/* Load a results file and check its schema. NULL with a message in err. */
json_t *zc_results_load(const char *path, char *err, size_t errlen);
/* Load and check a results file; on failure print "zcbench CMD: reason"
 * (file name included) and return NULL: the caller exits 2. */
json_t *zc_an_load(const char *cmd, const char *path);

/* "proxy send>splice>recv chunk=65536 pipe=262144 conn=1" */
void zc_an_key(json_t *run, char *out, size_t len);
/* Short label of the data path: "proxy:splice", "tee", "send>splice-null". */
void zc_an_label(json_t *run, char *out, size_t len);
const char *zc_an_str(json_t *o, const char *key); /* "" when absent */
/* Mode of the device under test (the proxy's, or the source's when direct). */
const char *zc_an_dut_mode(json_t *run);
long long zc_an_int(json_t *o, const char *key); /* 0 when absent */

/* Values of metric over the run's "ok" samples, in repetition order; at most
 * max. Returns how many. */
size_t zc_an_values(json_t *run, const char *metric, double *out, size_t max);

const char *zc_an_kernel(json_t *root);
const char *zc_an_hostname(json_t *root);
const char *zc_an_date(json_t *root);
/* Epoch seconds of meta.date ("2026-12-02T21:46:38Z"), or -1. */
long long zc_an_epoch(json_t *root);
/* The top-level fingerprint as one line: "none" when null or absent, else
 * compact JSON; *id gets the probe's one-line "label" when there is one,
 * else a short stable hash ("fp-1a2b3c4d"), or "none". */
void zc_an_fingerprint(json_t *root, char *line, size_t len, char *id, size_t idlen);

/* "before" or "after" when the fingerprint tells (zcbench probe's
 * vmsplice_state, from behaviour), else NULL. */
const char *zc_an_kernel_side(json_t *root);

/* Headline ratios (headline.c), the one table behind run, report and plot: numerator mode over denominator mode for one role, all
 * other key fields equal. The emulated "after" side of a numerator mode X is
 * any mode named "X-as-..." (splice-as-copy, tee-as-writev ...). */
struct zc_ratio_def {
	const char *name, *topology, *role, *num, *den;
	bool principal; /* the mission's two: splice/copy and tee/send */
};
extern const struct zc_ratio_def zc_ratio_defs[];
extern const size_t zc_nratio_defs;
/* Run in runs with run's key but role's mode replaced; NULL if none.
 * prefix: match a mode that starts with mode (for "X-as-"). */
json_t *zc_an_peer(json_t *runs, json_t *run, const char *role, const char *mode, bool prefix);

#define ZC_BOOT_ROUNDS 10000
#define ZC_BOOT_SEED 20260101UL

struct zc_ratio {
	double value, lo, hi;	/* median ratio and its 95% bootstrap CI (NaN: none) */
	double num_gpc, den_gpc;	/* medians, Gbps per core */
	size_t nn, nd;
};
/* Gbps-per-core ratio of two runs with its bootstrap CI. */
void zc_an_ratio(json_t *num, json_t *den, struct zc_ratio *r);


/* The headline ratios of runs as JSON (results file's "headline"). */
json_t *zc_headline(json_t *runs);

#endif
