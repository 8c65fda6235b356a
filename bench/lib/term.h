/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text fitted to a width, for output a person reads (the run table, the
 * lines under it): the width to fit, cells cut with a marker, long lines
 * broken at spaces. Widths count characters (UTF-8 code points), not bytes.
 */
#ifndef ZC_TERM_H
#define ZC_TERM_H

#include <stddef.h>
#include <stdio.h>

/* Off a terminal, without COLUMNS: what a mail, a CI log or a pager shows. */
#define ZC_TERM_WIDTH_DEFAULT 100
/* The last character of a cut cell. */
#define ZC_ELIDE_MARK '~'

/* COLUMNS when it is a number (what `COLUMNS=100 cmd` and shells set), else
 * the terminal's width when fd is one (TIOCGWINSZ), else the default. */
int zc_term_width(int fd);
/* Characters (UTF-8 code points) in s. */
int zc_text_cols(const char *s);
/* s into dst, cut to at most width characters with ZC_ELIDE_MARK last when
 * it was longer; never splits a character. */
void zc_elide(char *dst, size_t len, const char *s, int width);
/* s in a cell of width characters: cut as zc_elide, padded with spaces on
 * the right (left-aligned) or on the left. */
void zc_put_cell(FILE *f, const char *s, int width, int right_aligned);
/* Every line of text, a line longer than width broken at spaces into lines
 * indented by indent; a word longer than a line is cut with the mark. */
void zc_put_fitted(FILE *f, const char *text, int width, int indent);
/* As zc_put_fitted, each line's continuations indented by that line's own
 * leading spaces plus hang: prose under a heading stays under it. */
void zc_put_hanging(FILE *f, const char *text, int width, int hang);

#endif
