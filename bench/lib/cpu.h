/* SPDX-License-Identifier: GPL-2.0 */
/* Per-CPU and per-process accounting, placement and NUMA buffers. */
#ifndef ZC_SYS_H
#define ZC_SYS_H

#include "lib/zcbench.h"

#include <sys/resource.h>

/* One /proc/stat cpuN line, in seconds. */
struct zc_cpustat {
	double user, nice, system, idle, iowait, irq, softirq, steal;
};

int zc_cpustat_read(int cpu, struct zc_cpustat *out); /* 0 or -errno */
void zc_cpustat_delta(const struct zc_cpustat *a, const struct zc_cpustat *b,
		      struct zc_cpustat *d);
/* user+nice+system+irq+softirq: what the core spent on the workload. */
double zc_cpustat_busy(const struct zc_cpustat *d);

/* Every CPU's /proc/stat line (index = CPU number, absent ones zeroed, ok[c]
 * set for those present): highest CPU + 1, or -errno. */
int zc_cpustat_read_all(struct zc_cpustat *out, bool *ok, int max);
/* Per CPU NET_RX and NET_TX softirq counts from /proc/softirqs: CPUs read,
 * or -errno. */
int zc_softirqs_read(uint64_t *net_rx, uint64_t *net_tx, int max);

/* The sysfs mask of cpus[0..n) ("4" for CPU 2, "1,00000000" for CPU 32), as
 * rps_cpus and xps_cpus take it. 0, or -E2BIG. */
int zc_cpu_mask(const int *cpus, int n, char *buf, size_t len);

int zc_pin_cpu(int cpu);	/* 0 or -errno */
int zc_cpu_node(int cpu);	/* NUMA node of cpu, 0 if unknown */
/* Page-aligned, on the NUMA node of cpu when libnuma works; node in *node. */
void *zc_buf_alloc(size_t len, int cpu, int *node);
void zc_buf_free(void *p, size_t len);

/*
 * Placement of the roles' workers on CPUs (hwloc). Each worker of a role gets
 * its own CPU from the usable list: one PU per physical core (smt off: the
 * siblings stay idle), or every PU with siblings adjacent (smt on). The
 * device under test takes the last ones (core 0 tends to carry housekeeping
 * and unpinned interrupts), on its NIC's NUMA node first; the other roles
 * share what is left, and the DUT's CPUs when nothing is left (dut_alone
 * says so).
 */
#define ZC_WORKERS_MAX 256

struct zc_placement {
	int cpu[ZC_ROLE_NR];		/* worker 0's CPU */
	int core[ZC_ROLE_NR];		/* its index in the usable list, -1 unknown */
	int node[ZC_ROLE_NR];
	int ncores;			/* usable CPUs (smt off: physical cores) */
	bool smt;
	int nworkers[ZC_ROLE_NR];	/* 0: the role is not in the run */
	int wcpu[ZC_ROLE_NR][ZC_WORKERS_MAX];	/* CPU of each worker */
	bool dut_alone;			/* no other role's worker on a DUT CPU */
	bool others_share;		/* two workers of the other roles share a CPU */
	char note[256];
};
/* The usable CPUs in placement order: count, or -ENODEV without a topology. */
int zc_usable_cpus(bool smt, int *cpus, int max);
/*
 * want[r]: workers of role r (> 0), 0 for "as many as the cores left by the
 * DUT allow" (at most auto_cap, at least 1), -1 when r is not in the run.
 * forced[r] >= 0 puts r's first worker on that CPU (the next ones follow it in
 * the usable list); NULL: none. dut_node: the DUT's NUMA node (-1: any).
 * 0, -ENODEV (no topology) or -ERANGE (more DUT workers than usable CPUs).
 */
int zc_place_workers(enum zc_role dut, const int forced[ZC_ROLE_NR], int dut_node,
		     const int want[ZC_ROLE_NR], bool smt, int auto_cap, struct zc_placement *p);

#endif
