// SPDX-License-Identifier: GPL-2.0
/*
 * Every key bench/ reads or writes is in one list (results/keys.h): a metric
 * (metrics/metrics.c), a workload key (config/cfg.c) or a key of
 * ZC_KEYS. The sources are scanned for the string literals they pass as
 * a key: to jansson (json_object_get, _set, _set_new, _del; the keys of a
 * json_pack format) and to our own getters (any function taking
 * (json_t *, const char *key|k|metric), zc_an_change's metric, the noise
 * floor's metric); a literal in no list fails naming file:line, so a
 * mistyped key fails here instead of reading a silent NaN. The getters
 * check at run time too: a non-metric asked of zc_an_values aborts, and so
 * does an unknown key of zc_an_str or zc_an_int under ZC_STRICT_KEYS=1.
 *
 * Run from the repository root (tests/run.sh does).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"
#include <ctype.h>
#include <ftw.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/cfg.h"
#include "metrics/metrics.h"
#include "wire/wire.h"
#include "results/keys.h"
#include "results/results.h"

enum tok_type { T_ID, T_STR, T_PUNCT };

struct tok {
	enum tok_type type;
	const char *s;	/* T_STR: the text between the quotes */
	int len, line;
};

struct src {
	const char *file;
	char *text;	/* the tokens point into it */
	struct tok *t;
	size_t n;
};

/* The tokens of C text, comments left out; a string literal's token is its
 * text between the quotes, escapes as written. */
static size_t tokenize(const char *s, struct tok **out)
{
	size_t n = 0, cap = 0;
	int line = 1;

	*out = NULL;
	while (*s) {
		struct tok t = { .line = line };

		if (*s == '\n') {
			line++;
			s++;
			continue;
		}
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (s[0] == '/' && s[1] == '/') {
			s += strcspn(s, "\n");
			continue;
		}
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");

			e = e ? e + 2 : s + strlen(s);
			for (; s < e; s++)
				line += *s == '\n';
			continue;
		}
		if (*s == '"' || *s == '\'') {
			const char *p = s + 1;

			while (*p && *p != *s && *p != '\n')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			t.type = *s == '"' ? T_STR : T_PUNCT;
			t.s = s + 1;
			t.len = (int)(p - s - 1);
			s = *p ? p + 1 : p;
		} else if (isalnum((unsigned char)*s) || *s == '_') {
			t.type = T_ID;
			t.s = s;
			while (isalnum((unsigned char)*s) || *s == '_')
				s++;
			t.len = (int)(s - t.s);
		} else {
			t.type = T_PUNCT;
			t.s = s++;
			t.len = 1;
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			*out = realloc(*out, cap * sizeof(**out));
			assert_non_null(*out);
		}
		(*out)[n++] = t;
	}
	return n;
}

static bool is(const struct tok *t, const char *text)
{
	return t->len == (int)strlen(text) && !strncmp(t->s, text, t->len);
}

/* A getter: which argument (from 0) is the key; file: only in that file
 * (a static helper), NULL: everywhere. */
struct getter {
	char name[64];
	int arg;
	const char *file;
};

static struct getter getters[256] = {
#define G(n, a) { .name = n, .arg = a }
	G("json_object_get", 1), G("json_object_set", 1), G("json_object_set_new", 1),
	G("json_object_del", 1), G("zc_an_change", 4),
#undef G
};
static size_t ngetters = 5;

/* Functions whose const char * parameter is named so but is no JSON key. */
static const char *const not_getters[] = {
	"zc_cmp_find_run",	/* a run's key text (zc_an_key) */
};

/* Definitions and declarations NAME(json_t *o, const char *key|k|metric...). */
static void find_getters(const struct src *f)
{
	for (size_t i = 0; i + 11 < f->n; i++) {
		const struct tok *t = &f->t[i], *p = t + 2;
		bool known = false;

		if (t->type != T_ID || !is(t + 1, "("))
			continue;
		p += is(p, "const");
		if (!is(p, "json_t") || !is(p + 1, "*") || p[2].type != T_ID || !is(p + 3, ",") ||
		    !is(p + 4, "const") || !is(p + 5, "char") || !is(p + 6, "*") ||
		    !(is(p + 7, "key") || is(p + 7, "k") || is(p + 7, "metric")))
			continue;
		for (size_t j = 0; j < ZC_ARRAY_SIZE(not_getters); j++)
			known |= is(t, not_getters[j]);
		for (size_t j = 0; j < ngetters && !known; j++)
			known = is(t, getters[j].name) && (!getters[j].file || getters[j].file == f->file);
		if (known)
			continue;
		assert_true(ngetters < ZC_ARRAY_SIZE(getters));
		snprintf(getters[ngetters].name, sizeof(getters[0].name), "%.*s", t->len, t->s);
		getters[ngetters].arg = 1;
		getters[ngetters].file = NULL;
		/* static: that file's own */
		for (size_t j = i; j-- > 0 && !is(&f->t[j], ";") && !is(&f->t[j], "}");)
			if (is(&f->t[j], "static"))
				getters[ngetters].file = f->file;
		ngetters++;
	}
}

typedef void (*key_fn)(const char *file, int line, const char *key, void *arg);

/* The string literals of tokens [a, b) outside parentheses, adjacent ones joined. */
static void literals(const struct src *f, size_t a, size_t b, key_fn fn, void *arg)
{
	int depth = 0;

	for (size_t i = a; i < b; i++) {
		char key[256] = "";
		int line = f->t[i].line;

		depth += is(&f->t[i], "(") - is(&f->t[i], ")");
		if (depth || f->t[i].type != T_STR)
			continue;
		for (; i < b && f->t[i].type == T_STR; i++)
			snprintf(key + strlen(key), sizeof(key) - strlen(key), "%.*s", f->t[i].len,
				 f->t[i].s);
		fn(f->file, line, key, arg);
		i--;
	}
}

/* The arguments of the call whose "(" is token open: arg[k] is the index of
 * its first token, arg[k + 1] - 1 the comma or ")" after it. How many. */
static int call_args(const struct src *f, size_t open, size_t *arg, int max)
{
	int depth = 0, n = 0;

	for (size_t i = open; i < f->n; i++) {
		depth += is(&f->t[i], "(") || is(&f->t[i], "[") || is(&f->t[i], "{");
		depth -= is(&f->t[i], ")") || is(&f->t[i], "]") || is(&f->t[i], "}");
		if (depth == 1 && i == open && n < max)
			arg[n++] = i + 1;
		else if (depth == 1 && is(&f->t[i], ",") && n < max)
			arg[n++] = i + 1;
		if (depth == 0) {
			if (n < max)
				arg[n] = i + 1;
			return n;
		}
	}
	return 0;
}

/* json_pack: the argument after each object key's "s" in the format. */
static void pack_keys(const struct src *f, const size_t *arg, int nargs, key_fn fn, void *ctx)
{
	char fmt[512] = "";
	bool obj[32] = { false }, want_key = false;
	int depth = 0, a = 1;

	for (size_t i = arg[0]; i + 1 < arg[1]; i++) {
		if (f->t[i].type != T_STR)
			return; /* not a literal format */
		snprintf(fmt + strlen(fmt), sizeof(fmt) - strlen(fmt), "%.*s", f->t[i].len, f->t[i].s);
	}
	for (const char *c = fmt; *c && a < nargs; c++) {
		switch (*c) {
		case '{':
		case '[':
			if (depth + 1 < (int)ZC_ARRAY_SIZE(obj))
				obj[++depth] = *c == '{';
			want_key = *c == '{';
			break;
		case '}':
		case ']':
			depth -= depth > 0;
			want_key = obj[depth];
			break;
		case 's':
			if (want_key) {
				literals(f, arg[a], arg[a + 1] - 1, fn, ctx);
				want_key = false;
				a++;
				break;
			}
			a += c[1] == '%' || c[1] == '#' ? 2 : 1;
			want_key = obj[depth];
			break;
		case 'n':
			want_key = obj[depth];
			break;
		case 'b': case 'i': case 'I': case 'f': case 'F': case 'o': case 'O':
			a++;
			want_key = obj[depth];
			break;
		}
	}
}

/* Every key literal of f, to fn. */
static void scan(const struct src *f, key_fn fn, void *arg)
{
	for (size_t i = 0; i + 1 < f->n; i++) {
		const struct tok *t = &f->t[i];
		size_t args[64];
		int n;

		if (t->type != T_ID || !is(t + 1, "(") || (i && (is(t - 1, ".") || is(t - 1, ">"))))
			continue;
		if (is(t, "json_pack")) {
			n = call_args(f, i + 1, args, ZC_ARRAY_SIZE(args) - 1);
			pack_keys(f, args, n, fn, arg);
			continue;
		}
		for (size_t g = 0; g < ngetters; g++) {
			if (!is(t, getters[g].name) || (getters[g].file && getters[g].file != f->file))
				continue;
			n = call_args(f, i + 1, args, ZC_ARRAY_SIZE(args) - 1);
			if (getters[g].arg < n)
				literals(f, args[getters[g].arg], args[getters[g].arg + 1] - 1, fn, arg);
			break;
		}
	}
}

/* ---- the sources ---- */

static struct src srcs[1024];
static size_t nsrcs;

static int add_src(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t len = strlen(path);
	char *text;
	FILE *fp;

	(void)ftw;
	if (type != FTW_F || len < 2 || path[len - 2] != '.' ||
	    (path[len - 1] != 'c' && path[len - 1] != 'h') || strstr(path, "/bpf/"))
		return 0;
	text = calloc(1, st->st_size + 1);
	fp = fopen(path, "r");
	if (!text || !fp || fread(text, 1, st->st_size, fp) != (size_t)st->st_size ||
	    nsrcs == ZC_ARRAY_SIZE(srcs))
		return -1;
	fclose(fp);
	srcs[nsrcs].file = strdup(path);
	srcs[nsrcs].text = text;
	srcs[nsrcs].n = tokenize(text, &srcs[nsrcs].t);
	nsrcs++;
	return 0;
}

static int load_sources(void **state)
{
	(void)state;
	if (nsrcs)
		return 0;
	if (nftw("bench", add_src, 16, FTW_PHYS))
		return -1;
	for (size_t i = 0; i < nsrcs; i++)
		find_getters(&srcs[i]);
	return 0;
}

static const char *const keys[] = {
#define X(k) #k,
	ZC_KEYS(X)
#undef X
};
static bool used[ZC_ARRAY_SIZE(keys)];	/* by a literal of bench/ */

/* Key literals that are no key of ours, each with its reason. */
static const struct {
	const char *file, *key;
} not_keys[] = {
	/* fpdiff's flattened paths are two fingerprints' own; this names a root value */
	{ "bench/guest/fpdiff.c", "(value)" },
};

struct unknown {
	size_t n, keys;
	char text[16384];
};

static void check_key(const char *file, int line, const char *key, void *arg)
{
	struct unknown *u = arg;

	u->keys++;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(keys); i++)
		used[i] |= !strcmp(keys[i], key);
	if (zc_key_known(key))
		return;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(not_keys); i++)
		if (!strcmp(file, not_keys[i].file) && !strcmp(key, not_keys[i].key))
			return;
	u->n++;
	zc_strcatf(u->text, sizeof(u->text), "%s:%d: \"%s\" is in no list of results/keys.h\n",
		   file, line, key);
}

/* Every key literal of bench/ is a metric, a workload key or in ZC_KEYS. */
static void test_sources(void **state)
{
	struct unknown u = { 0 };

	(void)state;
	memset(used, 0, sizeof(used));
	assert_true(nsrcs > 100);
	for (size_t i = 0; i < nsrcs; i++)
		scan(&srcs[i], check_key, &u);
	printf("%zu key literals in %zu files, %zu getters\n", u.keys, nsrcs, ngetters);
	if (u.n)
		fail_msg("%zu keys in no list (a typo? else add it to results/keys.h):\n%s", u.n,
			 u.text);
	/* and the list holds no word that nothing reads or writes any more */
	for (size_t i = 0; i < ZC_ARRAY_SIZE(keys); i++)
		if (!used[i])
			fail_msg("\"%s\" of results/keys.h is no key literal of bench/: remove it", keys[i]);
	/* The scan sees what it is meant to: the getters found by their shape. */
	for (const char *const *g = (const char *const[]){ "zc_an_str", "zc_an_values",
							 "zc_derive_num", "zc_ba_med", NULL };
	     *g; g++) {
		bool found = false;

		for (size_t i = 0; i < ngetters; i++)
			found |= !strcmp(getters[i].name, *g);
		assert_true(found);
	}
}

/* A mistyped key in any position the scan reads is found, naming its line. */
static void test_scan_finds_typos(void **state)
{
	char text[] = "static double num(json_t *o, const char *k) { return 0; }\n"
		      "x = json_object_get(run, \"sumary\");\n"
		      "json_object_set_new(o, c ? \"gbps\" : \"gpbs\", json_real(1));\n"
		      "v = num(json_object_get(o, \"window\"), \"windw_s\");\n"
		      "o = json_pack(\"{s:i, s:{s:s%, s:o?}}\", \"runs\", 1, \"meta\", \"hostname\",\n"
		      "	\"x\", (size_t)1, \"smaples\", NULL);\n"
		      "zc_an_change(a, b, c, d, \"gbps_per_cores\", 0.95, &ch);\n"
		      "s.json_object_get(o, \"not_a_call\");\n";
	struct src f = { .file = "typo.c" };
	struct unknown u = { 0 };

	(void)state;
	f.n = tokenize(text, &f.t);
	find_getters(&f);
	scan(&f, check_key, &u);
	assert_int_equal(u.keys, 10);
	assert_int_equal(u.n, 5);
	assert_non_null(strstr(u.text, "typo.c:2: \"sumary\""));
	assert_non_null(strstr(u.text, "typo.c:3: \"gpbs\""));
	assert_non_null(strstr(u.text, "typo.c:4: \"windw_s\""));
	assert_non_null(strstr(u.text, "typo.c:6: \"smaples\""));
	assert_non_null(strstr(u.text, "typo.c:7: \"gbps_per_cores\""));
	free(f.t);
	ngetters--; /* typo.c's num */
}

/* The three lists: no key twice, metric and workload keys not repeated in
 * ZC_KEYS, and every path a metric reads from a report made of keys. */
static void test_lists(void **state)
{
	const size_t n = ZC_ARRAY_SIZE(keys);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(keys[i], keys[j]))
				fail_msg("\"%s\" twice in ZC_KEYS", keys[i]);
		if (zc_metric_find(keys[i]))
			fail_msg("\"%s\" in ZC_KEYS is a metric (metrics/metrics.c)", keys[i]);
		for (size_t o = 0; o < zc_nopts; o++)
			if (!strcmp(keys[i], zc_opts[o].key))
				fail_msg("\"%s\" in ZC_KEYS is a workload key (config/cfg.c)", keys[i]);
		for (size_t w = 0; w < ZC_WK_NR; w++)
			if (!strcmp(keys[i], zc_window_keys[w]))
				fail_msg("\"%s\" in ZC_KEYS is a window key (wire/wire.h)", keys[i]);
		for (size_t w = 0; w < ZC_CK_NR; w++)
			if (!strcmp(keys[i], zc_cpustat_keys[w]))
				fail_msg("\"%s\" in ZC_KEYS is a cpustat key (wire/wire.h)", keys[i]);
	}
	zc_for_each_metric(m) {
		char path[128], *save = NULL;

		assert_true(zc_key_known(m->key));
		if (!m->source)
			continue;
		snprintf(path, sizeof(path), "%s", m->source);
		for (char *k = strtok_r(path, ".", &save); k; k = strtok_r(NULL, ".", &save))
			if (!zc_key_known(k))
				fail_msg("metric %s: \"%s\" of %s in no list", m->key, k, m->source);
	}
	for (size_t o = 0; o < zc_nopts; o++)
		assert_true(zc_key_known(zc_opts[o].key));
	assert_false(zc_key_known("gbps_per_cor"));
	assert_false(zc_key_known(""));
}

/* Does fn abort (SIGABRT) in a child? */
static bool aborts(void (*fn)(void))
{
	pid_t pid = fork();
	int st = 0;

	assert_true(pid >= 0);
	if (!pid) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(1);
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static json_t *run_of(void)
{
	return json_pack("{s:[{s:s, s:f}]}", "samples", "status", "ok", "gbps_per_core", 2.5);
}

static void values_typo(void)
{
	double v[4];

	zc_an_values(run_of(), "gbps_per_cor", v, 4);
}

static void values_by_rep_not_metric(void)
{
	double v[4];

	zc_an_values_by_rep(run_of(), "status", v, 4);
}

static void str_typo(void)
{
	zc_an_str(run_of(), "sampels");
}

static void int_typo(void)
{
	zc_an_int(run_of(), "sampels");
}

/* The getters at run time: a metric getter aborts on what is no metric, the
 * others on an unknown key under ZC_STRICT_KEYS. */
static void test_getters(void **state)
{
	json_t *run;
	double v[4];

	(void)state;
	/* Children first: the parent's first zc_key reads ZC_STRICT_KEYS for good. */
	assert_true(aborts(values_typo));
	assert_true(aborts(values_by_rep_not_metric));
	unsetenv("ZC_STRICT_KEYS");
	assert_false(aborts(str_typo));
	assert_false(aborts(int_typo));
	setenv("ZC_STRICT_KEYS", "1", 1);
	assert_true(aborts(str_typo));
	assert_true(aborts(int_typo));
	run = run_of();
	assert_int_equal(zc_an_values(run, "gbps_per_core", v, 4), 1);
	assert_close(v[0], 2.5, 0);
	assert_string_equal(zc_an_str(json_array_get(json_object_get(run, "samples"), 0), "status"),
			    "ok");
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists),
		cmocka_unit_test_setup(test_scan_finds_typos, load_sources),
		cmocka_unit_test_setup(test_sources, load_sources),
		cmocka_unit_test(test_getters),
	};

	return zc_run_tests(tests, NULL, NULL);
}
