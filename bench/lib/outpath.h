/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where zcbench may write (every command's --out, the pictures, the
 * dashboard, the noise file, kernel-build's outputs). A writer creates a
 * missing path in an existing folder or replaces a regular file, atomically
 * (a temp file in the same folder, renamed over it). It never replaces a
 * device, a FIFO, a socket, a folder or a symbolic link: as root, renaming
 * over /dev/full would remove the device node. A symbolic link the user
 * named is followed to a regular file, and the note says so; a link inside
 * an output folder is refused. "-" is standard output where a command writes
 * one stream.
 */
#ifndef ZC_OUTPATH_H
#define ZC_OUTPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum { ZC_OUT_REFUSED = -1, ZC_OUT_FILE = 0, ZC_OUT_STDOUT = 1 };

/*
 * A file the user named for the tool to write: ZC_OUT_FILE with the path to
 * write in target (a link's target, with a note on stderr), ZC_OUT_STDOUT
 * for "-" when dash_ok, or ZC_OUT_REFUSED with why ("is a character device,
 * not a regular file"; "is in /x/y, which does not exist"; "cannot be
 * written": a temp file beside it is made and removed to know). Commands
 * refuse with exit 2 before they do any work.
 */
int zc_out_file(const char *path, bool dash_ok, char *target, size_t tlen, char *why,
		size_t whylen);
/* The output target (zc_out_file's) is none of the n inputs (the same file,
 * through whatever name or link): 0, or -1 with why. Commands refuse with
 * exit 2 (export --out x.json x.json would replace the results file). */
int zc_out_not_input(const char *target, char *const *inputs, size_t n, char *why,
		     size_t whylen);
/* A folder to write into: made (mkdir -p) when missing, else it must be a
 * folder (or a link to one). 0, or -1 with why. */
int zc_out_dir(const char *path, char *why, size_t whylen);
/* May a writer replace path? 0 when it is missing or a regular file (a link
 * is not followed); -EISDIR for a folder, -EEXIST for anything else. Every
 * writer below checks it, whatever its caller checked before. */
int zc_out_may_replace(const char *path);
/* A new temp file beside path (.NAME.XXXXXX, for zc_out_install): its fd,
 * or -errno. */
int zc_out_temp(const char *path, char *tmp, size_t len);
/* Rename a finished temp file over path, if it may be replaced; the temp
 * file is removed when not. 0 or -errno. */
int zc_out_install(const char *tmp, const char *path);
/* A file in an output folder opened for writing in place (a CSV that
 * gnuplot reads next): fopen "w" that refuses what zc_out_may_replace
 * refuses, never follows a link and never waits on a FIFO. NULL with errno. */
FILE *zc_out_fopen(const char *path);
/* Remove a stale output (a picture an older plot left): only a regular
 * file is removed; anything else stays, and writing it will be refused. */
void zc_out_remove(const char *path);

#endif
