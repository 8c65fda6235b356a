// SPDX-License-Identifier: GPL-2.0
/*
 * A sample's metrics from its role reports (DESIGN.md, Measuring): every
 * row of the list (metrics.c), by its derive function or its source path.
 */
#include "metrics/metrics_int.h"

#include <math.h>
#include <string.h>

static void derive_in(struct zc_derive_in *in, json_t *sample, json_t *roles, const char *dut,
		      double duration_s)
{
	json_t *sink = json_object_get(json_object_get(roles, "sink"), "window");
	json_t *d;

	/* Request/response: the client verified the response bodies (rr/rr_client.c). */
	if (json_object_get(json_object_get(roles, "source"), "rr"))
		sink = json_object_get(json_object_get(roles, "source"), "window");
	memset(in, 0, sizeof(*in));
	in->sample = sample;
	in->roles = roles;
	in->dut_role = dut;
	in->dut = json_object_get(roles, dut);
	d = json_object_get(in->dut, "window");
	in->sink_window_s = zc_derive_num(sink, "window_s");
	in->sink_bytes = zc_derive_num(sink, "bytes");
	in->dut_window_s = zc_derive_num(d, "window_s");
	in->dut_bytes = zc_derive_num(d, "bytes");
	in->dut_busy_s = zc_derive_num(d, "busy_s");
	/* Every core that did the DUT's work: its workers' (the role's busy_s
	 * sums them) and the CPUs its NIC's IRQs were pinned to, outside them. */
	if (isfinite(zc_derive_num(sample, "dut_irq_busy_s")))
		in->dut_busy_s += zc_derive_num(sample, "dut_irq_busy_s");
	in->sink_conns = json_object_get(json_object_get(roles, "sink"), "connections");
	/* Request/response: per byte is per verified response byte (the payload),
	 * whatever the DUT counts itself (both directions, heads; a peer program
	 * some of its sockets). */
	if (sink == json_object_get(json_object_get(roles, "source"), "window") && d)
		in->dut_bytes = in->sink_bytes * in->dut_window_s / in->sink_window_s;
	in->dut_calls = zc_derive_num(d, "calls");
	in->dut_rusage_s = zc_derive_num(d, "rusage_user_s") + zc_derive_num(d, "rusage_sys_s");
	if (!d) {
		/* A foreign DUT reports nothing: use the controller's view. */
		in->dut_window_s = duration_s;
		in->dut_busy_s = zc_derive_num(sample, "controller_dut_busy_s");
		in->dut_bytes = in->sink_bytes;
	}
}

/* Rows with optional set only when only_optional; a figure that is not
 * finite is null, or absent for an optional metric. */
static void derive_rows(const struct zc_derive_in *in, bool only_optional)
{
	zc_for_each_metric(m) {
		double v;

		if (only_optional && !m->optional)
			continue;
		v = m->derive ? m->derive(in) : m->source ? zc_derive_at(in->dut, m->source) : NAN;
		if (isfinite(v))
			json_object_set_new(in->sample, m->key, json_real(v));
		else if (!m->optional)
			json_object_set_new(in->sample, m->key, json_null());
	}
}

void zc_counters_sample_metrics(json_t *sample, json_t *roles, const char *dut)
{
	struct zc_derive_in in;

	derive_in(&in, sample, roles, dut, NAN);
	derive_rows(&in, true);
}

void zc_sample_derive(json_t *sample, int dut, double duration_s)
{
	struct zc_derive_in in;

	derive_in(&in, sample, json_object_get(sample, "roles"), zc_role_names[dut], duration_s);
	derive_rows(&in, false);
}
