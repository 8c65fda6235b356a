// SPDX-License-Identifier: GPL-2.0
/*
 * The role's options as one table: what a role needs beyond the workload
 * keys (its CPU, where it listens and connects, the device it binds to, its
 * mode). The controller serialises these rows and every workload row with
 * zc_opt_argv; the role parses them back with the same rows, so nothing is
 * written by hand on either side.
 */
#include "wire/wire.h"
#include "counters/counters.h"
#include "lib/cpu.h"
#include "lib/net.h"

#include <errno.h>
#include <string.h>

/* --mode: this role's entry of cfg.mode (the role is known before parsing). */
static int parse_mode(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	struct zc_role_args *ra = base;

	(void)o;
	if (strlen(v) >= sizeof(ra->cfg.mode[0])) {
		snprintf(why, len, "'%s' is longer than %zu characters", v,
			 sizeof(ra->cfg.mode[0]) - 1);
		return -EINVAL;
	}
	snprintf(ra->cfg.mode[ra->role], sizeof(ra->cfg.mode[0]), "%s", v);
	return 0;
}

static int format_mode(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	const struct zc_role_args *ra = base;
	int k = snprintf(buf, len, "%s", ra->cfg.mode[ra->role]);

	(void)o;
	return k < 0 || (size_t)k >= len ? -E2BIG : k;
}

#define AT(field) ZC_OPT_AT(struct zc_role_args, field)

const struct zc_opt zc_role_opts[] = {
	{ "cpu", ZC_OPT_INT, "-1", -1, 4095, AT(cpu), .names = "auto=-2",
	  .help = "CPU to pin to (-1: none; auto: the role's own placement on its host)" },
	{ "cpus", ZC_OPT_STR, "", AT(cpus), .meta = "CPU,CPU,...",
	  .help = "the workers' CPUs, worker i on the i-th (empty: --cpu for every worker)" },
	{ "listen", ZC_OPT_STR, "127.0.0.1", AT(listen), .meta = "ADDRESS",
	  .help = "address to listen on (proxy, sink)" },
	{ "connect", ZC_OPT_STR, "", AT(peer), .meta = "HOST:PORT",
	  .help = "the next hop (source, proxy)" },
	{ "bind_device", ZC_OPT_STR, "", AT(bind_device), .meta = "IFACE",
	  .help = "bind every socket to this interface (SO_BINDTODEVICE)" },
	{ "mode", ZC_OPT_CUSTOM, .parse = parse_mode, .format = format_mode, .meta = "MODE",
	  .help = "this role's mode (the same as --source, --proxy or --sink)" },
};
const size_t zc_nrole_opts = ZC_ARRAY_SIZE(zc_role_opts);

int zc_role_args_argv(const struct zc_role_args *ra, char **argv, int max, char *store,
		      size_t storelen)
{
	int n = zc_opt_argv(zc_opts, zc_nopts, &ra->cfg, argv, max, store, storelen), k;
	size_t used = 0;

	if (n < 0)
		return n;
	for (int i = 0; i < n; i++)
		used += strlen(argv[i]) + 1;
	k = zc_opt_argv(zc_role_opts, zc_nrole_opts, ra, argv + n, max - n, store + used,
			storelen - used);
	return k < 0 ? k : n + k;
}

int zc_role_args_parse(int argc, char **argv, struct zc_role_args *ra, char *err,
		       size_t errlen)
{
	const struct zc_optgroup groups[] = {
		{ .opts = zc_role_opts, .n = zc_nrole_opts, .base = ra },
		{ .opts = zc_opts, .n = zc_nopts, .base = &ra->cfg,
		  .title = "workload keys, as the controller passes them:" },
	};
	const struct zc_cmdline cmd = {
		.name = argv[1],
		.about = "A role, started by zcbench run: READY port=N, waits for GO, runs, prints one\n"
			 "JSON object with what it measured on its own host.\n",
		.groups = groups, .ngroups = ZC_ARRAY_SIZE(groups),
	};
	struct zc_placement pl;
	int ret;

	zc_cfg_defaults(&ra->cfg);
	ret = zc_opt_parse(&cmd, argc - 1, argv + 1, err, errlen);
	if (ret)
		return ret;
	if (zc_counters_parse(ra->cfg.counters) < 0) {
		snprintf(err, errlen, "command line: --counters: '%s' is not one of %s",
			 ra->cfg.counters, zc_counters_choices);
		return -EINVAL;
	}
	if (ra->peer[0] && zc_split_hostport(ra->peer, ra->connect, sizeof(ra->connect), &ra->port)) {
		snprintf(err, errlen, "command line: --connect: '%s' is not host:port", ra->peer);
		return -EINVAL;
	}
	if (ra->role != ZC_ROLE_SINK && !ra->peer[0]) {
		snprintf(err, errlen, "command line: --connect is required for the %s",
			 zc_role_names[ra->role]);
		return -EINVAL;
	}
	if (ra->bind_device[0] && zc_net_bind_device(ra->bind_device)) {
		snprintf(err, errlen, "command line: --bind-device: '%s' is not an interface name",
			 ra->bind_device);
		return -EINVAL;
	}
	/* auto: a role on another machine places itself there, as the
	 * controller would here (its last physical cores, one per worker). */
	if (ra->cpu == ZC_CPU_AUTO) {
		int want[ZC_ROLE_NR] = { -1, -1, -1 }, n = zc_cfg_role_workers(&ra->cfg, ra->role);
		size_t k = 0;

		want[ra->role] = n > 0 ? n : 1;
		if (n > ra->cfg.connections)
			want[ra->role] = (int)ra->cfg.connections;
		ra->cpu = -1;
		ra->cpus[0] = 0;
		if (!zc_place_workers(ra->role, NULL, -1, want, ra->cfg.smt, 1, &pl)) {
			ra->cpu = pl.cpu[ra->role];
			for (int w = 0; w < pl.nworkers[ra->role] && k < sizeof(ra->cpus) - 8; w++)
				k += snprintf(ra->cpus + k, sizeof(ra->cpus) - k, "%s%d", w ? "," : "",
					      pl.wcpu[ra->role][w]);
		}
	}
	return 0;
}
