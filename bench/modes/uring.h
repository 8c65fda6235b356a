/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the io_uring modes: the ring machinery (uring.c) every uring-*.c
 * mode shares. The ring and its counts are the mode's priv (struct zc_uring,
 * priv_size = sizeof(struct zc_uring)).
 */
#ifndef ZC_URING_H
#define ZC_URING_H

#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <liburing.h>

/* Kernel >= 6.2 reports in the notification whether the pages were copied. */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif
/* IORING_CQE_F_NOTIF arrived in the same liburing release as SEND_ZC (2.3). */
#ifdef IORING_CQE_F_NOTIF
#define UR_HAVE_SEND_ZC 1
#else
#define UR_HAVE_SEND_ZC 0
#define IORING_CQE_F_NOTIF (1U << 3)
#endif

#define UR_ENTRIES 64
/* A worker's shared ring: room for this many SQEs per connection (a linked
 * pair), up to UR_ENTRIES_MAX. */
#define UR_ENTRIES_MAX 4096
/* send-zc notifications still owed by the kernel; past this, wait for one. */
#define UR_MAX_NOTIFS 128

enum ur_tag { UR_SEND = 1, UR_RECV, UR_SPLICE_IN, UR_SPLICE_OUT };

struct zc_ur_ops;

/* A ring: one per worker (the mode's shared state, for all its connections),
 * or a connection's own when it is set up alone (zc_mode_setup). */
struct zc_ur_ring {
	struct io_uring ring;
	bool up;
	const char *setup_flags;
	bool iowq_pinned;
	unsigned entries;
	const struct zc_ur_ops *ops;	/* of the last pump: the drain's completions */
};

/* A uring mode's priv: one connection's requests and what it counts. */
struct zc_uring {
	struct zc_ur_ring own;
	struct zc_ur_ring *r;		/* &own, or the worker's (io->shared) */
	uint32_t idx;			/* the connection's index in its worker: CQE tags */
	bool done;			/* finished (EOF passed on) */
	unsigned inflight;		/* data requests whose CQE has not come */
	uint64_t sqes;
	bool zc;			/* sends are SEND_ZC */
	unsigned zc_flags;
	bool usage_known;		/* the kernel took IORING_SEND_ZC_REPORT_USAGE */
	uint64_t notifs_pending, notifs, notifs_copied;
	/* proxy uring-splice: its splice_chunk_cap (struct zc_fwd, mode_shared.h) */
	struct zc_fwd fwd;
	bool linked;			/* proxy uring-splice: in -> out linked pairs */
	uint64_t want;			/* bytes each splice-in asks for */
	uint64_t short_links;		/* splice-in came back short: the linked out was cancelled */
	uint64_t retries;		/* -EINTR/-EAGAIN completions resubmitted */
};

/*
 * A mode's data path as two halves the shared loop drives for every
 * connection of a worker:
 * prep: queue the connection's next request(s) when it has none in flight:
 *   0, 1 when it is finished (EOF passed on), -errno;
 * complete: one of its CQEs (tag, res, cqe flags): 0, 1 when it is finished,
 *   -errno.
 */
struct zc_ur_ops {
	int (*prep)(struct zc_io *io);
	int (*complete)(struct zc_io *io, unsigned tag, int res, unsigned flags);
};

const char *zc_ur_unavail_send(void);
const char *zc_ur_unavail_send_zc(void);
const char *zc_ur_unavail_copy(void);
const char *zc_ur_unavail_splice(void);
/* A connection's part of the setup: the worker's ring (io->shared), or a ring
 * of its own. need_iowq: the mode's requests run in io-wq workers. 0/-errno */
int zc_ur_setup_ring(struct zc_io *io, bool need_iowq);
/* shared_setup / shared_teardown of every uring mode: the worker's ring,
 * sized for its connections; the teardown waits for what is owed first. */
int zc_ur_shared_setup(struct zc_conns *w);
void zc_ur_shared_teardown(struct zc_conns *w);
/* An SQE tagged with the connection (submitting first when the ring is full);
 * NULL is a bug. */
struct io_uring_sqe *zc_ur_sqe(struct zc_io *io, enum ur_tag tag);
/* A failed completion: retry on -EINTR/-EAGAIN (1), else the error. */
int zc_ur_soft(struct zc_uring *ur, int res);
/* A connection's teardown: its report; with a ring of its own, the wait for
 * what is owed and the ring's exit too. */
void zc_ur_teardown(struct zc_io *io);
/* The shared loop: every connection of w through ops, one ring. As pump. */
int zc_ur_pump_conns(struct zc_conns *w, const struct zc_ur_ops *ops);
/* settle_conns of every uring mode: reap what is in flight (at most 1 s). */
int zc_ur_settle(struct zc_conns *w);
/* The same for one connection alone (the mode's pump). */
int zc_ur_pump_one(struct zc_io *io, const struct zc_ur_ops *ops);
/* The source halves of uring-send and uring-send-zc: one send in flight. */
int zc_ur_src_prep(struct zc_io *io);
int zc_ur_src_complete(struct zc_io *io, unsigned tag, int res, unsigned flags);
/* Pipe -> socket splice completions (uring-vmsplice, uring-splice). */
int zc_ur_out_complete(struct zc_io *io, unsigned tag, int res, unsigned flags);

/* A uring mode's declarations, the same for each: */
#define ZC_UR_MODE_COMMON					\
	.priv_size = sizeof(struct zc_uring),			\
	.shared_size = sizeof(struct zc_ur_ring),		\
	.shared_setup = zc_ur_shared_setup,			\
	.shared_teardown = zc_ur_shared_teardown,		\
	.settle_conns = zc_ur_settle,				\
	.teardown = zc_ur_teardown

#endif
