// SPDX-License-Identifier: GPL-2.0
/* zcbench export --format F FILE, for every format. */
#include "export/export.h"
#include <stddef.h>
static int zc_fuzz_args(int call, char *path, char **argv)
{
	if ((size_t)call >= zc_nexport_formats)
		return 0;
	argv[0] = "export";
	argv[1] = "--format";
	argv[2] = (char *)zc_export_formats[call]->name;
	argv[3] = path;
	return 4;
}
#define ZC_FUZZ_CMD zc_cmd_export
#include "fuzz_reader.h"
