/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One table of run options. Workload keys, command-line flags, the role's
 * argv, the values written into every results file and `zcbench keys` all
 * come from zc_opts[] (see cfg.c, rows of lib/opt.h), so a key is declared
 * once with type, default, bounds and help.
 */
#ifndef ZC_CFG_H
#define ZC_CFG_H

#include "lib/opt.h"
#include "lib/zcbench.h"

#define ZC_LIST_MAX 16
/* alternate: at most this many slices in a window */
#define ZC_SLICES_MAX 4096
#define ZC_NAME_MAX 64
#define ZC_MODE_NAME_MAX 32
/* repetitions = auto (stored as this number, written back as "auto"). */
#define ZC_REPS_AUTO 0L
/* repetitions = auto never stops before this many rounds: one or two pairs
 * give an interval of zero width that says nothing. */
#define ZC_AUTO_MIN_ROUNDS 3
/* retake_disturbed = auto: with repetitions = auto as many as the run set has
 * runs (a round's worth), else none. */
#define ZC_RETAKE_AUTO -1L
/* repetitions = auto: which headline ratios must be decided (changed or
 * unchanged at +-ZC_RATIO_THRESHOLD) before the rounds stop. */
enum zc_decide { ZC_DECIDE_FAIR, ZC_DECIDE_ALL };

struct zc_cfg {
	char name[ZC_NAME_MAX];		/* run section name */
	int topology;			/* enum zc_topology */
	char mode[ZC_ROLE_NR][ZC_MODE_NAME_MAX];
	uint64_t chunk;			/* bytes per call */
	uint64_t pipe_size;		/* F_SETPIPE_SZ for pipe-based modes */
	uint64_t period;		/* pattern period (modes with a static chunk use chunk) */
	double warmup_s, duration_s, tail_s, timeout_s;
	long repetitions;		/* ZC_REPS_AUTO: rounds until the ratios are tight */
	int order;			/* enum zc_order (stats/order.h): how repetitions are taken */
	long order_seed;		/* order = random: the shuffle's seed */
	char alternate[ZC_MODE_NAME_MAX];	/* the DUT's other mode in ABBA slices, "" off */
	long slice_ms, slice_drop;	/* alternate: slice length; drop the first after a switch */
	double ci_target_pct;		/* repetitions = auto: interval half-width wanted, percent */
	double foreign_max_pct;		/* a sample is disturbed above this foreign share, percent */
	long max_repetitions;		/* repetitions = auto: at most this many rounds */
	int decide;			/* repetitions = auto: enum zc_decide, the questions */
	double budget_s;		/* repetitions = auto: no round begun after this, 0: none */
	long retake_disturbed;		/* disturbed samples taken again, at most; ZC_RETAKE_AUTO */
	int tune;			/* 1: performance governor, no deep idle on the DUT cores */
	long seed, sink_seed;		/* sink_seed < 0: same as seed */
	char file_dir[256];		/* where sendfile/splice-file keep their file */
	char counters[8];		/* none|perf|bpf|all (counters.h) */
	char counters_roles[8];		/* dut|all: which roles load the BPF programs */
	char mode_opts[256];		/* modes' own options: KEY=VALUE,... (modes/options.c) */
	long connections;		/* concurrent TCP connections on each side of the proxy */
	int workers;			/* the DUT's worker threads, one core each */
	int source_workers, sink_workers;	/* ZC_WORKERS_AUTO: what the DUT's cores leave */
	int smt;			/* 1: workers may use SMT siblings (off|on) */
	/* list-valued keys, expanded into one run per combination */
	uint64_t chunks[ZC_LIST_MAX];
	int nchunks;
	uint64_t pipe_sizes[ZC_LIST_MAX];
	int npipe_sizes;
	long connections_list[ZC_LIST_MAX];
	int nconnections;
	int workers_list[ZC_LIST_MAX];	/* may hold ZC_WORKERS_MAX_CORES, ZC_WORKERS_LADDER */
	int nworkers;
	/* request/response (traffic = rr): rr/rr*.c */
	int traffic;			/* enum zc_traffic */
	uint64_t request_size;		/* bytes of each request, 0: the shortest */
	uint64_t object_size;		/* bytes of each response body */
	uint64_t object_sizes[ZC_LIST_MAX];
	int nobject_sizes;
	char object_sizes_file[256];	/* one size a line, drawn with the seed; "" none */
	long inflight;			/* requests in flight per connection */
	int churn;			/* 1: a new connection per request */
	double rate_rps;		/* requests/s over all connections, 0: closed loop */
	int rr_dut;			/* topology = direct: enum zc_rr_dut */
	long pipe_pool;			/* proxy: empty pipes kept per worker for reuse */
	int server_send;		/* enum zc_rr_send */
	int rr_check;			/* enum zc_rr_check: what messages are held to */
};

enum zc_traffic { ZC_TRAFFIC_STREAM, ZC_TRAFFIC_RR };
enum zc_rr_dut { ZC_RR_DUT_SERVER, ZC_RR_DUT_CLIENT };
enum zc_rr_send { ZC_RR_SEND, ZC_RR_SENDFILE };
enum zc_rr_check { ZC_RR_CHECK_AUTO, ZC_RR_CHECK_EXACT, ZC_RR_CHECK_HTTP };

/* workers = max: every usable core; ladder: 1, 2, 4, ... up to every usable
 * core (expanded when a workload is loaded, from this machine's topology). */
#define ZC_WORKERS_MAX_CORES (-1)
#define ZC_WORKERS_LADDER (-2)
#define ZC_WORKERS_AUTO 0
/* File descriptors a role may need per connection (sockets, pipes, a file, an
 * epoll set) and for itself: what RLIMIT_NOFILE must allow. */
#define ZC_FDS_PER_CONN 8
#define ZC_FDS_BASE 64
/* The largest object an object_sizes_file may name (1T). */
#define ZC_OBJECT_SIZE_MAX (1ULL << 40)

extern const struct zc_opt zc_opts[];
extern const size_t zc_nopts;

/* The workload table's row for key ('-' == '_'), or NULL. */
const struct zc_opt *zc_opt_find(const char *key);
void zc_cfg_defaults(struct zc_cfg *cfg);
/* Set one key from its text. 0, or -EINVAL with why in err. */
int zc_opt_set(struct zc_cfg *cfg, const struct zc_opt *o, const char *value,
	       char *err, size_t errlen);
/* Cross-key checks once all keys are set. 0, or -EINVAL with a message. */
/* *badkey names the key to blame. */
int zc_cfg_validate(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey);
/* Where a run's key was set, for zc_cfg_conflicts. */
enum zc_cfg_origin { ZC_SET_DEFAULT, ZC_SET_WORKLOAD, ZC_SET_RUN, ZC_SET_FLAG };
/*
 * Settings that cannot work together or cannot work here, and keys a run
 * would silently ignore, refused before anything runs (each with the
 * reason). origin[i] says where zc_opts[i] was set (enum zc_cfg_origin).
 * 0, or -EINVAL with "key 'k': why" in err and *badkey naming k.
 */
int zc_cfg_conflicts(const struct zc_cfg *cfg, const unsigned char origin[], char *err,
		     size_t errlen, const char **badkey);
/* alternate.c: the alternate key against the run (same role as the DUT's
 * mode, no peer, both serve the run's connections, the switch possible).
 * 0, or -EINVAL with "key 'alternate': why" in err. */
int zc_cfg_alternate_check(const struct zc_cfg *cfg, char *err, size_t errlen);
/* http_peer.c: HTTP programs (nginx, wrk, h2load) only in request/response
 * runs, and what the client programs cannot do (churn, an open loop,
 * pipelining, sizes from a file, padded requests). 0, or -EINVAL with
 * "key 'k': why" in err and *badkey naming k. */
int zc_cfg_http_check(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey);
/* files.c: every file the run names (object_sizes_file) read and checked as
 * its role will read it. 0, or -errno with "key 'k': FILE[:LINE]: why" in
 * err and *badkey naming k. */
int zc_cfg_files_check(const struct zc_cfg *cfg, char *err, size_t errlen, const char **badkey);

/* http_peer.c: the rule rr_check comes to in this run, EXACT or HTTP: auto
 * is HTTP when an HTTP program (nginx, wrk, h2load, HAProxy in http mode)
 * writes or forwards the messages, else EXACT (zcbench's own client and
 * server over TCP: every byte of each head and body as the other sent it). */
int zc_cfg_rr_check(const struct zc_cfg *cfg);
/* Pattern period that source and sink agree on for this run. */
uint64_t zc_cfg_period(const struct zc_cfg *cfg);
/* Every workload key with its default, bounds and help (run --help, keys). */
void zc_opts_help(FILE *f);
/* The --counters value a role gets: BPF only on the device under test
 * unless counters_roles = all (each role's programs run on every event of
 * the host, so three roles triple the DUT's cost); perf everywhere. */
const char *zc_counters_for_role(const struct zc_cfg *cfg, int role);
/*
 * The run as role r sees it: the effective pattern period (source and sink
 * must agree whatever the modes) and r's counters. The role gets every row
 * of this, serialised by zc_opt_argv and parsed back with the same table.
 */
void zc_cfg_for_role(const struct zc_cfg *cfg, int role, struct zc_cfg *out);
/* Every workload key with its value in effect, for results files. */
json_t *zc_cfg_json(const struct zc_cfg *cfg);
/* key.c: the device under test's role in this run. */
int zc_cfg_dut(const struct zc_cfg *cfg);
/* The ZC_USE_ keys (modes/mode.h) the DUT's mode, or either of the two
 * taking turns (alternate), passes on with the run's mode_opts: the sizes
 * of the run's key. */
unsigned zc_cfg_uses(const struct zc_cfg *cfg);
/* The run's key for its results (topology, modes, the sizes it uses,
 * connections, workers; a request/response run's own), a new object. */
json_t *zc_cfg_key_json(const struct zc_cfg *cfg);
/* Workers of role r as configured: > 0, or ZC_WORKERS_AUTO (source, sink). */
int zc_cfg_role_workers(const struct zc_cfg *cfg, int role);
/* Workers the DUT may have here: usable CPUs (physical cores, or PUs with smt). */
int zc_cfg_usable_cores(const struct zc_cfg *cfg);
/*
 * One run per combination of the list keys (chunk, pipe_size, connections,
 * workers; workers = max and ladder resolved for this machine) into out; a
 * list of a key the DUT does not use (zc_cfg_uses) gives one run, at its
 * first value. Count, or -E2BIG when more than max.
 */
int zc_cfg_expand(const struct zc_cfg *base, struct zc_cfg *out, int max);

#endif
