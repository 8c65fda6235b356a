// SPDX-License-Identifier: GPL-2.0
/* The kernel modules a guest needs, with their dependencies from modules.dep. */
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


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


/* The folder holding modules.dep for o->moddir (.../lib/modules/REL). */
int zc_find_moddep(const struct zc_guest_opts *o, char *depdir, size_t len, char *err,
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
		rc = zc_run_argv(argv, &(struct zc_spawn_opts){ .out_path = log });
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
			zc_run_argv(argv, NULL);
	}
	return 0;
}
