// SPDX-License-Identifier: GPL-2.0
/*
 * The HTTP peers driven end to end, for tests/integration/peers_http.sh:
 * nginx started through bench/peers/nginx.c (sendfile on or off), optionally
 * HAProxy in HTTP mode in front of it, a body fetched and compared with the
 * pattern, then wrk or h2load run against it and their output parsed, then
 * everything stopped. Prints one JSON object; exit 0 done, 77 a program is
 * missing ("skip: reason"), 1 failed ("error: reason").
 *
 * peers_http_try [--client wrk|h2load|none] [--sendfile on|off]
 *                [--haproxy none|splice|copy] [--size BYTES] [--seconds S]
 *                [--workers N] [--master on|off] [--connections N] [--seed N]
 */
#include "lib/net.h"
#include "lib/pattern.h"
#include "lib/zcbench.h"
#include "peers/h2load.h"
#include "peers/haproxy.h"
#include "peers/nginx.h"
#include "peers/peer.h"
#include "peers/wrk.h"

#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *client = "wrk", *haproxy = "none";
static bool sendfile_on = true, master = true;
static uint64_t size = 65536, seed = 1;
static int seconds = 1, workers = 1, connections = 4;
static int cpus[ZC_PEER_MAX_CPUS], ncpus;

static void usage_die(const char *what)
{
	fprintf(stderr, "error: bad argument %s\n", what);
	exit(1);
}

static void parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage_die(k);
		i++;
		if (!strcmp(k, "--client"))
			client = v;
		else if (!strcmp(k, "--sendfile"))
			sendfile_on = !strcmp(v, "on");
		else if (!strcmp(k, "--master"))
			master = !strcmp(v, "on");
		else if (!strcmp(k, "--haproxy"))
			haproxy = v;
		else if (!strcmp(k, "--size"))
			size = strtoull(v, NULL, 0);
		else if (!strcmp(k, "--seed"))
			seed = strtoull(v, NULL, 0);
		else if (!strcmp(k, "--seconds"))
			seconds = atoi(v);
		else if (!strcmp(k, "--workers"))
			workers = atoi(v);
		else if (!strcmp(k, "--connections"))
			connections = atoi(v);
		else
			usage_die(k);
	}
}

static void allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		zc_die("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && ncpus < ZC_PEER_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
}

/* GET /size on one connection, the body compared with the pattern:
 * "ok", or what went wrong, into why. */
static bool fetch_body(int port, char *why, size_t len)
{
	char req[128], head[4096];
	size_t got = 0, body_len;
	uint8_t *want, *body;
	char *end, *cl;
	ssize_t n;
	int fd = zc_connect("127.0.0.1", port);
	bool ok = false;

	if (fd < 0) {
		snprintf(why, len, "connect: %s", strerror(-fd));
		return false;
	}
	n = snprintf(req, sizeof(req), "GET /%llu HTTP/1.1\r\nHost: zcbench\r\n\r\n",
		     (unsigned long long)size);
	if (write(fd, req, n) != n) {
		snprintf(why, len, "write: %s", strerror(errno));
		close(fd);
		return false;
	}
	while (got < sizeof(head) - 1 && (n = read(fd, head + got, 1)) == 1) {
		head[++got] = 0;
		if (got >= 4 && !memcmp(head + got - 4, "\r\n\r\n", 4))
			break;
	}
	head[got] = 0;
	cl = strcasestr(head, "\r\nContent-Length:");
	if (strncmp(head, "HTTP/1.1 200", 12) || !cl) {
		snprintf(why, len, "bad head: %.200s", head);
		close(fd);
		return false;
	}
	body_len = strtoull(cl + strlen("\r\nContent-Length:"), &end, 10);
	want = malloc(size ? size : 1);
	body = malloc(size ? size : 1);
	if (!want || !body)
		zc_die("out of memory");
	zc_pattern_fill(want, size, seed);
	for (got = 0; got < body_len && got < size && (n = read(fd, body + got, size - got)) > 0;)
		got += n;
	if (body_len != size)
		snprintf(why, len, "Content-Length %zu, want %llu", body_len, (unsigned long long)size);
	else if (got != size)
		snprintf(why, len, "body cut at %zu of %zu bytes", got, body_len);
	else if (memcmp(want, body, size))
		snprintf(why, len, "body differs from the pattern");
	else
		ok = snprintf(why, len, "ok") > 0;
	free(want);
	free(body);
	close(fd);
	return ok;
}

/* Each worker's Cpus_allowed_list (the leader's left out when it has workers). */
static json_t *worker_cpus(const pid_t *pids, int n)
{
	json_t *a = json_array();

	for (int i = n > 1 ? 1 : 0; i < n; i++) {
		char path[64], line[256], val[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/status", (int)pids[i]);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Cpus_allowed_list: %63s", val) == 1)
				break;
		fclose(f);
		json_array_append_new(a, json_string(val));
	}
	return a;
}

static int skip(const char *why)
{
	printf("skip: %s\n", why);
	return 77;
}

/* Halfway through the client's run, what a role would read at a window
 * edge: the bytes nginx's sockets wrote (sock_diag, whoever holds them:
 * its workers do) and its group's CPU time. */
static void mid_run(const struct zc_nginx *ng, json_t *out)
{
	struct timespec half = { .tv_sec = seconds / 2, .tv_nsec = seconds % 2 * 500000000L };
	struct zc_peer_tcp tcp = { 0 };
	struct zc_peer_cpu cpu;
	int ret, cret;

	nanosleep(&half, NULL);
	ret = zc_peer_tcp_bytes(0, ng->port, 0, &tcp);
	cret = zc_peer_group_cpu(&ng->p, &cpu);
	json_object_set_new(out, "mid", json_pack("{s:i, s:I, s:i, s:i, s:f}", "tcp_ret", ret,
						  "written", (json_int_t)tcp.written, "nsocks",
						  tcp.nsocks, "cpu_ret", cret, "cpu_s", cpu.process_s));
}

/* The client run against url: its parsed figures into out. 0 or -errno. */
static int run_client(const char *url, const char *dir, const struct zc_nginx *ng, json_t *out)
{
	struct zc_peer p;
	char how[64];
	int ret, cpu = cpus[0];

	if (!strcmp(client, "wrk")) {
		struct zc_wrk_cfg c = { .url = url, .threads = 1, .connections = connections,
					.seconds = seconds, .latency = true };
		struct zc_wrk_result r;

		ret = zc_wrk_start(&p, &c, &cpu, 1, dir);
		if (!ret)
			mid_run(ng, out);
		if (!ret)
			ret = zc_peer_wait_exit(&p, seconds + 30);
		if (!ret)
			ret = zc_wrk_result(dir, &r);
		if (!ret)
			json_object_set_new(out, "client", zc_wrk_result_json(&r));
	} else {
		struct zc_h2load_cfg c = { .url = url, .threads = 1, .clients = connections,
					   .seconds = seconds };
		struct zc_h2load_result r;

		ret = zc_h2load_start(&p, &c, &cpu, 1, dir);
		if (!ret)
			mid_run(ng, out);
		if (!ret)
			ret = zc_peer_wait_exit(&p, seconds + 30);
		if (!ret)
			ret = zc_h2load_result(dir, &r);
		if (!ret)
			json_object_set_new(out, "client", zc_h2load_result_json(&r));
	}
	zc_peer_stop(&p, 5);
	zc_peer_describe(&p, how, sizeof(how));
	json_object_set_new(out, "client_exit", json_string(how));
	if (ret)
		json_object_set_new(out, "client_error",
				    json_string(p.reason[0] ? p.reason : strerror(-ret)));
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/zc-httptry.XXXXXX", why[512], url[128], hcfg[8192];
	int port, hport = 0, rc = 1, ret;
	struct zc_nginx ng = { 0 };
	struct zc_peer hp = { 0 };
	struct zc_peer_cpu cpu;
	pid_t pids[64];
	json_t *out;

	parse_args(argc, argv);
	allowed_cpus();
	if (zc_nginx_available(why, sizeof(why)))
		return skip(why);
	if (strcmp(client, "none") && (!strcmp(client, "wrk") ? zc_wrk_available(why, sizeof(why))
							     : zc_h2load_available(why, sizeof(why))))
		return skip(why);
	if (strcmp(haproxy, "none") && zc_haproxy_available(!strcmp(haproxy, "splice"), why, sizeof(why)))
		return skip(why);
	out = json_object();
	if (!mkdtemp(dir) || zc_peer_pick_port("127.0.0.1", &port))
		zc_die("temp folder or port: %s", strerror(errno));

	struct zc_nginx_cfg nc = { .listen_addr = "127.0.0.1", .listen_port = port, .master = master,
				   .workers = workers, .cpus = &cpus[ncpus - 1], .ncpus = 1,
				   .sendfile = sendfile_on, .tcp_nopush = true,
				   .connections = connections };

	ret = zc_nginx_start(&ng, &nc, &size, 1, seed, dir, 10);
	json_object_set_new(out, "nginx_start", json_integer(ret));
	if (ret) {
		fprintf(stderr, "error: %s\n", ng.p.reason);
		goto out;
	}
	ret = zc_peer_group_pids(&ng.p, pids, 64);
	json_object_set_new(out, "nginx", json_pack("{s:i, s:s, s:s, s:i, s:o, s:i}", "pid",
						     (int)ng.p.pid, "dir", ng.dir, "config", ng.config,
						     "group", ret, "worker_cpus",
						     worker_cpus(pids, ret > 0 ? ret : 0), "cpu",
						     cpus[ncpus - 1]));
	if (strcmp(haproxy, "none")) {
		struct zc_haproxy_cfg hc = { .listen_addr = "127.0.0.1", .server_addr = "127.0.0.1",
					     .server_port = port, .splice = !strcmp(haproxy, "splice"),
					     .http = true, .nbthread = 1, .cpus = &cpus[ncpus - 1],
					     .ncpus = 1, .connections = connections };

		if (zc_peer_pick_port("127.0.0.1", &hport))
			zc_die("port: %s", strerror(errno));
		hc.listen_port = hport;
		ret = zc_haproxy_start(&hp, &hc, dir, 10, hcfg, sizeof(hcfg));
		if (ret) {
			fprintf(stderr, "error: %s\n", hp.reason);
			goto out;
		}
		json_object_set_new(out, "haproxy", json_pack("{s:i, s:s}", "pid", (int)hp.pid,
							      "config", hcfg));
	}
	json_object_set_new(out, "body_ok", json_boolean(fetch_body(hport ? hport : port, why,
								      sizeof(why))));
	json_object_set_new(out, "body", json_string(why));
	if (strcmp(client, "none")) {
		zc_peer_http_url("127.0.0.1", hport ? hport : port, size, url, sizeof(url));
		if (run_client(url, dir, &ng, out))
			goto out;
	}
	ret = zc_peer_group_cpu(&ng.p, &cpu);
	json_object_set_new(out, "nginx_cpu", json_pack("{s:i, s:f, s:i}", "ret", ret,
							"process_s", cpu.process_s, "threads",
							cpu.nthreads));
	rc = 0;
out:
	zc_peer_stop(&hp, 5);
	json_object_set_new(out, "nginx_stop", json_integer(zc_nginx_stop(&ng, 5)));
	json_object_set_new(out, "nginx_dir_left", json_string(ng.dir));
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	json_dumpf(out, stdout, JSON_COMPACT);
	printf("\n");
	json_decref(out);
	return rc;
}
