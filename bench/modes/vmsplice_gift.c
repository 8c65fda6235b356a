// SPDX-License-Identifier: GPL-2.0
/*
 * source vmsplice-gift: vmsplice with SPLICE_F_GIFT, page-aligned chunks.
 * GIFT asks the kernel to take the pages (CRIU's page dumps); Safin's series
 * makes it a no-op, and the call a copy (vmsplice-as-writev).
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <fcntl.h>

static ssize_t gift_fill(struct zc_io *io)
{
	return zc_vmsplice_fill(io, SPLICE_F_GIFT);
}

ZC_MODE(vmsplice_gift,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_PAGE_CHUNK,
	.summary = "vmsplice(SPLICE_F_GIFT) of page-aligned chunks, splice() to socket",
	.path = "vmsplice(GIFT) -> pipe -> socket",
	.vs = ZC_MODE_REF(send),
	.setup = zc_pipe_setup,
	.fill = gift_fill,
	.teardown = zc_io_teardown_pipes,
);
