// SPDX-License-Identifier: GPL-2.0
/*
 * The profiled CPUs as both backends and the session need them: perf's -C
 * list, keeping a process off them, and why CPU-wide sampling failed. Below
 * session.c and the backends it drives (perf_tool.c, sampler.c).
 */
#include "profile/profile_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void zc_profile_cpulist(const int *cpus, int n, char *out, size_t len)
{
	size_t o = 0;

	out[0] = 0;
	for (int i = 0; i < n && o < len; i++)
		o += snprintf(out + o, len - o, "%s%d", i ? "," : "", cpus[i]);
}

int zc_profile_keep_off(pid_t pid, const int *cpus, int n)
{
	cpu_set_t set;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	for (long c = 0; c < online && c < CPU_SETSIZE; c++)
		CPU_SET(c, &set);
	for (int i = 0; i < n; i++)
		if (cpus[i] >= 0 && cpus[i] < CPU_SETSIZE)
			CPU_CLR(cpus[i], &set);
	if (!CPU_COUNT(&set))
		return -ENOSPC;	/* every CPU profiled: nowhere else to be */
	return sched_setaffinity(pid, sizeof(set), &set) ? -errno : 0;
}

void zc_profile_why(int err, const char *what, char *why, size_t len)
{
	char paranoid[16] = "?";

	zc_read_file_trim("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof(paranoid));
	if (err == EACCES || err == EPERM)
		snprintf(why, len, "%s: CPU-wide sampling not permitted (%s; "
			 "kernel.perf_event_paranoid=%s: needs <= 0, or root / CAP_PERFMON)",
			 what, strerror(err), paranoid);
	else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		snprintf(why, len, "%s: this kernel has no such event (%s)", what, strerror(err));
	else if (err == ENOSYS)
		snprintf(why, len, "%s: no perf events in this kernel (CONFIG_PERF_EVENTS)", what);
	else
		snprintf(why, len, "%s: %s", what, strerror(err));
}
