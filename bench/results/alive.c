// SPDX-License-Identifier: GPL-2.0
/*
 * Is the controller that writes a results file still running? A file says
 * "running" while its controller saves it after each sample; a controller
 * killed with SIGKILL leaves it so for good. The file records who wrote it
 * ("controller": pid, start time, boot id, pid namespace), and every reader
 * that loads it (zc_results_load) asks here: a writer that is gone makes
 * the file read as "interrupted", as if it had been stopped by a signal.
 *
 * Gone: this machine's boot and pid namespace, and no process with that pid
 * and start time (a pid reused since is not it); or this host's name with
 * another boot id (it rebooted since). Anything else (another machine,
 * another pid namespace, an older file without "controller") cannot be told:
 * the file reads "unknown", with who wrote it and why it cannot be told,
 * never "running", which it may not be.
 */
#include "results/results.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Field 22 of /proc/PID/stat: when it started, in clock ticks after boot.
 * 0, or -errno (-ENOENT: no such process). */
static int start_ticks(long pid, long long *ticks)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* comm may hold spaces and parentheses: the fields start after the last ')'. */
	if (!(p = strrchr(buf, ')')))
		return -EINVAL;
	p++;
	for (int field = 3; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %lld", ticks) != 1)
		return -EINVAL;
	return 0;
}

static void boot_id(char *buf, size_t len)
{
	if (zc_read_file_trim("/proc/sys/kernel/random/boot_id", buf, len))
		buf[0] = 0;
}

static void pid_ns(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/ns/pid", buf, len - 1);

	buf[n > 0 ? n : 0] = 0;
}

json_t *zc_controller_json(void)
{
	char boot[64], ns[64];
	long long t = -1;

	boot_id(boot, sizeof(boot));
	pid_ns(ns, sizeof(ns));
	if (start_ticks(getpid(), &t))
		t = -1;
	return json_pack("{s:I, s:I, s:s, s:s}", "pid", (json_int_t)getpid(), "start_ticks",
			 (json_int_t)t, "boot_id", boot, "pid_ns", ns);
}

/* Who wrote a file that cannot be told, and why: into why; 2. */
static int unknown(json_t *root, const char *because, char *why, size_t len)
{
	json_t *pid = json_object_get(json_object_get(root, "controller"), "pid");
	const char *host = json_string_value(json_object_get(json_object_get(root, "meta"),
							     "hostname"));
	char p[32] = "an unknown pid";

	if (json_is_integer(pid))
		snprintf(p, sizeof(p), "pid %lld", (long long)json_integer_value(pid));
	snprintf(why, len, "written by %s on host %s; whether it still runs cannot be told here: %s",
		 p, host && *host ? host : "(unnamed)", because);
	return 2;
}

/* 1 (why set) when root says "running" and its controller is gone (killed:
 * no such process, a pid reused since, or this host rebooted since); 2 (why
 * set) when it cannot be told (another machine or pid namespace, a file
 * without "controller"); 0 when it runs or is not running. */
static int orphaned(json_t *root, char *why, size_t len)
{
	json_t *c = json_object_get(root, "controller");
	json_t *pid = json_object_get(c, "pid"), *st = json_object_get(c, "start_ticks");
	const char *boot = json_string_value(json_object_get(c, "boot_id"));
	const char *ns = json_string_value(json_object_get(c, "pid_ns"));
	const char *host = json_string_value(json_object_get(json_object_get(root, "meta"),
							     "hostname"));
	char our_boot[64], our_ns[64], our_host[256] = "";
	long long t;
	int ret;

	if (strcmp(zc_an_str(root, "status"), "running"))
		return 0;
	if (!json_is_integer(pid) || !json_is_integer(st) || !boot || !ns ||
	    json_integer_value(pid) <= 0 || json_integer_value(pid) > INT_MAX)
		return unknown(root, "the file has no record of its controller (schema before 1.8)",
			       why, len);
	boot_id(our_boot, sizeof(our_boot));
	pid_ns(our_ns, sizeof(our_ns));
	gethostname(our_host, sizeof(our_host) - 1);
	if (!our_boot[0] || !boot[0])
		return unknown(root, "no boot id to compare", why, len);
	if (strcmp(boot, our_boot)) {
		if (!host || strcmp(host, our_host))
			/* another machine's file: its controller is not ours to see */
			return unknown(root, "another machine", why, len);
		snprintf(why, len, "its controller (pid %lld) ran before %s last booted",
			 (long long)json_integer_value(pid), our_host);
		return 1;
	}
	if (!ns[0] || strcmp(ns, our_ns))
		/* another pid namespace: its pids are not ours */
		return unknown(root, "another pid namespace", why, len);
	ret = start_ticks((long)json_integer_value(pid), &t);
	if (ret == -ENOENT || (!ret && t != json_integer_value(st))) {
		snprintf(why, len, "its controller (pid %lld) is gone: killed before it could "
			 "finish the file", (long long)json_integer_value(pid));
		return 1;
	}
	return 0;
}

void zc_results_settle(json_t *root)
{
	json_t *run;
	char why[400];
	size_t i;
	int gone = orphaned(root, why, sizeof(why));
	const char *status = gone == 1 ? "interrupted" : "unknown";

	if (!gone)
		return;
	json_object_set_new(root, "status", json_string(status));
	json_object_set_new(root, "status_reason", json_string(why));
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		if (strcmp(zc_an_str(run, "status"), "running"))
			continue;
		json_object_set_new(run, "status", json_string(status));
		json_object_set_new(run, "reason", json_sprintf("%s after %zu sample(s): %s", status,
								json_array_size(json_object_get(run, "samples")),
								why));
	}
}
