/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_H
#define ZC_RUN_H

#include "config/workload.h"
#include "lib/zcbench.h"
#include "run/watch.h"

/* zcbench run's own options (its table in run.c); workload keys given as
 * flags go into the overrides section. */
struct zc_run_args {
	const char *workload;
	const char *host;
	const char *out;
	const char *only[32];
	int nonly;
	const char *exec[ZC_ROLE_NR];	/* --exec-ROLE: a foreign program as the role */
	bool aa;			/* zcbench noise: every run twice (A and B) */
	bool wide;			/* --wide: every column of the run table */
	struct zc_watch_opts watch;	/* --profile, --interval, --progress, --json-stream */
};

int zc_cmd_run(int argc, char **argv);
/* run's argv (argv[0]: "run"), as kernel-ab checks what it passes on: 0,
 * ZC_OPT_HELP (help printed), or -EINVAL with "command line: ..." in err. */
int zc_run_parse(int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		 char *err, size_t errlen);
/* The same for another command taking run's arguments (noise): its name,
 * about text and one more option group first (may be NULL). */
int zc_run_parse_as(const char *name, const char *about, const struct zc_optgroup *extra,
		    int argc, char **argv, struct zc_run_args *a, struct zc_section *ov,
		    char *err, size_t errlen);
/* Run the parsed invocation (argv: recorded as the command); the results
 * file's path into path_out (may be NULL). run's exit code. */
int zc_run_exec(const struct zc_run_args *a, struct zc_section *ov, int argc, char **argv,
		char *path_out, size_t path_len);
/* zcbench noise WORKLOAD: an A/A run and the noise file compare takes. */
int zc_cmd_noise(int argc, char **argv);

#endif
