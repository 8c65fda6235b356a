// SPDX-License-Identifier: GPL-2.0
/* source uring-send-zc: IORING_OP_SEND_ZC, notification CQEs reaped and
 * their "copied" usage bit counted (kernel >= 6.2 reports it). */
#include "modes/uring.h"

static int send_zc_setup(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	int ret = zc_ur_setup_ring(io, false);

	ur->zc = true;
	ur->zc_flags = IORING_SEND_ZC_REPORT_USAGE;
	return ret;
}

ZC_MODE(uring_send_zc,
	.role = ZC_ROLE_SOURCE,
	.summary = "io_uring IORING_OP_SEND_ZC, notifications reaped, copied ones counted",
	.vs = ZC_MODE_REF(send),
	.priv_size = sizeof(struct zc_uring),
	.unavailable = zc_ur_unavail_send_zc,
	.setup = send_zc_setup,
	.pump = zc_ur_src_pump,
	.teardown = zc_ur_teardown,
);
