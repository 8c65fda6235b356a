// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses to names for the sampler: the kernel's from /proc/kallsyms (read
 * once, sorted, bisected), a process's from its maps and ELF symbol tables
 * through elfutils' libdwfl, which perf itself can use. A process's maps are
 * read when it is first seen, so names come out right even if it exits
 * before the profile is folded.
 */
#include "profile/profile_int.h"
#include "lib/zcbench.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int by_addr(const void *a, const void *b)
{
	const struct zc_ksym *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

int zc_ksyms_load(struct zc_ksyms *k)
{
	size_t len, cap = 0;
	char *p, *nl;
	bool any_addr = false;

	memset(k, 0, sizeof(*k));
	k->text = zc_read_file("/proc/kallsyms", 64u << 20, &len);
	if (!k->text)
		return -errno;
	for (p = k->text; *p; p = nl + 1) {
		char type, *name, *end;
		uint64_t addr = strtoull(p, &end, 16);

		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (end == p || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		/* Text only: t/T code, w/W weak code. */
		if (!strchr("tTwW", type))
			continue;
		any_addr |= addr != 0;
		name[strcspn(name, "\t ")] = 0;	/* "name\t[module]" */
		if (k->n == cap) {
			struct zc_ksym *v = realloc(k->v, (cap = cap ? 2 * cap : 65536) * sizeof(*v));

			if (!v) {
				zc_ksyms_free(k);
				return -ENOMEM;
			}
			k->v = v;
		}
		k->v[k->n++] = (struct zc_ksym){ addr, name };
	}
	if (!any_addr) {
		zc_ksyms_free(k);
		return -EPERM;
	}
	qsort(k->v, k->n, sizeof(*k->v), by_addr);
	return 0;
}

const char *zc_ksyms_find(const struct zc_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	if (!k->n || addr < k->v[0].addr)
		return NULL;
	/* The last symbol at or below addr. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return k->v[lo].name;
}

void zc_ksyms_free(struct zc_ksyms *k)
{
	free(k->v);
	free(k->text);
	memset(k, 0, sizeof(*k));
}

struct zc_usyms {
	Dwfl *dwfl;
};

static char *debuginfo_path;
static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

struct zc_usyms *zc_usyms_open(pid_t pid)
{
	struct zc_usyms *u = calloc(1, sizeof(*u));

	if (!u)
		return NULL;
	u->dwfl = dwfl_begin(&proc_callbacks);
	if (!u->dwfl || dwfl_linux_proc_report(u->dwfl, pid) ||
	    dwfl_report_end(u->dwfl, NULL, NULL)) {
		zc_usyms_close(u);
		return NULL;
	}
	return u;
}

int zc_usyms_find(struct zc_usyms *u, uint64_t ip, char *out, size_t len)
{
	Dwfl_Module *m = u ? dwfl_addrmodule(u->dwfl, ip) : NULL;
	const char *name, *file, *base;

	if (!m)
		return -ENOENT;
	name = dwfl_module_addrname(m, ip);
	if (name) {
		snprintf(out, len, "%s", name);
		return 0;
	}
	file = dwfl_module_info(m, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	base = file ? strrchr(file, '/') : NULL;
	snprintf(out, len, "[%s]", base ? base + 1 : file ? file : "unknown");
	return 0;
}

void zc_usyms_close(struct zc_usyms *u)
{
	if (!u)
		return;
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}
