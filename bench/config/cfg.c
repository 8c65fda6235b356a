// SPDX-License-Identifier: GPL-2.0
#include "config/cfg.h"
#include "counters/counters.h"
#include "modes/mode.h"

#include "lib/cpu.h"

#include <errno.h>
#include <sys/resource.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#define AT(field) ZC_OPT_AT(struct zc_cfg, field)

/* A mode of role o->arg, by name: the message lists that role's modes. */
static int parse_mode(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	char *dst = (char *)base + o->off;
	const char *sep = "";
	int n;

	if (zc_mode_find((enum zc_role)o->arg, v)) {
		snprintf(dst, o->size, "%s", v);
		return 0;
	}
	n = snprintf(why, len, "'%s' is not a %s mode (", v, zc_role_names[o->arg]);
	for (size_t i = 0; i < zc_nmodes && n > 0 && (size_t)n < len; i++) {
		if (zc_modes[i]->role != (enum zc_role)o->arg)
			continue;
		n += snprintf(why + n, len - n, "%s%s", sep, zc_modes[i]->name);
		sep = ", ";
	}
	if (n > 0 && (size_t)n < len)
		snprintf(why + n, len - n, ")");
	return -EINVAL;
}

static int format_mode(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	int k = snprintf(buf, len, "%s", (const char *)base + o->off);

	return k < 0 || (size_t)k >= len ? -E2BIG : k;
}

#define MODE(role) .type = ZC_OPT_CUSTOM, AT(mode[role]), .parse = parse_mode, \
	.format = format_mode, .arg = role, .meta = "MODE"

const struct zc_opt zc_opts[] = {
	{ "topology", ZC_OPT_CHOICE, "proxy", AT(topology), .choices = "proxy|direct",
	  .help = "proxy: source -> proxy -> sink (proxy is the device under test); "
		  "direct: source -> sink (source is the device under test)" },
	{ "source", .def = "send", MODE(ZC_ROLE_SOURCE), .help = "source mode (zcbench list)" },
	{ "proxy", .def = "copy", MODE(ZC_ROLE_PROXY),
	  .help = "proxy mode, used when topology = proxy" },
	{ "sink", .def = "recv", MODE(ZC_ROLE_SINK), .help = "sink mode" },
	{ "chunk", ZC_OPT_SIZE, "64k", 1, 1 << 30, AT(chunk), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct zc_cfg, chunks, nchunks),
	  .help = "bytes per data call (list: 4k,64k,1M: one run each)" },
	{ "pipe_size", ZC_OPT_SIZE, "1M", 4096, 1 << 30, AT(pipe_size), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct zc_cfg, pipe_sizes, npipe_sizes),
	  .help = "pipe capacity set with F_SETPIPE_SZ (list allowed)" },
	{ "period", ZC_OPT_SIZE, "1M", 1, 1 << 30, AT(period),
	  .help = "pattern period; modes re-sending one chunk (tee) use the chunk" },
	{ "warmup", ZC_OPT_DOUBLE, "1", 0, 3600, AT(warmup_s), .meta = "S",
	  .help = "seconds of traffic before the measured window" },
	{ "duration", ZC_OPT_DOUBLE, "4", 0.05, 86400, AT(duration_s), .meta = "S",
	  .help = "seconds in the measured window" },
	{ "tail", ZC_OPT_DOUBLE, "0.3", 0, 60, AT(tail_s), .meta = "S",
	  .help = "seconds the source keeps sending after the window, so the sink's window is full" },
	{ "timeout", ZC_OPT_DOUBLE, "15", 1, 86400, AT(timeout_s), .meta = "S",
	  .help = "seconds past warmup+duration+tail before a role counts as stalled" },
	{ "repetitions", ZC_OPT_LONG, "3", 1, 1000, AT(repetitions),
	  .help = "samples per run" },
	{ "seed", ZC_OPT_LONG, "1", 0, 1e15, AT(seed), .help = "pattern seed" },
	{ "sink_seed", ZC_OPT_LONG, "-1", -1, 1e15, AT(sink_seed),
	  .help = "seed the sink expects (-1: same as seed); set it to test the verifier" },
	{ "file_dir", ZC_OPT_STR, "/var/tmp", AT(file_dir), .meta = "DIR",
	  .help = "directory for the payload file of file modes (page cache, not tmpfs)" },
	/* Checked with the other keys (zc_cfg_validate): the counters module
	 * owns the names. */
	{ "counters", ZC_OPT_STR, "none", AT(counters), .meta = "none|perf|bpf|all",
	  .help = "per-role counters: none, perf (perf_event_open), bpf (syscalls, softirq, "
		  "copied bytes), all" },
	{ "counters_roles", ZC_OPT_STR, "dut", AT(counters_roles), .meta = "dut|all",
	  .help = "roles that load the BPF programs: dut (the device under test only: every role's "
		  "programs run on every event of the host), all" },
	{ "mode_opts", ZC_OPT_STR, "", AT(mode_opts), .meta = "KEY=VALUE[,...]",
	  .help = "the modes' own options, KEY=VALUE[,KEY=VALUE] (listed below and by zcbench list); "
		  "each run's modes take the keys they declare" },
	{ "connections", ZC_OPT_LONG, "1", 1, 65536, AT(connections), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct zc_cfg, connections_list, nconnections),
	  .help = "concurrent TCP connections per run, on both sides of the proxy, each verified "
		  "on its own (list: 1,16,256)" },
	{ "workers", ZC_OPT_INT, "1", 1, ZC_WORKERS_MAX, AT(workers), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct zc_cfg, workers_list, nworkers), .names = "max=-1,ladder=-2",
	  .help = "worker threads of the device under test, each on its own core with a "
		  "round-robin share of the connections (list; max: every usable core; ladder: "
		  "1,2,4,... up to every usable core)" },
	{ "source_workers", ZC_OPT_INT, "auto", 1, ZC_WORKERS_MAX, AT(source_workers),
	  .names = "auto=0",
	  .help = "worker threads of the source when it is not the device under test (auto: the "
		  "cores the DUT leaves, shared with the sink; the DUT's when none are left)" },
	{ "sink_workers", ZC_OPT_INT, "auto", 1, ZC_WORKERS_MAX, AT(sink_workers),
	  .names = "auto=0", .help = "worker threads of the sink (auto: as source_workers)" },
	{ "smt", ZC_OPT_CHOICE, "off", AT(smt), .choices = "off|on",
	  .help = "off: one PU per physical core for the workers (siblings idle); on: SMT siblings "
		  "too" },
};
const size_t zc_nopts = ZC_ARRAY_SIZE(zc_opts);

const struct zc_opt *zc_opt_find(const char *key)
{
	return zc_opt_lookup(zc_opts, zc_nopts, key);
}

void zc_cfg_defaults(struct zc_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	zc_opt_defaults(zc_opts, zc_nopts, cfg);
}

int zc_opt_set(struct zc_cfg *cfg, const struct zc_opt *o, const char *value,
	       char *err, size_t errlen)
{
	return zc_opt_store(o, cfg, value, err, errlen);
}

void zc_cfg_for_role(const struct zc_cfg *cfg, int role, struct zc_cfg *out)
{
	*out = *cfg;
	out->period = zc_cfg_period(cfg);
	snprintf(out->counters, sizeof(out->counters), "%s", zc_counters_for_role(cfg, role));
}

json_t *zc_cfg_json(const struct zc_cfg *cfg)
{
	json_t *o = json_object();

	for (size_t i = 0; i < zc_nopts; i++)
		json_object_set_new(o, zc_opts[i].key, zc_opt_json(&zc_opts[i], cfg));
	json_object_set_new(o, "period_effective", json_integer(zc_cfg_period(cfg)));
	return o;
}

uint64_t zc_cfg_period(const struct zc_cfg *cfg)
{
	const struct zc_mode *m = zc_mode_find(ZC_ROLE_SOURCE, cfg->mode[ZC_ROLE_SOURCE]);

	if (m && (m->flags & ZC_MODE_STATIC_CHUNK))
		return cfg->chunk;
	return cfg->period;
}

int zc_cfg_dut(const struct zc_cfg *cfg)
{
	return cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
}

int zc_cfg_role_workers(const struct zc_cfg *cfg, int role)
{
	if (role == zc_cfg_dut(cfg))
		return cfg->workers;
	return role == ZC_ROLE_SINK ? cfg->sink_workers :
	       role == ZC_ROLE_SOURCE ? cfg->source_workers : cfg->workers;
}

int zc_cfg_usable_cores(const struct zc_cfg *cfg)
{
	/* Every expanded run asks: load the topology once per smt value. */
	static int known[2];
	int cpus[1024], smt = !!cfg->smt;

	if (!known[smt]) {
		int n = zc_usable_cpus(smt, cpus, ZC_ARRAY_SIZE(cpus));

		known[smt] = n < 0 ? 1 : n;
	}
	return known[smt];
}

/* workers = max and ladder for this machine: count of values into out. */
static int workers_values(const struct zc_cfg *cfg, int *out, int max)
{
	int n = 0, cores = zc_cfg_usable_cores(cfg);

	for (int i = 0; i < cfg->nworkers && n < max; i++) {
		int w = cfg->workers_list[i];

		if (w == ZC_WORKERS_LADDER) {
			for (int k = 1; k < cores && n < max; k *= 2)
				out[n++] = k;
			w = cores;
		} else if (w == ZC_WORKERS_MAX_CORES) {
			w = cores;
		}
		if (n < max)
			out[n++] = w;
	}
	return n;
}

int zc_cfg_expand(const struct zc_cfg *base, struct zc_cfg *out, int max)
{
	int wv[4 * ZC_LIST_MAX], nw = workers_values(base, wv, ZC_ARRAY_SIZE(wv)), n = 0;

	for (int c = 0; c < base->nchunks; c++)
		for (int q = 0; q < base->npipe_sizes; q++)
			for (int k = 0; k < base->nconnections; k++)
				for (int w = 0; w < nw; w++) {
					struct zc_cfg *r = &out[n];

					/* More workers than connections would idle: only when
					 * asked for alone, never as a point of a sweep. */
					if (nw > 1 && wv[w] > base->connections_list[k])
						continue;
					if (n == max)
						return -E2BIG;
					*r = *base;
					r->chunk = base->chunks[c];
					r->pipe_size = base->pipe_sizes[q];
					r->connections = base->connections_list[k];
					r->workers = wv[w];
					n++;
				}
	return n;
}

/* Can this process have fds descriptors open (raising its soft limit, or as
 * root its hard one up to fs.nr_open)? The limit it may reach, in *limit. */
static bool nofile_ok(uint64_t fds, uint64_t *limit)
{
	struct rlimit rl;
	char buf[32];
	long nr_open = 0;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return true;
	*limit = rl.rlim_max;
	if (rl.rlim_max == RLIM_INFINITY || fds <= rl.rlim_max)
		return true;
	if (geteuid() == 0 && !zc_read_file_trim("/proc/sys/fs/nr_open", buf, sizeof(buf)) &&
	    !zc_parse_long(buf, &nr_open) && (uint64_t)nr_open > *limit)
		*limit = nr_open;
	return fds <= *limit;
}

int zc_cfg_validate(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t fds = ZC_FDS_BASE + (uint64_t)ZC_FDS_PER_CONN * cfg->connections, limit = 0;
	int cores = zc_cfg_usable_cores(cfg);

	if (cfg->workers > cores) {
		snprintf(err, errlen, "key 'workers': %d workers, but this machine has %d usable "
			 "core(s) (%s)", cfg->workers, cores,
			 cfg->smt ? "smt = on: every PU" : "smt = off: one PU per physical core");
		*badkey = "workers";
		return -EINVAL;
	}
	if (!nofile_ok(fds, &limit)) {
		snprintf(err, errlen, "key 'connections': %ld connections need about %llu file "
			 "descriptors per role, RLIMIT_NOFILE allows at most %llu here (ulimit -Hn, "
			 "fs.nr_open)", cfg->connections, (unsigned long long)fds,
			 (unsigned long long)limit);
		*badkey = "connections";
		return -EINVAL;
	}

	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

		if (!m) {
			snprintf(err, errlen, "key '%s': unknown mode '%s'", zc_role_names[r],
				 cfg->mode[r]);
			*badkey = zc_role_names[r];
			return -EINVAL;
		}
		if (r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT)
			continue;
		if ((m->flags & ZC_MODE_PAGE_CHUNK) && cfg->chunk % page) {
			snprintf(err, errlen,
				 "key 'chunk': %s mode '%s' needs a multiple of the page size (%ld), got %llu",
				 zc_role_names[r], m->name, page, (unsigned long long)cfg->chunk);
			*badkey = "chunk";
			return -EINVAL;
		}
	}
	if (zc_counters_parse(cfg->counters) < 0) {
		snprintf(err, errlen, "key 'counters': '%s' is not one of %s", cfg->counters,
			 zc_counters_choices);
		*badkey = "counters";
		return -EINVAL;
	}
	if (strcmp(cfg->counters_roles, "dut") && strcmp(cfg->counters_roles, "all")) {
		snprintf(err, errlen, "key 'counters_roles': '%s' is not one of dut, all",
			 cfg->counters_roles);
		*badkey = "counters_roles";
		return -EINVAL;
	}
	if (zc_mode_opts_check(cfg->mode_opts, err, errlen)) {
		*badkey = "mode_opts";
		return -EINVAL;
	}
	if (cfg->period % 8 || cfg->period % page) {
		snprintf(err, errlen, "key 'period': must be a multiple of the page size (%ld)", page);
		*badkey = "period";
		return -EINVAL;
	}
	return 0;
}

void zc_opts_help(FILE *f)
{
	zc_opt_help(f, zc_opts, zc_nopts, true);
	zc_mode_opts_help(f);
}

const char *zc_counters_for_role(const struct zc_cfg *cfg, int role)
{
	int dut = cfg->topology == ZC_TOPO_PROXY ? ZC_ROLE_PROXY : ZC_ROLE_SOURCE;
	int mask = zc_counters_parse(cfg->counters);

	if (mask < 0 || role == dut || !strcmp(cfg->counters_roles, "all"))
		return cfg->counters;
	return mask & ZC_CTR_PERF ? "perf" : "none";
}
