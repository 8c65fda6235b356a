// SPDX-License-Identifier: GPL-2.0
/*
 * bench/peers/ for HTTP (issue 23): nginx's configuration (sendfile on/off,
 * pinned workers, temp paths), its objects of the pattern, `nginx -V`
 * parsed; wrk's command line and its output parsed (tests/unit/data/,
 * captured from wrk 4.1.0 against nginx 1.22 on loopback: a clean run,
 * 404s, a refused connection, a server that never answers); h2load's command line and summary (nghttp2 1.52); HAProxy's
 * HTTP mode; the /proc/PID/stat fields of a process group; the units both
 * clients print. When nginx or haproxy is installed, each configuration is
 * also checked by the program itself (nginx -t, haproxy -c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/pattern.h"
#include "lib/zcbench.h"
#include "peers/h2load.h"
#include "peers/haproxy.h"
#include "peers/nginx.h"
#include "peers/peer.h"
#include "peers/peer_int.h"
#include "peers/wrk.h"

static char dir[] = "/tmp/zc-peers-http.XXXXXX";

static struct zc_nginx_cfg nginx_cfg(bool sendfile)
{
	static const int cpu[] = { 5, 2, 3 };

	return (struct zc_nginx_cfg){ .listen_addr = "127.0.0.1", .listen_port = 8080,
				      .dir = "/tmp/zn", .docroot = "/tmp/zn/root", .master = true,
				      .workers = 2, .cpus = cpu, .ncpus = 3, .sendfile = sendfile,
				      .tcp_nopush = true, .connections = 16,
				      .temp_modules = ZC_NGINX_TEMP_ALL };
}

static void test_nginx_config_sendfile(void **state)
{
	struct zc_nginx_cfg c = nginx_cfg(true);
	char text[4096];

	(void)state;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "daemon off;\n"));
	assert_non_null(strstr(text, "master_process on;\n"));
	assert_non_null(strstr(text, "worker_processes 2;\n"));
	/* two workers on the two lowest CPUs, one each: 2 and 3 */
	assert_non_null(strstr(text, "worker_cpu_affinity 100 1000;\n"));
	assert_non_null(strstr(text, "pid /tmp/zn/nginx.pid;\n"));
	assert_non_null(strstr(text, "lock_file /tmp/zn/nginx.lock;\n"));
	assert_non_null(strstr(text, "\tworker_connections 80;\n"));
	assert_non_null(strstr(text, "\tsendfile on;\n"));
	assert_non_null(strstr(text, "\ttcp_nopush on;\n"));
	assert_null(strstr(text, "output_buffers"));
	assert_non_null(strstr(text, "\taccess_log off;\n"));
	assert_non_null(strstr(text, "\tkeepalive_requests 1000000000;\n"));
	assert_non_null(strstr(text, "\tkeepalive_timeout 3600s;\n"));
	assert_non_null(strstr(text, "\tclient_body_temp_path /tmp/zn/client_body;\n"));
	assert_non_null(strstr(text, "\tproxy_temp_path /tmp/zn/proxy;\n"));
	assert_non_null(strstr(text, "\tscgi_temp_path /tmp/zn/scgi;\n"));
	assert_non_null(strstr(text, "\t\tlisten 127.0.0.1:8080;\n"));
	assert_non_null(strstr(text, "\t\troot /tmp/zn/root;\n"));
	/* nothing that would make it a daemon, log requests or look up files */
	assert_null(strstr(text, "daemon on"));
	assert_null(strstr(text, "open_file_cache"));
	assert_null(strstr(text, "ssl"));
}

static void test_nginx_config_copy(void **state)
{
	struct zc_nginx_cfg c = nginx_cfg(false);
	char text[4096];

	(void)state;
	c.output_buffer = 65536;
	c.sendfile_max_chunk = 1 << 20;		/* sendfile's only: not written */
	c.workers = 4;				/* more workers than CPUs: all on all */
	c.listen_addr = "::1";
	c.keepalive_requests = 100;
	c.temp_modules = ZC_NGINX_TEMP_PROXY;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\tsendfile off;\n"));
	assert_null(strstr(text, "tcp_nopush"));
	assert_null(strstr(text, "sendfile_max_chunk"));
	assert_non_null(strstr(text, "\toutput_buffers 2 65536;\n"));
	assert_non_null(strstr(text, "worker_cpu_affinity 101100;\n"));
	assert_non_null(strstr(text, "\t\tlisten [::1]:8080;\n"));
	assert_non_null(strstr(text, "\tkeepalive_requests 100;\n"));
	assert_non_null(strstr(text, "\tproxy_temp_path"));
	assert_null(strstr(text, "fastcgi_temp_path"));
	assert_null(strstr(text, "uwsgi_temp_path"));
	/* one process: no worker_processes; pinned to the lowest CPU */
	c = nginx_cfg(true);
	c.master = false;
	c.sendfile_max_chunk = 1 << 20;
	c.tcp_nopush = false;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "master_process off;\n"));
	assert_null(strstr(text, "worker_processes"));
	assert_non_null(strstr(text, "worker_cpu_affinity 100;\n"));
	assert_non_null(strstr(text, "\ttcp_nopush off;\n"));
	assert_non_null(strstr(text, "\tsendfile_max_chunk 1048576;\n"));
	c.ncpus = 0;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), 0);
	assert_null(strstr(text, "worker_cpu_affinity"));
}

static void test_nginx_config_bad(void **state)
{
	struct zc_nginx_cfg c = nginx_cfg(true);
	char text[4096], small[100];

	(void)state;
	c.workers = 0;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), -EINVAL);
	c = nginx_cfg(true);
	c.listen_port = 70000;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), -EINVAL);
	c = nginx_cfg(true);
	c.docroot = "/tmp/a b";		/* would need quoting */
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), -EINVAL);
	c = nginx_cfg(true);
	c.dir = NULL;
	assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), -EINVAL);
	c = nginx_cfg(true);
	assert_int_equal(zc_nginx_config(&c, small, sizeof(small)), -ENOSPC);
}

static void test_nginx_parse_v(void **state)
{
	const char *deb = "nginx version: nginx/1.22.1\n"
			  "built with OpenSSL 3.0.22 25 Aug 2026\nTLS SNI support enabled\n"
			  "configure arguments: --prefix=/usr/share/nginx --conf-path=/etc/nginx/nginx.conf"
			  " --http-client-body-temp-path=/var/lib/nginx/body --with-http_v2_module\n";
	const char *light = "nginx version: nginx/1.18.0\nconfigure arguments: --without-http_uwsgi_module"
			    " --without-http_scgi_module --without-http_fastcgi_module\n";
	char v[64];
	unsigned mods;

	(void)state;
	assert_int_equal(zc_nginx_parse_v(deb, v, sizeof(v), &mods), 0);
	assert_string_equal(v, "1.22.1");
	assert_int_equal(mods, ZC_NGINX_TEMP_ALL);
	assert_int_equal(zc_nginx_parse_v(light, v, sizeof(v), &mods), 0);
	assert_string_equal(v, "1.18.0");
	assert_int_equal(mods, ZC_NGINX_TEMP_PROXY);
	assert_int_equal(zc_nginx_parse_v("HAProxy version 2.6", v, sizeof(v), &mods), -EINVAL);
}

static void test_nginx_docroot(void **state)
{
	const uint64_t sizes[] = { 0, 1, 4097, 65536 };
	char root[128], path[160];
	uint8_t want[65536], got[65536];
	struct stat st;

	(void)state;
	snprintf(root, sizeof(root), "%s/root", dir);
	assert_int_equal(zc_nginx_docroot(root, sizes, 4, 42), 0);
	assert_int_equal(stat(root, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	zc_pattern_fill(want, sizeof(want), 42);
	for (int i = 0; i < 4; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%llu", root, (unsigned long long)sizes[i]);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(st.st_size, sizes[i]);
		assert_int_equal(st.st_mode & 0777, 0644);
		f = fopen(path, "r");
		assert_non_null(f);
		assert_int_equal(fread(got, 1, sizeof(got), f), sizes[i]);
		fclose(f);
		/* the pattern from offset 0: what a zcbench HTTP client checks */
		assert_memory_equal(got, want, sizes[i]);
	}
	assert_int_equal(zc_nginx_docroot(root, sizes, 0, 42), -EINVAL);
}

/* Write text to DIR/name and run argv with it as the last argument that is
 * NULL: the program's verdict, its output into out. */
static int check_with(char **argv, int slot, const char *name, const char *text, char *out,
		      size_t len)
{
	char path[256];
	int status = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(zc_write_atomic(path, text, strlen(text)), 0);
	argv[slot] = path;
	assert_int_equal(zc_peer_capture(argv, 30, out, len, &status), 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void test_nginx_t(void **state)
{
	char why[256], text[4096], out[4096], root[160];
	char *argv[] = { "nginx", "-t", "-p", dir, "-c", NULL, NULL };
	const uint64_t size = 100;
	int cpu = 0;

	(void)state;
	if (zc_nginx_available(why, sizeof(why)))
		zc_skip("%s", why);
	snprintf(root, sizeof(root), "%s/root", dir);
	assert_int_equal(zc_nginx_docroot(root, &size, 1, 1), 0);
	for (int sf = 0; sf < 2; sf++) {
		struct zc_nginx_cfg c = nginx_cfg(sf);

		c.dir = dir;
		c.docroot = root;
		c.cpus = &cpu;
		c.ncpus = 1;
		assert_int_equal(zc_nginx_config(&c, text, sizeof(text)), 0);
		if (check_with(argv, 5, "nginx.conf", text, out, sizeof(out)))
			print_message("%s\n%s\n", text, out);
		assert_non_null(strstr(out, "test is successful"));
		assert_null(strstr(out, "[warn]"));
	}
}

static void test_haproxy_http(void **state)
{
	static const int cpu[] = { 1 };
	struct zc_haproxy_cfg c = { .listen_addr = "127.0.0.1", .listen_port = 8000,
				    .server_addr = "127.0.0.1", .server_port = 8080, .http = true,
				    .splice = true, .nbthread = 1, .cpus = cpu, .ncpus = 1,
				    .connections = 4 };
	char *argv[] = { "haproxy", "-c", "-f", NULL, NULL };
	char text[4096], out[4096], why[256];

	(void)state;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "(http, splice)"));
	assert_non_null(strstr(text, "\tmode http\n"));
	assert_null(strstr(text, "mode tcp"));
	assert_non_null(strstr(text, "\toption http-keep-alive\n"));
	assert_non_null(strstr(text, "\thttp-reuse always\n"));
	assert_non_null(strstr(text, "\ttimeout http-keep-alive 3600s\n"));
	assert_non_null(strstr(text, "\toption splice-request\n"));
	assert_non_null(strstr(text, "\toption splice-response\n"));
	assert_null(strstr(text, "splice-auto"));
	if (zc_haproxy_available(true, why, sizeof(why)))
		zc_skip("%s", why);
	assert_int_equal(check_with(argv, 3, "http-splice.cfg", text, out, sizeof(out)), 0);
	assert_null(strstr(out, "WARNING"));
	c.splice_auto = true;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\toption splice-auto\n"));
	assert_null(strstr(text, "splice-request"));
	assert_int_equal(check_with(argv, 3, "http-auto.cfg", text, out, sizeof(out)), 0);
	c.splice = false;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "(http, copy)"));
	assert_non_null(strstr(text, "\tnosplice\n"));
	assert_null(strstr(text, "option splice"));
	assert_int_equal(check_with(argv, 3, "http-copy.cfg", text, out, sizeof(out)), 0);
	assert_null(strstr(out, "WARNING"));
}

/* Output captured from the real programs (tests/unit/data/, read from the
 * repository's top, where tests/run.sh runs the tests). */
static char *fixture(const char *name)
{
	char path[256];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	text = zc_read_file(path, 1 << 20, &len);
	if (!text)
		fail_msg("%s: %s", path, strerror(errno));
	return text;
}

static void test_wrk_parse(void **state)
{
	char *wrk_ok = fixture("wrk-ok.out"), *wrk_404 = fixture("wrk-404.out");
	char *wrk_refused = fixture("wrk-refused.out");
	/* a server that accepts and never answers: nothing completed */
	char *wrk_none = fixture("wrk-none.out");
	struct zc_wrk_result r;

	(void)state;
	assert_int_equal(zc_wrk_parse(wrk_ok, &r), 0);
	assert_int_equal(r.requests, 24989);
	assert_int_equal(r.bytes, 1644101277ULL);
	assert_true(r.duration_s > 1.0052 && r.duration_s < 1.0053);
	assert_true(r.requests_per_s > 24859 && r.requests_per_s < 24860);
	assert_int_equal(r.err_connect + r.err_read + r.err_write + r.err_timeout + r.err_status, 0);
	assert_true(r.lat_p50_us == 85 && r.lat_p75_us == 147 && r.lat_p90_us == 534);
	assert_true(r.lat_p99_us == 2696 && r.lat_p999_us == 4769);
	assert_true(r.lat_min_us == 29 && r.lat_max_us == 6534);
	assert_true(r.lat_mean_us > 248.02 && r.lat_mean_us < 248.03);
	/* wrk's printed lines agree with its own counts */
	assert_true(r.printed_requests_per_s > 24859.18 && r.printed_requests_per_s < 24859.2);
	assert_true(r.printed_bytes_per_s > 1.51 * 1073741824.0 && r.printed_bytes_per_s < 1.53 * 1073741824.0);
	/* 404s: completed requests, every one counted as a status error */
	assert_int_equal(zc_wrk_parse(wrk_404, &r), 0);
	assert_int_equal(r.requests, 44440);
	assert_int_equal(r.err_status, 44440);
	assert_true(r.printed_bytes_per_s > 13.01 * 1048576 && r.printed_bytes_per_s < 13.03 * 1048576);
	/* connection refused: wrk exits before done(), no line */
	assert_int_equal(zc_wrk_parse(wrk_refused, &r), -EINVAL);
	/* the tag inside a line is not the script's line */
	assert_int_equal(zc_wrk_parse("x {\"zcbench_wrk\":1,\"requests\":1}\n", &r), -EINVAL);
	assert_int_equal(zc_wrk_parse(wrk_none, &r), -EPROTO);
	assert_int_equal(r.requests, 0);
	assert_true(r.duration_s > 1.05);
	/* an empty histogram's min (INT64_MIN) is not a latency */
	assert_true(r.lat_min_us == 0 && r.lat_p50_us == 0);
	free(wrk_none);
	free(wrk_ok);
	free(wrk_404);
	free(wrk_refused);
}

static void test_wrk_argv(void **state)
{
	struct zc_wrk_cfg c = { .url = "http://127.0.0.1:8080/65536", .threads = 2, .connections = 8,
				.seconds = 3, .latency = true, .script = "/tmp/s.lua" };
	char *argv[20], buf[64], line[512] = "";

	(void)state;
	assert_int_equal(zc_wrk_argv(&c, argv, 20, buf, sizeof(buf)), 0);
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "wrk -t 2 -c 8 -d 3s --latency -s /tmp/s.lua http://127.0.0.1:8080/65536");
	c.latency = false;
	c.script = NULL;
	c.timeout_s = 10;
	assert_int_equal(zc_wrk_argv(&c, argv, 20, buf, sizeof(buf)), 0);
	line[0] = 0;
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "wrk -t 2 -c 8 -d 3s --timeout 10s http://127.0.0.1:8080/65536");
	assert_int_equal(zc_wrk_argv(&c, argv, 20, buf, 4), -ENOSPC);
	c.connections = 1;		/* fewer connections than threads */
	assert_int_equal(zc_wrk_argv(&c, argv, 20, buf, sizeof(buf)), -EINVAL);
	c.connections = 8;
	c.url = "127.0.0.1:8080/1";
	assert_int_equal(zc_wrk_argv(&c, argv, 20, buf, sizeof(buf)), -EINVAL);
	/* the script reports wrk's own percentiles */
	assert_non_null(strstr(zc_wrk_script(), "latency:percentile(99.9)"));
	assert_non_null(strstr(zc_wrk_script(), "done = function(summary, latency, requests)"));
}

static void test_h2load_parse(void **state)
{
	char *h2load_duration = fixture("h2load-duration.out");
	char *h2load_count = fixture("h2load-count.out"), *h2load_refused = fixture("h2load-refused.out");
	struct zc_h2load_result r;

	(void)state;
	assert_int_equal(zc_h2load_parse(h2load_duration, &r), 0);
	assert_true(r.finished_s > 0.99 && r.finished_s < 1.01);
	assert_true(r.requests_per_s == 23965.0);
	assert_true(r.bytes_per_s > 1.46 * 1073741824.0 && r.bytes_per_s < 1.48 * 1073741824.0);
	assert_int_equal(r.total, 23965);
	assert_int_equal(r.started, 23969);
	assert_int_equal(r.succeeded, 23965);
	assert_int_equal(r.failed + r.errored + r.timeout, 0);
	assert_int_equal(r.status_2xx, 23966);
	assert_int_equal(r.traffic_bytes, 1576794728ULL);
	assert_int_equal(r.header_bytes, 4937614);
	assert_int_equal(r.data_bytes, 1570832384ULL);
	assert_true(r.req_min_us == 38 && r.req_mean_us == 166 && r.req_sd_us == 481);
	assert_true(r.req_max_us > 42939 && r.req_max_us < 42941);
	assert_string_equal(r.application_protocol, "http/1.1");
	assert_int_equal(zc_h2load_parse(h2load_count, &r), 0);
	assert_true(r.finished_s > 0.00883 && r.finished_s < 0.00885);
	assert_int_equal(r.succeeded, 200);
	assert_int_equal(r.data_bytes, 13107200);
	assert_true(r.req_max_us > 1259 && r.req_max_us < 1261);
	/* refused: it prints a summary of nothing */
	assert_int_equal(zc_h2load_parse(h2load_refused, &r), -EPROTO);
	assert_int_equal(r.failed, 10);
	assert_int_equal(r.errored, 10);
	assert_int_equal(zc_h2load_parse("starting benchmark...\n", &r), -EINVAL);
	free(h2load_duration);
	free(h2load_count);
	free(h2load_refused);
}

static void test_h2load_argv(void **state)
{
	struct zc_h2load_cfg c = { .url = "http://[::1]:80/4096", .threads = 1, .clients = 4,
				   .seconds = 2, .warmup_s = 1 };
	char *argv[24], buf[128], line[512] = "";

	(void)state;
	assert_int_equal(zc_h2load_argv(&c, argv, 24, buf, sizeof(buf)), 0);
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "h2load --h1 -t 1 -c 4 -m 1 -D 2 --warm-up-time 1 http://[::1]:80/4096");
	c.seconds = 0;
	c.requests = 1000;
	c.max_streams = 8;
	c.h2 = true;
	assert_int_equal(zc_h2load_argv(&c, argv, 24, buf, sizeof(buf)), 0);
	line[0] = 0;
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "h2load -t 1 -c 4 -m 8 -n 1000 http://[::1]:80/4096");
	c.seconds = 2;			/* -D and -n together */
	assert_int_equal(zc_h2load_argv(&c, argv, 24, buf, sizeof(buf)), -EINVAL);
	c.seconds = 0;
	c.requests = 0;			/* neither */
	assert_int_equal(zc_h2load_argv(&c, argv, 24, buf, sizeof(buf)), -EINVAL);
	c.requests = 5;
	assert_int_equal(zc_h2load_argv(&c, argv, 24, buf, 3), -ENOSPC);
}

static void test_url_units(void **state)
{
	char url[64];
	double v;
	const char *end;

	(void)state;
	assert_int_equal(zc_peer_http_url("127.0.0.1", 8080, 65536, url, sizeof(url)), 0);
	assert_string_equal(url, "http://127.0.0.1:8080/65536");
	assert_int_equal(zc_peer_http_url("fe80::1", 80, 1, url, sizeof(url)), 0);
	assert_string_equal(url, "http://[fe80::1]:80/1");
	assert_int_equal(zc_peer_http_url("127.0.0.1", 0, 1, url, sizeof(url)), -EINVAL);
	assert_int_equal(zc_peer_http_url("127.0.0.1", 80, 1, url, 10), -ENOSPC);
	assert_int_equal(zc_peer_parse_bytes(" 1.50GB", &v, &end), 0);
	assert_true(v == 1.5 * 1073741824.0 && !*end);
	assert_int_equal(zc_peer_parse_bytes("512B (512)", &v, &end), 0);
	assert_true(v == 512 && !strcmp(end, " (512)"));
	assert_int_equal(zc_peer_parse_bytes("40.23KB", &v, NULL), 0);
	assert_true(v > 41195 && v < 41196);
	assert_int_equal(zc_peer_parse_bytes("12 apples", &v, NULL), -EINVAL);
	assert_int_equal(zc_peer_parse_time_us("42.94ms", &v, &end), 0);
	assert_true(v > 42939 && v < 42941);
	assert_int_equal(zc_peer_parse_time_us("38us", &v, NULL), 0);
	assert_true(v == 38);
	assert_int_equal(zc_peer_parse_time_us("1.5s,", &v, &end), 0);
	assert_true(v == 1.5e6 && *end == ',');
	assert_int_equal(zc_peer_parse_time_us("2m", &v, NULL), 0);
	assert_true(v == 120e6);
	assert_int_equal(zc_peer_parse_time_us("fast", &v, NULL), -EINVAL);
}

static void test_parse_stat_full(void **state)
{
	/* nginx's worker: state S, ppid 100, pgrp 100; utime 7, stime 5,
	 * cutime 11, cstime 13 (a name with a space and a parenthesis) */
	const char *line = "4242 (nginx: w) x) S 100 100 100 0 -1 4194624 50 0 0 0 7 5 11 13 20 0 1 0 "
			   "123 1000 200 18446744073709551615\n";
	struct zc_peer_stat st;

	(void)state;
	assert_int_equal(zc_peer_parse_stat_full(line, &st), 0);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, 100);
	assert_int_equal(st.pgrp, 100);
	assert_int_equal(st.self_ticks, 12);
	assert_int_equal(st.children_ticks, 24);
	assert_int_equal(zc_peer_parse_stat_full("4242 (x) S 1 2", &st), -EINVAL);
	assert_int_equal(zc_peer_parse_stat_full("no name", &st), -EINVAL);
}

static void test_unavailable_reasons(void **state)
{
	char why[256];
	const char *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;

	(void)state;
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(zc_nginx_available(why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "nginx not installed (apt-get install nginx-light)");
	assert_int_equal(zc_wrk_available(why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "wrk not installed (apt-get install wrk)");
	assert_int_equal(zc_h2load_available(why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "h2load not installed (apt-get install nghttp2-client)");
	if (saved)
		setenv("PATH", saved, 1);
	else
		unsetenv("PATH");
	free(saved);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nginx_config_sendfile),
		cmocka_unit_test(test_nginx_config_copy),
		cmocka_unit_test(test_nginx_config_bad),
		cmocka_unit_test(test_nginx_parse_v),
		cmocka_unit_test(test_nginx_docroot),
		cmocka_unit_test(test_nginx_t),
		cmocka_unit_test(test_haproxy_http),
		cmocka_unit_test(test_wrk_parse),
		cmocka_unit_test(test_wrk_argv),
		cmocka_unit_test(test_h2load_parse),
		cmocka_unit_test(test_h2load_argv),
		cmocka_unit_test(test_url_units),
		cmocka_unit_test(test_parse_stat_full),
		cmocka_unit_test(test_unavailable_reasons),
	};
	int ret;

	/* nginx and haproxy live in sbin, which a user's PATH may lack. */
	if (getenv("PATH") && !strstr(getenv("PATH"), "/usr/sbin")) {
		char p[4096];

		snprintf(p, sizeof(p), "%s:/usr/sbin:/sbin", getenv("PATH"));
		setenv("PATH", p, 1);
	}
	if (!mkdtemp(dir))
		zc_die("mkdtemp: %s", strerror(errno));
	chmod(dir, 0755);
	ret = zc_run_tests(tests, NULL, NULL);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
