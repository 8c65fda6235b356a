// SPDX-License-Identifier: GPL-2.0
#include "config/workload.h"
#include "lib/ini.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

struct parse {
	struct zc_workload *w;
	struct zc_section *cur;	/* the section being read */
	char *err;
	size_t errlen;
};

#define bad(p, line, ...) zc_ini_fault((p)->err, (p)->errlen, (p)->w->path, line, __VA_ARGS__)

/* 0, or -E2BIG when the section is full or key or value do not fit (never cut). */
static int add_kv(struct zc_section *s, const char *key, const char *value, int line)
{
	if (s->nkv == ZC_KV_MAX || strlen(key) >= sizeof(s->kv[0].key) ||
	    strlen(value) >= sizeof(s->kv[0].value))
		return -E2BIG;
	strcpy(s->kv[s->nkv].key, key);
	strcpy(s->kv[s->nkv].value, value);
	s->kv[s->nkv].line = line;
	s->nkv++;
	return 0;
}

/* A [run NAME] header: a new section. */
static int new_run(struct parse *p, const char *section, int line)
{
	struct zc_workload *w = p->w;
	const char *name = section + 4;

	while (*name == ' ' || *name == '\t')
		name++;
	if (!*name)
		return bad(p, line, "[%s] has no name (expected [run NAME])", section);
	if (strlen(name) >= sizeof(w->sec[0].name))
		return bad(p, line, "run name '%s' is longer than %zu bytes", name,
			   sizeof(w->sec[0].name) - 1);
	for (int i = 0; i < w->nsec; i++)
		if (!strcmp(w->sec[i].name, name))
			return bad(p, line, "[run %s] appears twice (first on line %d)", name,
				   w->sec[i].line);
	if (w->nsec == ZC_RUNS_MAX)
		return bad(p, line, "more than %d run sections", ZC_RUNS_MAX);
	p->cur = &w->sec[w->nsec++];
	strcpy(p->cur->name, name);
	p->cur->line = line;
	return 0;
}

/* A text of [workload] (name, description): refused rather than cut. */
static int set_text(struct parse *p, char *dst, size_t size, const char *key, const char *value,
		    int line)
{
	if (strlen(value) >= size)
		return bad(p, line, "key '%s': longer than %zu bytes", key, size - 1);
	strcpy(dst, value);
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value, int line)
{
	struct parse *p = user;
	struct zc_workload *w = p->w;
	char cfgerr[256];
	struct zc_cfg scratch;
	const struct zc_opt *o;

	if (!key) {
		if (!strcmp(section, "workload")) {
			p->cur = &w->global;
			w->global.line = line;
			return 0;
		}
		if (!strncmp(section, "run ", 4))
			return new_run(p, section, line);
		return bad(p, line, "unknown section [%s] (expected [workload] or [run NAME])", section);
	}
	if (p->cur == &w->global && !strcmp(key, "name"))
		return set_text(p, w->name, sizeof(w->name), key, value, line);
	if (p->cur == &w->global && !strcmp(key, "description"))
		return set_text(p, w->description, sizeof(w->description), key, value, line);
	o = zc_opt_find(key);
	if (!o)
		return bad(p, line, "unknown key '%s' in [%s] (zcbench keys lists them)", key, section);
	/* Check the value now, so the error names this line. */
	zc_cfg_defaults(&scratch);
	if (zc_opt_set(&scratch, o, value, cfgerr, sizeof(cfgerr)))
		return bad(p, line, "key '%s': %s", key, cfgerr);
	if (add_kv(p->cur, key, value, line))
		return bad(p, line, "key '%s': too many keys in [%s], or the value is longer than "
			   "%zu bytes", key, section, sizeof(p->cur->kv[0].value) - 1);
	return 0;
}

/* Apply section s to cfg, noting where each key was set (origin, line). */
static int apply(struct zc_cfg *cfg, const struct zc_section *s, unsigned char from, const char *file,
		 char *err, size_t errlen, int lines[], unsigned char origin[])
{
	char why[256];

	for (int i = 0; i < s->nkv; i++) {
		const struct zc_opt *o = zc_opt_find(s->kv[i].key);

		if (!o || zc_opt_set(cfg, o, s->kv[i].value, why, sizeof(why))) {
			if (s->kv[i].line)
				snprintf(err, errlen, "%s:%d: key '%s': %s", file, s->kv[i].line,
					 s->kv[i].key, o ? why : "unknown key");
			else
				snprintf(err, errlen, "command line: --%s: %s", s->kv[i].key,
					 o ? why : "unknown option");
			return -EINVAL;
		}
		lines[o - zc_opts] = s->kv[i].line ? s->kv[i].line : -1;	/* -1: command line */
		origin[o - zc_opts] = from;
	}
	return 0;
}

int zc_override_add(struct zc_section *ov, const char *key, const char *value, char *err,
		    size_t errlen)
{
	const struct zc_opt *o = zc_opt_find(key);
	struct zc_cfg scratch;
	char why[256];
	long bad_at = zc_utf8_bad(value, strlen(value));

	if (!o) {
		snprintf(err, errlen, "command line: --%s: unknown option (zcbench keys lists them)",
			 key);
		return -EINVAL;
	}
	if (bad_at >= 0) {
		zc_utf8_why(value, strlen(value), bad_at, why, sizeof(why));
		snprintf(err, errlen, "command line: --%s: %s at byte %ld of the value", key, why,
			 bad_at);
		return -EINVAL;
	}
	zc_cfg_defaults(&scratch);
	if (zc_opt_set(&scratch, o, value, why, sizeof(why))) {
		snprintf(err, errlen, "command line: --%s: %s", key, why);
		return -EINVAL;
	}
	if (add_kv(ov, o->key, value, 0)) {
		snprintf(err, errlen, "command line: --%s: too many options, or a value longer than "
			 "%zu bytes", key, sizeof(ov->kv[0].value) - 1);
		return -EINVAL;
	}
	return 0;
}

/* "file:line: [run NAME]: why" or "command line: --key: why ([run NAME])". */
static void blame(char *err, size_t errlen, const char *path, const struct zc_section *s,
		  const char *key, const int lines[], const char *why)
{
	const struct zc_opt *o = key ? zc_opt_find(key) : NULL;
	int line = o && lines[o - zc_opts] ? lines[o - zc_opts] : s->line;
	/* "key 'k': why" */
	const char *what = strstr(why, "': ") ? strstr(why, "': ") + 3 : why;

	if (line < 0)
		snprintf(err, errlen, "command line: --%s: %s ([run %s])", o->key, what, s->name);
	else
		snprintf(err, errlen, "%s:%d: [run %s]: %s", path, line, s->name, why);
}

/*
 * A key set in [workload] or as a flag for every run that no run can use:
 * today the proxy, when no run has topology = proxy.
 */
static int unused_everywhere(const struct zc_workload *w, const struct zc_section *ov, char *err,
			     size_t errlen)
{
	const struct zc_section *where[] = { &w->global, ov };

	for (int i = 0; i < w->nruns; i++)
		if (w->runs[i].topology == ZC_TOPO_PROXY)
			return 0;
	for (size_t k = 0; k < ZC_ARRAY_SIZE(where); k++) {
		for (int i = 0; where[k] && i < where[k]->nkv; i++) {
			const struct zc_kv *kv = &where[k]->kv[i];
			const char *why = "no run of this workload has topology = proxy, so it would "
					  "be ignored";

			if (strcmp(kv->key, "proxy"))
				continue;
			if (kv->line)
				snprintf(err, errlen, "%s:%d: key 'proxy': %s", w->path, kv->line, why);
			else
				snprintf(err, errlen, "command line: --proxy: %s", why);
			return -EINVAL;
		}
	}
	return 0;
}

/* No name = in [workload]: the file's name without .ini, cut whole characters. */
static void default_name(struct zc_workload *w)
{
	const char *base = strrchr(w->path, '/') ? strrchr(w->path, '/') + 1 : w->path;
	size_t n = strlen(base);

	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	if (n >= sizeof(w->name))
		n = sizeof(w->name) - 1;
	while (n && zc_utf8_bad(base, n) >= 0)
		n--;	/* never half a UTF-8 sequence */
	memcpy(w->name, base, n);
	w->name[n] = 0;
}

int zc_workload_load(const char *path, const struct zc_section *ov, struct zc_workload *w,
		     char *err, size_t errlen)
{
	struct parse p = { .w = w, .err = err, .errlen = errlen };
	long bad_at = zc_utf8_bad(path, strlen(path));

	if (zc_nopts > ZC_KV_MAX)
		zc_die("%zu workload keys, at most %d (ZC_KV_MAX)", zc_nopts, ZC_KV_MAX);
	memset(w, 0, sizeof(*w));
	/* The path goes into the results file: whole, and UTF-8. */
	if (strlen(path) >= sizeof(w->path) || bad_at >= 0) {
		snprintf(err, errlen, "workload file name: %s", bad_at >= 0 ? "not UTF-8" :
			 "longer than 511 bytes");
		return -EINVAL;
	}
	strcpy(w->path, path);
	if (zc_ini_parse(path, handler, &p, err, errlen))
		return -EINVAL;
	if (!w->nsec) {
		snprintf(err, errlen, "%s: no [run NAME] section", path);
		return -EINVAL;
	}
	for (int i = 0; i < w->nsec; i++) {
		struct zc_cfg base;
		int lines[ZC_KV_MAX] = { 0 };
		unsigned char origin[ZC_KV_MAX] = { 0 };

		zc_cfg_defaults(&base);
		snprintf(base.name, sizeof(base.name), "%s", w->sec[i].name);
		if (apply(&base, &w->global, ZC_SET_WORKLOAD, path, err, errlen, lines, origin) ||
		    apply(&base, &w->sec[i], ZC_SET_RUN, path, err, errlen, lines, origin) ||
		    (ov && apply(&base, ov, ZC_SET_FLAG, path, err, errlen, lines, origin)))
			return -EINVAL;
		int nexp = zc_cfg_expand(&base, w->runs + w->nruns, ZC_RUNS_MAX - w->nruns);

		if (nexp < 0) {
			snprintf(err, errlen, "%s: more than %d runs after expansion", path, ZC_RUNS_MAX);
			return -EINVAL;
		}
		for (int e = 0; e < nexp; e++) {
			struct zc_cfg *r = &w->runs[w->nruns++];
			char why[512];
			const char *badkey = NULL;

			if (zc_cfg_validate(r, why, sizeof(why), &badkey) ||
			    zc_cfg_conflicts(r, origin, why, sizeof(why), &badkey) ||
			    zc_cfg_files_check(r, why, sizeof(why), &badkey)) {
				blame(err, errlen, path, &w->sec[i], badkey, lines, why);
				return -EINVAL;
			}
		}
	}
	if (unused_everywhere(w, ov, err, errlen))
		return -EINVAL;
	if (!w->name[0])
		default_name(w);
	return 0;
}
