// SPDX-License-Identifier: GPL-2.0
/*
 * One kernel in one qemu guest: image check, initramfs, boot, vCPU pinning,
 * results over virtio-serial. See guest.h.
 */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The name the guest's init looks for in /sys/class/virtio-ports. */
#define ZC_PORT_NAME "org.zcbench.out"

/* Modules the guest needs when they are not built in: the results port,
 * and veth for workloads that build namespaces. */
static const char *const guest_modules[] = { "virtio_pci", "virtio_console", "veth" };

int zc_mkdir_p(const char *path, int mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

int zc_bzimage_check(const char *path, char *version, size_t vlen, char *err, size_t errlen)
{
	unsigned char hdr[0x400];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	unsigned off;
	struct stat st;

	version[0] = 0;
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		return -ENOEXEC;
	}
	n = pread(fd, hdr, sizeof(hdr), 0);
	/* Boot protocol: "HdrS" at 0x202, setup sectors at 0x1f1, the
	 * kernel_version pointer (relative to 0x200) at 0x20e. */
	if (n < 0x210 || memcmp(hdr + 0x202, "HdrS", 4)) {
		close(fd);
		snprintf(err, errlen, "%s: not an x86 bzImage (no \"HdrS\" boot header at 0x202)",
			 path);
		return -ENOEXEC;
	}
	off = (unsigned)(hdr[0x20e] | hdr[0x20f] << 8);
	if (off) {
		char v[256];
		ssize_t m = pread(fd, v, sizeof(v) - 1, off + 0x200);

		if (m > 0) {
			v[m] = 0;
			v[strcspn(v, "\n")] = 0;
			snprintf(version, vlen, "%s", v);
		}
	}
	close(fd);
	return 0;
}

int zc_ldd_line_path(const char *line, char *path, size_t len)
{
	const char *p = strstr(line, "=>");
	size_t n;

	if (p) {
		p += 2;
	} else {
		p = line;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '/')
		return -ENOENT;
	n = strcspn(p, " \t\n(");
	if (!n || n >= len)
		return -ENOENT;
	memcpy(path, p, n);
	path[n] = 0;
	return 0;
}

static void module_name(const char *rel, char *name, size_t len)
{
	const char *b = strrchr(rel, '/');
	size_t n;

	b = b ? b + 1 : rel;
	n = strcspn(b, ".");
	snprintf(name, len, "%.*s", (int)n, b);
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
}

struct moddep {
	char (*line)[1024];
	int n;
};

static const char *moddep_find(const struct moddep *d, const char *name)
{
	char n[128];

	for (int i = 0; i < d->n; i++) {
		char rel[256];
		size_t k = strcspn(d->line[i], ":");

		snprintf(rel, sizeof(rel), "%.*s", (int)k, d->line[i]);
		module_name(rel, n, sizeof(n));
		if (!strcmp(n, name))
			return d->line[i];
	}
	return NULL;
}

static int add_unique(char out[][256], int cnt, int max, const char *rel)
{
	for (int i = 0; i < cnt; i++)
		if (!strcmp(out[i], rel))
			return cnt;
	if (cnt >= max)
		return -E2BIG;
	snprintf(out[cnt], 256, "%s", rel);
	return cnt + 1;
}

/* modules.dep lists a module's whole closure, deepest last: load backwards. */
static int resolve_one(const struct moddep *d, const char *line, char out[][256], int cnt, int max)
{
	char buf[1024], *toks[64], *save, *t, rel[256];
	int nt = 0;
	size_t k = strcspn(line, ":");

	snprintf(rel, sizeof(rel), "%.*s", (int)k, line);
	snprintf(buf, sizeof(buf), "%s", line[k] ? line + k + 1 : "");
	for (t = strtok_r(buf, " \t\n", &save); t && nt < 64; t = strtok_r(NULL, " \t\n", &save))
		toks[nt++] = t;
	for (int i = nt - 1; i >= 0 && cnt >= 0; i--)
		cnt = add_unique(out, cnt, max, toks[i]);
	if (cnt < 0)
		return cnt;
	(void)d;
	return add_unique(out, cnt, max, rel);
}

int zc_modules_resolve(const char *depdir, const char *const *names, int nnames,
		       char out[][256], int max, char *missing, size_t mlen)
{
	const char *moddir = depdir;

	char path[PATH_MAX], *dep, *builtin, *save, *l;
	struct moddep d = { 0 };
	int cnt = 0, ret = 0;
	size_t cap = 0;

	missing[0] = 0;
	snprintf(path, sizeof(path), "%s/modules.dep", moddir);
	dep = zc_read_file(path, 8 << 20, NULL);
	if (!dep)
		return -errno;
	snprintf(path, sizeof(path), "%s/modules.builtin", moddir);
	builtin = zc_read_file(path, 8 << 20, NULL);
	for (l = strtok_r(dep, "\n", &save); l && l[0] != '#'; l = strtok_r(NULL, "\n", &save)) {
		if (!strstr(l, ".ko"))
			continue;
		if ((size_t)d.n == cap) {
			void *nl = realloc(d.line, (cap = cap ? cap * 2 : 1024) * sizeof(*d.line));

			if (!nl) {
				ret = -ENOMEM;
				goto out_free;
			}
			d.line = nl;
		}
		snprintf(d.line[d.n++], sizeof(*d.line), "%s", l);
	}
	for (int i = 0; i < nnames; i++) {
		const char *line = moddep_find(&d, names[i]);
		char pat[160];

		if (line) {
			cnt = resolve_one(&d, line, out, cnt, max);
			if (cnt < 0) {
				ret = cnt;
				goto out_free;
			}
			continue;
		}
		/* modules.builtin: "kernel/drivers/char/virtio_console.ko" lines. */
		snprintf(pat, sizeof(pat), "/%s.ko", names[i]);
		if (builtin && strstr(builtin, pat))
			continue;
		snprintf(missing + strlen(missing), mlen - strlen(missing), "%s%s",
			 missing[0] ? "," : "", names[i]);
	}
	ret = cnt;
out_free:
	free(d.line);
	free(builtin);
	free(dep);
	return ret;
}

int zc_spawn_wait(char *const argv[], const char *cwd, const char *out_path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		if (cwd && chdir(cwd))
			_exit(126);
		if (out_path) {
			int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(126);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Copy src's content (symlinks followed) to dst, keeping the mode bits. */
static int copy_file(const char *src, const char *dst)
{
	char buf[1 << 16], dir[PATH_MAX], *slash;
	int in, out, ret = 0;
	struct stat st;
	ssize_t n;

	snprintf(dir, sizeof(dir), "%s", dst);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if ((ret = zc_mkdir_p(dir, 0755)))
			return ret;
	}
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		ret = -errno;
		goto out_in;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, st.st_mode & 07777);
	if (out < 0) {
		ret = -errno;
		goto out_in;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t w = 0; w < n;) {
			ssize_t k = write(out, buf + w, n - w);

			if (k < 0) {
				ret = -errno;
				goto out_out;
			}
			w += k;
		}
	}
	if (n < 0)
		ret = -errno;
out_out:
	if (close(out) && !ret)
		ret = -errno;
out_in:
	close(in);
	return ret;
}

/* The binary and every library ldd names, at the same paths under root. */
static int copy_with_libs(const char *exe, const char *root, const char *as,
			  char *err, size_t errlen)
{
	char cmd[PATH_MAX + 16], line[1024], lib[PATH_MAX], dst[PATH_MAX * 2];
	FILE *p;
	int ret, nlib = 0;

	snprintf(dst, sizeof(dst), "%s%s", root, as);
	if ((ret = copy_file(exe, dst))) {
		snprintf(err, errlen, "copy %s: %s", exe, strerror(-ret));
		return ret;
	}
	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>&1", exe);
	p = popen(cmd, "r");
	if (!p) {
		snprintf(err, errlen, "ldd %s: %s", exe, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), p)) {
		if (strstr(line, "not found")) {
			snprintf(err, errlen, "ldd %s: %s", exe, line);
			pclose(p);
			return -ENOENT;
		}
		if (zc_ldd_line_path(line, lib, sizeof(lib)))
			continue;
		snprintf(dst, sizeof(dst), "%s%s", root, lib);
		if ((ret = copy_file(lib, dst))) {
			snprintf(err, errlen, "copy %s: %s", lib, strerror(-ret));
			pclose(p);
			return ret;
		}
		nlib++;
	}
	pclose(p);
	(void)nlib; /* a static binary names none: fine */
	return 0;
}

/* sh single quotes around s. */
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
		"mkdir -p /dev/pts /dev/shm /sys/fs/bpf; mount -t tmpfs tmp /tmp; mount -t tmpfs shm /dev/shm\n"
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
		"echo \"zcbench-guest: run exit $(cat /out/run.rc)\"; tail -n 30 /out/run.log\n"
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

/* The folder holding modules.dep for o->moddir (.../lib/modules/REL). */
static int find_moddep(const struct zc_guest_opts *o, char *depdir, size_t len, char *err,
		       size_t errlen)
{
	char path[PATH_MAX + 64], base[PATH_MAX], out[PATH_MAX], rel[256];
	const char *b = strrchr(o->moddir, '/');
	struct stat st;
	size_t n;

	snprintf(path, sizeof(path), "%s/modules.dep", o->moddir);
	if (!stat(path, &st)) {
		snprintf(depdir, len, "%s", o->moddir);
		return 0;
	}
	n = b ? (size_t)(b - o->moddir) : 0;
	snprintf(rel, sizeof(rel), "%s", b ? b + 1 : o->moddir);
	snprintf(base, sizeof(base), "%.*s", (int)n, o->moddir);
	if (n < 12 || strcmp(base + n - 12, "/lib/modules")) {
		snprintf(err, errlen, "%s: no modules.dep, and not a .../lib/modules/RELEASE folder "
			 "that depmod could index", o->moddir);
		return -ENOENT;
	}
	base[n - 12] = 0;
	snprintf(out, sizeof(out), "%s/depmod", o->dir);
	{
		/* -n: every index on stdout, modules.dep first (no '#' lines). */
		char *argv[] = { "depmod", "-n", "-b", base[0] ? base : "/", rel, NULL };
		char log[PATH_MAX + 16];
		int rc;

		snprintf(log, sizeof(log), "%s/modules.dep", out);
		zc_mkdir_p(out, 0755);
		rc = zc_spawn_wait(argv, NULL, log);
		if (rc) {
			snprintf(err, errlen, "%s has no modules.dep and depmod -n -b %s %s failed "
				 "(exit %d, see %s; install kmod)", o->moddir, base, rel, rc, log);
			return -EIO;
		}
	}
	snprintf(depdir, len, "%s", out);
	{
		char src[PATH_MAX + 32];
		char *argv[] = { "cp", src, depdir, NULL };

		snprintf(src, sizeof(src), "%s/modules.builtin", o->moddir);
		if (!stat(src, &st))
			zc_spawn_wait(argv, NULL, NULL);
	}
	return 0;
}

/* Stage root/ and pack it to cpio newc with cpio(1). */
static int build_initramfs(const struct zc_guest_opts *o, const char *cpio_path,
			   char *note, size_t nlen, char *err, size_t errlen)
{
	char root[PATH_MAX], path[PATH_MAX * 2], exe[PATH_MAX] = { 0 }, missing[256];
	static char mods[32][256];
	int ret, nmods = 0;
	FILE *order;

	note[0] = 0;
	snprintf(root, sizeof(root), "%s/initramfs", o->dir);
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	if (system(path)) { /* a stale tree from a previous run */
		snprintf(err, errlen, "cannot clear %s", root);
		return -EIO;
	}
	static const char *const dirs[] = { "bin", "sbin", "usr/bin", "usr/sbin", "usr/local/bin",
		"proc", "sys", "dev", "tmp", "root", "out", "zc/modules", "etc", "var/tmp" };
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
	if ((ret = copy_with_libs(exe, root, "/usr/local/bin/zcbench", err, errlen)))
		return ret;
	snprintf(path, sizeof(path), "%s/bin/busybox", root);
	if ((ret = copy_file("/bin/busybox", path))) {
		snprintf(err, errlen, "/bin/busybox: %s (install busybox-static)", strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/zc/workload.ini", root);
	if ((ret = copy_file(o->workload, path))) {
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
		if ((ret = find_moddep(o, depdir, sizeof(depdir), err, errlen)))
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
				char cmd[PATH_MAX * 3];

				*strstr(name, ".ko.") = 0;
				strcat(name, ".ko");
				snprintf(dst, sizeof(dst), "%s/zc/modules/%s", root, name);
				snprintf(cmd, sizeof(cmd), "%s -dc '%s' > '%s'",
					 strstr(b, ".zst") ? "zstd" : strstr(b, ".gz") ? "gzip" : "xz",
					 src, dst);
				ret = system(cmd) ? -EIO : 0;
			} else {
				snprintf(dst, sizeof(dst), "%s/zc/modules/%s", root, name);
				ret = copy_file(src, dst);
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
		ret = zc_spawn_wait(argv, root, NULL);
		if (ret) {
			snprintf(err, errlen, "cpio -o -H newc in %s failed (exit %d; install cpio)",
				 root, ret);
			return -EIO;
		}
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	if (system(path))
		zc_warn("could not remove %s", root);
	return 0;
}

/* Pin each "CPU n/..." thread of qemu (named thanks to debug-threads=on).
 * Number of vCPU threads pinned. */
static int pin_vcpus(pid_t pid, const int *host_cpus, int nhost, int cpus)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int pinned = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char comm[64], cpath[320];
		int vcpu;
		cpu_set_t set;

		if (e->d_name[0] == '.')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		if (zc_read_file_trim(cpath, comm, sizeof(comm)) ||
		    sscanf(comm, "CPU %d/", &vcpu) != 1 || vcpu < 0 || vcpu >= cpus || vcpu >= nhost)
			continue;
		CPU_ZERO(&set);
		CPU_SET(host_cpus[vcpu], &set);
		if (!sched_setaffinity(atoi(e->d_name), sizeof(set), &set))
			pinned++;
	}
	closedir(d);
	return pinned;
}

static bool file_has(const char *path, const char *needle, char *line, size_t len)
{
	size_t n;
	char *s = zc_read_file(path, 4 << 20, &n), *p;

	if (!s)
		return false;
	p = strstr(s, needle);
	if (p && line) {
		size_t k = strcspn(p, "\r\n");

		snprintf(line, len, "%.*s", (int)(k < len ? k : len - 1), p);
	}
	free(s);
	return p != NULL;
}

static void qemu_argv(const struct zc_guest_opts *o, const char *cpio, const char *console,
		      const char *port_file, char **argv, char store[][PATH_MAX + 64])
{
	int n = 0, s = 0;

	argv[n++] = (char *)o->qemu;
	argv[n++] = "-name";
	argv[n++] = "zcbench-guest,debug-threads=on";
	argv[n++] = "-machine";
	snprintf(store[s], sizeof(store[s]), "pc,accel=%s", o->accel);
	argv[n++] = store[s++];
	if (!strcmp(o->accel, "kvm")) {
		argv[n++] = "-cpu";
		argv[n++] = "host";
	} else {
		argv[n++] = "-cpu";
		argv[n++] = "max";
	}
	argv[n++] = "-smp";
	snprintf(store[s], sizeof(store[s]), "%d", o->cpus);
	argv[n++] = store[s++];
	argv[n++] = "-m";
	argv[n++] = (char *)o->mem;
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-user-config";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	argv[n++] = "-kernel";
	argv[n++] = (char *)o->image;
	argv[n++] = "-initrd";
	argv[n++] = (char *)cpio;
	argv[n++] = "-append";
	/* panic=-1 + -no-reboot: a panicking guest makes qemu exit at once. */
	snprintf(store[s], sizeof(store[s]), "console=ttyS0 panic=-1 oops=panic rdinit=/init%s%s", o->append ? " " : "", o->append ? o->append : "");
	argv[n++] = store[s++];
	argv[n++] = "-chardev";
	snprintf(store[s], sizeof(store[s]), "file,id=con,path=%s", console);
	argv[n++] = store[s++];
	argv[n++] = "-serial";
	argv[n++] = "chardev:con";
	argv[n++] = "-device";
	argv[n++] = "virtio-serial-pci";
	argv[n++] = "-chardev";
	snprintf(store[s], sizeof(store[s]), "file,id=zcout,path=%s", port_file);
	argv[n++] = store[s++];
	argv[n++] = "-device";
	argv[n++] = "virtserialport,chardev=zcout,name=" ZC_PORT_NAME;
	argv[n] = NULL;
}

/* The first "NAME" file under dir/results ending in .json. */
static int first_json(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = -ENOENT;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 5 && !strcmp(e->d_name + n - 5, ".json") && e->d_name[0] != '.') {
			snprintf(out, len, "%s/%s", dir, e->d_name);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

static int read_int_file(const char *path)
{
	char b[32];

	return zc_read_file_trim(path, b, sizeof(b)) ? -1 : atoi(b);
}

static void collect(const struct zc_guest_opts *o, struct zc_guest_result *r, const char *tarf)
{
	char gdir[PATH_MAX], path[PATH_MAX + 64], res[PATH_MAX + 64];
	struct stat st;
	int ret;

	snprintf(gdir, sizeof(gdir), "%s/guest", o->dir);
	if (stat(tarf, &st) || st.st_size == 0) {
		snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
			 "%sthe guest never sent its results (nothing on virtio-serial port "
			 ZC_PORT_NAME ")", r->reason[0] ? "; " : "");
		return;
	}
	zc_mkdir_p(gdir, 0755);
	{
		char *argv[] = { "tar", "-x", "-f", (char *)tarf, "-C", gdir, NULL };

		snprintf(path, sizeof(path), "%s/tar.log", o->dir);
		ret = zc_spawn_wait(argv, NULL, path);
	}
	if (ret) {
		snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
			 "%sthe archive the guest sent is truncated or corrupt (tar exit %d, see %s)",
			 r->reason[0] ? "; " : "", ret, path);
		return;
	}
	snprintf(path, sizeof(path), "%s/release", gdir);
	zc_read_file_trim(path, r->release, sizeof(r->release));
	snprintf(path, sizeof(path), "%s/probe.rc", gdir);
	r->probe_rc = read_int_file(path);
	snprintf(path, sizeof(path), "%s/run.rc", gdir);
	r->run_rc = read_int_file(path);
	snprintf(path, sizeof(path), "%s/probe.json", gdir);
	if (r->probe_rc == 0 && !stat(path, &st) && st.st_size > 0) {
		snprintf(r->probe, sizeof(r->probe), "%s", path);
	} else {
		char errp[PATH_MAX + 64];

		snprintf(errp, sizeof(errp), "%s/probe.err", gdir);
		if (r->probe_rc == ZC_EXIT_USAGE && file_has(errp, "unknown command", NULL, 0))
			snprintf(r->probe_note, sizeof(r->probe_note),
				 "probe unavailable (this zcbench has no probe command)");
		else
			snprintf(r->probe_note, sizeof(r->probe_note),
				 "probe failed in the guest (exit %d, see %s)", r->probe_rc, errp);
	}
	snprintf(path, sizeof(path), "%s/results", gdir);
	if (first_json(path, res, sizeof(res))) {
		snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
			 "%szcbench run in the guest wrote no results (exit %d, see %s/run.log)",
			 r->reason[0] ? "; " : "", r->run_rc, gdir);
		return;
	}
	snprintf(r->results, sizeof(r->results), "%s", res);
	r->ok = true;
}

int zc_guest_prepare(const struct zc_guest_opts *o, char *note, size_t nlen, char *err,
		     size_t errlen)
{
	char cpio[PATH_MAX];
	int ret;

	if ((ret = zc_mkdir_p(o->dir, 0755))) {
		snprintf(err, errlen, "mkdir %s: %s", o->dir, strerror(-ret));
		return ret;
	}
	snprintf(cpio, sizeof(cpio), "%s/initramfs.cpio", o->dir);
	return build_initramfs(o, cpio, note, nlen, err, errlen);
}

int zc_guest_run(const struct zc_guest_opts *o, struct zc_guest_result *r)
{
	char cpio[PATH_MAX], console[PATH_MAX], portf[PATH_MAX], qlog[PATH_MAX];
	char *argv[64], store[8][PATH_MAX + 64], line[256];
	double t0, deadline;
	int status = 0, pinned = 0;
	bool exited = false, want_pin = o->nhost >= o->cpus;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->run_rc = r->probe_rc = -1;
	snprintf(cpio, sizeof(cpio), "%s/initramfs.cpio", o->dir);
	snprintf(console, sizeof(console), "%s/console.log", o->dir);
	snprintf(portf, sizeof(portf), "%s/guest.tar", o->dir);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", o->dir);
	unlink(portf);
	unlink(console);
	qemu_argv(o, cpio, console, portf, argv, store);
	t0 = zc_now();
	pid = fork();
	if (pid < 0) {
		snprintf(r->reason, sizeof(r->reason), "fork: %s", strerror(errno));
		return -errno;
	}
	if (!pid) {
		int fd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		/* Own group (a terminal's Ctrl-C reaches us, we stop qemu), and
		 * no orphaned guest if zcbench itself is killed. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, 0);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	deadline = t0 + o->timeout_s;
	while (!exited) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			exited = true;
			break;
		}
		if (want_pin && pinned < o->cpus && zc_now() - t0 < 10)
			pinned = pin_vcpus(pid, o->host_cpus, o->nhost, o->cpus);
		if (zc_interrupted || zc_now() > deadline) {
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
			for (int i = 0; i < 30 && waitpid(pid, &status, WNOHANG) != pid; i++)
				nanosleep(&ts, NULL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(r->reason, sizeof(r->reason), zc_interrupted ?
				 "interrupted after %.0f s" :
				 "the guest did not finish in %.0f s (timeout; hung?)", zc_now() - t0);
			break;
		}
		nanosleep(&ts, NULL);
	}
	r->boot_run_s = zc_now() - t0;
	r->pinned = want_pin && pinned == o->cpus;
	if (!want_pin)
		snprintf(r->pin_note, sizeof(r->pin_note),
			 "vCPUs not pinned: %d vCPUs, %d host cores to pin them to", o->cpus,
			 o->nhost);
	else if (!r->pinned)
		snprintf(r->pin_note, sizeof(r->pin_note),
			 "pinned %d of %d vCPU threads (qemu thread names not found in time)",
			 pinned, o->cpus);
	if (exited && WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
	    !file_has(console, "Linux version", NULL, 0)) {
		char q[256] = "";

		file_has(qlog, "qemu", q, sizeof(q));
		snprintf(r->reason, sizeof(r->reason), "qemu exited with %d before the kernel "
			 "printed anything (%s; see %s)", WEXITSTATUS(status), q[0] ? q : "no message",
			 qlog);
	}
	if (file_has(console, "Kernel panic", line, sizeof(line)))
		snprintf(r->reason + strlen(r->reason), sizeof(r->reason) - strlen(r->reason),
			 "%sguest kernel panicked: %s", r->reason[0] ? "; " : "", line);
	collect(o, r, portf);
	if (r->ok && r->reason[0]) /* results came back, whatever happened after */
		r->reason[0] = 0;
	unlink(cpio); /* rebuilt every time; tens of MB */
	return 0;
}

bool zc_guest_kvm_works(const char *qemu, const char *image, char *why, size_t len)
{
	char tmpl[] = "/tmp/zcbench-kvm-XXXXXX", con[64], qlog[64], opt[96];
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC), status;
	double t0;
	bool ok = false;
	pid_t pid;

	if (fd < 0) {
		snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		return false;
	}
	close(fd);
	if (!mkdtemp(tmpl)) {
		snprintf(why, len, "mkdtemp: %s", strerror(errno));
		return false;
	}
	snprintf(con, sizeof(con), "%s/console", tmpl);
	snprintf(qlog, sizeof(qlog), "%s/qemu.log", tmpl);
	snprintf(opt, sizeof(opt), "file,id=con,path=%s", con);
	pid = fork();
	if (!pid) {
		int lfd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		char *argv[] = { (char *)qemu, "-machine", "pc,accel=kvm", "-cpu", "host", "-m", "256",
			"-nodefaults", "-display", "none", "-no-reboot", "-kernel", (char *)image,
			"-append", "console=ttyS0 panic=-1", "-chardev", opt, "-serial", "chardev:con",
			NULL };

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (lfd >= 0) {
			dup2(lfd, 1);
			dup2(lfd, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		goto out_rm;
	}
	t0 = zc_now();
	/* A working KVM prints the banner in well under a second. */
	while (zc_now() - t0 < 8) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if (file_has(con, "Linux version", NULL, 0)) {
			ok = true;
			break;
		}
		if (waitpid(pid, &status, WNOHANG) == pid) {
			char q[200] = "";

			file_has(qlog, "qemu", q, sizeof(q));
			snprintf(why, len, "test boot under KVM failed: %s",
				 q[0] ? q : "qemu exited early");
			pid = 0;
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (!ok && pid)
		snprintf(why, len, "test boot under KVM printed nothing in 8 s");
	if (pid > 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
out_rm:
	unlink(con);
	unlink(qlog);
	rmdir(tmpl);
	return ok;
}
