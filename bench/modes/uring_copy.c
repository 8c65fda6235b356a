// SPDX-License-Identifier: GPL-2.0
/* proxy uring-copy: IORING_OP_RECV into a user buffer, then IORING_OP_SEND
 * it on, one request in flight per connection. */
#include "modes/uring.h"

#include <errno.h>
#include <sys/socket.h>

static int copy_setup(struct zc_io *io)
{
	return zc_ur_setup_ring(io, false);
}

/* 0, 1 on EOF (write side shut), or -errno. */
static int copy_complete(struct zc_io *io, unsigned tag, int res, unsigned flags)
{
	struct zc_uring *ur = io->priv;

	(void)flags;
	ur->inflight--;
	if (res < 0)
		return (res = zc_ur_soft(ur, res)) < 0 ? res : 0;
	if (tag == UR_RECV) {
		if (res == 0) {
			shutdown(io->out_fd, SHUT_WR);
			io->eof = true;
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
	return 0;
}

static int copy_prep(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_sqe *sqe;

	if (ur->inflight)
		return 0;
	if (!(sqe = zc_ur_sqe(io, io->pending ? UR_SEND : UR_RECV)))
		return -EOVERFLOW;
	if (io->pending)
		io_uring_prep_send(sqe, io->out_fd, io->buf + io->fill_off, io->pending, MSG_WAITALL);
	else
		io_uring_prep_recv(sqe, io->in_fd, io->buf, io->chunk, 0);
	return 0;
}

static const struct zc_ur_ops copy_ops = { copy_prep, copy_complete };

static int copy_pump(struct zc_io *io)
{
	return zc_ur_pump_one(io, &copy_ops);
}

static int copy_pump_conns(struct zc_conns *w)
{
	return zc_ur_pump_conns(w, &copy_ops);
}

ZC_MODE(uring_copy,
	.role = ZC_ROLE_PROXY,
	.uses = ZC_USES(chunk),
	.summary = "io_uring IORING_OP_RECV into a user buffer, IORING_OP_SEND it on",
	.unavailable = zc_ur_unavail_copy,
	.setup = copy_setup,
	.pump = copy_pump,
	.pump_conns = copy_pump_conns,
	ZC_UR_MODE_COMMON,
);
