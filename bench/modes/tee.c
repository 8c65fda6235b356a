// SPDX-License-Identifier: GPL-2.0
/*
 * source tee: the load generator behind "62 vs 31 Gbps per core". The
 * response is vmspliced once into a master pipe; for every chunk, tee()
 * duplicates the master's buffers into the connection pipe, which is spliced
 * to the socket. The stream is the chunk repeated, so the period is the chunk.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>

int zc_tee_setup(struct zc_io *io, bool by_writev)
{
	uint64_t size = io->pipe_size > io->chunk ? io->pipe_size : io->chunk;
	size_t done = 0;
	int ret;

	ret = zc_pipe_open(io, &io->aux_r, &io->aux_w, size, false);
	if (ret)
		return ret;
	ret = zc_pipe_open(io, &io->pipe_r, &io->pipe_w, size, false);
	if (ret)
		return ret;
	while (done < io->chunk) {
		struct iovec iov = { io->buf + done, io->chunk - done };
		ssize_t n = by_writev ? writev(io->aux_w, &iov, 1) : vmsplice(io->aux_w, &iov, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += n;
	}
	return 0;
}

static int tee_setup(struct zc_io *io)
{
	return zc_tee_setup(io, false);
}

ssize_t zc_tee_fill(struct zc_io *io)
{
	ssize_t n = tee(io->aux_r, io->pipe_w, io->chunk, 0);

	if (n < 0)
		return -errno;
	/*
	 * tee() always starts at the head of the master pipe; a short tee would
	 * break the stream's period, so it is an error, not silently wrong data.
	 */
	if ((uint64_t)n != io->chunk)
		return -EPROTO;
	return n;
}

ZC_MODE(tee,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_STATIC_CHUNK,
	.summary = "vmsplice() once into a master pipe, tee() per chunk, splice() to socket",
	.path = "vmsplice once + tee -> socket (62 vs 31)",
	.vs = ZC_MODE_REF(send),
	.principal = true,
	.setup = tee_setup,
	.fill = zc_tee_fill,
	.teardown = zc_io_teardown_pipes,
);
