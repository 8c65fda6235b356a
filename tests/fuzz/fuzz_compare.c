// SPDX-License-Identifier: GPL-2.0
/* zcbench compare: the input against itself and against a fixture, both ways. */
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	static char fixture[] = ZC_FIXTURES "/base.json";
	static char gate[] = "--fail-on-regression", pct[] = "5", mm[] = "--format", mmv[] = "mmtests";
	char *pairs[][2] = { { path, path }, { fixture, path }, { path, fixture } };

	if (call >= 4)
		return 0;
	argv[0] = "compare";
	argv[1] = pairs[call % 3][0];
	argv[2] = pairs[call % 3][1];
	argv[3] = call == 3 ? mm : gate;
	argv[4] = call == 3 ? mmv : pct;
	return 5;
}
#define ZC_FUZZ_CMD zc_cmd_compare
#include "fuzz_reader.h"
