/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zcbench: common declarations shared by the controller and the roles.
 *
 * Convention (liburing's): library-style functions return 0 or -errno and
 * say so in a one-line comment; only setup paths in main()/role entry points
 * print and exit.
 */
#ifndef ZCBENCH_H
#define ZCBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>

#define ZC_VERSION "0.1"
/* Bumped on incompatible changes to results/NAME.json; see results/README.md. */
#define ZC_SCHEMA_MAJOR 1
#define ZC_SCHEMA_MINOR 11

#ifndef ZC_GIT_SHA
#define ZC_GIT_SHA "unknown"
#endif
#ifndef ZC_GIT_DIRTY
#define ZC_GIT_DIRTY 0
#endif

#define ZC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum zc_role { ZC_ROLE_SOURCE, ZC_ROLE_PROXY, ZC_ROLE_SINK, ZC_ROLE_NR };
extern const char *const zc_role_names[ZC_ROLE_NR];
int zc_role_from_name(const char *name); /* role index or -1 */

enum zc_topology { ZC_TOPO_PROXY, ZC_TOPO_DIRECT };
extern const char *const zc_topo_names[2];

/* Exit codes of the command line tool. */
/* 3: a verdict that could not tell (compare's gate, trend): neither a pass
 * nor a regression. */
enum { ZC_EXIT_OK = 0, ZC_EXIT_FAIL = 1, ZC_EXIT_USAGE = 2, ZC_EXIT_CANT_TELL = 3,
       ZC_EXIT_INTR = 130 };

/* Runs that stop early because of a signal see this set. */
extern volatile sig_atomic_t zc_interrupted;

void zc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void zc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void zc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

double zc_now(void); /* CLOCK_MONOTONIC in seconds */
int zc_parse_size(const char *s, uint64_t *out); /* "64k", "1M", "4096": 0 or -EINVAL */
int zc_parse_double(const char *s, double *out); /* 0 or -EINVAL */
int zc_parse_long(const char *s, long *out);     /* 0 or -EINVAL */
char *zc_read_file(const char *path, size_t max, size_t *len); /* NULL, errno set */
/*
 * Read an input file the user named (workload, host, results): a regular
 * file of at most max bytes, opened without blocking (a FIFO never hangs
 * the open) and never read past max (/dev/zero never spins). The buffer is
 * NUL-terminated (malloc'd); NULL with why ("is a directory", "is a FIFO,
 * not a regular file", "is larger than 1M", "No such file or directory").
 */
/* "a character device", "a FIFO", "a directory", ... (from st_mode) */
const char *zc_file_kind(unsigned int mode);
char *zc_read_input(const char *path, size_t max, size_t *len, char *why, size_t whylen);
/* Offset of the first byte of s[0..len) that is not strict UTF-8 (NUL,
 * overlong forms, surrogates and code points past U+10FFFF included), or
 * -1 when every byte is. */
long zc_utf8_bad(const char *s, size_t len);
/* Why byte off of s is bad, for messages: "a NUL byte", "byte 0xe9 (not
 * UTF-8)". */
void zc_utf8_why(const char *s, size_t len, long off, char *why, size_t whylen);
int zc_read_file_trim(const char *path, char *buf, size_t len); /* 0 or -errno */
/* One write(2) of s to an existing file, as a sysfs or procfs knob takes
 * it (no create, no truncate). 0 or -errno */
int zc_write_str(const char *path, const char *s);
/* Is pid a live zcbench? State files named after a pid are left alone
 * while it runs and restored once it is gone. */
bool zc_pid_is_zcbench(long pid);
/* The folder of those state files (tune, steering, IRQ affinities):
 * $ZC_STATE_DIR, else /run/zcbench. A test that kills a controller gives its
 * runs a folder of their own, so no other run beside it restores that state
 * first. A longer one than ZC_STATE_DIR_MAX characters ends the program
 * (exit 2, saying so). */
#define ZC_STATE_DIR_MAX 64
const char *zc_state_dir(void);
/* Write a whole buffer to path atomically (temp file in the same folder,
 * fsync, rename): a reader sees the old file or the new one. Only a missing
 * path or a regular file is replaced (lib/outpath.h). 0/-errno */
int zc_write_atomic(const char *path, const char *data, size_t len);
void zc_fmt_size(long long v, char *out, size_t len); /* 65536 -> "64k" */
/* Append to the string in buf (len bytes), cut when full (titles, notes). */
void zc_strcatf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int zc_mkdir_p(const char *path, int mode); /* mkdir -p: 0 or -errno (-ENOTDIR: not a folder) */
/* s as HTML or XML text (and inside a "-quoted attribute): & < > " escaped;
 * xml: control characters dropped as well (an SVG with one does not load). */
void zc_fputs_markup(FILE *f, const char *s, bool xml);
/*
 * Text from a file or an argument made safe to show on a terminal, in a mail
 * or in an exposition format: every control character (C0 with newline,
 * not a tab; DEL, C1), every code point that reorders or breaks lines (bidi
 * controls, U+2028/U+2029) and every byte that is not UTF-8 written as \xHH
 * or \uHHHH, so that a host name or a file name cannot move the cursor,
 * ring, clear the screen, start a fake line or reorder what is read.
 * zc_needs_escape: whether s has one; zc_escape: a malloc'd escaped copy
 * (NULL: out of memory); zc_escape_buf: into buf, cut at len.
 */
bool zc_needs_escape(const char *s);
char *zc_escape(const char *s);
const char *zc_escape_buf(const char *s, char *buf, size_t len);
/* Keys compare with '-' and '_' alike (option tables, INI files, mode options). */
bool zc_key_eq(const char *a, const char *b);
/* Lists kept one entry per file (export formats, compare layouts): an array
 * of pointers to structs whose first member is `const char *name`. The
 * entry called name, NULL if none; the names joined by sep into buf. */
const void *zc_row_find(const void *const *rows, size_t n, const char *name);
void zc_row_names(const void *const *rows, size_t n, char *buf, size_t len, const char *sep);
/* An option's check that v names an entry: 0, or -EINVAL with why naming them all. */
int zc_row_check(const void *const *rows, size_t n, const char *v, char *why, size_t len);

#endif
