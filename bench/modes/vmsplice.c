// SPDX-License-Identifier: GPL-2.0
/*
 * source vmsplice and vmsplice-gift: vmsplice each chunk of the user buffer
 * into a pipe, then splice the pipe to the socket. Before Safin's series the
 * pipe holds references to the user pages (zero-copy); after it, vmsplice is
 * pwritev2 and copies. GIFT asks the kernel to take the pages; the series
 * makes it a no-op.
 */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>

static int vms_setup(struct zc_io *io)
{
	return zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
}

static ssize_t vms_fill_flags(struct zc_io *io, unsigned int flags)
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
	return vms_fill_flags(io, 0);
}

static ssize_t vms_fill_gift(struct zc_io *io)
{
	return vms_fill_flags(io, SPLICE_F_GIFT);
}

static int vms_pump(struct zc_io *io)
{
	return zc_pipe_source_pump(io, vms_fill);
}

static int vms_pump_gift(struct zc_io *io)
{
	return zc_pipe_source_pump(io, vms_fill_gift);
}

static ssize_t vms_step(struct zc_io *io)
{
	return zc_pipe_source_step(io, vms_fill);
}

static ssize_t vms_step_gift(struct zc_io *io)
{
	return zc_pipe_source_step(io, vms_fill_gift);
}

const struct zc_mode zc_mode_vmsplice = {
	.name = "vmsplice",
	.role = ZC_ROLE_SOURCE,
	.summary = "vmsplice() user buffer into a pipe, splice() pipe to socket",
	.setup = vms_setup,
	.pump = vms_pump,
	.probe_step = vms_step,
	.teardown = zc_io_teardown_pipes,
};

const struct zc_mode zc_mode_vmsplice_gift = {
	.name = "vmsplice-gift",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_PAGE_CHUNK,
	.summary = "vmsplice(SPLICE_F_GIFT) of page-aligned chunks, splice() to socket",
	.setup = vms_setup,
	.pump = vms_pump_gift,
	.probe_step = vms_step_gift,
	.teardown = zc_io_teardown_pipes,
};
