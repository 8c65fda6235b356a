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
#include "guest/initramfs.h"

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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


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
		ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .out_path = path });
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
	snprintf(path, sizeof(path), "%s/pipebench", gdir);
	if (o->pipebench_args && first_json(path, r->pipebench, sizeof(r->pipebench)))
		snprintf(r->probe_note + strlen(r->probe_note),
			 sizeof(r->probe_note) - strlen(r->probe_note),
			 "%spipebench wrote no results (see %s/pipebench.log)",
			 r->probe_note[0] ? "; " : "", gdir);
	snprintf(path, sizeof(path), "%s/sysctls.txt", gdir);
	zc_read_file_trim(path, r->sysctls_seen, sizeof(r->sysctls_seen));
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
	return zc_build_initramfs(o, cpio, note, nlen, err, errlen);
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
	/* Own group (a terminal's Ctrl-C reaches us, we stop qemu), and no
	 * orphaned guest if zcbench itself is killed. */
	pid = zc_spawn(argv, &(struct zc_spawn_opts){ .out_path = qlog, .null_stdin = true,
						     .own_group = true, .die_with_us = true });
	if (pid < 0) {
		snprintf(r->reason, sizeof(r->reason), "start %s: %s", argv[0], strerror(-pid));
		return pid;
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
	char *argv[] = { (char *)qemu, "-machine", "pc,accel=kvm", "-cpu", "host", "-m", "256",
		"-nodefaults", "-display", "none", "-no-reboot", "-kernel", (char *)image,
		"-append", "console=ttyS0 panic=-1", "-chardev", opt, "-serial", "chardev:con",
		NULL };
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
	pid = zc_spawn(argv, &(struct zc_spawn_opts){ .out_path = qlog, .own_group = true,
						     .die_with_us = true });
	if (pid < 0) {
		snprintf(why, len, "start %s: %s", qemu, strerror(-pid));
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
