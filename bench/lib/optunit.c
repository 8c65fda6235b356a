// SPDX-License-Identifier: GPL-2.0
/* Durations and percents as every option row reads them, a row's unit, and a
 * row described as JSON (opt.h). */
#include "lib/opt.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <math.h>
#include <string.h>

int zc_parse_duration(const char *v, double *seconds)
{
	static const struct { const char *suffix; double s; } units[] = {
		{ "ms", 1e-3 }, { "us", 1e-6 }, { "s", 1 }, { "m", 60 }, { "h", 3600 },
	};
	size_t len = strlen(v);
	char num[64];
	double d;

	for (size_t i = 0; i < ZC_ARRAY_SIZE(units); i++) {
		size_t k = strlen(units[i].suffix);

		if (len > k && !strcmp(v + len - k, units[i].suffix)) {
			snprintf(num, sizeof(num), "%.*s", (int)(len - k), v);
			if (len - k >= sizeof(num) || strpbrk(num, " \t") || zc_parse_double(num, &d) ||
			    !isfinite(d))
				return -EINVAL;
			*seconds = d * units[i].s;
			return 0;
		}
	}
	if (zc_parse_double(v, &d) || !isfinite(d))
		return -EINVAL;
	*seconds = d;
	return 0;
}

int zc_parse_percent(const char *v, double *pct)
{
	size_t len = strlen(v);
	char num[64];

	if (len && v[len - 1] == '%')
		len--;
	if (!len || len >= sizeof(num))
		return -EINVAL;
	snprintf(num, sizeof(num), "%.*s", (int)len, v);
	return zc_parse_double(num, pct) || isnan(*pct) ? -EINVAL : 0;
}

/* The unit a row's number is in, by its value's name (one fact: the meta
 * already says it) or a "_ms" key. */
enum zc_opt_unit { ZC_UNIT_NONE, ZC_UNIT_S, ZC_UNIT_MS, ZC_UNIT_PCT };
static enum zc_opt_unit zc_opt_unit(const struct zc_opt *o)
{
	size_t k = strlen(o->key);

	if (o->meta && !strcmp(o->meta, "S"))
		return ZC_UNIT_S;
	if ((o->meta && !strcmp(o->meta, "MS")) ||
	    (k > 3 && (!strcmp(o->key + k - 3, "_ms") || !strcmp(o->key + k - 3, "-ms"))))
		return ZC_UNIT_MS;
	if (o->meta && !strcmp(o->meta, "PCT"))
		return ZC_UNIT_PCT;
	return ZC_UNIT_NONE;
}

int zc_opt_unit_text(const struct zc_opt *o, const char *v, char *buf, size_t buflen,
		     const char **out, char *why, size_t len)
{
	enum zc_opt_unit u = zc_opt_unit(o);
	double d;

	*out = v;
	if (u == ZC_UNIT_NONE)
		return 0;
	if (u == ZC_UNIT_PCT ? zc_parse_percent(v, &d) : zc_parse_duration(v, &d)) {
		if (u == ZC_UNIT_PCT)
			snprintf(why, len, "'%s' is not a percentage (examples: 5, 5%%, 0.5%%)", v);
		else
			snprintf(why, len, "'%s' is not a duration (examples: 2, 2s, 500ms, 1m)", v);
		return -EINVAL;
	}
	if (u == ZC_UNIT_MS) {
		if (zc_parse_double(v, &(double){ 0 }))
			d *= 1e3;	/* "2s": a bare number is already milliseconds */
		if (o->type != ZC_OPT_DOUBLE && d != floor(d)) {
			snprintf(why, len, "'%s' is not a whole number of milliseconds", v);
			return -EINVAL;
		}
	}
	snprintf(buf, buflen, "%.17g", d);
	*out = buf;
	return 0;
}

json_t *zc_opt_row_json(const struct zc_opt *o)
{
	static const char *const types[] = {
		[ZC_OPT_SIZE] = "size", [ZC_OPT_DOUBLE] = "number", [ZC_OPT_LONG] = "integer",
		[ZC_OPT_INT] = "integer", [ZC_OPT_BOOL] = "bool", [ZC_OPT_STR] = "text",
		[ZC_OPT_TEXT] = "text", [ZC_OPT_TEXTS] = "texts", [ZC_OPT_CHOICE] = "choice",
		[ZC_OPT_CUSTOM] = "text",
	};
	static const char *const units[] = {
		[ZC_UNIT_NONE] = NULL, [ZC_UNIT_S] = "s", [ZC_UNIT_MS] = "ms", [ZC_UNIT_PCT] = "%",
	};
	const char *unit = o->type == ZC_OPT_SIZE ? "bytes" : units[zc_opt_unit(o)];
	json_t *j = json_object(), *a;
	char flag[80];
	int k = snprintf(flag, sizeof(flag), "--%s", o->key);

	for (int c = 2; c < k && c < (int)sizeof(flag); c++)
		flag[c] = flag[c] == '_' ? '-' : flag[c];
	json_object_set_new(j, "key", json_string(o->key));
	json_object_set_new(j, "flag", o->flags & ZC_OPT_POS ? json_null() : json_string(flag));
	json_object_set_new(j, "type", json_string(types[o->type]));
	json_object_set_new(j, "list", json_boolean(o->flags & ZC_OPT_LIST));
	json_object_set_new(j, "required", json_boolean(o->flags & ZC_OPT_REQ));
	json_object_set_new(j, "default", o->def ? json_string(o->def) : json_null());
	json_object_set_new(j, "unit", unit ? json_string(unit) : json_null());
	json_object_set_new(j, "min", (o->min != 0 || o->max != 0) ? json_real(o->min) : json_null());
	json_object_set_new(j, "max", (o->min != 0 || o->max != 0) ? json_real(o->max) : json_null());
	if (o->type == ZC_OPT_CHOICE) {
		a = json_array();
		for (const char *p = o->choices; p && *p;) {
			const char *end = strchrnul(p, '|');

			json_array_append_new(a, json_stringn(p, (size_t)(end - p)));
			p = *end ? end + 1 : end;
		}
		json_object_set_new(j, "choices", a);
	} else {
		json_object_set_new(j, "choices", json_null());
	}
	json_object_set_new(j, "help", json_string(o->help ? o->help : ""));
	return j;
}
