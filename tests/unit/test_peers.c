// SPDX-License-Identifier: GPL-2.0
/*
 * bench/peers/: the runner of external programs (start pinned, wait until it
 * listens, CPU time and threads, stop and reap with nothing left), HAProxy's
 * configuration and version, iperf3's command line and JSON; then, when
 * haproxy and iperf3 are installed, the real programs on loopback: HAProxy
 * forwards verified bytes (splicing or not), iperf3 runs and reports.
 * A missing program skips only the tests that need it (zc_skip); the
 * program exits 77 only when every test skipped (zc_test.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include "zc_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/net.h"
#include "lib/pattern.h"
#include "lib/zcbench.h"
#include "peers/haproxy.h"
#include "peers/iperf3.h"
#include "peers/peer.h"

static char dir[] = "/tmp/zc-peers.XXXXXX";
static int cpus[ZC_PEER_MAX_CPUS], ncpus;

/* The CPUs this test may run on (a test runner may have restricted them). */
static void allowed_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		zc_die("sched_getaffinity: %s", strerror(errno));
	for (int c = 0; c < CPU_SETSIZE && ncpus < ZC_PEER_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;
}

/* /proc/PID[/task/TID]/status's Cpus_allowed_list into out. */
static void cpus_allowed(pid_t pid, pid_t tid, char *out, size_t len)
{
	char path[96], line[256], val[64] = "";
	FILE *f;

	if (tid)
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	else
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Cpus_allowed_list: %63s", val) == 1)
			break;
	fclose(f);
	snprintf(out, len, "%s", val);
	assert_true(out[0]);
}

/* No live process of the group pid led is left, the leader included, within
 * 10 s (SIGKILL lands asynchronously). A member that outlived its parent is
 * reaped by init, not by us: a zombie counts as gone. */
static bool group_gone(pid_t pid)
{
	double deadline = zc_now() + 10;

	for (;;) {
		bool alive = false;
		struct dirent *d;
		DIR *proc = opendir("/proc");

		assert_non_null(proc);
		while (!alive && (d = readdir(proc))) {
			char path[300], line[1024], state;
			int pgrp;
			char *rp;
			FILE *f;

			if (d->d_name[0] < '1' || d->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/stat", d->d_name);
			if (!(f = fopen(path, "r")))
				continue;
			if (fgets(line, sizeof(line), f) && (rp = strrchr(line, ')')) &&
			    sscanf(rp + 1, " %c %*d %d", &state, &pgrp) == 2)
				alive = (pgrp == pid || atoi(d->d_name) == pid) && state != 'Z';
			fclose(f);
		}
		closedir(proc);
		if (!alive)
			return true;
		if (zc_now() > deadline)
			return false;
		usleep(10000);
	}
}

/* --- configuration text --- */

/* Offset of the last occurrence of needle (there is one). */
static long strrstr_pos(const char *hay, const char *needle)
{
	const char *last = NULL;

	for (const char *s = hay; (s = strstr(s, needle)); s++)
		last = s;
	assert_non_null(last);
	return last - hay;
}

static struct zc_haproxy_cfg base_cfg(bool splice)
{
	static const int map[] = { 5, 3 };

	return (struct zc_haproxy_cfg){ .listen_addr = "127.0.0.1", .listen_port = 8000,
					.server_addr = "127.0.0.2", .server_port = 9000,
					.splice = splice, .nbthread = 2, .cpus = map, .ncpus = 2,
					.pipe_size = 1 << 20, .connections = 4 };
}

static void test_config_splice(void **state)
{
	struct zc_haproxy_cfg c = base_cfg(true);
	char text[4096];

	(void)state;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\tmode tcp\n"));
	assert_non_null(strstr(text, "\toption splice-request\n"));
	assert_non_null(strstr(text, "\toption splice-response\n"));
	assert_null(strstr(text, "nosplice"));
	assert_non_null(strstr(text, "\tnbthread 2\n"));
	/* one thread per CPU, from the lowest up */
	assert_non_null(strstr(text, "\tcpu-map auto:1/1-2 3 5\n"));
	assert_int_equal(strstr(text, "cpu-map") - text, strrstr_pos(text, "cpu-map"));
	assert_non_null(strstr(text, "\ttune.pipesize 1048576\n"));
	assert_null(strstr(text, "tune.bufsize"));
	assert_non_null(strstr(text, "\tbind 127.0.0.1:8000\n"));
	assert_non_null(strstr(text, "\tserver sink 127.0.0.2:9000\n"));
	/* maxconn above the connections; a pipe for both directions of each */
	assert_non_null(strstr(text, "\tmaxconn 68\n"));
	assert_non_null(strstr(text, "\tmaxpipes 136\n"));
	assert_non_null(strstr(text, "\ttimeout client 3600s\n"));
	/* no syslog, no stats socket, no daemon, no health checks */
	assert_null(strstr(text, "\tlog "));
	assert_null(strstr(text, "stats"));
	assert_null(strstr(text, "daemon"));
	assert_null(strstr(text, " check"));
}

static void test_config_copy(void **state)
{
	struct zc_haproxy_cfg c = base_cfg(false);
	char text[4096];

	(void)state;
	c.pipe_size = 0;
	c.bufsize = 65536;
	c.ncpus = 1;
	c.nbthread = 3;
	c.timeout_s = 60;
	c.listen_addr = "::1";
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\tnosplice\n"));
	assert_null(strstr(text, "splice-request"));
	assert_null(strstr(text, "splice-response"));
	assert_null(strstr(text, "maxpipes"));
	assert_null(strstr(text, "tune.pipesize"));
	assert_non_null(strstr(text, "\ttune.bufsize 65536\n"));
	/* three threads on one CPU: all of them there */
	assert_non_null(strstr(text, "\tcpu-map 1/all 5\n"));
	assert_int_equal(strstr(text, "cpu-map") - text, strrstr_pos(text, "cpu-map"));
	assert_non_null(strstr(text, "\ttimeout server 60s\n"));
	assert_non_null(strstr(text, "\tbind ipv6@::1:8000\n"));
	/* one thread: the lowest CPU; more threads than CPUs: all of them */
	c = base_cfg(true);
	c.nbthread = 1;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\tcpu-map 1/all 3\n"));
	c.nbthread = 4;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "\tcpu-map 1/all 3 5\n"));
	c.ncpus = 0;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
	assert_null(strstr(text, "cpu-map"));
}

static void test_config_bad(void **state)
{
	struct zc_haproxy_cfg c = base_cfg(true);
	char text[4096], small[64];

	(void)state;
	c.nbthread = 0;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), -EINVAL);
	c = base_cfg(true);
	c.server_port = 0;
	assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), -EINVAL);
	c = base_cfg(true);
	assert_int_equal(zc_haproxy_config(&c, small, sizeof(small)), -ENOSPC);
}

/* --- parsers on fixtures --- */

static void test_parse_stat(void **state)
{
	/* A name with spaces and a ')' of its own; utime 150, stime 250. */
	const char *line = "4242 (ha) proxy x) S 1 4242 4242 0 -1 4194560 1187 0 0 0 150 250 "
			   "3 4 20 0 2 0 123456 1000000 500 18446744073709551615\n";
	unsigned long long ticks = 0;

	(void)state;
	assert_int_equal(zc_peer_parse_stat(line, &ticks), 0);
	assert_int_equal(ticks, 400);
	assert_int_equal(zc_peer_parse_stat("4242 (x) S 1 2 3", &ticks), -EINVAL);
	assert_int_equal(zc_peer_parse_stat("no name here", &ticks), -EINVAL);
	assert_int_equal(zc_peer_parse_stat("1 (x) S 1 1 1 0 -1 0 0 0 0 0 1x 2 3", &ticks), -EINVAL);
}

static void test_parse_vv(void **state)
{
	const char *vv = "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/\n"
			 "Status: long-term supported branch - will stop receiving fixes around Q2 2027.\n"
			 "Known bugs: http://www.haproxy.org/bugs/bugs-2.6.12.html\n"
			 "Running on: Linux 6.1.0 x86_64\n"
			 "Feature list : +EPOLL -KQUEUE +LINUX_SPLICE +THREAD\n\n"
			 "Built with multi-threading support (MAX_THREADS=64, default=2).\n";
	const char *nosplice = "HA-Proxy version 1.8.19 2019/02/11\nFeature list : +EPOLL -LINUX_SPLICE\n"
			       "Next line +LINUX_SPLICE\n";
	struct zc_haproxy_vv v;

	(void)state;
	assert_int_equal(zc_haproxy_parse_vv(vv, &v), 0);
	assert_string_equal(v.version, "2.6.12-1+deb12u4");
	assert_true(v.splice);
	assert_true(v.threads);
	assert_non_null(strstr(v.head, "Known bugs"));
	assert_null(strstr(v.head, "Running on"));
	assert_int_equal(zc_haproxy_parse_vv(nosplice, &v), 0);
	assert_string_equal(v.version, "1.8.19");
	assert_false(v.splice);		/* only the feature list line counts */
	assert_false(v.threads);
	assert_int_equal(zc_haproxy_parse_vv("nginx version: 1.22", &v), -EINVAL);
}

static void test_iperf3_parse(void **state)
{
	const char *ok = "{\"start\": {\"version\": \"iperf 3.12\", \"test_start\": {\"protocol\": \"TCP\","
			 " \"num_streams\": 1, \"blksize\": 65536, \"omit\": 1, \"duration\": 2}},"
			 " \"intervals\": [], \"end\": {"
			 " \"sum_sent\": {\"start\": 0, \"end\": 2.0015, \"seconds\": 2.0015, \"bytes\": 2162688000,"
			 "  \"bits_per_second\": 8.6e9, \"retransmits\": 1, \"sender\": true},"
			 " \"sum_received\": {\"start\": 0, \"end\": 2.0061, \"seconds\": 2.0061, \"bytes\": 2161377280},"
			 " \"cpu_utilization_percent\": {\"host_total\": 13.99, \"host_user\": 0.05,"
			 "  \"host_system\": 13.94, \"remote_total\": 65.6, \"remote_user\": 2.4, \"remote_system\": 63.2}}}";
	const char *failed = "{\"start\": {\"connected\": [], \"version\": \"iperf 3.12\"}, \"intervals\": [],"
			     " \"end\": {}, \"error\": \"unable to connect to server: Connection refused\"}";
	struct zc_iperf3_result r;

	(void)state;
	assert_int_equal(zc_iperf3_parse(ok, &r), 0);
	assert_int_equal(r.bytes_sent, 2162688000ULL);
	assert_int_equal(r.bytes_received, 2161377280ULL);
	assert_true(r.seconds_sent > 2.0 && r.seconds_sent < 2.01);
	assert_true(r.seconds_received > 2.0 && r.seconds_received < 2.01);
	assert_true(r.host_total_pct > 13.98 && r.host_total_pct < 14.0);
	assert_true(r.host_system_pct > 13.9 && r.remote_total_pct > 65.5);
	assert_int_equal(r.blksize, 65536);
	assert_int_equal(r.num_streams, 1);
	assert_int_equal(r.omit_s, 1);
	assert_int_equal(r.duration_s, 2);
	assert_string_equal(r.version, "3.12");
	assert_int_equal(zc_iperf3_parse(failed, &r), -EPROTO);
	assert_string_equal(r.error, "unable to connect to server: Connection refused");
	assert_int_equal(zc_iperf3_parse("not json", &r), -EINVAL);
	assert_int_equal(zc_iperf3_parse("{\"start\": {}, \"end\": {}}", &r), -EINVAL);
}

static void test_iperf3_argv(void **state)
{
	struct zc_iperf3_client_cfg c = { .addr = "10.0.0.2", .port = 5201, .seconds = 4,
					  .omit_s = 1, .chunk = 65536, .sendfile = true };
	char *argv[20], buf[128], line[512] = "";

	(void)state;
	assert_int_equal(zc_iperf3_client_argv(&c, argv, 20, buf, sizeof(buf)), 0);
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "iperf3 -c 10.0.0.2 -p 5201 -t 4 -O 1 -l 65536 -P 1 -Z -J");
	c.sendfile = false;
	c.streams = 4;
	assert_int_equal(zc_iperf3_client_argv(&c, argv, 20, buf, sizeof(buf)), 0);
	line[0] = 0;
	for (int i = 0; argv[i]; i++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s", i ? " " : "", argv[i]);
	assert_string_equal(line, "iperf3 -c 10.0.0.2 -p 5201 -t 4 -O 1 -l 65536 -P 4 -J");
	assert_int_equal(zc_iperf3_client_argv(&c, argv, 20, buf, 8), -ENOSPC);
	c.seconds = 0;
	assert_int_equal(zc_iperf3_client_argv(&c, argv, 20, buf, sizeof(buf)), -EINVAL);
}

/* --- the runner on harmless programs --- */

static int start(struct zc_peer *p, const char *name, char *const argv[], const int *cpu, int n)
{
	struct zc_peer_spec s = { .name = name, .argv = argv, .cpus = cpu, .ncpus = n, .dir = dir };

	return zc_peer_start(p, &s);
}

/* Does the program hold an fd of the socket with inode ino? (Counting its
 * fds would race with its own start-up: sleep opens locale files.) */
static bool holds_inode(pid_t pid, ino_t ino)
{
	char path[64], fdpath[320], target[64], want[64];
	struct dirent *d;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	snprintf(want, sizeof(want), "socket:[%lu]", (unsigned long)ino);
	dir = opendir(path);
	assert_non_null(dir);
	while ((d = readdir(dir))) {
		ssize_t n;

		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, d->d_name);
		n = readlink(fdpath, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		found |= !strcmp(target, want);
	}
	closedir(dir);
	return found;
}

static void test_runner_sleep(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	int cpu = cpus[ncpus - 1];
	char want[16], got[64], how[64];
	struct zc_peer_cpu t;
	struct zc_peer p;
	pid_t tids[8];
	struct stat st;
	int leak;

	(void)state;
	leak = socket(AF_INET, SOCK_STREAM, 0);	/* not close-on-exec */
	assert_true(leak >= 0);
	assert_int_equal(fstat(leak, &st), 0);
	assert_true(holds_inode(getpid(), st.st_ino));
	assert_int_equal(start(&p, "sleep", argv, &cpu, 1), 0);
	assert_true(p.pid > 0);
	assert_false(holds_inode(p.pid, st.st_ino));	/* none of our fds */
	close(leak);
	assert_true(zc_peer_alive(&p));
	snprintf(want, sizeof(want), "%d", cpu);
	cpus_allowed(p.pid, 0, got, sizeof(got));
	assert_string_equal(got, want);
	assert_int_equal(getpgid(p.pid), p.pid);	/* its own process group */
	assert_int_equal(zc_peer_cpu(&p, &t), 0);
	assert_true(t.process_s >= 0);
	assert_int_equal(t.nthreads, 1);
	assert_int_equal(t.tid[0], p.pid);
	assert_int_equal(zc_peer_tids(&p, tids, 8), 1);
	assert_int_equal(tids[0], p.pid);
	assert_int_equal(zc_peer_stop(&p, 30), 0);	/* SIGTERM was enough */
	assert_true(p.reaped);
	zc_peer_describe(&p, how, sizeof(how));
	assert_non_null(strstr(how, "signal 15"));
	assert_true(group_gone(p.pid));
	assert_int_equal(zc_peer_cpu(&p, &t), -ESRCH);
	assert_int_equal(zc_peer_stop(&p, 5), 0);	/* idempotent */
}

static void test_runner_cpu_time(void **state)
{
	char *argv[] = { "sh", "-c", "while :; do :; done", NULL };
	struct zc_peer_cpu t = { 0 };
	double deadline = zc_now() + 60, sum = 0;
	struct zc_peer p;

	(void)state;
	assert_int_equal(start(&p, "spin", argv, cpus, ncpus), 0);
	/* No speed asserted: only that the time it burns shows up. */
	while (zc_now() < deadline && t.process_s <= 0) {
		assert_int_equal(zc_peer_cpu(&p, &t), 0);
		usleep(20000);
	}
	assert_true(t.process_s > 0);
	for (int i = 0; i < t.nthreads; i++)
		sum += t.thread_s[i];
	assert_true(sum <= t.process_s + 0.5);
	assert_int_equal(zc_peer_stop(&p, 5), 0);
	assert_true(p.cpu_s_at_exit >= t.process_s - 0.02);
	assert_true(group_gone(p.pid));
}

static void test_runner_term_ignored(void **state)
{
	/* sh ignores SIGTERM and so does the sleep it forks: both need SIGKILL. */
	char *argv[] = { "sh", "-c", "trap '' TERM; sleep 30; sleep 30", NULL };
	struct zc_peer p;
	double t0;

	(void)state;
	assert_int_equal(start(&p, "stubborn", argv, NULL, 0), 0);
	usleep(100000);
	t0 = zc_now();
	assert_int_equal(zc_peer_stop(&p, 0.3), -ETIMEDOUT);
	assert_true(zc_now() - t0 < 10);
	assert_true(p.reaped);
	assert_true(WIFSIGNALED(p.status) && WTERMSIG(p.status) == SIGKILL);
	assert_true(group_gone(p.pid));		/* the forked sleep too */
}

static void test_listen_timeout(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct zc_peer p;
	int port;

	(void)state;
	assert_int_equal(zc_peer_pick_port("127.0.0.1", &port), 0);
	assert_int_equal(start(&p, "mute", argv, NULL, 0), 0);
	assert_int_equal(zc_peer_wait_listen(&p, port, 0.5), -ETIMEDOUT);
	assert_non_null(strstr(p.reason, "did not listen"));
	assert_true(p.reaped);
	assert_true(group_gone(p.pid));
}

static void test_listen_exit(void **state)
{
	char *argv[] = { "sh", "-c", "echo first line; echo boom >&2; exit 3", NULL };
	struct zc_peer p;

	(void)state;
	assert_int_equal(start(&p, "crash", argv, NULL, 0), 0);
	assert_int_equal(zc_peer_wait_listen(&p, 9, 30), -ECHILD);
	assert_non_null(strstr(p.reason, "exited before listening on port 9"));
	assert_non_null(strstr(p.reason, "exit code 3"));
	assert_non_null(strstr(p.reason, "first line|boom"));	/* the log's tail */
	assert_true(p.reaped);
	assert_true(group_gone(p.pid));
}

/* `test_peers --listen PORT`: a program that listens and waits, for the runner. */
static int listen_and_wait(const char *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(atoi(port)),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1))
		return 1;
	sleep(60);
	return 0;
}

static void test_listen_ok(void **state)
{
	char self[4096], ps[16];
	char *argv[] = { self, "--listen", ps, NULL };
	struct zc_peer p;
	ssize_t n;
	int port;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = 0;
	assert_int_equal(zc_peer_pick_port("127.0.0.1", &port), 0);
	snprintf(ps, sizeof(ps), "%d", port);
	assert_int_equal(start(&p, "listener", argv, NULL, 0), 0);
	if (zc_peer_wait_listen(&p, port, 60))
		fail_msg("%s", p.reason);
	assert_true(zc_peer_alive(&p));
	assert_int_equal(zc_peer_stop(&p, 5), 0);
	assert_true(group_gone(p.pid));
}

/* A port someone else listens on does not count as the peer's. */
static void test_listen_not_ours(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	struct zc_peer p;
	int port, lfd = zc_listen("127.0.0.1", &port);

	(void)state;
	assert_true(lfd >= 0);
	assert_int_equal(start(&p, "bystander", argv, NULL, 0), 0);
	assert_int_equal(zc_peer_wait_listen(&p, port, 0.5), -ETIMEDOUT);
	assert_true(group_gone(p.pid));
	close(lfd);
}

static void test_missing_program(void **state)
{
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *argv[] = { "haproxy", "-vv", NULL };
	char why[256], empty[64];
	struct zc_peer p;
	json_t *info;

	(void)state;
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	mkdir(empty, 0755);
	setenv("PATH", empty, 1);
	assert_int_equal(start(&p, "haproxy", argv, NULL, 0), -ENOENT);
	assert_non_null(strstr(p.reason, "not found in PATH"));
	assert_true(p.pid <= 0 || group_gone(p.pid));
	assert_int_equal(zc_haproxy_available(true, why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "haproxy not installed (apt-get install haproxy)");
	assert_int_equal(zc_iperf3_available(false, why, sizeof(why)), -ENOENT);
	assert_string_equal(why, "iperf3 not installed (apt-get install iperf3)");
	info = zc_haproxy_info();
	assert_non_null(info);
	assert_string_equal(json_string_value(json_object_get(info, "error")),
			    "haproxy not installed (apt-get install haproxy)");
	json_decref(info);
	setenv("PATH", "", 1);
	assert_int_equal(zc_peer_which("sh", why, sizeof(why)), -ENOENT);
	if (old)
		setenv("PATH", old, 1);
	else
		unsetenv("PATH");
	free(old);
}

static void test_capture(void **state)
{
	char *echo[] = { "sh", "-c", "echo hi; echo there >&2; exit 4", NULL };
	char *slow[] = { "sleep", "30", NULL };
	char out[64];
	int status = 0;
	double t0;

	(void)state;
	assert_int_equal(zc_peer_capture(echo, 30, out, sizeof(out), &status), 0);
	assert_string_equal(out, "hi\nthere");
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 4);
	t0 = zc_now();
	assert_int_equal(zc_peer_capture(slow, 0.3, out, sizeof(out), &status), -ETIMEDOUT);
	assert_true(zc_now() - t0 < 10);
	assert_true(WIFSIGNALED(status));
}

/* The controller dies without stopping its peer: PDEATHSIG kills the peer. */
static void test_parent_death(void **state)
{
	char *argv[] = { "sleep", "30", NULL };
	int fds[2], status;
	pid_t helper, peer = 0, got = 0;
	double deadline;

	(void)state;
	/* Orphans come to us, so the peer's end is seen and reaped here. */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(fds), 0);
	helper = fork();
	assert_true(helper >= 0);
	if (helper == 0) {
		struct zc_peer p;

		if (start(&p, "orphan", argv, NULL, 0))
			_exit(1);
		if (write(fds[1], &p.pid, sizeof(p.pid)) != sizeof(p.pid))
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(fds[0], &peer, sizeof(peer)), sizeof(peer));
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(waitpid(helper, &status, 0), helper);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	deadline = zc_now() + 10;
	while (zc_now() < deadline && (got = waitpid(peer, &status, WNOHANG)) == 0)
		usleep(10000);
	if (got != peer)
		kill(peer, SIGKILL);
	assert_int_equal(got, peer);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* --- the real programs --- */

#define PAYLOAD (8u << 20)
#define SEED 1234
#define PIPE_SIZE (1 << 20)

struct sink {
	int lfd;
	volatile uint64_t bytes;
	uint64_t mismatch;
};

static void *sink_thread(void *arg)
{
	struct sink *s = arg;
	static uint8_t ref[PAYLOAD], buf[1 << 16];
	int fd = zc_accept(s->lfd);
	ssize_t n;

	s->mismatch = UINT64_MAX;
	if (fd < 0)
		return NULL;
	zc_pattern_fill(ref, PAYLOAD, SEED);
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		uint64_t bad = s->bytes + n <= PAYLOAD
				       ? zc_pattern_check(ref, PAYLOAD, s->bytes, buf, n)
				       : s->bytes;

		if (bad != UINT64_MAX && s->mismatch == UINT64_MAX)
			s->mismatch = bad;
		__atomic_add_fetch(&s->bytes, n, __ATOMIC_RELEASE);
	}
	close(fd);
	return NULL;
}

/* Pipes of size bytes the program holds: opened through /proc to ask their
 * size, so the splice pipes (tune.pipesize) are told from the ones HAProxy
 * wakes its threads with (the system's default size). */
static int count_pipes(pid_t pid, int size)
{
	char path[64], fdpath[320], target[64];
	struct dirent *d;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	dir = opendir(path);
	assert_non_null(dir);
	while ((d = readdir(dir))) {
		ssize_t len;
		int fd;

		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, d->d_name);
		len = readlink(fdpath, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (strncmp(target, "pipe:", 5))
			continue;
		fd = open(fdpath, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		n += fcntl(fd, F_GETPIPE_SZ) == size;
		close(fd);
	}
	closedir(dir);
	return n;
}

/* Why haproxy (with splice) cannot be tested here, for zc_skip. */
static char why_haproxy[256];

static bool have_haproxy(void)
{
	return zc_haproxy_available(true, why_haproxy, sizeof(why_haproxy)) == 0;
}

static void test_haproxy_check_config(void **state)
{
	char *argv[] = { "haproxy", "-c", "-f", NULL, NULL };
	char path[512], text[4096], out[4096];
	int status;

	(void)state;
	if (!have_haproxy())
		zc_skip("%s", why_haproxy);
	for (int splice = 0; splice < 2; splice++) {
		struct zc_haproxy_cfg c = base_cfg(splice);

		c.cpus = cpus;
		c.ncpus = ncpus;
		assert_int_equal(zc_haproxy_config(&c, text, sizeof(text)), 0);
		snprintf(path, sizeof(path), "%s/check-%d.cfg", dir, splice);
		assert_int_equal(zc_write_atomic(path, text, strlen(text)), 0);
		argv[3] = path;
		assert_int_equal(zc_peer_capture(argv, 30, out, sizeof(out), &status), 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			print_message("%s\n%s\n", text, out);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		/* no warning either: every keyword as HAProxy expects it */
		assert_null(strstr(out, "WARNING"));
	}
}

/* nbthread 0: one per CPU (up to 2), each pinned alone; else that many. */
static void haproxy_forward(bool splice, int nbthread)
{
	static uint8_t payload[PAYLOAD];
	struct sink s = { 0 };
	struct zc_haproxy_cfg c;
	struct zc_peer_cpu t;
	struct zc_peer p;
	char text[4096], got[64];
	int sport, port, fd;
	pthread_t th;
	size_t off = 0;
	double deadline;

	if (!have_haproxy())
		zc_skip("%s", why_haproxy);
	s.lfd = zc_listen("127.0.0.1", &sport);
	assert_true(s.lfd >= 0);
	assert_int_equal(zc_peer_pick_port("127.0.0.1", &port), 0);
	c = (struct zc_haproxy_cfg){ .listen_addr = "127.0.0.1", .listen_port = port,
				     .server_addr = "127.0.0.1", .server_port = sport,
				     .splice = splice,
				     .nbthread = nbthread ? nbthread : ncpus > 1 ? 2 : 1,
				     .cpus = cpus, .ncpus = ncpus, .pipe_size = PIPE_SIZE,
				     .connections = 1 };
	if (zc_haproxy_start(&p, &c, dir, 60, text, sizeof(text)))
		fail_msg("%s", p.reason);
	assert_non_null(strstr(text, splice ? "option splice-request" : "nosplice"));
	/* every thread on the CPU cpu-map gave it; with more threads than
	 * CPUs, each on all of the DUT's (here: the test's own) */
	assert_int_equal(zc_peer_cpu(&p, &t), 0);
	assert_true(t.nthreads >= c.nbthread);
	for (int i = 0; i < c.nbthread; i++) {
		double until = zc_now() + 10;	/* set just after the thread starts */
		char want[64];

		if (c.nbthread <= ncpus)
			snprintf(want, sizeof(want), "%d", cpus[i]);
		else
			cpus_allowed(getpid(), 0, want, sizeof(want));
		do
			cpus_allowed(p.pid, t.tid[i], got, sizeof(got));
		while (strcmp(got, want) && zc_now() < until && !usleep(10000));
		if (strcmp(got, want))
			print_message("thread %d (tid %d): Cpus_allowed_list %s\n", i, (int)t.tid[i], got);
		assert_string_equal(got, want);
	}
	assert_int_equal(count_pipes(p.pid, PIPE_SIZE), 0);
	assert_int_equal(pthread_create(&th, NULL, sink_thread, &s), 0);
	zc_pattern_fill(payload, PAYLOAD, SEED);
	fd = zc_connect("127.0.0.1", port);
	assert_true(fd >= 0);
	while (off < PAYLOAD) {
		ssize_t n = send(fd, payload + off, PAYLOAD - off, MSG_NOSIGNAL);

		assert_true(n > 0);
		off += n;
	}
	deadline = zc_now() + 60;
	while (__atomic_load_n(&s.bytes, __ATOMIC_ACQUIRE) < PAYLOAD && zc_now() < deadline)
		usleep(10000);
	assert_int_equal(s.bytes, PAYLOAD);
	/* splice made pipes of tune.pipesize (kept for reuse), copy none */
	if (splice)
		assert_true(count_pipes(p.pid, PIPE_SIZE) > 0);
	else
		assert_int_equal(count_pipes(p.pid, PIPE_SIZE), 0);
	shutdown(fd, SHUT_WR);
	assert_int_equal(pthread_join(th, NULL), 0);
	close(fd);
	close(s.lfd);
	assert_int_equal(s.bytes, PAYLOAD);
	assert_true(s.mismatch == UINT64_MAX);
	assert_true(zc_peer_alive(&p));
	assert_int_equal(zc_peer_cpu(&p, &t), 0);
	assert_true(t.process_s >= 0);
	assert_int_equal(zc_peer_stop(&p, 5), 0);
	assert_true(group_gone(p.pid));
}

static void test_haproxy_splice(void **state)
{
	(void)state;
	haproxy_forward(true, 0);
}

static void test_haproxy_copy(void **state)
{
	(void)state;
	haproxy_forward(false, ncpus + 1);
}

static void test_haproxy_info(void **state)
{
	json_t *info;

	(void)state;
	if (!have_haproxy())
		zc_skip("%s", why_haproxy);
	info = zc_haproxy_info();
	assert_non_null(info);
	assert_null(json_object_get(info, "error"));
	assert_true(strlen(json_string_value(json_object_get(info, "version"))) > 2);
	assert_true(json_is_true(json_object_get(info, "splice")));
	assert_non_null(strstr(json_string_value(json_object_get(info, "vv_head")), "HAProxy version"));
	json_decref(info);
}

static void iperf3_pair(bool sendfile)
{
	struct zc_iperf3_client_cfg c = { .addr = "127.0.0.1", .seconds = 1, .chunk = 65536,
					  .sendfile = sendfile };
	int scpu = cpus[0], ccpu = cpus[ncpus - 1], ret;
	struct zc_peer server, client;
	struct zc_iperf3_result r;
	struct zc_peer_cpu t;
	char why[256];
	json_t *info;

	if (zc_iperf3_available(sendfile, why, sizeof(why)))
		zc_skip("%s", why);
	info = zc_iperf3_info();
	assert_non_null(info);
	assert_null(json_object_get(info, "error"));
	json_decref(info);
	assert_int_equal(zc_peer_pick_port("127.0.0.1", &c.port), 0);
	if (zc_iperf3_start_server(&server, "127.0.0.1", c.port, &scpu, 1, dir, 60))
		fail_msg("%s", server.reason);
	if (zc_iperf3_start_client(&client, &c, &ccpu, 1, dir)) {
		zc_peer_stop(&server, 1);
		fail_msg("%s", client.reason);
	}
	/* read at a window edge while it runs (it may be done already on a busy host) */
	ret = zc_peer_cpu(&client, &t);
	assert_true(ret == 0 || ret == -ESRCH);
	if (!ret)
		assert_int_equal(t.tid[0] == client.pid || t.nthreads > 1, 1);
	ret = zc_peer_wait_exit(&client, 60);
	if (ret)
		print_message("%s\n", client.reason);
	assert_int_equal(ret, 0);
	assert_true(group_gone(client.pid));
	assert_true(client.cpu_s_at_exit >= 0);
	ret = zc_iperf3_client_result(dir, &r);
	if (ret)
		print_message("iperf3: %s\n", r.error);
	assert_int_equal(ret, 0);
	assert_true(r.bytes_sent > 0);
	assert_true(r.bytes_received > 0 && r.bytes_received <= r.bytes_sent);
	assert_true(r.seconds_sent > 0.5);
	assert_int_equal(r.blksize, 65536);
	assert_int_equal(r.duration_s, 1);
	/* -1: the server ends with its one test */
	assert_int_equal(zc_peer_wait_exit(&server, 30), 0);
	assert_true(group_gone(server.pid));
}

static void test_iperf3_send(void **state)
{
	(void)state;
	iperf3_pair(false);
}

static void test_iperf3_sendfile(void **state)
{
	(void)state;
	iperf3_pair(true);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_splice),
		cmocka_unit_test(test_config_copy),
		cmocka_unit_test(test_config_bad),
		cmocka_unit_test(test_parse_stat),
		cmocka_unit_test(test_parse_vv),
		cmocka_unit_test(test_iperf3_parse),
		cmocka_unit_test(test_iperf3_argv),
		cmocka_unit_test(test_runner_sleep),
		cmocka_unit_test(test_runner_cpu_time),
		cmocka_unit_test(test_runner_term_ignored),
		cmocka_unit_test(test_listen_timeout),
		cmocka_unit_test(test_listen_exit),
		cmocka_unit_test(test_listen_ok),
		cmocka_unit_test(test_listen_not_ours),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_parent_death),
		/* the real programs: each skips alone when its program is missing */
		cmocka_unit_test(test_haproxy_check_config),
		cmocka_unit_test(test_haproxy_info),
		cmocka_unit_test(test_haproxy_splice),
		cmocka_unit_test(test_haproxy_copy),
		cmocka_unit_test(test_iperf3_send),
		cmocka_unit_test(test_iperf3_sendfile),
	};
	int ret;

	if (argc == 3 && !strcmp(argv[1], "--listen"))
		return listen_and_wait(argv[2]);
	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(dir))
		zc_die("mkdtemp %s: %s", dir, strerror(errno));
	allowed_cpus();
	ret = zc_run_tests(tests, NULL, NULL);
	/* Kept after a failure: the peers' logs say why. */
	if (ret != 1) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			zc_warn("could not remove %s", dir);
	}
	return ret;
}
