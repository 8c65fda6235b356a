/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_INI_H
#define ZC_INI_H

#include <stddef.h>

/*
 * INI files (workloads, hosts), read strictly: nothing in a file is ever
 * dropped or reinterpreted without a word.
 *
 *   [section]          ; a comment after white space
 *   key = value        ; key: letters, digits, '_', '-', '.'
 *   ; or # start a comment line; blank lines are ignored
 *
 * Lines of any length. The file must be a regular file of at most
 * ZC_INI_MAX_BYTES, strict UTF-8 (a leading BOM is allowed) without NUL or
 * other control bytes except tab and CR before LF. A line that is none of
 * the above, a key outside a section, a section that appears twice and a
 * key that appears twice in one section ('-' and '_' alike) are errors
 * naming the line. Why not inih: Debian's libinih is built with 200-byte
 * lines and splits a longer one, parsing its tail as a new line; it folds an
 * indented line into the previous value; it stops at a NUL; those are its
 * compile-time options, not ours to choose.
 */
#define ZC_INI_MAX_BYTES (1 << 20)
#define ZC_INI_SECTIONS_MAX 1024
#define ZC_INI_KEYS_MAX 1024	/* in one section */

/*
 * Told of every [section] header (key and value NULL) and every key = value,
 * with its line: 0 to go on, or -EINVAL to stop (the handler has written its
 * own message).
 */
typedef int (*zc_ini_handler)(void *user, const char *section, const char *key,
			      const char *value, int line);
/* 0; -EINVAL with "path:line: why" (or "path: why") in err for a fault of the
 * file, or the handler's -EINVAL with err untouched. */
int zc_ini_parse(const char *path, zc_ini_handler handler, void *user, char *err, size_t errlen);
/* "name:line: " (line 0: "name: ") and the message into err, cut to fit:
 * -EINVAL. Every reader of an INI file words its faults this way. */
int zc_ini_fault(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same over text[0..len) (changed in place; text[len] must be writable),
 * named name in messages. */
int zc_ini_parse_text(const char *name, char *text, size_t len, zc_ini_handler handler, void *user,
		      char *err, size_t errlen);

#endif
