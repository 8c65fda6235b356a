// SPDX-License-Identifier: GPL-2.0
/* proxy uring-splice: IORING_OP_SPLICE socket -> pipe linked (IOSQE_IO_LINK)
 * to IORING_OP_SPLICE pipe -> socket; io-wq workers pinned to the role's CPU. */
#include "modes/uring.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>

static int splice_setup(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	int ret = zc_ur_setup_ring(io, true);

	ur->linked = true;
	/* A splice-in longer than the pipe would always come back short. */
	ur->want = io->chunk < io->pipe_size ? io->chunk : io->pipe_size;
	return ret ? ret : zc_pipe_setup(io);
}

static int splice_pump(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	uint64_t want = ur->want;
	int ret;

	while (!*io->stop) {
		if (!ur->inflight) {
			struct io_uring_sqe *in, *out;

			if (io->eof && !io->pending) {
				shutdown(io->out_fd, SHUT_WR);
				return 1;
			}
			if (io->pending) {
				/* What a short splice-in or splice-out left in the pipe. */
				if (!(out = zc_ur_sqe(ur, UR_SPLICE_OUT)))
					return -EOVERFLOW;
				io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1,
						     io->pending, SPLICE_F_MOVE);
			} else {
				if (!(in = zc_ur_sqe(ur, UR_SPLICE_IN)) ||
				    !(out = zc_ur_sqe(ur, UR_SPLICE_OUT)))
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

ZC_MODE(uring_splice,
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_SPLICE socket -> pipe -> socket, linked (IOSQE_IO_LINK)",
	.vs = ZC_MODE_REF(copy),
	.priv_size = sizeof(struct zc_uring),
	.unavailable = zc_ur_unavail_splice,
	.setup = splice_setup,
	.pump = splice_pump,
	.teardown = zc_ur_teardown,
);
