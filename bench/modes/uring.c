// SPDX-License-Identifier: GPL-2.0
/*
 * The io_uring family, one ring per role, set up before the clock:
 *
 *   source uring-send      IORING_OP_SEND from the pattern buffer
 *   source uring-send-zc   IORING_OP_SEND_ZC, notification CQEs reaped and
 *                          their "copied" usage bit counted (kernel >= 6.2)
 *   source uring-vmsplice  vmsplice() into a pipe (io_uring has no vmsplice),
 *                          then IORING_OP_SPLICE pipe -> socket
 *   proxy  uring-copy      IORING_OP_RECV into a user buffer, IORING_OP_SEND on
 *   proxy  uring-splice    IORING_OP_SPLICE socket -> pipe linked
 *                          (IOSQE_IO_LINK) to IORING_OP_SPLICE pipe -> socket
 *
 * One data request per socket is in flight at a time: TCP sends queued side
 * by side may complete short and out of order, and the sink checks every
 * byte at its stream offset. MSG_WAITALL makes io_uring retry a short send
 * itself; a short completion is still handled by resubmitting the rest.
 * The loop counts io_uring_enter() calls as its data syscalls (io->calls) and
 * the SQEs apart (mode_report.sqes).
 *
 * A worker with many connections has one ring for all of them (the modes'
 * shared state): each request's user_data carries its connection's index
 * and its kind, and the shared loop (zc_ur_pump_conns) queues a connection's
 * next request when one of its completions arrives, one per connection in
 * flight as above. A connection alone (zc_mode_setup) has a ring of its own
 * and the same loop over one connection.
 *
 * IORING_OP_SPLICE always runs in an io-wq worker thread. Those workers are
 * pinned to the role's CPU (io_uring_register_iowq_aff), otherwise their
 * work would land on another core and vanish from the busy figures.
 *
 * In-flight requests survive a pump() return at a window edge: the next
 * pump() (window, tail) reaps them, so no byte is counted twice or lost.
 * Each mode is its own file (uring_*.c); this one is the ring they share,
 * kept in the mode's priv.
 */
#include "modes/uring.h"

#include <errno.h>
#include <jansson.h>
#include <liburing.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* --- availability: real calls, the reason when they fail ------------------ */

/*
 * Why the kernel cannot run these ops (real calls), or NULL. iowq: the
 * mode's requests run in io-wq workers (IORING_OP_SPLICE always does); unless
 * they can be pinned to the role's CPU their work escapes the core being
 * measured, so the mode is unavailable rather than misleading.
 */
static const char *zc_ur_check(const int *ops, size_t nops, const char *const *names, bool iowq)
{
	static char why[256];
	struct io_uring_probe *p;
	struct io_uring r;
	int ret = io_uring_queue_init(4, &r, 0);

	if (ret) {
		char dis[16] = "";

		/* 1: only root and kernel.io_uring_group; 2: nobody (6.6+). */
		if (zc_read_file_trim("/proc/sys/kernel/io_uring_disabled", dis, sizeof(dis)) == 0 &&
		    strcmp(dis, "0"))
			snprintf(why, sizeof(why), "io_uring_setup: %s (kernel.io_uring_disabled = %s)",
				 strerror(-ret), dis);
		else
			snprintf(why, sizeof(why), "io_uring_setup: %s%s", strerror(-ret),
				 ret == -ENOSYS || ret == -EPERM ?
				 " (kernel without CONFIG_IO_URING, or a seccomp filter)" : "");
		return why;
	}
	p = io_uring_get_probe_ring(&r);
	if (!p) {
		io_uring_queue_exit(&r);
		snprintf(why, sizeof(why), "io_uring probe failed (kernel < 5.6)");
		return why;
	}
	for (size_t i = 0; i < nops; i++) {
		if (!io_uring_opcode_supported(p, ops[i])) {
			snprintf(why, sizeof(why), "kernel io_uring lacks %s", names[i]);
			io_uring_free_probe(p);
			io_uring_queue_exit(&r);
			return why;
		}
	}
	io_uring_free_probe(p);
	if (iowq) {
		cpu_set_t cpus;

		if (sched_getaffinity(0, sizeof(cpus), &cpus) ||
		    (ret = io_uring_register_iowq_aff(&r, sizeof(cpus), &cpus))) {
			snprintf(why, sizeof(why), "cannot pin io-wq workers (IORING_REGISTER_IOWQ_AFF, "
				 "5.14): %s; their work would escape the measured core",
				 strerror(ret ? -ret : errno));
			io_uring_queue_exit(&r);
			return why;
		}
	}
	io_uring_queue_exit(&r);
	return NULL;
}

const char *zc_ur_unavail_send(void)
{
	static const int ops[] = { IORING_OP_SEND };
	static const char *const names[] = { "IORING_OP_SEND (5.6)" };

	return zc_ur_check(ops, 1, names, false);
}

const char *zc_ur_unavail_send_zc(void)
{
#if UR_HAVE_SEND_ZC
	static const int ops[] = { IORING_OP_SEND_ZC };
	static const char *const names[] = { "IORING_OP_SEND_ZC (6.0)" };

	return zc_ur_check(ops, 1, names, false);
#else
	return "built against a liburing without IORING_OP_SEND_ZC (needs liburing >= 2.3)";
#endif
}

const char *zc_ur_unavail_copy(void)
{
	static const int ops[] = { IORING_OP_RECV, IORING_OP_SEND };
	static const char *const names[] = { "IORING_OP_RECV (5.6)", "IORING_OP_SEND (5.6)" };

	return zc_ur_check(ops, 2, names, false);
}

const char *zc_ur_unavail_splice(void)
{
	static const int ops[] = { IORING_OP_SPLICE };
	static const char *const names[] = { "IORING_OP_SPLICE (5.7)" };

	return zc_ur_check(ops, 1, names, true);
}

/* --- ring -------------------------------------------------------------- */

/* 0 or -errno; r->iowq_pinned says whether its io-wq workers are on the
 * caller's CPUs (the error, when not, in *iowq_err). */
static int ring_init(struct zc_ur_ring *r, unsigned entries, int *iowq_err)
{
	struct io_uring_params p = { 0 };
	cpu_set_t cpus;
	int ret;

	/* One task submits and reaps: let completions run only when it waits (6.1). */
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(entries, &r->ring, &p);
	r->setup_flags = "single_issuer|defer_taskrun";
	if (ret == -EINVAL) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params(entries, &r->ring, &p);
		r->setup_flags = "none";
	}
	if (ret)
		return ret;
	r->up = true;
	r->entries = entries;
	/*
	 * The worker is already pinned: give its io-wq workers the same CPU. The
	 * splice modes need it (their unavailable() checked); the others rarely
	 * punt to io-wq and only record whether they could.
	 */
	ret = sched_getaffinity(0, sizeof(cpus), &cpus) ? -errno :
	      io_uring_register_iowq_aff(&r->ring, sizeof(cpus), &cpus);
	r->iowq_pinned = ret == 0;
	*iowq_err = ret;
	return 0;
}

int zc_ur_setup_ring(struct zc_io *io, bool need_iowq)
{
	struct zc_uring *ur = io->priv;
	int ret, iowq_err = 0;

	if (io->shared) {
		ur->r = io->shared;
		return need_iowq && !ur->r->iowq_pinned ? -EPERM : 0;
	}
	ur->r = &ur->own;
	ret = ring_init(&ur->own, UR_ENTRIES, &iowq_err);
	return ret ? ret : need_iowq ? iowq_err : 0;
}

int zc_ur_shared_setup(struct zc_conns *w)
{
	unsigned entries = UR_ENTRIES;
	int iowq_err;

	/* A linked pair per connection in flight at once. */
	while (entries < 2 * w->n && entries < UR_ENTRIES_MAX)
		entries *= 2;
	return ring_init(w->shared, entries, &iowq_err);
}

struct io_uring_sqe *zc_ur_sqe(struct zc_io *io, enum ur_tag tag)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ur->r->ring);

	if (!sqe) {
		/* A worker's ring full of other connections' requests: send them. */
		io_uring_submit(&ur->r->ring);
		io->calls++;
		sqe = io_uring_get_sqe(&ur->r->ring);
	}
	if (sqe) {
		io_uring_sqe_set_data64(sqe, (uint64_t)ur->idx << 8 | tag);
		ur->sqes++;
		ur->inflight++;
	}
	return sqe;
}

/* Submit what is queued and wait for a CQE. 0 (also on EINTR) or -errno. */
static int ur_enter(struct zc_ur_ring *r, struct zc_io *io)
{
	struct io_uring_cqe *cqe;
	int ret;

	/* A CQE already there needs no syscall. */
	if (!io_uring_sq_ready(&r->ring) && io_uring_peek_cqe(&r->ring, &cqe) == 0)
		return 0;
	ret = io_uring_submit_and_wait(&r->ring, 1);
	io->calls++;
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return 0;
}

static void ur_report(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	json_t *r = json_object();

	json_object_set_new(r, "ring_setup_flags", json_string(ur->r->setup_flags ?: "none"));
	json_object_set_new(r, "iowq_pinned", json_boolean(ur->r->iowq_pinned));
	json_object_set_new(r, "sqes", json_integer(ur->sqes));
	json_object_set_new(r, "retries", json_integer(ur->retries));
	if (ur->zc) {
		json_object_set_new(r, "notifications", json_integer(ur->notifs));
		json_object_set_new(r, "notifications_pending", json_integer(ur->notifs_pending));
		json_object_set_new(r, "usage_reported", json_boolean(ur->usage_known));
		json_object_set_new(r, "notifications_copied",
				    ur->usage_known ? json_integer(ur->notifs_copied) : json_null());
		/* Whole role (warm-up, window, tail); null when the kernel cannot say. */
		json_object_set_new(r, "copied_fraction", ur->usage_known && ur->notifs ?
				    json_real((double)ur->notifs_copied / ur->notifs) : json_null());
		json_object_set_new(r, "max_outstanding", json_integer(UR_MAX_NOTIFS));
		if (ur->usage_known && ur->notifs_copied && ur->idx == 0) {
			/* On stderr too (once per worker): the table cannot tell a copied run apart. */
			zc_warn("uring-send-zc: the kernel copied %.0f%% of %llu SEND_ZC sends "
				"(local delivery always copies): not a zero-copy figure",
				100.0 * ur->notifs_copied / ur->notifs, (unsigned long long)ur->notifs);
			json_object_set_new(r, "note", json_string(
				"the kernel copied these IORING_OP_SEND_ZC sends "
				"(IORING_NOTIF_USAGE_ZC_COPIED): delivery to a local socket always "
				"copies, so this run is not a zero-copy figure"));
		}
	}
	if (ur->linked)
		json_object_set_new(r, "short_links", json_integer(ur->short_links));
	io->mode_report = r;
}

/*
 * Wait briefly (at most 1 s) for what is owed: every request in flight when
 * all is set, else only send-zc's last sends and notifications, so the
 * counts are complete (the stream is over already). Completions go to the
 * last pump's ops.
 */
static void ur_drain(struct zc_ur_ring *r, struct zc_io *const *io, size_t n, bool all)
{
	double until = zc_now() + 1.0;

	while (r->ops) {
		struct __kernel_timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
		struct io_uring_cqe *cqe;
		bool owed = false;

		for (size_t i = 0; i < n; i++) {
			struct zc_uring *ur = io[i]->priv;

			owed |= ur && ((all && ur->inflight) ||
				       (ur->zc && (ur->notifs_pending || ur->inflight)));
		}
		if (!owed || zc_now() >= until ||
		    io_uring_wait_cqe_timeout(&r->ring, &cqe, &ts))
			return;
		while (io_uring_peek_cqe(&r->ring, &cqe) == 0) {
			uint64_t ud = io_uring_cqe_get_data64(cqe);
			int res = cqe->res;
			unsigned flags = cqe->flags;

			io_uring_cqe_seen(&r->ring, cqe);
			if ((ud >> 8) < n && io[ud >> 8]->priv &&
			    r->ops->complete(io[ud >> 8], ud & 0xff, res, flags) < 0)
				return;
		}
	}
}

int zc_ur_settle(struct zc_conns *w)
{
	struct zc_uring *ur = w->io[0]->priv;

	if (ur && ur->r && ur->r->up)
		ur_drain(ur->r, w->io, w->n, true);
	return 0;
}

void zc_ur_shared_teardown(struct zc_conns *w)
{
	struct zc_ur_ring *r = w->shared;

	if (!r->up)
		return;
	ur_drain(r, w->io, w->n, false);
	/* Cancels whatever is still in flight (an io-wq splice, a blocked recv). */
	io_uring_queue_exit(&r->ring);
	r->up = false;
}

void zc_ur_teardown(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;

	if (ur->r == &ur->own && ur->own.up) {
		ur_drain(&ur->own, &io, 1, false);
		ur_report(io);
		io_uring_queue_exit(&ur->own.ring);
		ur->own.up = false;
	} else if (ur->r) {
		ur_report(io);
	}
	zc_io_teardown_pipes(io);
}

/* A failed completion: retry on -EINTR/-EAGAIN (1), else the error. */
int zc_ur_soft(struct zc_uring *ur, int res)
{
	if (res == -EINTR || res == -EAGAIN) {
		ur->retries++;
		return 1;
	}
	return res;
}

static void ur_finish(struct zc_conns *w, struct zc_uring *ur)
{
	if (!ur->done) {
		ur->done = true;
		w->ndone++;
	}
}

int zc_ur_pump_conns(struct zc_conns *w, const struct zc_ur_ops *ops)
{
	struct zc_io *io0 = w->io[0];
	struct zc_ur_ring *r = ((struct zc_uring *)io0->priv)->r;
	int ret;

	r->ops = ops;
	/* Every connection gets a prep at the start of a phase; after that only
	 * those a completion touched (the others still have requests in flight). */
	w->ndone = 0;
	for (size_t i = 0; i < w->n; i++) {
		struct zc_uring *ur = w->io[i]->priv;

		ur->idx = (uint32_t)i;
		if (ur->done)
			w->ndone++;
		else if (!w->mark[i]) {
			w->mark[i] = true;
			w->list[w->nlist++] = (uint32_t)i;
		}
	}
	while (!*w->stop) {
		struct io_uring_cqe *cqe;
		size_t n = w->nlist;

		w->nlist = 0;
		for (size_t j = 0; j < n; j++) {
			uint32_t i = w->list[j];
			struct zc_uring *ur = w->io[i]->priv;

			w->mark[i] = false;
			if (ur->done)
				continue;
			if ((ret = ops->prep(w->io[i])) < 0)
				return ret;
			if (ret == 1)
				ur_finish(w, ur);
		}
		if (w->ndone == w->n)
			return 1;
		if ((ret = ur_enter(r, io0)))
			return ret;
		while (io_uring_peek_cqe(&r->ring, &cqe) == 0) {
			uint64_t ud = io_uring_cqe_get_data64(cqe);
			uint32_t i = (uint32_t)(ud >> 8);
			int res = cqe->res;
			unsigned flags = cqe->flags;
			struct zc_uring *ur;

			io_uring_cqe_seen(&r->ring, cqe);
			if (i >= w->n)
				continue;
			ur = w->io[i]->priv;
			if ((ret = ops->complete(w->io[i], ud & 0xff, res, flags)) < 0)
				return ret;
			if (ret == 1)
				ur_finish(w, ur);
			if (!ur->done && !w->mark[i]) {
				w->mark[i] = true;
				w->list[w->nlist++] = i;
			}
		}
	}
	return 0;
}

int zc_ur_pump_one(struct zc_io *io, const struct zc_ur_ops *ops)
{
	uint32_t list[1];
	bool mark[1] = { false };
	struct zc_io *one[1] = { io };
	struct zc_conns w = { .io = one, .n = 1, .stop = io->stop, .list = list, .mark = mark };

	return zc_ur_pump_conns(&w, ops);
}

/* Pipe -> socket completions: 0 or -errno. */
int zc_ur_out_complete(struct zc_io *io, unsigned tag, int res, unsigned flags)
{
	struct zc_uring *ur = io->priv;

	(void)flags;
	ur->inflight--;
	if (tag == UR_SPLICE_IN) {
		if (res < 0 && (res = zc_ur_soft(ur, res)) < 0)
			return res;
		if (res == 0) {
			io->eof = true;
		} else if (res > 0) {
			io->pending += res;
			if (ur->linked && (uint64_t)res != ur->want)
				ur->short_links++;
		}
		return 0;
	}
	/* UR_SPLICE_OUT: -ECANCELED when its linked splice-in came back short. */
	if (res == -ECANCELED)
		return 0;
	if (res < 0 && (res = zc_ur_soft(ur, res)) < 0)
		return res;
	if (res == 0 && io->pending)
		return -EPIPE;
	if (res > 0) {
		io->pending -= res;
		io->bytes += res;
	}
	return 0;
}

/* A send's or a send-zc notification's completion: 0 or -errno. */
int zc_ur_src_complete(struct zc_io *io, unsigned tag, int res, unsigned flags)
{
	struct zc_uring *ur = io->priv;

	(void)tag;
	if (flags & IORING_CQE_F_NOTIF) {
		ur->notifs_pending--;
		ur->notifs++;
		if (res & IORING_NOTIF_USAGE_ZC_COPIED)
			ur->notifs_copied++;
		return 0;
	}
	ur->inflight--;
	/* A notification follows this CQE, even after a failure. */
	if (flags & IORING_CQE_F_MORE)
		ur->notifs_pending++;
	if (res < 0) {
		if (ur->zc && res == -EINVAL && !ur->usage_known &&
		    (ur->zc_flags & IORING_SEND_ZC_REPORT_USAGE)) {
			/* Kernel 6.0/6.1: no usage report; send without it. */
			ur->zc_flags &= ~IORING_SEND_ZC_REPORT_USAGE;
			return 0;
		}
		return (res = zc_ur_soft(ur, res)) < 0 ? res : 0;
	}
	if (ur->zc && (ur->zc_flags & IORING_SEND_ZC_REPORT_USAGE))
		ur->usage_known = true;
	io->fill_off += res;
	io->bytes += res;
	return 0;
}

int zc_ur_src_prep(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;

	if (!ur->inflight && ur->notifs_pending < UR_MAX_NOTIFS) {
		struct io_uring_sqe *sqe = zc_ur_sqe(io, UR_SEND);
		void *p = io->buf + io->fill_off % io->period;
		size_t len = zc_src_len(io);

		if (!sqe)
			return -EOVERFLOW;
#if UR_HAVE_SEND_ZC
		if (ur->zc)
			io_uring_prep_send_zc(sqe, io->out_fd, p, len, MSG_WAITALL, ur->zc_flags);
		else
#endif
			io_uring_prep_send(sqe, io->out_fd, p, len, MSG_WAITALL);
	}
	return 0;
}
