// SPDX-License-Identifier: GPL-2.0
/* source send: the copy baseline, send() from a user buffer. */
#include "modes/mode.h"

#include <errno.h>
#include <sys/socket.h>

static int send_pump(struct zc_io *io)
{
	while (!*io->stop) {
		ssize_t n = send(io->out_fd, io->buf + io->fill_off % io->period,
				 zc_src_len(io), 0);

		io->calls++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		io->fill_off += n;
		io->bytes += n;
	}
	return 0;
}

const struct zc_mode zc_mode_send = {
	.name = "send",
	.role = ZC_ROLE_SOURCE,
	.summary = "send() from a user buffer (copy)",
	.pump = send_pump,
};
