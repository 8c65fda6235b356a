// SPDX-License-Identifier: GPL-2.0
/* source uring-send-zc: IORING_OP_SEND_ZC, notification CQEs reaped and
 * their "copied" usage bit counted (kernel >= 6.2 reports it). */
#include "modes/uring.h"

static const struct zc_ur_ops send_zc_ops = { zc_ur_src_prep, zc_ur_src_complete };

static int send_zc_setup(struct zc_io *io)
{
	struct zc_uring *ur = io->priv;
	int ret = zc_ur_setup_ring(io, false);

	ur->zc = true;
	ur->zc_flags = IORING_SEND_ZC_REPORT_USAGE;
	return ret;
}

static int send_zc_pump(struct zc_io *io)
{
	return zc_ur_pump_one(io, &send_zc_ops);
}

static int send_zc_pump_conns(struct zc_conns *w)
{
	return zc_ur_pump_conns(w, &send_zc_ops);
}

ZC_MODE(uring_send_zc,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.summary = "io_uring IORING_OP_SEND_ZC, notifications reaped, copied ones counted",
	.vs = ZC_MODE_REF(send),
	.unavailable = zc_ur_unavail_send_zc,
	.setup = send_zc_setup,
	.pump = send_zc_pump,
	.pump_conns = send_zc_pump_conns,
	ZC_UR_MODE_COMMON,
);
