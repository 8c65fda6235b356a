// SPDX-License-Identifier: GPL-2.0
/* Text fitted to a width (term.h). */
#include "lib/term.h"
#include "lib/zcbench.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int zc_term_width(int fd)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	long cols;

	/* Narrower than a cell or two is no width to lay out in. */
	if (env && !zc_parse_long(env, &cols) && cols >= 20 && cols <= 1000)
		return (int)cols;
	if (isatty(fd) && !ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return ZC_TERM_WIDTH_DEFAULT;
}

static int is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

int zc_text_cols(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += !is_cont(*s);
	return n;
}

/* Bytes of s's first cols characters. */
static size_t bytes_of(const char *s, int cols)
{
	size_t b = 0;

	for (int n = 0; s[b] && n < cols; n++)
		for (b++; s[b] && is_cont(s[b]); b++)
			;
	return b;
}

void zc_elide(char *dst, size_t len, const char *s, int width)
{
	size_t b, n = strlen(s);

	if (!len)
		return;
	/* dst may be s: moved, not printed over itself */
	if (width < 1)
		n = 0;
	else if (zc_text_cols(s) > width && (b = bytes_of(s, width - 1)) + 1 < len) {
		memmove(dst, s, b);
		dst[b] = ZC_ELIDE_MARK;
		dst[b + 1] = 0;
		return;
	}
	n = n < len ? n : len - 1;
	memmove(dst, s, n);
	dst[n] = 0;
}

void zc_put_cell(FILE *f, const char *s, int width, int right_aligned)
{
	char cut[512];
	int pad;

	zc_elide(cut, sizeof(cut), s, width);
	pad = width - zc_text_cols(cut);
	if (right_aligned)
		fprintf(f, "%*s%s", pad > 0 ? pad : 0, "", cut);
	else
		fprintf(f, "%s%*s", cut, pad > 0 ? pad : 0, "");
}

/* One line (no '\n') of len bytes, broken at spaces. */
static void put_line(FILE *f, const char *s, size_t len, int width, int indent)
{
	int lead = 0, room = width;

	while (len) {
		size_t take = 0, last_space = 0;
		int cols = 0;

		while (take < len && cols < room) {
			if (s[take] == ' ')
				last_space = take;
			for (take++; take < len && is_cont(s[take]); take++)
				;
			cols++;
		}
		if (take < len && s[take] != ' ' && last_space > 0)
			take = last_space;	/* break before the word that does not fit */
		if (take < len && s[take] != ' ' && !last_space) {
			/* one word wider than the line: cut it */
			char word[512];

			snprintf(word, sizeof(word), "%.*s", (int)len, s);
			zc_elide(word, sizeof(word), word, room);
			fprintf(f, "%*s%s\n", lead, "", word);
			while (len && *s != ' ')
				s++, len--;
		} else {
			fprintf(f, "%*s%.*s\n", lead, "", (int)take, s);
			s += take;
			len -= take;
		}
		while (len && *s == ' ')
			s++, len--;
		lead = indent < width / 2 ? indent : 0;
		room = width - lead;
	}
}

void zc_put_fitted(FILE *f, const char *text, int width, int indent)
{
	while (*text) {
		const char *nl = strchrnul(text, '\n');
		size_t len = (size_t)(nl - text);

		if (!len || width < 1)
			fprintf(f, "%.*s\n", (int)len, text);
		else
			put_line(f, text, len, width, indent);
		text = *nl ? nl + 1 : nl;
	}
}

void zc_put_hanging(FILE *f, const char *text, int width, int hang)
{
	while (*text) {
		const char *nl = strchrnul(text, '\n');
		size_t len = (size_t)(nl - text), lead = strspn(text, " ");

		if (!len || width < 1)
			fprintf(f, "%.*s\n", (int)len, text);
		else
			put_line(f, text, len, width, (int)(lead < len ? lead : len) + hang);
		text = *nl ? nl + 1 : nl;
	}
}
