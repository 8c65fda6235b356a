// SPDX-License-Identifier: GPL-2.0
/* source send: the copy baseline, send() from a user buffer. */
#include "modes/mode.h"

#include <errno.h>
#include <sys/socket.h>

static ssize_t send_step(struct zc_io *io)
{
	ssize_t n = send(io->out_fd, io->buf + io->fill_off % io->period, zc_src_len(io), 0);

	io->calls++;
	if (n < 0)
		return -errno;
	io->fill_off += n;
	io->bytes += n;
	return n;
}

ZC_MODE(send,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_SOCKET_STEP,
	.summary = "send() from a user buffer (copy)",
	.step = send_step,
);
