// SPDX-License-Identifier: GPL-2.0
/*
 * The results-file loader alone (bench/results/schema.c: bounded read,
 * strict JSON, escaping every string, the type of every key, figures in
 * range, each run once, the running state settled): light enough for
 * millions of executions, where the reader harnesses (report, compare ...)
 * take milliseconds each.
 */
#include "fuzz.h"
#include "results/results.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[1200];
	json_t *root = zc_results_load(zc_fuzz_file(data, size), err, sizeof(err));

	if (!root)
		return 0;
	/* What every reader then asks of each run. */
	{
		json_t *run;
		size_t i;
		char id[300];

		json_array_foreach(json_object_get(root, "runs"), i, run) {
			zc_an_run_id(run, id, sizeof(id));
			if (zc_needs_escape(id))
				abort();	/* escaped at load: nothing raw is left */
		}
	}
	json_decref(root);
	return 0;
}
