/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nginx as the HTTP server (issue 23): the most widespread sendfile() user,
 * served from files of zcbench's pattern, with `sendfile on` or `off`.
 *
 * zc_nginx_start() makes its own folder (/tmp/zcbench-nginx-XXXXXX, 0755 so
 * that workers running as nobody can read it) holding nginx.conf, nginx.pid,
 * the lock file, the temp paths nginx writes, and root/<size>: one file per
 * object size, exactly <size> bytes of zc_pattern_fill(seed) from offset 0,
 * so GET /<size> returns what a zcbench HTTP client verifies. nginx runs in
 * the foreground (daemon off) as our child in its own process group, pinned,
 * logging nothing but errors (into LOGDIR/nginx.log). zc_nginx_stop() stops
 * and reaps the whole group and removes the folder.
 *
 * CPU time: the work is done by worker processes, not threads of the
 * leader: read it with zc_peer_group_cpu(&n->p, ...) (peer.h), not
 * zc_peer_cpu(). Bytes: zc_peer_tcp_bytes(0, port, 0, ...) counts every
 * socket on the listening port (workers hold them, not the master).
 */
#ifndef ZC_PEERS_NGINX_H
#define ZC_PEERS_NGINX_H

#include "peers/peer.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct json_t;

#define ZC_NGINX_MAX_SIZES 32

/* Temp paths of the modules nginx was built with (nginx -V): each must be
 * writable, so each is set into the folder (an unknown directive would be
 * an error, a module left out keeps its default under /var/lib/nginx). */
enum {
	ZC_NGINX_TEMP_PROXY = 1 << 0,
	ZC_NGINX_TEMP_FASTCGI = 1 << 1,
	ZC_NGINX_TEMP_UWSGI = 1 << 2,
	ZC_NGINX_TEMP_SCGI = 1 << 3,
	ZC_NGINX_TEMP_ALL = 0xf,
};

struct zc_nginx_cfg {
	const char *listen_addr;	/* where clients (or HAProxy) connect */
	int listen_port;
	const char *dir;		/* prefix: pid, lock file, temp paths */
	const char *docroot;		/* root of the one server */
	bool master;			/* master_process on; off: one process serves */
	int workers;			/* worker_processes (with master) */
	/* worker_cpu_affinity: with workers <= the distinct CPUs, worker i on
	 * the i-th lowest alone; with more workers, each on all of them (as
	 * HAProxy's threads). 0: not pinned. */
	const int *cpus;
	int ncpus;
	bool sendfile;			/* sendfile on|off: the change under study */
	bool tcp_nopush;		/* TCP_CORK the head with the first body bytes (sendfile only) */
	uint64_t sendfile_max_chunk;	/* 0: nginx's default (2m since 1.21.4) */
	uint64_t output_buffer;		/* output_buffers 2 N without sendfile; 0: nginx's 2 32k */
	int connections;		/* the run's connections: worker_connections */
	long keepalive_requests;	/* per connection; 0: 1000000000 (never closes) */
	int keepalive_timeout_s;	/* 0: 3600 */
	unsigned temp_modules;		/* ZC_NGINX_TEMP_* */
};

/* The configuration text into out: 0, -EINVAL or -ENOSPC. */
int zc_nginx_config(const struct zc_nginx_cfg *c, char *out, size_t len);
/* `nginx -V` text: its version ("1.22.1") and which temp modules it has. 0 or -EINVAL. */
int zc_nginx_parse_v(const char *text, char *version, size_t len, unsigned *temp_modules);
/* Usable here? 0, or -ENOENT ("nginx not installed (apt-get install nginx-light)"),
 * -EIO (nginx -V failed); why says it. */
int zc_nginx_available(char *why, size_t len);
/* {"path", "version"} or {"error"}; NULL only out of memory. */
struct json_t *zc_nginx_info(void);

/* Fill dir/root with one file per size (0644, folder 0755): 0 or -errno. */
int zc_nginx_docroot(const char *root, const uint64_t *sizes, int nsizes, uint64_t seed);

struct zc_nginx {
	struct zc_peer p;		/* the master (or the one process) */
	char dir[64];			/* its folder; "" once removed */
	char config[8192];		/* the text it runs, for the results file */
	int port;
};

/* Make the folder and the objects, write nginx.conf from c (its dir,
 * docroot and temp_modules are set here: leave them 0), start `nginx -p DIR
 * -c DIR/nginx.conf` pinned to c->cpus, wait until it listens and runs all
 * its workers, within listen_timeout_s. logdir: where nginx.log goes (NULL:
 * the folder, then gone with it). 0 or -errno, n->p.reason says why; on
 * failure nothing is left (no process, no folder). */
int zc_nginx_start(struct zc_nginx *n, const struct zc_nginx_cfg *c, const uint64_t *sizes,
		   int nsizes, uint64_t seed, const char *logdir, double listen_timeout_s);
/* Stop and reap the group (SIGTERM: nginx's fast shutdown; SIGKILL after
 * grace_s), remove the folder. Idempotent, safe on a failed start. 0, or
 * -ETIMEDOUT (SIGKILL was needed) or the folder's -errno. */
int zc_nginx_stop(struct zc_nginx *n, double grace_s);

#endif
