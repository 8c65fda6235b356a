// SPDX-License-Identifier: GPL-2.0
/* proxy copy: recv() into a user buffer, send() it on; the baseline. */
#include "modes/mode.h"

#include <errno.h>
#include <sys/socket.h>

/* One turn: a recv() when the buffer is empty, then one send() of what it
 * holds (fill_off is the send position inside the buffer). */
static ssize_t copy_step(struct zc_io *io)
{
	ssize_t n;

	if (!io->pending) {
		n = recv(io->in_fd, io->buf, io->chunk, 0);
		io->calls++;
		if (n < 0)
			return -errno;
		if (n == 0) {
			shutdown(io->out_fd, SHUT_WR);
			io->eof = true;
			return 0;
		}
		io->pending = n;
		io->fill_off = 0;
	}
	n = send(io->out_fd, io->buf + io->fill_off, io->pending, 0);
	io->calls++;
	if (n < 0)
		return -errno;
	io->pending -= n;
	io->fill_off += n;
	io->bytes += n;
	return n;
}

ZC_MODE(copy,
	.role = ZC_ROLE_PROXY,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_SOCKET_STEP,
	.summary = "recv() into a user buffer, send() it on (blocking)",
	.step = copy_step,
	.flush = zc_flush_buf,
);
