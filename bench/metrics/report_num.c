// SPDX-License-Identifier: GPL-2.0
/*
 * Numbers read from a role report, below both the list of metrics
 * (metrics.c, whose derive functions read them) and the deriver that applies
 * the list (derive.c).
 */
#include "metrics/metrics_int.h"

#include <math.h>
#include <string.h>

static double jnum(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double zc_derive_num(json_t *o, const char *key)
{
	return jnum(json_object_get(o, key));
}

/*
 * The DUT's own accounting programs' run time over its busy time: the sum of
 * every program's time_ns in `counters.bpf.self_cost` (the kernel's BPF
 * run-time stats, net of the twin set's clock reads with ZC_BPF_STATS=1), so
 * a program without a per-event count (the copy-helper kprobes) counts too,
 * and runs are weighed as they ran rather than by a mean over the host's
 * filtered-out runs. What the stats cannot see (the tracepoint dispatch,
 * other roles' sets filtering the DUT's events out) make bench-overhead adds.
 */
double zc_counters_bpf_cost_share(json_t *roles, const char *dut)
{
	json_t *d = json_object_get(roles, dut);
	json_t *progs = json_object_get(json_object_get(json_object_get(json_object_get(d,
		"counters"), "bpf"), "self_cost"), "programs"), *v;
	double busy_s = jnum(json_object_get(json_object_get(d, "window"), "busy_s")), ns = 0;
	const char *k;
	bool any = false;

	if (!json_is_object(progs) || !(busy_s > 0))
		return NAN;
	json_object_foreach(progs, k, v) {
		double t = jnum(json_object_get(v, "time_ns"));

		if (isfinite(t) && t >= 0) {
			ns += t;
			any = true;
		}
	}
	return any ? ns / 1e9 / busy_s : NAN;
}

double zc_derive_at(json_t *o, const char *path)
{
	char key[64];

	for (const char *p = path; o && *p;) {
		const char *e = strchrnul(p, '.');

		snprintf(key, sizeof(key), "%.*s", (int)(e - p), p);
		o = json_object_get(o, key);
		p = *e ? e + 1 : e;
	}
	return jnum(o);
}
