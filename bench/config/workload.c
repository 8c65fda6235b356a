// SPDX-License-Identifier: GPL-2.0
#include "config/workload.h"
#include "lib/ini.h"

#include <errno.h>
#include <string.h>

struct parse {
	struct zc_workload *w;
	char *err;
	size_t errlen;
	bool failed;
};

static int add_kv(struct zc_section *s, const char *key, const char *value, int line)
{
	if (s->nkv == ZC_KV_MAX)
		return -E2BIG;
	snprintf(s->kv[s->nkv].key, sizeof(s->kv[0].key), "%s", key);
	snprintf(s->kv[s->nkv].value, sizeof(s->kv[0].value), "%s", value);
	s->kv[s->nkv].line = line;
	s->nkv++;
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *value,
		   int line)
{
	struct parse *p = user;
	struct zc_workload *w = p->w;
	struct zc_section *s;
	char cfgerr[256];
	struct zc_cfg scratch;
	const struct zc_opt *o;

	if (p->failed)
		return 0;
#define BAD(...)                                                                     \
	do {                                                                         \
		int n_ = snprintf(p->err, p->errlen, "%s:%d: ", w->path, line);        \
		snprintf(p->err + n_, p->errlen - n_, __VA_ARGS__);                  \
		p->failed = true;                                                    \
		return 0;                                                            \
	} while (0)
	if (!strcmp(section, "workload")) {
		s = &w->global;
		if (!strcmp(key, "name")) {
			snprintf(w->name, sizeof(w->name), "%s", value);
			return 1;
		}
		if (!strcmp(key, "description")) {
			snprintf(w->description, sizeof(w->description), "%s", value);
			return 1;
		}
	} else if (!strncmp(section, "run ", 4) && section[4]) {
		s = w->nsec ? &w->sec[w->nsec - 1] : NULL;
		if (!s || s->line != zc_ini_section_line()) {
			for (int i = 0; i < w->nsec; i++)
				if (!strcmp(w->sec[i].name, section + 4) &&
				    (line = zc_ini_section_line()))
					BAD("section [%s] appears twice", section);
			if (w->nsec == ZC_RUNS_MAX)
				BAD("more than %d run sections", ZC_RUNS_MAX);
			s = &w->sec[w->nsec++];
			snprintf(s->name, sizeof(s->name), "%s", section + 4);
			s->line = zc_ini_section_line();
		}
	} else {
		BAD("unknown section [%s] (expected [workload] or [run NAME])", section);
	}
	o = zc_opt_find(key);
	if (!o)
		BAD("unknown key '%s' in [%s] (zcbench keys lists them)", key, section);
	/* Check the value now, so the error names this line. */
	zc_cfg_defaults(&scratch);
	if (zc_opt_set(&scratch, o, value, cfgerr, sizeof(cfgerr)))
		BAD("key '%s': %s", key, cfgerr);
	if (add_kv(s, key, value, line))
		BAD("too many keys in [%s]", section);
	return 1;
#undef BAD
}

static int apply(struct zc_cfg *cfg, const struct zc_section *s, const char *file, char *err,
		 size_t errlen, int lines[])
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
	}
	return 0;
}

int zc_override_add(struct zc_section *ov, const char *key, const char *value, char *err,
		    size_t errlen)
{
	const struct zc_opt *o = zc_opt_find(key);
	struct zc_cfg scratch;
	char why[256];

	if (!o) {
		snprintf(err, errlen, "command line: --%s: unknown option (zcbench keys lists them)",
			 key);
		return -EINVAL;
	}
	zc_cfg_defaults(&scratch);
	if (zc_opt_set(&scratch, o, value, why, sizeof(why))) {
		snprintf(err, errlen, "command line: --%s: %s", key, why);
		return -EINVAL;
	}
	if (add_kv(ov, o->key, value, 0)) {
		snprintf(err, errlen, "command line: too many options");
		return -EINVAL;
	}
	return 0;
}

int zc_workload_load(const char *path, const struct zc_section *ov, struct zc_workload *w,
		     char *err, size_t errlen)
{
	struct parse p = { .w = w, .err = err, .errlen = errlen };
	int ret;

	memset(w, 0, sizeof(*w));
	snprintf(w->path, sizeof(w->path), "%s", path);
	ret = zc_ini_parse(path, handler, &p);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(-ret));
		return -EINVAL;
	}
	if (p.failed)
		return -EINVAL;
	if (ret > 0) {
		snprintf(err, errlen, "%s:%d: syntax error (expected [section] or key = value)",
			 path, ret);
		return -EINVAL;
	}
	if (!w->nsec) {
		snprintf(err, errlen, "%s: no [run NAME] section", path);
		return -EINVAL;
	}
	for (int i = 0; i < w->nsec; i++) {
		struct zc_cfg base;
		int lines[64] = { 0 };

		zc_cfg_defaults(&base);
		snprintf(base.name, sizeof(base.name), "%s", w->sec[i].name);
		if (apply(&base, &w->global, path, err, errlen, lines) ||
		    apply(&base, &w->sec[i], path, err, errlen, lines) ||
		    (ov && apply(&base, ov, path, err, errlen, lines)))
			return -EINVAL;
		int nexp = zc_cfg_expand(&base, w->runs + w->nruns, ZC_RUNS_MAX - w->nruns);

		if (nexp < 0) {
			snprintf(err, errlen, "%s: more than %d runs after expansion", path, ZC_RUNS_MAX);
			return -EINVAL;
		}
		for (int e = 0; e < nexp; e++) {
			struct zc_cfg *r = &w->runs[w->nruns++];
			char why[256];
			const char *bad = NULL;

			if (zc_cfg_validate(r, why, sizeof(why), &bad)) {
				const struct zc_opt *o = bad ? zc_opt_find(bad) : NULL;
				int line = o && lines[o - zc_opts] ? lines[o - zc_opts]
								   : w->sec[i].line;
				/* "key 'k': why" */
				const char *what = strstr(why, "': ") ? strstr(why, "': ") + 3 : why;

				if (line < 0)
					snprintf(err, errlen, "command line: --%s: %s ([run %s])",
						 o->key, what, w->sec[i].name);
				else
					snprintf(err, errlen, "%s:%d: [run %s]: %s", path, line,
						 w->sec[i].name, why);
				return -EINVAL;
			}
		}
	}
	if (!w->name[0])
		snprintf(w->name, sizeof(w->name), "%s", path);
	return 0;
}
