// SPDX-License-Identifier: GPL-2.0
/* zcbench: what Linux zero-copy data paths are really worth. */
#include "lib/zcbench.h"
#include "config/cfg.h"
#include "guest/guest.h"
#include "commands.h"
#include "modes/mode.h"
#include "probe/probe.h"
#include "profile/profile.h"
#include "run/role.h"
#include "run/run.h"
#include "output/report.h"
#include "output/scale.h"
#include "transport/host.h"

#include <string.h>

int zc_cmd_list(int argc, char **argv);
int zc_cmd_keys(int argc, char **argv);

struct zc_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

#define ZC_CMD_ROW(name, fn, summary) { name, fn, summary },
static const struct zc_command commands[] = { ZC_COMMANDS(ZC_CMD_ROW) };
#undef ZC_CMD_ROW

int zc_cmd_list(int argc, char **argv)
{
	const struct zc_cmdline cmd = {
		.name = "list",
		.about = "Every mode by role, with why one is unavailable on this kernel or build.\n",
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	zc_modes_list(stdout, true);
	return 0;
}

int zc_cmd_keys(int argc, char **argv)
{
	const struct zc_cmdline cmd = {
		.name = "keys",
		.about = "Every workload key (also a zcbench run flag) and every host file key,\n"
			 "with default, bounds and help.\n",
	};
	int rc = zc_opt_main(&cmd, argc, argv);

	if (rc >= 0)
		return rc;
	printf("workload keys ([workload] and [run NAME] sections; zcbench run --KEY=VALUE):\n");
	zc_opts_help(stdout);
	printf("\n");
	zc_host_keys_help(stdout);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "zcbench %s (%s%s): measure Linux zero-copy data paths\n\n"
		   "usage: zcbench COMMAND [ARGS]\n\n", ZC_VERSION, ZC_GIT_SHA,
		ZC_GIT_DIRTY ? "-dirty" : "");
	for (size_t i = 0; i < ZC_ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nzcbench COMMAND --help for a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? ZC_EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("zcbench %s %s%s\n", ZC_VERSION, ZC_GIT_SHA, ZC_GIT_DIRTY ? "-dirty" : "");
		return 0;
	}
	for (size_t i = 0; i < ZC_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* Roles see their own name in argv[1]; commands get argv from it. */
		if (commands[i].fn == zc_role_main)
			return zc_role_main(argc, argv);
		return commands[i].fn(argc - 1, argv + 1);
	}
	zc_err("unknown command '%s' (zcbench --help lists them)", argv[1]);
	return ZC_EXIT_USAGE;
}
