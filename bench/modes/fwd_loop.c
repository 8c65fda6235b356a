// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding loop of the splice proxy and of its emulated after-mode
 * (splice-as-copy): the same turns, wake-ups and call sizes, with only the
 * two data calls different (splice() through a pipe, or read()/write()
 * through a pipe_size buffer). The loop is HAProxy's (see modes/splice.c
 * for what was read where): non-blocking sockets under edge-triggered
 * epoll; each call in asks for all the room left (pipe_size less what is
 * parked), reading on while less than SPLICE_FULL_HINT is parked and the
 * last call got less than tune.recv_enough; then what is parked goes out
 * in a loop until none is left or the socket is full. With chunk_cap each
 * call in asks for at most a chunk and one call out follows it (zcbench's
 * loop before issue 21).
 */
#include "modes/mode_shared.h"

#include <errno.h>
#include <sys/epoll.h>
#include <sys/socket.h>

/* HAProxy's SPLICE_FULL_HINT (raw_sock.c) and MIN_RECV_AT_ONCE_ENOUGH (defaults.h). */
#define FWD_FULL_HINT (16 * 1448)
#define FWD_RECV_ENOUGH (7 * 1448)

/* In: 0 or -errno; *blocked: the input is empty or at its end, or nothing is left to park in. */
static inline int fwd_in(struct zc_io *io, const struct zc_fwd_ops *ops, bool cap, bool *blocked)
{
	*blocked = io->eof;
	while (!io->eof && io->pending < io->pipe_size) {
		uint64_t want = io->pipe_size - io->pending;
		ssize_t n;

		if (cap && want > io->chunk)
			want = io->chunk;
		n = ops->in(io, want);
		io->calls++;
		if (n > 0) {
			io->pending += n;
			/* HAProxy stops reading here: what is parked is worth sending. */
			if (cap || io->pending >= FWD_FULL_HINT || n >= FWD_RECV_ENOUGH)
				return 0;
			continue;
		}
		if (n == 0)
			io->eof = true;
		else if (errno == EAGAIN)
			*blocked = true;
		else if (errno != EINTR)
			return -errno;
		return 0;
	}
	*blocked = true;	/* full: wait for the output side */
	return 0;
}

/* Out: 0 or -errno; *blocked: nothing parked, or the socket took no more. */
static inline int fwd_out(struct zc_io *io, const struct zc_fwd_ops *ops, bool cap, bool *blocked)
{
	*blocked = !io->pending;
	while (io->pending) {
		ssize_t n = ops->out(io, io->pending);

		io->calls++;
		if (n > 0) {
			io->pending -= n;
			io->bytes += n;
			*blocked = false;
			if (cap)
				return 0;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			*blocked = true;
		else if (n < 0 && errno != EINTR)
			return -errno;
		return 0;
	}
	return 0;
}

static inline int fwd_turn(struct zc_io *io, const struct zc_fwd_ops *ops, bool *bi, bool *bo)
{
	bool cap = ((const struct zc_fwd *)io->priv)->chunk_cap;
	int ret = fwd_in(io, ops, cap, bi);

	return ret ? ret : fwd_out(io, ops, cap, bo);
}

ssize_t zc_fwd_step(struct zc_io *io, const struct zc_fwd_ops *ops)
{
	uint64_t before = io->bytes;
	bool bi, bo;
	int ret = fwd_turn(io, ops, &bi, &bo);

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

/* The step until stopped, waiting in epoll when both sides would block. */
int zc_fwd_pump(struct zc_io *io, const struct zc_fwd_ops *ops)
{
	struct epoll_event evs[2];

	while (!*io->stop) {
		ssize_t n = zc_fwd_step(io, ops);

		if (n == -EAGAIN) {
			if (epoll_wait(io->epfd, evs, 2, -1) < 0 && errno != EINTR)
				return -errno;
			continue;
		}
		if (n < 0)
			return (int)n;
		if (io->eof && !io->pending)
			return 1;
	}
	return 0;
}
