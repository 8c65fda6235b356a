// SPDX-License-Identifier: GPL-2.0
/* source uring-send: io_uring IORING_OP_SEND from the pattern buffer, one
 * request in flight per connection; the io_uring copy baseline. */
#include "modes/uring.h"

static const struct zc_ur_ops send_ops = { zc_ur_src_prep, zc_ur_src_complete };

static int send_setup(struct zc_io *io)
{
	return zc_ur_setup_ring(io, false);
}

static int send_pump(struct zc_io *io)
{
	return zc_ur_pump_one(io, &send_ops);
}

static int send_pump_conns(struct zc_conns *w)
{
	return zc_ur_pump_conns(w, &send_ops);
}

ZC_MODE(uring_send,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.summary = "io_uring IORING_OP_SEND from a user buffer (copy), one in flight",
	.unavailable = zc_ur_unavail_send,
	.setup = send_setup,
	.pump = send_pump,
	.pump_conns = send_pump_conns,
	ZC_UR_MODE_COMMON,
);
