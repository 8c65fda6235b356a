// SPDX-License-Identifier: GPL-2.0
/* proxy uring-copy: IORING_OP_RECV into a user buffer, then IORING_OP_SEND
 * it on, one request in flight. */
#include "modes/uring.h"

#include <errno.h>
#include <sys/socket.h>

static int copy_setup(struct zc_io *io)
{
	return zc_ur_setup_ring(io, false);
}

/* 0, 1 on EOF (write side shut), or -errno. */
static int copy_reap(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_cqe *cqe;

	while (io_uring_peek_cqe(&ur->ring, &cqe) == 0) {
		int res = cqe->res;
		uint64_t tag = io_uring_cqe_get_data64(cqe);

		io_uring_cqe_seen(&ur->ring, cqe);
		ur->inflight--;
		if (res < 0) {
			if ((res = zc_ur_soft(ur, res)) < 0)
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
	struct zc_uring *ur = io->priv;
	int ret;

	while (!*io->stop) {
		if (!ur->inflight) {
			struct io_uring_sqe *sqe = zc_ur_sqe(ur, io->pending ? UR_SEND : UR_RECV);

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

ZC_MODE(uring_copy,
	.role = ZC_ROLE_PROXY,
	.summary = "io_uring IORING_OP_RECV into a user buffer, IORING_OP_SEND it on",
	.priv_size = sizeof(struct zc_uring),
	.unavailable = zc_ur_unavail_copy,
	.setup = copy_setup,
	.pump = copy_pump,
	.teardown = zc_ur_teardown,
);
