// SPDX-License-Identifier: GPL-2.0
/*
 * Steering each connection's network work to its worker's core, and putting
 * every setting back.
 *
 * A worker that owns a connection should also do that connection's receive
 * and transmit work, as a real NIC with one queue per core and RSS or RFS
 * would arrange:
 *   - RFS (net.core.rps_sock_flow_entries, each rx queue's rps_flow_cnt):
 *     the kernel steers a flow's receive processing to the CPU whose thread
 *     last read the socket: the worker's;
 *   - RPS (rps_cpus): receive processing only on the role's worker CPUs;
 *   - XPS (xps_cpus): transmit queue q used by the workers w = q mod queues;
 *   - a real NIC's IRQs spread over the DUT's worker CPUs (irq_cpu = workers,
 *     transport/placement.c).
 * Global or real-NIC settings written here are saved first, in memory and in
 * zc_state_dir()/steer-PID, and written back at the end of the run; a
 * controller killed by SIGKILL leaves that file, and the next run restores
 * what it says (zc_steer_reap_stale). A namespace's own settings go with it.
 */
#include "transport/steer_int.h"
#include "transport/nic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Flows RFS can track host-wide; each rx queue gets its share. */
#define RFS_ENTRIES 32768

struct saved {
	char path[160];
	char value[600];
};

static struct saved saved[256];
static int nsaved;

static void state_path(char *buf, size_t len, long pid)
{
	snprintf(buf, len, "%s/steer-%ld", zc_state_dir(), pid);
}

static void state_save(void)
{
	char path[128];
	FILE *f;

	mkdir(zc_state_dir(), 0755);
	state_path(path, sizeof(path), getpid());
	if (!(f = fopen(path, "we")))
		return;
	for (int i = 0; i < nsaved; i++)
		fprintf(f, "%s %s\n", saved[i].path, saved[i].value);
	fclose(f);
}

/* Write value to path (sysfs, procfs), its old value saved first (once per
 * path) for zc_steer_restore (and a killed controller's successor). 0 or -errno */
static int zc_steer_write(const char *path, const char *value)
{
	int i;

	for (i = 0; i < nsaved && strcmp(saved[i].path, path); i++)
		;
	if (i == nsaved) {
		if (nsaved == (int)ZC_ARRAY_SIZE(saved))
			return -ENOSPC;
		int ret = zc_read_file_trim(path, saved[i].value, sizeof(saved[i].value));

		if (ret)
			return ret;
		snprintf(saved[i].path, sizeof(saved[i].path), "%s", path);
		nsaved++;
		state_save();
	}
	return zc_write_str(path, value);
}

void zc_steer_restore(void)
{
	char path[128];

	for (int i = nsaved - 1; i >= 0; i--)
		if (zc_write_str(saved[i].path, saved[i].value))
			zc_warn("could not restore %s to %s", saved[i].path, saved[i].value);
	if (nsaved) {
		state_path(path, sizeof(path), getpid());
		unlink(path);
		rmdir(zc_state_dir());	/* only when no other run's state is in it */
	}
	nsaved = 0;
}

int zc_steer_reap_stale(void)
{
	DIR *d = opendir(zc_state_dir());
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], p[160], v[600];
		long pid;
		FILE *f;

		if (sscanf(e->d_name, "steer-%ld", &pid) != 1 || pid == getpid())
			continue;
		if (zc_pid_is_zcbench(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", zc_state_dir(), e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		while (fscanf(f, "%159s %599[^\n]", p, v) == 2)
			if (!zc_write_str(p, v))
				n++;
		fclose(f);
		unlink(path);
		zc_warn("restored steering settings left by a dead zcbench (pid %ld)", pid);
	}
	closedir(d);
	rmdir(zc_state_dir());
	return n;
}

/* RFS's host-wide flow table, at least RFS_ENTRIES for the run. */
static json_t *rfs_on(void)
{
	const char *p = "/proc/sys/net/core/rps_sock_flow_entries";
	char cur[32], want[32];
	long n = 0;
	int ret;

	if (zc_read_file_trim(p, cur, sizeof(cur)) || zc_parse_long(cur, &n))
		return json_pack("{s:s}", "error", "no rps_sock_flow_entries (kernel without RPS)");
	if (n >= RFS_ENTRIES)
		return json_pack("{s:I,s:b}", "rps_sock_flow_entries", (json_int_t)n, "changed", 0);
	snprintf(want, sizeof(want), "%d", RFS_ENTRIES);
	ret = zc_steer_write(p, want);
	return ret ? json_pack("{s:s,s:s}", "error", strerror(-ret), "path", p)
		   : json_pack("{s:i,s:I,s:b}", "rps_sock_flow_entries", RFS_ENTRIES,
			       "previous", (json_int_t)n, "changed", 1);
}

/* The workers of a role spread over nq queues: the CPUs of those w = q mod nq. */
static void queue_mask(const struct zc_placement *pl, int r, int q, int nq, char *buf, size_t len)
{
	int cpus[ZC_WORKERS_MAX], n = 0;

	for (int w = q; w < pl->nworkers[r]; w += nq)
		cpus[n++] = pl->wcpu[r][w];
	if (!n)	/* more queues than workers: any of them */
		for (int w = 0; w < pl->nworkers[r]; w++)
			cpus[n++] = pl->wcpu[r][w];
	zc_cpu_mask(cpus, n, buf, len);
}

int zc_steer_queue_writes(const struct zc_placement *pl, int role, const char *dev, int nrx,
			  int ntx, bool rfs, char (*paths)[160], char (*vals)[600], int max)
{
	int k = 0;

	for (int q = 0; q < nrx && k + 2 <= max; q++) {
		snprintf(paths[k], 160, "/sys/class/net/%s/queues/rx-%d/rps_cpus", dev, q);
		zc_cpu_mask(pl->wcpu[role], pl->nworkers[role], vals[k], 600);
		k++;
		if (rfs) {
			snprintf(paths[k], 160, "/sys/class/net/%s/queues/rx-%d/rps_flow_cnt", dev, q);
			snprintf(vals[k], 600, "%d", RFS_ENTRIES / (nrx > 0 ? nrx : 1));
			k++;
		}
	}
	/* XPS needs several transmit queues (the kernel refuses it on one). */
	for (int q = 0; q < ntx && ntx > 1 && k < max; q++) {
		snprintf(paths[k], 160, "/sys/class/net/%s/queues/tx-%d/xps_cpus", dev, q);
		queue_mask(pl, role, q, ntx, vals[k], 600);
		k++;
	}
	return k;
}

json_t *zc_steer_rfs(const struct zc_placement *pl)
{
	for (int r = 0; r < ZC_ROLE_NR; r++)
		if (pl->nworkers[r] > 1)
			return rfs_on();
	return json_null();
}

/* Queues of a NIC from sysfs: rx-N and tx-N directories. */
static void nic_queues(const char *dev, int *nrx, int *ntx)
{
	char path[160];
	struct dirent *e;
	DIR *d;

	*nrx = *ntx = 0;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", dev);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "rx-", 3))
			(*nrx)++;
		else if (!strncmp(e->d_name, "tx-", 3))
			(*ntx)++;
	}
	closedir(d);
}

json_t *zc_steer_local(const struct zc_host *h, int dut, const struct zc_placement *pl,
		       const char *dev)
{
	static char paths[256][160], vals[256][600];
	json_t *o = json_object(), *list;
	int nrx, ntx, n;

	if (!dev || !strcmp(dev, "lo") || zc_nic_is_virtual(dev)) {
		json_object_set_new(o, "method", json_string("none"));
		json_object_set_new(o, "note", json_string(
			"loopback: a send's receive processing runs in softirq on the sending "
			"CPU (netif_rx, then the backlog on the same CPU), so the receive work of a "
			"connection lands on its peer's worker core, not its own; nothing is steered "
			"(RPS on lo would only move it elsewhere). The DUT's busy cores count what "
			"ran on its CPUs: its own sends' receive work for the next role, not its "
			"own receive work. hosts/netns.ini (rps = on) keeps each role's stack on its "
			"own cores."));
		return o;
	}
	if (zc_host_remote(h, dut) || pl->nworkers[dut] < 2) {
		json_object_set_new(o, "method", json_string(pl->nworkers[dut] < 2 ? "none (one worker)"
										   : "none (remote DUT)"));
		return o;
	}
	/* A real NIC: RPS/RFS and XPS over the DUT's workers, IRQs by irq_cpu = workers. */
	nic_queues(dev, &nrx, &ntx);
	json_object_set_new(o, "method", json_string("rfs+xps"));
	json_object_set_new(o, "interface", json_string(dev));
	json_object_set_new(o, "rfs", zc_steer_rfs(pl));
	n = zc_steer_queue_writes(pl, dut, dev, nrx, ntx, true, paths, vals, 256);
	list = json_array();
	for (int i = 0; i < n; i++) {
		int ret = zc_steer_write(paths[i], vals[i]);

		json_array_append_new(list, json_pack("{s:s,s:s,s:s*}", "path", paths[i], "value",
						      vals[i], "error", ret ? strerror(-ret) : NULL));
	}
	json_object_set_new(o, "writes", list);
	json_object_set_new(o, "note", json_string(
		"the NIC's queue count is left as it is (ethtool -L): with fewer queues than "
		"workers, RFS moves each flow's receive processing to its worker's CPU"));
	return o;
}
