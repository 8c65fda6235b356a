// SPDX-License-Identifier: GPL-2.0
/* source uring-send: io_uring IORING_OP_SEND from the pattern buffer, one
 * request in flight; the io_uring copy baseline. */
#include "modes/uring.h"

static int send_setup(struct zc_io *io)
{
	return zc_ur_setup_ring(io, false);
}

ZC_MODE(uring_send,
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND from a user buffer (copy), one in flight",
	.priv_size = sizeof(struct zc_uring),
	.unavailable = zc_ur_unavail_send,
	.setup = send_setup,
	.pump = zc_ur_src_pump,
	.teardown = zc_ur_teardown,
);
