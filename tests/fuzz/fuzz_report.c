// SPDX-License-Identifier: GPL-2.0
/* zcbench report FILE, report --mail FILE FILE (the file as its own BASE) and
 * report --json FILE */
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	char *a[] = { "report", path };
	char *m[] = { "report", "--mail", path, path };
	char *j[] = { "report", "--json", path };

	if (call > 2)
		return 0;
	if (call == 2) {
		for (size_t i = 0; i < sizeof(j) / sizeof(j[0]); i++)
			argv[i] = j[i];
		return 3;
	}
	if (call == 1) {
		for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
			argv[i] = m[i];
		return 4;
	}
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		argv[i] = a[i];
	return 2;
}
#define ZC_FUZZ_CMD zc_cmd_report
#include "fuzz_reader.h"
