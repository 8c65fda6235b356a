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

int zc_cpustat_read_all(struct zc_cpustat *out, bool *ok, int max)
{
	double hz = sysconf(_SC_CLK_TCK);
	char *s = zc_read_file("/proc/stat", 1 << 20, NULL), *line, *save;
	int top = 0;

	if (!s)
		return -errno;
	memset(out, 0, sizeof(*out) * max);
	memset(ok, 0, sizeof(*ok) * max);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v[8];
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu < 0 || cpu >= max)
			continue;
		out[cpu] = (struct zc_cpustat){ v[0] / hz, v[1] / hz, v[2] / hz, v[3] / hz,
						v[4] / hz, v[5] / hz, v[6] / hz, v[7] / hz };
		ok[cpu] = true;
		if (cpu + 1 > top)
			top = cpu + 1;
	}
	free(s);
	return top;
}

int zc_softirqs_read(uint64_t *net_rx, uint64_t *net_tx, int max)
{
	char *s = zc_read_file("/proc/softirqs", 1 << 20, NULL), *line, *save;
	int col[1024], ncol = 0, top = 0;

	if (!s)
		return -errno;
	memset(net_rx, 0, sizeof(*net_rx) * max);
	memset(net_tx, 0, sizeof(*net_tx) * max);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t *dst = strstr(line, "NET_RX:") ? net_rx : strstr(line, "NET_TX:") ? net_tx : NULL;
		char *p = strchr(line, ':');

		/* The header names the CPUs of the columns (online ones only). */
		if (!ncol)
			for (char *q = line; (q = strstr(q, "CPU")) && ncol < 1024; q += 3)
				col[ncol++] = atoi(q + 3);
		if (!dst || !p)
			continue;
		p++;
		for (int c = 0; c < ncol; c++) {
			uint64_t v = strtoull(p, &p, 10);

			if (col[c] >= 0 && col[c] < max) {
				dst[col[c]] = v;
				if (col[c] + 1 > top)
					top = col[c] + 1;
			}
		}
	}
	free(s);
	return top;
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

int zc_cpu_mask(const int *cpus, int n, char *buf, size_t len)
{
	uint32_t words[128] = { 0 };
	int top = 0;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= 32 * 128)
			continue;
		words[cpus[i] / 32] |= 1u << (cpus[i] % 32);
		if (cpus[i] / 32 > top)
			top = cpus[i] / 32;
	}
	/* Most significant word first, the first one without leading zeros. */
	for (int g = top; g >= 0; g--) {
		int w = snprintf(buf + k, len > k ? len - k : 0, g == top ? "%x" : ",%08x", words[g]);

		if (w < 0 || k + w >= len)
			return -E2BIG;
		k += w;
	}
	return 0;
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

int zc_usable_cpus(bool smt, int *cpus, int max)
{
	hwloc_topology_t topo;
	int ncores, n = 0;

	if (hwloc_topology_init(&topo) || hwloc_topology_load(topo))
		return -ENODEV;
	ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	for (int i = 0; i < ncores && n < max; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, i);
		int npu = hwloc_get_nbobjs_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU);

		for (int k = 0; k < (smt ? npu : 1) && n < max; k++) {
			hwloc_obj_t pu = hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset,
									      HWLOC_OBJ_PU, k);

			if (pu)
				cpus[n++] = pu->os_index;
		}
	}
	hwloc_topology_destroy(topo);
	return n ? n : -ENODEV;
}

static int index_of(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return i;
	return -1;
}

/* The DUT's CPUs: from the end of the list, its NUMA node first. */
static void place_dut(const int *cpus, int ncpus, int n, int dut_node, int *out)
{
	int k = 0;

	for (int pass = 0; pass < 2 && k < n; pass++)
		for (int i = ncpus - 1; i >= 0 && k < n; i--) {
			bool on_node = dut_node < 0 || zc_cpu_node(cpus[i]) == dut_node;

			if ((pass == 0) == on_node && index_of(out, k, cpus[i]) < 0)
				out[k++] = cpus[i];
		}
}

int zc_place_workers(enum zc_role dut, const int forced[ZC_ROLE_NR], int dut_node,
		     const int want[ZC_ROLE_NR], bool smt, int auto_cap, struct zc_placement *p)
{
	int cpus[1024], ncpus, free_[1024], nfree = 0, nother = 0, next = 0, len = 0;

	memset(p, 0, sizeof(*p));
	ncpus = zc_usable_cpus(smt, cpus, ZC_ARRAY_SIZE(cpus));
	if (ncpus < 0)
		return ncpus;
	p->ncores = ncpus;
	p->smt = smt;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		p->nworkers[r] = want[r] < 0 ? 0 : want[r];
		if (want[r] >= 0 && r != (int)dut)
			nother++;
	}
	if (p->nworkers[dut] < 1)
		p->nworkers[dut] = 1;
	if (p->nworkers[dut] > ncpus || p->nworkers[dut] > ZC_WORKERS_MAX)
		return -ERANGE;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		bool f = forced && forced[r] >= 0;
		int at = f ? index_of(cpus, ncpus, forced[r]) : -1;

		if (r != (int)dut || !p->nworkers[r])
			continue;
		if (f)	/* by hand: the first where asked, the next ones after it */
			for (int w = 0; w < p->nworkers[r]; w++)
				p->wcpu[r][w] = w == 0 || at < 0 ? forced[r] : cpus[(at + w) % ncpus];
		else
			place_dut(cpus, ncpus, p->nworkers[r], dut_node, p->wcpu[r]);
	}
	for (int i = 0; i < ncpus; i++)
		if (index_of(p->wcpu[dut], p->nworkers[dut], cpus[i]) < 0)
			free_[nfree++] = cpus[i];
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		bool f = forced && forced[r] >= 0;
		int at = f ? index_of(cpus, ncpus, forced[r]) : -1;

		if (r == (int)dut || want[r] < 0)
			continue;
		if (!p->nworkers[r]) {
			/* As many as the cores the DUT leaves allow, shared fairly. */
			int n = nother ? nfree / nother : 0;

			p->nworkers[r] = n < 1 ? 1 : n > auto_cap && auto_cap > 0 ? auto_cap : n;
		}
		if (p->nworkers[r] > ZC_WORKERS_MAX)
			p->nworkers[r] = ZC_WORKERS_MAX;
		for (int w = 0; w < p->nworkers[r]; w++) {
			if (f)
				p->wcpu[r][w] = w == 0 || at < 0 ? forced[r] : cpus[(at + w) % ncpus];
			else if (nfree)
				p->wcpu[r][w] = free_[next++ % nfree];
			else	/* nothing left: the DUT's cores, and the results say so */
				p->wcpu[r][w] = p->wcpu[dut][next++ % p->nworkers[dut]];
		}
	}
	p->dut_alone = true;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		p->cpu[r] = p->nworkers[r] ? p->wcpu[r][0] : -1;
		p->core[r] = p->nworkers[r] ? index_of(cpus, ncpus, p->cpu[r]) : -1;
		p->node[r] = p->nworkers[r] ? zc_cpu_node(p->cpu[r]) : -1;
		for (int w = 0; w < p->nworkers[r]; w++) {
			int c = p->wcpu[r][w];

			if (r != (int)dut && index_of(p->wcpu[dut], p->nworkers[dut], c) >= 0)
				p->dut_alone = false;
			if (r == (int)dut && index_of(p->wcpu[r], w, c) >= 0)
				p->dut_alone = false;	/* two DUT workers on one CPU (forced) */
			for (int q = 0; q < ZC_ROLE_NR; q++)
				if (q != (int)dut && q != r && r != (int)dut &&
				    index_of(p->wcpu[q], p->nworkers[q], c) >= 0)
					p->others_share = true;
		}
	}
	len = snprintf(p->note, sizeof(p->note), "%d usable CPU(s) (%s); %s", ncpus,
		       smt ? "smt on: every PU" : "one PU per physical core",
		       p->dut_alone ? "device under test alone on its core(s)"
				    : "device under test shares its core(s) (not enough cores)");
	if (p->others_share && len > 0 && (size_t)len < sizeof(p->note))
		snprintf(p->note + len, sizeof(p->note) - len, "; the other roles share cores");
	return 0;
}
