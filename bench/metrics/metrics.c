// SPDX-License-Identifier: GPL-2.0
/*
 * The one list of metrics (DESIGN.md, Measuring). A new metric is one row
 * below, plus its derive function above the list when it is computed rather
 * than read from the DUT's report (.source). The order is the order of
 * sample keys, summaries, compare rows, export columns and table columns.
 */
#include "metrics/metrics_int.h"
#include "metrics/figures.h"

#include <math.h>

static double d_gbps(const struct zc_derive_in *in)
{
	return zc_fig_gbps(in->sink_bytes, in->sink_window_s);
}

static double d_dut_gbps(const struct zc_derive_in *in)
{
	return zc_fig_gbps(in->dut_bytes, in->dut_window_s);
}

static double d_dut_busy_cores(const struct zc_derive_in *in)
{
	return zc_fig_busy_cores(in->dut_busy_s, in->dut_window_s);
}

/*
 * Per core from the DUT's own bytes and busy time, both read at the DUT's
 * window edges; the verified sink figure says the bytes arrived. The two
 * agree to within socket buffering (window_agreement ~ 1).
 */
static double d_gbps_per_core(const struct zc_derive_in *in)
{
	return zc_fig_per_core(d_dut_gbps(in), d_dut_busy_cores(in));
}

static double d_window_agreement(const struct zc_derive_in *in)
{
	double gbps = d_gbps(in);

	return gbps > 0 ? d_dut_gbps(in) / gbps : NAN;
}

/* How busy the DUT's own cores were: below ZC_SATURATED_FRAC its Gbit/s per
 * core is a figure of a DUT that waited (report/saturation.c says so). */
static double d_dut_busy_frac(const struct zc_derive_in *in)
{
	json_t *w = json_object_get(in->dut, "window");
	size_t ncpu = json_array_size(json_object_get(w, "cpus"));

	return zc_fig_busy_frac(zc_derive_num(w, "busy_s"), zc_derive_num(w, "window_s"),
				(double)ncpu);
}

static double d_dut_proc_cores(const struct zc_derive_in *in)
{
	return zc_fig_busy_cores(in->dut_rusage_s, in->dut_window_s);
}

static double d_service_demand(const struct zc_derive_in *in)
{
	return zc_fig_service_demand(in->dut_busy_s, in->dut_bytes);
}

static double d_dut_calls_per_mb(const struct zc_derive_in *in)
{
	return in->dut_bytes > 0 ? in->dut_calls / (in->dut_bytes / 1e6) : NAN;
}

/* Per-connection Gbit/s at the sink: which (0 min, 1 max, 2 Jain's index). */
static double conn_spread(const struct zc_derive_in *in, int which)
{
	double sum = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
	size_t i, n = json_array_size(in->sink_conns);
	json_t *c;

	if (!n)
		return NAN;
	json_array_foreach(in->sink_conns, i, c) {
		double g = zc_derive_num(c, "gbps");

		if (!isfinite(g))
			return NAN;
		sum += g;
		sq += g * g;
		lo = g < lo ? g : lo;
		hi = g > hi ? g : hi;
	}
	/* Jain: (sum x)^2 / (n sum x^2), 1 when all are equal, 1/n when one has all. */
	return which == 0 ? lo : which == 1 ? hi : sq > 0 ? sum * sum / (n * sq) : NAN;
}

static double d_conn_gbps_min(const struct zc_derive_in *in)
{
	return conn_spread(in, 0);
}

static double d_conn_gbps_max(const struct zc_derive_in *in)
{
	return conn_spread(in, 1);
}

static double d_conn_fairness(const struct zc_derive_in *in)
{
	return conn_spread(in, 2);
}

/* Request/response: the client's figures (rr/rr_client.c), NaN for a stream run. */
static json_t *rr_client(const struct zc_derive_in *in)
{
	return json_object_get(json_object_get(in->roles, "source"), "rr");
}

static double d_tps(const struct zc_derive_in *in)
{
	json_t *rr = rr_client(in);

	return rr ? zc_derive_num(rr, "transactions") / in->sink_window_s : NAN;
}

static double d_tps_per_core(const struct zc_derive_in *in)
{
	return zc_fig_per_core(d_tps(in), d_dut_busy_cores(in));
}

static double lat_us(const struct zc_derive_in *in, const char *key)
{
	json_t *l = json_object_get(rr_client(in), "latency");

	return zc_derive_num(l, "count") > 0 ? zc_derive_num(l, key) / 1e3 : NAN;
}

static double d_lat_p50(const struct zc_derive_in *in) { return lat_us(in, "p50_ns"); }
static double d_lat_p90(const struct zc_derive_in *in) { return lat_us(in, "p90_ns"); }
static double d_lat_p99(const struct zc_derive_in *in) { return lat_us(in, "p99_ns"); }
static double d_lat_p999(const struct zc_derive_in *in) { return lat_us(in, "p999_ns"); }
static double d_lat_max(const struct zc_derive_in *in) { return lat_us(in, "max_ns"); }
static double d_lat_mean(const struct zc_derive_in *in) { return lat_us(in, "mean_ns"); }

#define LAT_HOW(p) "the client's latency histogram of the window (`rr.latency`, its workers' " \
	"merged; " p "), ns / 1000; open loop: from each request's intended send time"

static double d_softirq_elsewhere(const struct zc_derive_in *in)
{
	return zc_fig_busy_cores(zc_derive_num(in->sample, "softirq_elsewhere_s"),
				 in->dut_window_s);
}

static double d_bpf_cost_share(const struct zc_derive_in *in)
{
	return zc_counters_bpf_cost_share(in->roles, in->dut_role);
}

const struct zc_metric zc_metrics[] = {
	{ .key = "gbps", .unit = "Gbit/s", .max = ZC_METRIC_MAX_GBPS, .better = ZC_BETTER_HIGHER,
	  .help = "verified payload bits at the sink per window second / 1e9",
	  .derive = d_gbps, .how = "the sink's `window.bytes` * 8 / `window.window_s` / 1e9 "
		"(request/response: the client's, the response body bytes it verified; the DUT's "
		"per-byte figures then count those bytes too)",
	  .col = { ZC_COL_ALWAYS, "Gbps", 8, "%.2f", .narrow = true } },
	{ .key = "dut_gbps", .unit = "Gbit/s", .max = ZC_METRIC_MAX_GBPS, .better = ZC_BETTER_HIGHER,
	  .sample_only = true,
	  .help = "bytes the device under test moved per window second, same unit as gbps",
	  .derive = d_dut_gbps,
	  .how = "the DUT's `window.bytes` * 8 / `window.window_s` / 1e9 (a foreign DUT: the "
		 "sink's bytes over the configured window)" },
	{ .key = "gbps_per_core", .unit = "Gbit/s/core", .max = ZC_METRIC_MAX_GBPS,
	  .better = ZC_BETTER_HIGHER,
	  .help = "gbps / busy cores of the device under test (softirq on its CPU included)",
	  .derive = d_gbps_per_core, .gate = true,
	  .how = "dut_gbps / dut_busy_cores: bytes and busy time from the DUT's own window "
		 "edges; the sink's verified gbps says they arrived",
	  .col = { ZC_COL_ALWAYS, "Gbps/core [min-max]", 19, "%.2f", .range = true,
		   .narrow = true } },
	{ .key = "window_agreement", .unit = "ratio", .better = ZC_BETTER_NEITHER,
	  .sample_only = true,
	  .help = "the DUT's Gbit/s over the sink's: about 1; far from it means the windows disagree",
	  .derive = d_window_agreement, .how = "dut_gbps / gbps" },
	{ .key = "dut_busy_cores", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "busy cores of the device under test: its workers' CPUs, and the CPUs its NIC's "
		  "IRQs were pinned to",
	  .derive = d_dut_busy_cores,
	  .how = "the DUT's /proc/stat busy s (user+nice+system+irq+softirq) summed over its workers' "
		 "distinct CPUs (`window.busy_s`), plus the irq and softirq s of the CPUs its NIC's "
		 "IRQs were pinned to outside them (`dut_irq_busy_s`), / window s (a foreign DUT: "
		 "the controller's `controller_dut_busy_s`)",
	  .col = { ZC_COL_ALWAYS, "DUTcores", 9, "%.2f", .narrow = true } },
	{ .key = "dut_busy_frac", .unit = "fraction", .better = ZC_BETTER_NEITHER,
	  .help = "how busy the DUT's worker cores were, 0..1: below 0.9 its Gbit/s per core is "
		  "that of a DUT that waited for its peers (not saturated)",
	  .derive = d_dut_busy_frac, .optional = true,
	  .how = "the DUT's `window.busy_s` / `window.window_s` / its distinct worker CPUs "
		 "(`window.cpus`); absent for a foreign DUT" },
	{ .key = "dut_proc_cores", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "device under test's own CPU time (getrusage) per second",
	  .derive = d_dut_proc_cores,
	  .how = "the DUT process's getrusage (`window.rusage_user_s` + `rusage_sys_s`) / window s" },
	{ .key = "service_demand_us_per_kb", .unit = "us/KB", .better = ZC_BETTER_LOWER,
	  .help = "netperf service demand: us of DUT CPU per KiB",
	  .derive = d_service_demand, .how = "DUT busy us per KiB moved (netperf's unit)",
	  .col = { ZC_COL_ALWAYS, "us/KB", 8, "%.3f" } },
	{ .key = "dut_calls_per_mb", .unit = "calls/MB", .better = ZC_BETTER_LOWER,
	  .help = "data syscalls of the device under test per MB moved",
	  .derive = d_dut_calls_per_mb,
	  .how = "the DUT's data syscalls (`window.calls`) per MB (1e6 bytes) it moved" },
	/* many connections: present when the sink reports its connections */
	{ .key = "conn_gbps_min", .unit = "Gbit/s", .max = ZC_METRIC_MAX_GBPS, .better = ZC_BETTER_HIGHER,
	  .help = "the slowest connection's verified Gbit/s at the sink over its window",
	  .derive = d_conn_gbps_min, .optional = true,
	  .how = "the least `gbps` of the sink's `connections` (each connection's window bytes * 8 "
		 "/ its worker's window s / 1e9)" },
	{ .key = "conn_gbps_max", .unit = "Gbit/s", .max = ZC_METRIC_MAX_GBPS,
	  .better = ZC_BETTER_NEITHER,
	  .help = "the fastest connection's Gbit/s at the sink", .derive = d_conn_gbps_max,
	  .optional = true, .how = "the greatest `gbps` of the sink's `connections`" },
	{ .key = "conn_fairness", .unit = "index", .better = ZC_BETTER_HIGHER,
	  .help = "Jain's fairness index of the connections' Gbit/s: 1 all equal, 1/connections "
		  "one took everything",
	  .derive = d_conn_fairness, .optional = true,
	  .how = "(sum of the connections' gbps)^2 / (connections * sum of their squares)" },
	/* request/response (traffic = rr): present in rr samples only */
	{ .key = "tps", .unit = "transactions/s", .better = ZC_BETTER_HIGHER,
	  .help = "request/response: verified responses completed per window second at the client",
	  .derive = d_tps, .optional = true,
	  .how = "the client's `rr.transactions` (responses whose every body byte it checked, "
		 "completed in its window) / its `window.window_s`",
	  .col = { ZC_COL_RR, "tps", 9, "%.0f", .narrow = true } },
	{ .key = "tps_per_core", .unit = "transactions/s/core", .better = ZC_BETTER_HIGHER,
	  .help = "request/response: tps / busy cores of the device under test",
	  .derive = d_tps_per_core, .optional = true, .gate = true,
	  .how = "tps / dut_busy_cores" },
	{ .key = "lat_p50_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: median latency, request sent (or due) to last body byte",
	  .derive = d_lat_p50, .optional = true, .how = LAT_HOW("p50") },
	{ .key = "lat_p90_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: 90th percentile latency", .derive = d_lat_p90,
	  .optional = true, .how = LAT_HOW("p90") },
	{ .key = "lat_p99_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: 99th percentile latency", .derive = d_lat_p99,
	  .optional = true, .gate = true, .how = LAT_HOW("p99"),
	  .col = { ZC_COL_RR, "p99us", 8, "%.0f", .narrow = true } },
	{ .key = "lat_p999_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: 99.9th percentile latency", .derive = d_lat_p999,
	  .optional = true, .how = LAT_HOW("p99.9") },
	{ .key = "lat_max_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: the longest latency", .derive = d_lat_max,
	  .optional = true, .how = LAT_HOW("max: the top bucket's highest value") },
	{ .key = "lat_mean_us", .unit = "us", .better = ZC_BETTER_LOWER,
	  .help = "request/response: mean latency", .derive = d_lat_mean, .optional = true,
	  .how = LAT_HOW("mean of the buckets' midpoints") },
	{ .key = "softirq_elsewhere_cores", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "softirq time on CPUs that ran no role's worker, per window second: receive or "
		  "transmit work that steering did not bring to the workers",
	  .derive = d_softirq_elsewhere, .optional = true,
	  .how = "the controller's `softirq_elsewhere_s` (its /proc/stat reads of every CPU at the "
		 "window edges) / the DUT's window s" },
	/* --counters: present only in samples whose DUT collected them */
	{ .key = "dut_cycles_per_byte", .unit = "cycles/B", .better = ZC_BETTER_LOWER,
	  .help = "DUT thread's CPU cycles per payload byte (perf)",
	  .source = "counters.perf.cycles_per_byte", .optional = true,
	  .col = { ZC_COL_PRESENT, "cyc/B", 6, "%.2f" } },
	{ .key = "dut_ipc", .unit = "instr/cycle", .better = ZC_BETTER_NEITHER,
	  .help = "DUT thread's instructions per cycle (perf)",
	  .source = "counters.perf.ipc", .optional = true },
	{ .key = "dut_syscalls_per_mb", .unit = "syscalls/MB", .better = ZC_BETTER_LOWER,
	  .help = "every syscall of the DUT thread per MB it moved (BPF raw_syscalls)",
	  .source = "counters.bpf.syscalls_per_mb", .optional = true,
	  .col = { ZC_COL_PRESENT, "sys/MB", 7, "%.1f" } },
	{ .key = "dut_softirq_share", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "softirq time on the DUT's CPU per window second (BPF irq:softirq_*)",
	  .source = "counters.bpf.softirq.share_of_core", .optional = true,
	  .col = { ZC_COL_PRESENT, "sirq%", 6, "%.1f", 100 } },
	{ .key = "dut_rx_copied_per_byte", .unit = "B/B", .better = ZC_BETTER_NEITHER,
	  .help = "bytes copied from skbs to the DUT's user memory per payload byte "
		  "(skb_copy_datagram_iovec)",
	  .source = "counters.bpf.rx_copied_per_payload_byte", .optional = true,
	  .col = { ZC_COL_PRESENT, "cpRx/B", 6, "%.3f" } },
	{ .key = "dut_tx_copied_per_byte", .unit = "B/B", .better = ZC_BETTER_NEITHER,
	  .help = "bytes the DUT's sends copied from user memory per payload byte "
		  "(tcp_sendmsg_locked)",
	  .source = "counters.bpf.tx_copied_per_payload_byte", .optional = true,
	  .col = { ZC_COL_PRESENT, "cpTx/B", 6, "%.3f" } },
	{ .key = "dut_bpf_cost_share", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "DUT CPU time in the DUT's accounting programs / DUT busy time "
		  "(ZC_BPF_STATS=1)",
	  .derive = d_bpf_cost_share, .optional = true,
	  .how = "the sum of the DUT's programs' run time (`counters.bpf.self_cost.programs.*.time_ns`, "
		 "only with ZC_BPF_STATS=1: make bench-overhead), over the DUT's busy s; the "
		 "tracepoint dispatch and other roles' sets are not in the BPF stats "
		 "(make bench-overhead adds them)" },
};
const size_t zc_nmetrics = ZC_ARRAY_SIZE(zc_metrics);
