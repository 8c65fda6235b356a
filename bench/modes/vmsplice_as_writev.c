// SPDX-License-Identifier: GPL-2.0
/*
 * source vmsplice-as-writev (emulated after-mode of vmsplice and
 * vmsplice-gift): Safin's series makes vmsplice(pipe) literally
 * do_writev(fd, vec, vlen, flags & NONBLOCK ? RWF_NOWAIT : 0): the chunk is
 * copied into the pipe's own pages, and GIFT is ignored. We call writev() on
 * the same pipe, then splice the pipe to the socket as the real mode does,
 * so the pair differs only by the copy. zcbench probe checks that its step
 * classifies as a copy.
 */
#include "modes/mode.h"

#include <errno.h>
#include <sys/uio.h>

static ssize_t vaw_fill(struct zc_io *io)
{
	struct iovec iov = {
		.iov_base = io->buf + io->fill_off % io->period,
		.iov_len = zc_src_len(io),
	};
	/* vmsplice(fd, iov, 1, 0) under Safin's patch, exactly. */
	ssize_t n = writev(io->pipe_w, &iov, 1);

	if (n < 0)
		return -errno;
	io->fill_off += n;
	return n;
}

ZC_MODE(vmsplice_as_writev,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_EMULATED,
	.summary = "vmsplice after Safin's patch: writev() into the pipe, splice() to socket",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(vmsplice), ZC_MODE_REF(vmsplice_gift)),
	.setup = zc_pipe_setup,
	.fill = vaw_fill,
	.teardown = zc_io_teardown_pipes,
);
