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

/* The next linked pair, or what a short one left in the pipe: 0, 1 done. */
static int splice_prep(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_sqe *in, *out;

	if (ur->inflight)
		return 0;
	if (io->eof && !io->pending) {
		shutdown(io->out_fd, SHUT_WR);
		return 1;
	}
	if (io->pending) {
		/* What a short splice-in or splice-out left in the pipe. */
		if (!(out = zc_ur_sqe(io, UR_SPLICE_OUT)))
			return -EOVERFLOW;
		io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1, io->pending,
				     SPLICE_F_MOVE);
		return 0;
	}
	/* Both halves of a link in one submission: never split by a full ring. */
	if (io_uring_sq_space_left(&ur->r->ring) < 2) {
		io_uring_submit(&ur->r->ring);
		io->calls++;
	}
	if (!(in = zc_ur_sqe(io, UR_SPLICE_IN)) || !(out = zc_ur_sqe(io, UR_SPLICE_OUT)))
		return -EOVERFLOW;
	io_uring_prep_splice(in, io->in_fd, -1, io->pipe_w, -1, ur->want, SPLICE_F_MOVE);
	/* A short splice-in breaks the link: out is then cancelled. */
	in->flags |= IOSQE_IO_LINK;
	io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1, ur->want, SPLICE_F_MOVE);
	return 0;
}

static const struct zc_ur_ops splice_ops = { splice_prep, zc_ur_out_complete };

static int splice_pump(struct zc_io *io)
{
	return zc_ur_pump_one(io, &splice_ops);
}

static int splice_pump_conns(struct zc_conns *w)
{
	return zc_ur_pump_conns(w, &splice_ops);
}

ZC_MODE(uring_splice,
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_SPLICE socket -> pipe -> socket, linked (IOSQE_IO_LINK)",
	.vs = ZC_MODE_REF(copy),
	.unavailable = zc_ur_unavail_splice,
	.setup = splice_setup,
	.pump = splice_pump,
	.pump_conns = splice_pump_conns,
	ZC_UR_MODE_COMMON,
);
