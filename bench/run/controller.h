/* SPDX-License-Identifier: GPL-2.0 */
/* Inside zcbench run: the controller's state, shared by run.c and sample.c. */
#ifndef ZC_CONTROLLER_H
#define ZC_CONTROLLER_H

#include "config/cfg.h"
#include "lib/cpu.h"
#include "transport/host.h"

#include <jansson.h>
#include <sched.h>

struct zc_ctl {
	struct zc_host host;
	const char *outdir;
	char path[1024];
	json_t *root;
	bool tty;
	const char *role_exec[ZC_ROLE_NR];	/* --exec-ROLE: a foreign program as the role */
	char quoted[8192];			/* the role command as one string (ssh) */
	cpu_set_t affinity;			/* the controller's own, restored at the end */
	bool affinity_ok;
	struct zc_watch *watch;			/* --profile, --interval, --progress, --json-stream (watch.h) */
	/* rescue.c: the results file's last write (0 or -errno), failed writes,
	 * and the samples in it when it last succeeded. */
	int save_err, save_failures;
	long saved_samples;
};

/* place.c: the run's placement, once up front (into run's "placement"; the
 * host's steering is begun around each sample): 0, or -1 when the run ends here (its status and reason set). */
int zc_run_place(struct zc_ctl *c, const struct zc_cfg *cfg, struct zc_placement *pl, json_t *run);
/* Keep the controller off the DUT's worker CPUs: 0, or -1 when it cannot. */
int zc_run_avoid_cpus(struct zc_ctl *c, const struct zc_placement *pl, int dut);
/* Is cpu one of the n in v? */
bool zc_has_cpu(const int *v, int n, int cpu);

/* Every CPU's /proc/stat and NET softirq counts at a window edge, read by
 * the controller from its own CPU. */
#define ZC_EDGE_CPUS 1024
struct zc_cpu_edge {
	int n;
	struct zc_cpustat cs[ZC_EDGE_CPUS];
	bool ok[ZC_EDGE_CPUS];
	uint64_t net_rx[ZC_EDGE_CPUS], net_tx[ZC_EDGE_CPUS];
};
int zc_cpu_edge_read(struct zc_cpu_edge *e);	/* 0 or -errno */
/*
 * The controller's view of the window [a, b] into sample: the DUT's busy
 * seconds over its worker CPUs (controller_dut_busy_s), the NIC IRQ CPUs' irq
 * and softirq time outside every worker CPU (dut_irq_busy_s), softirq work
 * per CPU (cpu_softirq) and how much of it ran on no role's CPU
 * (softirq_elsewhere_s, flagged past 5% of a core).
 */
void zc_cpu_edges_json(json_t *sample, const struct zc_cpu_edge *a, const struct zc_cpu_edge *b,
		       const struct zc_ctl *c, const struct zc_placement *pl, int dut,
		       double window_s);

/* One repetition: a new set of role processes and connections; the sample's
 * JSON (status, reason, the role reports, derived metrics). */
json_t *zc_run_sample(struct zc_ctl *c, const struct zc_cfg *cfg, int rep,
		      const struct zc_placement *pl);

#endif
