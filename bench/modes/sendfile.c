// SPDX-License-Identifier: GPL-2.0
/*
 * source sendfile and splice-file: the payload lives in a page-cache file.
 * sendfile() sends it directly; splice-file goes file -> pipe -> socket.
 * Falcato's series (and Torvalds' suggestion) would make both copies.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/sendfile.h>
#include <unistd.h>

static int file_setup(struct zc_io *io)
{
	return zc_payload_file(io);
}

static void file_teardown(struct zc_io *io)
{
	if (io->file_fd >= 0)
		close(io->file_fd);
	io->file_fd = -1;
	zc_io_teardown_pipes(io);
}

/* One sendfile() call: bytes, or -errno (-EIO at an unexpected EOF). */
ssize_t zc_sendfile_step(struct zc_io *io)
{
	off_t off = io->fill_off % io->period;
	ssize_t n = sendfile(io->out_fd, io->file_fd, &off, zc_src_len(io));

	io->calls++;
	if (n < 0)
		return -errno;
	if (n == 0)
		return -EIO;
	io->fill_off += n;
	io->bytes += n;
	return n;
}

int zc_sendfile_pump(struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = zc_sendfile_step(io);

		if (n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static int splice_file_setup(struct zc_io *io)
{
	int ret = zc_payload_file(io);

	if (ret)
		return ret;
	return zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);
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

static int splice_file_pump(struct zc_io *io)
{
	return zc_pipe_source_pump(io, splice_file_fill);
}

static ssize_t splice_file_step(struct zc_io *io)
{
	return zc_pipe_source_step(io, splice_file_fill);
}

const struct zc_mode zc_mode_sendfile = {
	.name = "sendfile",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_FILE,
	.summary = "sendfile() from a file in the page cache",
	.setup = file_setup,
	.pump = zc_sendfile_pump,
	.probe_step = zc_sendfile_step,
	.teardown = file_teardown,
};

const struct zc_mode zc_mode_splice_file = {
	.name = "splice-file",
	.role = ZC_ROLE_SOURCE,
	.flags = ZC_MODE_FILE,
	.summary = "splice() page-cache file -> pipe -> socket",
	.setup = splice_file_setup,
	.pump = splice_file_pump,
	.probe_step = splice_file_step,
	.teardown = file_teardown,
};
