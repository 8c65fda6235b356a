// SPDX-License-Identifier: GPL-2.0
/* io_uring sources: uring-send, uring-send-zc (notifications reaped, copies
 * counted) and uring-vmsplice (vmsplice, then IORING_OP_SPLICE to the socket). */
#include "modes/uring.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int src_pump(struct zc_io *io)
{
	int ret;

	while (!*io->stop) {
		if (!zc_ur.inflight && zc_ur.notifs_pending < UR_MAX_NOTIFS) {
			struct io_uring_sqe *sqe = zc_ur_sqe(UR_SEND);
			void *p = io->buf + io->fill_off % io->period;
			size_t len = zc_src_len(io);

			if (!sqe)
				return -EOVERFLOW;
#if UR_HAVE_SEND_ZC
			if (zc_ur.zc)
				io_uring_prep_send_zc(sqe, io->out_fd, p, len, MSG_WAITALL, zc_ur.zc_flags);
			else
#endif
				io_uring_prep_send(sqe, io->out_fd, p, len, MSG_WAITALL);
		}
		if ((ret = zc_ur_enter(io)) || (ret = zc_ur_src_reap(io)))
			return ret;
	}
	return 0;
}

static int send_setup(struct zc_io *io)
{
	(void)io;
	return zc_ur_setup_ring(false);
}

static int send_zc_setup(struct zc_io *io)
{
	int ret = zc_ur_setup_ring(false);

	(void)io;
	zc_ur.zc = true;
	zc_ur.zc_flags = IORING_SEND_ZC_REPORT_USAGE;
	return ret;
}

static int vms_setup(struct zc_io *io)
{
	int ret = zc_ur_setup_ring(true);

	return ret ? ret : zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

static int vms_pump(struct zc_io *io)
{
	int ret;

	while (!*io->stop) {
		if (!zc_ur.inflight) {
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
			if (!(sqe = zc_ur_sqe(UR_SPLICE_OUT)))
				return -EOVERFLOW;
			io_uring_prep_splice(sqe, io->pipe_r, -1, io->out_fd, -1, io->pending,
					     SPLICE_F_MOVE);
		}
		if ((ret = zc_ur_enter(io)) || (ret = zc_ur_out_reap(io)))
			return ret;
	}
	return 0;
}

const struct zc_mode zc_mode_uring_send = {
	.name = "uring-send",
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND from a user buffer (copy), one in flight",
	.unavailable = zc_ur_unavail_send,
	.setup = send_setup,
	.pump = src_pump,
	.teardown = zc_ur_teardown,
};

const struct zc_mode zc_mode_uring_send_zc = {
	.name = "uring-send-zc",
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND_ZC, notifications reaped, copied ones counted",
	.unavailable = zc_ur_unavail_send_zc,
	.setup = send_zc_setup,
	.pump = src_pump,
	.teardown = zc_ur_teardown,
};

const struct zc_mode zc_mode_uring_vmsplice = {
	.name = "uring-vmsplice",
	.role = ZC_ROLE_SOURCE,
	.summary = "vmsplice() into a pipe, io_uring IORING_OP_SPLICE pipe -> socket",
	.unavailable = zc_ur_unavail_splice,
	.setup = vms_setup,
	.pump = vms_pump,
	.teardown = zc_ur_teardown,
};
