// SPDX-License-Identifier: GPL-2.0
/* The strict INI reader, input files (regular, bounded, never blocking) and UTF-8. */
#include "zc_test.h"

#include "lib/ini.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What the handler saw, one "section|key|value|line" per call. */
static char seen[8192];

static int record(void *user, const char *section, const char *key, const char *value, int line)
{
	size_t n = strlen(seen);

	(void)user;
	snprintf(seen + n, sizeof(seen) - n, "%s|%s|%s|%d\n", section, key ? key : "-",
		 value ? value : "-", line);
	return 0;
}

static int parse(const char *text, size_t len, char *err, size_t errlen)
{
	char *copy = malloc(len + 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, text, len);
	seen[0] = 0;
	err[0] = 0;
	ret = zc_ini_parse_text("t.ini", copy, len, record, NULL, err, errlen);
	free(copy);
	return ret;
}

#define PARSE(lit, err) parse(lit, sizeof(lit) - 1, err, sizeof(err))

static void test_syntax(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(PARSE("\xef\xbb\xbf; c\n# c\n\n[run a]\r\nkey = v ; note\r\n  b=x;y\n"
			       "[empty]\n", err), 0);
	assert_string_equal(seen, "run a|-|-|4\nrun a|key|v|5\nrun a|b|x;y|6\nempty|-|-|7\n");
	/* An indented line is a line of its own, not the previous value's tail. */
	assert_int_equal(PARSE("[s]\na = 1\n  b = 2\n", err), 0);
	assert_string_equal(seen, "s|-|-|1\ns|a|1|2\ns|b|2|3\n");
}

static void test_long_lines(void **state)
{
	char text[4096], err[256];
	int n;

	(void)state;
	/* inih cut at 199 bytes and read the tail as a line: "sink_seed = 5". */
	n = snprintf(text, sizeof(text), "[w]\n; %0*d sink_seed = 5\nk = ", 300, 0);
	memset(text + n, 'v', 2000);
	strcpy(text + n + 2000, "\n");
	assert_int_equal(parse(text, strlen(text), err, sizeof(err)), 0);
	assert_non_null(strstr(seen, "w|k|vvvv"));
	assert_null(strstr(seen, "sink_seed"));
	assert_int_equal(strlen(strstr(seen, "w|k|")), 4 + 2000 + 2 + 1);	/* whole, "|3\n" */
}

static void test_refused(void **state)
{
	static const struct {
		const char *text;
		size_t len;
		const char *want;
	} bad[] = {
#define B(lit, want) { lit, sizeof(lit) - 1, want }
		B("[a]\nchunk = 64k\0garbage\n", "t.ini:2: a NUL byte"),
		B("[a]\nname = caf\xe9\n", "t.ini:2: byte 0xe9 that is not UTF-8"),
		B("[a]\n\nname = \xc0\xaf\n", "t.ini:3: byte 0xc0"),		/* overlong '/' */
		B("[a]\nx = \xed\xa0\x80\n", "t.ini:2: byte 0xed"),		/* a surrogate */
		B("[a]\nx = \x1b[31m\n", "t.ini:2: control character 0x1b"),
		B("[a]\nx = 1\rk = 2\n", "t.ini:2: control character 0x0d"),
		B("k = 1\n", "t.ini:1: key 'k' before any [section]"),
		B("[a]\nk = 1\nk = 2\n", "t.ini:3: key 'k' appears twice in [a] (first on line 2)"),
		B("[a]\npipe-size = 1\npipe_size = 2\n", "appears twice"),
		B("[a]\n[b]\n[a]\n", "t.ini:3: section [a] appears twice (first on line 1)"),
		B("[a]\njust words\n", "t.ini:2: 'just words' is not key = value"),
		B("[a\n", "t.ini:1: '[' without ']'"),
		B("[a] x\n", "t.ini:1: text after [a]"),
		B("[a]\nk k = 1\n", "t.ini:2: 'k k' is not a key"),
		B("[a]\n = 1\n", "t.ini:2: no key before '='"),
#undef B
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(bad); i++) {
		assert_int_equal(parse(bad[i].text, bad[i].len, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].want);
	}
}

static int stop_at_b(void *user, const char *section, const char *key, const char *value, int line)
{
	(void)user;
	(void)section;
	(void)value;
	(void)line;
	return key && !strcmp(key, "b") ? -EINVAL : 0;
}

static void test_handler_stops(void **state)
{
	char text[] = "[s]\na = 1\nb = 2\nc = 3\n", err[64] = "untouched";

	(void)state;
	assert_int_equal(zc_ini_parse_text("t", text, strlen(text), stop_at_b, NULL, err,
					   sizeof(err)), -EINVAL);
	assert_string_equal(err, "untouched");	/* the handler's own message stands */
}

static void test_read_input(void **state)
{
	char dir[] = "/tmp/zc-test-input-XXXXXX", path[128], why[256];
	size_t len;
	char *s;
	int fd;
	double t0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	s = zc_read_input(dir, 1024, &len, why, sizeof(why));
	assert_null(s);
	assert_string_equal(why, "is a directory, not a file");
	t0 = zc_now();
	assert_null(zc_read_input("/dev/zero", 1024, &len, why, sizeof(why)));
	assert_non_null(strstr(why, "is a character device, not a regular file"));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_null(zc_read_input(path, 1024, &len, why, sizeof(why)));	/* must not block */
	assert_non_null(strstr(why, "is a FIFO, not a regular file"));
	assert_true(zc_now() - t0 < 5);
	unlink(path);
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "0123456789", 10), 10);
	close(fd);
	s = zc_read_input(path, 10, &len, why, sizeof(why));
	assert_non_null(s);
	assert_int_equal(len, 10);
	assert_string_equal(s, "0123456789");
	free(s);
	assert_null(zc_read_input(path, 9, &len, why, sizeof(why)));
	assert_non_null(strstr(why, "is larger than 9 bytes"));
	assert_null(zc_read_input("/nonexistent/x", 9, &len, why, sizeof(why)));
	assert_string_equal(why, strerror(ENOENT));
	unlink(path);
	rmdir(dir);
}

static void test_utf8(void **state)
{
	(void)state;
	assert_int_equal(zc_utf8_bad("plain", 5), -1);
	assert_int_equal(zc_utf8_bad("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14), -1);
	assert_int_equal(zc_utf8_bad("a\0b", 3), 1);
	assert_int_equal(zc_utf8_bad("ab\xc3", 3), 2);		/* cut sequence */
	assert_int_equal(zc_utf8_bad("\xe0\x80\xaf", 3), 0);	/* overlong */
	assert_int_equal(zc_utf8_bad("\xf4\x90\x80\x80", 4), 0);	/* past U+10FFFF */
	assert_int_equal(zc_utf8_bad("x\x80", 2), 1);		/* lone continuation */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_handler_stops),
		cmocka_unit_test(test_read_input),
		cmocka_unit_test(test_utf8),
	};

	return zc_run_tests(tests, NULL, NULL);
}
