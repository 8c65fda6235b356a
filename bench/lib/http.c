// SPDX-License-Identifier: GPL-2.0
/* The minimal HTTP/1.1 of request/response runs (http.h). */
#include "lib/http.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define HOST_LINE "Host: zcbench"
#define CLOSE_LINE "Connection: close\r\n"
#define PAD_NAME "X-Pad: "

static size_t req_fixed(uint64_t object, bool close, char *path, size_t pathlen)
{
	snprintf(path, pathlen, "/%llu", (unsigned long long)object);
	/* "GET " path " HTTP/1.1\r\n" HOST_LINE "\r\n" [CLOSE_LINE] "\r\n" */
	return 4 + strlen(path) + 11 + strlen(HOST_LINE) + 2 + (close ? strlen(CLOSE_LINE) : 0) + 2;
}

size_t zc_http_request_min(uint64_t object, bool close)
{
	char path[32];

	return req_fixed(object, close, path, sizeof(path));
}

int zc_http_request(char *buf, size_t len, uint64_t object, bool close, size_t want)
{
	char path[32];
	size_t min = req_fixed(object, close, path, sizeof(path)), extra, host_ows = 0, pad = 0;
	size_t k;
	int n;

	if (!want)
		want = min;
	if (want < min || want > ZC_HTTP_HEAD_MAX)
		return -ERANGE;
	if (want >= len)
		return -E2BIG;
	extra = want - min;
	/* An X-Pad header takes at least its name and line end; less than that
	 * goes into optional whitespace after the Host value. */
	if (extra >= strlen(PAD_NAME) + 2)
		pad = extra - strlen(PAD_NAME) - 2;
	else
		host_ows = extra;
	n = snprintf(buf, len, "GET %s HTTP/1.1\r\n" HOST_LINE "%*s\r\n%s", path, (int)host_ows, "",
		     close ? CLOSE_LINE : "");
	if (n < 0 || (size_t)n >= len)
		return -E2BIG;
	k = (size_t)n;
	if (extra >= strlen(PAD_NAME) + 2) {
		memcpy(buf + k, PAD_NAME, strlen(PAD_NAME));
		k += strlen(PAD_NAME);
		memset(buf + k, 'x', pad);
		k += pad;
		memcpy(buf + k, "\r\n", 2);
		k += 2;
	}
	memcpy(buf + k, "\r\n", 2);
	k += 2;
	buf[k] = 0;
	return k == want ? (int)k : -ERANGE;
}

int zc_http_response(char *buf, size_t len, uint64_t content_length, bool close)
{
	int n = snprintf(buf, len, "HTTP/1.1 200 OK\r\nContent-Length: %llu\r\n%s\r\n",
			 (unsigned long long)content_length, close ? CLOSE_LINE : "");

	return n < 0 || (size_t)n >= len ? -E2BIG : n;
}

#define BAD(...) do { snprintf(err, errlen, __VA_ARGS__); return -EPROTO; } while (0)

/* The head's length (through the blank line), 0 when incomplete, -E2BIG. */
static long head_end(const char *buf, size_t len)
{
	size_t lim = len < ZC_HTTP_HEAD_MAX ? len : ZC_HTTP_HEAD_MAX;

	for (size_t i = 0; i + 3 < lim; i++)
		if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n')
			return (long)(i + 4);
	return len >= ZC_HTTP_HEAD_MAX ? -E2BIG : 0;
}

static bool tchar(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Decimal digits [p, e) into *v: 0, or -1 (none, a non-digit, overflow). */
static int digits(const char *p, const char *e, uint64_t *v)
{
	*v = 0;
	if (p == e || e - p > 19)
		return -1;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(*p - '0');
	}
	return 0;
}

/* Does the comma list [p, e) hold token tok (case-insensitive)? */
static bool list_has(const char *p, const char *e, const char *tok)
{
	size_t n = strlen(tok);

	while (p < e) {
		const char *c = memchr(p, ',', e - p) ?: e, *q = c;

		while (p < q && (*p == ' ' || *p == '\t'))
			p++;
		while (q > p && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if ((size_t)(q - p) == n && !strncasecmp(p, tok, n))
			return true;
		p = c + 1;
	}
	return false;
}

/* The header lines after the start line at p, up to the blank line at end. */
static int headers(const char *p, const char *end, struct zc_http_msg *m, bool response,
		   char *err, size_t errlen)
{
	bool have_len = false;
	int line = 2;

	for (; p < end; line++) {
		const char *eol = memchr(p, '\n', end - p), *colon, *v, *ve;

		if (!eol || eol == p || eol[-1] != '\r')
			BAD("head line %d: a line must end with CRLF", line);
		if (eol - 1 == p)	/* the blank line */
			return 0;
		if (*p == ' ' || *p == '\t')
			BAD("head line %d: folded header lines are not accepted", line);
		for (colon = p; colon < eol - 1 && tchar(*colon); colon++)
			;
		if (colon == p || colon >= eol - 1 || *colon != ':')
			BAD("head line %d: not a header (NAME: value)", line);
		for (v = colon + 1; v < eol - 1 && (*v == ' ' || *v == '\t'); v++)
			;
		for (ve = eol - 1; ve > v && (ve[-1] == ' ' || ve[-1] == '\t'); ve--)
			;
		for (const char *q = v; q < ve; q++)
			if ((unsigned char)*q < 0x20 && *q != '\t')
				BAD("head line %d: a control byte in the value", line);
		if (colon - p == 10 && !strncasecmp(p, "Connection", 10)) {
			if (list_has(v, ve, "close"))
				m->close = true;
		} else if (colon - p == 17 && !strncasecmp(p, "Transfer-Encoding", 17)) {
			BAD("head line %d: Transfer-Encoding is not supported (a Content-Length "
			    "body is)", line);
		} else if (colon - p == 14 && !strncasecmp(p, "Content-Length", 14)) {
			uint64_t n;

			if (digits(v, ve, &n))
				BAD("head line %d: Content-Length is not a decimal number", line);
			if (have_len && n != m->content_length)
				BAD("head line %d: a second, different Content-Length", line);
			have_len = true;
			m->content_length = n;
		}
		p = eol + 1;
	}
	BAD("the head has no blank line");
	(void)response;
}

int zc_http_parse_request(const char *buf, size_t len, struct zc_http_msg *m, char *err,
			  size_t errlen)
{
	long end = head_end(buf, len);
	const char *p = buf, *sp, *eol;
	int ret;

	if (end <= 0) {
		if (end == -E2BIG)
			snprintf(err, errlen, "no end of the request head within %d bytes",
				 ZC_HTTP_HEAD_MAX);
		return (int)end;
	}
	memset(m, 0, sizeof(*m));
	m->head_len = (size_t)end;
	eol = memchr(p, '\n', (size_t)end);
	if (!eol || eol == p || eol[-1] != '\r')
		BAD("request line: must end with CRLF");
	if (strncmp(p, "GET /", 5))
		BAD("request line: only GET /<object size> is served");
	p += 4;
	sp = memchr(p, ' ', eol - p);
	if (!sp)
		BAD("request line: no HTTP version");
	if (sp - p == 1)
		m->object = UINT64_MAX;	/* "/": the run's object size */
	else if (digits(p + 1, sp, &m->object))
		BAD("request line: the path is not /<object size in bytes>");
	if (eol - 1 - (sp + 1) != 8 || strncmp(sp + 1, "HTTP/1.", 7) ||
	    (sp[8] != '1' && sp[8] != '0'))
		BAD("request line: not HTTP/1.0 or HTTP/1.1");
	if (sp[8] == '0')
		m->close = true;
	if ((ret = headers(eol + 1, buf + end, m, false, err, errlen)))
		return ret;
	return 1;
}

int zc_http_parse_response(const char *buf, size_t len, struct zc_http_msg *m, char *err,
			   size_t errlen)
{
	long end = head_end(buf, len);
	const char *eol;
	uint64_t st;
	int ret;

	if (end <= 0) {
		if (end == -E2BIG)
			snprintf(err, errlen, "no end of the response head within %d bytes",
				 ZC_HTTP_HEAD_MAX);
		return (int)end;
	}
	memset(m, 0, sizeof(*m));
	m->head_len = (size_t)end;
	m->content_length = UINT64_MAX;
	eol = memchr(buf, '\n', (size_t)end);
	/* The length first: a head that starts with its LF has no byte before it. */
	if (!eol || eol - buf < 13 || eol[-1] != '\r')
		BAD("status line: must be HTTP/1.x NNN and end with CRLF");
	if (strncmp(buf, "HTTP/1.", 7) || (buf[7] != '0' && buf[7] != '1') || buf[8] != ' ' ||
	    digits(buf + 9, buf + 12, &st) || (buf[12] != ' ' && buf[12] != '\r'))
		BAD("status line: not HTTP/1.x NNN");
	m->status = (int)st;
	if (buf[7] == '0')
		m->close = true;
	if ((ret = headers(eol + 1, buf + end, m, true, err, errlen)))
		return ret;
	if (m->content_length == UINT64_MAX)
		BAD("the response has no Content-Length");
	return 1;
}

/* At most 16 bytes of p[0..n) into out, quoted, \r \n and other controls escaped. */
static void quoted(const char *p, size_t n, char *out, size_t len)
{
	size_t k = 0;

	out[k++] = '\'';
	for (size_t i = 0; i < n && i < 16 && k + 6 < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\r' || c == '\n')
			k += (size_t)snprintf(out + k, len - k, "\\%c", c == '\r' ? 'r' : 'n');
		else if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')
			k += (size_t)snprintf(out + k, len - k, "\\x%02x", c);
		else
			out[k++] = (char)c;
	}
	snprintf(out + k, len - k, "%s'", n > 16 ? "..." : "");
}

long zc_http_diff(const char *got, size_t glen, const char *want, size_t wlen, bool partial,
		  char *what, size_t len)
{
	size_t i = 0, n = glen < wlen ? glen : wlen;
	char a[100], b[100];

	while (i < n && got[i] == want[i])
		i++;
	if (i == n && (glen == wlen || (partial && glen < wlen)))
		return -1;
	quoted(got + i, glen - i, a, sizeof(a));
	quoted(want + i, wlen - i, b, sizeof(b));
	if (i == wlen)
		snprintf(what, len, "%s past the end of what was sent", a);
	else
		snprintf(what, len, "%s where %s was sent", i < glen ? a : "the end", b);
	return (long)i;
}

int zc_sizes_file_read(const char *path, uint64_t max, uint64_t **sizes, size_t *n, char *err,
		       size_t errlen)
{
	char why[160], *text, *save = NULL, *line;
	size_t len, cap = 0, k = 0;
	uint64_t *v = NULL;
	int lineno = 0;

	*sizes = NULL;
	*n = 0;
	if (!(text = zc_read_input(path, 16 << 20, &len, why, sizeof(why)))) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -EINVAL;
	}
	/* strtok_r would skip empty lines, and with them the line numbers. */
	for (char *p = text; p && *p; p = save) {
		char *e, *hash;
		uint64_t s;

		line = p;
		save = strchr(p, '\n');
		if (save)
			*save++ = 0;
		lineno++;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		while (*line == ' ' || *line == '\t')
			line++;
		for (e = line + strlen(line); e > line && strchr(" \t\r", e[-1]); e--)
			;
		*e = 0;
		if (!*line)
			continue;
		if (zc_parse_size(line, &s) || s > max) {
			snprintf(err, errlen, "%s:%d: '%s' is not a size in 0..%llu (one size a line, "
				 "e.g. 64k)", path, lineno, line, (unsigned long long)max);
			free(v);
			free(text);
			return -EINVAL;
		}
		if (k == cap) {
			uint64_t *nv = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

			if (!nv) {
				free(v);
				free(text);
				return -ENOMEM;
			}
			v = nv;
		}
		v[k++] = s;
	}
	free(text);
	if (!k) {
		snprintf(err, errlen, "%s: no sizes (one size a line, e.g. 64k)", path);
		return -EINVAL;
	}
	*sizes = v;
	*n = k;
	return 0;
}
