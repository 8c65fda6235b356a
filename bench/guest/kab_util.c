// SPDX-License-Identifier: GPL-2.0
/* kernel-ab's helpers: option checks, paths, the per-side records (results
 * annotation, sysctls, the kernel-build record of an image), the comparison. */
/* Paths here are bounded by PATH_MAX and messages may lose a tail: gcc's
 * worst-case sums of nested buffers are not real truncations. */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#include "lib/zcbench.h"
#include "guest/guest.h"
#include "guest/kab_int.h"
#include "guest/kbuild_int.h"
#include "results/results.h"
#include "lib/outpath.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TCG_WARNING                                                                       \
	"WARNING: both guests ran under software emulation (qemu TCG, no KVM): the\n"    \
	"throughput figures below say nothing about real hardware. Only the kernel\n"    \
	"fingerprints and behaviour differences (modes available, errors, verified\n"    \
	"payload, calls per MB) count.\n"

/* "0-1,3": count, or -EINVAL. */
int zc_kab_parse_cpulist(const char *s, int *out, int max)
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

bool zc_kab_in_path(const char *prog)
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
bool zc_kab_compare(const char *outdir, bool tcg, const char *base, const char *new_,
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
void zc_kab_guess_moddir(const char *image, char *out, size_t len)
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

int zc_kab_check_mem(const char *v, char *why, size_t len)
{
	uint64_t b;

	if (!zc_parse_size(v, &b) && b >= (128ULL << 20))
		return 0;
	snprintf(why, len, "'%s' is not a size of at least 128M, e.g. 1G", v);
	return -EINVAL;
}

int zc_kab_check_cpulist(const char *v, char *why, size_t len)
{
	int cpus[256];

	if (zc_kab_parse_cpulist(v, cpus, ZC_ARRAY_SIZE(cpus)) >= 1)
		return 0;
	snprintf(why, len, "'%s' is not a cpu list such as 0-1 or 2,3", v);
	return -EINVAL;
}

int zc_kab_check_accel(const char *v, char *why, size_t len)
{
	if (!strcmp(v, "auto") || !strcmp(v, "kvm") || !strcmp(v, "tcg"))
		return 0;
	snprintf(why, len, "'%s' is not auto, kvm or tcg", v);
	return -EINVAL;
}


/* K=V for sysctl.K=V: K a dotted sysctl name, V one word. */
int zc_kab_check_sysctl(const char *v, char *why, size_t len)
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

json_t *zc_kab_sysctls(char *const *kv)
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

int zc_kab_sysctls_seen(char *const *kv, const char *seen, json_t **out, char *why, size_t len)
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

int zc_kab_annotate(const char *src, const char *dst, const struct zc_guest_opts *o,
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
	json_object_set_new(root, "guest", g);
	ret = zc_json_write_atomic(root, dst);
	json_decref(root);
	return ret;
}

json_t *zc_kab_build_record(const char *image, char *note, size_t len)
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

int zc_kab_pipebench_args(const char *flags, char *store, size_t slen, char **argv, int max,
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
