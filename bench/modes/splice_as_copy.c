// SPDX-License-Identifier: GPL-2.0
/*
 * proxy splice-as-copy (emulated after-mode of splice): if splice() copied,
 * socket -> pipe would copy the skb payload into pipe pages and pipe ->
 * socket would copy them into a new skb: two copies and two calls per chunk,
 * with the data parked in a pipe_size buffer between them. The most faithful
 * user-space match is the splice proxy's own loop (non-blocking sockets,
 * edge-triggered epoll, at most `chunk` per read, at most pipe_size parked)
 * with the pipe replaced by a pipe_size user buffer and each splice() by
 * read() or write(): the same copies, the same calls, the same wake-ups. The
 * plain `copy` proxy differs (blocking, chunk-sized buffer), so it is not
 * the after-mode of splice. read()/write() rather than recv()/send() so the
 * probe can feed the step from pipes.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static int spc_setup(struct zc_io *io)
{
	int ret;

	if ((ret = zc_bounce_alloc(io->priv, io->pipe_size)))
		return ret;
	return zc_io_nonblock_epoll(io);
}

/*
 * One turn of the splice proxy's loop with splice() as a copy: read at most
 * a chunk into the parked buffer, write out what is parked. 0 or -errno;
 * *blocked_in / *blocked_out say which side would block.
 */
static int spc_turn(struct zc_io *io, bool *blocked_in, bool *blocked_out)
{
	struct zc_bounce *b = io->priv;
	ssize_t n;

	*blocked_in = io->eof;
	*blocked_out = !io->pending;
	if (!io->eof && b->tail < b->len) {
		size_t want = b->len - b->tail;

		if (want > io->chunk)
			want = io->chunk;
		n = read(io->in_fd, b->buf + b->tail, want);
		io->calls++;
		if (n > 0) {
			b->tail += n;
			io->pending += n;
		} else if (n == 0) {
			io->eof = true;
		} else if (errno == EAGAIN) {
			*blocked_in = true;
		} else if (errno != EINTR) {
			return -errno;
		}
	} else {
		*blocked_in = true;
	}
	if (io->pending) {
		n = write(io->out_fd, b->buf + b->head, io->pending);
		io->calls++;
		if (n > 0) {
			b->head += n;
			io->pending -= n;
			io->bytes += n;
			*blocked_out = false;
			/* A pipe is a ring; a drained buffer starts over, no memmove. */
			if (!io->pending)
				b->head = b->tail = 0;
		} else if (n < 0 && errno == EAGAIN) {
			*blocked_out = true;
		} else if (n < 0 && errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

static int spc_pump(struct zc_io *io)
{
	struct epoll_event evs[2];

	while (!*io->stop) {
		bool blocked_in, blocked_out;
		int ret = spc_turn(io, &blocked_in, &blocked_out);

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

/* One turn without the epoll wait (the probe's, and the event loop's of a
 * worker with many connections): bytes, or -EAGAIN when both sides block. */
static ssize_t spc_step(struct zc_io *io)
{
	uint64_t before = io->bytes;
	bool bi, bo;
	int ret = spc_turn(io, &bi, &bo);

	if (ret)
		return ret;
	if (io->eof && !io->pending) {
		shutdown(io->out_fd, SHUT_WR);
		return 0;
	}
	if (bi && bo)
		return -EAGAIN;
	return (ssize_t)(io->bytes - before);
}

static void spc_teardown(struct zc_io *io)
{
	zc_io_teardown_epoll(io);
	zc_bounce_free(io->priv);
}

ZC_MODE(splice_as_copy,
	.role = ZC_ROLE_PROXY,
	.flags = ZC_MODE_EMULATED,
	.summary = "splice proxy if splice() copied: same epoll loop, read()/write() via a pipe_size buffer",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(splice)),
	.priv_size = sizeof(struct zc_bounce),
	.setup = spc_setup,
	.pump = spc_pump,
	.step = spc_step,
	.teardown = spc_teardown,
);
