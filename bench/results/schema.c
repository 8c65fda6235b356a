// SPDX-License-Identifier: GPL-2.0
/*
 * Results files on disk: the atomic writer and the checked loader. Every
 * reader (compare, report, export, plot, before-after) loads through here:
 * a regular file of bounded size, strict JSON (jansson: UTF-8, no NUL), the
 * schema and its version read strictly, and the type of every key a reader
 * uses checked, so a wrong file is refused naming the file and the key
 * instead of read as empty tables.
 */
#include "results/results.h"
#include "metrics/metrics.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int zc_json_write_atomic(json_t *root, const char *path)
{
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	size_t n;
	int ret;

	if (!text)
		return -ENOMEM;
	n = strlen(text);
	text[n] = '\n'; /* json_dumps leaves room: the string's NUL becomes the newline */
	ret = zc_write_atomic(path, text, n + 1);
	free(text);
	return ret;
}

/* ---- types ------------------------------------------------------------- */

enum { T_STR = 1, T_INT = 2, T_REAL = 4, T_NUM = T_INT | T_REAL, T_BOOL = 8, T_NULL = 16,
       T_OBJ = 32, T_ARR = 64 };

struct chk {
	char *err;
	size_t errlen;
	const char *file;
};

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

static unsigned type_bit(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return T_OBJ;
	case JSON_ARRAY: return T_ARR;
	case JSON_STRING: return T_STR;
	case JSON_INTEGER: return T_INT;
	case JSON_REAL: return T_REAL;
	case JSON_TRUE:
	case JSON_FALSE: return T_BOOL;
	default: return T_NULL;
	}
}

static void expected(unsigned types, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ T_OBJ, "an object" }, { T_ARR, "an array" }, { T_STR, "a string" },
		{ T_NUM, "a number" }, { T_INT, "an integer" }, { T_BOOL, "a boolean" },
		{ T_NULL, "null" },
	};
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(names); i++) {
		if ((types & names[i].bit) != names[i].bit || (names[i].bit == T_INT && (types & T_REAL)))
			continue;
		o += snprintf(buf + o, o < len ? len - o : 0, "%s%s", o ? " or " : "", names[i].name);
	}
}

/* "FILE: PATH.key: why"; -EINVAL. */
static int fault(struct chk *c, const char *path, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fault(struct chk *c, const char *path, const char *key, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "%s: %s%s%s: ", c->file, path, *path && key ? "." : "",
			 key ? key : "");
	va_list ap;

	if (n > 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* obj.key is one of types (absent allowed unless required). 0 or -EINVAL. */
static int want(struct chk *c, json_t *obj, const char *path, const char *key, unsigned types,
		bool required)
{
	json_t *v = json_object_get(obj, key);
	char exp[96];

	if (!v) {
		if (!required)
			return 0;
		expected(types, exp, sizeof(exp));
		return fault(c, path, key, "missing (expected %s)", exp);
	}
	if (type_bit(v) & types)
		return 0;
	expected(types, exp, sizeof(exp));
	return fault(c, path, key, "%s, expected %s", type_name(v), exp);
}

/* Every element of the array obj.key is an object. */
static int want_objects(struct chk *c, json_t *obj, const char *path, const char *key)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(obj, key), i, e)
		if (!json_is_object(e))
			return fault(c, path, key, "element %zu is %s, expected an object", i,
				     type_name(e));
	return 0;
}

/* "MAJOR.MINOR", digits only: *major. */
static bool version_ok(const char *v, int *major)
{
	const char *dot = strchr(v, '.');
	long m = 0;

	if (!dot || dot == v || dot - v > 6 || !dot[1] || strlen(dot + 1) > 6)
		return false;
	for (const char *p = v; *p; p++)
		if (p != dot && (*p < '0' || *p > '9'))
			return false;
	for (const char *p = v; p < dot; p++)
		m = m * 10 + (*p - '0');
	*major = (int)m;
	return true;
}

/* obj.key, when a number, is one a figure of metric m can be: 0..its max
 * (a rate below 0 or of 1e308 Gbit/s is a broken file, not a figure). */
static int want_figure(struct chk *c, json_t *obj, const char *path, const char *key,
		       const struct zc_metric *m)
{
	json_t *v = json_object_get(obj, key);
	double x = json_number_value(v);

	if (!json_is_number(v) || (x >= 0 && x <= zc_metric_max(m)))
		return 0;
	return fault(c, path, key, "%.6g is not a figure %s can be (%s, 0 to %g)", x, m->key,
		     m->unit, zc_metric_max(m));
}

static int check_summary(struct chk *c, json_t *sum, const char *path)
{
	static const char *const stats[] = { "n", "median", "min", "max", "mean", "stddev" };
	const struct zc_metric *m;
	const char *k;
	json_t *v;
	char p[96];

	json_object_foreach(sum, k, v) {
		if (!json_is_object(v))
			return fault(c, path, k, "%s, expected an object", type_name(v));
		snprintf(p, sizeof(p), "%s.%.40s", path, k);
		m = zc_metric_find(k);
		for (size_t i = 0; i < ZC_ARRAY_SIZE(stats); i++)
			if (want(c, v, p, stats[i], T_NUM | T_NULL, false) ||
			    (m && i && want_figure(c, v, p, stats[i], m)))
				return -EINVAL;
		if (json_number_value(json_object_get(v, "n")) < 0)
			return fault(c, p, "n", "%g samples", json_number_value(json_object_get(v, "n")));
	}
	return 0;
}

static int check_run(struct chk *c, json_t *run, size_t i)
{
	static const char *const key_str[] = { "topology", "source", "proxy", "sink" };
	static const char *const key_int[] = { "chunk", "pipe_size", "connections" };
	json_t *key = json_object_get(run, "key"), *s;
	char path[64], sp[96];
	size_t j;

	snprintf(path, sizeof(path), "runs[%zu]", i);
	if (want(c, run, path, "key", T_OBJ, true) || want(c, run, path, "name", T_STR, false) ||
	    want(c, run, path, "status", T_STR, false) ||
	    want(c, run, path, "reason", T_STR | T_NULL, false) ||
	    want(c, run, path, "dut", T_STR, false) || want(c, run, path, "emulated", T_BOOL, false) ||
	    want(c, run, path, "verified", T_BOOL, false) ||
	    want(c, run, path, "samples", T_ARR, false) ||
	    want(c, run, path, "summary", T_OBJ, false) ||
	    want_objects(c, run, path, "samples") ||
	    check_summary(c, json_object_get(run, "summary"), strcat(strcpy(sp, path), ".summary")))
		return -EINVAL;
	snprintf(sp, sizeof(sp), "%s.key", path);
	for (j = 0; j < ZC_ARRAY_SIZE(key_str); j++)
		if (want(c, key, sp, key_str[j], T_STR, false))
			return -EINVAL;
	for (j = 0; j < ZC_ARRAY_SIZE(key_int); j++)
		if (want(c, key, sp, key_int[j], T_INT, false))
			return -EINVAL;
	json_array_foreach(json_object_get(run, "samples"), j, s) {
		snprintf(sp, sizeof(sp), "%s.samples[%zu]", path, j);
		if (want(c, s, sp, "rep", T_INT, false) || want(c, s, sp, "status", T_STR, false) ||
		    want(c, s, sp, "reason", T_STR | T_NULL, false) ||
		    want(c, s, sp, "roles", T_OBJ, false))
			return -EINVAL;
		zc_for_each_metric(m)
			if (want(c, s, sp, m->key, T_NUM | T_NULL, false) ||
			    want_figure(c, s, sp, m->key, m))
				return -EINVAL;
	}
	return 0;
}

/*
 * Each run once: a run key and name twice in one file is a copy (an edited
 * or merged file), which a reader would silently reduce to its first. Two
 * [run] sections may share a key (they differ in what the key leaves out,
 * such as rr_check) under their own names; the A and B runs of an A/A file
 * (zcbench noise: aa_side) share a key by design.
 */
static int check_once(struct chk *c, json_t *runs)
{
	json_t *seen = json_object(), *run, *at;
	char key[800], path[64];
	size_t i;
	int ret = 0;

	if (!seen)
		return fault(c, "", "runs", "%s", strerror(ENOMEM));
	json_array_foreach(runs, i, run) {
		size_t n;

		zc_an_key(run, key, sizeof(key) - 200);
		n = strlen(key);
		snprintf(key + n, sizeof(key) - n, "|%.4s|%.180s", zc_an_str(run, "aa_side"),
			 zc_an_str(run, "name"));
		if ((at = json_object_get(seen, key))) {
			snprintf(path, sizeof(path), "runs[%zu]", i);
			ret = fault(c, path, NULL, "the same run as runs[%lld] (%s, %.*s): a file "
				    "holds each run once (a copied or merged file?)",
				    (long long)json_integer_value(at), zc_an_str(run, "name"), (int)n,
				    key);
			break;
		}
		json_object_set_new(seen, key, json_integer((json_int_t)i));
	}
	json_decref(seen);
	return ret;
}

static int check_common(struct chk *c, json_t *root)
{
	json_t *meta = json_object_get(root, "meta");

	if (want(c, root, "", "status", T_STR, false) || want(c, root, "", "meta", T_OBJ, false) ||
	    want(c, meta, "meta", "hostname", T_STR, false) ||
	    want(c, meta, "meta", "date", T_STR, false) ||
	    want(c, meta, "meta", "kernel", T_OBJ, false) ||
	    want(c, json_object_get(meta, "kernel"), "meta.kernel", "release", T_STR, false) ||
	    /* 1.9: the load and steal that report prints */
	    want(c, meta, "meta", "load_avg", T_OBJ | T_NULL, false) ||
	    want(c, json_object_get(meta, "load_avg"), "meta.load_avg", "before", T_ARR | T_NULL,
		 false) ||
	    want(c, json_object_get(meta, "load_avg"), "meta.load_avg", "after", T_ARR | T_NULL,
		 false) ||
	    want(c, meta, "meta", "steal", T_OBJ | T_NULL, false) ||
	    want(c, json_object_get(meta, "steal"), "meta.steal", "frac", T_NUM | T_NULL, false) ||
	    want(c, root, "", "fingerprint", T_OBJ | T_NULL, false) ||
	    want(c, root, "", "controller", T_OBJ, false) ||
	    want(c, root, "", "runs", T_ARR, true) || want_objects(c, root, "", "runs"))
		return -EINVAL;
	return 0;
}

/* ---- the loaders ------------------------------------------------------- */

/*
 * Every string value of a file read is made safe to show (zc_escape: a host
 * name with an escape sequence or a newline reaches the terminal, a mail and
 * an exposition format as \x1b and \x0a, never as itself). No key zcbench
 * writes has a control character: a key with one is refused, naming where.
 */
static int escape_strings(json_t *v, const char *file, const char *at, char *err, size_t errlen)
{
	char here[256];
	const char *k;
	json_t *e;
	size_t i;

	if (json_is_string(v)) {
		char *esc;

		if (!zc_needs_escape(json_string_value(v)))
			return 0;
		if (!(esc = zc_escape(json_string_value(v))) || json_string_set(v, esc)) {
			free(esc);
			snprintf(err, errlen, "%s: %s", file, strerror(ENOMEM));
			return -ENOMEM;
		}
		free(esc);
		return 0;
	}
	json_object_foreach(v, k, e) {
		if (zc_needs_escape(k)) {
			char shown[96];

			snprintf(err, errlen, "%s: %s%skey \"%s\": a key with a control character or "
				 "one that is not UTF-8 text (no zcbench file has one)", file, at,
				 *at ? ": " : "", zc_escape_buf(k, shown, sizeof(shown)));
			return -EINVAL;
		}
		snprintf(here, sizeof(here), "%s%s%.60s", at, *at ? "." : "", k);
		if (escape_strings(e, file, here, err, errlen))
			return -EINVAL;
	}
	json_array_foreach(v, i, e) {
		snprintf(here, sizeof(here), "%s[%zu]", at, i);
		if (escape_strings(e, file, here, err, errlen))
			return -EINVAL;
	}
	return 0;
}

json_t *zc_json_load_input(const char *path, size_t max, char *err, size_t errlen)
{
	json_error_t je;
	char why[160];
	size_t len;
	char *text = zc_read_input(path, max, &len, why, sizeof(why));
	json_t *root;

	if (!text) {
		snprintf(err, errlen, "%s: %s", path, why);
		return NULL;
	}
	/* jansson refuses invalid UTF-8 and NUL bytes (\u0000 too, without
	 * JSON_ALLOW_NUL): no string is ever cut or lost. */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (!root)
		snprintf(err, errlen, "%s:%d: not valid JSON: %s", path, je.line, je.text);
	else if (escape_strings(root, path, "", err, errlen)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int zc_results_check(json_t *root, const char *file, const char **schema, char *err,
		     size_t errlen)
{
	struct chk c = { .err = err, .errlen = errlen, .file = file };
	const char *s = json_string_value(json_object_get(root, "schema"));
	const char *v = json_string_value(json_object_get(root, "schema_version"));
	json_t *run;
	size_t i;
	int major;

	if (!json_is_object(root))
		return fault(&c, "", NULL, "%s, expected a zcbench results object", type_name(root));
	if (!s || (strcmp(s, "zcbench-results") && strcmp(s, "zcbench-pipebench"))) {
		snprintf(err, errlen, "%s: not a zcbench results file (schema '%s', expected "
			 "zcbench-results or zcbench-pipebench)", file, s ? s : "(none)");
		return -EINVAL;
	}
	if (want(&c, root, "", "schema_version", T_STR, true))
		return -EINVAL;
	*schema = s;
	if (!version_ok(v, &major))
		return fault(&c, "", "schema_version", "'%s' is not MAJOR.MINOR", v);
	/* Both schemas share the results major version (results/README.md). */
	if (major != ZC_SCHEMA_MAJOR) {
		snprintf(err, errlen, "%s: schema version %s, this zcbench reads %d.x", file, v,
			 ZC_SCHEMA_MAJOR);
		return -EINVAL;
	}
	if (check_common(&c, root))
		return -EINVAL;
	json_array_foreach(json_object_get(root, "runs"), i, run) {
		char path[64];

		snprintf(path, sizeof(path), "runs[%zu]", i);
		if (!strcmp(s, "zcbench-results") ? check_run(&c, run, i) :
		    want(&c, run, path, "pattern", T_STR, false) ||
		    want(&c, run, path, "after_of", T_STR | T_NULL, false) ||
		    want(&c, run, path, "emulated", T_BOOL, false) ||
		    want(&c, run, path, "status", T_STR, false) ||
		    want(&c, run, path, "chunk", T_INT, false) ||
		    want(&c, run, path, "summary", T_OBJ, false) ||
		    check_summary(&c, json_object_get(run, "summary"), strcat(path, ".summary")))
			return -EINVAL;
	}
	return !strcmp(s, "zcbench-results") ? check_once(&c, json_object_get(root, "runs")) : 0;
}

json_t *zc_results_load(const char *path, char *err, size_t errlen)
{
	json_t *root = zc_json_load_input(path, ZC_RESULTS_MAX_BYTES, err, errlen);
	const char *schema = NULL;

	if (!root)
		return NULL;
	if (zc_results_check(root, path, &schema, err, errlen))
		goto bad;
	if (strcmp(schema, "zcbench-results")) {
		snprintf(err, errlen, "%s: schema %s: a pipebench file (zcbench before-after reads "
			 "it), not a results file", path, schema);
		goto bad;
	}
	zc_results_settle(root);
	return root;
bad:
	json_decref(root);
	return NULL;
}

json_t *zc_an_load(const char *cmd, const char *path)
{
	char err[1200];
	json_t *root = zc_results_load(path, err, sizeof(err));

	if (!root)
		zc_err("%s: %s", cmd, err);
	return root;
}
