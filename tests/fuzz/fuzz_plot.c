// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench plot: the input beside a fixture (history, captions, the dashboard),
 * gnuplot itself replaced (-Wl,--wrap=zc_run_argv): what is fuzzed is the
 * reading of the files and the CSV and HTML written from them.
 */
#include "lib/proc.h"
#include <stdio.h>
#include <unistd.h>

int __wrap_zc_run_argv(char *const argv[], const struct zc_spawn_opts *how);
int __wrap_zc_run_argv(char *const argv[], const struct zc_spawn_opts *how)
{
	(void)argv;
	(void)how;
	return 0;
}

static int zc_fuzz_args(int call, char *path, char **argv)
{
	static char out[64], fixture[] = ZC_FIXTURES "/emulated.json";

	if (!out[0])
		snprintf(out, sizeof(out), "/dev/shm/zcbench-fuzz-plot.%d", (int)getpid());
	if (call >= 2)
		return 0;
	argv[0] = "plot";
	argv[1] = "--out";
	argv[2] = out;
	argv[3] = "--scripts";
	argv[4] = ZC_PLOTS;
	argv[5] = path;
	argv[6] = fixture;
	return call ? 7 : 6;
}
#define ZC_FUZZ_CMD zc_cmd_plot
#include "fuzz_reader.h"
