/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the io_uring modes: the ring machinery (uring.c) every uring-*.c
 * mode shares. The ring and its counts are the mode's priv (struct zc_uring,
 * priv_size = sizeof(struct zc_uring)).
 */
#ifndef ZC_URING_H
#define ZC_URING_H

#include "modes/mode.h"

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
/* send-zc notifications still owed by the kernel; past this, wait for one. */
#define UR_MAX_NOTIFS 128

enum ur_tag { UR_SEND = 1, UR_RECV, UR_SPLICE_IN, UR_SPLICE_OUT };

/* A uring mode's priv: its ring and what it counts on it. */
struct zc_uring {
	struct io_uring ring;
	bool up;
	const char *setup_flags;
	bool iowq_pinned;
	unsigned inflight;		/* data requests whose CQE has not come */
	uint64_t sqes;
	bool zc;			/* sends are SEND_ZC */
	unsigned zc_flags;
	bool usage_known;		/* the kernel took IORING_SEND_ZC_REPORT_USAGE */
	uint64_t notifs_pending, notifs, notifs_copied;
	bool linked;			/* proxy uring-splice: in -> out linked pairs */
	uint64_t want;			/* bytes each linked splice-in asks for */
	uint64_t short_links;		/* splice-in came back short: the linked out was cancelled */
	uint64_t retries;		/* -EINTR/-EAGAIN completions resubmitted */
};

/* Why the kernel cannot run these ops (real calls), or NULL. iowq: the
 * requests run in io-wq workers, which must be pinned to the role's CPU. */
const char *zc_ur_check(const int *ops, size_t nops, const char *const *names, bool iowq);
const char *zc_ur_unavail_send(void);
const char *zc_ur_unavail_send_zc(void);
const char *zc_ur_unavail_copy(void);
const char *zc_ur_unavail_splice(void);
/* Set up io->priv's ring. need_iowq: the mode's requests run in io-wq
 * workers. 0 or -errno */
int zc_ur_setup_ring(struct zc_io *io, bool need_iowq);
/* An SQE: the ring never holds more than a few, so NULL is a bug. */
struct io_uring_sqe *zc_ur_sqe(struct zc_uring *ur, enum ur_tag tag);
/* Submit what is queued and wait for a CQE. 0 (also on EINTR) or -errno. */
int zc_ur_enter(struct zc_io *io);
/* A failed completion: retry on -EINTR/-EAGAIN (1), else the error. */
int zc_ur_soft(struct zc_uring *ur, int res);
void zc_ur_teardown(struct zc_io *io);
/* Reap every source CQE there is (send, send-zc notifications). 0 or -errno. */
int zc_ur_src_reap(struct zc_io *io);
/* Pipe -> socket splice completions. 0 or -errno. */
int zc_ur_out_reap(struct zc_io *io);
/* The source loop of uring-send and uring-send-zc: one send in flight. */
int zc_ur_src_pump(struct zc_io *io);

#endif
