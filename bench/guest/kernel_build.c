// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench kernel-build: a small guest kernel from a source tree plus a patch
 * series, for kernel-ab. x86_64_defconfig + kvm_guest.config + what zcbench
 * uses (BPF with BTF, tracepoints, veth, netns, virtio-serial) minus what a
 * guest on an initramfs never touches, built out of tree (O=BUILD) so the
 * next build of the same tree is incremental. What went in is recorded in
 * OUT.json beside the image.
 */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "guest/initramfs.h"
#include "guest/kbuild_int.h"
#include "results/results.h"
#include "lib/opt.h"
#include "lib/outpath.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* Built in (=y), so the guest needs no modules, and checked after olddefconfig. */
static const char *const zc_kernel_enable[] = {
	"BPF", "BPF_SYSCALL", "BPF_EVENTS", "BPF_JIT", "KPROBES", "KPROBE_EVENTS", "FTRACE",
	"FTRACE_SYSCALLS", "TRACEPOINTS", "PERF_EVENTS", "NET_NS", "VETH", "IO_URING",
	"VIRTIO", "VIRTIO_PCI", "VIRTIO_CONSOLE", "SERIAL_8250", "SERIAL_8250_CONSOLE",
	"BLK_DEV_INITRD", "DEVTMPFS", "TMPFS", "NUMA", "HIGH_RES_TIMERS",
	/* The counters' tp_btf programs need /sys/kernel/btf/vmlinux: BTF is
	 * made by pahole from DWARF, so debug info must be on (defconfig: none). */
	"DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT", "DEBUG_INFO_BTF",
};

/* Off: the guest boots from an initramfs on qemu's virtio devices and talks
 * over loopback or veth; none of these is ever used there, and together they
 * are a large part of defconfig's build time. */
static const char *const zc_kernel_disable[] = {
	"DEBUG_INFO_NONE", "LOCALVERSION_AUTO", "DRM", "AGP", "SOUND", "USB_SUPPORT", "HID",
	"INPUT_MOUSE", "INPUT_JOYSTICK", "INPUT_TABLET", "INPUT_TOUCHSCREEN", "WLAN", "WIRELESS",
	"CFG80211", "MAC80211", "RFKILL", "ETHERNET", "NETFILTER", "NFS_FS", "ATA", "MD",
	"PCCARD", "HIBERNATION", "SECURITY_SELINUX",
};

static const char *const zc_kernel_base[] = { "x86_64_defconfig", "kvm_guest.config" };

struct kbuild_args {
	const char *tree, *out, *build, *series, *name;
	const char *patches[ZC_SERIES_MAX];
	int npatches;
	const char *sets[64];
	int nsets;
	long jobs;
	bool config_only;
};

static int check_set(const char *v, char *why, size_t len)
{
	const char *eq = strchr(v, '=');

	if (eq && eq > v && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == (size_t)(eq - v) &&
	    (!strcmp(eq + 1, "y") || !strcmp(eq + 1, "n") || !strcmp(eq + 1, "m")))
		return 0;
	snprintf(why, len, "'%s' is not NAME=y|n|m with NAME a config symbol without CONFIG_", v);
	return -EINVAL;
}

#define AT(field) ZC_OPT_AT(struct kbuild_args, field)
static const struct zc_opt kbuild_optv[] = {
	{ "tree", ZC_OPT_TEXT, NULL, AT(tree), ZC_OPT_REQ, .meta = "DIR",
	  .help = "a Linux source tree (Debian's linux-source-6.12 unpacked, a git checkout)" },
	{ "series", ZC_OPT_TEXT, NULL, AT(series), .meta = "DIR",
	  .help = "a series folder: the patches its quilt `series` file lists, else its "
		  "[0-9]*.patch in name order (hosts/patches/6.12/safin-v1)" },
	{ "patches", ZC_OPT_TEXTS, NULL, AT(patches), ZC_OPT_MULTI,
	  .count_off = offsetof(struct kbuild_args, npatches), .meta = "FILE...",
	  .help = "patches in this order (after --series' ones)" },
	{ "name", ZC_OPT_TEXT, NULL, AT(name), .meta = "NAME",
	  .plain = "._-", .what = "a name of letters, digits, '.', '_' and '-'",
	  .help = "LOCALVERSION is -zc-NAME, so uname -r tells the kernels apart (default: the "
		  "series folder's name, 'stock' without patches, 'patched' with --patches)" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "BZIMAGE",
	  .help = "where the bzImage goes, with BZIMAGE.json (what went in) and BZIMAGE.config "
		  "beside it (required unless --config-only)" },
	{ "build", ZC_OPT_TEXT, NULL, AT(build), .meta = "DIR",
	  .help = "out-of-tree build folder, reused (default TREE/../zcbench-kbuild)" },
	{ "jobs", ZC_OPT_LONG, NULL, 1, 4096, AT(jobs), .help = "make -j (default: online cpus)" },
	{ "set", ZC_OPT_TEXTS, NULL, AT(sets), .count_off = offsetof(struct kbuild_args, nsets),
	  .check = check_set, .meta = "NAME=y|n|m",
	  .help = "a config symbol set after zcbench's own (repeatable), e.g. DEBUG_INFO_BTF=n" },
	{ "config-only", ZC_OPT_BOOL, "no", AT(config_only),
	  .help = "check and apply the series and configure; stop before make bzImage" },
};

/* Value of CONFIG_name in a .config's text: "y", "m", a string, or "n". */
static void config_value(const char *cfg, const char *name, char *out, size_t len)
{
	char key[128];
	const char *p = cfg;
	size_t kl;

	kl = (size_t)snprintf(key, sizeof(key), "CONFIG_%s=", name);
	snprintf(out, len, "n");
	while ((p = strstr(p, key))) {
		if (p == cfg || p[-1] == '\n') {
			p += kl;
			snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
			return;
		}
		p += kl;
	}
}

/* Every requested symbol that olddefconfig did not leave as asked. */
static json_t *not_as_requested(const char *config_path, const struct kbuild_args *a)
{
	char *cfg = zc_read_file(config_path, 16 << 20, NULL), got[256];
	json_t *bad = json_array();

	if (!cfg)
		return bad;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_kernel_enable); i++) {
		config_value(cfg, zc_kernel_enable[i], got, sizeof(got));
		if (strcmp(got, "y"))
			json_array_append_new(bad, json_pack("{s:s,s:s,s:s}", "option",
				zc_kernel_enable[i], "requested", "y", "got", got));
	}
	for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_kernel_disable); i++) {
		config_value(cfg, zc_kernel_disable[i], got, sizeof(got));
		if (strcmp(got, "n"))
			json_array_append_new(bad, json_pack("{s:s,s:s,s:s}", "option",
				zc_kernel_disable[i], "requested", "n", "got", got));
	}
	for (int i = 0; i < a->nsets; i++) {
		char name[128];
		const char *want = strchr(a->sets[i], '=') + 1;

		snprintf(name, sizeof(name), "%.*s", (int)(want - 1 - a->sets[i]), a->sets[i]);
		config_value(cfg, name, got, sizeof(got));
		if (strcmp(got, want))
			json_array_append_new(bad, json_pack("{s:s,s:s,s:s}", "option", name,
							     "requested", want, "got", got));
	}
	free(cfg);
	return bad;
}

static json_t *strings(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* "6.12.118" from the tree's top Makefile. */
static void tree_version(const char *tree, char *out, size_t len)
{
	static const char *const keys[] = { "VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = ",
					    "EXTRAVERSION =" };
	char path[PATH_MAX + 16], *mk, *p;
	size_t l = 0;

	snprintf(path, sizeof(path), "%s/Makefile", tree);
	out[0] = 0;
	if (!(mk = zc_read_file(path, 1 << 20, NULL)))
		return;
	for (int i = 0; i < 4 && l < len; i++) {
		if (!(p = strstr(mk, keys[i])))
			break;
		p += strlen(keys[i]);
		p += strspn(p, " ");
		l += snprintf(out + l, len - l, "%s%.*s", i && i < 3 ? "." : "", (int)strcspn(p, "\n"), p);
	}
	free(mk);
}

/* KEY=VALUE lines of TREE/.zcbench-origin (written by whoever unpacked the
 * tree: tests/guest/kernel-source.sh) as an object, or null. */
static json_t *tree_origin(const char *tree)
{
	char path[PATH_MAX + 32], *text, *line, *save;
	json_t *o;

	snprintf(path, sizeof(path), "%s/.zcbench-origin", tree);
	if (!(text = zc_read_file(path, 64 << 10, NULL)))
		return json_null();
	o = json_object();
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (eq && eq > line) {
			*eq = 0;
			json_object_set_new(o, line, json_string(eq + 1));
		}
	}
	free(text);
	return o;
}

struct kb_step {
	const char *name;	/* log file: LOGDIR/NAME.log */
	double s;		/* wall seconds */
	double cpu_s;		/* user + system seconds of everything it ran */
};

/* CPU seconds of every descendant reaped so far (make reaps its compilers):
 * unlike wall time, not inflated by whatever else the machine runs. */
static double children_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static int step(char *const argv[], const char *logdir, struct kb_step *st)
{
	char log[PATH_MAX + 64];
	double t0 = zc_now(), c0 = children_cpu_s();
	int rc;

	snprintf(log, sizeof(log), "%s/%s.log", logdir, st->name);
	rc = zc_run_argv(argv, &(struct zc_spawn_opts){ .out_path = log, .null_stdin = true });
	st->s += zc_now() - t0;
	st->cpu_s += children_cpu_s() - c0;
	if (rc)
		zc_err("kernel-build: %s failed (exit %d); the whole output: %s", st->name, rc, log);
	return rc;
}

/* The last lines of a step's log, for a failure seen on a terminal. */
static void show_tail(const char *logdir, const char *name, int lines)
{
	char log[PATH_MAX + 64], *s;
	int n = 0;

	snprintf(log, sizeof(log), "%s/%s.log", logdir, name);
	if (!(s = zc_read_file(log, 8 << 20, NULL)))
		return;
	for (char *p = s + strlen(s); p > s; p--)
		if (*p == '\n' && ++n > lines) {
			fputs(p + 1, stderr);
			free(s);
			return;
		}
	fputs(s, stderr);
	free(s);
}

/* Copy src to dst through a temp file beside it: a reader sees the old file
 * or the new, and dst is never anything but a regular file (lib/outpath.h). */
static int copy_atomic(const char *src, const char *dst)
{
	char tmp[PATH_MAX + 16];
	int fd = zc_out_temp(dst, tmp, sizeof(tmp)), ret;

	if (fd < 0)
		return fd;
	close(fd);
	if ((ret = zc_copy_file(src, tmp))) {
		unlink(tmp);
		return ret;
	}
	return zc_out_install(tmp, dst);
}

/* --out, --out.config and --out.json, checked before the build (exit 2);
 * out gets the path to write (a link's target). */
static int check_outs(const char *given, char *out, size_t len)
{
	char path[PATH_MAX + 16], target[PATH_MAX + 16], why[PATH_MAX + 200];

	if (zc_out_file(given, false, out, len, why, sizeof(why)) < 0) {
		zc_err("--out %s %s", given, why);
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s.%s", out, i ? "json" : "config");
		if (zc_out_file(path, false, target, sizeof(target), why, sizeof(why)) < 0) {
			zc_err("--out %s: %s %s", given, path, why);
			return -1;
		}
	}
	return 0;
}

/* git apply only when the tree is the top of its own repository: in a
 * subfolder of another one (an unpacked tarball inside a checkout) git apply
 * silently skips every path and "succeeds". */
static bool tree_is_git_top(const char *tree_abs)
{
	char *argv[] = { "git", "-C", (char *)tree_abs, "rev-parse", "--show-toplevel", NULL };
	char top[PATH_MAX + 64] = "", top_real[PATH_MAX];

	if (zc_run_argv(argv, &(struct zc_spawn_opts){ .out = top, .outlen = sizeof(top),
						     .null_stdin = true }))
		return false;
	top[strcspn(top, "\n")] = 0;
	return realpath(top, top_real) && !strcmp(top_real, tree_abs);
}

int zc_cmd_kernel_build(int argc, char **argv)
{
	static struct kbuild_args a;
	static struct zc_series s;
	const struct zc_optgroup group = ZC_OPT_GROUP1(kbuild_optv, &a);
	const struct zc_cmdline cmdline = {
		.name = "kernel-build", .groups = &group, .ngroups = 1,
		.about = "Build a guest kernel for kernel-ab from a Linux source tree (e.g. Debian's\n"
			 "linux-source-6.12, unpacked): check that the whole series applies (on a\n"
			 "scratch copy), apply it, configure x86_64_defconfig + kvm_guest.config +\n"
			 "zcbench's options (BPF with BTF, veth, netns, virtio console; no graphics,\n"
			 "sound, USB, wireless, NFS ...), build bzImage in the build folder and copy it\n"
			 "to --out, with --out.json saying what went in and --out.config.\n",
	};
	enum { S_CHECK, S_APPLY, S_DEFCONFIG, S_SETCONFIG, S_OLDDEFCONFIG, S_MAKE, S_NR };
	struct kb_step st[S_NR] = { { "check", 0, 0 }, { "apply", 0, 0 }, { "defconfig", 0, 0 },
				    { "scripts-config", 0, 0 }, { "olddefconfig", 0, 0 },
				    { "make-bzImage", 0, 0 } };
	char tree_abs[PATH_MAX], build_buf[PATH_MAX + 32], out_buf[PATH_MAX], build_abs[PATH_MAX], path[PATH_MAX + 64];
	char logdir[PATH_MAX + 32], scratch[PATH_MAX + 32], ostr[PATH_MAX + 8], jstr[32];
	char err[2048], name[128], localversion[160], version[64], release[128] = "";
	const char *build;
	double t_start = zc_now();
	struct stat sb;
	json_t *rec, *bad, *pj;
	bool git;
	int ret;

	a.jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		return ret;
	if (!a.out && !a.config_only) {
		zc_err("command line: --out is required unless --config-only (zcbench kernel-build --help)");
		return ZC_EXIT_USAGE;
	}
	if (!a.config_only) {
		if (check_outs(a.out, out_buf, sizeof(out_buf)))
			return ZC_EXIT_USAGE;
		a.out = out_buf;
	}
	snprintf(path, sizeof(path), "%s/arch/x86/Kconfig", a.tree);
	if (!realpath(a.tree, tree_abs) || stat(path, &sb)) {
		zc_err("--tree %s: not a Linux source tree (no arch/x86/Kconfig)", a.tree);
		return ZC_EXIT_USAGE;
	}
	if (a.series && zc_series_from_dir(&s, a.series, err, sizeof(err))) {
		zc_err("--series %s", err);
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < a.npatches; i++)
		if (zc_series_add(&s, a.patches[i], err, sizeof(err))) {
			zc_err("--patches %s", err);
			return ZC_EXIT_USAGE;
		}
	snprintf(name, sizeof(name), "%s", a.name ? a.name : s.name[0] ? s.name :
		 s.n ? "patched" : "stock");
	if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") !=
	    strlen(name)) {
		zc_err("--series %s: its folder name '%s' cannot be a LOCALVERSION (give --name)",
		       a.series, name);
		return ZC_EXIT_USAGE;
	}
	snprintf(localversion, sizeof(localversion), "-zc-%s", name);
	if (!a.build) {
		snprintf(build_buf, sizeof(build_buf), "%s/../zcbench-kbuild", tree_abs);
		a.build = build_buf;
	}
	/* make -C TREE resolves O= from the tree, patch runs in it: absolute. */
	if ((ret = zc_mkdir_p(a.build, 0755)) || !realpath(a.build, build_abs)) {
		zc_err("--build %s: %s", a.build, strerror(ret ? -ret : errno));
		return ZC_EXIT_USAGE;
	}
	build = build_abs;
	snprintf(logdir, sizeof(logdir), "%s/zcbench-logs", build);
	snprintf(scratch, sizeof(scratch), "%s/zcbench-scratch", build);
	{
		char *rm[] = { "rm", "-rf", logdir, NULL };

		if (zc_run_argv(rm, NULL) || (ret = zc_mkdir_p(logdir, 0755))) {
			zc_err("%s: cannot make a fresh log folder", logdir);
			return ZC_EXIT_FAIL;
		}
	}
	snprintf(path, sizeof(path), "%s/series.sha256", logdir);
	if (s.n && zc_series_hash(&s, path, err, sizeof(err))) {
		zc_err("%s", err);
		return ZC_EXIT_FAIL;
	}
	git = tree_is_git_top(tree_abs);
	if (s.n) {
		double t0 = zc_now();

		ret = zc_series_check(tree_abs, git, &s, scratch, logdir, err, sizeof(err));
		st[S_CHECK].s = zc_now() - t0;
		if (ret) {
			zc_err("%s", err);
			return ZC_EXIT_FAIL;
		}
		t0 = zc_now();
		ret = zc_series_apply(tree_abs, git, &s, logdir, err, sizeof(err));
		st[S_APPLY].s = zc_now() - t0;
		if (ret) {
			zc_err("%s", err);
			return ZC_EXIT_FAIL;
		}
		for (int i = 0; i < s.n; i++)
			fprintf(stderr, "zcbench: kernel-build: %s %s\n",
				s.p[i].already ? "already applied, skipped:" : "applied", s.p[i].path);
	}
	snprintf(ostr, sizeof(ostr), "O=%s", build);
	snprintf(jstr, sizeof(jstr), "-j%ld", a.jobs);
	/* From defconfig every time: the .config depends only on the tree and on
	 * this command, never on what the folder held; kbuild rebuilds only what
	 * a changed symbol touches. */
	{
		char *cfg[] = { "make", "-C", tree_abs, ostr, (char *)zc_kernel_base[0],
				(char *)zc_kernel_base[1], NULL };

		fprintf(stderr, "zcbench: kernel-build: configuring %s\n", build);
		if (step(cfg, logdir, &st[S_DEFCONFIG])) {
			show_tail(logdir, st[S_DEFCONFIG].name, 20);
			return ZC_EXIT_FAIL;
		}
	}
	snprintf(path, sizeof(path), "%s/.config", build);
	{
		char script[PATH_MAX + 32], *argv_c[8 + 2 * (ZC_ARRAY_SIZE(zc_kernel_enable) +
						      ZC_ARRAY_SIZE(zc_kernel_disable) + 64)];
		char sets[64][160];
		int n = 0;

		snprintf(script, sizeof(script), "%s/scripts/config", tree_abs);
		argv_c[n++] = script;
		argv_c[n++] = "--file";
		argv_c[n++] = path;
		for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_kernel_enable); i++) {
			argv_c[n++] = "-e";
			argv_c[n++] = (char *)zc_kernel_enable[i];
		}
		for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_kernel_disable); i++) {
			argv_c[n++] = "-d";
			argv_c[n++] = (char *)zc_kernel_disable[i];
		}
		argv_c[n++] = "--set-str";
		argv_c[n++] = "LOCALVERSION";
		argv_c[n++] = localversion;
		for (int i = 0; i < a.nsets; i++) {
			const char *eq = strchr(a.sets[i], '=');

			snprintf(sets[i], sizeof(sets[i]), "%.*s", (int)(eq - a.sets[i]), a.sets[i]);
			argv_c[n++] = eq[1] == 'y' ? "-e" : eq[1] == 'm' ? "-m" : "-d";
			argv_c[n++] = sets[i];
		}
		argv_c[n] = NULL;
		if (step(argv_c, logdir, &st[S_SETCONFIG]))
			return ZC_EXIT_FAIL;
	}
	{
		char *old[] = { "make", "-C", tree_abs, ostr, "olddefconfig", NULL };

		if (step(old, logdir, &st[S_OLDDEFCONFIG])) {
			show_tail(logdir, st[S_OLDDEFCONFIG].name, 20);
			return ZC_EXIT_FAIL;
		}
	}
	bad = not_as_requested(path, &a);
	for (size_t i = 0; i < json_array_size(bad); i++) {
		json_t *b = json_array_get(bad, i);

		zc_warn("kernel-build: CONFIG_%s is %s after olddefconfig, not %s as requested "
			"(a dependency is missing; see %s)",
			json_string_value(json_object_get(b, "option")),
			json_string_value(json_object_get(b, "got")),
			json_string_value(json_object_get(b, "requested")), path);
	}
	if (!a.config_only) {
		char *img[] = { "make", "-C", tree_abs, ostr, jstr, "bzImage", NULL };

		fprintf(stderr, "zcbench: kernel-build: make %s bzImage in %s (log: %s/%s.log)\n",
			jstr, build, logdir, st[S_MAKE].name);
		if (step(img, logdir, &st[S_MAKE])) {
			show_tail(logdir, st[S_MAKE].name, 30);
			json_decref(bad);
			return ZC_EXIT_FAIL;
		}
		snprintf(path, sizeof(path), "%s/include/config/kernel.release", build);
		zc_read_file_trim(path, release, sizeof(release));
	}

	/* What went in, beside the image (and in the build folder either way). */
	tree_version(tree_abs, version, sizeof(version));
	rec = json_pack("{s:s,s:s,s:s,s:{s:s,s:s,s:o,s:b}}", "schema", "zcbench-kernel-build",
			"schema_version", "1.0", "zcbench", ZC_GIT_SHA,
			"tree", "path", tree_abs, "version", version, "origin", tree_origin(tree_abs),
			"git", git);
	pj = json_array();
	for (int i = 0; i < s.n; i++)
		json_array_append_new(pj, json_pack("{s:s,s:s,s:s}", "file", s.p[i].path, "sha256",
			s.p[i].sha256, "state", s.p[i].already ? "already-applied" : "applied"));
	json_object_set_new(rec, "series", json_pack("{s:s?,s:s,s:s?,s:o,s:s}", "dir",
		s.dir[0] ? s.dir : NULL, "name", name, "sha256", s.n ? s.sha256 : NULL,
		"patches", pj, "tool", git ? "git apply" : "patch -p1"));
	{
		char cfg_sha[65] = "", cc[256] = "";
		char *cfg_text;

		snprintf(path, sizeof(path), "%s/.config", build);
		zc_sha256_file(path, cfg_sha);
		if ((cfg_text = zc_read_file(path, 16 << 20, NULL))) {
			char q[256];

			config_value(cfg_text, "CC_VERSION_TEXT", q, sizeof(q));
			snprintf(cc, sizeof(cc), "%.*s", (int)strcspn(q + (q[0] == '"'), "\""),
				 q + (q[0] == '"'));
			free(cfg_text);
		}
		json_object_set_new(rec, "config", json_pack("{s:o,s:o,s:o,s:o,s:s,s:o,s:s,s:s}",
			"base", strings(zc_kernel_base, ZC_ARRAY_SIZE(zc_kernel_base)),
			"enable", strings(zc_kernel_enable, ZC_ARRAY_SIZE(zc_kernel_enable)),
			"disable", strings(zc_kernel_disable, ZC_ARRAY_SIZE(zc_kernel_disable)),
			"set", strings(a.sets, a.nsets), "localversion", localversion,
			"not_as_requested", bad, "sha256", cfg_sha, "file", path));
		json_object_set_new(rec, "compiler", json_string(cc[0] ? cc : "?"));
	}
	json_object_set_new(rec, "kernel_release", release[0] ? json_string(release) : json_null());
	json_object_set_new(rec, "build_dir", json_string(build));
	json_object_set_new(rec, "logs", json_string(logdir));
	json_object_set_new(rec, "jobs", json_integer(a.jobs));
	{
		json_t *w = json_object(), *c = json_object();

		for (int i = 0; i < S_NR; i++) {
			json_object_set_new(w, st[i].name, json_real(st[i].s));
			json_object_set_new(c, st[i].name, json_real(st[i].cpu_s));
		}
		json_object_set_new(w, "total", json_real(zc_now() - t_start));
		json_object_set_new(c, "total", json_real(children_cpu_s()));
		json_object_set_new(rec, "wall_s", w);
		json_object_set_new(rec, "cpu_s", c);
	}
	json_object_set_new(rec, "image", json_null());
	if (!a.config_only) {
		char img[PATH_MAX + 64], dst[PATH_MAX + 16], sha[65] = "", out_abs[PATH_MAX];

		snprintf(img, sizeof(img), "%s/arch/x86/boot/bzImage", build);
		if ((ret = copy_atomic(img, a.out))) {
			zc_err("copy %s to %s: %s", img, a.out, strerror(-ret));
			json_decref(rec);
			return ZC_EXIT_FAIL;
		}
		snprintf(dst, sizeof(dst), "%s.config", a.out);
		if ((ret = copy_atomic(path, dst)))
			zc_warn("copy %s to %s: %s", path, dst, strerror(-ret));
		json_object_set_new(json_object_get(rec, "config"), "copy", json_string(dst));
		zc_sha256_file(a.out, sha);
		stat(a.out, &sb);
		json_object_set_new(rec, "image", json_pack("{s:s,s:s,s:I}", "path",
			realpath(a.out, out_abs) ? out_abs : a.out, "sha256", sha,
			"bytes", (json_int_t)sb.st_size));
	}
	snprintf(path, sizeof(path), "%s/zcbench-build.json", build);
	if ((ret = zc_json_write_atomic(rec, path)))
		zc_warn("%s: %s", path, strerror(-ret));
	if (!a.config_only) {
		snprintf(path, sizeof(path), "%s.json", a.out);
		if ((ret = zc_json_write_atomic(rec, path))) {
			zc_err("%s: %s", path, strerror(-ret));
			json_decref(rec);
			return ZC_EXIT_FAIL;
		}
		fprintf(stderr, "zcbench: kernel-build: %s (%s, %.0f s; record: %s)\n", a.out,
			release, zc_now() - t_start, path);
	} else {
		fprintf(stderr, "zcbench: kernel-build: configured %s/.config (record: %s)\n", build,
			path);
	}
	json_decref(rec);
	return 0;
}
