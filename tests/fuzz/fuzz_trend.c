// SPDX-License-Identifier: GPL-2.0
/* zcbench trend: the input as a night among fixtures (the loader of a series
 * of files, their dates and schemas, the gate), in each format. */
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	static char a[] = ZC_FIXTURES "/base.json", b[] = ZC_FIXTURES "/new.json",
		    c[] = ZC_FIXTURES "/bench.json", gate[] = "--fail-on-regression", pct[] = "5",
		    fmt[] = "--format";
	static char *const fmts[] = { "text", "json", "csv", "prometheus" };

	if (call >= 4)
		return 0;
	argv[0] = "trend";
	argv[1] = gate;
	argv[2] = pct;
	argv[3] = fmt;
	argv[4] = fmts[call];
	argv[5] = a;
	argv[6] = call & 1 ? path : b;
	argv[7] = c;
	argv[8] = call & 1 ? b : path;
	return 9;
}
#define ZC_FUZZ_CMD zc_cmd_trend
#include "compare/trend.h"
#include "fuzz_reader.h"
