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

int zc_pin_cpu(int cpu);	/* 0 or -errno */
int zc_cpu_node(int cpu);	/* NUMA node of cpu, 0 if unknown */
/* Page-aligned, on the NUMA node of cpu when libnuma works; node in *node. */
void *zc_buf_alloc(size_t len, int cpu, int *node);
void zc_buf_free(void *p, size_t len);

/* Placement of the three roles on distinct physical cores (hwloc). */
struct zc_placement {
	int cpu[ZC_ROLE_NR];
	int core[ZC_ROLE_NR];
	int node[ZC_ROLE_NR];
	int ncores;
	bool dut_alone;		/* device under test has its core to itself */
	char note[160];
};
/* 0 or -errno; forced[r] >= 0 pins role r to that CPU. */
int zc_place(enum zc_role dut, const int forced[ZC_ROLE_NR], struct zc_placement *p);
/* The same, with the DUT on a core of NUMA node dut_node (-1: any). */
int zc_place_on(enum zc_role dut, const int forced[ZC_ROLE_NR], int dut_node,
		struct zc_placement *p);

#endif
