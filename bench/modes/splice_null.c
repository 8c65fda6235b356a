// SPDX-License-Identifier: GPL-2.0
/* sink splice-null: socket -> pipe -> /dev/null, the cheapest sink; it
 * cannot see the bytes, so its results say "verified": false. */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int null_setup(struct zc_io *io)
{
	int ret = zc_pipe_setup(io);

	if (ret)
		return ret;
	io->out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return io->out_fd < 0 ? -errno : 0;
}

/* One turn: splice what the socket has into the pipe, drain it to /dev/null. */
static ssize_t null_step(struct zc_io *io)
{
	uint64_t before = io->bytes;
	int ret;

	if (!io->pending) {
		ssize_t n = splice(io->in_fd, NULL, io->pipe_w, NULL, io->pipe_size, SPLICE_F_MOVE);

		io->calls++;
		if (n < 0)
			return -errno;
		if (n == 0) {
			io->eof = true;
			return 0;
		}
		io->pending = n;
	}
	ret = zc_pipe_drain(io);
	return ret ? ret : (ssize_t)(io->bytes - before);
}

static void null_teardown(struct zc_io *io)
{
	if (io->out_fd >= 0)
		close(io->out_fd);
	io->out_fd = -1;
	zc_io_teardown_pipes(io);
}

ZC_MODE(splice_null,
	.role = ZC_ROLE_SINK,
	.uses = ZC_USES(pipe_size),
	.summary = "splice() socket -> pipe -> /dev/null",
	.setup = null_setup,
	.step = null_step,
	.teardown = null_teardown,
);
