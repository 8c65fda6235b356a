// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench plot: the input beside a fixture (history, captions, the dashboard),
 * gnuplot itself replaced (-Wl,--wrap=zc_run_argv): what is fuzzed is the
 * reading of the files and the CSV and HTML written from them.
 */
#include "lib/proc.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char out[64];

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The pictures' folder goes with the fuzzer (a tmpfs is memory). */
static void remove_out(void)
{
	if (out[0])
		nftw(out, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

int __wrap_zc_run_argv(char *const argv[], const struct zc_spawn_opts *how);
int __wrap_zc_run_argv(char *const argv[], const struct zc_spawn_opts *how)
{
	(void)argv;
	(void)how;
	return 0;
}

static int zc_fuzz_args(int call, char *path, char **argv)
{
	static char fixture[] = ZC_FIXTURES "/emulated.json";

	if (!out[0]) {
		snprintf(out, sizeof(out), "/dev/shm/zcbench-fuzz-plot.%d", (int)getpid());
		atexit(remove_out);
	}
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
