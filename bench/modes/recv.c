// SPDX-License-Identifier: GPL-2.0
/* sink recv: receives and verifies every byte against the pattern at its
 * stream offset. */
#include "modes/mode.h"
#include "lib/pattern.h"

#include <errno.h>
#include <sys/socket.h>

static ssize_t recv_step(struct zc_io *io)
{
	ssize_t n = recv(io->in_fd, io->buf, io->buf_len, 0);
	uint64_t bad;

	io->calls++;
	if (n < 0)
		return -errno;
	if (n == 0) {
		io->eof = true;
		return 0;
	}
	bad = zc_pattern_check(io->ref, io->period, io->fill_off, io->buf, n);
	if (bad != UINT64_MAX) {
		io->mismatch_off = bad;
		return -EBADMSG;
	}
	io->fill_off += n;
	io->bytes += n;
	return n;
}

ZC_MODE(recv,
	.role = ZC_ROLE_SINK,
	.uses = ZC_USES(chunk),
	.flags = ZC_MODE_VERIFIES | ZC_MODE_SOCKET_STEP,
	.summary = "recv() and verify every byte against the pattern",
	.step = recv_step,
);
