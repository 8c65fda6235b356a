// SPDX-License-Identifier: GPL-2.0
/* The guest initramfs; zcbench, its libraries, busybox, modules and the init script, packed by cpio. */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "guest/initramfs.h"
#include "peers/peer.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>


/* Modules the guest needs when they are not built in: the results port,
 * and veth for workloads that build namespaces. */
static const char *const guest_modules[] = { "virtio_pci", "virtio_console", "veth" };

static void shq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static int write_init(const char *root, const struct zc_guest_opts *o, int nmods)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/init", root);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f,
		"#!/bin/busybox sh\n"
		"# zcbench guest init: probe, run, send /out back, power off.\n"
		"/bin/busybox --install -s /bin\n"
		"export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/usr/local/bin HOME=/root\n"
		"mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev\n"
		/* The layout a host has, so every probe that runs there runs here:
		 * /run for the probe's sysctl lock, sticky world-writable tmp dirs. */
		"mkdir -p /dev/pts /dev/shm /sys/fs/bpf /run /tmp /var/tmp\n"
		"mount -t tmpfs -o mode=1777 tmp /tmp; mount -t tmpfs -o mode=1777 shm /dev/shm\n"
		"mount -t tmpfs -o mode=0755 run /run; chmod 1777 /var/tmp\n"
		"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
		"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
		"mount -t bpf bpf /sys/fs/bpf 2>/dev/null\n"
		"hostname zcguest; ip link set lo up\n"
		"echo \"zcbench-guest: kernel $(uname -r), $(nproc) cpus\"\n");
	if (nmods)
		fprintf(f, "while read m; do insmod /zc/modules/$m 2>/dev/null || "
			   "echo \"zcbench-guest: insmod $m failed\"; done < /zc/modules.order\n");
	fprintf(f,
		"mkdir -p /out/results; uname -r > /out/release\n"
		/* What kernel-ab and the layout test check: each folder's mode and
		 * whether root can create a file in it. */
		"for d in /run /tmp /var/tmp /dev/shm; do\n"
		/* In a subshell: a failed redirection of a special builtin such
		 * as ':' would end init itself. */
		"  w=no; (: > $d/.zcbench-w) 2>/dev/null && rm -f $d/.zcbench-w && w=yes\n"
		"  echo \"$d $(stat -c %%a $d) $w\"\n"
		"done > /out/layout.txt\n");
	/* The sysctls asked for on the command line, as the guest reads them
	 * (a kernel without one ignores sysctl.K=V silently). */
	for (char *const *k = o->sysctls; k && *k; k++) {
		fprintf(f, "k=");
		shq(f, *k);
		fprintf(f, "; k=${k%%%%=*}; p=/proc/sys/$(echo \"$k\" | tr . /)\n"
			   "if [ -r \"$p\" ]; then echo \"$k $(cat \"$p\")\"; else echo \"$k absent\"; fi "
			   ">> /out/sysctls.txt\n");
	}
	fprintf(f,
		"echo 'zcbench-guest: probe'\n"
		"zcbench probe --json > /out/probe.json 2> /out/probe.err; echo $? > /out/probe.rc\n"
		"echo 'zcbench-guest: run'\n"
		"zcbench run /zc/workload.ini --out /out/results");
	for (char *const *a = o->run_args; a && *a; a++) {
		fputc(' ', f);
		shq(f, *a);
	}
	fprintf(f,
		" > /out/run.log 2>&1; echo $? > /out/run.rc\n"
		"echo \"zcbench-guest: run exit $(cat /out/run.rc)\"; tail -n 30 /out/run.log\n");
	if (o->pipebench_args) {
		fprintf(f, "echo 'zcbench-guest: pipebench'\n"
			   "zcbench pipebench --out /out/pipebench");
		for (char *const *a = o->pipebench_args; *a; a++) {
			fputc(' ', f);
			shq(f, *a);
		}
		fprintf(f, " > /out/pipebench.log 2>&1; echo $? > /out/pipebench.rc\n"
			   "echo \"zcbench-guest: pipebench exit $(cat /out/pipebench.rc)\"\n");
	}
	fprintf(f,
		"port=\n"
		"for p in /sys/class/virtio-ports/*; do\n"
		"  [ \"$(cat $p/name 2>/dev/null)\" = " ZC_PORT_NAME " ] && port=/dev/${p##*/}\n"
		"done\n"
		"if [ -n \"$port\" ]; then\n"
		"  tar -c -f \"$port\" -C /out . && echo \"zcbench-guest: results sent on $port\"\n"
		"else\n"
		"  echo 'zcbench-guest: no virtio-serial port " ZC_PORT_NAME
		" (virtio_console missing?)'\n"
		"fi\n"
		"sync; sleep 1; echo 'zcbench-guest: done'; poweroff -f\n");
	if (fclose(f))
		return -errno;
	return chmod(path, 0755) ? -errno : 0;
}


/* Stage root/ and pack it to cpio newc with cpio(1). */
int zc_build_initramfs(const struct zc_guest_opts *o, const char *cpio_path,
			   char *note, size_t nlen, char *err, size_t errlen)
{
	char root[PATH_MAX], path[PATH_MAX * 2], exe[PATH_MAX] = { 0 }, missing[256];
	char *rm_root[] = { "rm", "-rf", root, NULL };
	static char mods[32][256];
	int ret, nmods = 0;
	FILE *order;

	note[0] = 0;
	snprintf(root, sizeof(root), "%s/initramfs", o->dir);
	if (zc_run_argv(rm_root, NULL)) { /* a stale tree from a previous run */
		snprintf(err, errlen, "cannot clear %s", root);
		return -EIO;
	}
	static const char *const dirs[] = { "bin", "sbin", "usr/bin", "usr/sbin", "usr/local/bin",
		"proc", "sys", "dev", "tmp", "root", "out", "zc/modules", "etc", "var/tmp", "run" };
	for (size_t i = 0; i < ZC_ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if ((ret = zc_mkdir_p(path, 0755))) {
			snprintf(err, errlen, "mkdir %s: %s", path, strerror(-ret));
			return ret;
		}
	}
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0) {
		snprintf(err, errlen, "readlink /proc/self/exe: %s", strerror(errno));
		return -errno;
	}
	if ((ret = zc_copy_with_libs(exe, root, "/usr/local/bin/zcbench", err, errlen)))
		return ret;
	/* The peer programs (issue 12), when installed, at their own paths: a
	 * kernel A/B then measures HAProxy and iperf3 too. Optional: a missing
	 * one leaves its modes unavailable in the guest, with the reason. */
	for (const char *const *prog = (const char *const[]){ "haproxy", "iperf3", NULL }; *prog;
	     prog++) {
		char found[PATH_MAX], why[256];
		size_t n = strlen(note);

		if (zc_peer_which(*prog, found, sizeof(found)))
			continue;
		if (zc_copy_with_libs(found, root, found, why, sizeof(why)))
			snprintf(note + n, nlen - n, "%s%s not in the guest: %s", n ? "; " : "", *prog,
				 why);
	}
	snprintf(path, sizeof(path), "%s/bin/busybox", root);
	if ((ret = zc_copy_file("/bin/busybox", path))) {
		snprintf(err, errlen, "/bin/busybox: %s (install busybox-static)", strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/zc/workload.ini", root);
	if ((ret = zc_copy_file(o->workload, path))) {
		snprintf(err, errlen, "%s: %s", o->workload, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/etc/passwd", root);
	if ((order = fopen(path, "w"))) {
		fputs("root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n", order);
		fclose(order);
	}
	snprintf(path, sizeof(path), "%s/etc/group", root);
	if ((order = fopen(path, "w"))) {
		fputs("root:x:0:\nnogroup:x:65534:\n", order);
		fclose(order);
	}
	if (o->moddir) {
		char depdir[PATH_MAX + 64];

		/* An unpacked .deb has no modules.dep (depmod runs at install):
		 * make one in this side's folder, leaving the image's tree alone. */
		if ((ret = zc_find_moddep(o, depdir, sizeof(depdir), err, errlen)))
			return ret;
		nmods = zc_modules_resolve(depdir, guest_modules, ZC_ARRAY_SIZE(guest_modules),
					   mods, 32, missing, sizeof(missing));
		if (nmods < 0) {
			snprintf(err, errlen, "%s/modules.dep: %s", depdir, strerror(-nmods));
			return nmods;
		}
		if (missing[0])
			snprintf(note, nlen, "modules neither built in nor in %s: %s", o->moddir,
				 missing);
		snprintf(path, sizeof(path), "%s/zc/modules.order", root);
		order = fopen(path, "w");
		if (!order)
			return -errno;
		for (int i = 0; i < nmods; i++) {
			char src[PATH_MAX], dst[PATH_MAX * 2], name[128];
			const char *b = strrchr(mods[i], '/');

			b = b ? b + 1 : mods[i];
			snprintf(src, sizeof(src), "%s/%s", o->moddir, mods[i]);
			snprintf(name, sizeof(name), "%s", b);
			if (strstr(name, ".ko.")) {
				/* busybox insmod takes plain .ko: unpack on the host. */
				char *unpack[] = { strstr(b, ".zst") ? "zstd" : strstr(b, ".gz") ?
						   "gzip" : "xz", "-dc", src, NULL };

				*strstr(name, ".ko.") = 0;
				strcat(name, ".ko");
				snprintf(dst, sizeof(dst), "%s/zc/modules/%s", root, name);
				ret = zc_run_argv(unpack, &(struct zc_spawn_opts){ .out_path = dst }) ?
				      -EIO : 0;
			} else {
				snprintf(dst, sizeof(dst), "%s/zc/modules/%s", root, name);
				ret = zc_copy_file(src, dst);
			}
			if (ret) {
				fclose(order);
				snprintf(err, errlen, "module %s: %s", src, strerror(-ret));
				return ret;
			}
			fprintf(order, "%s\n", name);
		}
		fclose(order);
	}
	if ((ret = write_init(root, o, nmods))) {
		snprintf(err, errlen, "%s/init: %s", root, strerror(-ret));
		return ret;
	}
	{
		char *argv[] = { "sh", "-c",
			"find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 > \"$1\"",
			"sh", (char *)cpio_path, NULL };
		char abs[PATH_MAX];

		if (cpio_path[0] != '/') {
			if (!getcwd(abs, sizeof(abs) - strlen(cpio_path) - 2))
				return -errno;
			strcat(abs, "/");
			strcat(abs, cpio_path);
			argv[4] = abs;
		}
		ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .cwd = root });
		if (ret) {
			snprintf(err, errlen, "cpio -o -H newc in %s failed (exit %d; install cpio)",
				 root, ret);
			return -EIO;
		}
	}
	if (zc_run_argv(rm_root, NULL))
		zc_warn("could not remove %s", root);
	return 0;
}
