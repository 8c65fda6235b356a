// SPDX-License-Identifier: GPL-2.0
/*
 * nginx in the server's place. The configuration is the smallest one that
 * serves static files the way the sendfile question is about: `sendfile on`
 * (with tcp_nopush, as distributions ship it) or `off` (read into
 * output_buffers, then write), keep-alive connections that never close, no
 * access log, no MIME lookup, no open file cache, workers pinned with
 * worker_cpu_affinity to the DUT's CPUs.
 */
#include "peers/nginx.h"
#include "peers/peer_int.h"
#include "lib/pattern.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define add zc_text_add

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* One mask per worker, bit c for CPU c (nginx writes them highest CPU first). */
static void add_mask(struct zc_text *t, const int *cpu, int n)
{
	int top = 0;

	for (int i = 0; i < n; i++)
		top = cpu[i] > top ? cpu[i] : top;
	add(t, " ");
	for (int b = top; b >= 0; b--) {
		bool set = false;

		for (int i = 0; i < n; i++)
			set |= cpu[i] == b;
		add(t, "%c", set ? '1' : '0');
	}
}

static void add_affinity(struct zc_text *t, const struct zc_nginx_cfg *c)
{
	int cpu[ZC_PEER_MAX_CPUS], n = 0;
	int workers = c->master ? c->workers : 1;

	if (!c->ncpus)
		return;
	memcpy(cpu, c->cpus, c->ncpus * sizeof(*cpu));
	qsort(cpu, c->ncpus, sizeof(*cpu), cmp_int);
	for (int i = 0; i < c->ncpus; i++)
		if (!n || cpu[i] != cpu[n - 1])
			cpu[n++] = cpu[i];
	add(t, "worker_cpu_affinity");
	if (workers <= n)
		for (int i = 0; i < workers; i++)
			add_mask(t, &cpu[i], 1);
	else
		/* more workers than CPUs: all of them kept on the DUT's CPUs */
		add_mask(t, cpu, n);
	add(t, ";\n");
}

int zc_nginx_config(const struct zc_nginx_cfg *c, char *out, size_t len)
{
	static const struct {
		unsigned bit;
		const char *directive, *dir;
	} temp[] = {
		{ ZC_NGINX_TEMP_PROXY, "proxy_temp_path", "proxy" },
		{ ZC_NGINX_TEMP_FASTCGI, "fastcgi_temp_path", "fastcgi" },
		{ ZC_NGINX_TEMP_UWSGI, "uwsgi_temp_path", "uwsgi" },
		{ ZC_NGINX_TEMP_SCGI, "scgi_temp_path", "scgi" },
	};
	struct zc_text t = { .buf = out, .len = len };
	long keep = c->keepalive_requests ? c->keepalive_requests : 1000000000L;
	int idle_s = c->keepalive_timeout_s ? c->keepalive_timeout_s : 3600;

	if (!len || !c->listen_addr || !c->dir || !c->docroot || c->listen_port < 1 ||
	    c->listen_port > 65535 || (c->master && (c->workers < 1 || c->workers > 256)) ||
	    c->ncpus < 0 || c->ncpus > ZC_PEER_MAX_CPUS || (c->ncpus && !c->cpus) ||
	    c->connections < 1 || keep < 1 || idle_s < 1 || strpbrk(c->dir, " ;{}'\"") ||
	    strpbrk(c->docroot, " ;{}'\""))
		return -EINVAL;
	for (int i = 0; i < c->ncpus; i++)
		if (c->cpus[i] < 0 || c->cpus[i] >= 1024)
			return -EINVAL;
	out[0] = 0;
	add(&t, "# zcbench: nginx as the HTTP server (sendfile %s)\n", c->sendfile ? "on" : "off");
	add(&t, "daemon off;\n");
	add(&t, "master_process %s;\n", c->master ? "on" : "off");
	if (c->master)
		add(&t, "worker_processes %d;\n", c->workers);
	add_affinity(&t, c);
	add(&t, "pid %s/nginx.pid;\n", c->dir);
	add(&t, "lock_file %s/nginx.lock;\n", c->dir);
	add(&t, "error_log stderr warn;\n");
	/* Each connection and its file: room above the run's connections. */
	add(&t, "worker_rlimit_nofile %d;\n", 2 * (c->connections + 64) + 64);
	add(&t, "\nevents {\n");
	add(&t, "\tworker_connections %d;\n", c->connections + 64);
	add(&t, "}\n\nhttp {\n");
	add(&t, "\taccess_log off;\n");
	add(&t, "\tlog_not_found off;\n");
	add(&t, "\tserver_tokens off;\n");
	add(&t, "\ttypes { }\n");
	add(&t, "\tdefault_type application/octet-stream;\n");
	add(&t, "\tsendfile %s;\n", c->sendfile ? "on" : "off");
	if (c->sendfile)
		add(&t, "\ttcp_nopush %s;\n", c->tcp_nopush ? "on" : "off");
	if (c->sendfile && c->sendfile_max_chunk)
		add(&t, "\tsendfile_max_chunk %llu;\n", (unsigned long long)c->sendfile_max_chunk);
	if (!c->sendfile && c->output_buffer)
		add(&t, "\toutput_buffers 2 %llu;\n", (unsigned long long)c->output_buffer);
	add(&t, "\ttcp_nodelay on;\n");
	add(&t, "\tkeepalive_requests %ld;\n", keep);
	add(&t, "\tkeepalive_timeout %ds;\n", idle_s);
	add(&t, "\tclient_body_temp_path %s/client_body;\n", c->dir);
	for (size_t i = 0; i < ZC_ARRAY_SIZE(temp); i++)
		if (c->temp_modules & temp[i].bit)
			add(&t, "\t%s %s/%s;\n", temp[i].directive, c->dir, temp[i].dir);
	add(&t, "\n\tserver {\n");
	add(&t, strchr(c->listen_addr, ':') ? "\t\tlisten [%s]:%d;\n" : "\t\tlisten %s:%d;\n",
	    c->listen_addr, c->listen_port);
	add(&t, "\t\troot %s;\n", c->docroot);
	add(&t, "\t\tlocation / { }\n");
	add(&t, "\t}\n}\n");
	return t.full ? -ENOSPC : 0;
}

int zc_nginx_parse_v(const char *text, char *version, size_t len, unsigned *temp_modules)
{
	static const struct {
		unsigned bit;
		const char *without;
	} mod[] = {
		{ ZC_NGINX_TEMP_PROXY, "--without-http_proxy_module" },
		{ ZC_NGINX_TEMP_FASTCGI, "--without-http_fastcgi_module" },
		{ ZC_NGINX_TEMP_UWSGI, "--without-http_uwsgi_module" },
		{ ZC_NGINX_TEMP_SCGI, "--without-http_scgi_module" },
	};
	const char *v = strstr(text, "nginx version: nginx/");
	char ver[64];

	if (!v || sscanf(v + strlen("nginx version: nginx/"), "%63s", ver) != 1)
		return -EINVAL;
	snprintf(version, len, "%s", ver);
	*temp_modules = 0;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(mod); i++)
		if (!strstr(text, mod[i].without))
			*temp_modules |= mod[i].bit;
	return 0;
}

/* `nginx -V`: 0 or -errno, its version and modules, the reason in why. */
static int nginx_v(char *version, size_t vlen, unsigned *temp_modules, char *why, size_t len)
{
	static const struct zc_peer_prog nginx = { "nginx", "-V", "nginx-light", NULL, false };
	char out[8192];
	int ret = zc_peer_version(&nginx, out, sizeof(out), why, len);

	if (!ret && zc_nginx_parse_v(out, version, vlen, temp_modules)) {
		snprintf(why, len, "nginx -V failed (unexpected output): %.200s", out);
		return -EIO;
	}
	return ret;
}

int zc_nginx_available(char *why, size_t len)
{
	char version[64];
	unsigned mods;

	return nginx_v(version, sizeof(version), &mods, why, len);
}

json_t *zc_nginx_info(void)
{
	char version[64], why[256];
	unsigned mods;

	if (nginx_v(version, sizeof(version), &mods, why, sizeof(why)))
		return json_pack("{s:s}", "error", why);
	return zc_peer_info("nginx", version);
}

/* One object: size bytes of the pattern from offset 0, written through a
 * shared mapping (no buffer of the object's size). 0 or -errno. */
static int write_object(const char *path, uint64_t size, uint64_t seed)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = 0;
	void *map;

	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644) || ftruncate(fd, (off_t)size)) {
		ret = -errno;
		goto out;
	}
	if (size) {
		map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			ret = -errno;
			goto out;
		}
		zc_pattern_fill(map, size, seed);
		if (munmap(map, size))
			ret = -errno;
	}
out:
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int zc_nginx_docroot(const char *root, const uint64_t *sizes, int nsizes, uint64_t seed)
{
	if (nsizes < 1 || nsizes > ZC_NGINX_MAX_SIZES)
		return -EINVAL;
	if (mkdir(root, 0755) && errno != EEXIST)
		return -errno;
	if (chmod(root, 0755))
		return -errno;
	for (int i = 0; i < nsizes; i++) {
		char path[PATH_MAX];
		int ret;

		if (snprintf(path, sizeof(path), "%s/%llu", root, (unsigned long long)sizes[i]) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		ret = write_object(path, sizes[i], seed);
		if (ret)
			return ret;
	}
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

int zc_nginx_stop(struct zc_nginx *n, double grace_s)
{
	int ret = zc_peer_stop(&n->p, grace_s);

	if (n->dir[0]) {
		if (nftw(n->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) && !ret)
			ret = -errno;
		n->dir[0] = 0;
	}
	return ret;
}

/* Fail a start: reason (unless set), nothing left. */
static int start_failed(struct zc_nginx *n, int err, const char *fmt, const char *arg)
{
	if (fmt)
		snprintf(n->p.reason, sizeof(n->p.reason), fmt, arg, strerror(-err));
	zc_nginx_stop(n, 1);
	return err;
}

/* Ready: the master runs all its workers (it listens before it forks them). */
static int wait_workers(struct zc_nginx *n, int want, double deadline)
{
	pid_t pids[ZC_PEER_MAX_THREADS];
	int got;

	while ((got = zc_peer_group_pids(&n->p, pids, ZC_PEER_MAX_THREADS)) >= 0 && got < want) {
		struct timespec nap = { .tv_nsec = 10 * 1000000L };

		if (zc_now() > deadline || zc_interrupted)
			break;
		nanosleep(&nap, NULL);
	}
	if (got >= want)
		return 0;
	zc_peer_fail_reason(&n->p, got < 0 ? "exited after it listened" : "did not start all its workers");
	return got < 0 ? -ECHILD : zc_interrupted ? -EINTR : -ETIMEDOUT;
}

int zc_nginx_start(struct zc_nginx *n, const struct zc_nginx_cfg *c, const uint64_t *sizes,
		   int nsizes, uint64_t seed, const char *logdir, double listen_timeout_s)
{
	char conf[PATH_MAX], root[PATH_MAX], version[64];
	char *argv[] = { "nginx", "-p", n->dir, "-c", conf, NULL };
	struct zc_nginx_cfg cfg = *c;
	struct zc_peer_spec spec = { .name = "nginx", .argv = argv, .cpus = c->cpus,
				     .ncpus = c->ncpus };
	double deadline = zc_now() + listen_timeout_s;
	int ret;

	memset(n, 0, sizeof(*n));
	snprintf(n->p.name, sizeof(n->p.name), "nginx");
	n->port = c->listen_port;
	ret = nginx_v(version, sizeof(version), &cfg.temp_modules, n->p.reason, sizeof(n->p.reason));
	if (ret)
		return ret;
	snprintf(n->dir, sizeof(n->dir), "/tmp/zcbench-nginx-XXXXXX");
	if (!mkdtemp(n->dir)) {
		ret = -errno;
		n->dir[0] = 0;
		return start_failed(n, ret, "nginx: cannot make its folder in %s: %s", "/tmp");
	}
	/* Workers run as nobody when we are root: they must reach the files. */
	if (chmod(n->dir, 0755))
		return start_failed(n, -errno, "nginx: chmod %s: %s", n->dir);
	snprintf(conf, sizeof(conf), "%s/nginx.conf", n->dir);
	snprintf(root, sizeof(root), "%s/root", n->dir);
	ret = zc_nginx_docroot(root, sizes, nsizes, seed);
	if (ret)
		return start_failed(n, ret, "nginx: cannot write the objects in %.700s: %s", root);
	cfg.dir = n->dir;
	cfg.docroot = root;
	ret = zc_nginx_config(&cfg, n->config, sizeof(n->config));
	if (ret)
		return start_failed(n, ret, "nginx: cannot write its configuration%s: %s", "");
	ret = zc_write_atomic(conf, n->config, strlen(n->config));
	if (ret)
		return start_failed(n, ret, "nginx: cannot write %.700s: %s", conf);
	spec.dir = logdir ? logdir : n->dir;
	ret = zc_peer_start(&n->p, &spec);
	if (ret)
		return start_failed(n, ret, NULL, NULL);
	ret = zc_peer_wait_listen(&n->p, c->listen_port, listen_timeout_s);
	if (!ret && c->master)
		ret = wait_workers(n, 1 + c->workers, deadline);
	if (ret)
		return start_failed(n, ret, NULL, NULL);
	return 0;
}
