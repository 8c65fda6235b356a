/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hosts/NAME.ini: where the roles run. A transport is an ops struct (local
 * exec, network namespaces, ssh; guests plug in the same way): it prepares
 * the place, gives the argv prefix that starts a role there, and undoes it
 * all. Every role still measures its own host and reports it as JSON.
 */
#ifndef ZC_HOST_H
#define ZC_HOST_H

#include "lib/zcbench.h"

#include <jansson.h>
#include <net/if.h>

struct zc_host;
struct zc_placement;

struct zc_transport {
	const char *name;
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
	void (*teardown)(struct zc_host *h);	/* idempotent, every exit path */
};

/* hosts/netns.ini: three namespaces and three veth pairs (see host_netns.c). */
enum { ZC_LINK_SRC_DUT, ZC_LINK_DUT_SINK, ZC_LINK_SRC_SINK, ZC_LINK_NR };
struct zc_netns {
	int mtu;			/* 0: the veth default */
	int gro, gso, tso;		/* -1 unchanged, 0 off, 1 on */
	int queues;			/* rx and tx queues per veth, 0: default (1) */
	int rps;			/* steer each veth's receive work to its role's CPU */
	char netem_delay[32];		/* tc netem "delay" argument, "" none */
	char netem_loss[32];		/* tc netem "loss" argument, "" none */
	bool netem_on[ZC_LINK_NR];	/* which links get the netem qdisc */
	char ns[ZC_ROLE_NR][64];	/* namespace of each role (proxy: the dut) */
	bool created[ZC_ROLE_NR];
	char loss_method[48];		/* "tc netem", or the fallback used */
	char notes[1024];		/* what setup did or could not do */
};

struct zc_irq_save {
	int irq;
	char affinity[256];
};

struct zc_host {
	char path[512];
	char name[64];
	const struct zc_transport *transport;
	char address[ZC_ROLE_NR][128];	/* address each role listens on / is reached at */
	bool address_set[ZC_ROLE_NR];
	char iface[ZC_ROLE_NR][IF_NAMESIZE];	/* interface of the role ("" unknown) */
	bool bind_device[ZC_ROLE_NR];	/* SO_BINDTODEVICE to iface */
	int cpu[ZC_ROLE_NR];		/* -1: chosen by placement */
	char exe[ZC_ROLE_NR][512];	/* zcbench binary for each role */
	/* ssh: "user@host" per role ("" runs the role here), options. */
	char ssh[ZC_ROLE_NR][128];
	int ssh_port[ZC_ROLE_NR];
	char ssh_identity[ZC_ROLE_NR][256];
	char ssh_known_hosts[ZC_ROLE_NR][256];
	char remote_version[ZC_ROLE_NR][128];
	/* Placement: DUT on the NIC's node (local) or off it (remote). */
	bool placement_remote;
	char irq_cpu[16];		/* "", "same", "sibling", "other-node" or a CPU */
	struct zc_irq_save irq_saved[64];
	int nirq_saved;
	struct zc_netns netns;
	void *priv;
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

extern const struct zc_transport zc_transport_local;
extern const struct zc_transport zc_transport_netns;
extern const struct zc_transport zc_transport_ssh;
/* Namespaces left by dead zcbench controllers: removed; count. */
int zc_netns_reap_stale(void);

#endif
