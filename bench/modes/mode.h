/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A data path is a mode: one file exporting a const struct zc_mode, and one
 * line in modes.h. Everything else (zcbench list, --help, validation) is
 * generated from that list.
 */
#ifndef ZC_MODE_H
#define ZC_MODE_H

#include "lib/zcbench.h"

#include <sys/types.h>

struct json_t;

#define ZC_MODE_VERIFIES	0x01	/* sink: checks every byte */
#define ZC_MODE_EMULATED	0x02	/* emulates a patched kernel's behaviour */
#define ZC_MODE_STATIC_CHUNK	0x04	/* source re-sends one chunk: period = chunk */
#define ZC_MODE_PAGE_CHUNK	0x08	/* chunk must be a multiple of the page size */
#define ZC_MODE_FILE		0x10	/* source reads the payload from a file */

struct zc_io {
	/* The run's settings a data path needs (the role copies them in). */
	uint64_t chunk;			/* bytes per data call */
	uint64_t pipe_size;		/* F_SETPIPE_SZ for the mode's pipes */
	const char *file_dir;		/* where file modes keep their payload file */
	int in_fd, out_fd;		/* sockets; -1 where the role has none */
	uint8_t *buf;			/* NUMA-local, touched before t0 */
	size_t buf_len;
	uint64_t period;		/* pattern period */
	const uint8_t *ref;		/* one period of the pattern (sink) */
	int file_fd;			/* payload file (ZC_MODE_FILE) */
	int pipe_r, pipe_w;		/* a pipe owned by the mode */
	int aux_r, aux_w;		/* a second pipe (tee's master) */
	int epfd;
	uint64_t pending;		/* bytes sitting in pipe_r */
	uint64_t fill_off;		/* stream offset of the next byte to fill */
	bool eof;
	volatile sig_atomic_t *stop;	/* set by the role's timer */
	/* results, read at the window edges only */
	uint64_t bytes;			/* moved (sent, forwarded, received) */
	uint64_t calls;			/* data syscalls issued */
	uint64_t mismatch_off;		/* UINT64_MAX: none */
	bool verified;
	/*
	 * Added by the uring branch: figures only this mode knows (msg-zerocopy's
	 * copied fraction, io_uring enters...), a jansson object the mode builds
	 * by teardown; the role puts it in its report as "mode_report".
	 */
	struct json_t *mode_report;
};

struct zc_mode {
	const char *name;
	enum zc_role role;
	unsigned flags;
	const char *summary;
	/* NULL when usable here, else why not (checked with a real call). */
	const char *(*unavailable)(void);
	int (*setup)(struct zc_io *io);		/* 0 or -errno */
	/* Move data until *io->stop: 0 on stop, 1 on EOF, -errno on error. */
	int (*pump)(struct zc_io *io);
	/*
	 * One step of the same data path, for zcbench probe (probe.c): move up
	 * to one chunk from the mode's source into io->out_fd, which the probe
	 * makes a pipe. Bytes moved or -errno. NULL: the probe skips the mode.
	 */
	ssize_t (*probe_step)(struct zc_io *io);
	void (*teardown)(struct zc_io *io);
};

#include "modes/modes.h"

#define ZC_MODE_DECLARE(ident) extern const struct zc_mode zc_mode_##ident;
ZC_MODES(ZC_MODE_DECLARE)
#undef ZC_MODE_DECLARE

extern const struct zc_mode *const zc_modes[];
extern const size_t zc_nmodes;

const struct zc_mode *zc_mode_find(enum zc_role role, const char *name);
void zc_modes_list(FILE *f, bool with_availability);

/* mode_common.c: helpers shared by pipe-based modes (0 or -errno) */
int zc_pipe_open(struct zc_io *io, int *r, int *w, uint64_t size, bool nonblock);
void zc_pipe_close(int *r, int *w);
/* Drain io->pending bytes of io->pipe_r into io->out_fd with splice. */
int zc_pipe_drain(struct zc_io *io);
/* Generic source pump: fill(io) puts bytes into io->pipe_w, then drain. */
int zc_pipe_source_pump(struct zc_io *io, ssize_t (*fill)(struct zc_io *io));
/* One fill then drain, as one turn of zc_pipe_source_pump: bytes or -errno. */
ssize_t zc_pipe_source_step(struct zc_io *io, ssize_t (*fill)(struct zc_io *io));
void zc_io_teardown_pipes(struct zc_io *io);
/* Proxies the HAProxy way: both sockets non-blocking, edge-triggered epoll. */
int zc_io_nonblock_epoll(struct zc_io *io);
/* Create the payload file in io->file_dir (unlinked at once). */
int zc_payload_file(struct zc_io *io);
/* Bytes to take from the payload buffer at fill_off without wrapping. */
size_t zc_src_len(const struct zc_io *io);

#endif
