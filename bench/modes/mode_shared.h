/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Data-path pieces a real mode shares with its emulated "after" mode
 * (mode_after.c), so that the two differ only where the patch would.
 */
#ifndef ZC_MODE_SHARED_H
#define ZC_MODE_SHARED_H

#include "modes/mode.h"

/* tee: master pipe filled once with vmsplice (or writev, the after case). 0/-errno */
int zc_tee_setup(struct zc_io *io, bool by_writev);
/* tee: one chunk of the master pipe into io->pipe_w. Bytes or -errno. */
ssize_t zc_tee_fill(struct zc_io *io);

/* sendfile: one call from io->file_fd at fill_off. Bytes or -errno (-EIO at EOF). */
ssize_t zc_sendfile_step(struct zc_io *io);
/* sendfile: zc_sendfile_step until *io->stop. 0 or -errno. */
int zc_sendfile_pump(struct zc_io *io);

#endif
