// SPDX-License-Identifier: GPL-2.0
/* source uring-vmsplice: vmsplice() into a pipe (io_uring has no vmsplice),
 * then IORING_OP_SPLICE pipe -> socket. */
#include "modes/uring.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>

static int vms_setup(struct zc_io *io)
{
	int ret = zc_ur_setup_ring(io, true);

	return ret ? ret : zc_pipe_setup(io);
}

/* The next chunk into the pipe when it is empty, then its splice out. */
static int vms_prep(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	struct io_uring_sqe *sqe;

	if (ur->inflight)
		return 0;
	while (!io->pending) {
		struct iovec iov = {
			.iov_base = io->buf + io->fill_off % io->period,
			.iov_len = zc_src_len(io),
		};
		ssize_t n = vmsplice(io->pipe_w, &iov, 1, 0);

		io->calls++;
		if (n < 0 && errno == EINTR) {
			if (*io->stop)
				return 0;
			continue;
		}
		if (n < 0)
			return -errno;
		io->fill_off += n;
		io->pending = n;
	}
	if (!(sqe = zc_ur_sqe(io, UR_SPLICE_OUT)))
		return -EOVERFLOW;
	io_uring_prep_splice(sqe, io->pipe_r, -1, io->out_fd, -1, io->pending, SPLICE_F_MOVE);
	return 0;
}

static const struct zc_ur_ops vms_ops = { vms_prep, zc_ur_out_complete };

static int vms_pump(struct zc_io *io)
{
	return zc_ur_pump_one(io, &vms_ops);
}

static int vms_pump_conns(struct zc_conns *w)
{
	return zc_ur_pump_conns(w, &vms_ops);
}

ZC_MODE(uring_vmsplice,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.summary = "vmsplice() into a pipe, io_uring IORING_OP_SPLICE pipe -> socket",
	.unavailable = zc_ur_unavail_splice,
	.setup = vms_setup,
	.pump = vms_pump,
	.pump_conns = vms_pump_conns,
	ZC_UR_MODE_COMMON,
);
