/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_INI_H
#define ZC_INI_H

/*
 * inih with line numbers: the handler is told the line of every key, so
 * errors can name file:line:key. Returns 0, -errno if the file cannot be
 * read, or the (positive) line of the first syntax error or handler failure.
 */
typedef int (*zc_ini_handler)(void *user, const char *section, const char *key,
			      const char *value, int line);
int zc_ini_parse(const char *path, zc_ini_handler handler, void *user);
/* In a handler: the line of the current [section] header (0 before any). */
int zc_ini_section_line(void);

#endif
