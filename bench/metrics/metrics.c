// SPDX-License-Identifier: GPL-2.0
#include "metrics/metrics.h"
#include "lib/stats.h"

#include <stdlib.h>
#include <string.h>

const struct zc_metric zc_metrics[] = {
	{ "gbps", "Gbit/s", 1, "verified payload bits at the sink per window second / 1e9" },
	{ "gbps_per_core", "Gbit/s/core", 1,
	  "gbps / busy cores of the device under test (softirq on its CPU included)" },
	{ "dut_busy_cores", "cores", 0, "busy fraction of the device under test's CPU" },
	{ "dut_proc_cores", "cores", 0, "device under test's own CPU time (getrusage) per second" },
	{ "service_demand_us_per_kb", "us/KB", 0, "netperf service demand: us of DUT CPU per KiB" },
	{ "dut_calls_per_mb", "calls/MB", 0, "data syscalls of the device under test per MB moved" },
	/* --counters (counters.c); present only in samples that collected them */
	{ "dut_cycles_per_byte", "cycles/B", 0, "DUT thread's CPU cycles per payload byte (perf)" },
	{ "dut_ipc", "instr/cycle", -1, "DUT thread's instructions per cycle (perf)" },
	{ "dut_syscalls_per_mb", "syscalls/MB", 0,
	  "every syscall of the DUT thread per MB it moved (BPF raw_syscalls)" },
	{ "dut_softirq_share", "cores", 0,
	  "softirq time on the DUT's CPU per window second (BPF irq:softirq_*)" },
	{ "dut_rx_copied_per_byte", "B/B", -1,
	  "bytes copied from skbs to the DUT's user memory per payload byte (skb_copy_datagram_iovec)" },
	{ "dut_tx_copied_per_byte", "B/B", -1,
	  "bytes the DUT's sends copied from user memory per payload byte (tcp_sendmsg_locked)" },
	{ "dut_bpf_cost_share", "cores", 0,
	  "DUT CPU time in every role's accounting programs / DUT busy time (ZC_BPF_STATS=1)" },
};
const size_t zc_nmetrics = ZC_ARRAY_SIZE(zc_metrics);

json_t *zc_run_summary(json_t *samples)
{
	json_t *o = json_object();
	size_t n = json_array_size(samples);
	double *v = calloc(n ? n : 1, sizeof(*v));

	for (size_t m = 0; m < zc_nmetrics; m++) {
		size_t k = 0;
		struct zc_summary s;
		json_t *so;

		for (size_t i = 0; i < n; i++) {
			json_t *smp = json_array_get(samples, i);
			json_t *x = json_object_get(smp, zc_metrics[m].key);

			if (json_is_number(x) && !strcmp(json_string_value(json_object_get(smp, "status")), "ok"))
				v[k++] = json_number_value(x);
		}
		if (!k)
			continue;
		zc_summarize(v, k, &s);
		so = json_pack("{s:I,s:f,s:f,s:f,s:f,s:f}", "n", (json_int_t)s.n, "median", s.median,
			       "min", s.min, "max", s.max, "mean", s.mean, "stddev", s.stddev);
		json_object_set_new(o, zc_metrics[m].key, so);
	}
	free(v);
	return o;
}

const struct zc_metric *zc_metric_find(const char *key)
{
	for (size_t m = 0; m < zc_nmetrics; m++)
		if (!strcmp(zc_metrics[m].key, key))
			return &zc_metrics[m];
	return NULL;
}

bool zc_metric_is_pct(const struct zc_metric *m)
{
	size_t l = strlen(m->key);

	return (m->unit && (!strcmp(m->unit, "%") || !strcmp(m->unit, "percent"))) ||
	       (l > 4 && !strcmp(m->key + l - 4, "_pct"));
}
