/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data-path pieces a real mode shares with its emulated "after" mode, so
 * that the two differ only where the patch would.
 */
#ifndef ZC_MODE_SHARED_H
#define ZC_MODE_SHARED_H

#include "modes/mode.h"

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

#endif
