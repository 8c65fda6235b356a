// SPDX-License-Identifier: GPL-2.0
/*
 * The one list of metrics (DESIGN.md, Measuring). A new metric is one row
 * below, plus its derive function above the list when it is computed rather
 * than read from the DUT's report (.source). The order is the order of
 * sample keys, summaries, compare rows, export columns and table columns.
 */
#include "metrics/metrics_int.h"

#include <math.h>

static double d_gbps(const struct zc_derive_in *in)
{
	return in->sink_bytes * 8 / in->sink_window_s / 1e9;
}

static double d_dut_gbps(const struct zc_derive_in *in)
{
	return in->dut_bytes * 8 / in->dut_window_s / 1e9;
}

static double d_dut_busy_cores(const struct zc_derive_in *in)
{
	return in->dut_busy_s / in->dut_window_s;
}

/*
 * Per core from the DUT's own bytes and busy time, both read at the DUT's
 * window edges; the verified sink figure says the bytes arrived. The two
 * agree to within socket buffering (window_agreement ~ 1).
 */
static double d_gbps_per_core(const struct zc_derive_in *in)
{
	double cores = d_dut_busy_cores(in);

	return cores > 0 ? d_dut_gbps(in) / cores : NAN;
}

static double d_window_agreement(const struct zc_derive_in *in)
{
	double gbps = d_gbps(in);

	return gbps > 0 ? d_dut_gbps(in) / gbps : NAN;
}

static double d_dut_proc_cores(const struct zc_derive_in *in)
{
	return in->dut_rusage_s / in->dut_window_s;
}

static double d_service_demand(const struct zc_derive_in *in)
{
	return in->dut_bytes > 0 ? in->dut_busy_s * 1e6 / (in->dut_bytes / 1024) : NAN;
}

static double d_dut_calls_per_mb(const struct zc_derive_in *in)
{
	return in->dut_bytes > 0 ? in->dut_calls / (in->dut_bytes / 1e6) : NAN;
}

static double d_bpf_cost_share(const struct zc_derive_in *in)
{
	return zc_counters_bpf_cost_share(in->roles, in->dut_role);
}

const struct zc_metric zc_metrics[] = {
	{ .key = "gbps", .unit = "Gbit/s", .better = ZC_BETTER_HIGHER,
	  .help = "verified payload bits at the sink per window second / 1e9",
	  .derive = d_gbps, .how = "the sink's `window.bytes` * 8 / `window.window_s` / 1e9",
	  .col = { ZC_COL_ALWAYS, "Gbps", 8, "%.2f" } },
	{ .key = "dut_gbps", .unit = "Gbit/s", .better = ZC_BETTER_HIGHER, .sample_only = true,
	  .help = "bytes the device under test moved per window second, same unit as gbps",
	  .derive = d_dut_gbps,
	  .how = "the DUT's `window.bytes` * 8 / `window.window_s` / 1e9 (a foreign DUT: the "
		 "sink's bytes over the configured window)" },
	{ .key = "gbps_per_core", .unit = "Gbit/s/core", .better = ZC_BETTER_HIGHER,
	  .help = "gbps / busy cores of the device under test (softirq on its CPU included)",
	  .derive = d_gbps_per_core,
	  .how = "dut_gbps / dut_busy_cores: bytes and busy time from the DUT's own window "
		 "edges; the sink's verified gbps says they arrived",
	  .col = { ZC_COL_ALWAYS, "Gbps/core [min-max]", 19, "%.2f", .range = true } },
	{ .key = "window_agreement", .unit = "ratio", .better = ZC_BETTER_NEITHER,
	  .sample_only = true,
	  .help = "the DUT's Gbit/s over the sink's: about 1; far from it means the windows disagree",
	  .derive = d_window_agreement, .how = "dut_gbps / gbps" },
	{ .key = "dut_busy_cores", .unit = "cores", .better = ZC_BETTER_LOWER,
	  .help = "busy fraction of the device under test's CPU",
	  .derive = d_dut_busy_cores,
	  .how = "the DUT CPU's /proc/stat busy s (user+nice+system+irq+softirq, `window.busy_s`) "
		 "/ window s (a foreign DUT: the controller's `controller_dut_busy_s`)",
	  .col = { ZC_COL_ALWAYS, "DUTcores", 9, "%.2f" } },
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
	  .help = "DUT CPU time in every role's accounting programs / DUT busy time "
		  "(ZC_BPF_STATS=1)",
	  .derive = d_bpf_cost_share, .optional = true,
	  .how = "the programs' mean run time (`counters.bpf.self_cost`, only with "
		 "ZC_BPF_STATS=1: make bench-overhead) times how often the DUT's CPU ran "
		 "them, over the DUT's busy s" },
};
const size_t zc_nmetrics = ZC_ARRAY_SIZE(zc_metrics);
