/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zcbench probe: the kernel's behaviour fingerprint (before or after the
 * vmsplice/splice patches, told by what the kernel does, not its version),
 * and the page-change test of every mode's own data path.
 *
 * Every probe runs in a forked child that the parent kills after a timeout,
 * so a call that blocks (the LTP vmsplice01 hang) is a verdict, not a hang.
 */
#ifndef ZC_PROBE_H
#define ZC_PROBE_H

#include "modes/mode.h"

#include <jansson.h>
#include <stdio.h>

struct zc_probe_res {
	char verdict[40];	/* "zero-copy", "copy", "partial", "EAGAIN", "blocks", "skipped", ... */
	char detail[320];	/* the evidence; for "skipped", the reason */
	double elapsed_ms;
};

struct zc_probe_opts {
	char user[64];		/* unprivileged user for the read-only file probes */
	char file_dir[256];	/* where the (at once unlinked) probe file lives */
	int timeout_ms;		/* a probe child still running after this is killed */
	int block_ms;		/* a call not back after this "blocks" */
	bool modes;		/* also probe every mode's step */
	bool emulate_safin;	/* vmsplice probes call Safin's wrapper instead */
};

void zc_probe_opts_default(struct zc_probe_opts *o);

/* Who a probe child runs as: NULL, or uid/gid to drop to (from root). */
struct zc_probe_creds {
	uid_t uid;
	gid_t gid;
};

/*
 * Run fn(arg, res) in a child (as *as when not NULL), killed after
 * timeout_ms. 0 when the child finished; -ETIMEDOUT when it was killed
 * (res says "timeout"); -errno when it could not be started.
 */
int zc_probe_bounded(void (*fn)(void *arg, struct zc_probe_res *res), void *arg,
		     int timeout_ms, const struct zc_probe_creds *as, struct zc_probe_res *res);

/*
 * What len bytes read back from a pipe say, when they were old_byte when the
 * path took them and new_byte after the probe changed the source: "zero-copy"
 * (all new), "copy" (all old), "mixed" or "garbled". *n_new counts new bytes.
 */
const char *zc_probe_classify(const uint8_t *got, size_t len, uint8_t old_byte,
			      uint8_t new_byte, size_t *n_new);

/* Page-change test of one mode's step (run in a bounded child). */
void zc_probe_mode(const struct zc_mode *m, const struct zc_probe_opts *o,
		   struct zc_probe_res *res);

/* Every probe: a new JSON object (schema in results/README.md). */
json_t *zc_probe_collect(const struct zc_probe_opts *o);
void zc_probe_print(FILE *f, json_t *fp);
/* One line for the end of a run's table. */
void zc_fingerprint_print_brief(FILE *f, json_t *fp);

int zc_cmd_probe(int argc, char **argv);
int zc_cmd_pipebench(int argc, char **argv);

#endif
