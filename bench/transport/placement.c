// SPDX-License-Identifier: GPL-2.0
/* The DUT and its NIC; the NUMA node it goes on, and the NIC IRQs pinned as irq_cpu asks (restored, also after a killed controller). */
#include "transport/host.h"
#include "transport/steer_int.h"
#include "lib/ini.h"
#include "transport/nic.h"
#include "lib/cpu.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <numa.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The interface the DUT uses, known here: named in the host file (or by
 * the transport), else the one holding its address in this namespace. */
static const char *dut_iface(const struct zc_host *h, int dut, char *buf, size_t len)
{
	if (zc_host_remote(h, dut))
		return NULL;
	if (h->iface[dut][0])
		return h->iface[dut];
	if (!h->transport->own_netns && !zc_nic_of_addr(h->address[dut], buf, len))
		return buf;
	return NULL;
}

int zc_host_dut_node(const struct zc_host *h, int dut, char *why, size_t len)
{
	char buf[IF_NAMESIZE];
	const char *ifn = dut_iface(h, dut, buf, sizeof(buf));
	int nic_node = ifn ? zc_nic_numa_node(ifn) : -1;
	int nodes = numa_available() < 0 ? 1 : numa_num_configured_nodes();

	why[0] = 0;
	if (!h->placement) {
		snprintf(why, len, "local: %s%s%s", ifn ? ifn : "NIC unknown",
			 nic_node >= 0 ? " on NUMA node " : " has no NUMA locality (virtual or unknown)",
			 "");
		if (nic_node >= 0)
			snprintf(why + strlen(why), len - strlen(why), "%d", nic_node);
		return nic_node;
	}
	if (nodes < 2) {
		snprintf(why, len, "placement = remote: not applicable, this machine has one NUMA node");
		return -EOPNOTSUPP;
	}
	if (nic_node < 0) {
		snprintf(why, len, "placement = remote: not applicable, %s has no NUMA locality",
			 ifn ? ifn : "the DUT's NIC");
		return -EOPNOTSUPP;
	}
	/* Any node but the NIC's: the cross-node penalty is what is asked for. */
	for (int n = 0; n < nodes; n++)
		if (n != nic_node && numa_bitmask_isbitset(numa_all_nodes_ptr, n)) {
			snprintf(why, len, "remote: DUT on node %d, %s on node %d", n, ifn, nic_node);
			return n;
		}
	snprintf(why, len, "placement = remote: no other node has memory");
	return -EOPNOTSUPP;
}

/* The CPU irq_cpu names, relative to the DUT's CPU; -errno with why. */
static int irq_target(const struct zc_host *h, int dut_cpu, char *why, size_t len)
{
	long n;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF);

	if (!zc_parse_long(h->irq_cpu, &n))
		return (int)n;
	if (!strcmp(h->irq_cpu, "same") || !strcmp(h->irq_cpu, "workers"))
		return dut_cpu;
	for (int c = 0; c < ncpu; c++) {
		char path[128], buf[64];
		long core_a, core_b;

		if (c == dut_cpu)
			continue;
		if (!strcmp(h->irq_cpu, "other-node")) {
			if (zc_cpu_node(c) != zc_cpu_node(dut_cpu))
				return c;
			continue;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", c);
		if (zc_read_file_trim(path, buf, sizeof(buf)) || zc_parse_long(buf, &core_b))
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", dut_cpu);
		if (zc_read_file_trim(path, buf, sizeof(buf)) || zc_parse_long(buf, &core_a))
			continue;
		if (core_a == core_b && zc_cpu_node(c) == zc_cpu_node(dut_cpu))
			return c;
	}
	snprintf(why, len, "irq_cpu = %s: not applicable, CPU %d has no %s", h->irq_cpu, dut_cpu,
		 !strcmp(h->irq_cpu, "sibling") ? "SMT sibling" : "CPU on another NUMA node");
	return -EOPNOTSUPP;
}

/*
 * Pinned affinities are also written to zc_state_dir()/irq-PID before they
 * change, so a controller killed by SIGKILL cannot leave them changed for
 * good: the next run restores them (zc_host_irqs_reap_stale).
 */

static void irq_state_path(char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/irq-%ld", zc_state_dir(), pid);
}

static void irq_state_save(const struct zc_host *h)
{
	char path[128];
	FILE *f;

	mkdir(zc_state_dir(), 0755);
	irq_state_path(path, sizeof(path), getpid());
	if (!(f = fopen(path, "we")))
		return;
	for (int i = 0; i < h->nirq_saved; i++)
		fprintf(f, "%d %s\n", h->irq_saved[i].irq, h->irq_saved[i].affinity);
	fclose(f);
}

int zc_host_irqs_reap_stale(void)
{
	DIR *d = opendir(zc_state_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], aff[256], irqpath[64];
		long pid;
		int irq;
		FILE *f;

		if (sscanf(e->d_name, "irq-%ld", &pid) != 1 || pid == getpid())
			continue;
		if (zc_pid_is_zcbench(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", zc_state_dir(), e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		while (fscanf(f, "%d %255s", &irq, aff) == 2) {
			snprintf(irqpath, sizeof(irqpath), "/proc/irq/%d/smp_affinity_list", irq);
			if (!zc_write_str(irqpath, aff))
				n++;
		}
		fclose(f);
		unlink(path);
		rmdir(zc_state_dir());
		zc_warn("restored IRQ affinities left pinned by a dead zcbench (pid %ld)", pid);
	}
	closedir(d);
	return n;
}

static json_t *irqs_pin(struct zc_host *h, int dut, const struct zc_placement *pl)
{
	char buf[IF_NAMESIZE], why[256] = "", cpu_s[16];
	const char *ifn;
	int irqs[64], n, target;
	json_t *list, *o;

	if (!h->irq_cpu[0])
		return json_null();
	o = json_object();
	json_object_set_new(o, "requested", json_string(h->irq_cpu));
	ifn = dut_iface(h, dut, buf, sizeof(buf));
	if (!ifn) {
		snprintf(why, sizeof(why), "irq_cpu: the DUT's NIC is not known here (name interface =)");
		goto out;
	}
	n = zc_nic_irqs(ifn, irqs, 64);
	if (n <= 0) {
		snprintf(why, sizeof(why), "irq_cpu: not applicable, %s has no IRQs%s", ifn,
			 zc_nic_is_virtual(ifn) ? " (virtual device)" : "");
		goto out;
	}
	target = irq_target(h, pl->cpu[dut], why, sizeof(why));
	if (target < 0)
		goto out;
	snprintf(cpu_s, sizeof(cpu_s), "%d", target);
	json_object_set_new(o, "interface", json_string(ifn));
	json_object_set_new(o, "cpu", json_integer(target));
	zc_host_irqs_reap_stale();
	for (int i = 0; i < n && h->nirq_saved < (int)ZC_ARRAY_SIZE(h->irq_saved); i++) {
		struct zc_irq_save *s = &h->irq_saved[h->nirq_saved];
		char path[128];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irqs[i]);
		if (zc_read_file_trim(path, s->affinity, sizeof(s->affinity)))
			continue;
		s->irq = irqs[i];
		h->nirq_saved++;
	}
	irq_state_save(h);
	list = json_array();
	h->nirq_cpus = 0;
	for (int i = 0; i < h->nirq_saved; i++) {
		char path[128];
		int ret;

		/* workers: the NIC's queues' IRQs round-robin over the DUT's workers. */
		if (!strcmp(h->irq_cpu, "workers"))
			snprintf(cpu_s, sizeof(cpu_s), "%d", pl->wcpu[dut][i % pl->nworkers[dut]]);
		if (h->nirq_cpus < (int)ZC_ARRAY_SIZE(h->irq_cpus))
			h->irq_cpus[h->nirq_cpus++] = atoi(cpu_s);
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", h->irq_saved[i].irq);
		/* Some vectors (a virtio config IRQ, managed IRQs) refuse: say which. */
		ret = zc_write_str(path, cpu_s);
		json_array_append_new(list, json_pack("{s:i,s:s,s:s,s:s*}", "irq", h->irq_saved[i].irq,
						      "affinity", cpu_s,
						      "previous_affinity", h->irq_saved[i].affinity,
						      "error", ret ? strerror(-ret) : NULL));
		if (ret && !why[0])
			snprintf(why, sizeof(why), "irq %d: %s", h->irq_saved[i].irq, strerror(-ret));
	}
	json_object_set_new(o, "irqs", list);
out:
	json_object_set_new(o, "applied", json_boolean(!why[0]));
	json_object_set_new(o, "note", why[0] ? json_string(why) : json_null());
	return o;
}

void zc_host_run_begin(struct zc_host *h, int dut, const struct zc_placement *pl, json_t *place)
{
	char buf[IF_NAMESIZE];

	zc_steer_reap_stale();
	json_object_set_new(place, "irqs", irqs_pin(h, dut, pl));
	/* Namespaces steer their veths (transport); a host's own NIC is steered here. */
	if (h->transport->placed)
		h->transport->placed(h, pl, place);
	else
		json_object_set_new(place, "steering", zc_steer_local(h, dut, pl,
								      dut_iface(h, dut, buf, sizeof(buf))));
}

void zc_host_run_end(struct zc_host *h)
{
	zc_host_irqs_restore(h);
	zc_steer_restore();
	h->nirq_cpus = 0;
}

void zc_host_irqs_restore(struct zc_host *h)
{
	for (int i = 0; i < h->nirq_saved; i++) {
		char path[128];

		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", h->irq_saved[i].irq);
		if (zc_write_str(path, h->irq_saved[i].affinity))
			zc_warn("could not restore IRQ %d affinity to %s", h->irq_saved[i].irq,
				h->irq_saved[i].affinity);
	}
	if (h->nirq_saved) {
		char path[128];

		irq_state_path(path, sizeof(path), getpid());
		unlink(path);
		rmdir(zc_state_dir());	/* only when no other run's state is in it */
	}
	h->nirq_saved = 0;
}
