// SPDX-License-Identifier: GPL-2.0
/*
 * sink recv: receives and verifies every byte against the pattern at its
 * stream offset. sink splice-null: socket -> pipe -> /dev/null, the cheapest
 * sink; it cannot see the bytes, so its results say "verified": false.
 */
#include "modes/mode.h"
#include "lib/pattern.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

static int recv_pump(struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = recv(io->in_fd, io->buf, io->buf_len, 0);
		uint64_t bad;

		io->calls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 1;
		bad = zc_pattern_check(io->ref, io->period, io->fill_off, io->buf, n);
		if (bad != UINT64_MAX) {
			io->mismatch_off = bad;
			return -EBADMSG;
		}
		io->fill_off += n;
		io->bytes += n;
	}
	return 0;
}

static int null_setup(struct zc_io *io)
{
	int ret = zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, false);

	if (ret)
		return ret;
	io->out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return io->out_fd < 0 ? -errno : 0;
}

static int null_pump(struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n;

		if (!io->pending) {
			n = splice(io->in_fd, NULL, io->pipe_w, NULL, io->pipe_size, SPLICE_F_MOVE);
			io->calls++;
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0)
				return 1;
			io->pending = n;
		}
		int ret = zc_pipe_drain(io);

		if (ret)
			return ret;
	}
	return 0;
}

static void null_teardown(struct zc_io *io)
{
	if (io->out_fd >= 0)
		close(io->out_fd);
	io->out_fd = -1;
	zc_io_teardown_pipes(io);
}

const struct zc_mode zc_mode_recv = {
	.name = "recv",
	.role = ZC_ROLE_SINK,
	.flags = ZC_MODE_VERIFIES,
	.summary = "recv() and verify every byte against the pattern",
	.pump = recv_pump,
};

const struct zc_mode zc_mode_splice_null = {
	.name = "splice-null",
	.role = ZC_ROLE_SINK,
	.summary = "splice() socket -> pipe -> /dev/null",
	.setup = null_setup,
	.pump = null_pump,
	.teardown = null_teardown,
};
