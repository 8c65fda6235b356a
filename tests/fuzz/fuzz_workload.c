// SPDX-License-Identifier: GPL-2.0
/* The workload loader: INI reader, keys, expansion, checks across keys. */
#include "fuzz.h"
#include "config/workload.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct zc_workload w;
	static struct zc_section ov;
	char err[1024];
	const char *path = zc_fuzz_file(data, size);

	/* Plain, then with a flag that overrides every run. */
	if (zc_workload_load(path, NULL, &w, err, sizeof(err)) == 0 && w.nruns < 1)
		abort();	/* loaded means at least one run */
	memset(&ov, 0, sizeof(ov));
	if (zc_override_add(&ov, "duration", "0.5", err, sizeof(err)))
		abort();
	zc_workload_load(path, &ov, &w, err, sizeof(err));
	return 0;
}
