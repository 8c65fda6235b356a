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
 * iowq: the mode's requests run in io-wq workers (IORING_OP_SPLICE always
 * does); unless they can be pinned to the role's CPU their work escapes the
 * core being measured, so the mode is unavailable rather than misleading.
 */
const char *zc_ur_check(const int *ops, size_t nops, const char *const *names, bool iowq)
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

/* need_iowq: the mode's requests run in io-wq workers. 0 or -errno */
int zc_ur_setup_ring(struct zc_io *io, bool need_iowq)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_params p = { 0 };
	cpu_set_t cpus;
	int ret;

	/* One task submits and reaps: let completions run only when it waits (6.1). */
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(UR_ENTRIES, &ur->ring, &p);
	ur->setup_flags = "single_issuer|defer_taskrun";
	if (ret == -EINVAL) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params(UR_ENTRIES, &ur->ring, &p);
		ur->setup_flags = "none";
	}
	if (ret)
		return ret;
	ur->up = true;
	/*
	 * The role is already pinned: give its io-wq workers the same CPU. The
	 * splice modes need it (their unavailable() checked); the others rarely
	 * punt to io-wq and only record whether they could.
	 */
	ret = sched_getaffinity(0, sizeof(cpus), &cpus) ? -errno :
	      io_uring_register_iowq_aff(&ur->ring, sizeof(cpus), &cpus);
	ur->iowq_pinned = ret == 0;
	return need_iowq ? ret : 0;
}

/* An SQE: the ring never holds more than a few, so NULL is a bug. */
struct io_uring_sqe *zc_ur_sqe(struct zc_uring *ur, enum ur_tag tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ur->ring);

	if (sqe) {
		io_uring_sqe_set_data64(sqe, tag);
		ur->sqes++;
		ur->inflight++;
	}
	return sqe;
}

/* Submit what is queued and wait for a CQE. 0 (also on EINTR) or -errno. */
int zc_ur_enter(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_cqe *cqe;
	int ret;

	/* A CQE already there needs no syscall. */
	if (!io_uring_sq_ready(&ur->ring) && io_uring_peek_cqe(&ur->ring, &cqe) == 0)
		return 0;
	ret = io_uring_submit_and_wait(&ur->ring, 1);
	io->calls++;
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return 0;
}

static void ur_report(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	json_t *r = json_object();

	json_object_set_new(r, "ring_setup_flags", json_string(ur->setup_flags ?: "none"));
	json_object_set_new(r, "iowq_pinned", json_boolean(ur->iowq_pinned));
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
		if (ur->usage_known && ur->notifs_copied) {
			/* On stderr too: the human table cannot tell a copied run apart. */
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

void zc_ur_teardown(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	double until = zc_now() + 1.0;

	if (ur->up) {
		/*
		 * send-zc: wait briefly for the last send CQE and the notifications
		 * still owed, so the counts are complete (the stream is over already).
		 */
		while (ur->zc && (ur->notifs_pending || ur->inflight) && zc_now() < until) {
			struct __kernel_timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
			struct io_uring_cqe *cqe;

			if (io_uring_wait_cqe_timeout(&ur->ring, &cqe, &ts) == 0 && zc_ur_src_reap(io) < 0)
				break;
		}
		ur_report(io);
		/* Cancels whatever is still in flight (an io-wq splice, a blocked recv). */
		io_uring_queue_exit(&ur->ring);
		ur->up = false;
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

/* Pipe -> socket completions. 0 or -errno. */
int zc_ur_out_reap(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur->ring, &cqe) == 0) {
		int res = cqe->res;
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		io_uring_cqe_seen(&ur->ring, cqe);
		ur->inflight--;
		if (tag == UR_SPLICE_IN) {
			if (res < 0 && (res = zc_ur_soft(ur, res)) < 0)
				return res;
			if (res == 0) {
				io->eof = true;
			} else if (res > 0) {
				io->pending += res;
				if ((uint64_t)res != ur->want)
					ur->short_links++;
			}
			continue;
		}
		/* UR_SPLICE_OUT: -ECANCELED when its linked splice-in came back short. */
		if (res == -ECANCELED)
			continue;
		if (res < 0 && (res = zc_ur_soft(ur, res)) < 0)
			return res;
		if (res == 0 && io->pending)
			return -EPIPE;
		if (res > 0) {
			io->pending -= res;
			io->bytes += res;
		}
	}
	return 0;
}

/* Reap every CQE there is. 0 or -errno. */
int zc_ur_src_reap(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur->ring, &cqe) == 0) {
		int res = cqe->res;
		unsigned flags = cqe->flags;

		io_uring_cqe_seen(&ur->ring, cqe);
		if (flags & IORING_CQE_F_NOTIF) {
			ur->notifs_pending--;
			ur->notifs++;
			if (res & IORING_NOTIF_USAGE_ZC_COPIED)
				ur->notifs_copied++;
			continue;
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
				continue;
			}
			if ((res = zc_ur_soft(ur, res)) < 0)
				return res;
			continue;
		}
		if (ur->zc && (ur->zc_flags & IORING_SEND_ZC_REPORT_USAGE))
			ur->usage_known = true;
		io->fill_off += res;
		io->bytes += res;
	}
	return 0;
}

int zc_ur_src_pump(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	int ret;

	while (!*io->stop) {
		if (!ur->inflight && ur->notifs_pending < UR_MAX_NOTIFS) {
			struct io_uring_sqe *sqe = zc_ur_sqe(ur, UR_SEND);
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
		if ((ret = zc_ur_enter(io)) || (ret = zc_ur_src_reap(io)))
			return ret;
	}
	return 0;
}
