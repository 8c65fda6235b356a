// SPDX-License-Identifier: GPL-2.0
/*
 * The machine a results file was measured on: CPU, topology, sysctls,
 * mitigations, load average and steal at the window edges.
 */
#include "results/meta.h"
#include "lib/zcbench.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <hwloc.h>
#include <numa.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static json_t *file_str(const char *path)
{
	char buf[4096];

	return zc_read_file_trim(path, buf, sizeof(buf)) ? json_null() : json_string(buf);
}

static json_t *cpu_model(void)
{
	char *s = zc_read_file("/proc/cpuinfo", 1 << 20, NULL), *p, *e;
	json_t *v = json_null();

	if (s && (p = strstr(s, "model name")) && (p = strchr(p, ':')) && (e = strchr(p, '\n'))) {
		*e = 0;
		v = json_string(p + 2);
	}
	free(s);
	return v;
}

static json_t *topology(void)
{
	hwloc_topology_t t;
	json_t *o = json_object();

	if (hwloc_topology_init(&t) || hwloc_topology_load(t)) {
		json_object_set_new(o, "error", json_string("hwloc could not load the topology"));
		return o;
	}
	json_object_set_new(o, "packages", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE)));
	json_object_set_new(o, "cores", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE)));
	json_object_set_new(o, "pus", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU)));
	json_object_set_new(o, "numa_nodes", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE)));
	json_object_set_new(o, "l3_caches", json_integer(hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_L3CACHE)));
	json_object_set_new(o, "libnuma", json_boolean(numa_available() >= 0));
	hwloc_topology_destroy(t);
	return o;
}

static const char *const sysctls[] = {
	"net/core/rmem_max", "net/core/wmem_max", "net/core/rmem_default",
	"net/core/wmem_default", "net/core/optmem_max", "net/core/netdev_max_backlog",
	"net/ipv4/tcp_rmem", "net/ipv4/tcp_wmem", "net/ipv4/tcp_mem",
	"net/ipv4/tcp_congestion_control", "net/ipv4/tcp_autocorking",
	"fs/pipe-max-size", "fs/pipe-user-pages-soft", "fs/splice_needs_write",
	"kernel/perf_event_paranoid", "kernel/unprivileged_bpf_disabled",
};

static json_t *sysctl_values(void)
{
	json_t *o = json_object();

	for (size_t i = 0; i < ZC_ARRAY_SIZE(sysctls); i++) {
		char path[128], key[128];

		snprintf(path, sizeof(path), "/proc/sys/%s", sysctls[i]);
		snprintf(key, sizeof(key), "%s", sysctls[i]);
		for (char *p = key; *p; p++)
			if (*p == '/')
				*p = '.';
		json_object_set_new(o, key, file_str(path));
	}
	return o;
}

static json_t *mitigations(void)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	struct dirent *e;
	json_t *o = json_object();

	if (!d)
		return o;
	while ((e = readdir(d))) {
		char path[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		json_object_set_new(o, e->d_name, file_str(path));
	}
	closedir(d);
	return o;
}

static json_t *loadavg(void)
{
	char buf[256];
	double l[3];

	if (zc_read_file_trim("/proc/loadavg", buf, sizeof(buf)) ||
	    sscanf(buf, "%lf %lf %lf", &l[0], &l[1], &l[2]) != 3)
		return json_null();
	return json_pack("[f,f,f]", l[0], l[1], l[2]);
}

/* Every CPU's /proc/stat line summed: 0 or -errno. */
static int cpu_total(struct zc_cpustat *t)
{
	static struct zc_cpustat c[1024];
	static bool ok[1024];
	int n = zc_cpustat_read_all(c, ok, 1024);

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < n; i++) {
		if (!ok[i])
			continue;
		t->user += c[i].user, t->nice += c[i].nice, t->system += c[i].system;
		t->idle += c[i].idle, t->iowait += c[i].iowait, t->irq += c[i].irq;
		t->softirq += c[i].softirq, t->steal += c[i].steal;
	}
	return n < 0 ? n : n ? 0 : -ENOENT;
}

void zc_meta_edge(json_t *meta, struct zc_meta_edge *e, bool after)
{
	json_t *la = json_object_get(meta, "load_avg");
	struct zc_cpustat now, d;
	double cpu_s;

	if (!json_is_object(la))
		json_object_set_new(meta, "load_avg", la = json_pack("{s:n,s:n}", "before", "after"));
	json_object_set_new(la, after ? "after" : "before", loadavg());
	if (!after) {
		e->cpu_ok = !cpu_total(&e->cpu);
		return;
	}
	if (!e->cpu_ok || cpu_total(&now)) {
		json_object_set_new(meta, "steal", json_null());
		return;
	}
	zc_cpustat_delta(&e->cpu, &now, &d);
	cpu_s = zc_cpustat_busy(&d) + d.idle + d.iowait + d.steal;
	json_object_set_new(meta, "steal",
			    json_pack("{s:o,s:f,s:f}", "frac",
				      cpu_s > 0 ? json_real(d.steal / cpu_s) : json_null(),
				      "steal_s", d.steal, "cpu_s", cpu_s));
}

json_t *zc_meta_collect(void)
{
	struct utsname u;
	json_t *o = json_object(), *k = json_object(), *g = json_object();
	char host[256] = "unknown", date[64];
	time_t now = time(NULL);

	uname(&u);
	gethostname(host, sizeof(host));
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_set_new(o, "hostname", json_string(host));
	json_object_set_new(o, "date", json_string(date));
	json_object_set_new(k, "release", json_string(u.release));
	json_object_set_new(k, "version", json_string(u.version));
	json_object_set_new(k, "machine", json_string(u.machine));
	json_object_set_new(k, "cmdline", file_str("/proc/cmdline"));
	json_object_set_new(o, "kernel", k);
	json_object_set_new(o, "cpu_model", cpu_model());
	json_object_set_new(o, "online_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(o, "topology", topology());
	json_object_set_new(o, "governor",
			    file_str("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
	json_object_set_new(o, "mitigations", mitigations());
	json_object_set_new(o, "sysctls", sysctl_values());
	json_object_set_new(o, "page_size", json_integer(sysconf(_SC_PAGESIZE)));
	json_object_set_new(g, "sha", json_string(ZC_GIT_SHA));
	json_object_set_new(g, "dirty", json_boolean(ZC_GIT_DIRTY));
	json_object_set_new(o, "git", g);
	json_object_set_new(o, "compiler", json_string(__VERSION__));
	json_object_set_new(o, "zcbench_version", json_string(ZC_VERSION));
	return o;
}
