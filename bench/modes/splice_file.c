// SPDX-License-Identifier: GPL-2.0
/*
 * source splice-file: the payload lives in a page-cache file and goes
 * file -> pipe -> socket with splice(). Falcato's series would make the
 * file -> pipe step a copy (sendfile-as-copy stands for it).
 */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>

static int splice_file_setup(struct zc_io *io)
{
	int ret = zc_payload_file(io);

	return ret ? ret : zc_pipe_setup(io);
}

static ssize_t splice_file_fill(struct zc_io *io)
{
	loff_t off = io->fill_off % io->period;
	ssize_t n = splice(io->file_fd, &off, io->pipe_w, NULL, zc_src_len(io), SPLICE_F_MOVE);

	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	io->fill_off += n;
	return n;
}

ZC_MODE(splice_file,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_FILE,
	.summary = "splice() page-cache file -> pipe -> socket",
	.path = "splice file -> pipe -> socket",
	.vs = ZC_MODE_REF(send),
	.setup = splice_file_setup,
	.fill = splice_file_fill,
	.teardown = zc_file_teardown,
);
