// SPDX-License-Identifier: GPL-2.0
/* zcbench report FILE */
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	char *a[] = { "report", path };

	if (call)
		return 0;
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		argv[i] = a[i];
	return 2;
}
#define ZC_FUZZ_CMD zc_cmd_report
#include "fuzz_reader.h"
