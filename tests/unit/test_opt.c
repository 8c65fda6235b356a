// SPDX-License-Identifier: GPL-2.0
/* Option tables: one parser, one set of messages, values back as argv and JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "zc_test.h"

#include "lib/opt.h"
#include "config/cfg.h"
#include "wire/wire.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct t {
	uint64_t size, sizes[4];
	int nsizes;
	double d;
	long l;
	int i, choice, tri;
	bool flag, on;
	char name[8];
	const char *text;
	const char *files[3];
	int nfiles;
	const char *many[4];
	int nmany;
	const char *rest[4];
	int nrest;
};

#define AT(f) ZC_OPT_AT(struct t, f)
static const struct zc_opt rows[] = {
	{ "size", ZC_OPT_SIZE, "64k", 4096, 1 << 20, AT(size), ZC_OPT_LIST,
	  ZC_OPT_LIST_AT(struct t, sizes, nsizes), .multiple = 4096, .help = "a size" },
	{ "d", ZC_OPT_DOUBLE, "0.5", 0.1, 10, AT(d), .help = "a double" },
	{ "l", ZC_OPT_LONG, "auto", 0, 100, AT(l), .names = "auto=-1", .help = "a long" },
	{ "i", ZC_OPT_INT, "7", 1, 9, AT(i), .help = "an int" },
	{ "choice", ZC_OPT_CHOICE, "b", AT(choice), .choices = "a|b|c", .help = "a choice" },
	{ "tri", ZC_OPT_BOOL, NULL, AT(tri), .help = "yes, no or unset" },
	{ "flag", ZC_OPT_BOOL, "no", AT(flag), .help = "a flag" },
	{ "on", ZC_OPT_BOOL, "yes", AT(on), .help = "on unless --no-on" },
	{ "name", ZC_OPT_STR, "x", AT(name), .plain = "-", .what = "a name", .help = "a name" },
	{ "text", ZC_OPT_TEXT, NULL, AT(text), ZC_OPT_REQ, .help = "required" },
	{ "many", ZC_OPT_TEXTS, NULL, AT(many), ZC_OPT_MULTI, .count_off = offsetof(struct t, nmany),
	  .help = "--many a b c" },
	{ "FILE", ZC_OPT_TEXTS, NULL, 1, 3, AT(files), ZC_OPT_POS,
	  .count_off = offsetof(struct t, nfiles), .help = "files" },
	{ "ARGS", ZC_OPT_TEXTS, NULL, AT(rest), ZC_OPT_POS | ZC_OPT_REST,
	  .count_off = offsetof(struct t, nrest), .help = "after --" },
};

static struct t v;
static char err[512];

static int parse(int argc, char **argv)
{
	const struct zc_optgroup g = { .opts = rows, .n = ZC_ARRAY_SIZE(rows), .base = &v };
	const struct zc_cmdline c = { .name = "t", .groups = &g, .ngroups = 1 };

	memset(&v, 0, sizeof(v));
	v.tri = -1;
	err[0] = 0;
	return zc_opt_parse(&c, argc, argv, err, sizeof(err));
}

#define PARSE(...) ({ char *a_[] = { "t", __VA_ARGS__, NULL }; parse(ZC_ARRAY_SIZE(a_) - 1, a_); })

static void expect_err(int ret, const char *needle)
{
	assert_int_equal(ret, -EINVAL);
	if (!strstr(err, needle) || strncmp(err, "command line: ", 14))
		fail_msg("error '%s' lacks 'command line: ...%s'", err, needle);
}

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(PARSE("--text=hi", "f1", "--size", "4k,8k", "--d=2.5", "--l", "auto", "--i=3",
			       "--choice=c", "--tri=off", "--flag", "--no-on", "--name=a-b", "f2",
			       "--many", "m1", "m2", "--", "--r1", "r2"), 0);
	assert_string_equal(v.text, "hi");
	assert_int_equal(v.nsizes, 2);
	assert_int_equal(v.sizes[1], 8192);
	assert_int_equal(v.size, 4096);	/* the scalar is the first element */
	assert_float_equal(v.d, 2.5, 0);
	assert_int_equal(v.l, -1);
	assert_int_equal(v.i, 3);
	assert_int_equal(v.choice, 2);
	assert_int_equal(v.tri, 0);
	assert_true(v.flag);
	assert_false(v.on);
	assert_string_equal(v.name, "a-b");
	assert_int_equal(v.nfiles, 2);
	assert_string_equal(v.files[1], "f2");
	assert_int_equal(v.nmany, 2);
	assert_string_equal(v.many[1], "m2");
	assert_int_equal(v.nrest, 2);
	assert_string_equal(v.rest[0], "--r1");
	/* Defaults, and '_' == '-' in keys. */
	assert_int_equal(PARSE("--text", "x", "f"), 0);
	assert_int_equal(v.size, 65536);
	assert_int_equal(v.choice, 1);
	assert_int_equal(v.tri, -1);
	assert_true(v.on);
	assert_int_equal(v.i, 7);
}

static void test_errors(void **state)
{
	(void)state;
	expect_err(PARSE("--text=x", "f", "--sise=4k"), "--sise: unknown option (zcbench t --help");
	expect_err(PARSE("--text=x", "f", "-s"), "-s: unknown option");
	expect_err(PARSE("--text=x", "f", "--d"), "--d: needs a value");
	expect_err(PARSE("--text", "--d=1", "f"), "--text: needs a value (--d=1 is an option");
	expect_err(PARSE("--text=x", "f", "--size=3k"), "--size: 3k is out of range [4k, 1M]");
	expect_err(PARSE("--text=x", "f", "--size=12k,8193"), "--size: 8193 is not a multiple of 4k");
	expect_err(PARSE("--text=x", "f", "--d=x"), "--d: 'x' is not a number");
	expect_err(PARSE("--text=x", "f", "--l=1.5"), "--l: '1.5' is not an integer or auto");
	expect_err(PARSE("--text=x", "f", "--i=10"), "--i: 10 is out of range [1, 9]");
	expect_err(PARSE("--text=x", "f", "--choice=d"), "--choice: 'd' is not one of a, b, c");
	expect_err(PARSE("--text=x", "f", "--flag=maybe"), "--flag: 'maybe' is not yes or no");
	expect_err(PARSE("--text=x", "f", "--name=a;b"), "--name: 'a;b' is not a name (character ';'");
	expect_err(PARSE("--text=x", "f", "--name=abcdefghi"), "is longer than 7 characters");
	expect_err(PARSE("--text=x", "f", "--no-d"), "--no-d: unknown option");
	expect_err(PARSE("f"), "--text is required");
	expect_err(PARSE("--text=x"), "FILE: 0 given, at least 1 needed");
	expect_err(PARSE("--text=x", "a", "b", "c", "d"), "FILE: more than 3 values");
	assert_int_equal(PARSE("--text=x", "f", "--help"), ZC_OPT_HELP);
	/* An empty list item is refused, never skipped (issue 30 M2). */
	expect_err(PARSE("--text=x", "f", "--size=4k,,8k"), "--size: '4k,,8k': item 2 is empty");
	expect_err(PARSE("--text=x", "f", "--size=,4k"), "--size: ',4k': item 1 is empty");
	expect_err(PARSE("--text=x", "f", "--size=4k,"), "--size: '4k,': item 2 is empty");
	expect_err(PARSE("--text=x", "f", "--size=4k, ,8k"), "item 2 is empty");
	expect_err(PARSE("--text=x", "f", "--size="), "--size: empty list");
	expect_err(PARSE("--text=x", "f", "--size=4k,8k,12k,16k,20k"), "more than 4 values");
}

/* The one comma-list splitter: commas separate, blanks around items too. */
static void test_list_split(void **state)
{
	static const struct { const char *text; int n; const char *first, *last, *why; } cases[] = {
		{ "a", 1, "a", "a", NULL },
		{ "a,b", 2, "a", "b", NULL },
		{ " a , b\t", 2, "a", "b", NULL },
		{ "a b,c", 3, "a", "c", NULL },
		{ "", -EINVAL, NULL, NULL, "empty list" },
		{ "  ", -EINVAL, NULL, NULL, "empty list" },
		{ ",", -EINVAL, NULL, NULL, "item 1 is empty" },
		{ "a,,", -EINVAL, NULL, NULL, "item 2 is empty" },
		{ ",a", -EINVAL, NULL, NULL, "item 1 is empty" },
		{ "a,b,", -EINVAL, NULL, NULL, "item 3 is empty" },
		{ "a, ,b", -EINVAL, NULL, NULL, "item 2 is empty" },
		{ "a,b,c,d,e", -EINVAL, NULL, NULL, "more than 4 values" },
	};
	char buf[16], *it[4], why[256];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(cases); i++) {
		int n = zc_list_split(cases[i].text, buf, sizeof(buf), it, 4, why, sizeof(why));

		if (n != cases[i].n)
			fail_msg("'%s': %d items, wanted %d (%s)", cases[i].text, n, cases[i].n, why);
		if (n > 0) {
			assert_string_equal(it[0], cases[i].first);
			assert_string_equal(it[n - 1], cases[i].last);
		} else if (!strstr(why, cases[i].why)) {
			fail_msg("'%s': '%s' lacks '%s'", cases[i].text, why, cases[i].why);
		}
	}
	assert_int_equal(zc_list_split("0123456789abcdef", buf, sizeof(buf), it, 4, why,
				       sizeof(why)), -EINVAL);	/* longer than buf */
	assert_non_null(strstr(why, "too long"));
}

/* What zc_opt_argv writes, the same rows read back exactly. */
static void test_argv_round_trip(void **state)
{
	struct zc_cfg a, b;
	char store[4096], *argv[64] = { "x" }, why[256];
	const struct zc_optgroup g = { .opts = zc_opts, .n = zc_nopts, .base = &b };
	const struct zc_cmdline c = { .name = "x", .groups = &g, .ngroups = 1 };
	int n;

	(void)state;
	zc_cfg_defaults(&a);
	assert_int_equal(zc_opt_set(&a, zc_opt_find("duration"), "0.1", why, sizeof(why)), 0);
	a.warmup_s = 1.0 / 3;	/* needs all 17 digits */
	assert_int_equal(zc_opt_set(&a, zc_opt_find("file-dir"), "/tmp/it's a dir", why, sizeof(why)), 0);
	assert_int_equal(zc_opt_set(&a, zc_opt_find("topology"), "direct", why, sizeof(why)), 0);
	assert_int_equal(zc_opt_set(&a, zc_opt_find("source"), "tee", why, sizeof(why)), 0);
	a.chunk = 12345;
	a.sink_seed = 99;
	n = zc_opt_argv(zc_opts, zc_nopts, &a, argv + 1, 62, store, sizeof(store));
	assert_int_equal(n, (int)zc_nopts);
	assert_string_equal(argv[1], "--topology=direct");
	/* Keys as flags are written: --pipe-size, never --pipe_size. */
	for (int i = 1; i <= n; i++)
		assert_true(strcspn(argv[i], "_") > strcspn(argv[i], "="));
	memset(&b, 0, sizeof(b));
	assert_int_equal(zc_opt_parse(&c, n + 1, argv, err, sizeof(err)), 0);
	assert_int_equal(b.topology, ZC_TOPO_DIRECT);
	assert_string_equal(b.mode[ZC_ROLE_SOURCE], "tee");
	assert_int_equal(b.chunk, 12345);
	assert_true(b.warmup_s == a.warmup_s);
	assert_true(b.duration_s == a.duration_s);
	assert_string_equal(b.file_dir, "/tmp/it's a dir");
	assert_int_equal(b.sink_seed, 99);
	assert_int_equal(zc_opt_argv(zc_opts, zc_nopts, &a, argv, 3, store, sizeof(store)), -E2BIG);
	assert_int_equal(zc_opt_argv(zc_opts, zc_nopts, &a, argv, 62, store, 100), -E2BIG);
}

/* The controller's side and the role's side of the role's options. */
static void test_role_args(void **state)
{
	static struct zc_role_args a, b;
	char store[8192], *argv[ZC_ROLE_ARGV_MAX] = { "zcbench", "proxy" };
	int n;

	(void)state;
	a.role = b.role = ZC_ROLE_PROXY;
	zc_cfg_defaults(&a.cfg);
	a.cpu = 1;
	snprintf(a.listen, sizeof(a.listen), "10.0.0.1");
	snprintf(a.peer, sizeof(a.peer), "10.0.0.2:4242");
	snprintf(a.cfg.mode[ZC_ROLE_PROXY], sizeof(a.cfg.mode[0]), "splice");
	a.cfg.pipe_size = 65536;
	a.cfg.period = 8192;
	snprintf(a.cfg.counters, sizeof(a.cfg.counters), "perf");
	n = zc_role_args_argv(&a, argv + 2, ZC_ROLE_ARGV_MAX - 3, store, sizeof(store));
	assert_int_equal(n, (int)(zc_nopts + zc_nrole_opts));
	/* Room left for the longest transport prefix (ssh's, about 15 entries):
	 * a role run over ssh failed with E2BIG when this ran out. */
	assert_true(n + 3 + 24 <= ZC_ROLE_ARGV_MAX);
	/* What benchmarks/bare_proxy.c reads. */
	for (const char *want[] = { "--mode=splice", "--pipe-size=65536", "--cpu=1", "--chunk=65536",
				    "--connect=10.0.0.2:4242", NULL }, **w = want; *w; w++) {
		bool found = false;

		for (int i = 2; i < n + 2; i++)
			found |= !strcmp(argv[i], *w);
		if (!found)
			fail_msg("role argv lacks %s", *w);
	}
	/* And what benchmarks/bare_source.c reads besides (values of the defaults). */
	for (const char *want[] = { "--period=8192", "--seed=", "--warmup=", "--duration=", "--tail=",
				    "--connections=", NULL }, **w = want; *w; w++) {
		bool found = false;

		for (int i = 2; i < n + 2; i++)
			found |= !strncmp(argv[i], *w, strlen(*w));
		if (!found)
			fail_msg("role argv lacks %s", *w);
	}
	argv[n + 2] = NULL;
	assert_int_equal(zc_role_args_parse(n + 2, argv, &b, err, sizeof(err)), 0);
	assert_int_equal(b.cpu, 1);
	assert_string_equal(b.listen, "10.0.0.1");
	assert_string_equal(b.connect, "10.0.0.2");
	assert_int_equal(b.port, 4242);
	assert_string_equal(b.cfg.mode[ZC_ROLE_PROXY], "splice");
	assert_int_equal(b.cfg.pipe_size, 65536);
	assert_int_equal(b.cfg.period, 8192);
	assert_string_equal(b.cfg.counters, "perf");
	/* A role's own checks, after the table's. */
	{
		char *bad[] = { "zcbench", "proxy", "--counters=lots", NULL };

		assert_int_equal(zc_role_args_parse(3, bad, &b, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "command line: --counters"));
	}
	{
		char *bad[] = { "zcbench", "source", NULL };

		b.role = ZC_ROLE_SOURCE;
		assert_int_equal(zc_role_args_parse(2, bad, &b, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "command line: --connect is required"));
	}
}

static void test_json_and_help(void **state)
{
	struct zc_cfg c;
	json_t *o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	zc_cfg_defaults(&c);
	o = zc_cfg_json(&c);
	assert_int_equal(json_integer_value(json_object_get(o, "chunk")), 65536);
	assert_string_equal(json_string_value(json_object_get(o, "topology")), "proxy");
	assert_string_equal(json_string_value(json_object_get(o, "sink")), "recv");
	assert_true(json_real_value(json_object_get(o, "duration")) == 4);
	json_decref(o);
	/* Every workload key is in --help with its default, spelled with dashes
	 * (one line each at a width that breaks none). */
	setenv("COLUMNS", "1000", 1);
	zc_opts_help(f);
	fclose(f);
	unsetenv("COLUMNS");
	for (size_t i = 0; i < zc_nopts; i++) {
		char want[64];

		snprintf(want, sizeof(want), "--%s ", zc_opts[i].key);
		for (char *c = want + 2; *c; c++)
			*c = *c == '_' ? '-' : *c;
		if (!strstr(buf, want))
			fail_msg("help lacks %s", want);
	}
	assert_non_null(strstr(buf, "(default 64k; 1..1024M)"));
	free(buf);
}

/* Durations and percents on fixed inputs, as the parsers and the rows read them. */
static void test_units(void **state)
{
	struct u { double s, pct; long ms; int ims; } x;
	const struct zc_opt urows[] = {
		{ "dur", ZC_OPT_DOUBLE, "4", 0.05, 86400, ZC_OPT_AT(struct u, s), .meta = "S" },
		{ "gate", ZC_OPT_DOUBLE, "5", 0, 1000, ZC_OPT_AT(struct u, pct), .meta = "PCT" },
		{ "slice_ms", ZC_OPT_LONG, "200", 20, 10000, ZC_OPT_AT(struct u, ms), .meta = "MS" },
		{ "wait-ms", ZC_OPT_INT, "1000", 10, 60000, ZC_OPT_AT(struct u, ims) },
	};
	static const struct { const char *in; double s; } durs[] = {
		{ "2", 2 }, { "2s", 2 }, { "500ms", 0.5 }, { "1m", 60 }, { "1.5m", 90 },
		{ "1h", 3600 }, { "250us", 0.00025 }, { "0.25", 0.25 },
	};
	static const char *const bad_durs[] = { "", "s", "2x", "ms", "2 s", "1e999s", "nan" };
	char why[256];
	double d;

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(durs); i++) {
		assert_int_equal(zc_parse_duration(durs[i].in, &d), 0);
		assert_true(fabs(d - durs[i].s) < 1e-12);
	}
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad_durs); i++)
		if (!zc_parse_duration(bad_durs[i], &d))
			fail_msg("'%s' read as a duration", bad_durs[i]);
	assert_int_equal(zc_parse_percent("5", &d), 0);
	assert_true(d == 5);
	assert_int_equal(zc_parse_percent("5%", &d), 0);
	assert_true(d == 5);
	assert_int_equal(zc_parse_percent("0.5%", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(zc_parse_percent("%", &d), -EINVAL);
	assert_int_equal(zc_parse_percent("5%%", &d), -EINVAL);
	assert_int_equal(zc_parse_percent("five", &d), -EINVAL);

	/* The rows: S in seconds, MS in milliseconds, PCT with or without %. */
	zc_opt_defaults(urows, ZC_ARRAY_SIZE(urows), &x);
	assert_int_equal(zc_opt_store(&urows[0], &x, "2s", why, sizeof(why)), 0);
	assert_true(x.s == 2);
	assert_int_equal(zc_opt_store(&urows[0], &x, "500ms", why, sizeof(why)), 0);
	assert_true(x.s == 0.5);
	assert_int_equal(zc_opt_store(&urows[0], &x, "3", why, sizeof(why)), 0);
	assert_true(x.s == 3);
	assert_int_equal(zc_opt_store(&urows[0], &x, "10ms", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
	assert_int_equal(zc_opt_store(&urows[0], &x, "2x", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not a duration"));
	assert_int_equal(zc_opt_store(&urows[1], &x, "3%", why, sizeof(why)), 0);
	assert_true(x.pct == 3);
	assert_int_equal(zc_opt_store(&urows[1], &x, "7", why, sizeof(why)), 0);
	assert_true(x.pct == 7);
	assert_int_equal(zc_opt_store(&urows[1], &x, "7%%", why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "not a percentage"));
	assert_int_equal(zc_opt_store(&urows[2], &x, "300", why, sizeof(why)), 0);
	assert_int_equal(x.ms, 300);
	assert_int_equal(zc_opt_store(&urows[2], &x, "1.5s", why, sizeof(why)), 0);
	assert_int_equal(x.ms, 1500);
	assert_int_equal(zc_opt_store(&urows[2], &x, "0.5ms", why, sizeof(why)), -EINVAL);
	assert_int_equal(zc_opt_store(&urows[3], &x, "2s", why, sizeof(why)), 0);
	assert_int_equal(x.ims, 2000);
	/* Durations format back as the bare number a row reads again. */
	assert_int_equal(zc_opt_store(&urows[0], &x, "1m", why, sizeof(why)), 0);
	assert_true(zc_opt_format(&urows[0], &x, why, sizeof(why)) > 0);
	assert_int_equal(zc_opt_store(&urows[0], &x, why, why + 100, sizeof(why) - 100), 0);
	assert_true(x.s == 60);
}

/* Flags have one spelling in help (dashes); the old '_' one is still read. */
static void test_spellings(void **state)
{
	struct s { uint64_t pipe; bool exec; } x;
	const struct zc_opt srows[] = {
		{ "pipe_size", ZC_OPT_SIZE, "64k", ZC_OPT_AT(struct s, pipe), .help = "p" },
		{ "exec_source", ZC_OPT_BOOL, "no", ZC_OPT_AT(struct s, exec), .help = "e" },
	};
	const struct zc_optgroup g = { .opts = srows, .n = ZC_ARRAY_SIZE(srows), .base = &x };
	const struct zc_cmdline c = { .name = "t", .groups = &g, .ngroups = 1 };
	char *a1[] = { "t", "--pipe-size=1M", "--exec-source", NULL };
	char *a2[] = { "t", "--pipe_size", "2M", "--exec_source", NULL };
	char *a3[] = { "t", "--no-exec-source", NULL };
	char left[96], text[256], *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(zc_opt_parse(&c, 3, a1, err, sizeof(err)), 0);
	assert_true(x.pipe == 1 << 20 && x.exec);
	assert_int_equal(zc_opt_parse(&c, 4, a2, err, sizeof(err)), 0);
	assert_true(x.pipe == 2 << 20 && x.exec);
	assert_int_equal(zc_opt_parse(&c, 2, a3, err, sizeof(err)), 0);
	assert_false(x.exec);
	zc_opt_row_text(&srows[0], true, left, sizeof(left), text, sizeof(text));
	assert_string_equal(left, "--pipe-size SIZE");
	zc_opt_row_text(&srows[0], false, left, sizeof(left), text, sizeof(text));
	assert_string_equal(left, "pipe_size = SIZE");	/* a file's key keeps its spelling */
	f = open_memstream(&buf, &len);
	zc_opt_usage(f, &c);
	fclose(f);
	assert_non_null(strstr(buf, "--exec-source"));
	assert_null(strstr(buf, "exec_source"));
	free(buf);
}

/* Help lines fit the width: a long help breaks under its column. */
static void test_help_fits(void **state)
{
	const struct zc_opt h[] = {
		{ "long-help", ZC_OPT_INT, "1", AT(i), .help =
		  "a help text that is much longer than any terminal of eighty columns can show on "
		  "one line, so it must break at a space and hang under the help column" },
	};
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int lines = 0;

	(void)state;
	setenv("COLUMNS", "80", 1);
	zc_opt_help(f, h, 1, true);
	fclose(f);
	unsetenv("COLUMNS");
	for (char *save = NULL, *p = buf; (line = strtok_r(p, "\n", &save)); p = NULL, lines++) {
		assert_true(strlen(line) <= 80);
		if (lines)
			assert_int_equal((int)strspn(line, " "), 31);
	}
	assert_true(lines >= 2);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_list_split),
		cmocka_unit_test(test_argv_round_trip),
		cmocka_unit_test(test_role_args),
		cmocka_unit_test(test_json_and_help),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_help_fits),
	};

	return zc_run_tests(tests, NULL, NULL);
}
