// SPDX-License-Identifier: GPL-2.0
/* The minimal HTTP/1.1 of request/response runs (lib/http.h): requests made
 * to size and parsed back, responses, what the parsers refuse, and the
 * object-size file with its bad lines named. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "zc_test.h"

#include "lib/http.h"

static void test_request_sizes(void **state)
{
	char buf[ZC_HTTP_HEAD_MAX + 16], err[200];
	struct zc_http_msg m;
	size_t min = zc_http_request_min(65536, false);

	(void)state;
	assert_int_equal(zc_http_request(buf, sizeof(buf), 65536, false, 0), (int)min);
	assert_string_equal(buf, "GET /65536 HTTP/1.1\r\nHost: zcbench\r\n\r\n");
	/* every length from the shortest up: exactly that many bytes, parsed back */
	for (size_t want = min; want < min + 40; want++) {
		assert_int_equal(zc_http_request(buf, sizeof(buf), 65536, want & 1, want + (want & 1 ?
				 strlen("Connection: close\r\n") : 0)), (int)(want + (want & 1 ?
				 strlen("Connection: close\r\n") : 0)));
		assert_int_equal(zc_http_parse_request(buf, strlen(buf), &m, err, sizeof(err)), 1);
		assert_int_equal(m.object, 65536);
		assert_int_equal(m.head_len, strlen(buf));
		assert_int_equal(m.close, (bool)(want & 1));
	}
	assert_int_equal(zc_http_request(buf, sizeof(buf), 1, false, 1000), 1000);
	assert_int_equal(zc_http_request(buf, sizeof(buf), 1, false, zc_http_request_min(1, false) - 1),
			 -ERANGE);
	assert_int_equal(zc_http_request(buf, sizeof(buf), 1, false, ZC_HTTP_HEAD_MAX + 1), -ERANGE);
	assert_int_equal(zc_http_request(buf, 20, 1, false, 0), -E2BIG);
}

static void test_request_parse(void **state)
{
	const char *ok = "GET /4096 HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\nGET";
	char err[200];
	struct zc_http_msg m;

	(void)state;
	/* a head cut anywhere needs more bytes */
	for (size_t n = 0; n < strlen(ok) - 3; n++)
		assert_int_equal(zc_http_parse_request(ok, n, &m, err, sizeof(err)), 0);
	assert_int_equal(zc_http_parse_request(ok, strlen(ok), &m, err, sizeof(err)), 1);
	assert_int_equal(m.object, 4096);
	assert_true(m.close);
	assert_int_equal(m.head_len, strlen(ok) - 3);
	/* "/": the run's object size; HTTP/1.0 closes */
	assert_int_equal(zc_http_parse_request("GET / HTTP/1.0\r\n\r\n", 18, &m, err, sizeof(err)), 1);
	assert_int_equal(m.object, UINT64_MAX);
	assert_true(m.close);
}

static void test_request_rejects(void **state)
{
	static const char *const bad[] = {
		"POST /1 HTTP/1.1\r\n\r\n",
		"GET /abc HTTP/1.1\r\n\r\n",
		"GET /1 HTTP/2.0\r\n\r\n",
		"GET /1 HTTP/1.1\r\nHost zcbench\r\n\r\n",
		"GET /1 HTTP/1.1\r\n folded: x\r\n\r\n",
		"GET /1 HTTP/1.1\nHost: x\r\n\r\n",
		"GET /1 HTTP/1.1\r\nHost: x\nY: z\r\n\r\n",
		"GET /99999999999999999999 HTTP/1.1\r\n\r\n",
		"GET /1 HTTP/1.1\r\nX: a\001b\r\n\r\n",
	};
	char err[200], big[ZC_HTTP_HEAD_MAX + 100];
	struct zc_http_msg m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		if (zc_http_parse_request(bad[i], strlen(bad[i]), &m, err, sizeof(err)) != -EPROTO)
			fail_msg("accepted: %s", bad[i]);
		assert_true(err[0] != 0);
	}
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /1 HTTP/1.1\r\nX: ", 20);
	assert_int_equal(zc_http_parse_request(big, sizeof(big), &m, err, sizeof(err)), -E2BIG);
}

static void test_response(void **state)
{
	char buf[256], err[200];
	struct zc_http_msg m;
	const char *nginx = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Type: application/octet-stream"
			    "\r\nContent-Length: 1048576\r\nConnection: keep-alive\r\n\r\n";
	static const char *const bad[] = {
		"HTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n",
		"HTTP/1.1 2x0 OK\r\nContent-Length: 5\r\n\r\n",
		"HTTP/3 200 OK\r\nContent-Length: 5\r\n\r\n",
	};
	int n = zc_http_response(buf, sizeof(buf), 12345, true);

	(void)state;
	assert_true(n > 0);
	assert_int_equal(zc_http_parse_response(buf, (size_t)n - 1, &m, err, sizeof(err)), 0);
	assert_int_equal(zc_http_parse_response(buf, (size_t)n, &m, err, sizeof(err)), 1);
	assert_int_equal(m.status, 200);
	assert_int_equal(m.content_length, 12345);
	assert_true(m.close);
	assert_int_equal(m.head_len, (size_t)n);
	assert_int_equal(zc_http_parse_response(nginx, strlen(nginx), &m, err, sizeof(err)), 1);
	assert_int_equal(m.content_length, 1048576);
	assert_false(m.close);
	n = snprintf(buf, sizeof(buf), "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
	assert_int_equal(zc_http_parse_response(buf, (size_t)n, &m, err, sizeof(err)), 1);
	assert_int_equal(m.status, 404);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (zc_http_parse_response(bad[i], strlen(bad[i]), &m, err, sizeof(err)) != -EPROTO)
			fail_msg("accepted: %s", bad[i]);
}

static const char *write_tmp(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/zc-test-sizes-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_sizes_file(void **state)
{
	uint64_t *v;
	size_t n;
	char err[300];
	const char *p = write_tmp("# sizes\n1k\n\n  64k  # a comment\n4096\r\n");

	(void)state;
	assert_int_equal(zc_sizes_file_read(p, 1 << 20, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 1024);
	assert_int_equal(v[1], 65536);
	assert_int_equal(v[2], 4096);
	free(v);
	unlink(p);
	/* a bad line is named by file and line */
	p = write_tmp("1k\n\n2k\nlots\n");
	assert_int_equal(zc_sizes_file_read(p, 1 << 20, &v, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, p));
	assert_non_null(strstr(err, ":4: 'lots'"));
	unlink(p);
	p = write_tmp("1k\n2G\n");
	assert_int_equal(zc_sizes_file_read(p, 1 << 20, &v, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":2: '2G'"));
	unlink(p);
	p = write_tmp("# nothing\n\n");
	assert_int_equal(zc_sizes_file_read(p, 1 << 20, &v, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no sizes"));
	unlink(p);
	assert_int_equal(zc_sizes_file_read("/nonexistent/sizes", 1 << 20, &v, &n, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "/nonexistent/sizes"));
}

/* Issue 30: an exact check names the first byte that differs, both sides escaped. */
static void test_diff(void **state)
{
	char want[256], got[256], what[300];
	int n = zc_http_request(want, sizeof(want), 16384, false, 0);

	(void)state;
	memcpy(got, want, (size_t)n);
	assert_int_equal(zc_http_diff(got, (size_t)n, want, (size_t)n, false, what, sizeof(what)), -1);
	got[27] = 'Z';		/* "Host: zcbench" -> "Host: Zcbench" */
	assert_int_equal(zc_http_diff(got, (size_t)n, want, (size_t)n, false, what, sizeof(what)), 27);
	assert_string_equal(what, "'Zcbench\\r\\n\\r\\n' where 'zcbench\\r\\n\\r\\n' was sent");
	/* The start of what was sent: more may come (partial), or it ended short. */
	assert_int_equal(zc_http_diff(want, 10, want, (size_t)n, true, what, sizeof(what)), -1);
	assert_int_equal(zc_http_diff(want, 10, want, (size_t)n, false, what, sizeof(what)), 10);
	assert_non_null(strstr(what, "the end where '"));
	assert_int_equal(zc_http_diff(want, (size_t)n, want, 10, false, what, sizeof(what)), 10);
	assert_non_null(strstr(what, "past the end of what was sent"));
	/* Control bytes and long stretches are escaped and cut. */
	assert_int_equal(zc_http_diff("\x01" "abcdefghijklmnopqrstuvwxyz", 27, "x", 1, false, what,
				      sizeof(what)), 0);
	assert_string_equal(what, "'\\x01abcdefghijklmno...' where 'x' was sent");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_sizes),
		cmocka_unit_test(test_request_parse),
		cmocka_unit_test(test_request_rejects),
		cmocka_unit_test(test_response),
		cmocka_unit_test(test_sizes_file),
		cmocka_unit_test(test_diff),
	};

	return zc_run_tests(tests, NULL, NULL);
}
