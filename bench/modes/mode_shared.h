/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data-path pieces a real mode shares with its emulated "after" mode, so
 * that the two differ only where the patch would.
 */
#ifndef ZC_MODE_SHARED_H
#define ZC_MODE_SHARED_H

#include "modes/mode.h"

#include <stddef.h>

/* vmsplice: one chunk of the user buffer into io->pipe_w. Bytes or -errno. */
ssize_t zc_vmsplice_fill(struct zc_io *io, unsigned int flags);

/* tee: master pipe filled once with vmsplice (or writev, the after case). 0/-errno */
int zc_tee_setup(struct zc_io *io, bool by_writev);
/* tee: one chunk of the master pipe into io->pipe_w. Bytes or -errno. */
ssize_t zc_tee_fill(struct zc_io *io);

/* sendfile: one call from io->file_fd at fill_off. Bytes or -errno (-EIO at EOF). */
ssize_t zc_sendfile_step(struct zc_io *io);

/*
 * The user-space buffer of sendfile-as-copy and splice-as-copy, in their
 * priv: what the patched kernel would copy through. head/tail: the bytes
 * splice-as-copy has parked in it (a pipe's worth at most).
 */
struct zc_bounce {
	uint8_t *buf;
	size_t len, head, tail;
};
/* Allocate and touch len bytes (before t0). 0 or -ENOMEM */
int zc_bounce_alloc(struct zc_bounce *b, size_t len);
void zc_bounce_free(struct zc_bounce *b);

/*
 * fwd_loop.c: the loop of the splice proxy and of splice-as-copy. The two
 * data calls: in() parks up to want bytes (splice() into the pipe, read()
 * into the buffer), out() sends up to len of them; each returns bytes, 0 at
 * end of input, -1 with errno. The mode's priv begins with struct zc_fwd.
 */
struct zc_fwd_ops {
	ssize_t (*in)(struct zc_io *io, size_t want);
	ssize_t (*out)(struct zc_io *io, size_t len);
};
struct zc_fwd {
	long chunk_cap;		/* splice_chunk_cap: at most a chunk per call in */
};
/* The mode option both declare, into struct zc_fwd's chunk_cap. */
#define ZC_FWD_OPT_CHUNK_CAP(type)						\
	{ "splice_chunk_cap", ZC_MODE_OPT_LONG, "0", 0, 1, offsetof(type, fwd.chunk_cap),	\
	  "1: each call into the pipe asks for at most chunk bytes, one call out "	\
	  "follows it (zcbench before issue 21: 31 splice calls per MB at 64k); 0: "	\
	  "as much as the pipe has room for, drained until empty (HAProxy's way)" }
/* What a mode with that option passes on: the pipe size, and the chunk
 * only with splice_chunk_cap = 1 (each call in asks for the room left). */
#define ZC_FWD_USES .uses = ZC_USES(pipe_size), .uses_opt = "splice_chunk_cap"
/* The mode's pump (0 on stop, 1 on EOF, -errno) and its one-turn step
 * (bytes out, -EAGAIN when both sides would block, -errno). */
int zc_fwd_pump(struct zc_io *io, const struct zc_fwd_ops *ops);
ssize_t zc_fwd_step(struct zc_io *io, const struct zc_fwd_ops *ops);

#endif
