// SPDX-License-Identifier: GPL-2.0
/* The host loader: INI reader, generic and transport keys, checks, its JSON. */
#include "fuzz.h"
#include "transport/host.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct zc_host h;
	char err[1024];

	if (zc_host_load(zc_fuzz_file(data, size), &h, err, sizeof(err)) == 0) {
		json_t *j = zc_host_json(&h);
		char *s = json_dumps(j, 0);

		/* Everything a host file sets reaches the results as JSON. */
		if (!s)
			abort();
		free(s);
		json_decref(j);
	}
	return 0;
}
