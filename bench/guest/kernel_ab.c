// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench kernel-ab: the same workload in a guest of each of two kernels,
 * then one comparison. Everything lands in one folder:
 *   base.json new.json          results from each guest (+ "accel", "guest")
 *   base-probe.json new-probe.json   `zcbench probe --json` in each guest
 *   base-pipebench.json ...     `zcbench pipebench` in each guest (--pipebench)
 *   comparison.txt              `zcbench compare base.json new.json`
 *   fingerprints.txt            the two fingerprints side by side
 *   kernel-ab.json              what happened on each side, and why
 *   base/ new/                  console.log, qemu.log, guest.tar, guest/
 */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "run/schedule.h"
#include "results/results.h"
#include "config/workload.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "run/run.h"
#include "guest/kbuild_int.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the helpers: option checks, paths, the per-side records (results
 * annotation, sysctls, the kernel-build record of an image), the comparison ---- */

#define TCG_WARNING                                                                       \
	"WARNING: both guests ran under software emulation (qemu TCG, no KVM): the\n"    \
	"throughput figures below say nothing about real hardware. Only the kernel\n"    \
	"fingerprints and behaviour differences (modes available, errors, verified\n"    \
	"payload, calls per MB) count.\n"

/* "0-1,3": count, or -EINVAL. */
static int zc_kab_parse_cpulist(const char *s, int *out, int max)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a > 4095)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b > 4095)
				return -EINVAL;
			s = end;
		}
		for (long i = a; i <= b; i++) {
			if (n >= max)
				return -EINVAL;
			out[n++] = (int)i;
		}
		if (*s == ',' && !s[1])
			return -EINVAL;	/* "0," : an empty item, as every comma list */
		if (*s == ',')
			s++;
		else if (*s)
			return -EINVAL;
	}
	return n;
}

static bool zc_kab_in_path(const char *prog)
{
	char *path, *save, *d;
	bool found = false;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	for (d = strtok_r(path, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/%s", d, prog);
		found = access(p, X_OK) == 0;
	}
	free(path);
	return found;
}

/* The comparison, or why there is none. true when compare printed one;
 * its exit code in *rc_out (-1: no compare command). */
/* `zcbench compare base new` into outdir/comparison.txt (TCG warning first).
 * true when compare printed a comparison; its exit code in *rc_out. */
static bool zc_kab_compare(const char *outdir, bool tcg, const char *base, const char *new_,
			int *rc_out)
{
	char exe[4096] = { 0 }, raw[4200], txt[4200];
	char *argv[] = { exe, "compare", (char *)base, (char *)new_, NULL };
	char *out;
	int rc;
	FILE *f;

	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
		return false;
	snprintf(raw, sizeof(raw), "%s/.compare.out", outdir);
	snprintf(txt, sizeof(txt), "%s/comparison.txt", outdir);
	rc = zc_run_argv(argv, &(struct zc_spawn_opts){ .out_path = raw });
	out = zc_read_file(raw, 16 << 20, NULL);
	unlink(raw);
	f = zc_out_fopen(txt);
	if (!f) {
		free(out);
		return false;
	}
	if (tcg) {
		fputs(TCG_WARNING "\n", f);
		fputs(TCG_WARNING "\n", stdout);
	}
	if (rc == ZC_EXIT_USAGE && out && strstr(out, "unknown command")) {
		const char *m = "comparison skipped: this zcbench has no `compare` command yet "
				"(both results files are kept; compare them with a build that has it)\n";

		fputs(m, f);
		fputs(m, stdout);
		rc = -1;
	} else {
		fprintf(f, "$ zcbench compare %s %s   (exit %d)\n", base, new_, rc);
		fputs(out ? out : "", f);
		fputs(out ? out : "", stdout);
		if (rc && rc != ZC_EXIT_FAIL)
			fprintf(stdout, "zcbench compare exited %d\n", rc);
	}
	fclose(f);
	free(out);
	*rc_out = rc;
	/* compare exits 1 past its threshold: still a comparison. */
	return rc == 0 || rc == ZC_EXIT_FAIL;
}

/* .../boot/vmlinuz-REL -> .../lib/modules/REL when that folder exists. */
static void zc_kab_guess_moddir(const char *image, char *out, size_t len)
{
	const char *b = strrchr(image, '/');
	char dir[4096];
	struct stat st;

	out[0] = 0;
	if (!b || strncmp(b + 1, "vmlinuz-", 8))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(b - image), image);
	if (strlen(dir) >= 5 && !strcmp(dir + strlen(dir) - 5, "/boot"))
		dir[strlen(dir) - 5] = 0;
	else
		return;
	snprintf(out, len, "%s/lib/modules/%s", dir, b + 9);
	if (stat(out, &st) || !S_ISDIR(st.st_mode))
		out[0] = 0;
}

/* Option checks: 0 or -EINVAL with why. */
static int zc_kab_check_mem(const char *v, char *why, size_t len)
{
	uint64_t b;

	if (!zc_parse_size(v, &b) && b >= (128ULL << 20))
		return 0;
	snprintf(why, len, "'%s' is not a size of at least 128M, e.g. 1G", v);
	return -EINVAL;
}

static int zc_kab_check_cpulist(const char *v, char *why, size_t len)
{
	int cpus[256];

	if (zc_kab_parse_cpulist(v, cpus, ZC_ARRAY_SIZE(cpus)) >= 1)
		return 0;
	snprintf(why, len, "'%s' is not a cpu list such as 0-1 or 2,3", v);
	return -EINVAL;
}

static int zc_kab_check_accel(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "auto") || !strcmp(v, "kvm") || !strcmp(v, "tcg"))
		return 0;
	snprintf(why, len, "'%s' is not auto, kvm or tcg", v);
	return -EINVAL;
}


/* K=V for sysctl.K=V: K a dotted sysctl name, V one word. */
static int zc_kab_check_sysctl(const char *v, char *why, size_t len)
{
	const char *eq = strchr(v, '=');
	size_t k = eq ? (size_t)(eq - v) : 0;

	if (eq && k && strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789_.-/") == k && memchr(v, '.', k) &&
	    v[0] != '.' && v[k - 1] != '.' && eq[1] && !eq[1 + strcspn(eq + 1, " \t\n\"'\\")])
		return 0;
	snprintf(why, len, "'%s' is not KEY=VALUE with a dotted sysctl name and one word, e.g. "
		 "fs.splice_needs_write=1", v);
	return -EINVAL;
}

/* {"K": "V"} of "K=V" strings (NULL-terminated; NULL: empty). */
static json_t *zc_kab_sysctls(char *const *kv)
{
	json_t *o = json_object();

	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');
		char k[256];

		snprintf(k, sizeof(k), "%.*s", (int)(eq - *kv), *kv);
		json_object_set_new(o, k, json_string(eq + 1));
	}
	return o;
}

/* Each asked sysctl as the guest read it ("K VALUE" lines in seen) into
 * *out; 0, or -EINVAL when one differs (why says which). */
static int zc_kab_sysctls_seen(char *const *kv, const char *seen, json_t **out, char *why, size_t len)
{
	json_t *o = json_object();
	int bad = 0;

	why[0] = 0;
	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '='), *p = seen;
		char k[256], got[256] = "(not reported)";
		size_t kl = (size_t)(eq - *kv);

		snprintf(k, sizeof(k), "%.*s", (int)kl, *kv);
		/* "K VALUE" lines; /proc/sys may print tabs between numbers. */
		while (p && *p) {
			if (!strncmp(p, k, kl) && p[kl] == ' ') {
				snprintf(got, sizeof(got), "%.*s", (int)strcspn(p + kl + 1, "\n"), p + kl + 1);
				break;
			}
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		json_object_set_new(o, k, json_string(got));
		if (strcmp(got, eq + 1)) {
			size_t l = strlen(why);

			snprintf(why + l, len - l, "%ssysctl.%s=%s did not take: the guest reads %s",
				 bad++ ? "; " : "", k, eq + 1, got);
		}
	}
	*out = o;
	return bad ? -EINVAL : 0;
}

/* Copy the guest's results file src to dst with "accel" and "guest" (this
 * side: image, release, vCPUs, append, sysctls ...) added. 0 or -errno. */
static int zc_kab_annotate(const char *src, const char *dst, const struct zc_guest_opts *o,
		    const struct zc_guest_result *r, const char *side, const char *user_append)
{
	json_t *root = json_load_file(src, 0, NULL), *g;
	int ret;

	if (!root)
		return -EINVAL;
	json_object_set_new(root, "accel", json_string(o->accel));
	g = json_pack("{s:s,s:s,s:s,s:i,s:s,s:b,s:s,s:f,s:s,s:s?,s:o}",
		"side", side, "image", o->image, "release", r->release, "vcpus", o->cpus,
		"mem", o->mem, "vcpus_pinned", r->pinned, "pin_note", r->pin_note,
		"boot_run_s", r->boot_run_s, "accel", o->accel, "append", user_append,
		"sysctls", zc_kab_sysctls(o->sysctls));
	/* A guest booted from one initramfs under TCG can draw the same
	 * "random" invocation id every boot (no entropy source that differs):
	 * two boots would read as one invocation, and compare would pair
	 * them by rounds. Each file that comes back is an invocation of its
	 * own: a host-drawn id, the guest's kept beside it. */
	if (json_is_string(json_object_get(root, "invocation"))) {
		json_object_set(g, "invocation_in_guest", json_object_get(root, "invocation"));
		json_object_set_new(root, "invocation", zc_sched_invocation_id());
	}
	json_object_set_new(root, "guest", g);
	ret = zc_json_write_atomic(root, dst);
	json_decref(root);
	return ret;
}

/* IMAGE.json (kernel-build's record) when it exists and describes this very
 * image (sha256), else NULL with why in note ("" when there is none). */
static json_t *zc_kab_build_record(const char *image, char *note, size_t len)
{
	char path[PATH_MAX + 8], sha[65] = "";
	json_t *rec, *want;

	note[0] = 0;
	snprintf(path, sizeof(path), "%s.json", image);
	if (access(path, F_OK))
		return NULL;
	rec = json_load_file(path, 0, NULL);
	if (!rec) {
		snprintf(note, len, "%s is not JSON: not copied", path);
		return NULL;
	}
	/* A record left beside an image that was replaced since says nothing. */
	want = json_object_get(json_object_get(rec, "image"), "sha256");
	if (zc_sha256_file(image, sha) || !json_is_string(want) || strcmp(sha, json_string_value(want))) {
		snprintf(note, len, "%s describes another image (sha256 differs): not copied", path);
		json_decref(rec);
		return NULL;
	}
	return rec;
}

/* Split --pipebench's flags into argv (NULL-terminated, words in store) and
 * check them with this binary's pipebench parser. 0 or -errno, why set. */
static int zc_kab_pipebench_args(const char *flags, char *store, size_t slen, char **argv, int max,
			  char *why, size_t len)
{
	char exe[PATH_MAX] = { 0 }, out[4096], *save, *w;
	char *chk[72] = { exe, "pipebench" };
	int n = 0, rc;

	snprintf(store, slen, "%s", flags);
	for (w = strtok_r(store, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n >= max - 1 || n >= 64) {
			snprintf(why, len, "more than %d pipebench flags", n);
			return -E2BIG;
		}
		argv[n] = w;
		chk[2 + n++] = w;
	}
	argv[n] = NULL;
	/* The same binary goes into the guest: its parser checks the flags now
	 * (--help after them: values are checked as they are read). */
	if (readlink("/proc/self/exe", exe, sizeof(exe) - 1) < 0)
		return 0;
	chk[2 + n] = "--help";
	chk[3 + n] = NULL;
	rc = zc_run_argv(chk, &(struct zc_spawn_opts){ .out = out, .outlen = sizeof(out),
						      .null_stdin = true });
	if (rc) {
		char *e = strstr(out, "command line:");

		snprintf(why, len, "%s", e ? e : out);
		why[strcspn(why, "\n")] = 0;
		return -EINVAL;
	}
	return 0;
}

/* Boot k's side (0 base, 1 new): A B B A A B B A ..., so a drift over the
 * boots (a warming host, a neighbour arriving) falls on both sides alike. */
int zc_kab_side_of(int k)
{
	return ((k + 1) / 2) % 2;
}

/* ---- the command ---- */

static void on_signal(int sig)
{
	(void)sig;
	zc_interrupted = 1;
}

struct kab_args {
	const char *image[2], *moddir[2], *append[2];
	char *sysctl0[17], *sysctl1[17];	/* K=V, NULL-terminated after parsing */
	int nsysctl[2];
	const char *workload, *mem, *accel, *qemu, *out, *host_cpus, *pipebench;
	int cpus, boots;
	double timeout_s;
	char *run_args[65];	/* after --, NULL-terminated */
	int nrun;
};

#define AT(field) ZC_OPT_AT(struct kab_args, field)
static const struct zc_opt kab_optv[] = {
	{ "base", ZC_OPT_TEXT, NULL, AT(image[0]), ZC_OPT_REQ, .meta = "BZIMAGE",
	  .help = "the kernel before" },
	{ "new", ZC_OPT_TEXT, NULL, AT(image[1]), ZC_OPT_REQ, .meta = "BZIMAGE",
	  .help = "the kernel after" },
	{ "workload", ZC_OPT_TEXT, NULL, AT(workload), ZC_OPT_REQ, .meta = "W.ini",
	  .help = "what both guests run" },
	{ "cpus", ZC_OPT_INT, "2", 1, 64, AT(cpus), .help = "guest vCPUs" },
	{ "boots", ZC_OPT_INT, "1", 1, 50, AT(boots), .meta = "N",
	  .help = "boot each kernel N times, alternating base new new base base new ... (each "
		  "boot an invocation: its results in OUT/SIDE-runs/boot-K.json); compare then gets the "
		  "two folders and answers from the boots, the spread between them measured (t on "
		  "the boots' means), where one boot a side can only be held to a stated spread" },
	{ "host-cpus", ZC_OPT_TEXT, NULL, AT(host_cpus), .check = zc_kab_check_cpulist, .meta = "LIST",
	  .help = "host cores for the vCPU threads, one each, e.g. 0-1 or 2,3 (default: the last "
		  "N online cores); unpinned if too few" },
	{ "mem", ZC_OPT_TEXT, "1G", AT(mem), .check = zc_kab_check_mem, .meta = "SIZE",
	  .help = "guest memory, qemu -m syntax" },
	{ "accel", ZC_OPT_TEXT, "auto", AT(accel), .check = zc_kab_check_accel, .meta = "auto|kvm|tcg",
	  .help = "auto: KVM if a test boot works, else TCG" },
	{ "timeout", ZC_OPT_DOUBLE, "900", 1, 604800, AT(timeout_s), .meta = "S",
	  .help = "per guest, boot to power-off" },
	{ "qemu", ZC_OPT_TEXT, "qemu-system-x86_64", AT(qemu), .meta = "PATH",
	  .help = "the qemu binary" },
	{ "base-modules", ZC_OPT_TEXT, NULL, AT(moddir[0]), .meta = "DIR",
	  .help = "lib/modules/RELEASE for that image, to load virtio_pci, virtio_console, veth "
		  "when they are modules (default: found from IMAGE=.../boot/vmlinuz-REL as "
		  ".../lib/modules/REL)" },
	{ "new-modules", ZC_OPT_TEXT, NULL, AT(moddir[1]), .meta = "DIR",
	  .help = "the same for the new image" },
	{ "base-append", ZC_OPT_TEXT, NULL, AT(append[0]), .meta = "ARGS",
	  .help = "more kernel command line for that guest (mitigations=off ...)" },
	{ "new-append", ZC_OPT_TEXT, NULL, AT(append[1]), .meta = "ARGS",
	  .help = "the same for the new guest" },
	{ "base-sysctl", ZC_OPT_TEXTS, NULL, 0, 16, AT(sysctl0), .check = zc_kab_check_sysctl,
	  .count_off = offsetof(struct kab_args, nsysctl), .meta = "K=V",
	  .help = "boot that guest with sysctl.K=V (applied before init runs); the "
		  "value the guest reads back is recorded, and a mismatch fails the side" },
	{ "new-sysctl", ZC_OPT_TEXTS, NULL, 0, 16, AT(sysctl1), .check = zc_kab_check_sysctl,
	  .count_off = offsetof(struct kab_args, nsysctl) + sizeof(int), .meta = "K=V",
	  .help = "the same for the new guest, e.g. fs.splice_needs_write=1" },
	{ "pipebench", ZC_OPT_TEXT, NULL, AT(pipebench), .meta = "FLAGS",
	  .help = "also run `zcbench pipebench FLAGS` in each guest (\"\": its defaults), e.g. "
		  "--pipebench='--chunk=64k --duration=0.3'; results in SIDE-pipebench.json" },
	{ "out", ZC_OPT_TEXT, NULL, AT(out), .meta = "DIR",
	  .help = "the folder (default results/kernel-ab-DATE)" },
	{ "RUN-FLAGS", ZC_OPT_TEXTS, NULL, 0, 64, AT(run_args), ZC_OPT_POS | ZC_OPT_REST,
	  .count_off = offsetof(struct kab_args, nrun),
	  .help = "passed to `zcbench run` in the guests, e.g. --duration=0.3" },
};

int zc_cmd_kernel_ab(int argc, char **argv)
{
	static struct kab_args a;
	const struct zc_optgroup group = ZC_OPT_GROUP1(kab_optv, &a);
	const struct zc_cmdline cmdline = {
		.name = "kernel-ab", .groups = &group, .ngroups = 1,
		.hint = "workload flags go after --",
		.about = "Boot each kernel in a qemu guest (initramfs built here: this zcbench, its\n"
			 "libraries, busybox, the workload), run `zcbench probe --json` and\n"
			 "`zcbench run W` on the guest's loopback, bring the results back over\n"
			 "virtio-serial, then `zcbench compare` them.\n",
	};
	const char *append[2];
	char *const *sysctls[2] = { a.sysctl0, a.sysctl1 };
	static char pb_store[1024], full_append[2][2048];
	static char *pb_argv[66];
	const char *names[2] = { "base", "new" };
	char outbuf[256], moddir[2][4096], version[2][256], err[1024], dirs[2][4096];
	char why[512] = "";
	int host_cpus[256], nhost = -1, failed = 0, compare_rc = -1;
	static struct zc_section ov;
	static struct zc_workload w;
	static struct zc_run_args ra;
	static struct zc_guest_result res[2];
	struct zc_guest_opts o[2];
	struct sigaction sa = { .sa_handler = on_signal };
	json_t *summary, *boots;
	bool compared = false;
	int ok_boots[2] = { 0, 0 };
	int rc = zc_opt_main(&cmdline, argc, argv);

	if (rc >= 0)
		return rc;
	for (int s = 0; s < 2; s++) {
		size_t l = 0;

		(s ? a.sysctl1 : a.sysctl0)[a.nsysctl[s]] = NULL;
		/* sysctl.K=V: the kernel applies them before it starts init. */
		full_append[s][0] = 0;
		if (a.append[s])
			l = (size_t)snprintf(full_append[s], sizeof(full_append[s]), "%s", a.append[s]);
		for (char *const *k = sysctls[s]; *k && l < sizeof(full_append[s]); k++)
			l += (size_t)snprintf(full_append[s] + l, sizeof(full_append[s]) - l, "%ssysctl.%s",
					      l ? " " : "", *k);
		append[s] = full_append[s][0] ? full_append[s] : NULL;
	}
	if (a.pipebench && zc_kab_pipebench_args(a.pipebench, pb_store, sizeof(pb_store), pb_argv,
						 ZC_ARRAY_SIZE(pb_argv), err, sizeof(err))) {
		zc_err("--pipebench '%s': %s", a.pipebench, err);
		return ZC_EXIT_USAGE;
	}
	a.run_args[a.nrun] = NULL;
	if (a.host_cpus)
		nhost = zc_kab_parse_cpulist(a.host_cpus, host_cpus, ZC_ARRAY_SIZE(host_cpus));
	/* The run flags, as the guests' zcbench run will read them (after the
	 * workload): their values, and the workload they change, are checked here. */
	{
		char *rargv[68] = { "run", (char *)a.workload };

		memcpy(rargv + 2, a.run_args, (a.nrun + 1) * sizeof(char *));
		rc = zc_run_parse(a.nrun + 2, rargv, &ra, &ov, err, sizeof(err));
		if (rc == ZC_OPT_HELP)
			return ZC_EXIT_OK;
		if (rc) {
			zc_err("-- RUN-FLAGS: %s", err);
			return ZC_EXIT_USAGE;
		}
	}
	/* Everything that can be checked is checked before a guest starts. */
	for (int s = 0; s < 2; s++) {
		if (zc_bzimage_check(a.image[s], version[s], sizeof(version[s]), err, sizeof(err))) {
			zc_err("--%s %s", names[s], err);
			return ZC_EXIT_USAGE;
		}
		if (a.moddir[s]) {
			struct stat st;
			char dep[4200];

			snprintf(dep, sizeof(dep), "%s/kernel", a.moddir[s]);
			if (stat(dep, &st)) {
				zc_err("--%s-modules %s: not a lib/modules/RELEASE folder (no kernel/: %s)",
				       names[s], a.moddir[s], strerror(errno));
				return ZC_EXIT_USAGE;
			}
			snprintf(moddir[s], sizeof(moddir[s]), "%s", a.moddir[s]);
		} else {
			zc_kab_guess_moddir(a.image[s], moddir[s], sizeof(moddir[s]));
		}
	}
	if (zc_workload_load(a.workload, &ov, &w, err, sizeof(err))) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	if (!zc_kab_in_path(a.qemu)) {
		zc_err("%s not found (install qemu-system-x86, or --qemu PATH)", a.qemu);
		return ZC_EXIT_USAGE;
	}
	if (!zc_kab_in_path("cpio") || access("/bin/busybox", X_OK)) {
		zc_err("the initramfs needs cpio and /bin/busybox (install cpio busybox-static)");
		return ZC_EXIT_USAGE;
	}
	if (nhost < 0) {
		long online = sysconf(_SC_NPROCESSORS_ONLN);

		nhost = 0;
		for (long c = online - a.cpus; c >= 0 && c < online && nhost < a.cpus; c++)
			host_cpus[nhost++] = (int)c;
	}
	if (!strcmp(a.accel, "auto")) {
		a.accel = zc_guest_kvm_works(a.qemu, a.image[0], why, sizeof(why)) ? "kvm" : "tcg";
		fprintf(stderr, "zcbench: kernel-ab: accel %s%s%s\n", a.accel, why[0] ? ": " : "",
			why);
	}
	if (!a.out) {
		time_t t = time(NULL);
		struct tm tm;

		localtime_r(&t, &tm);
		strftime(outbuf, sizeof(outbuf), "results/kernel-ab-%Y%m%dT%H%M%S", &tm);
		a.out = outbuf;
	}
	if (zc_out_dir(a.out, err, sizeof(err))) {
		zc_err("--out %s %s", a.out, err);
		return ZC_EXIT_USAGE;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	summary = json_pack("{s:s,s:s,s:s,s:i,s:s,s:f,s:s}", "schema", "zcbench-kernel-ab",
			    "workload", a.workload, "accel", a.accel, "vcpus", a.cpus, "mem", a.mem,
			    "timeout_s", a.timeout_s, "accel_note", why);
	for (int s = 0; s < 2; s++) {
		char note[512];

		snprintf(dirs[s], sizeof(dirs[s]), "%s/%s", a.out, names[s]);
		o[s] = (struct zc_guest_opts){
			.image = a.image[s], .moddir = moddir[s][0] ? moddir[s] : NULL,
			.workload = a.workload, .run_args = a.run_args, .accel = a.accel, .cpus = a.cpus,
			.mem = a.mem, .host_cpus = host_cpus, .nhost = nhost, .timeout_s = a.timeout_s,
			.dir = dirs[s], .qemu = a.qemu, .append = append[s], .sysctls = sysctls[s],
			.pipebench_args = a.pipebench ? pb_argv : NULL,
		};
		if (zc_guest_prepare(&o[s], note, sizeof(note), err, sizeof(err))) {
			zc_err("%s: initramfs: %s", names[s], err);
			json_decref(summary);
			return ZC_EXIT_FAIL;
		}
		if (note[0])
			fprintf(stderr, "zcbench: kernel-ab: %s: %s\n", names[s], note);
	}
	if (a.boots > 1)
		for (int s = 0; s < 2; s++) {
			char d[4200];

			snprintf(d, sizeof(d), "%s/%s-runs", a.out, names[s]);
			if (zc_out_dir(d, err, sizeof(err))) {
				zc_err("--out %s %s", d, err);
				json_decref(summary);
				return ZC_EXIT_USAGE;
			}
		}
	boots = json_array();
	for (int k = 0; k < 2 * a.boots && !(k && zc_interrupted); k++) {
		/* A B B A A B ...: a drift over the boots falls on both alike. */
		int s = zc_kab_side_of(k), b = k / 2 + 1;
		struct zc_guest_result one, *r = k < 2 ? &res[s] : &one;
		char dst[4200], pdst[4200], note[1024], tag[64] = "";
		json_t *side, *seen = NULL, *rec;

		if (k >= 2)
			memset(&one, 0, sizeof(one));
		if (a.boots > 1)
			snprintf(tag, sizeof(tag), " boot %d of %d", b, a.boots);
		fprintf(stderr, "zcbench: kernel-ab: %s%s: booting %s (%s) under %s, %d vCPUs, %s%s%s\n",
			names[s], tag, a.image[s], version[s], a.accel, a.cpus, a.mem,
			o[s].moddir ? ", modules from " : "", o[s].moddir ? o[s].moddir : "");
		if (zc_interrupted) {
			snprintf(r->reason, sizeof(r->reason), "interrupted before boot");
		} else if (k >= 2 && zc_guest_prepare(&o[s], note, sizeof(note), err, sizeof(err))) {
			/* Each boot removes its initramfs (tens of MB): the next one's anew. */
			snprintf(r->reason, sizeof(r->reason), "initramfs: %s", err);
		} else if (zc_guest_run(&o[s], r) < 0) {
			zc_err("%s: %s", names[s], r->reason);
		}
		if (a.boots > 1)
			snprintf(dst, sizeof(dst), "%s/%s-runs/boot-%d.json", a.out, names[s], b);
		else
			snprintf(dst, sizeof(dst), "%s/%s.json", a.out, names[s]);
		if (a.boots > 1)
			snprintf(pdst, sizeof(pdst), "%s/%s/boot-%d-probe.json", a.out, names[s], b);
		else
			snprintf(pdst, sizeof(pdst), "%s/%s-probe.json", a.out, names[s]);
		if (zc_kab_sysctls_seen(sysctls[s], r->sysctls_seen, &seen, note, sizeof(note)) &&
		    r->ok) {
			/* Results of a kernel that ignored the setting asked for are
			 * results of another experiment. */
			r->ok = false;
			snprintf(r->reason, sizeof(r->reason), "%s", note);
		}
		if (r->ok && zc_kab_annotate(r->results, dst, &o[s], r, names[s],
						 a.append[s])) {
			r->ok = false;
			snprintf(r->reason, sizeof(r->reason),
				 "the results file the guest sent is not JSON: %s", r->results);
		}
		if (r->ok)
			snprintf(r->results, sizeof(r->results), "%s", dst);
		if (r->probe[0]) {
			char *argv_cp[] = { "cp", r->probe, pdst, NULL };

			if (!zc_run_argv(argv_cp, NULL))
				snprintf(r->probe, sizeof(r->probe), "%s", pdst);
		}
		if (a.boots > 1)
			snprintf(pdst, sizeof(pdst), "%s/%s/boot-%d-pipebench.json", a.out, names[s], b);
		else
			snprintf(pdst, sizeof(pdst), "%s/%s-pipebench.json", a.out, names[s]);
		if (r->pipebench[0] && !zc_kab_annotate(r->pipebench, pdst, &o[s], r,
							   names[s], a.append[s]))
			snprintf(r->pipebench, sizeof(r->pipebench), "%s", pdst);
		if (a.boots > 1) {
			/* Each boot's console kept beside the next one's. */
			char from[4200], to[4200];

			snprintf(from, sizeof(from), "%s/console.log", dirs[s]);
			snprintf(to, sizeof(to), "%s/console-boot-%d.log", dirs[s], b);
			if (link(from, to) && errno != EEXIST)
				zc_warn("%s: %s", to, strerror(errno));
		}
		fprintf(stderr, "zcbench: kernel-ab: %s%s: %s after %.1f s%s%s (console: %s/console.log)\n",
			names[s], tag, r->ok ? "results back" : "FAILED", r->boot_run_s,
			r->ok ? "" : ": ", r->ok ? "" : r->reason, dirs[s]);
		if (r->probe_note[0])
			fprintf(stderr, "zcbench: kernel-ab: %s: %s\n", names[s], r->probe_note);
		if (r->pin_note[0])
			fprintf(stderr, "zcbench: kernel-ab: %s: %s\n", names[s], r->pin_note);
		failed += !r->ok;
		side = json_pack("{s:s,s:s,s:s,s:b,s:s,s:s,s:s,s:s,s:i,s:i,s:f,s:b,s:s,s:s}",
			"image", a.image[s], "image_version", version[s], "release", r->release,
			"ok", r->ok, "reason", r->reason,
			"results", r->ok ? r->results : "",
			"probe", r->probe, "probe_note", r->probe_note,
			"run_exit", r->run_rc, "probe_exit", r->probe_rc,
			"boot_run_s", r->boot_run_s, "vcpus_pinned", r->pinned,
			"pin_note", r->pin_note, "console", dirs[s]);
		json_object_set_new(side, "modules", o[s].moddir ? json_string(o[s].moddir) : json_null());
		json_object_set_new(side, "append", a.append[s] ? json_string(a.append[s]) : json_null());
		json_object_set_new(side, "sysctls", zc_kab_sysctls(sysctls[s]));
		json_object_set_new(side, "sysctls_seen", seen);
		json_object_set_new(side, "kernel_cmdline_extra", append[s] ? json_string(append[s]) : json_null());
		json_object_set_new(side, "pipebench", r->pipebench[0] ? json_string(r->pipebench)
									 : json_null());
		/* What kernel-build put into the image, when it left a record beside it. */
		rec = zc_kab_build_record(a.image[s], note, sizeof(note));
		json_object_set_new(side, "build", rec ? rec : json_null());
		if (note[0]) {
			json_object_set_new(side, "build_note", json_string(note));
			fprintf(stderr, "zcbench: kernel-ab: %s: %s\n", names[s], note);
		}
		json_object_set_new(side, "side", json_string(names[s]));
		json_object_set_new(side, "boot", json_integer(b));
		json_array_append(boots, side);
		/* The first boot of each side, as with one boot a side. */
		if (k < 2)
			json_object_set_new(summary, names[s], side);
		else
			json_decref(side);
		ok_boots[s] += r->ok;
	}
	json_object_set_new(summary, "boots", json_integer(a.boots));
	json_object_set_new(summary, "boot_order", json_string(a.boots > 1 ? "abba" : "ab"));
	json_object_set_new(summary, "boots_run", boots);
	{
		char fpath[4200];
		FILE *f;

		snprintf(fpath, sizeof(fpath), "%s/fingerprints.txt", a.out);
		f = zc_out_fopen(fpath);
		if (f) {
			zc_print_fingerprints(f, o, res);
			fclose(f);
		}
		zc_print_fingerprints(stdout, o, res);
		fputc('\n', stdout);
	}
	if (a.boots > 1 && ok_boots[0] && ok_boots[1]) {
		/* The boots that came back, each an invocation: compare's folders. */
		if (failed)
			printf("%d of %d boots failed (their console logs are kept): compared what came "
			       "back, %d base and %d new\n", failed, 2 * a.boots, ok_boots[0], ok_boots[1]);
		char rd[2][4200];

		for (int s = 0; s < 2; s++)
			snprintf(rd[s], sizeof(rd[s]), "%s/%s-runs", a.out, names[s]);
		compared = zc_kab_compare(a.out, !strcmp(a.accel, "tcg"), rd[0], rd[1], &compare_rc);
	} else if (!failed && a.boots == 1) {
		compared = zc_kab_compare(a.out, !strcmp(a.accel, "tcg"), res[0].results, res[1].results,
					  &compare_rc);
	} else {
		printf("comparison skipped, a side failed (its console log is kept):\n");
		for (int s = 0; s < 2; s++)
			if (!res[s].ok)
				printf("  %s: %s\n      console: %s/console.log\n", names[s],
				       res[s].reason, dirs[s]);
	}
	json_object_set_new(summary, "compared", json_boolean(compared));
	/* compare's own gate (1: past its threshold), for nightly jobs to read;
	 * kernel-ab's exit code only says whether both sides came back. */
	json_object_set_new(summary, "compare_exit", json_integer(compare_rc));
	{
		char spath[4200];

		snprintf(spath, sizeof(spath), "%s/kernel-ab.json", a.out);
		if (zc_json_write_atomic(summary, spath))
			zc_warn("%s: %s", spath, strerror(errno));
	}
	json_decref(summary);
	printf("kernel-ab: everything is in %s/\n", a.out);
	if (zc_interrupted)
		return ZC_EXIT_INTR;
	return failed ? ZC_EXIT_FAIL : ZC_EXIT_OK;
}
