// SPDX-License-Identifier: GPL-2.0
/* Option tables: a value from text, back to text and JSON, rows as argv (opt.h). */
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct zc_opt *zc_opt_lookup(const struct zc_opt *opts, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!(opts[i].flags & ZC_OPT_POS) && zc_key_eq(opts[i].key, key))
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

/* First character of v outside letters, digits and allowed, or NULL. Values
 * that reach a remote shell or ip/tc argv may only hold plain characters. */
static const char *bad_char(const char *v, const char *allowed)
{
	for (const char *p = v; *p; p++)
		if (!strchr(allowed, *p) && !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			return p;
	return NULL;
}

/* Bytes of the character at p: a whole UTF-8 sequence in messages, never half. */
static int char_len(const char *p)
{
	int n = 1;

	if ((unsigned char)*p >= 0xc0)
		while (n < 4 && ((unsigned char)p[n] & 0xc0) == 0x80)
			n++;
	return n;
}

static int store_number(const struct zc_opt *o, char *p, const char *v, char *why, size_t len)
{
	char unit_buf[64];
	uint64_t u;
	double d;
	long l;

	/* A named value ("auto") is no duration or percent. */
	if (!(o->names && !named_value(o->names, v, &l)) &&
	    zc_opt_unit_text(o, v, unit_buf, sizeof(unit_buf), &v, why, len))
		return -EINVAL;

	switch (o->type) {
	case ZC_OPT_SIZE:
		if (zc_parse_size(v, &u)) {
			snprintf(why, len, "'%s' is not a size (examples: 4096, 64k, 1M)", v);
			return -EINVAL;
		}
		if (bounded(o) && (u < o->min || u > o->max)) {
			char lo[32], hi[32];

			zc_fmt_size((long long)o->min, lo, sizeof(lo));
			zc_fmt_size((long long)o->max, hi, sizeof(hi));
			snprintf(why, len, "%s is out of range [%s, %s]", v, lo, hi);
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

int zc_list_split(const char *text, char *buf, size_t buflen, char **items, int max, char *why,
		  size_t whylen)
{
	size_t len = strlen(text);
	int n = 0, item = 1;

	if (len >= buflen) {
		snprintf(why, whylen, "list is too long (%zu characters, at most %zu)", len,
			 buflen - 1);
		return -EINVAL;
	}
	memcpy(buf, text, len + 1);
	for (char *p = buf;; item++) {
		char *end = strchrnul(p, ',');
		bool last = !*end, any = false;

		*end = 0;
		for (char *t = p + strspn(p, " \t"); *t; t += strspn(t, " \t")) {
			size_t k = strcspn(t, " \t");

			if (n == max) {
				snprintf(why, whylen, "'%s': more than %d values", text, max);
				return -EINVAL;
			}
			items[n++] = t;
			any = true;
			if (t[k])
				t[k++] = 0;
			t += k;
		}
		if (!any && last && item == 1) {
			snprintf(why, whylen, "empty list");
			return -EINVAL;
		}
		if (!any) {
			snprintf(why, whylen, "'%s': item %d is empty (nothing between two commas, "
				 "or a comma at an end)", text, item);
			return -EINVAL;
		}
		if (last)
			return n;
		p = end + 1;
	}
}

static int store_list(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	char *p = (char *)base + o->off, *list = (char *)base + o->list_off, buf[512], *tok[256];
	int *n = (int *)((char *)base + o->count_off), cap = (int)(o->list_size / o->size), k;

	if (cap > (int)ZC_ARRAY_SIZE(tok))
		cap = (int)ZC_ARRAY_SIZE(tok);
	*n = 0;
	if ((k = zc_list_split(v, buf, sizeof(buf), tok, cap, why, len)) < 0)
		return k;
	for (int i = 0; i < k; i++) {
		if (store_number(o, p, tok[i], why, len))
			return -EINVAL;
		memcpy(list + (size_t)(*n)++ * o->size, p, o->size);
	}
	memcpy(p, list, o->size);	/* one run at a time sees the first */
	return 0;
}

int zc_opt_abs_path(const char *v, char *why, size_t len)
{
	if (v[0] == '/')
		return 0;
	snprintf(why, len, "'%s' is not an absolute path", v);
	return -EINVAL;
}

int zc_opt_store(const struct zc_opt *o, void *base, const char *v, char *why, size_t len)
{
	char *p = (char *)base + o->off;
	const char *c = NULL;
	int i;

	if (o->plain && (!v[0] || (c = bad_char(v, o->plain)))) {
		int k = snprintf(why, len, "'%s' is not %s", v, o->what ? o->what : "plain text");

		if (c && k > 0 && (size_t)k < len)
			snprintf(why + k, len - k, " (character '%.*s' not allowed)", char_len(c), c);
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
