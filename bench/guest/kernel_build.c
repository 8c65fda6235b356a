// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench kernel-build: a small guest kernel from a source tree plus a patch
 * series, for kernel-ab. x86_64_defconfig + kvm_guest.config + what zcbench
 * uses (BPF tracepoints, veth, netns, syscall tracepoints, virtio-serial),
 * built out of tree (O=BUILD) so a second build with more patches is
 * incremental.
 */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "lib/opt.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Built in, so the guest needs no modules for them. */
static const char *const zc_kernel_options[] = {
	"BPF", "BPF_SYSCALL", "BPF_EVENTS", "BPF_JIT", "KPROBES", "FTRACE", "FTRACE_SYSCALLS",
	"TRACEPOINTS", "PERF_EVENTS", "DEBUG_INFO_BTF", "NET_NS", "VETH", "IO_URING",
	"VIRTIO", "VIRTIO_PCI", "VIRTIO_CONSOLE", "SERIAL_8250", "SERIAL_8250_CONSOLE",
	"BLK_DEV_INITRD", "DEVTMPFS", "TMPFS", "NUMA", "HIGH_RES_TIMERS",
};

static int run(char *const argv[], const char *cwd, const char *log)
{
	return zc_run_argv(argv, &(struct zc_spawn_opts){ .cwd = cwd, .out_path = log });
}

/* Apply one patch, or skip it when already applied. 0, or 1 with the tool's
 * report in log. */
static int apply_patch(const char *tree, bool git, const char *patch, const char *log)
{
	char abs[PATH_MAX];

	if (!realpath(patch, abs))
		return -errno;
	if (git) {
		char *rev[] = { "git", "apply", "-R", "--check", abs, NULL };
		char *chk[] = { "git", "apply", "--check", "-v", abs, NULL };
		char *app[] = { "git", "apply", abs, NULL };

		if (!run(rev, tree, "/dev/null"))
			return 2;
		if (run(chk, tree, log))
			return 1;
		return run(app, tree, log) ? 1 : 0;
	} else {
		char *rev[] = { "patch", "-p1", "-R", "--dry-run", "-s", "-f", "-i", abs, NULL };
		char *chk[] = { "patch", "-p1", "-N", "--dry-run", "-f", "-i", abs, NULL };
		char *app[] = { "patch", "-p1", "-N", "-s", "-f", "-i", abs, NULL };

		if (!run(rev, tree, "/dev/null"))
			return 2;
		if (run(chk, tree, log))
			return 1;
		return run(app, tree, log) ? 1 : 0;
	}
}

static void show_log(const char *log, int lines)
{
	char *s = zc_read_file(log, 1 << 20, NULL);
	int n = 0;

	if (!s)
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

struct kbuild_args {
	const char *tree, *out, *build;
	const char *patches[128];
	int npatches;
	long jobs;
	bool config_only;
};

#define AT(field) ZC_OPT_AT(struct kbuild_args, field)
static const struct zc_opt kbuild_optv[] = {
	{ "tree", ZC_OPT_TEXT, NULL, AT(tree), .meta = "DIR", .help = "a Linux source tree (required)" },
	{ "patches", ZC_OPT_TEXTS, NULL, AT(patches), ZC_OPT_MULTI,
	  .count_off = offsetof(struct kbuild_args, npatches), .meta = "FILE...",
	  .help = "applied in order (git apply in a git tree, else patch -p1); one already applied "
		  "is skipped, one that does not apply stops the build" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "BZIMAGE",
	  .help = "where the bzImage is copied (required unless --config-only)" },
	{ "build", ZC_OPT_TEXT, NULL, AT(build), .meta = "DIR",
	  .help = "out-of-tree build folder, reused (default TREE/../zcbench-kbuild)" },
	{ "jobs", ZC_OPT_LONG, NULL, 1, 4096, AT(jobs), .help = "make -j (default: online cpus)" },
	{ "config-only", ZC_OPT_BOOL, "no", AT(config_only),
	  .help = "apply and configure, stop before make bzImage" },
};

int zc_cmd_kernel_build(int argc, char **argv)
{
	static struct kbuild_args a;
	const struct zc_optgroup group = { .opts = kbuild_optv, .n = ZC_ARRAY_SIZE(kbuild_optv),
					   .base = &a };
	const struct zc_cmdline cmdline = {
		.name = "kernel-build", .groups = &group, .ngroups = 1,
		.about = "Build a guest kernel for kernel-ab from a Linux source tree (e.g. Debian's\n"
			 "linux-source-6.12, unpacked): apply the patches, configure x86_64_defconfig +\n"
			 "kvm_guest.config + zcbench's options, build bzImage in the build folder and\n"
			 "copy it to --out.\n",
	};
	const char *tree, *out, *build, *const *patches = a.patches;
	int npatches, ret;
	long jobs;
	char tree_abs[PATH_MAX], build_buf[PATH_MAX + 32], build_abs[PATH_MAX], log[PATH_MAX + 64], path[PATH_MAX + 64];
	char ostr[PATH_MAX + 8], jstr[32];
	struct stat st;
	bool git, config_only;

	a.jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if ((ret = zc_opt_main(&cmdline, argc, argv)) >= 0)
		return ret;
	tree = a.tree;
	out = a.out;
	build = a.build;
	npatches = a.npatches;
	jobs = a.jobs;
	config_only = a.config_only;
	if (!tree || (!out && !config_only)) {
		zc_err("command line: --tree and --out are required (zcbench kernel-build --help)");
		return ZC_EXIT_USAGE;
	}
	snprintf(path, sizeof(path), "%s/arch/x86/Kconfig", tree);
	if (!realpath(tree, tree_abs) || stat(path, &st)) {
		zc_err("--tree %s: not a Linux source tree (no arch/x86/Kconfig)", tree);
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < npatches; i++)
		if (access(patches[i], R_OK)) {
			zc_err("--patches %s: %s", patches[i], strerror(errno));
			return ZC_EXIT_USAGE;
		}
	if (!build) {
		snprintf(build_buf, sizeof(build_buf), "%s/../zcbench-kbuild", tree_abs);
		build = build_buf;
	}
	if ((ret = zc_mkdir_p(build, 0755))) {
		zc_err("--build %s: %s", build, strerror(-ret));
		return ZC_EXIT_USAGE;
	}
	/* make -C TREE resolves O= from the tree, patch runs in it: absolute. */
	if (!realpath(build, build_abs)) {
		zc_err("--build %s: %s", build, strerror(errno));
		return ZC_EXIT_USAGE;
	}
	build = build_abs;
	snprintf(log, sizeof(log), "%s/zcbench-build.log", build);
	{
		/* git apply only when the tree is the top of its own repository: in
		 * a subfolder of another one (an unpacked tarball inside a checkout)
		 * git apply silently skips every path and "succeeds". */
		char *argv_git[] = { "git", "-C", tree_abs, "rev-parse", "--show-toplevel", NULL };
		char top[PATH_MAX] = "", top_real[PATH_MAX];
		char *gl = NULL;

		snprintf(path, sizeof(path), "%s/.zcbench-git-top", build);
		git = run(argv_git, NULL, path) == 0 && (gl = zc_read_file(path, PATH_MAX - 1, NULL));
		if (gl) {
			snprintf(top, sizeof(top), "%.*s", (int)strcspn(gl, "\n"), gl);
			free(gl);
		}
		git = git && realpath(top, top_real) && !strcmp(top_real, tree_abs);
		unlink(path);
	}
	for (int i = 0; i < npatches; i++) {
		ret = apply_patch(tree_abs, git, patches[i], log);
		if (ret == 2) {
			fprintf(stderr, "zcbench: kernel-build: %s: already applied, skipped\n",
				patches[i]);
			continue;
		}
		if (ret) {
			zc_err("%s does not apply to %s (%s); patches before it are applied, "
			       "nothing was built. The failing hunk:", patches[i], tree,
			       git ? "git apply" : "patch -p1");
			show_log(log, 20);
			return ZC_EXIT_FAIL;
		}
		fprintf(stderr, "zcbench: kernel-build: applied %s\n", patches[i]);
	}
	snprintf(ostr, sizeof(ostr), "O=%s", build);
	snprintf(jstr, sizeof(jstr), "-j%ld", jobs);
	snprintf(path, sizeof(path), "%s/.config", build);
	if (stat(path, &st)) {
		char *cfg[] = { "make", "-C", tree_abs, ostr, "x86_64_defconfig", "kvm_guest.config",
				NULL };

		fprintf(stderr, "zcbench: kernel-build: configuring %s\n", build);
		if (run(cfg, NULL, log)) {
			zc_err("make x86_64_defconfig kvm_guest.config failed; see %s", log);
			show_log(log, 20);
			return ZC_EXIT_FAIL;
		}
	}
	{
		char script[PATH_MAX + 32], *argv_c[2 + 2 * ZC_ARRAY_SIZE(zc_kernel_options) + 4];
		int n = 0;

		snprintf(script, sizeof(script), "%s/scripts/config", tree_abs);
		argv_c[n++] = script;
		argv_c[n++] = "--file";
		argv_c[n++] = path;
		for (size_t i = 0; i < ZC_ARRAY_SIZE(zc_kernel_options); i++) {
			argv_c[n++] = "-e";
			argv_c[n++] = (char *)zc_kernel_options[i];
		}
		argv_c[n] = NULL;
		if (run(argv_c, NULL, log)) {
			zc_err("%s failed; see %s", script, log);
			return ZC_EXIT_FAIL;
		}
	}
	{
		char *old[] = { "make", "-C", tree_abs, ostr, "olddefconfig", NULL };
		char *img[] = { "make", "-C", tree_abs, ostr, jstr, "bzImage", NULL };
		char *cp[] = { "cp", path, (char *)out, NULL };

		if (run(old, NULL, log)) {
			zc_err("make olddefconfig failed; see %s", log);
			show_log(log, 20);
			return ZC_EXIT_FAIL;
		}
		if (config_only) {
			fprintf(stderr, "zcbench: kernel-build: configured %s\n", path);
			return 0;
		}
		fprintf(stderr, "zcbench: kernel-build: make %s bzImage in %s (log: %s)\n", jstr,
			build, log);
		if (run(img, NULL, log)) {
			zc_err("make bzImage failed; see %s", log);
			show_log(log, 30);
			return ZC_EXIT_FAIL;
		}
		snprintf(path, sizeof(path), "%s/arch/x86/boot/bzImage", build);
		if (run(cp, NULL, NULL)) {
			zc_err("cp %s %s failed", path, out);
			return ZC_EXIT_FAIL;
		}
	}
	fprintf(stderr, "zcbench: kernel-build: %s\n", out);
	return 0;
}
