// SPDX-License-Identifier: GPL-2.0
#include "lib/cpu.h"

#include <errno.h>
#include <hwloc.h>
#include <numa.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int zc_cpustat_read(int cpu, struct zc_cpustat *out)
{
	char want[32], *s, *line;
	unsigned long long v[8] = { 0 };
	double hz = sysconf(_SC_CLK_TCK);
	int n = snprintf(want, sizeof(want), "cpu%d ", cpu);

	s = zc_read_file("/proc/stat", 1 << 20, NULL);
	if (!s)
		return -errno;
	line = strstr(s, want);
	if (!line || sscanf(line + n, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			    &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8) {
		free(s);
		return -ENOENT;
	}
	free(s);
	out->user = v[0] / hz;
	out->nice = v[1] / hz;
	out->system = v[2] / hz;
	out->idle = v[3] / hz;
	out->iowait = v[4] / hz;
	out->irq = v[5] / hz;
	out->softirq = v[6] / hz;
	out->steal = v[7] / hz;
	return 0;
}

void zc_cpustat_delta(const struct zc_cpustat *a, const struct zc_cpustat *b,
		      struct zc_cpustat *d)
{
	d->user = b->user - a->user;
	d->nice = b->nice - a->nice;
	d->system = b->system - a->system;
	d->idle = b->idle - a->idle;
	d->iowait = b->iowait - a->iowait;
	d->irq = b->irq - a->irq;
	d->softirq = b->softirq - a->softirq;
	d->steal = b->steal - a->steal;
}

double zc_cpustat_busy(const struct zc_cpustat *d)
{
	return d->user + d->nice + d->system + d->irq + d->softirq;
}

int zc_pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int zc_cpu_node(int cpu)
{
	int node;

	if (numa_available() < 0)
		return 0;
	node = numa_node_of_cpu(cpu);
	return node < 0 ? 0 : node;
}

void *zc_buf_alloc(size_t len, int cpu, int *node)
{
	void *p;

	*node = -1;
	if (cpu >= 0 && numa_available() >= 0) {
		*node = zc_cpu_node(cpu);
		p = numa_alloc_onnode(len, *node);
	} else {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			p = NULL;
	}
	if (p)
		memset(p, 0, len); /* fault every page in before the clock starts */
	return p;
}

void zc_buf_free(void *p, size_t len)
{
	if (!p)
		return;
	if (numa_available() >= 0)
		numa_free(p, len);
	else
		munmap(p, len);
}

int zc_place(enum zc_role dut, const int forced[ZC_ROLE_NR], struct zc_placement *p)
{
	return zc_place_on(dut, forced, -1, p);
}

int zc_place_on(enum zc_role dut, const int forced[ZC_ROLE_NR], int dut_node,
		struct zc_placement *p)
{
	hwloc_topology_t topo;
	int ncores, cpus[256], ncpus = 0, next = 0, dut_core = -1;

	memset(p, 0, sizeof(*p));
	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return -ENODEV;
	ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	for (int i = 0; i < ncores && ncpus < 256; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i);
		hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
								      HWLOC_OBJ_PU, 0);

		if (pu)
			cpus[ncpus++] = pu->os_index;
	}
	hwloc_topology_destroy(topo);
	if (!ncpus)
		return -ENODEV;
	p->ncores = ncpus;
	/*
	 * The device under test takes the last core (core 0 tends to carry
	 * housekeeping and unpinned interrupts) of the wanted NUMA node (the
	 * NIC's, or another one for placement = remote); the other roles share
	 * the other cores, one PU per core, so the DUT's SMT siblings stay idle.
	 */
	for (int i = ncpus - 1; i >= 0 && dut_core < 0; i--)
		if (dut_node < 0 || zc_cpu_node(cpus[i]) == dut_node)
			dut_core = i;
	if (dut_core < 0)
		dut_core = ncpus - 1;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (forced && forced[r] >= 0) {
			p->cpu[r] = forced[r];
			p->core[r] = -1;
			for (int i = 0; i < ncpus; i++)
				if (cpus[i] == forced[r])
					p->core[r] = i;
		} else if (r == (int)dut || ncpus == 1) {
			p->core[r] = dut_core;
		} else {
			int k = next++ % (ncpus - 1);

			p->core[r] = k >= dut_core ? k + 1 : k;
		}
		if (!forced || forced[r] < 0)
			p->cpu[r] = cpus[p->core[r]];
		p->node[r] = zc_cpu_node(p->cpu[r]);
	}
	p->dut_alone = true;
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (r != (int)dut && p->cpu[r] == p->cpu[dut])
			p->dut_alone = false;
	snprintf(p->note, sizeof(p->note), "%d physical core(s); %s", ncpus,
		 p->dut_alone ? "device under test alone on its core"
			      : "device under test shares its core (not enough cores)");
	return 0;
}
