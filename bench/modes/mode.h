/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A data path is a mode: one file defining it with ZC_MODE(ident, ...), and
 * one line X(ident, "name") in modes.h. The mode says everything about
 * itself (fio's ioengine_ops, stress-ng's stressor_info_t): its role, what
 * it is measured against in the headline (vs), which native mode's patched
 * behaviour it emulates (after_of), its own options and private state, and
 * its data path as a step, a fill or a whole pump. zcbench list, --help,
 * validation, the headline, report, plot and before-after are all generated
 * from these declarations; nothing else keeps a table about modes.
 */
#ifndef ZC_MODE_H
#define ZC_MODE_H

#include "lib/zcbench.h"

#include <sys/types.h>

struct json_t;

#define ZC_MODE_VERIFIES	0x01	/* sink: checks every byte */
#define ZC_MODE_EMULATED	0x02	/* emulates a patched kernel's behaviour */
#define ZC_MODE_STATIC_CHUNK	0x04	/* source re-sends one chunk: period = chunk */
#define ZC_MODE_PAGE_CHUNK	0x08	/* chunk must be a multiple of the page size */
#define ZC_MODE_FILE		0x10	/* source reads the payload from a file */
/* Its step needs sockets (send, recv): the probe, which hands a step pipes,
 * leaves it out. */
#define ZC_MODE_SOCKET_STEP	0x20
/* A real program (HAProxy, iperf3) in the role's place (.program): the role
 * starts, measures and stops it (peers/role_peer.c); it has no data path here. */
#define ZC_MODE_PEER		0x40
/* Its bytes cannot be checked by any sink (iperf3's own payload): the run
 * says "verified": false, with .unverified_why. */
#define ZC_MODE_UNVERIFIED	0x80
/* Speaks HTTP/1.1: HAProxy in HTTP mode as the proxy, nginx as the server,
 * wrk and h2load as the client. Only traffic = rr runs take it (config/cfg.c
 * and config/http_peer.c refuse it on a stream); the server and client
 * programs run in peers/rr_peer*.c. */
#define ZC_MODE_HTTP		0x100
/* A peer whose program splices (HAProxy's option splice-request/-response):
 * peers/role_peer.c configures the program so. */
#define ZC_MODE_PEER_SPLICE	0x200

/*
 * The workload keys that size a data path's calls, and which of them a mode
 * passes on to its system calls (or its program's configuration): .uses =
 * ZC_USES(pipe_size); ZC_USES() for neither; no .uses: both. A key the
 * device under test does not use is not part of its run key, a sweep over
 * it runs once (at its first value, which the source and sink still take),
 * and the headline prints "-" for it (zcbench list: "chunk: not used").
 */
#define ZC_USE_chunk		0x1u
#define ZC_USE_pipe_size	0x2u
#define ZC_USE_ALL		(ZC_USE_chunk | ZC_USE_pipe_size)
#define ZC_USE_KEYS		{ "chunk", "pipe_size" }	/* bit i: key i */
#define ZC_USE_			0u
#define ZC_USES_DECLARED	0x100u
#define ZC_USES(...)		ZC_USES_(__VA_ARGS__, , )
#define ZC_USES_(a, b, ...)	(ZC_USES_DECLARED | ZC_USE_##a | ZC_USE_##b)

struct zc_conns;

struct zc_io {
	/* The run's settings a data path needs (the role copies them in). */
	uint64_t chunk;			/* bytes per data call */
	uint64_t pipe_size;		/* F_SETPIPE_SZ for the mode's pipes */
	const char *file_dir;		/* where file modes keep their payload file */
	int in_fd, out_fd;		/* sockets; -1 where the role has none */
	uint8_t *buf;			/* NUMA-local, touched before t0 */
	size_t buf_len;
	uint64_t period;		/* pattern period */
	const uint8_t *ref;		/* one period of the pattern (sink) */
	int file_fd;			/* payload file (ZC_MODE_FILE) */
	int pipe_r, pipe_w;		/* a pipe owned by the mode */
	int aux_r, aux_w;		/* a second pipe (tee's master) */
	int epfd;
	uint64_t pending;		/* bytes sitting in pipe_r */
	uint64_t fill_off;		/* stream offset of the next byte to fill */
	bool eof;			/* the peer closed (a sink's or proxy's input) */
	volatile sig_atomic_t *stop;	/* set by the role's timer */
	/*
	 * Many connections (zc_conns below): which one this is (the id its
	 * header carried); the state the mode shares between the connections
	 * of one worker (io_uring: the ring), NULL when it has its own; and
	 * whether the framework's event loop drives it (its sockets are then
	 * non-blocking already and it needs no epoll set of its own).
	 */
	uint32_t conn_id;
	void *shared;
	bool evloop;
	/* The mode's private state: priv_size bytes, zeroed, its options set
	 * (zc_mode_setup allocates it, zc_mode_teardown frees it). */
	void *priv;
	/* Connections that come and go (traffic = rr's proxy): the worker's
	 * pool its pipe comes from and goes back to (pipe.c), NULL: none. */
	struct zc_pipe_pool *pipe_pool;
	/* results, read at the window edges only */
	uint64_t bytes;			/* moved (sent, forwarded, received) */
	uint64_t calls;			/* data syscalls issued */
	uint64_t mismatch_off;		/* UINT64_MAX: none */
	bool verified;
	/*
	 * Figures only this mode knows (msg-zerocopy's copied fraction, io_uring
	 * enters...), a jansson object the mode builds by teardown; the role
	 * puts it in its report as "mode_report".
	 */
	struct json_t *mode_report;
};

/* A zc_io with every descriptor closed (-1) and no mismatch. */
#define ZC_IO_INIT .in_fd = -1, .out_fd = -1, .file_fd = -1, .pipe_r = -1, .pipe_w = -1, \
		   .aux_r = -1, .aux_w = -1, .epfd = -1, .mismatch_off = UINT64_MAX

/* A mode's own option: a key in the run's mode_opts (KEY=VALUE,...), stored
 * in its priv at off before setup. */
enum zc_mode_opt_type {
	ZC_MODE_OPT_LONG,	/* long */
	ZC_MODE_OPT_SIZE,	/* uint64_t, "64k" allowed */
	ZC_MODE_OPT_DOUBLE,	/* double */
};

struct zc_mode_opt {
	const char *key;	/* one namespace with the workload keys: prefix it */
	enum zc_mode_opt_type type;
	const char *def;
	double min, max;
	size_t off;		/* offsetof(the mode's priv struct, field) */
	const char *help;
};

struct zc_mode {
	const char *name;	/* from modes.h, through ZC_MODE(): never written here */
	enum zc_role role;
	unsigned flags;
	/* ZC_USES(...): the sizing keys it passes on (0: all), and its option
	 * that puts them all in use when not 0 (splice_chunk_cap), or NULL. */
	unsigned uses;
	const char *uses_opt;
	const char *summary;
	/* Short data path for tables (before-after); NULL: summary. */
	const char *path;

	/* --- relations: the headline and before-after come from these ----- */
	/* The headline ratio: this mode's Gbps per core over vs's, same role,
	 * the rest of the run key equal. NULL: not in the headline. */
	const struct zc_mode *vs;
	bool principal;		/* one of the mission's two ratios (splice/copy, tee/send) */
	/* NULL-terminated: the native modes whose patched-kernel behaviour this
	 * (emulated) mode stands for. Its runs are their "after" side. */
	const struct zc_mode *const *after_of;
	/* A peer mode (ZC_MODE_PEER): the zcbench mode that does its job, same
	 * role; the headline gives imitated_by's Gbps per core over this one's
	 * ("splice/haproxy-splice proxy"). */
	const struct zc_mode *imitated_by;
	const char *program;		/* a peer mode's program: "haproxy", "iperf3" */
	const char *unverified_why;	/* ZC_MODE_UNVERIFIED: why no sink can check it */

	/* --- options and state --------------------------------------------- */
	const struct zc_mode_opt *opts;	/* NULL, or ended by a { NULL } row */
	size_t priv_size;		/* io->priv, allocated and zeroed for setup */

	/* --- the data path --------------------------------------------------- */
	/* NULL when usable here, else why not (checked with a real call). */
	const char *(*unavailable)(void);
	int (*setup)(struct zc_io *io);		/* 0 or -errno */
	/*
	 * One of, by preference:
	 * step: one turn of the data path. Bytes moved (>= 0) or -errno; sets
	 *   io->eof when the peer closed and nothing is left to pass on. The
	 *   framework loops it as the pump, and the probe calls it once.
	 * fill: a pipe-filling source puts up to a chunk into io->pipe_w. Bytes
	 *   or -errno. The framework drains io->pipe_r to io->out_fd after
	 *   each fill (pump and probe step alike).
	 * pump: a loop that is genuinely the mode's own (epoll, io_uring):
	 *   move data until *io->stop; 0 on stop, 1 on EOF, -errno on error. A
	 *   pump mode may add a step for the probe alone.
	 */
	ssize_t (*step)(struct zc_io *io);
	ssize_t (*fill)(struct zc_io *io);
	int (*pump)(struct zc_io *io);
	void (*teardown)(struct zc_io *io);
	/*
	 * Optional: send on what the data path holds (io->pending) without
	 * taking more input, so that another mode can take the stream over at
	 * a slice's end (run key alternate, modes/alternate.c). 0 or -errno.
	 * A fill source needs none (its pending bytes sit in pipe_r and are
	 * drained for it); a proxy without one cannot alternate.
	 */
	int (*flush)(struct zc_io *io);

	/* --- many connections per worker ------------------------------------ */
	/*
	 * By default the framework's event loop (one edge-triggered epoll set
	 * per worker) runs each ready connection's step (or fill and drain)
	 * until it returns -EAGAIN: on non-blocking sockets a step must return
	 * -EAGAIN when it cannot progress and keep its state whole (a partial
	 * write counted, pending bytes kept). A connection is finished once
	 * io->eof is set and nothing is pending; the step that gets there
	 * shuts its output down. A worker with one connection runs the mode's
	 * own pump (or the step/fill pump), exactly as a single-connection run.
	 *
	 * A mode whose loop spans connections (io_uring: one ring per worker,
	 * requests tagged by connection) gives pump_conns, and shared_size
	 * bytes of state the framework allocates, sets up (shared_setup, before
	 * the connections' setup) and tears down (shared_teardown, before
	 * theirs); every connection's io->shared points at it.
	 */
	size_t shared_size;
	int (*shared_setup)(struct zc_conns *w);	/* 0 or -errno */
	int (*pump_conns)(struct zc_conns *w);		/* as pump */
	void (*shared_teardown)(struct zc_conns *w);
	/* Optional: after the last phase, finish what is in flight without
	 * starting more (io_uring sends), so a source's byte counts are what
	 * the sink will receive. 0 or -errno */
	int (*settle_conns)(struct zc_conns *w);
	/* Why this mode cannot serve more than one connection per worker
	 * (NULL: it can); said at run time, never silently. */
	const char *single_conn;
};

/*
 * One worker's connections (framework.c). The role fills io, n and stop;
 * zc_conns_setup does the rest.
 */
struct zc_conns {
	struct zc_io **io;
	size_t n;
	volatile sig_atomic_t *stop;	/* the current phase's flag */
	void *shared;			/* the mode's shared_size bytes */
	const char *driver;		/* "mode loop", "event loop" or "shared loop" */
	int epfd;			/* the event loop's, -1 none */
	uint32_t *list;			/* n entries: the ready list (event loop, io_uring) */
	bool *mark;			/* n entries: on the list */
	size_t nlist, ndone;
	uint64_t waits;			/* epoll_wait calls of the event loop */
};

#include "modes/modes.h"

#define ZC_MODE_DECLARE(ident, name)				\
	extern const char zc_mode_name_##ident[];		\
	extern const struct zc_mode zc_mode_##ident;
ZC_MODES(ZC_MODE_DECLARE)
#undef ZC_MODE_DECLARE

/*
 * Define the mode listed as X(ident, "name") in modes.h:
 *   ZC_MODE(send, .role = ZC_ROLE_SOURCE, .summary = "...", .step = send_step);
 * The name comes from the list (.name given again fails the build:
 * -Woverride-init).
 */
#define ZC_MODE(ident, ...) \
	const struct zc_mode zc_mode_##ident = { .name = zc_mode_name_##ident, __VA_ARGS__ }
/* Another mode, for relations: .vs = ZC_MODE_REF(send) */
#define ZC_MODE_REF(ident) (&zc_mode_##ident)
/* .after_of = ZC_AFTER_OF(ZC_MODE_REF(vmsplice), ZC_MODE_REF(vmsplice_gift)) */
#define ZC_AFTER_OF(...) ((const struct zc_mode *const[]){ __VA_ARGS__, NULL })
/* .opts = ZC_MODE_OPTS({ "key", ZC_MODE_OPT_LONG, "1", 0, 9, offsetof(...), "help" }) */
#define ZC_MODE_OPTS(...) ((const struct zc_mode_opt[]){ __VA_ARGS__, { NULL } })

extern const struct zc_mode *const zc_modes[];
extern const size_t zc_nmodes;

/* registry.c: the list, lookups, relations, zcbench list */
const struct zc_mode *zc_mode_find(enum zc_role role, const char *name);
const struct zc_mode *zc_mode_find_any(const char *name); /* any role */
/* Is m declared after_of native? */
bool zc_mode_is_after_of(const struct zc_mode *m, const struct zc_mode *native);
/* The modes declared after_of native, in list order: how many (at most max;
 * ZC_AFTERS_MAX is enough for any mode, tests/unit/test_modes.c checks). */
#define ZC_AFTERS_MAX 16
size_t zc_mode_afters(const struct zc_mode *native, const struct zc_mode **out, size_t max);
/* Can the probe run m's data path one step on pipes? */
bool zc_mode_probeable(const struct zc_mode *m);
/* zcbench list: every mode by role, its relations, options and (with
 * availability) why it cannot run here. */
void zc_modes_list(FILE *f, bool with_availability);
/* The same as JSON (zcbench list --json; schema in results/README.md): an
 * array of modes, each with role, summary, flags, relations, options and
 * (with availability) whether it can run here and why not. */
struct json_t *zc_modes_json(bool with_availability);
/* "chunk: not used" for the ZC_USE_ keys m does not pass on with its
 * default options ("(used with OPTION not 0)" when its uses_opt puts them
 * in use), "" when it uses all; into buf, which is returned. zcbench list
 * and the man page print it. */
const char *zc_mode_unused(const struct zc_mode *m, char *buf, size_t len);
/* One mode option as JSON: key, type, default, min, max, help. */
struct json_t *zc_mode_opt_json(const struct zc_mode_opt *o);

/* options.c: mode options, one "KEY=VALUE[,KEY=VALUE]" text per run */
/* The option called key and the mode declaring it; NULL when none. */
const struct zc_mode_opt *zc_mode_opt_find(const char *key, const struct zc_mode **owner);
/* m's own option called key ('-' as '_'), or NULL. Several modes may
 * declare one key (splice_chunk_cap: splice, splice-as-copy, uring-splice). */
const struct zc_mode_opt *zc_mode_own_opt(const struct zc_mode *m, const char *key);
/* Check a mode_opts text: every key declared by some mode, every value in
 * its bounds. 0, or -EINVAL with a message in err. */
int zc_mode_opts_check(const char *text, char *err, size_t errlen);
/* m's options into priv: defaults, then text's keys that m declares (keys
 * of other modes are skipped). 0, or -EINVAL with a message in err. */
int zc_mode_opts_apply(const struct zc_mode *m, void *priv, const char *text, char *err,
		       size_t errlen);
/* The modes' options for zcbench keys / --help. */
void zc_mode_opts_help(FILE *f);
/* One line: "key = default (type, min..max): help". */
void zc_mode_opt_print(FILE *f, const struct zc_mode_opt *o);
/* m's options in effect for a run whose mode_opts is text, as
 * "key=value,..." in declaration order ("" when m declares none): two runs
 * of m took the same options when these agree (the headline pairs by it).
 * 0, -EINVAL (a bad text: out "") or -ENOMEM. */
int zc_mode_opts_canon(const struct zc_mode *m, const char *text, char *out, size_t len);
/* The ZC_USE_ keys m passes on in a run whose mode_opts is text: its .uses
 * and those its options there put in use; ZC_USE_ALL when m is NULL, says
 * nothing, or text cannot be read. */
unsigned zc_mode_uses(const struct zc_mode *m, const char *text);
/* m's options in effect (defaults, then text's keys of m) as a jansson
 * object; NULL when m declares none. Call after zc_mode_setup. */
struct json_t *zc_mode_opts_json(const struct zc_mode *m, const struct zc_io *io);

/* framework.c: what the role, the probe and the tests call */
/*
 * Allocate io->priv (priv_size, zeroed), set m's options from their
 * defaults and from opts (the run's mode_opts text; NULL: defaults), then
 * m->setup. 0 or -errno with a message in err (which option was bad:
 * -EINVAL). Whatever it returns, zc_mode_teardown undoes it.
 */
int zc_mode_setup(const struct zc_mode *m, struct zc_io *io, const char *opts,
		  char *err, size_t errlen);
/* Move data until *io->stop: 0 on stop, 1 on EOF, -errno on error. */
int zc_mode_pump(const struct zc_mode *m, struct zc_io *io);
/* One step (the probe's): bytes or -errno; -EOPNOTSUPP without step/fill. */
ssize_t zc_mode_step(const struct zc_mode *m, struct zc_io *io);
/* m->teardown, then free io->priv. */
void zc_mode_teardown(const struct zc_mode *m, struct zc_io *io);

/*
 * A worker's connections (w->io, w->n, set by the caller): shared state,
 * each connection's zc_mode_setup, the event loop's epoll set. 0 or -errno
 * with a message in err (-EOPNOTSUPP: the mode serves one connection per
 * worker, and err says why). Whatever it returns, zc_conns_teardown undoes it.
 */
int zc_conns_setup(const struct zc_mode *m, struct zc_conns *w, const char *opts, char *err,
		   size_t errlen);
/* Move data on every connection until *w->stop: 0 on stop, 1 when every
 * connection is finished, -errno on error. */
int zc_conns_pump(const struct zc_mode *m, struct zc_conns *w);
void zc_conns_teardown(const struct zc_mode *m, struct zc_conns *w);
/* m->settle_conns when it has one: 0 or -errno. */
int zc_conns_settle(const struct zc_mode *m, struct zc_conns *w);
/* Why m cannot serve n connections on one worker, or NULL. */
const char *zc_conns_unsupported(const struct zc_mode *m, size_t n);
/* Make fd non-blocking: 0 or -errno. */
int zc_set_nonblock(int fd);

/*
 * alternate.c: two modes taking turns on the same connections (run key
 * alternate, role/slices.c). Why m cannot take turns with another mode on a
 * stream, or NULL.
 */
const char *zc_mode_alternate_why(const struct zc_mode *m);
/* Hand on what m holds of io's stream (m->flush, or its pipe drained),
 * waiting for the output where it is full; 0 or -errno (-ETIMEDOUT when the
 * output took nothing for 10 s, -EPROTO when m holds bytes it cannot hand). */
int zc_mode_flush(const struct zc_mode *m, struct zc_io *io);
/* Exchange what belongs to a mode's setup (priv, pipes, epoll set, file,
 * shared state, report) between a and b; the stream's state stays. */
void zc_io_swap_mode_state(struct zc_io *a, struct zc_io *b);
/* Every unfinished connection of w on its ready list: after a switch from
 * another set, its edge-triggered epoll set may hold no event for them. */
void zc_conns_all_ready(struct zc_conns *w);
/* flush helpers: io->pending bytes in pipe_r, or in buf at fill_off. */
int zc_flush_pipe(struct zc_io *io);
/* ... or handed to out (a forwarding loop's, as zc_fwd_ops: bytes, or -1
 * with errno, EAGAIN when full), which takes them from where the mode keeps them. */
int zc_flush_with(struct zc_io *io, ssize_t (*out)(struct zc_io *io, size_t len));
int zc_flush_buf(struct zc_io *io);

/* pipe.c: helpers shared by pipe-based modes (0 or -errno) */
/*
 * A worker's pipes for connections that come and go, as HAProxy's pipe pool
 * (src/pipe.c, get_pipe/put_pipe): with io->pipe_pool set, a mode's main
 * pipe (io->pipe_r/pipe_w) is taken from the pool when it holds one, and
 * given back at teardown when it is empty (io->pending == 0) and the pool
 * has room (max); a pipe with data in it, or past max, is closed. max 0: a
 * pipe per connection, each counted. Not thread-safe: one per worker.
 */
struct zc_pipe_pool {
	int (*fds)[2];
	size_t n, max;
	uint64_t created, reused, returned, closed;
};
int zc_pipe_pool_init(struct zc_pipe_pool *p, size_t max);
void zc_pipe_pool_free(struct zc_pipe_pool *p);
int zc_pipe_open(struct zc_io *io, int *r, int *w, uint64_t size, bool nonblock);
/* setup of a mode with one pipe (io->pipe_r/pipe_w) of pipe_size. 0/-errno */
int zc_pipe_setup(struct zc_io *io);
/* Drain io->pending bytes of io->pipe_r into io->out_fd with splice. */
int zc_pipe_drain(struct zc_io *io);
void zc_io_teardown_pipes(struct zc_io *io);
/* Proxies the HAProxy way: both sockets non-blocking, edge-triggered epoll. */
int zc_io_nonblock_epoll(struct zc_io *io);
/* Close the epoll set and the pipes. */
void zc_io_teardown_epoll(struct zc_io *io);
/* Create the payload file in io->file_dir (unlinked at once). */
int zc_payload_file(struct zc_io *io);
/* Close the payload file and the pipes. */
void zc_file_teardown(struct zc_io *io);
/* Bytes to take from the payload buffer at fill_off without wrapping. */
size_t zc_src_len(const struct zc_io *io);

#endif
