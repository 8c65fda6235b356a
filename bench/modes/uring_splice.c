// SPDX-License-Identifier: GPL-2.0
/*
 * proxy uring-splice: IORING_OP_SPLICE socket -> pipe, then pipe -> socket;
 * io-wq workers pinned to the role's CPU. Like the splice proxy (HAProxy's
 * way, modes/splice.c) each splice-in asks for the whole pipe (the kernel
 * returns what the socket had, up to what the pipe holds) and what it parked
 * goes out in splice-outs until the pipe is empty: one request in flight per
 * connection, in then out. A link (IOSQE_IO_LINK) cannot carry that: the
 * splice-out's length must be known when it is queued, and a splice-in
 * asking for the whole pipe nearly always comes back short, which cancels
 * the linked out. With splice_chunk_cap = 1 it is as before issue 21: a
 * splice-in of at most a chunk linked to a splice-out of the same length,
 * both in one submission (a short in costs a cancelled out and a lone out).
 */
#include "modes/uring.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>

static int splice_setup(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	int ret = zc_ur_setup_ring(io, true);

	ur->linked = ur->fwd.chunk_cap;
	/* A splice-in longer than the pipe would always come back short. */
	ur->want = ur->linked && io->chunk < io->pipe_size ? io->chunk : io->pipe_size;
	return ret ? ret : zc_pipe_setup(io);
}

/* The next request(s), or what a short one left in the pipe: 0, 1 done. */
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
		/* What the splice-in parked, or what a short splice-out left. */
		if (!(out = zc_ur_sqe(io, UR_SPLICE_OUT)))
			return -EOVERFLOW;
		io_uring_prep_splice(out, io->pipe_r, -1, io->out_fd, -1, io->pending,
				     SPLICE_F_MOVE);
		return 0;
	}
	if (!ur->linked) {
		if (!(in = zc_ur_sqe(io, UR_SPLICE_IN)))
			return -EOVERFLOW;
		io_uring_prep_splice(in, io->in_fd, -1, io->pipe_w, -1, ur->want, SPLICE_F_MOVE);
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
	ZC_FWD_USES,
	.summary = "io_uring IORING_OP_SPLICE socket -> pipe (the whole pipe asked), then pipe -> "
		   "socket until empty",
	.vs = ZC_MODE_REF(copy),
	.opts = ZC_MODE_OPTS(ZC_FWD_OPT_CHUNK_CAP(struct zc_uring)),
	.unavailable = zc_ur_unavail_splice,
	.setup = splice_setup,
	.pump = splice_pump,
	.pump_conns = splice_pump_conns,
	ZC_UR_MODE_COMMON,
);
