// SPDX-License-Identifier: GPL-2.0
/*
 * proxy splice: socket -> pipe -> socket the way HAProxy does it:
 * non-blocking sockets, edge-triggered epoll, SPLICE_F_MOVE|SPLICE_F_NONBLOCK,
 * and a pipe sized with F_SETPIPE_SZ. Each splice reads at most `chunk` bytes
 * (set chunk = pipe_size for HAProxy's read-as-much-as-fits).
 */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#define SPL_FLAGS (SPLICE_F_MOVE | SPLICE_F_NONBLOCK)

static int splice_setup(struct zc_io *io)
{
	/* Non-blocking like HAProxy's: a full or empty pipe says EAGAIN. */
	int ret = zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, true);

	if (ret)
		return ret;
	return zc_io_nonblock_epoll(io);
}

/*
 * One turn: splice in what the pipe has room for (at most a chunk), splice
 * out what it holds. 0 or -errno; *blocked_in / *blocked_out say which side
 * would block. io->eof: the input is at its end (bytes may still be pending).
 */
static inline int splice_turn(struct zc_io *io, bool *blocked_in, bool *blocked_out)
{
	uint64_t cap = io->pipe_size;
	ssize_t n;

	*blocked_in = io->eof;
	*blocked_out = !io->pending;
	if (!io->eof && io->pending < cap) {
		uint64_t want = cap - io->pending;

		if (want > io->chunk)
			want = io->chunk;
		n = splice(io->in_fd, NULL, io->pipe_w, NULL, want, SPL_FLAGS);
		io->calls++;
		if (n > 0)
			io->pending += n;
		else if (n == 0)
			io->eof = true;
		else if (errno == EAGAIN)
			*blocked_in = true;
		else if (errno != EINTR)
			return -errno;
	} else {
		*blocked_in = true;
	}
	if (io->pending) {
		n = splice(io->pipe_r, NULL, io->out_fd, NULL, io->pending, SPL_FLAGS);
		io->calls++;
		if (n > 0) {
			io->pending -= n;
			io->bytes += n;
			*blocked_out = false;
		} else if (n < 0 && errno == EAGAIN) {
			*blocked_out = true;
		} else if (n < 0 && errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

static int splice_pump(struct zc_io *io)
{
	struct epoll_event evs[2];

	while (!*io->stop) {
		bool blocked_in, blocked_out;
		int ret = splice_turn(io, &blocked_in, &blocked_out);

		if (ret)
			return ret;
		if (io->eof && !io->pending) {
			shutdown(io->out_fd, SHUT_WR);
			return 1;
		}
		if (blocked_in && blocked_out) {
			if (epoll_wait(io->epfd, evs, 2, -1) < 0 && errno != EINTR)
				return -errno;
		}
	}
	return 0;
}

/*
 * One turn, for the event loop of a worker with many connections and for
 * the probe: bytes moved out, or -EAGAIN when both sides would block.
 */
static ssize_t splice_step(struct zc_io *io)
{
	uint64_t before = io->bytes;
	bool blocked_in, blocked_out;
	int ret = splice_turn(io, &blocked_in, &blocked_out);

	if (ret)
		return ret;
	if (io->eof && !io->pending) {
		shutdown(io->out_fd, SHUT_WR);
		return 0;
	}
	if (blocked_in && blocked_out)
		return -EAGAIN;
	return (ssize_t)(io->bytes - before);
}

ZC_MODE(splice,
	.role = ZC_ROLE_PROXY,
	.summary = "splice() socket -> pipe -> socket, non-blocking + epoll (HAProxy's way)",
	.path = "socket -> pipe -> socket (HAProxy)",
	.vs = ZC_MODE_REF(copy),
	.principal = true,
	.setup = splice_setup,
	.pump = splice_pump,
	.step = splice_step,
	.teardown = zc_io_teardown_epoll,
);
