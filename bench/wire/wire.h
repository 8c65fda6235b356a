/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_ROLE_H
#define ZC_ROLE_H

#include "config/cfg.h"
#include "modes/mode.h"

#include <stdint.h>

#include <net/if.h>

/* The three phases of a role's run: warm-up, window, tail; an edge closes
 * each (the live file's edges are the first two). */
enum { PH_WARMUP, PH_WINDOW, PH_TAIL, PH_NR };

/* How a sample that timed out is told, by the controller (a role never
 * ended) and by a request/response client (a response never came). */
#define ZC_STALLED "a role stalled"

#define ZC_CPU_AUTO (-2)	/* --cpu=auto: a role on another machine places itself */

/*
 * What a role is told, as one struct: its own options (the rows of
 * zc_role_opts) and every workload key (zc_opts) in cfg. The controller
 * fills it and writes it as argv with zc_role_args_argv; the role parses the
 * same rows back with zc_role_args_parse. A new workload key reaches the role
 * by being a row of zc_opts, nothing else.
 */
struct zc_role_args {
	int role;
	int cpu;			/* -1: not pinned; ZC_CPU_AUTO: place yourself */
	char cpus[2048];		/* the workers' CPUs, "3,5,7" ("": cpu for them all) */
	char listen[128];		/* address to listen on (proxy, sink) */
	char peer[160];			/* --connect HOST:PORT, the next hop ("" for the sink) */
	char bind_device[IF_NAMESIZE];	/* SO_BINDTODEVICE every socket to it, "" none */
	struct zc_cfg cfg;		/* the run as this role sees it (zc_cfg_for_role) */
	/* peer, split by zc_role_args_parse */
	char connect[128];
	int port;
};

extern const struct zc_opt zc_role_opts[];
extern const size_t zc_nrole_opts;

/* Entries of a role's command line: its rows (one per role and workload
 * key, about 70 with request/response and slices) and a transport's prefix
 * (ssh: about 15). */
#define ZC_ROLE_ARGV_MAX 160

/* Role and workload rows as "--key=value" into argv (texts in store):
 * count, or -E2BIG. */
int zc_role_args_argv(const struct zc_role_args *ra, char **argv, int max, char *store,
		      size_t storelen);
/* The role's argv (argv[1] is its name, ra->role set): 0, ZC_OPT_HELP (help
 * printed), or -EINVAL with "command line: --key: why" in err. */
int zc_role_args_parse(int argc, char **argv, struct zc_role_args *ra, char *err,
		       size_t errlen);

int zc_role_main(int argc, char **argv); /* argv[1] is the role's name */

/* ---- the shared counters (live.c) ---- */

#define ZC_LIVE_ENV "ZCBENCH_LIVE_FILE"

struct zc_live_map {
	void *base;
	size_t len;
};

/* The controller: make an empty file for role (its path into path). 0/-errno. */
int zc_live_create(int role, char *path, size_t len);
/* Map a role's file once it has filled it in: 0, -EAGAIN (not yet), -errno. */
int zc_live_open(struct zc_live_map *m, const char *path);
/* Every connection's bytes now, summed; at the end of phase p (0 warm-up,
 * 1 window) as the role took them. 0 or -ENODATA. */
int zc_live_bytes(const struct zc_live_map *m, uint64_t *bytes);
int zc_live_edge(const struct zc_live_map *m, int phase, uint64_t *bytes);
void zc_live_close(struct zc_live_map *m);
/* Remove the files of controllers that died between making one and mapping it. */
void zc_live_reap_stale(void);

/* A role's connection counters as the controller reads them: nconn io
 * entries (their bytes) and each one's bytes at each phase's edge. */
struct zc_live_role {
	int nconn;
	struct zc_io *io;
	uint64_t (*edge)[PH_NR];
};
/* The role (role.c, rr.c): io and edge in the file named by
 * $ZCBENCH_LIVE_FILE, else on the heap. 0 or -ENOMEM. */
int zc_live_role_alloc(struct zc_live_role *l);
void zc_live_role_free(struct zc_live_role *l);

#endif
