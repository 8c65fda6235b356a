// SPDX-License-Identifier: GPL-2.0
/* A small strict INI reader (ini.h says what it accepts and why not inih). */
#include "lib/ini.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct seen {
	const char *name;	/* points into the text */
	int line;
};

struct ini {
	const char *name;
	char *err;
	size_t errlen;
	struct seen *sections, *keys;	/* every section; the keys of the current one */
	int nsections, nkeys;
};

int zc_ini_fault(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
{
	int n = line ? snprintf(err, errlen, "%s:%d: ", name, line) : snprintf(err, errlen, "%s: ", name);
	va_list ap;

	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

#define bad(p, line, ...) zc_ini_fault((p)->err, (p)->errlen, (p)->name, line, __VA_ARGS__)

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s without trailing blanks (in place). */
static char *rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && blank(s[n - 1]))
		s[--n] = 0;
	return s;
}

/* Cut an inline comment: ';' after white space. */
static void cut_comment(char *s)
{
	for (char *c = s; (c = strchr(c, ';')); c++)
		if (c > s && blank(c[-1])) {
			*c = 0;
			return;
		}
}

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* Remember name (per section or per file); -EINVAL when it came before. */
static int remember(struct ini *p, struct seen **v, int *n, int max, const char *name, int line,
		    bool keys, const char *section)
{
	struct seen *grown;

	for (int i = 0; i < *n; i++) {
		if (keys && zc_key_eq((*v)[i].name, name))
			return bad(p, line, "key '%s' appears twice in [%s] (first on line %d)", name,
				   section, (*v)[i].line);
		if (!keys && !strcmp((*v)[i].name, name))
			return bad(p, line, "section [%s] appears twice (first on line %d)", name,
				   (*v)[i].line);
	}
	if (*n == max)
		return keys ? bad(p, line, "more than %d keys in [%s]", max, section)
			    : bad(p, line, "more than %d sections", max);
	grown = realloc(*v, (*n + 1) * sizeof(**v));
	if (!grown)
		return bad(p, line, "%s", strerror(ENOMEM));
	*v = grown;
	(*v)[*n].name = name;
	(*v)[(*n)++].line = line;
	return 0;
}

/* The text must be UTF-8 without NUL or control bytes (tab, CR LF aside). */
static int check_text(struct ini *p, const char *text, size_t len)
{
	long off = zc_utf8_bad(text, len);
	int line = 1;
	char why[96];

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (off >= 0 && i == (size_t)off)
			break;
		if (c == '\n')
			line++;
		else if ((c < 0x20 && c != '\t' && !(c == '\r' && i + 1 < len && text[i + 1] == '\n')) ||
			 c == 0x7f)
			return bad(p, line, "control character 0x%02x (files are plain UTF-8 text)", c);
	}
	if (off < 0)
		return 0;
	zc_utf8_why(text, len, off, why, sizeof(why));
	return bad(p, line, "%s", why);
}

static int parse_line(struct ini *p, char *s, int line, const char **section,
		      zc_ini_handler handler, void *user)
{
	char *eq, *key, *value;
	int ret;

	while (blank(*s))
		s++;
	rtrim(s);
	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (*s == '[') {
		char *end = strchr(s, ']'), *name = s + 1;

		if (!end)
			return bad(p, line, "'[' without ']' (expected [section])");
		*end = 0;
		cut_comment(end + 1);
		if (*rtrim(end + 1))
			return bad(p, line, "text after [%s]: '%s'", name, end + 1);
		while (blank(*name))
			name++;
		rtrim(name);
		if (!*name || strchr(name, '['))
			return bad(p, line, "'[%s]' is not a section name", name);
		ret = remember(p, &p->sections, &p->nsections, ZC_INI_SECTIONS_MAX, name, line, false,
			       NULL);
		if (ret)
			return ret;
		p->nkeys = 0;
		*section = name;
		return handler(user, name, NULL, NULL, line);
	}
	eq = strchr(s, '=');
	if (!eq)
		return bad(p, line, "'%s' is not key = value, [section] or a ; comment", s);
	*eq = 0;
	key = rtrim(s);
	value = eq + 1;
	while (blank(*value))
		value++;
	cut_comment(value);
	rtrim(value);
	if (!*key)
		return bad(p, line, "no key before '='");
	for (const char *c = key; *c; c++)
		if (!key_char(*c))
			return bad(p, line, "'%s' is not a key (letters, digits, '_', '-', '.')", key);
	if (!*section)
		return bad(p, line, "key '%s' before any [section]", key);
	ret = remember(p, &p->keys, &p->nkeys, ZC_INI_KEYS_MAX, key, line, true, *section);
	return ret ? ret : handler(user, *section, key, value, line);
}

int zc_ini_parse_text(const char *name, char *text, size_t len, zc_ini_handler handler, void *user,
		      char *err, size_t errlen)
{
	struct ini p = { .name = name, .err = err, .errlen = errlen };
	const char *section = NULL;	/* none yet: a key now is an error */
	char *s = text, *end = text + len;
	int line = 1, ret;

	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		s += 3;	/* a UTF-8 byte order mark */
	ret = check_text(&p, s, end - s);
	for (; !ret && s < end; line++) {
		char *nl = memchr(s, '\n', end - s), *next = nl ? nl + 1 : end;

		if (nl)
			*nl = 0;
		else
			*end = 0;	/* text has room for its NUL: zc_ini_parse's and callers' */
		if (nl && nl > s && nl[-1] == '\r')
			nl[-1] = 0;
		ret = parse_line(&p, s, line, &section, handler, user);
		s = next;
	}
	free(p.sections);
	free(p.keys);
	return ret;
}

int zc_ini_parse(const char *path, zc_ini_handler handler, void *user, char *err, size_t errlen)
{
	char why[160];
	size_t len;
	char *text = zc_read_input(path, ZC_INI_MAX_BYTES, &len, why, sizeof(why));
	int ret;

	if (!text) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -EINVAL;
	}
	ret = zc_ini_parse_text(path, text, len, handler, user, err, errlen);
	free(text);
	return ret;
}
