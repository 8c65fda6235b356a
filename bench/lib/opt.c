// SPDX-License-Identifier: GPL-2.0
/* Option tables: store, format, JSON, help, and the one argv parser (opt.h). */
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
	}
	return !*a && !*b;
}

const struct zc_opt *zc_opt_lookup(const struct zc_opt *opts, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!(opts[i].flags & ZC_OPT_POS) && key_eq(opts[i].key, key))
			return &opts[i];
	return NULL;
}

static bool bounded(const struct zc_opt *o)
{
	return o->min != 0 || o->max != 0;
}

/* "auto=-1,off=0": the number named v, 0; -ENOENT when v is no name. */
static int named_value(const char *names, const char *v, long *out)
{
	size_t len = strlen(v);

	for (const char *p = names; p && *p;) {
		const char *eq = strchr(p, '='), *end = strchrnul(p, ',');

		if (eq && eq < end && (size_t)(eq - p) == len && !strncmp(p, v, len))
			return zc_parse_long(eq + 1, out) ? -ENOENT : 0;
		p = *end ? end + 1 : end;
	}
	return -ENOENT;
}

/* The name of number v in names, copied into buf; false when it has none. */
static bool value_name(const char *names, long v, char *buf, size_t len)
{
	for (const char *p = names; p && *p;) {
		const char *eq = strchr(p, '='), *end = strchrnul(p, ',');
		long n;

		if (eq && eq < end && !zc_parse_long(eq + 1, &n) && n == v) {
			snprintf(buf, len, "%.*s", (int)(eq - p), p);
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

/* Index of v in "a|b|c", or -1. */
static int choice_index(const char *choices, const char *v)
{
	size_t len = strlen(v);
	int i = 0;

	for (const char *p = choices; p && *p; i++) {
		const char *end = strchrnul(p, '|');

		if ((size_t)(end - p) == len && !strncmp(p, v, len))
			return i;
		p = *end ? end + 1 : end;
	}
	return -1;
}

static bool choice_name(const char *choices, int idx, char *buf, size_t len)
{
	const char *p = choices;

	for (int i = 0; p && *p; i++) {
		const char *end = strchrnul(p, '|');

		if (i == idx) {
			snprintf(buf, len, "%.*s", (int)(end - p), p);
			return true;
		}
		p = *end ? end + 1 : end;
	}
	return false;
}

/* "a|b|c" as "a, b, c" for messages. */
static void choices_list(const char *choices, char *buf, size_t len)
{
	size_t k = 0;

	for (const char *p = choices; p && *p && k + 3 < len; p++)
		k += snprintf(buf + k, len - k, *p == '|' ? ", " : "%c", *p);
	if (len)
		buf[k < len ? k : len - 1] = 0;
}

/* First character of v outside letters, digits and allowed, or 0. Values
 * that reach a remote shell or ip/tc argv may only hold plain characters. */
static char bad_char(const char *v, const char *allowed)
{
	for (const char *p = v; *p; p++)
		if (!strchr(allowed, *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			return *p;
	return 0;
}

static int store_number(const struct zc_opt *o, char *p, const char *v, char *why, size_t len)
{
	uint64_t u;
	double d;
	long l;

	switch (o->type) {
	case ZC_OPT_SIZE:
		if (zc_parse_size(v, &u)) {
			snprintf(why, len, "'%s' is not a size (examples: 4096, 64k, 1M)", v);
			return -EINVAL;
		}
		if (bounded(o) && (u < o->min || u > o->max)) {
			snprintf(why, len, "%s is out of range [%.0f, %.0f]", v, o->min, o->max);
			return -EINVAL;
		}
		if (o->multiple && u % o->multiple) {
			char m[32];

			zc_fmt_size((long long)o->multiple, m, sizeof(m));
			snprintf(why, len, "%s is not a multiple of %s", v, m);
			return -EINVAL;
		}
		*(uint64_t *)p = u;
		return 0;
	case ZC_OPT_DOUBLE:
		if (zc_parse_double(v, &d) || isnan(d)) {
			snprintf(why, len, "'%s' is not a number", v);
			return -EINVAL;
		}
		if (bounded(o) && (d < o->min || d > o->max)) {
			snprintf(why, len, "%s is out of range [%g, %g]", v, o->min, o->max);
			return -EINVAL;
		}
		*(double *)p = d;
		return 0;
	default:	/* LONG, INT */
		if (!named_value(o->names, v, &l))
			goto set;
		if (zc_parse_long(v, &l)) {
			int k = snprintf(why, len, "'%s' is not an integer", v);

			for (const char *q = o->names; q && *q && k > 0 && (size_t)k < len;) {
				const char *eq = strchrnul(q, '='), *end = strchrnul(q, ',');

				k += snprintf(why + k, len - k, " or %.*s", (int)(eq - q), q);
				q = *end ? end + 1 : end;
			}
			return -EINVAL;
		}
		if ((bounded(o) && (l < o->min || l > o->max)) ||
		    (o->type == ZC_OPT_INT && (l < INT32_MIN || l > INT32_MAX))) {
			snprintf(why, len, "%s is out of range [%.0f, %.0f]", v, o->min, o->max);
			return -EINVAL;
		}
set:
		if (o->type == ZC_OPT_INT)
			*(int *)p = (int)l;
		else
			*(long *)p = l;
		return 0;
	}
}

static int store_list(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	char *p = (char *)base + o->off, *list = (char *)base + o->list_off, buf[512], *save, *tok;
	int *n = (int *)((char *)base + o->count_off), cap = (int)(o->list_size / o->size);

	if (strlen(v) >= sizeof(buf)) {
		snprintf(why, len, "list is too long");
		return -EINVAL;
	}
	strcpy(buf, v);
	*n = 0;
	for (tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (*n == cap) {
			snprintf(why, len, "more than %d values", cap);
			return -EINVAL;
		}
		if (store_number(o, p, tok, why, len))
			return -EINVAL;
		memcpy(list + (size_t)(*n)++ * o->size, p, o->size);
	}
	if (!*n) {
		snprintf(why, len, "empty list");
		return -EINVAL;
	}
	memcpy(p, list, o->size);	/* one run at a time sees the first */
	return 0;
}

int zc_opt_store(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	char *p = (char *)base + o->off, c = 0;
	int i;

	if (o->plain && (!v[0] || (c = bad_char(v, o->plain)))) {
		int k = snprintf(why, len, "'%s' is not %s", v, o->what ? o->what : "plain text");

		if (c && k > 0 && (size_t)k < len)
			snprintf(why + k, len - k, " (character '%c' not allowed)", c);
		return -EINVAL;
	}
	if (o->check && o->check(v, why, len))
		return -EINVAL;
	if (o->flags & ZC_OPT_LIST)
		return store_list(o, base, v, why, len);
	switch (o->type) {
	case ZC_OPT_SIZE:
	case ZC_OPT_DOUBLE:
	case ZC_OPT_LONG:
	case ZC_OPT_INT:
		return store_number(o, p, v, why, len);
	case ZC_OPT_BOOL:
		if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1"))
			i = 1;
		else if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0"))
			i = 0;
		else {
			snprintf(why, len, "'%s' is not yes or no (on/off, true/false, 1/0)", v);
			return -EINVAL;
		}
		if (o->size == sizeof(int))
			*(int *)p = i;
		else
			*(bool *)p = i;
		return 0;
	case ZC_OPT_STR:
		if (strlen(v) >= o->size) {
			snprintf(why, len, "'%s' is longer than %zu characters", v, o->size - 1);
			return -EINVAL;
		}
		strcpy(p, v);
		return 0;
	case ZC_OPT_TEXT:
		*(const char **)p = v;
		return 0;
	case ZC_OPT_TEXTS: {
		int *n = (int *)((char *)base + o->count_off), cap = (int)(o->size / sizeof(char *));

		if (*n >= cap || (o->max && *n >= o->max)) {
			snprintf(why, len, "more than %d values", o->max ? (int)o->max : cap);
			return -EINVAL;
		}
		((const char **)p)[(*n)++] = v;
		return 0;
	}
	case ZC_OPT_CHOICE:
		i = choice_index(o->choices, v);
		if (i < 0) {
			char list[256];

			choices_list(o->choices, list, sizeof(list));
			snprintf(why, len, "'%s' is not one of %s", v, list);
			return -EINVAL;
		}
		*(int *)p = i;
		return 0;
	case ZC_OPT_CUSTOM:
		return o->parse(o, base, v, why, len);
	}
	return -EINVAL;
}

void zc_opt_defaults(const struct zc_opt *opts, size_t n, void *base)
{
	char why[256];

	for (size_t i = 0; i < n; i++) {
		if (opts[i].type == ZC_OPT_TEXTS)
			*(int *)((char *)base + opts[i].count_off) = 0;
		if (opts[i].def && zc_opt_store(&opts[i], base, opts[i].def, why, sizeof(why)))
			zc_die("built-in default of %s: %s", opts[i].key, why);
	}
}

/* The shortest %g that reads back as exactly d. */
static int format_double(double d, char *buf, size_t len)
{
	int k = 0;

	if (isnan(d)) {
		if (len)
			buf[0] = 0;
		return 0;
	}
	for (int prec = 1; prec <= 17; prec++) {
		k = snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	return k;
}

int zc_opt_format(const struct zc_opt *o, const void *base, char *buf, size_t len)
{
	const char *p = (const char *)base + o->off, *s = "";
	long l;
	int k;

	switch (o->type) {
	case ZC_OPT_SIZE:
		k = snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case ZC_OPT_DOUBLE:
		k = format_double(*(const double *)p, buf, len);
		break;
	case ZC_OPT_LONG:
	case ZC_OPT_INT:
		l = o->type == ZC_OPT_INT ? *(const int *)p : *(const long *)p;
		if (value_name(o->names, l, buf, len))
			k = (int)strlen(buf);
		else
			k = snprintf(buf, len, "%ld", l);
		break;
	case ZC_OPT_BOOL:
		l = o->size == sizeof(int) ? *(const int *)p : *(const bool *)p;
		k = snprintf(buf, len, "%s", l < 0 ? "" : l ? "yes" : "no");
		break;
	case ZC_OPT_CHOICE:
		if (!choice_name(o->choices, *(const int *)p, buf, len) && len)
			buf[0] = 0;
		k = (int)strlen(buf);
		break;
	case ZC_OPT_CUSTOM:
		if (o->format)
			return o->format(o, base, buf, len);
		k = snprintf(buf, len, "%s", "");
		break;
	case ZC_OPT_STR:
		s = p;
		/* fallthrough */
	case ZC_OPT_TEXT:
		if (o->type == ZC_OPT_TEXT)
			s = *(const char *const *)p ? *(const char *const *)p : "";
		/* fallthrough */
	default:	/* TEXTS: not one value */
		k = snprintf(buf, len, "%s", s);
		break;
	}
	return k < 0 || (size_t)k >= len ? -E2BIG : k;
}

json_t *zc_opt_json(const struct zc_opt *o, const void *base)
{
	const char *p = (const char *)base + o->off;
	char buf[512];
	long b;

	switch (o->type) {
	case ZC_OPT_SIZE:
		return json_integer((json_int_t)*(const uint64_t *)p);
	case ZC_OPT_DOUBLE:
		return isnan(*(const double *)p) ? json_null() : json_real(*(const double *)p);
	case ZC_OPT_LONG:
		return json_integer(*(const long *)p);
	case ZC_OPT_INT:
		return json_integer(*(const int *)p);
	case ZC_OPT_BOOL:
		b = o->size == sizeof(int) ? *(const int *)p : *(const bool *)p;
		return b < 0 ? json_null() : json_boolean(b);
	case ZC_OPT_TEXT:
		return *(const char *const *)p ? json_string(*(const char *const *)p) : json_null();
	case ZC_OPT_TEXTS: {
		json_t *a = json_array();
		int n = *(const int *)((const char *)base + o->count_off);

		for (int i = 0; i < n; i++)
			json_array_append_new(a, json_string(((const char *const *)p)[i]));
		return a;
	}
	default:	/* STR, CHOICE, CUSTOM: as text */
		if (zc_opt_format(o, base, buf, sizeof(buf)) < 0)
			return json_null();
		return json_string(buf);
	}
}

int zc_opt_argv(const struct zc_opt *opts, size_t n, const void *base, char **argv, int max,
		char *store, size_t storelen)
{
	size_t used = 0;
	int argc = 0;

	for (size_t i = 0; i < n; i++) {
		const struct zc_opt *o = &opts[i];
		int k;

		if ((o->flags & ZC_OPT_POS) || o->type == ZC_OPT_TEXTS ||
		    (o->type == ZC_OPT_TEXT && !*(const char *const *)((const char *)base + o->off)))
			continue;
		if (argc >= max)
			return -E2BIG;
		k = snprintf(store + used, storelen - used, "--%s=", o->key);
		if (k < 0 || (size_t)k >= storelen - used)
			return -E2BIG;
		for (int c = 2; c < k; c++)
			if (store[used + c] == '_')
				store[used + c] = '-';
		if (zc_opt_format(o, base, store + used + k, storelen - used - k) < 0)
			return -E2BIG;
		argv[argc++] = store + used;
		used += strlen(store + used) + 1;
	}
	return argc;
}

static void meta(const struct zc_opt *o, char *buf, size_t len)
{
	static const char *const by_type[] = {
		[ZC_OPT_SIZE] = "SIZE", [ZC_OPT_DOUBLE] = "NUM", [ZC_OPT_LONG] = "N",
		[ZC_OPT_INT] = "N", [ZC_OPT_BOOL] = "yes|no", [ZC_OPT_STR] = "TEXT",
		[ZC_OPT_TEXT] = "TEXT", [ZC_OPT_TEXTS] = "TEXT", [ZC_OPT_CHOICE] = "",
		[ZC_OPT_CUSTOM] = "VALUE",
	};
	const char *m = o->meta ? o->meta : o->type == ZC_OPT_CHOICE ? o->choices : by_type[o->type];
	int k = snprintf(buf, len, "%s", m);

	for (const char *p = o->names; p && *p && k > 0 && (size_t)k < len;) {
		const char *eq = strchrnul(p, '='), *end = strchrnul(p, ',');

		k += snprintf(buf + k, len - k, "|%.*s", (int)(eq - p), p);
		p = *end ? end + 1 : end;
	}
	if ((o->flags & ZC_OPT_LIST) && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - k, "[,%s...]", m);
}

static void bound_text(const struct zc_opt *o, double v, char *buf, size_t len)
{
	if (o->type == ZC_OPT_SIZE)
		zc_fmt_size((long long)v, buf, len);
	else
		snprintf(buf, len, o->type == ZC_OPT_DOUBLE ? "%g" : "%.0f", v);
}

void zc_opt_help(FILE *f, const struct zc_opt *opts, size_t n, bool as_flags)
{
	for (size_t i = 0; i < n; i++) {
		const struct zc_opt *o = &opts[i];
		char left[96], m[96], def[128] = "", lo[32], hi[32];
		bool pos = o->flags & ZC_OPT_POS;
		const char *sep = " (";

		meta(o, m, sizeof(m));
		if (pos)
			snprintf(left, sizeof(left), "%s%s", o->flags & ZC_OPT_REST ? "-- " : "", o->key);
		else if (as_flags && o->type == ZC_OPT_BOOL)
			snprintf(left, sizeof(left), "--%s%s", o->def && strcmp(o->def, "no") ? "[no-]" : "",
				 o->key);
		else
			snprintf(left, sizeof(left), as_flags ? "--%s %s" : "%s = %s", o->key, m);
		fprintf(f, "  %-28s %s", left, o->help);
		snprintf(def, sizeof(def), "%s", o->def ? o->def : "");
		if (o->type == ZC_OPT_BOOL && as_flags)
			def[0] = 0;	/* --flag / --no-flag says it */
		if (o->flags & ZC_OPT_REQ) {
			fprintf(f, "%srequired", sep);
			sep = "; ";
		} else if (def[0]) {
			fprintf(f, "%sdefault %s", sep, def);
			sep = "; ";
		}
		if (o->type == ZC_OPT_TEXTS && !pos) {
			fprintf(f, "%srepeatable", sep);
			sep = "; ";
		}
		if (bounded(o) && o->type != ZC_OPT_TEXTS) {
			bound_text(o, o->min, lo, sizeof(lo));
			bound_text(o, o->max, hi, sizeof(hi));
			fprintf(f, "%s%s..%s", sep, lo, hi);
			sep = "; ";
		}
		if (o->multiple) {
			zc_fmt_size((long long)o->multiple, lo, sizeof(lo));
			fprintf(f, "%sa multiple of %s", sep, lo);
			sep = "; ";
		}
		fprintf(f, "%s\n", sep[0] == ';' ? ")" : "");
	}
}

void zc_opt_usage(FILE *f, const struct zc_cmdline *c)
{
	bool any = false;

	fprintf(f, "usage: zcbench %s", c->name);
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			char m[96];

			if (o->flags & ZC_OPT_POS)
				continue;
			meta(o, m, sizeof(m));
			if (o->flags & ZC_OPT_REQ)
				fprintf(f, " --%s %s", o->key, m);
			else
				any = true;
		}
	if (any)
		fprintf(f, " [--OPTION ...]");
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			bool many = o->type == ZC_OPT_TEXTS, req = (o->flags & ZC_OPT_REQ) || o->min >= 1;

			if (!(o->flags & ZC_OPT_POS))
				continue;
			fprintf(f, " %s%s%s%s%s", req ? "" : "[", o->flags & ZC_OPT_REST ? "-- " : "",
				o->key, many ? "..." : "", req ? "" : "]");
		}
	fprintf(f, "\n");
	if (c->about)
		fprintf(f, "%s", c->about);
	for (size_t g = 0; g < c->ngroups; g++) {
		if (c->groups[g].title)
			fprintf(f, "%s\n", c->groups[g].title);
		zc_opt_help(f, c->groups[g].opts, c->groups[g].n, true);
	}
}

struct parse {
	const struct zc_cmdline *c;
	bool *seen;		/* per row of every group, in order */
	char *err;
	size_t errlen;
};

static int fail(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
	int k = snprintf(p->err, p->errlen, "command line: ");
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err + k, p->errlen - k, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Row number (over every group) of o. */
static size_t row_index(const struct zc_cmdline *c, const struct zc_optgroup *gr,
			const struct zc_opt *o)
{
	size_t idx = 0;

	for (const struct zc_optgroup *g = c->groups; g != gr; g++)
		idx += g->n;
	return idx + (size_t)(o - gr->opts);
}

static int set(struct parse *p, const struct zc_optgroup *g, const struct zc_opt *o,
	       const char *name, const char *v)
{
	char why[512];

	if (zc_opt_store(o, g->base, v, why, sizeof(why)) ||
	    (g->seen && g->seen(g->user, o, v, why, sizeof(why))))
		return fail(p, "%s: %s", name, why);
	p->seen[row_index(p->c, g, o)] = true;
	return 0;
}

/* The next positional row that takes v: after "--" the REST row, else the
 * first positional not yet given (a TEXTS row takes every one left). */
static int positional(struct parse *p, const char *v, bool rest)
{
	const struct zc_cmdline *c = p->c;
	bool has_rest = false;

	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++)
			has_rest |= !!(c->groups[g].opts[i].flags & ZC_OPT_REST);
	rest &= has_rest;	/* without a REST row, "--" only ends the options */
	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];

			if (!(o->flags & ZC_OPT_POS) || rest != !!(o->flags & ZC_OPT_REST) ||
			    (o->type != ZC_OPT_TEXTS && p->seen[row_index(c, &c->groups[g], o)]))
				continue;
			return set(p, &c->groups[g], o, o->key, v);
		}
	return fail(p, "unexpected argument '%s' (zcbench %s --help)", v, c->name);
}

static int check_given(struct parse *p)
{
	const struct zc_cmdline *c = p->c;
	const struct zc_opt *missing[16];
	char list[512] = "";
	int nmiss = 0;
	size_t k = 0;

	for (size_t g = 0; g < c->ngroups; g++)
		for (size_t i = 0; i < c->groups[g].n; i++) {
			const struct zc_opt *o = &c->groups[g].opts[i];
			bool pos = o->flags & ZC_OPT_POS;

			if (o->type == ZC_OPT_TEXTS && o->min >= 1) {
				int n = *(int *)((char *)c->groups[g].base + o->count_off);

				if (n < o->min)
					return fail(p, "%s%s: %d given, at least %.0f needed",
						    pos ? "" : "--", o->key, n, o->min);
			}
			if ((o->flags & ZC_OPT_REQ) && !p->seen[row_index(c, &c->groups[g], o)] &&
			    nmiss < (int)ZC_ARRAY_SIZE(missing))
				missing[nmiss++] = o;
		}
	if (!nmiss)
		return 0;
	/* "--a is", "--a and --b are", "--a, --b and --c are" */
	for (int i = 0; i < nmiss && k < sizeof(list); i++)
		k += snprintf(list + k, sizeof(list) - k, "%s%s%s",
			      !i ? "" : i == nmiss - 1 ? " and " : ", ",
			      missing[i]->flags & ZC_OPT_POS ? "" : "--", missing[i]->key);
	return fail(p, "%s %s required", list, nmiss > 1 ? "are" : "is");
}

/* The row for --key over every group, with its group. */
static const struct zc_opt *find(const struct zc_cmdline *c, const char *key,
				 const struct zc_optgroup **gr)
{
	for (size_t g = 0; g < c->ngroups; g++) {
		const struct zc_opt *o = zc_opt_lookup(c->groups[g].opts, c->groups[g].n, key);

		if (o) {
			*gr = &c->groups[g];
			return o;
		}
	}
	return NULL;
}

int zc_opt_parse(const struct zc_cmdline *c, int argc, char **argv, char *err, size_t errlen)
{
	struct parse p = { .c = c, .err = err, .errlen = errlen };
	size_t rows = 0;
	bool rest = false;
	int ret = 0;

	for (size_t g = 0; g < c->ngroups; g++) {
		zc_opt_defaults(c->groups[g].opts, c->groups[g].n, c->groups[g].base);
		rows += c->groups[g].n;
	}
	p.seen = calloc(rows + 1, sizeof(bool));
	if (!p.seen)
		return fail(&p, "out of memory");
	for (int i = 1; i < argc && !ret; i++) {
		const char *a = argv[i], *v, *eq;
		const struct zc_optgroup *g;
		const struct zc_opt *o;
		char key[64], name[80];

		if (!rest && !strcmp(a, "--")) {
			rest = true;
			continue;
		}
		if (!rest && (!strcmp(a, "-h") || !strcmp(a, "--help"))) {
			zc_opt_usage(stdout, c);
			ret = ZC_OPT_HELP;
			break;
		}
		if (rest || a[0] != '-' || !a[1]) {
			ret = positional(&p, a, rest);
			continue;
		}
		if (a[1] != '-') {
			ret = fail(&p, "%s: unknown option (zcbench %s --help lists them)", a, c->name);
			break;
		}
		eq = strchr(a, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq ? eq - a - 2 : (long)strlen(a + 2)), a + 2);
		snprintf(name, sizeof(name), "--%s", key);
		o = find(c, key, &g);
		v = NULL;
		/* --no-KEY: a yes/no option set to no */
		if (!o && !eq && (!strncmp(key, "no-", 3) || !strncmp(key, "no_", 3))) {
			o = find(c, key + 3, &g);
			if (o && o->type == ZC_OPT_BOOL)
				v = "no";
			else
				o = NULL;
		}
		if (!o) {
			ret = fail(&p, "%s: unknown option (zcbench %s --help lists them%s%s)", name,
				   c->name, c->hint ? "; " : "", c->hint ? c->hint : "");
			break;
		}
		if (v)
			;
		else if (eq)
			v = eq + 1;
		else if (o->type == ZC_OPT_BOOL)
			v = "yes";
		else if (i + 1 < argc)
			v = argv[++i];
		else {
			ret = fail(&p, "%s: needs a value", name);
			break;
		}
		ret = set(&p, g, o, name, v);
		/* --patches A B C: the values up to the next option */
		while (!ret && !eq && (o->flags & ZC_OPT_MULTI) && i + 1 < argc &&
		       strncmp(argv[i + 1], "--", 2))
			ret = set(&p, g, o, name, argv[++i]);
	}
	if (!ret)
		ret = check_given(&p);
	free(p.seen);
	return ret;
}

int zc_opt_main(const struct zc_cmdline *c, int argc, char **argv)
{
	char err[1024];
	int ret = zc_opt_parse(c, argc, argv, err, sizeof(err));

	if (ret == ZC_OPT_HELP)
		return ZC_EXIT_OK;
	if (ret) {
		zc_err("%s", err);
		return ZC_EXIT_USAGE;
	}
	return -1;
}
