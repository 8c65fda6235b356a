// SPDX-License-Identifier: GPL-2.0
/*
 * HAProxy in the proxy's place. The configuration is the smallest one that
 * forwards TCP from the source to the sink the way the claim is about:
 * splice both ways (option splice-request/-response) or plain recv/send
 * (global nosplice, so no path can splice), its threads pinned with cpu-map
 * to the DUT's CPUs, its pipes sized like zcbench's, no log, no stats socket,
 * no health checks (they would open connections to the sink).
 */
#include "peers/haproxy.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The generator's lines (peers/text.c). */
#define add zc_text_add

/* HAProxy reads the last colon as the port; ipv6@ makes an IPv6 literal plain. */
static void add_addr(struct zc_text *t, const char *addr, int port)
{
	add(t, "%s%s:%d", strchr(addr, ':') ? "ipv6@" : "", addr, port);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * HAProxy 2.6.12 leaves a thread unpinned for a lone "cpu-map 1/1 N" (and
 * then for "1/2 M" after it), while "auto:1/1-N" with N CPUs and "1/all"
 * are applied: checked on the live threads' affinity by test_peers.
 */
static void add_cpu_map(struct zc_text *t, const struct zc_haproxy_cfg *c)
{
	int cpu[ZC_PEER_MAX_CPUS], n = 0;

	if (!c->ncpus)
		return;
	/* auto: binds from the lowest CPU up, whatever the order given */
	memcpy(cpu, c->cpus, c->ncpus * sizeof(*cpu));
	qsort(cpu, c->ncpus, sizeof(*cpu), cmp_int);
	for (int i = 0; i < c->ncpus; i++)
		if (!n || cpu[i] != cpu[n - 1])
			cpu[n++] = cpu[i];
	if (c->nbthread == 1) {
		add(t, "\tcpu-map 1/all %d\n", cpu[0]);
	} else if (c->nbthread <= n) {
		add(t, "\tcpu-map auto:1/1-%d", c->nbthread);
		for (int i = 0; i < c->nbthread; i++)
			add(t, " %d", cpu[i]);
		add(t, "\n");
	} else {
		/* more threads than CPUs: all of them kept on the DUT's CPUs */
		add(t, "\tcpu-map 1/all");
		for (int i = 0; i < n; i++)
			add(t, " %d", cpu[i]);
		add(t, "\n");
	}
}

int zc_haproxy_config(const struct zc_haproxy_cfg *c, char *out, size_t len)
{
	struct zc_text t = { .buf = out, .len = len };
	int maxconn, timeout_s = c->timeout_s ? c->timeout_s : 3600;

	if (!len || !c->listen_addr || !c->server_addr || c->nbthread < 1 || c->nbthread > 64 ||
	    c->ncpus < 0 || c->ncpus > ZC_PEER_MAX_CPUS || (c->ncpus && !c->cpus) || c->connections < 1 || timeout_s < 1 ||
	    c->listen_port < 1 || c->listen_port > 65535 || c->server_port < 1 ||
	    c->server_port > 65535)
		return -EINVAL;
	out[0] = 0;
	/* Room above the run's connections for a stray one (a retry, a
	 * reconnect) instead of a queue that would stall a stream. */
	maxconn = c->connections + 64;

	add(&t, "# zcbench: HAProxy as the proxy under test (%s%s)\n", c->http ? "http, " : "",
	    !c->splice ? "copy" : c->splice_auto ? "splice-auto" : "splice");
	add(&t, "global\n");
	add(&t, "\tnbthread %d\n", c->nbthread);
	add_cpu_map(&t, c);
	add(&t, "\tmaxconn %d\n", maxconn);
	if (c->splice)
		/* One pipe per direction of every connection: never fall back to copy. */
		add(&t, "\tmaxpipes %d\n", 2 * maxconn);
	else
		add(&t, "\tnosplice\n");
	if (c->pipe_size)
		add(&t, "\ttune.pipesize %llu\n", (unsigned long long)c->pipe_size);
	if (c->bufsize)
		add(&t, "\ttune.bufsize %llu\n", (unsigned long long)c->bufsize);
	add(&t, "\n");
	add(&t, "defaults\n");
	add(&t, "\tmode %s\n", c->http ? "http" : "tcp");
	add(&t, "\tmaxconn %d\n", maxconn);
	add(&t, "\ttimeout connect 10s\n");
	add(&t, "\ttimeout client %ds\n", timeout_s);
	add(&t, "\ttimeout server %ds\n", timeout_s);
	if (c->http) {
		add(&t, "\toption http-keep-alive\n");
		add(&t, "\thttp-reuse always\n");
		add(&t, "\ttimeout http-request 10s\n");
		add(&t, "\ttimeout http-keep-alive %ds\n", timeout_s);
	}
	if (c->splice && c->splice_auto) {
		add(&t, "\toption splice-auto\n");
	} else if (c->splice) {
		add(&t, "\toption splice-request\n");
		add(&t, "\toption splice-response\n");
	}
	add(&t, "\n");
	add(&t, "frontend zc_source\n");
	add(&t, "\tbind ");
	add_addr(&t, c->listen_addr, c->listen_port);
	add(&t, "\n\tdefault_backend zc_sink\n\n");
	add(&t, "backend zc_sink\n");
	add(&t, "\tserver sink ");
	add_addr(&t, c->server_addr, c->server_port);
	add(&t, "\n");
	return t.full ? -ENOSPC : 0;
}

int zc_haproxy_parse_vv(const char *text, struct zc_haproxy_vv *vv)
{
	/* "HA-Proxy version" before 2.x, "HAProxy version" since. */
	static const char *const prefix[] = { "HAProxy version ", "HA-Proxy version " };
	const char *features = strstr(text, "Feature list :");
	const char *v = NULL, *s = text;

	memset(vv, 0, sizeof(*vv));
	for (size_t i = 0; i < ZC_ARRAY_SIZE(prefix) && !v; i++)
		if ((v = strstr(text, prefix[i])))
			v += strlen(prefix[i]);
	if (!v || sscanf(v, "%63s", vv->version) != 1)
		return -EINVAL;
	if (features) {
		const char *eol = strchrnul(features, '\n');
		const char *hit = strstr(features, "+LINUX_SPLICE");

		vv->splice = hit && hit < eol;
	}
	vv->threads = strstr(text, "Built with multi-threading support") != NULL;
	/* The first three lines: version, support status, known bugs. */
	for (int i = 0; i < 3 && *s; i++) {
		s = strchrnul(s, '\n');
		if (*s)
			s++;
	}
	snprintf(vv->head, sizeof(vv->head), "%.*s", (int)(s - text), text);
	return 0;
}

int zc_haproxy_vv(struct zc_haproxy_vv *vv, char *why, size_t len)
{
	static const struct zc_peer_prog haproxy = { "haproxy", "-vv", "haproxy", NULL, false };
	char out[16384];
	int ret;

	memset(vv, 0, sizeof(*vv));
	if ((ret = zc_peer_version(&haproxy, out, sizeof(out), why, len)))
		return ret;
	if (zc_haproxy_parse_vv(out, vv)) {
		snprintf(why, len, "haproxy -vv printed no version: %.200s", out);
		return -EIO;
	}
	return 0;
}

int zc_haproxy_available(bool splice, char *why, size_t len)
{
	struct zc_haproxy_vv vv;
	int ret = zc_haproxy_vv(&vv, why, len);

	if (ret)
		return ret;
	if (splice && !vv.splice) {
		snprintf(why, len, "haproxy %s built without splice (no +LINUX_SPLICE in haproxy -vv)",
			 vv.version);
		return -ENOTSUP;
	}
	return 0;
}

json_t *zc_haproxy_info(void)
{
	struct zc_haproxy_vv vv;
	char why[256];
	json_t *info;

	if (zc_haproxy_vv(&vv, why, sizeof(why)))
		return json_pack("{s:s}", "error", why);
	info = zc_peer_info("haproxy", vv.version);
	json_object_update_new(info, json_pack("{s:b, s:b, s:s}", "splice", vv.splice, "threads",
					       vv.threads, "vv_head", vv.head));
	return info;
}

int zc_haproxy_start(struct zc_peer *p, const struct zc_haproxy_cfg *c, const char *dir,
		     double listen_timeout_s, char *cfg_out, size_t cfg_len)
{
	char path[PATH_MAX];
	char *argv[] = { "haproxy", "-db", "-f", path, NULL };
	struct zc_peer_spec spec = { .name = "haproxy", .argv = argv, .cpus = c->cpus,
				     .ncpus = c->ncpus, .dir = dir };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "haproxy");
	ret = zc_haproxy_config(c, cfg_out, cfg_len);
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "haproxy: cannot write its configuration: %s",
			 strerror(-ret));
		return ret;
	}
	if (snprintf(path, sizeof(path), "%s/haproxy.cfg", dir) >= (int)sizeof(path)) {
		snprintf(p->reason, sizeof(p->reason), "haproxy: folder name too long");
		return -ENAMETOOLONG;
	}
	ret = zc_write_atomic(path, cfg_out, strlen(cfg_out));
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "haproxy: cannot write %.900s: %s", path,
			 strerror(-ret));
		return ret;
	}
	double deadline = zc_now() + listen_timeout_s;
	pid_t tids[ZC_PEER_MAX_THREADS];

	ret = zc_peer_start(p, &spec);
	if (ret)
		return ret;
	ret = zc_peer_wait_listen(p, c->listen_port, listen_timeout_s);
	if (ret)
		return ret;
	/* HAProxy listens before it starts its threads: ready means all of them. */
	while ((ret = zc_peer_tids(p, tids, ZC_PEER_MAX_THREADS)) >= 0 && ret < c->nbthread) {
		struct timespec nap = { .tv_nsec = 10 * 1000000L };

		if (zc_now() > deadline || zc_interrupted)
			break;
		nanosleep(&nap, NULL);
	}
	if (ret >= c->nbthread)
		return 0;
	zc_peer_fail_reason(p, ret < 0 ? "exited after it listened" : "did not start all its threads");
	zc_peer_stop(p, 1);
	return ret < 0 ? -ECHILD : zc_interrupted ? -EINTR : -ETIMEDOUT;
}
