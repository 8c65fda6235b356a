/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hosts/NAME.ini: where the roles run. A transport is an ops struct (local
 * exec, network namespaces, ssh; guests plug in the same way), one file in
 * transport/ and one line in transports.h: it declares its host-file keys
 * (a table over its private state in h->priv), its part of the results
 * "host" object and which roles it runs elsewhere; it prepares the place,
 * gives the argv prefix that starts a role there, and undoes it all. The
 * generic host knows none of a transport's keys. Every role still measures
 * its own host and reports it as JSON.
 */
#ifndef ZC_HOST_H
#define ZC_HOST_H

#include "lib/opt.h"
#include "lib/zcbench.h"

#include <jansson.h>
#include <net/if.h>
#include <stddef.h>

struct zc_host;
struct zc_placement;

/* Host-file key rows (lib/opt.h) say where they may appear: */
#define ZC_HOST_KEY	(ZC_OPT_USER << 0)	/* in [host] */
#define ZC_ROLE_KEY	(ZC_OPT_USER << 1)	/* in [source], [proxy], [sink]: one value per
						 * role, the row's field is element 0 of an array
						 * of ZC_ROLE_NR; in [host] it sets every role */

struct zc_transport {
	const char *name;		/* transport = NAME in host files */
	const char *summary;		/* one line for zcbench keys */
	/* This transport's host-file keys: rows over its private state (h->priv),
	 * which is zeroed, given to init, then the rows' defaults. */
	const struct zc_opt *keys;
	size_t nkeys;
	size_t priv_size;		/* at most ZC_HOST_PRIV_MAX */
	void (*init)(struct zc_host *h);				/* optional */
	/* Optional, once the file is read: checks across keys. 0, or -EINVAL
	 * with "file: [role] why" in err. */
	int (*check)(const struct zc_host *h, char *err, size_t errlen);
	/* Optional: role r runs on another machine (its CPUs, /proc/stat and
	 * NICs are not the controller's). NULL: every role runs here. */
	bool (*remote)(const struct zc_host *h, int role);
	/* Roles run in network namespaces of their own: the controller cannot
	 * describe their interfaces or find them by address. */
	bool own_netns;
	/* Optional: this transport's part of the results "host" object (its
	 * keys' values, what setup did): into host, and per role into roles[r]. */
	void (*json)(const struct zc_host *h, json_t *host, json_t *const roles[ZC_ROLE_NR]);
	int (*setup)(struct zc_host *h, char *err, size_t errlen);	/* 0 or -errno */
	/* Write the argv prefix that runs a command for role r; count or -E2BIG. */
	int (*prefix)(const struct zc_host *h, int role, char **argv, int max);
	/*
	 * Optional: turn the role's command argv[first..n) into what the prefix
	 * expects (ssh hands one string to the remote shell: each argument
	 * quoted into store). New argc or -E2BIG.
	 */
	int (*finish)(const struct zc_host *h, int role, char **argv, int first, int n,
		      char *store, size_t storelen);
	/* Optional, per run: adapt the place to the roles' CPUs (netns: RPS);
	 * what it did goes into the run's placement object. */
	void (*placed)(struct zc_host *h, const struct zc_placement *pl, json_t *place);
	/* Optional: why a role that exited with this wait status died, or NULL. */
	const char *(*explain_exit)(const struct zc_host *h, int role, int status);
	void (*teardown)(struct zc_host *h);	/* optional; idempotent, every exit path */
};

struct zc_irq_save {
	int irq;
	char affinity[256];
};

#define ZC_HOST_PRIV_MAX 8192

struct zc_host {
	char path[512];
	char name[64];
	const struct zc_transport *transport;
	char address[ZC_ROLE_NR][128];	/* address each role listens on / is reached at */
	bool address_set[ZC_ROLE_NR];	/* given in the file (else 127.0.0.1 or the interface's) */
	char iface[ZC_ROLE_NR][IF_NAMESIZE];	/* interface of the role ("" unknown) */
	bool bind_device[ZC_ROLE_NR];	/* SO_BINDTODEVICE to iface */
	int cpu[ZC_ROLE_NR];		/* -1: chosen by placement */
	char exe[ZC_ROLE_NR][512];	/* zcbench binary for each role */
	/* Placement: DUT on the NIC's node (0, local) or off it (1, remote). */
	int placement;
	char irq_cpu[16];		/* "", "same", "sibling", "other-node" or a CPU */
	struct zc_irq_save irq_saved[64];
	int nirq_saved;
	int irq_cpus[64];		/* this run: CPUs the DUT NIC's IRQs were pinned to */
	int nirq_cpus;
	/* The transport's keys and state (its priv_size bytes). */
	_Alignas(max_align_t) unsigned char priv[ZC_HOST_PRIV_MAX];
};

/* 0, or -EINVAL with "file:line: key 'k': why". NULL path: built-in loopback. */
int zc_host_load(const char *path, struct zc_host *h, char *err, size_t errlen);
json_t *zc_host_json(const struct zc_host *h);

/* The command that starts role r: transport prefix + cmd, finished (quoted)
 * for the transport. cmd is NULL-terminated; argc or -E2BIG. */
int zc_host_argv(const struct zc_host *h, int role, char *const cmd[], char **argv, int max,
		 char *store, size_t storelen);
/* "exit code 255 (ssh ...)": the transport's reading of a role's death. */
const char *zc_host_explain_exit(const struct zc_host *h, int role, int status);

/*
 * Per run: the NUMA node the DUT should go on (-1: no preference), or
 * -EOPNOTSUPP with the reason when placement = remote cannot be honoured.
 */
int zc_host_dut_node(const struct zc_host *h, int dut, char *why, size_t len);
/*
 * Before one run's samples: pin the DUT NIC's IRQs as irq_cpu asks (saving
 * the affinities) and let the transport adapt (placed); notes into place.
 * zc_host_run_end undoes it, on every path.
 */
void zc_host_run_begin(struct zc_host *h, int dut, const struct zc_placement *pl, json_t *place);
void zc_host_run_end(struct zc_host *h);
void zc_host_irqs_restore(struct zc_host *h);
/* Affinities left pinned by dead controllers: restored; count. */
int zc_host_irqs_reap_stale(void);

#include "transport/transports.h"
#define ZC_TRANSPORT_DECLARE(ident) extern const struct zc_transport zc_transport_##ident;
ZC_TRANSPORTS(ZC_TRANSPORT_DECLARE)
#undef ZC_TRANSPORT_DECLARE

/* Does role r run on another machine (transport's remote)? */
bool zc_host_remote(const struct zc_host *h, int role);
/* A host-file key's value for role r (-1: [host]) as text: 0, or -ENOENT
 * when neither the host nor its transport has the key. */
int zc_host_get(const struct zc_host *h, int role, const char *key, char *buf, size_t len);
/* Every host-file key, generic ones then each transport's (zcbench keys). */
void zc_host_keys_help(FILE *f);
/* The same as JSON (zcbench keys --json): every key with its sections and
 * transport. */
json_t *zc_host_keys_json(void);
/* Host file key table i (0: every host file's, 1..: each transport's, with
 * its name and summary), n rows (0 for a transport without keys). 0, or
 * -ENOENT past the last (the man page). */
int zc_host_key_table(size_t i, const struct zc_opt **opts, size_t *n, const char **transport,
		      const char **summary);

#endif
