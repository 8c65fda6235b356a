// SPDX-License-Identifier: GPL-2.0
/* A sample's metrics from its role reports (DESIGN.md, Measuring). */
#include "metrics/metrics.h"
#include "counters/counters.h"

#include <math.h>
#include <string.h>

static void copy_num(json_t *sample, const char *key, json_t *v)
{
	if (json_is_number(v))
		json_object_set_new(sample, key, json_real(json_number_value(v)));
}

static double jnum(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double prog_mean(json_t *bpf, const char *prog)
{
	return jnum(json_object_get(json_object_get(json_object_get(json_object_get(bpf,
		"self_cost"), "programs"), prog), "mean_ns"));
}

double zc_counters_bpf_cost_share(json_t *roles, const char *dut)
{
	json_t *d = json_object_get(roles, dut);
	json_t *dbpf = json_object_get(json_object_get(d, "counters"), "bpf");
	json_t *tcp = json_object_get(dbpf, "tcp_sendmsg_locked"), *vec, *v, *r;
	double busy_s = jnum(json_object_get(json_object_get(d, "window"), "busy_s"));
	double hits[ZC_BPF_NPROGS] = { 0 }, sirqs = 0, ns = 0;
	const char *k, *name;
	bool any = false;

	if (!json_is_object(json_object_get(dbpf, "self_cost")) || !(busy_s > 0))
		return NAN;
	/* How often the DUT's CPU ran each program of every role: once per DUT
	 * syscall (enter and exit), per softirq there, per copy and send. */
	hits[0] = hits[1] = jnum(json_object_get(dbpf, "syscalls_total"));
	vec = json_object_get(json_object_get(dbpf, "softirq"), "vectors");
	json_object_foreach(vec, k, v)
		sirqs += jnum(json_object_get(v, "count"));
	hits[2] = hits[3] = sirqs;
	hits[4] = jnum(json_object_get(dbpf, "rx_copy_calls"));
	json_object_foreach(tcp, k, v)
		hits[5] += jnum(v);
	json_object_foreach(roles, name, r) {
		json_t *bpf = json_object_get(json_object_get(r, "counters"), "bpf");

		if (!json_is_object(json_object_get(bpf, "self_cost")))
			continue;
		for (int i = 0; i < 6; i++) {
			double m = prog_mean(bpf, zc_bpf_prog_names[i]);

			if (isfinite(m) && isfinite(hits[i])) {
				ns += m * hits[i];
				any = true;
			}
		}
	}
	return any ? ns / 1e9 / busy_s : NAN;
}

void zc_counters_sample_metrics(json_t *sample, json_t *roles, const char *dut)
{
	json_t *ctr = json_object_get(json_object_get(roles, dut), "counters");
	json_t *perf = json_object_get(ctr, "perf"), *bpf = json_object_get(ctr, "bpf");
	double cost = zc_counters_bpf_cost_share(roles, dut);

	copy_num(sample, "dut_cycles_per_byte", json_object_get(perf, "cycles_per_byte"));
	copy_num(sample, "dut_ipc", json_object_get(perf, "ipc"));
	copy_num(sample, "dut_syscalls_per_mb", json_object_get(bpf, "syscalls_per_mb"));
	copy_num(sample, "dut_softirq_share",
		 json_object_get(json_object_get(bpf, "softirq"), "share_of_core"));
	copy_num(sample, "dut_rx_copied_per_byte", json_object_get(bpf, "rx_copied_per_payload_byte"));
	copy_num(sample, "dut_tx_copied_per_byte", json_object_get(bpf, "tx_copied_per_payload_byte"));
	if (isfinite(cost))
		json_object_set_new(sample, "dut_bpf_cost_share", json_real(cost));
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void set_num(json_t *o, const char *k, double v)
{
	json_object_set_new(o, k, isfinite(v) ? json_real(v) : json_null());
}

/* The figures of one sample, from the role reports (DESIGN.md, Measuring). */
void zc_sample_derive(json_t *sample, int dut, double duration_s)
{
	json_t *roles = json_object_get(sample, "roles");
	json_t *sink = json_object_get(json_object_get(roles, "sink"), "window");
	json_t *d = json_object_get(json_object_get(roles, zc_role_names[dut]), "window");
	double win = num(sink, "window_s"), bytes = num(sink, "bytes");
	double dwin = num(d, "window_s"), dbytes = num(d, "bytes"), busy = num(d, "busy_s");
	double gbps = bytes * 8 / win / 1e9;
	double cores;

	if (!d) {
		/* A foreign DUT reports nothing: use the controller's view. */
		dwin = duration_s;
		busy = num(sample, "controller_dut_busy_s");
		dbytes = bytes;
	}
	cores = busy / dwin;
	double proc = (num(d, "rusage_user_s") + num(d, "rusage_sys_s")) / dwin;

	set_num(sample, "gbps", gbps);
	set_num(sample, "dut_gbps", dbytes * 8 / dwin / 1e9);
	set_num(sample, "dut_busy_cores", cores);
	set_num(sample, "dut_proc_cores", proc);
	/*
	 * Per core from the DUT's own bytes and busy time, both read at the
	 * DUT's window edges; the verified sink figure says the bytes arrived.
	 * The two agree to within socket buffering (window_agreement ~ 1).
	 */
	set_num(sample, "gbps_per_core", cores > 0 ? (dbytes * 8 / dwin / 1e9) / cores : NAN);
	set_num(sample, "window_agreement", gbps > 0 ? (dbytes * 8 / dwin / 1e9) / gbps : NAN);
	set_num(sample, "service_demand_us_per_kb", dbytes > 0 ? busy * 1e6 / (dbytes / 1024) : NAN);
	set_num(sample, "dut_calls_per_mb", dbytes > 0 ? num(d, "calls") / (dbytes / 1e6) : NAN);
	zc_counters_sample_metrics(sample, roles, zc_role_names[dut]);
}
