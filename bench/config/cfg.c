// SPDX-License-Identifier: GPL-2.0
#include "config/cfg.h"
#include "counters/counters.h"
#include "modes/mode.h"
#include "stats/order.h"

#include "lib/cpu.h"

#include <errno.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
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

/* ci_target: "3%" or "3", percent, in (0, 100]. */
static int parse_pct(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	double d;

	/* The one percent reader (5 or 5%), then this key's range. */
	if (zc_parse_percent(v, &d) || !(d > 0 && d <= 100)) {
		snprintf(why, len, "'%s' is not a percentage in (0, 100] (examples: 5, 5%%, 0.5%%)", v);
		return -EINVAL;
	}
	*(double *)((char *)base + o->off) = d;
	return 0;
}

static int format_pct(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	int k = snprintf(buf, len, "%.17g%%", *(const double *)((const char *)base + o->off));

	return k < 0 || (size_t)k >= len ? -E2BIG : k;
}

#define CI_TARGET .type = ZC_OPT_CUSTOM, AT(ci_target_pct), .parse = parse_pct, \
	.format = format_pct, .meta = "PCT"

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
	{ "repetitions", ZC_OPT_LONG, "3", 1, 1000, AT(repetitions), .names = "auto=0",
	  .help = "samples per run; auto: rounds until each question (decide) is decided, "
		  "changed or unchanged at +-5%, looked at after 3, 5, 8, 12, 18 ... rounds with "
		  "the error rate spent over the looks (the interval where it stops holds at 95%), "
		  "at most max_repetitions rounds and budget seconds" },
	{ "decide", ZC_OPT_CHOICE, "fair", AT(decide), .choices = "fair|all",
	  .help = "repetitions = auto: fair: each headline ratio at each side's best size (the "
		  "fair question; every headline ratio when no side ran at two sizes); all: "
		  "every headline ratio too. Only the runs an undecided question needs take "
		  "the later rounds. Without any ratio, each run's interval half-width against "
		  "ci_target" },
	{ "ci_target", .def = "3%", CI_TARGET,
	  .help = "repetitions = auto without a headline ratio: the interval half-width to "
		  "reach, percent of the run's Gbit/s per core" },
	{ "max_repetitions", ZC_OPT_LONG, "20", ZC_AUTO_MIN_ROUNDS, 1000, AT(max_repetitions),
	  .help = "repetitions = auto: stop after this many rounds, decided or not" },
	{ "budget", ZC_OPT_DOUBLE, "0", 0, 604800, AT(budget_s), .meta = "S",
	  .help = "repetitions = auto: begin no round after this many seconds (the last look "
		  "spends what is left of the error rate); 0: max_repetitions alone" },
	{ "retake_disturbed", ZC_OPT_LONG, "auto", 0, 100000, AT(retake_disturbed),
	  .names = "auto=-1",
	  .help = "a disturbed sample (foreign_max) is taken again at once, in its round, at "
		  "most this many times in the run set (auto: with repetitions = auto as many as "
		  "it has runs, a round's worth; with a count, none: each run keeps that many "
		  "slots); the record keeps both, the disturbed one left out" },
	/* Read from the first run taken: they describe the run set, not a run. */
	{ "order", ZC_OPT_CHOICE, "balanced", AT(order),
	  .choices = "sequential|interleaved|random|balanced",
	  .help = "balanced: rounds, each a row of a Williams square (every run at every place "
		  "in its round equally often); interleaved: repetition 1 of every run, then "
		  "repetition 2 ..., always in the workload's order; random: rounds, runs "
		  "shuffled within each (order_seed); sequential: every repetition of a run "
		  "before the next. Rounds keep the pairs adjacent in time" },
	{ "order_seed", ZC_OPT_LONG, "1", 0, 1e15, AT(order_seed),
	  .help = "order = random: seed of the shuffle (the same seed, the same order)" },
	/* Paired slices inside one window (issue 22; role/slices.c). */
	{ "alternate", ZC_OPT_STR, "", AT(alternate), .meta = "MODE",
	  .help = "another mode of the DUT's role (or the same one: an A/A run) that takes turns "
		  "with the run's mode on the same connections in ABBA slices of slice_ms; each "
		  "slice's bytes, DUT thread CPU and softirq+irq time go into the results and "
		  "the headline gives the median ratio over adjacent pairs; \"\": off" },
	{ "slice_ms", ZC_OPT_LONG, "200", 20, 10000, AT(slice_ms), .meta = "MS",
	  .help = "alternate: length of one slice in milliseconds (the window is a whole "
		  "number of slices, at least four)" },
	{ "slice_drop", ZC_OPT_LONG, "1", 0, 1, AT(slice_drop),
	  .help = "alternate: 1 leaves out the first slice after each switch of mode (what "
		  "was dropped is said in the results), 0 keeps every slice" },
	{ "foreign_max", .def = "2%", .type = ZC_OPT_CUSTOM, AT(foreign_max_pct), .parse = parse_pct,
	  .format = format_pct, .meta = "PCT",
	  .help = "a sample is disturbed (left out of summaries and headlines, counted) when "
		  "other tasks took more than this share of the DUT's cores in its window; "
		  "100%: keep every sample" },
	{ "tune", ZC_OPT_CHOICE, "off", AT(tune), .choices = "off|on",
	  .help = "on: performance governor and no deep idle states on the DUT cores during the "
		  "runs, restored afterwards (also by the next run after a killed one); "
		  "the machine state is recorded either way" },
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
	/* request/response (traffic = rr) */
	{ "traffic", ZC_OPT_CHOICE, "stream", AT(traffic), .choices = "stream|rr",
	  .help = "stream: one endless stream per connection; rr: request/response (minimal "
		  "HTTP/1.1): the source is the client, the sink the server, the proxy carries "
		  "both directions; every rr socket has TCP_NODELAY, as in neper, netperf's RR "
		  "tests, HAProxy and nginx" },
	{ "request_size", ZC_OPT_SIZE, "0", 0, 8192, AT(request_size),
	  .help = "rr: bytes of each request (GET /SIZE, padded with an X-Pad header); 0: the "
		  "shortest" },
	{ "object_size", ZC_OPT_SIZE, "64k", 0, 1 << 30, AT(object_size), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct zc_cfg, object_sizes, nobject_sizes),
	  .help = "rr: bytes of each response body (list: 1k,64k,1M: one run each)" },
	{ "object_sizes_file", ZC_OPT_STR, "", AT(object_sizes_file), .meta = "FILE",
	  .help = "rr: draw each request's object size from this file (one size a line, # "
		  "comments), with the run's seed; overrides object_size" },
	{ "inflight", ZC_OPT_LONG, "1", 1, 1024, AT(inflight),
	  .help = "rr: requests in flight per connection (pipelined; 1: ask, wait, ask)" },
	{ "churn", ZC_OPT_CHOICE, "off", AT(churn), .choices = "off|on",
	  .help = "rr: off: keep-alive connections; on: a new connection per request "
		  "(Connection: close; connect time counts in the latency)" },
	{ "rate", ZC_OPT_DOUBLE, "0", 0, 1e9, AT(rate_rps), .meta = "REQ/S",
	  .help = "rr: requests/s over all connections, latency from each request's intended send "
		  "time (open loop, wrk2's coordinated-omission correction: every request due in "
		  "the window counts, those sent late and never sent are counted); 0: closed loop" },
	{ "dut", ZC_OPT_CHOICE, "server", AT(rr_dut), .choices = "server|client",
	  .help = "rr with topology = direct: the device under test, server (the sink) or client "
		  "(the source)" },
	{ "pipe_pool", ZC_OPT_LONG, "0", 0, 1e6, AT(pipe_pool),
	  .help = "rr proxy with a pipe mode (splice): empty pipes kept per worker and reused by "
		  "the next connection (HAProxy's pipe pool); 0: a pipe per connection" },
	{ "server_send", ZC_OPT_CHOICE, "send", AT(server_send), .choices = "send|sendfile",
	  .help = "rr: the server sends bodies with send() from a pattern buffer, or sendfile() "
		  "from a pattern file in file_dir" },
	{ "rr_check", ZC_OPT_CHOICE, "auto", AT(rr_check), .choices = "auto|exact|http",
	  .help = "rr: exact: every byte of each request and response, heads too, as sent, each "
		  "body marked by its place on its connection (a replayed or swapped response "
		  "fails); http: GET /SIZE, status 200, Content-Length and body (heads rewritten on "
		  "the way, connections pooled: a swap of two same-size responses goes unseen); "
		  "auto: http with an HTTP program in the path (HAProxy in http mode, nginx, wrk), "
		  "else exact" },
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
	out->rr_check = zc_cfg_rr_check(cfg);
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
	int nobj = base->nobject_sizes > 0 ? base->nobject_sizes : 1;
	unsigned uses = zc_cfg_uses(base);
	int nc = uses & ZC_USE_chunk ? base->nchunks : 1;
	int np = uses & ZC_USE_pipe_size ? base->npipe_sizes : 1;

	for (int o = 0; o < nobj; o++)
		for (int c = 0; c < nc; c++)
			for (int q = 0; q < np; q++)
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
						if (base->nobject_sizes > 0)
							r->object_size = base->object_sizes[o];
						n++;
					}
	return n;
}

/* Does this process hold CAP_SYS_RESOURCE (limits past the hard ones)? */
static bool sys_resource(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2] = { 0 };

	return !syscall(SYS_capget, &h, d) &&
	       (d[CAP_SYS_RESOURCE / 32].effective & (1u << (CAP_SYS_RESOURCE % 32)));
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
	/* Raising the hard limit takes CAP_SYS_RESOURCE, not uid 0 (a container's
	 * root may lack it: setrlimit's EPERM). */
	if (sys_resource() && !zc_read_file_trim("/proc/sys/fs/nr_open", buf, sizeof(buf)) &&
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
	/* The source's and sink's workers take a core each as the DUT's do (they
	 * share when the DUT leaves none, never two on one core of their own). */
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		const char *key = r == ZC_ROLE_SOURCE ? "source_workers" : "sink_workers";
		int n = zc_cfg_role_workers(cfg, r);

		if (r == ZC_ROLE_PROXY || r == zc_cfg_dut(cfg) || n <= cores)
			continue;
		snprintf(err, errlen, "key '%s': %d workers, but this machine has %d usable "
			 "core(s) (%s)", key, n, cores,
			 cfg->smt ? "smt = on: every PU" : "smt = off: one PU per physical core");
		*badkey = key;
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
	if (zc_cfg_http_check(cfg, err, errlen, badkey))
		return -EINVAL;
	if (zc_cfg_alternate_check(cfg, err, errlen)) {
		*badkey = "alternate";
		return -EINVAL;
	}
	if (cfg->repetitions == ZC_REPS_AUTO && cfg->order == ZC_ORDER_SEQUENTIAL) {
		snprintf(err, errlen, "key 'repetitions': auto takes rounds (a repetition of every "
			 "run at a time) and stops after one: it needs order = balanced, interleaved or "
			 "random");
		*badkey = "repetitions";
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
	int dut = zc_cfg_dut(cfg);
	int mask = zc_counters_parse(cfg->counters);

	if (mask < 0 || role == dut || !strcmp(cfg->counters_roles, "all"))
		return cfg->counters;
	return mask & ZC_CTR_PERF ? "perf" : "none";
}

/* ---- settings that cannot work (zc_cfg_conflicts) -----------------------
 * Checks across keys that refuse a run before it starts, each saying why.
 * Kept apart from the table and zc_cfg_validate so that rows and checks can
 * be added by different hands.
 */

/* The least tail that keeps the sink's window loaded to its end. */
#define TAIL_MIN_S 0.05

/* The largest F_SETPIPE_SZ this process may ask for: fs.pipe-max-size, or
 * no limit of ours with CAP_SYS_RESOURCE (the kernel's EPERM otherwise). */
static uint64_t pipe_limit(void)
{
	char v[32];
	uint64_t max;

	if (sys_resource())
		return UINT64_MAX;
	if (zc_read_file_trim("/proc/sys/fs/pipe-max-size", v, sizeof(v)) || zc_parse_size(v, &max))
		return UINT64_MAX;	/* unknown: the mode's setup will say */
	return max;
}

#define REFUSE(key, ...)                                 \
	do {                                             \
		int n_ = snprintf(err, errlen, "key '%s': ", key); \
		if (n_ > 0 && (size_t)n_ < errlen)       \
			snprintf(err + n_, errlen - n_, __VA_ARGS__); \
		*badkey = key;                           \
		return -EINVAL;                          \
	} while (0)

int zc_cfg_conflicts(const struct zc_cfg *cfg, const unsigned char origin[], char *err,
		     size_t errlen, const char **badkey)
{
	const struct zc_mode *src = zc_mode_find(ZC_ROLE_SOURCE, cfg->mode[ZC_ROLE_SOURCE]);
	const struct zc_mode *snk = zc_mode_find(ZC_ROLE_SINK, cfg->mode[ZC_ROLE_SINK]);
	bool src_http = src && (src->flags & ZC_MODE_HTTP), snk_http = snk && (snk->flags & ZC_MODE_HTTP);
	const struct zc_opt *o_topo = zc_opt_find("topology"), *o_src = zc_opt_find("source");
	const char *proxy = cfg->mode[ZC_ROLE_PROXY];
	uint64_t plim;
	char a[32], b[32];

#define FROM(key) origin[zc_opt_find(key) - zc_opts]
	if (cfg->topology == ZC_TOPO_DIRECT && FROM("proxy") == ZC_SET_RUN)
		REFUSE("proxy", "topology = direct has no proxy, so proxy = %s would be ignored "
		       "(remove it, or set topology = proxy)", proxy);
	/* A source mode in the default topology measures the proxy, not the source. */
	if (cfg->topology == ZC_TOPO_PROXY && FROM("topology") == ZC_SET_DEFAULT &&
	    strcmp(cfg->mode[ZC_ROLE_SOURCE], o_src->def))
		REFUSE("source", "source = %s without a topology runs topology = %s (the default), "
		       "whose device under test is the proxy (%s), not the source: set topology = "
		       "direct to measure %s, or topology = proxy to feed the proxy with it",
		       cfg->mode[ZC_ROLE_SOURCE], o_topo->def, proxy, cfg->mode[ZC_ROLE_SOURCE]);
	if (src && (src->flags & ZC_MODE_STATIC_CHUNK) && FROM("period") == ZC_SET_RUN)
		REFUSE("period", "source %s re-sends one chunk, so its pattern period is the chunk "
		       "and period would be ignored (remove it)", src->name);
	if (src && !(src->flags & ZC_MODE_FILE) && FROM("file_dir") == ZC_SET_RUN)
		REFUSE("file_dir", "source %s reads no file, so file_dir would be ignored "
		       "(remove it)", src->name);
	if (cfg->tail_s < TAIL_MIN_S)
		REFUSE("tail", "%g s is too short: the source stops sending at the end of its own "
		       "window, which ends before the sink's, so the sink would see the connection "
		       "close inside its window; use at least %g s (default %s)", cfg->tail_s,
		       TAIL_MIN_S, zc_opt_find("tail")->def);
	plim = pipe_limit();
	zc_fmt_size(plim == UINT64_MAX ? 0 : (long long)plim, b, sizeof(b));
	if (cfg->pipe_size > plim) {
		zc_fmt_size((long long)cfg->pipe_size, a, sizeof(a));
		REFUSE("pipe_size", "%s is more than fs.pipe-max-size (%s) and this process lacks "
		       "CAP_SYS_RESOURCE: F_SETPIPE_SZ would fail with EPERM", a, b);
	}
	/* tee's master pipe holds the whole chunk. */
	if (src && (src->flags & ZC_MODE_STATIC_CHUNK) && cfg->chunk > plim) {
		zc_fmt_size((long long)cfg->chunk, a, sizeof(a));
		REFUSE("chunk", "source %s keeps the chunk in one pipe, and %s is more than "
		       "fs.pipe-max-size (%s) without CAP_SYS_RESOURCE: F_SETPIPE_SZ would fail "
		       "with EPERM", src->name, a, b);
	}
	/* request/response (traffic = rr) */
	if (cfg->traffic == ZC_TRAFFIC_STREAM) {
		static const char *const rr_keys[] = { "request_size", "object_size",
			"object_sizes_file", "inflight", "churn", "rate", "dut", "pipe_pool",
			"server_send", "rr_check" };

		for (size_t i = 0; i < ZC_ARRAY_SIZE(rr_keys); i++)
			if (FROM(rr_keys[i]) != ZC_SET_DEFAULT)
				REFUSE(rr_keys[i], "only request/response runs take it, and this run "
				       "is a stream (set traffic = rr, or remove it)");
		for (int r = 0; r < ZC_ROLE_NR; r++) {
			const struct zc_mode *m = zc_mode_find(r, cfg->mode[r]);

			if (m && (m->flags & ZC_MODE_HTTP) && (r != ZC_ROLE_PROXY || cfg->topology ==
							       ZC_TOPO_PROXY))
				REFUSE(zc_role_names[r], "%s speaks HTTP: it forwards requests and "
				       "responses, and a stream run has neither (set traffic = rr)", m->name);
		}
	} else {
		if (cfg->churn && cfg->inflight > 1)
			REFUSE("inflight", "churn = on sends one request per connection, so "
			       "inflight = %ld would be ignored (remove it, or churn = off)",
			       cfg->inflight);
		if (cfg->topology == ZC_TOPO_PROXY && FROM("dut") != ZC_SET_DEFAULT)
			REFUSE("dut", "topology = proxy: the proxy is the device under test");
		if (cfg->topology == ZC_TOPO_DIRECT && cfg->pipe_pool)
			REFUSE("pipe_pool", "topology = direct has no proxy to keep pipes");
		if (cfg->alternate[0])
			REFUSE("alternate", "slices take turns on streams; a request/response run "
			       "cannot alternate modes (remove it, or traffic = stream)");
		/* ... except an HTTP program in their place (nginx, wrk, h2load). */
		if ((FROM("source") != ZC_SET_DEFAULT && !src_http) ||
		    (FROM("sink") != ZC_SET_DEFAULT && !snk_http))
			REFUSE(FROM("source") != ZC_SET_DEFAULT && !src_http ? "source" : "sink",
			       "traffic = rr has its own client and server (the source and sink "
			       "roles); their modes would be ignored (remove it, or name an HTTP "
			       "program: zcbench list marks them [http])");
	}
	if (!cfg->alternate[0] && (FROM("slice_ms") == ZC_SET_RUN || FROM("slice_drop") == ZC_SET_RUN))
		REFUSE(FROM("slice_ms") == ZC_SET_RUN ? "slice_ms" : "slice_drop",
		       "slices are taken only when the run sets alternate = MODE");
#undef FROM
	return 0;
}
#undef REFUSE
