// SPDX-License-Identifier: GPL-2.0
/* zcbench before-after: the input alone (results or pipebench), and as --after. */
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	static char fixture[] = ZC_FIXTURES "/emulated.json", after[] = "--after";

	if (call >= 2)
		return 0;
	argv[0] = "before-after";
	if (!call) {
		argv[1] = path;
		return 2;
	}
	argv[1] = fixture;
	argv[2] = after;
	argv[3] = path;
	return 4;
}
#define ZC_FUZZ_CMD zc_cmd_before_after
#include "fuzz_reader.h"
