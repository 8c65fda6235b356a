// SPDX-License-Identifier: GPL-2.0
/*
 * source vmsplice: vmsplice each chunk of the user buffer into a pipe, then
 * splice the pipe to the socket. Before Safin's series the pipe holds
 * references to the user pages (zero-copy); after it, vmsplice is pwritev2
 * and copies (vmsplice-as-writev).
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>

ssize_t zc_vmsplice_fill(struct zc_io *io, unsigned int flags)
{
	struct iovec iov = {
		.iov_base = io->buf + io->fill_off % io->period,
		.iov_len = zc_src_len(io),
	};
	ssize_t n = vmsplice(io->pipe_w, &iov, 1, flags);

	if (n < 0)
		return -errno;
	io->fill_off += n;
	return n;
}

static ssize_t vms_fill(struct zc_io *io)
{
	return zc_vmsplice_fill(io, 0);
}

ZC_MODE(vmsplice,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.summary = "vmsplice() user buffer into a pipe, splice() pipe to socket",
	.path = "vmsplice user buf -> pipe -> socket",
	.vs = ZC_MODE_REF(send),
	.setup = zc_pipe_setup,
	.fill = vms_fill,
	.teardown = zc_io_teardown_pipes,
);
