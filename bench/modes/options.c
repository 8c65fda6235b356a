// SPDX-License-Identifier: GPL-2.0
/*
 * A mode's own options. A run carries them as one text, mode_opts =
 * "KEY=VALUE[,KEY=VALUE]" (a workload key like any other, so it travels to
 * the role and into the results file with the rest); each mode takes the
 * keys it declares, with their type, default and bounds, into its priv.
 * Keys share one namespace with the workload keys, so modes prefix theirs.
 */
#include "modes/mode.h"
#include "lib/opt.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define KV_TEXT_MAX 512

static const char *const type_names[] = {
	[ZC_MODE_OPT_LONG] = "integer", [ZC_MODE_OPT_SIZE] = "size", [ZC_MODE_OPT_DOUBLE] = "number",
};

const struct zc_mode_opt *zc_mode_opt_find(const char *key, const struct zc_mode **owner)
{
	for (size_t i = 0; i < zc_nmodes; i++)
		for (const struct zc_mode_opt *o = zc_modes[i]->opts; o && o->key; o++)
			if (zc_key_eq(o->key, key)) {
				if (owner)
					*owner = zc_modes[i];
				return o;
			}
	return NULL;
}

/* Parse v for o; store it in priv unless priv is NULL. 0 or -EINVAL (err). */
static int opt_set(const struct zc_mode_opt *o, const char *v, void *priv, char *err, size_t errlen)
{
	double d;
	uint64_t u;
	long l;

	switch (o->type) {
	case ZC_MODE_OPT_LONG:
		if (zc_parse_long(v, &l) || l < o->min || l > o->max)
			break;
		if (priv)
			*(long *)((char *)priv + o->off) = l;
		return 0;
	case ZC_MODE_OPT_SIZE:
		if (zc_parse_size(v, &u) || u < o->min || u > o->max)
			break;
		if (priv)
			*(uint64_t *)((char *)priv + o->off) = u;
		return 0;
	case ZC_MODE_OPT_DOUBLE:
		if (zc_parse_double(v, &d) || d < o->min || d > o->max)
			break;
		if (priv)
			*(double *)((char *)priv + o->off) = d;
		return 0;
	}
	snprintf(err, errlen, "mode option %s: '%s' is not %s in [%g, %g]", o->key, v,
		 o->type == ZC_MODE_OPT_LONG ? "an integer" : o->type == ZC_MODE_OPT_SIZE ? "a size" :
		 "a number", o->min, o->max);
	return -EINVAL;
}

/* Call fn on each KEY=VALUE of text (separated by commas or blanks). 0, fn's
 * error, or -EINVAL with a message. */
static int each_kv(const char *text, int (*fn)(const char *k, const char *v, void *arg, char *err,
					       size_t errlen),
		   void *arg, char *err, size_t errlen)
{
	char buf[KV_TEXT_MAX], *items[64], why[512];
	int ret, n;

	if (!text || !text[strspn(text, " \t")])
		return 0;	/* none: every mode's defaults */
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "mode_opts is longer than %d characters", KV_TEXT_MAX - 1);
		return -EINVAL;
	}
	if ((n = zc_list_split(text, buf, sizeof(buf), items, (int)ZC_ARRAY_SIZE(items), why,
			       sizeof(why))) < 0) {
		snprintf(err, errlen, "mode_opts: %s", why);
		return n;
	}
	for (int i = 0; i < n; i++) {
		char *tok = items[i], *eq = strchr(tok, '=');

		if (!eq || eq == tok || !eq[1]) {
			snprintf(err, errlen, "mode_opts: '%s' is not KEY=VALUE", tok);
			return -EINVAL;
		}
		*eq = 0;
		if ((ret = fn(tok, eq + 1, arg, err, errlen)))
			return ret;
	}
	return 0;
}

static int check_one(const char *k, const char *v, void *arg, char *err, size_t errlen)
{
	const struct zc_mode_opt *o = zc_mode_opt_find(k, NULL);

	(void)arg;
	if (!o) {
		snprintf(err, errlen, "mode_opts: no mode has an option '%s' (zcbench list shows "
			 "each mode's)", k);
		return -EINVAL;
	}
	return opt_set(o, v, NULL, err, errlen);
}

int zc_mode_opts_check(const char *text, char *err, size_t errlen)
{
	return each_kv(text, check_one, NULL, err, errlen);
}

struct apply_ctx {
	const struct zc_mode *m;
	void *priv;
};

const struct zc_mode_opt *zc_mode_own_opt(const struct zc_mode *m, const char *key)
{
	for (const struct zc_mode_opt *o = m ? m->opts : NULL; o && o->key; o++)
		if (zc_key_eq(o->key, key))
			return o;
	return NULL;
}

static int apply_one(const char *k, const char *v, void *arg, char *err, size_t errlen)
{
	struct apply_ctx *c = arg;
	const struct zc_mode_opt *o = zc_mode_own_opt(c->m, k);

	/* Another mode's key: a workload may set it for all runs. */
	if (!o)
		return check_one(k, v, NULL, err, errlen);
	return opt_set(o, v, c->priv, err, errlen);
}

/* Defaults, then text's keys of m, into priv. 0 or -EINVAL (err). */
int zc_mode_opts_apply(const struct zc_mode *m, void *priv, const char *text, char *err,
		       size_t errlen)
{
	struct apply_ctx c = { m, priv };
	int ret;

	for (const struct zc_mode_opt *o = m->opts; o && o->key; o++)
		if ((ret = opt_set(o, o->def, priv, err, errlen)))
			return ret;
	return each_kv(text, apply_one, &c, err, errlen);
}

int zc_mode_opts_canon(const struct zc_mode *m, const char *text, char *out, size_t len)
{
	char err[256];
	void *priv;
	size_t o = 0;
	int ret;

	out[0] = 0;
	if (!m->opts || !m->opts->key)
		return 0;
	if (!(priv = calloc(1, m->priv_size)))
		return -ENOMEM;
	ret = zc_mode_opts_apply(m, priv, text, err, sizeof(err));
	for (const struct zc_mode_opt *opt = m->opts; !ret && opt->key && o < len; opt++) {
		const char *p = (const char *)priv + opt->off;

		o += opt->type == ZC_MODE_OPT_LONG ?
			snprintf(out + o, len - o, "%s%s=%ld", o ? "," : "", opt->key, *(const long *)p) :
		     opt->type == ZC_MODE_OPT_SIZE ?
			snprintf(out + o, len - o, "%s%s=%llu", o ? "," : "", opt->key,
				 (unsigned long long)*(const uint64_t *)p) :
			snprintf(out + o, len - o, "%s%s=%.17g", o ? "," : "", opt->key,
				 *(const double *)p);
	}
	free(priv);
	return ret;
}

unsigned zc_mode_uses(const struct zc_mode *m, const char *text)
{
	unsigned uses = m && m->uses ? m->uses & ZC_USE_ALL : ZC_USE_ALL;
	const struct zc_mode_opt *o = m ? zc_mode_own_opt(m, m->uses_opt ?: "") : NULL;
	char err[256], *p;

	if (!o || uses == ZC_USE_ALL)
		return uses;
	if (!(p = calloc(1, m->priv_size)) || zc_mode_opts_apply(m, p, text, err, sizeof(err)))
		uses = ZC_USE_ALL;
	else if (o->type == ZC_MODE_OPT_LONG ? *(long *)(p + o->off) != 0 :
		 o->type == ZC_MODE_OPT_SIZE ? *(uint64_t *)(p + o->off) != 0 :
		 *(double *)(p + o->off) != 0)
		uses = ZC_USE_ALL;
	free(p);
	return uses;
}

json_t *zc_mode_opts_json(const struct zc_mode *m, const struct zc_io *io)
{
	json_t *j;

	if (!m->opts || !m->opts->key || !io->priv)
		return NULL;
	j = json_object();
	for (const struct zc_mode_opt *o = m->opts; o->key; o++) {
		const char *p = (const char *)io->priv + o->off;

		json_object_set_new(j, o->key,
				    o->type == ZC_MODE_OPT_LONG ? json_integer(*(const long *)p) :
				    o->type == ZC_MODE_OPT_SIZE ? json_integer(*(const uint64_t *)p) :
				    json_real(*(const double *)p));
	}
	return j;
}

void zc_mode_opt_print(FILE *f, const struct zc_mode_opt *o)
{
	if (o->type == ZC_MODE_OPT_DOUBLE)
		fprintf(f, "%s = %s (%s, %g..%g): %s\n", o->key, o->def, type_names[o->type], o->min,
			o->max, o->help);
	else
		fprintf(f, "%s = %s (%s, %.0f..%.0f): %s\n", o->key, o->def, type_names[o->type],
			o->min, o->max, o->help);
}

void zc_mode_opts_help(FILE *f)
{
	fprintf(f, "mode options, set per run with --mode-opts / mode_opts = KEY=VALUE[,KEY=VALUE]:\n");
	for (size_t i = 0; i < zc_nmodes; i++)
		for (const struct zc_mode_opt *o = zc_modes[i]->opts; o && o->key; o++) {
			fprintf(f, "  %-16s ", zc_modes[i]->name);
			zc_mode_opt_print(f, o);
		}
}
