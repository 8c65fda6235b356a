// SPDX-License-Identifier: GPL-2.0
/*
 * Where a run's workers go: every role's workers on CPUs (hwloc, lib/cpu.c),
 * the DUT on its NIC's NUMA node, the controller kept off the DUT's CPUs,
 * the file descriptor limit raised for the run's connections, and what the
 * host does for the placement (IRQs, steering: transport/placement.c). The
 * run's "placement" object says all of it.
 */
#include "run/controller.h"
#include "metrics/metrics.h"
#include "metrics/figures.h"
#include "wire/wire.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

/*
 * Keep the controller (its poll wake-ups, its /proc/stat reads at the edges)
 * off the DUT's CPUs, so nothing of the harness runs there in the window.
 */
int zc_run_avoid_cpus(struct zc_ctl *c, const struct zc_placement *pl, int dut)
{
	cpu_set_t set;

	if (!c->affinity_ok || pl->cpu[dut] < 0)
		return -1;
	set = c->affinity;
	for (int w = 0; w < pl->nworkers[dut]; w++)
		CPU_CLR(pl->wcpu[dut][w], &set);
	if (!CPU_COUNT(&set) || sched_setaffinity(0, sizeof(set), &set))
		return -1;
	return 0;
}

/* The run ends before its samples: status and reason, no samples. */
static int end_run(json_t *run, const char *status, const char *reason)
{
	json_t *samples = json_array();

	json_object_set_new(run, "status", json_string(status));
	json_object_set_new(run, "reason", json_string(reason));
	json_object_set_new(run, "samples", samples);
	json_object_set_new(run, "summary", zc_run_summary(samples));
	return -1;
}

static json_t *role_json(const struct zc_ctl *c, const struct zc_placement *pl, int r)
{
	json_t *o, *cpus;

	if (zc_host_remote(&c->host, r) && c->host.cpu[r] < 0)
		return json_pack("{s:n,s:s}", "cpu", "placed_by",
				 "the role, on its own host (see its report)");
	o = json_pack("{s:i,s:i,s:i,s:i}", "cpu", pl->cpu[r], "core", pl->core[r], "numa_node",
		      pl->node[r], "workers", pl->nworkers[r]);
	cpus = json_array();
	for (int w = 0; w < pl->nworkers[r]; w++)
		json_array_append_new(cpus, json_integer(pl->wcpu[r][w]));
	json_object_set_new(o, "cpus", cpus);
	return o;
}

int zc_run_place(struct zc_ctl *c, const struct zc_cfg *cfg, struct zc_placement *pl, json_t *run)
{
	int dut = zc_cfg_dut(cfg), dut_node, ret;
	int want[ZC_ROLE_NR];
	char why[256];
	json_t *place, *nofile;

	dut_node = zc_host_dut_node(&c->host, dut, why, sizeof(why));
	if (dut_node == -EOPNOTSUPP)
		return end_run(run, "unavailable", why);
	for (int r = 0; r < ZC_ROLE_NR; r++)
		want[r] = r == ZC_ROLE_PROXY && cfg->topology == ZC_TOPO_DIRECT ? -1
			: zc_cfg_role_workers(cfg, r);
	/* A worker without a connection would idle: never more than connections. */
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (want[r] > cfg->connections)
			want[r] = (int)cfg->connections;
	ret = zc_place_workers(dut, c->host.cpu, dut_node, want, cfg->smt, (int)cfg->connections, pl);
	if (ret == -ERANGE)
		return end_run(run, "failed", "placement: more workers than usable cores");
	if (ret)
		return end_run(run, "failed", "placement: hwloc found no cores");
	place = json_object();
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (r != ZC_ROLE_PROXY || cfg->topology == ZC_TOPO_PROXY)
			json_object_set_new(place, zc_role_names[r], role_json(c, pl, r));
	json_object_set_new(place, "dut_alone", json_boolean(pl->dut_alone));
	json_object_set_new(place, "others_share", json_boolean(pl->others_share));
	json_object_set_new(place, "smt", json_boolean(pl->smt));
	json_object_set_new(place, "usable_cpus", json_integer(pl->ncores));
	json_object_set_new(place, "controller_off_dut_cpu",
			    json_boolean(!zc_host_remote(&c->host, dut) && zc_run_avoid_cpus(c, pl, dut) == 0));
	json_object_set_new(place, "note", json_string(pl->note));
	json_object_set_new(place, "policy", json_string(why));
	json_object_set_new(place, "dut_numa_node_wanted", json_integer(dut_node));
	/* Roles started here inherit the controller's limit (they raise their own too). */
	zc_wire_nofile(cfg->connections, &nofile, why, sizeof(why));
	json_object_set_new(place, "rlimit_nofile", nofile ?: json_null());
	json_object_set_new(run, "placement", place);
	return 0;
}

int zc_cpu_edge_read(struct zc_cpu_edge *e)
{
	int n = zc_cpustat_read_all(e->cs, e->ok, ZC_EDGE_CPUS);

	if (n < 0)
		return n;
	e->n = n;
	if (zc_softirqs_read(e->net_rx, e->net_tx, ZC_EDGE_CPUS) < 0) {
		memset(e->net_rx, 0, sizeof(e->net_rx));
		memset(e->net_tx, 0, sizeof(e->net_tx));
	}
	return 0;
}

bool zc_has_cpu(const int *v, int n, int cpu)
{
	for (int i = 0; i < n; i++)
		if (v[i] == cpu)
			return true;
	return false;
}

/* Which roles have a worker on cpu: "proxy", "source+sink", or NULL. */
static const char *cpu_roles(const struct zc_placement *pl, int cpu, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = 0;
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (zc_has_cpu(pl->wcpu[r], pl->nworkers[r], cpu) && k < len)
			k += snprintf(buf + k, len - k, "%s%s", k ? "+" : "", zc_role_names[r]);
	return k ? buf : NULL;
}

void zc_cpu_edges_json(json_t *sample, const struct zc_cpu_edge *a, const struct zc_cpu_edge *b,
		       const struct zc_ctl *c, const struct zc_placement *pl, int dut,
		       double window_s)
{
	json_t *per = json_object();
	double dut_busy = 0, irq_busy = 0, elsewhere = 0;
	bool dut_ok = true;

	for (int cpu = 0; cpu < a->n && cpu < b->n; cpu++) {
		struct zc_cpustat d;
		uint64_t rx = b->net_rx[cpu] - a->net_rx[cpu], tx = b->net_tx[cpu] - a->net_tx[cpu];
		bool is_dut = zc_has_cpu(pl->wcpu[dut], pl->nworkers[dut], cpu);
		char roles[64], key[16];
		const char *who = cpu_roles(pl, cpu, roles, sizeof(roles));

		if (!a->ok[cpu] || !b->ok[cpu]) {
			dut_ok &= !is_dut;
			continue;
		}
		zc_cpustat_delta(&a->cs[cpu], &b->cs[cpu], &d);
		if (is_dut)
			dut_busy += zc_cpustat_busy(&d);
		else if (!who && zc_has_cpu(c->host.irq_cpus, c->host.nirq_cpus, cpu))
			irq_busy += d.irq + d.softirq;	/* the DUT NIC's interrupts, pinned there */
		else if (!who)
			elsewhere += d.softirq;
		snprintf(key, sizeof(key), "%d", cpu);
		if (d.softirq > 0 || rx || tx)
			json_object_set_new(per, key,
					    json_pack("{s:f,s:f,s:I,s:I,s:s?}", "softirq_s", d.softirq,
						      "irq_s", d.irq, "net_rx", (json_int_t)rx,
						      "net_tx", (json_int_t)tx, "roles", who));
	}
	if (dut_ok)
		json_object_set_new(sample, "controller_dut_busy_s", json_real(dut_busy));
	json_object_set_new(sample, "dut_irq_busy_s", json_real(irq_busy));
	json_object_set_new(sample, "softirq_elsewhere_s", json_real(elsewhere));
	json_object_set_new(sample, "softirq_landed_elsewhere",
			    json_boolean(zc_fig_busy_cores(elsewhere, window_s) > 0.05));
	json_object_set_new(sample, "cpu_softirq", per);
}
