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
 */
#include "modes/mode.h"

#include <errno.h>
#include <jansson.h>
#include <liburing.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

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

static struct {
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
} ur;

/* --- availability: real calls, the reason when they fail ------------------ */

/*
 * iowq: the mode's requests run in io-wq workers (IORING_OP_SPLICE always
 * does); unless they can be pinned to the role's CPU their work escapes the
 * core being measured, so the mode is unavailable rather than misleading.
 */
static const char *ur_check(const int *ops, size_t nops, const char *const *names, bool iowq)
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

static const char *ur_unavail_send(void)
{
	static const int ops[] = { IORING_OP_SEND };
	static const char *const names[] = { "IORING_OP_SEND (5.6)" };

	return ur_check(ops, 1, names, false);
}

static const char *ur_unavail_send_zc(void)
{
#if UR_HAVE_SEND_ZC
	static const int ops[] = { IORING_OP_SEND_ZC };
	static const char *const names[] = { "IORING_OP_SEND_ZC (6.0)" };

	return ur_check(ops, 1, names, false);
#else
	return "built against a liburing without IORING_OP_SEND_ZC (needs liburing >= 2.3)";
#endif
}

static const char *ur_unavail_copy(void)
{
	static const int ops[] = { IORING_OP_RECV, IORING_OP_SEND };
	static const char *const names[] = { "IORING_OP_RECV (5.6)", "IORING_OP_SEND (5.6)" };

	return ur_check(ops, 2, names, false);
}

static const char *ur_unavail_splice(void)
{
	static const int ops[] = { IORING_OP_SPLICE };
	static const char *const names[] = { "IORING_OP_SPLICE (5.7)" };

	return ur_check(ops, 1, names, true);
}

/* --- ring -------------------------------------------------------------- */

/* need_iowq: the mode's requests run in io-wq workers. 0 or -errno */
static int ur_setup_ring(bool need_iowq)
{
	struct io_uring_params p = { 0 };
	cpu_set_t cpus;
	int ret;

	memset(&ur, 0, sizeof(ur));
	/* One task submits and reaps: let completions run only when it waits (6.1). */
	p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	ret = io_uring_queue_init_params(UR_ENTRIES, &ur.ring, &p);
	ur.setup_flags = "single_issuer|defer_taskrun";
	if (ret == -EINVAL) {
		memset(&p, 0, sizeof(p));
		ret = io_uring_queue_init_params(UR_ENTRIES, &ur.ring, &p);
		ur.setup_flags = "none";
	}
	if (ret)
		return ret;
	ur.up = true;
	/*
	 * The role is already pinned: give its io-wq workers the same CPU. The
	 * splice modes need it (their unavailable() checked); the others rarely
	 * punt to io-wq and only record whether they could.
	 */
	ret = sched_getaffinity(0, sizeof(cpus), &cpus) ? -errno :
	      io_uring_register_iowq_aff(&ur.ring, sizeof(cpus), &cpus);
	ur.iowq_pinned = ret == 0;
	return need_iowq ? ret : 0;
}

/* An SQE: the ring never holds more than a few, so NULL is a bug. */
static struct io_uring_sqe *ur_sqe(enum ur_tag tag)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ur.ring);

	if (sqe) {
		io_uring_sqe_set_data64(sqe, tag);
		ur.sqes++;
		ur.inflight++;
	}
	return sqe;
}

/* Submit what is queued and wait for a CQE. 0 (also on EINTR) or -errno. */
static int ur_enter(struct zc_io *io)
{
	struct io_uring_cqe *cqe;
	int ret;

	/* A CQE already there needs no syscall. */
	if (!io_uring_sq_ready(&ur.ring) && io_uring_peek_cqe(&ur.ring, &cqe) == 0)
		return 0;
	ret = io_uring_submit_and_wait(&ur.ring, 1);
	io->calls++;
	if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
		return ret;
	return 0;
}

static void ur_report(struct zc_io *io)
{
	json_t *r = json_object();

	json_object_set_new(r, "ring_setup_flags", json_string(ur.setup_flags ?: "none"));
	json_object_set_new(r, "iowq_pinned", json_boolean(ur.iowq_pinned));
	json_object_set_new(r, "sqes", json_integer(ur.sqes));
	json_object_set_new(r, "retries", json_integer(ur.retries));
	if (ur.zc) {
		json_object_set_new(r, "notifications", json_integer(ur.notifs));
		json_object_set_new(r, "notifications_pending", json_integer(ur.notifs_pending));
		json_object_set_new(r, "usage_reported", json_boolean(ur.usage_known));
		json_object_set_new(r, "notifications_copied",
				    ur.usage_known ? json_integer(ur.notifs_copied) : json_null());
		/* Whole role (warm-up, window, tail); null when the kernel cannot say. */
		json_object_set_new(r, "copied_fraction", ur.usage_known && ur.notifs ?
				    json_real((double)ur.notifs_copied / ur.notifs) : json_null());
		json_object_set_new(r, "max_outstanding", json_integer(UR_MAX_NOTIFS));
		if (ur.usage_known && ur.notifs_copied) {
			/* On stderr too: the human table cannot tell a copied run apart. */
			zc_warn("uring-send-zc: the kernel copied %.0f%% of %llu SEND_ZC sends "
				"(local delivery always copies): not a zero-copy figure",
				100.0 * ur.notifs_copied / ur.notifs, (unsigned long long)ur.notifs);
			json_object_set_new(r, "note", json_string(
				"the kernel copied these IORING_OP_SEND_ZC sends "
				"(IORING_NOTIF_USAGE_ZC_COPIED): delivery to a local socket always "
				"copies, so this run is not a zero-copy figure"));
		}
	}
	if (ur.linked)
		json_object_set_new(r, "short_links", json_integer(ur.short_links));
	io->mode_report = r;
}

static int src_reap(struct zc_io *io);

static void ur_teardown(struct zc_io *io)
{
	double until = zc_now() + 1.0;

	if (ur.up) {
		/*
		 * send-zc: wait briefly for the last send CQE and the notifications
		 * still owed, so the counts are complete (the stream is over already).
		 */
		while (ur.zc && (ur.notifs_pending || ur.inflight) && zc_now() < until) {
			struct __kernel_timespec ts = { .tv_nsec = 100 * 1000 * 1000 };
			struct io_uring_cqe *cqe;

			if (io_uring_wait_cqe_timeout(&ur.ring, &cqe, &ts) == 0 && src_reap(io) < 0)
				break;
		}
		ur_report(io);
		/* Cancels whatever is still in flight (an io-wq splice, a blocked recv). */
		io_uring_queue_exit(&ur.ring);
		ur.up = false;
	}
	zc_io_teardown_pipes(io);
}

/* A failed completion: retry on -EINTR/-EAGAIN (1), else the error. */
static int ur_soft(int res)
{
	if (res == -EINTR || res == -EAGAIN) {
		ur.retries++;
		return 1;
	}
	return res;
}

/* --- sources: send, send-zc ------------------------------------------------ */

/* Reap every CQE there is. 0 or -errno. */
static int src_reap(struct zc_io *io)
{
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur.ring, &cqe) == 0) {
		int res = cqe->res;
		unsigned flags = cqe->flags;

		io_uring_cqe_seen(&ur.ring, cqe);
		if (flags & IORING_CQE_F_NOTIF) {
			ur.notifs_pending--;
			ur.notifs++;
			if (res & IORING_NOTIF_USAGE_ZC_COPIED)
				ur.notifs_copied++;
			continue;
		}
		ur.inflight--;
		/* A notification follows this CQE, even after a failure. */
		if (flags & IORING_CQE_F_MORE)
			ur.notifs_pending++;
		if (res < 0) {
			if (ur.zc && res == -EINVAL && !ur.usage_known &&
			    (ur.zc_flags & IORING_SEND_ZC_REPORT_USAGE)) {
				/* Kernel 6.0/6.1: no usage report; send without it. */
				ur.zc_flags &= ~IORING_SEND_ZC_REPORT_USAGE;
				continue;
			}
			if ((res = ur_soft(res)) < 0)
				return res;
			continue;
		}
		if (ur.zc && (ur.zc_flags & IORING_SEND_ZC_REPORT_USAGE))
			ur.usage_known = true;
		io->fill_off += res;
		io->bytes += res;
	}
	return 0;
}

static int src_pump(struct zc_io *io)
{
	int ret;

	while (!*io->stop) {
		if (!ur.inflight && ur.notifs_pending < UR_MAX_NOTIFS) {
			struct io_uring_sqe *sqe = ur_sqe(UR_SEND);
			void *p = io->buf + io->fill_off % io->period;
			size_t len = zc_src_len(io);

			if (!sqe)
				return -EOVERFLOW;
#if UR_HAVE_SEND_ZC
			if (ur.zc)
				io_uring_prep_send_zc(sqe, io->out_fd, p, len, MSG_WAITALL, ur.zc_flags);
			else
#endif
				io_uring_prep_send(sqe, io->out_fd, p, len, MSG_WAITALL);
		}
		if ((ret = ur_enter(io)) || (ret = src_reap(io)))
			return ret;
	}
	return 0;
}

static int send_setup(struct zc_io *io)
{
	(void)io;
	return ur_setup_ring(false);
}

static int send_zc_setup(struct zc_io *io)
{
	int ret = ur_setup_ring(false);

	(void)io;
	ur.zc = true;
	ur.zc_flags = IORING_SEND_ZC_REPORT_USAGE;
	return ret;
}

/* --- source uring-vmsplice ------------------------------------------------ */

static int vms_setup(struct zc_io *io)
{
	int ret = ur_setup_ring(true);

	return ret ? ret : zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

/* Pipe -> socket completions. 0 or -errno. */
static int out_reap(struct zc_io *io)
{
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur.ring, &cqe) == 0) {
		int res = cqe->res;
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		io_uring_cqe_seen(&ur.ring, cqe);
		ur.inflight--;
		if (tag == UR_SPLICE_IN) {
			if (res < 0 && (res = ur_soft(res)) < 0)
				return res;
			if (res == 0) {
				io->eof = true;
			} else if (res > 0) {
				io->pending += res;
				if ((uint64_t)res != ur.want)
					ur.short_links++;
			}
			continue;
		}
		/* UR_SPLICE_OUT: -ECANCELED when its linked splice-in came back short. */
		if (res == -ECANCELED)
			continue;
		if (res < 0 && (res = ur_soft(res)) < 0)
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

static int vms_pump(struct zc_io *io)
{
	int ret;

	while (!*io->stop) {
		if (!ur.inflight) {
			struct io_uring_sqe *sqe;

			if (!io->pending) {
				struct iovec iov = {
					.iov_base = io->buf + io->fill_off % io->period,
					.iov_len = zc_src_len(io),
				};
				ssize_t n = vmsplice(io->pipe_w, &iov, 1, 0);

				io->calls++;
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					return -errno;
				io->fill_off += n;
				io->pending = n;
			}
			if (!(sqe = ur_sqe(UR_SPLICE_OUT)))
				return -EOVERFLOW;
			io_uring_prep_splice(sqe, io->pipe_r, -1, io->out_fd, -1, io->pending,
					     SPLICE_F_MOVE);
		}
		if ((ret = ur_enter(io)) || (ret = out_reap(io)))
			return ret;
	}
	return 0;
}

/* --- proxy uring-copy ------------------------------------------------------ */

static int copy_setup(struct zc_io *io)
{
	(void)io;
	return ur_setup_ring(false);
}

/* 0, 1 on EOF (write side shut), or -errno. */
static int copy_reap(struct zc_io *io)
{
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur.ring, &cqe) == 0) {
		int res = cqe->res;
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		io_uring_cqe_seen(&ur.ring, cqe);
		ur.inflight--;
		if (res < 0) {
			if ((res = ur_soft(res)) < 0)
				return res;
			continue;
		}
		if (tag == UR_RECV) {
			if (res == 0) {
				shutdown(io->out_fd, SHUT_WR);
				return 1;
			}
			/* fill_off is the send position inside the buffer here. */
			io->pending = res;
			io->fill_off = 0;
		} else {
			io->pending -= res;
			io->fill_off += res;
			io->bytes += res;
		}
	}
	return 0;
}

static int copy_pump(struct zc_io *io)
{
	int ret;

	while (!*io->stop) {
		if (!ur.inflight) {
			struct io_uring_sqe *sqe = ur_sqe(io->pending ? UR_SEND : UR_RECV);

			if (!sqe)
				return -EOVERFLOW;
			if (io->pending)
				io_uring_prep_send(sqe, io->out_fd, io->buf + io->fill_off,
						   io->pending, MSG_WAITALL);
			else
				io_uring_prep_recv(sqe, io->in_fd, io->buf, io->chunk, 0);
		}
		if ((ret = ur_enter(io)) || (ret = copy_reap(io)))
			return ret;
	}
	return 0;
}

/* --- proxy uring-splice ---------------------------------------------------- */

static int splice_setup(struct zc_io *io)
{
	int ret = ur_setup_ring(true);

	ur.linked = true;
	/* A splice-in longer than the pipe would always come back short. */
	ur.want = io->chunk < io->pipe_size ? io->chunk : io->pipe_size;
	return ret ? ret : zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

static int splice_pump(struct zc_io *io)
{
	uint64_t want = ur.want;
	int ret;

	while (!*io->stop) {
		if (!ur.inflight) {
			struct io_uring_sqe *in, *out;

			if (io->eof && !io->pending) {
				shutdown(io->out_fd, SHUT_WR);
				return 1;
			}
			if (io->pending) {
				/* What a short splice-in or splice-out left in the pipe. */
				if (!(out = ur_sqe(UR_SPLICE_OUT)))
					return -EOVERFLOW;
				io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1,
						     io->pending, SPLICE_F_MOVE);
			} else {
				if (!(in = ur_sqe(UR_SPLICE_IN)) || !(out = ur_sqe(UR_SPLICE_OUT)))
					return -EOVERFLOW;
				io_uring_prep_splice(in, io->in_fd, -1, io->pipe_w, -1, want,
						     SPLICE_F_MOVE);
				/* A short splice-in breaks the link: out is then cancelled. */
				in->flags |= IOSQE_IO_LINK;
				io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1, want,
						     SPLICE_F_MOVE);
			}
		}
		if ((ret = ur_enter(io)) || (ret = out_reap(io)))
			return ret;
	}
	return 0;
}

/* --- the modes ------------------------------------------------------------- */

const struct zc_mode zc_mode_uring_send = {
	.name = "uring-send",
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND from a user buffer (copy), one in flight",
	.unavailable = ur_unavail_send,
	.setup = send_setup,
	.pump = src_pump,
	.teardown = ur_teardown,
};

const struct zc_mode zc_mode_uring_send_zc = {
	.name = "uring-send-zc",
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND_ZC, notifications reaped, copied ones counted",
	.unavailable = ur_unavail_send_zc,
	.setup = send_zc_setup,
	.pump = src_pump,
	.teardown = ur_teardown,
};

const struct zc_mode zc_mode_uring_vmsplice = {
	.name = "uring-vmsplice",
	.role = ZC_ROLE_SOURCE,
	.summary = "vmsplice() into a pipe, io_uring IORING_OP_SPLICE pipe -> socket",
	.unavailable = ur_unavail_splice,
	.setup = vms_setup,
	.pump = vms_pump,
	.teardown = ur_teardown,
};

const struct zc_mode zc_mode_uring_copy = {
	.name = "uring-copy",
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_RECV into a user buffer, IORING_OP_SEND it on",
	.unavailable = ur_unavail_copy,
	.setup = copy_setup,
	.pump = copy_pump,
	.teardown = ur_teardown,
};

const struct zc_mode zc_mode_uring_splice = {
	.name = "uring-splice",
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_SPLICE socket -> pipe -> socket, linked (IOSQE_IO_LINK)",
	.unavailable = ur_unavail_splice,
	.setup = splice_setup,
	.pump = splice_pump,
	.teardown = ur_teardown,
};
