// SPDX-License-Identifier: GPL-2.0
/*
 * Two modes taking turns on one stream (run key alternate, issue 22): at a
 * slice's end the outgoing mode hands on what it holds (its pipe's pending
 * bytes, a proxy's unsent buffer), so the stream is whole and the sink still
 * verifies every byte; the incoming mode takes the stream's offset and
 * counters over with the same sockets and its own pipes and private state.
 */
#include "modes/mode.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

/* How long a flush waits for an output that takes nothing. */
#define FLUSH_WAIT_MS 10000

const char *zc_mode_alternate_why(const struct zc_mode *m)
{
	if (m->flags & ZC_MODE_PEER)
		return "it is a peer program, whose loop zcbench cannot switch";
	if (m->role == ZC_ROLE_SINK)
		return "only sources and proxies take turns (a sink's check spans the stream)";
	if (m->pump_conns || m->shared_size || m->settle_conns)
		return "its loop spans a worker's connections with requests in flight (io_uring)";
	if (!m->step && !m->fill)
		return "its loop is its own (a pump) with no step to stop between turns";
	if (m->role == ZC_ROLE_PROXY && !m->flush)
		return "it does not say how to send on the bytes it holds (.flush)";
	return NULL;
}

/* Wait until fd takes more: 0, or -ETIMEDOUT. EINTR (a kick) waits again. */
static int wait_out(int fd, int *waited_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int n = poll(&p, 1, 100);

	if (n < 0 && errno != EINTR)
		return -errno;
	if (n == 0 && (*waited_ms += 100) >= FLUSH_WAIT_MS)
		return -ETIMEDOUT;
	return 0;
}

static ssize_t pipe_out(struct zc_io *io, size_t len)
{
	return splice(io->pipe_r, NULL, io->out_fd, NULL, len, SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
}

int zc_flush_pipe(struct zc_io *io)
{
	return zc_flush_with(io, pipe_out);
}

int zc_flush_with(struct zc_io *io, ssize_t (*out)(struct zc_io *io, size_t len))
{
	int waited = 0, ret;

	while (io->pending) {
		ssize_t n = out(io, io->pending);

		io->calls++;
		if (n > 0) {
			io->pending -= n;
			io->bytes += n;
			waited = 0;
		} else if (n == 0) {
			return -EPIPE;
		} else if (errno == EAGAIN) {
			if ((ret = wait_out(io->out_fd, &waited)))
				return ret;
		} else if (errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

int zc_flush_buf(struct zc_io *io)
{
	int waited = 0, ret;

	while (io->pending) {
		ssize_t n = send(io->out_fd, io->buf + io->fill_off, io->pending, MSG_DONTWAIT);

		io->calls++;
		if (n > 0) {
			io->pending -= n;
			io->fill_off += n;
			io->bytes += n;
			waited = 0;
		} else if (n < 0 && errno == EAGAIN) {
			if ((ret = wait_out(io->out_fd, &waited)))
				return ret;
		} else if (n < 0 && errno != EINTR) {
			return -errno;
		}
	}
	return 0;
}

int zc_mode_flush(const struct zc_mode *m, struct zc_io *io)
{
	if (m->flush)
		return m->flush(io);
	if (!io->pending)
		return 0;
	if (m->fill && io->pipe_r >= 0)
		return zc_flush_pipe(io);
	return -EPROTO;
}

#define SWAP(x, y) do { __typeof__(x) t_ = (x); (x) = (y); (y) = t_; } while (0)

void zc_io_swap_mode_state(struct zc_io *a, struct zc_io *b)
{
	SWAP(a->priv, b->priv);
	SWAP(a->pipe_r, b->pipe_r);
	SWAP(a->pipe_w, b->pipe_w);
	SWAP(a->aux_r, b->aux_r);
	SWAP(a->aux_w, b->aux_w);
	SWAP(a->epfd, b->epfd);
	SWAP(a->file_fd, b->file_fd);
	SWAP(a->shared, b->shared);
	SWAP(a->evloop, b->evloop);
	SWAP(a->mode_report, b->mode_report);
}

void zc_conns_all_ready(struct zc_conns *w)
{
	if (w->epfd < 0)
		return;
	w->nlist = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct zc_io *io = w->io[i];

		/* A finished connection stays marked and off the list for good. */
		if (io->eof && !io->pending)
			continue;
		w->mark[i] = true;
		w->list[w->nlist++] = (uint32_t)i;
	}
}
