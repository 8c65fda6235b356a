// SPDX-License-Identifier: GPL-2.0
/* proxy copy: recv() into a user buffer, send() it on; the baseline. */
#include "modes/mode.h"

#include <errno.h>
#include <sys/socket.h>

static int copy_pump(struct zc_io *io)
{
	while (!*io->stop) {
		if (!io->pending) {
			ssize_t n = recv(io->in_fd, io->buf, io->chunk, 0);

			io->calls++;
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0)
				return -errno;
			if (n == 0) {
				shutdown(io->out_fd, SHUT_WR);
				return 1;
			}
			io->pending = n;
			io->fill_off = 0;
		}
		ssize_t n = send(io->out_fd, io->buf + io->fill_off, io->pending, 0);

		io->calls++;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		io->pending -= n;
		io->fill_off += n;
		io->bytes += n;
	}
	return 0;
}

const struct zc_mode zc_mode_copy = {
	.name = "copy",
	.role = ZC_ROLE_PROXY,
	.summary = "recv() into a user buffer, send() it on (blocking)",
	.pump = copy_pump,
};
