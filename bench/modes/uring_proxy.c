// SPDX-License-Identifier: GPL-2.0
/* io_uring proxies: uring-copy (RECV then SEND) and uring-splice (SPLICE in
 * linked to SPLICE out, io-wq workers pinned to the role's CPU). */
#include "modes/uring.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int copy_setup(struct zc_io *io)
{
	(void)io;
	return zc_ur_setup_ring(false);
}

/* 0, 1 on EOF (write side shut), or -errno. */
static int copy_reap(struct zc_io *io)
{
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&zc_ur.ring, &cqe) == 0) {
		int res = cqe->res;
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		io_uring_cqe_seen(&zc_ur.ring, cqe);
		zc_ur.inflight--;
		if (res < 0) {
			if ((res = zc_ur_soft(res)) < 0)
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
		if (!zc_ur.inflight) {
			struct io_uring_sqe *sqe = zc_ur_sqe(io->pending ? UR_SEND : UR_RECV);

			if (!sqe)
				return -EOVERFLOW;
			if (io->pending)
				io_uring_prep_send(sqe, io->out_fd, io->buf + io->fill_off,
						   io->pending, MSG_WAITALL);
			else
				io_uring_prep_recv(sqe, io->in_fd, io->buf, io->chunk, 0);
		}
		if ((ret = zc_ur_enter(io)) || (ret = copy_reap(io)))
			return ret;
	}
	return 0;
}

static int splice_setup(struct zc_io *io)
{
	int ret = zc_ur_setup_ring(true);

	zc_ur.linked = true;
	/* A splice-in longer than the pipe would always come back short. */
	zc_ur.want = io->chunk < io->pipe_size ? io->chunk : io->pipe_size;
	return ret ? ret : zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

static int splice_pump(struct zc_io *io)
{
	uint64_t want = zc_ur.want;
	int ret;

	while (!*io->stop) {
		if (!zc_ur.inflight) {
			struct io_uring_sqe *in, *out;

			if (io->eof && !io->pending) {
				shutdown(io->out_fd, SHUT_WR);
				return 1;
			}
			if (io->pending) {
				/* What a short splice-in or splice-out left in the pipe. */
				if (!(out = zc_ur_sqe(UR_SPLICE_OUT)))
					return -EOVERFLOW;
				io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1,
						     io->pending, SPLICE_F_MOVE);
			} else {
				if (!(in = zc_ur_sqe(UR_SPLICE_IN)) || !(out = zc_ur_sqe(UR_SPLICE_OUT)))
					return -EOVERFLOW;
				io_uring_prep_splice(in, io->in_fd, -1, io->pipe_w, -1, want,
						     SPLICE_F_MOVE);
				/* A short splice-in breaks the link: out is then cancelled. */
				in->flags |= IOSQE_IO_LINK;
				io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1, want,
						     SPLICE_F_MOVE);
			}
		}
		if ((ret = zc_ur_enter(io)) || (ret = zc_ur_out_reap(io)))
			return ret;
	}
	return 0;
}

const struct zc_mode zc_mode_uring_copy = {
	.name = "uring-copy",
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_RECV into a user buffer, IORING_OP_SEND it on",
	.unavailable = zc_ur_unavail_copy,
	.setup = copy_setup,
	.pump = copy_pump,
	.teardown = zc_ur_teardown,
};

const struct zc_mode zc_mode_uring_splice = {
	.name = "uring-splice",
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_SPLICE socket -> pipe -> socket, linked (IOSQE_IO_LINK)",
	.unavailable = zc_ur_unavail_splice,
	.setup = splice_setup,
	.pump = splice_pump,
	.teardown = zc_ur_teardown,
};
