// SPDX-License-Identifier: GPL-2.0
/*
 * The results file's last write, and where everything went when it failed
 * (rescue.h). A failed write is followed at once by a rescue copy on another
 * filesystem ($TMPDIR or /tmp), so even a controller killed after it loses
 * nothing it had finished.
 */
#include "run/rescue.h"
#include "results/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One controller per process: the rescue copy's name and its last write. */
static char rescue[1200];
static int rescue_err = -1;	/* -1: never written */

static long samples_in(json_t *root)
{
	json_t *run;
	size_t i;
	long n = 0;

	json_array_foreach(json_object_get(root, "runs"), i, run)
		n += (long)json_array_size(json_object_get(run, "samples"));
	return n;
}

void zc_results_written(struct zc_ctl *c, int ret)
{
	const char *slash = strrchr(c->path, '/'), *dir = getenv("TMPDIR");

	if (!ret) {
		c->save_err = 0;
		c->saved_samples = samples_in(c->root);
		return;
	}
	c->save_err = ret;
	c->save_failures++;
	if (!rescue[0])
		snprintf(rescue, sizeof(rescue), "%s/zcbench-rescue-%d-%s",
			 dir && *dir ? dir : "/tmp", (int)getpid(), slash ? slash + 1 : c->path);
	/* Nothing measured yet (the first write): nothing to rescue. */
	if (!samples_in(c->root))
		return;
	rescue_err = zc_json_write_atomic(c->root, rescue);
	if (rescue_err)
		zc_err("writing the rescue copy %s: %s", rescue, strerror(-rescue_err));
	else if (c->save_failures == 1)
		zc_warn("%s cannot be written: every sample goes to %s until it can", c->path,
			rescue);
}

int zc_results_final_line(struct zc_ctl *c, bool interrupted)
{
	if (!c->save_err) {
		printf("\nresults: %s%s\n", c->path, interrupted ? " (interrupted)" : "");
		/* PATH caught up: the rescue copy is older than it, not kept. */
		if (c->save_failures) {
			zc_warn("%d write(s) of %s failed on the way; the last one succeeded: it is "
				"complete", c->save_failures, c->path);
			if (!rescue_err)
				unlink(rescue);
		}
		return 0;
	}
	if (rescue_err)
		rescue_err = zc_json_write_atomic(c->root, rescue);
	printf("\nresults: %s is STALE: writing it failed (%s); it holds %ld of the %ld samples "
	       "taken\n", c->path, strerror(-c->save_err), c->saved_samples, samples_in(c->root));
	zc_err("%s is stale (%s): %ld of %ld samples in it", c->path, strerror(-c->save_err),
	       c->saved_samples, samples_in(c->root));
	if (!rescue_err) {
		printf("everything measured: %s%s\n", rescue, interrupted ? " (interrupted)" : "");
		zc_err("everything measured was written to %s instead", rescue);
	} else {
		/* Nowhere to write: the results go to stderr, whole, rather than nowhere. */
		zc_err("writing the rescue copy %s failed too (%s): the results follow on stderr",
		       rescue, strerror(-rescue_err));
		json_dumpf(c->root, stderr, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		fputc('\n', stderr);
	}
	return c->save_err;
}
