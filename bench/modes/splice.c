// SPDX-License-Identifier: GPL-2.0
/*
 * proxy splice: socket -> pipe -> socket, the way HAProxy splices. Read from
 * HAProxy's source (master of 2026-08-21, 50872daa6a85; Debian 12 ships 2.6,
 * whose raw socket layer is the same):
 *
 * - src/raw_sock.c, raw_sock_to_pipe(): splice(fd, NULL, pipe->prod, NULL,
 *   count, SPLICE_F_MOVE|SPLICE_F_NONBLOCK), count being what is left to
 *   forward, for TCP "infinite forwarding" capped at MAX_SPLICE_AT_ONCE
 *   (1 GiB): so each call asks for far more than a pipe holds and the kernel
 *   stops at what the pipe has room for. It keeps reading only while the pipe
 *   holds less than SPLICE_FULL_HINT (16 * 1448 bytes) and the last call got
 *   less than tune.recv_enough (MIN_RECV_AT_ONCE_ENOUGH, 7 * 1448); else it
 *   stops (CO_FL_WAIT_ROOM) so the pipe is drained first. EAGAIN with data in
 *   the pipe means "pipe full, wait for room"; with an empty pipe, "socket
 *   empty, wait for input". ENOSYS/EBADF disable splicing (fallback to the
 *   buffer path: recv/send); EINVAL (kTLS records) falls back for this call.
 * - raw_sock_from_pipe(): splice(pipe->cons, NULL, fd, NULL, pipe->data,
 *   SPLICE_F_MOVE|SPLICE_F_NONBLOCK) in a loop until the pipe is empty or
 *   the socket says EAGAIN. No SPLICE_F_MORE on either side.
 * - src/mux_pt.c, mux_pt_fastfwd() / mux_pt_done_ff(): one to-pipe pass, then
 *   at once the from-pipe pass; when the pipe is empty it goes back to the
 *   pool (put_pipe) and the next pass takes one again (get_pipe).
 * - src/pipe.c, get_pipe()/put_pipe(): a thread-local cache of empty pipes
 *   over a per-group pool of at most global.maxpipes (default maxconn / 4,
 *   compute_ideal_maxpipes() in src/haproxy.c); a new pipe is sized with
 *   F_SETPIPE_SZ only when tune.pipesize is set (else the kernel's 64 KiB);
 *   a pipe put back with data in it is closed (kill_pipe). No pipe left
 *   (maxpipes reached) means the buffer path for that transfer.
 *
 * So here (the loop is modes/fwd_loop.c, shared with splice-as-copy):
 * non-blocking sockets under edge-triggered epoll, a pipe of pipe_size per
 * connection (the pool only matters when connections come and go: a stream
 * keeps its pipe), each splice() in asks for all the room left in the pipe
 * (pipe_size less what it holds; the kernel may stop earlier, its pipe
 * counts pages, not bytes), reads on while the pipe holds less than
 * SPLICE_FULL_HINT as HAProxy does, then the pipe is drained in a loop until
 * empty or EAGAIN. splice_chunk_cap = 1 caps each splice() in at `chunk`
 * and drains once per read, zcbench's loop before issue 21, kept for
 * comparison. On loopback the cap hardly matters (make bench-peers,
 * 2026-12-04: 50.2 against 51.5 syscalls per MB at 64 KiB chunks, HAProxy
 * 53.8): the socket seldom holds more than a chunk when the proxy asks.
 * No fallback to copying: a splice() error fails the run, since
 * a silent fallback would report copy figures as splice's.
 */
#include "modes/mode_shared.h"

#include <fcntl.h>

#define SPL_FLAGS (SPLICE_F_MOVE | SPLICE_F_NONBLOCK)

struct spl {
	struct zc_fwd fwd;
};

static int splice_setup(struct zc_io *io)
{
	/* Non-blocking like HAProxy's: a full or empty pipe says EAGAIN. */
	int ret = zc_pipe_open(io, &io->pipe_r, &io->pipe_w, io->pipe_size, true);

	if (ret)
		return ret;
	return zc_io_nonblock_epoll(io);
}

static ssize_t splice_in(struct zc_io *io, size_t want)
{
	return splice(io->in_fd, NULL, io->pipe_w, NULL, want, SPL_FLAGS);
}

static ssize_t splice_out(struct zc_io *io, size_t len)
{
	return splice(io->pipe_r, NULL, io->out_fd, NULL, len, SPL_FLAGS);
}

static const struct zc_fwd_ops splice_ops = { splice_in, splice_out };

static int splice_pump(struct zc_io *io)
{
	return zc_fwd_pump(io, &splice_ops);
}

/* One turn, for the event loop of a worker with many connections and for
 * the probe: bytes moved out, or -EAGAIN when both sides would block. */
static ssize_t splice_step(struct zc_io *io)
{
	return zc_fwd_step(io, &splice_ops);
}

ZC_MODE(splice,
	.role = ZC_ROLE_PROXY,
	ZC_FWD_USES,
	.summary = "splice() socket -> pipe -> socket, non-blocking + epoll, each call as much as "
		   "the pipe has room for, drained in a loop (HAProxy's way)",
	.path = "socket -> pipe -> socket (HAProxy)",
	.vs = ZC_MODE_REF(copy),
	.principal = true,
	.opts = ZC_MODE_OPTS(ZC_FWD_OPT_CHUNK_CAP(struct spl)),
	.priv_size = sizeof(struct spl),
	.setup = splice_setup,
	.pump = splice_pump,
	.step = splice_step,
	.flush = zc_flush_pipe,
	.teardown = zc_io_teardown_epoll,
);
