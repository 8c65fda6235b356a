// SPDX-License-Identifier: GPL-2.0
/*
 * proxy splice-as-copy (emulated after-mode of splice): if splice() copied,
 * socket -> pipe would copy the skb payload into pipe pages and pipe ->
 * socket would copy them into a new skb: two copies and two calls per
 * transfer, with the data parked in a pipe_size buffer between them. The
 * most faithful user-space match is the splice proxy's own loop
 * (modes/fwd_loop.c: the same call sizes, drains and wake-ups, and the same
 * splice_chunk_cap option) with the pipe replaced by a pipe_size user
 * buffer and each splice() by read() or write(). The plain `copy` proxy
 * differs (blocking, chunk-sized buffer), so it is not the after-mode of
 * splice. read()/write() rather than recv()/send() so the probe can feed the
 * step from pipes.
 */
#include "modes/mode_shared.h"

#include <errno.h>
#include <unistd.h>

struct spc {
	struct zc_fwd fwd;
	struct zc_bounce b;
};

static int spc_setup(struct zc_io *io)
{
	struct spc *s = io->priv;
	int ret;

	if ((ret = zc_bounce_alloc(&s->b, io->pipe_size)))
		return ret;
	return zc_io_nonblock_epoll(io);
}

/* Park up to want bytes after what the buffer holds (the loop keeps
 * io->pending, so tail - head == pending). */
static ssize_t spc_in(struct zc_io *io, size_t want)
{
	struct zc_bounce *b = &((struct spc *)io->priv)->b;
	ssize_t n;

	if (want > b->len - b->tail)
		want = b->len - b->tail;
	/* Room only before head (a partial drain): full until it drains, as
	 * a pipe whose slots are taken says EAGAIN with bytes to spare. */
	if (!want) {
		errno = EAGAIN;
		return -1;
	}
	n = read(io->in_fd, b->buf + b->tail, want);
	if (n > 0)
		b->tail += n;
	return n;
}

static ssize_t spc_out(struct zc_io *io, size_t len)
{
	struct zc_bounce *b = &((struct spc *)io->priv)->b;
	ssize_t n = write(io->out_fd, b->buf + b->head, len);

	if (n > 0) {
		b->head += n;
		/* A pipe is a ring; a drained buffer starts over, no memmove. */
		if (b->head == b->tail)
			b->head = b->tail = 0;
	}
	return n;
}

static const struct zc_fwd_ops spc_ops = { spc_in, spc_out };

static int spc_pump(struct zc_io *io)
{
	return zc_fwd_pump(io, &spc_ops);
}

/* One turn without the epoll wait (the probe's, and the event loop's of a
 * worker with many connections): bytes, or -EAGAIN when both sides block. */
static ssize_t spc_step(struct zc_io *io)
{
	return zc_fwd_step(io, &spc_ops);
}

/* Alternate (modes/alternate.c): what the buffer holds goes out first. */
static int spc_flush(struct zc_io *io)
{
	return zc_flush_with(io, spc_out);
}

static void spc_teardown(struct zc_io *io)
{
	zc_io_teardown_epoll(io);
	zc_bounce_free(&((struct spc *)io->priv)->b);
}

ZC_MODE(splice_as_copy,
	.role = ZC_ROLE_PROXY,
	ZC_FWD_USES,
	.flags = ZC_MODE_EMULATED,
	.summary = "splice proxy if splice() copied: same loop and call sizes, read()/write() via a "
		   "pipe_size buffer",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(splice)),
	.opts = ZC_MODE_OPTS(ZC_FWD_OPT_CHUNK_CAP(struct spc)),
	.priv_size = sizeof(struct spc),
	.setup = spc_setup,
	.pump = spc_pump,
	.step = spc_step,
	.flush = spc_flush,
	.teardown = spc_teardown,
);
