/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results reader's whole command on the input (its loading path and what
 * it does with what it loaded), alone and beside a stored fixture:
 * ZC_FUZZ_ARGS(path, fixture, argv) fills argv for one call and returns how
 * many calls the harness makes (call i gets i).
 */
#include "fuzz.h"
#include "report/report.h"

#ifndef ZC_FIXTURES
#define ZC_FIXTURES "results/fixtures"
#endif


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = zc_fuzz_file(data, size);
	char *argv[16];

	for (int call = 0;; call++) {
		int argc = zc_fuzz_args(call, (char *)path, argv);

		if (argc <= 0)
			break;
		argv[argc] = NULL;
		ZC_FUZZ_CMD(argc, argv);
	}
	return 0;
}
