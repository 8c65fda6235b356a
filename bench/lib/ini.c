// SPDX-License-Identifier: GPL-2.0
#include "lib/ini.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>

static int section_line; /* header line of the section being parsed */

int zc_ini_section_line(void)
{
	return section_line;
}

struct lines {
	FILE *f;
	int line;
	zc_ini_handler handler;
	void *user;
};

/* inih reads one line per call, so counting calls counts lines. */
static char *reader(char *str, int num, void *stream)
{
	struct lines *l = stream;
	char *s = fgets(str, num, l->f);

	if (s) {
		const char *p = s;

		l->line++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[')
			section_line = l->line;
	}
	return s;
}

static int trampoline(void *user, const char *section, const char *name, const char *value)
{
	struct lines *l = user;

	return l->handler(l->user, section, name, value, l->line);
}

int zc_ini_parse(const char *path, zc_ini_handler handler, void *user)
{
	struct lines l = { .handler = handler, .user = user };
	int ret;

	section_line = 0;
	l.f = fopen(path, "re");
	if (!l.f)
		return -errno;
	ret = ini_parse_stream(reader, &l, trampoline, &l);
	fclose(l.f);
	return ret;
}
