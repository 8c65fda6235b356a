// SPDX-License-Identifier: GPL-2.0
/*
 * Messages and exit codes (zcbench.h), numbers and sizes parsed strictly,
 * files read bounded and checked (regular, a size limit, UTF-8).
 */
#include "lib/zcbench.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const zc_role_names[ZC_ROLE_NR] = { "source", "proxy", "sink" };
const char *const zc_topo_names[2] = { "proxy", "direct" };
volatile sig_atomic_t zc_interrupted;

int zc_role_from_name(const char *name)
{
	for (int i = 0; i < ZC_ROLE_NR; i++)
		if (!strcmp(name, zc_role_names[i]))
			return i;
	return -1;
}

/* One line on stderr: what a file or an argument put in it (a file name, a
 * host name) escaped, so that it cannot act on the terminal. */
static void vmsg(const char *pfx, const char *fmt, va_list ap)
{
	char *msg = NULL, *esc;

	if (vasprintf(&msg, fmt, ap) < 0 || !(esc = zc_escape(msg))) {
		fprintf(stderr, "zcbench: %s(out of memory)\n", pfx);
		free(msg);
		return;
	}
	fprintf(stderr, "zcbench: %s%s\n", pfx, esc);
	free(esc);
	free(msg);
}

void zc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
}

void zc_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void zc_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error: ", fmt, ap);
	va_end(ap);
	exit(ZC_EXIT_FAIL);
}

double zc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Nothing but white space left after a number? */
static bool only_blanks(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return !*p;
}

int zc_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case 'k': mul = 1ULL << 10; end++; break;
	case 'm': mul = 1ULL << 20; end++; break;
	case 'g': mul = 1ULL << 30; end++; break;
	default: break;
	}
	if (mul > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mul > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (!only_blanks(end) || v > UINT64_MAX / mul)
		return -EINVAL;
	*out = v * mul;
	return 0;
}

int zc_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || !only_blanks(end))
		return -EINVAL;
	*out = v;
	return 0;
}

int zc_parse_long(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || !only_blanks(end))
		return -EINVAL;
	*out = v;
	return 0;
}

char *zc_read_file(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	size_t n = 0;

	if (fd < 0)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	while (n < max) {
		ssize_t r = read(fd, buf + n, max - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

int zc_read_file_trim(const char *path, char *buf, size_t len)
{
	size_t n;
	char *s = zc_read_file(path, len - 1, &n);

	if (!s)
		return -errno;
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	memcpy(buf, s, n + 1);
	free(s);
	return 0;
}

int zc_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

bool zc_pid_is_zcbench(long pid)
{
	char path[64], comm[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	return !zc_read_file_trim(path, comm, sizeof(comm)) && !strncmp(comm, "zcbench", 7);
}

const char *zc_state_dir(void)
{
	const char *dir = getenv("ZC_STATE_DIR");

	if (!dir || !*dir)
		return "/run/zcbench";
	/* The state files' paths are built in fixed buffers: a longer folder
	 * would cut them, and restore from the wrong file. */
	if (strlen(dir) > ZC_STATE_DIR_MAX) {
		zc_err("ZC_STATE_DIR: %zu characters, at most %d: %s", strlen(dir), ZC_STATE_DIR_MAX, dir);
		exit(2);
	}
	return dir;
}

void zc_fmt_size(long long v, char *out, size_t len)
{
	if (v >= (1 << 20) && v % (1 << 20) == 0)
		snprintf(out, len, "%lldM", v >> 20);
	else if (v >= 1024 && v % 1024 == 0)
		snprintf(out, len, "%lldk", v >> 10);
	else
		snprintf(out, len, "%lld", v);
}

const char *zc_file_kind(unsigned int m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link" :
	       S_ISREG(m) ? "a regular file" : "not a regular file";
}

void zc_strcatf(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

char *zc_read_input(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
	/* O_NONBLOCK: opening a FIFO for reading must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL, lim[32];
	size_t n = 0, cap;

	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return NULL;
	}
	zc_fmt_size((long long)max, lim, sizeof(lim));
	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "is a directory, not a file");
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "is %s, not a regular file", zc_file_kind(st.st_mode));
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		snprintf(why, whylen, "is larger than %s bytes, the limit for this kind of file", lim);
		goto fail;
	}
	/* Sized from fstat, grown if the file grows while read, never past
	 * max + 1 bytes (one more tells a file over the limit). */
	cap = (size_t)st.st_size < max ? (size_t)st.st_size + 1 : max + 1;
	if (cap < 4096)
		cap = max + 1 < 4096 ? max + 1 : 4096;
	buf = malloc(cap + 1);
	if (!buf) {
		snprintf(why, whylen, "%s", strerror(ENOMEM));
		goto fail;
	}
	while (n <= max) {
		ssize_t r;

		if (n == cap) {
			size_t more = cap > (max + 1) / 2 ? max + 1 : cap * 2;
			char *grown = realloc(buf, more + 1);

			if (!grown) {
				snprintf(why, whylen, "%s", strerror(ENOMEM));
				goto fail;
			}
			buf = grown;
			cap = more;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "%s", strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		n += r;
	}
	if (n > max) {
		snprintf(why, whylen, "is larger than %s bytes, the limit for this kind of file", lim);
		goto fail;
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* Length of the UTF-8 sequence at s (at most left bytes), or 0 when it is
 * not strict UTF-8 (RFC 3629: no overlong forms, no surrogates, <= U+10FFFF). */
static size_t utf8_seq(const unsigned char *s, size_t left)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;

	if (c && c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;	/* NUL, continuation byte, 0xc0/0xc1, 0xf5.. */
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

long zc_utf8_bad(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq(u + i, len - i);

		if (!n)
			return (long)i;
		i += n;
	}
	return -1;
}

void zc_utf8_why(const char *s, size_t len, long off, char *why, size_t whylen)
{
	if (off < 0 || (size_t)off >= len)
		snprintf(why, whylen, "a truncated UTF-8 sequence");
	else if (!s[off])
		snprintf(why, whylen, "a NUL byte");
	else
		snprintf(why, whylen, "byte 0x%02x that is not UTF-8 (files are UTF-8 text)",
			 (unsigned char)s[off]);
}

bool zc_key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return false;
	return !*a && !*b;
}

const void *zc_row_find(const void *const *rows, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(*(const char *const *)rows[i], name))
			return rows[i];
	return NULL;
}

void zc_row_names(const void *const *rows, size_t n, char *buf, size_t len, const char *sep)
{
	size_t k = 0;

	if (!len)
		return;
	buf[0] = 0;
	for (size_t i = 0; i < n && k < len; i++)
		k += snprintf(buf + k, len - k, "%s%s", i ? sep : "", *(const char *const *)rows[i]);
}

int zc_row_check(const void *const *rows, size_t n, const char *v, char *why, size_t len)
{
	char names[256];

	if (zc_row_find(rows, n, v))
		return 0;
	zc_row_names(rows, n, names, sizeof(names), ", ");
	snprintf(why, len, "'%s' is not one of %s", v, names);
	return -EINVAL;
}

void zc_fputs_markup(FILE *f, const char *s, bool xml)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			if (!xml || (unsigned char)*s >= 0x20)
				fputc(*s, f);
		}
	}
}

int zc_mkdir_p(const char *path, int mode)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (!mkdir(buf, mode))
		return 0;
	if (errno != EEXIST)
		return -errno;
	/* /dev/null "exists" too: what is there must be a folder (or a link to one). */
	{
		struct stat st;

		if (stat(buf, &st))
			return -errno;
		return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
	}
}

/* The length of the UTF-8 sequence at p and its code point, or 0 when the
 * bytes there are not one (overlong, a surrogate, cut, past U+10FFFF). */
static size_t utf8_at(const unsigned char *p, unsigned *cp)
{
	size_t n = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 :
		   (p[0] & 0xf8) == 0xf0 ? 4 : 0;
	static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned c;

	if (!n)
		return 0;
	c = n == 1 ? p[0] : p[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* A code point shown escaped: controls (a tab apart: it only spaces, and
 * files hold it, sysctl values for one), and those that reorder or break
 * lines. */
static bool cp_unsafe(unsigned c)
{
	return (c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == 0x200e || c == 0x200f ||
	       (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x061c;
}

/* Write s escaped into out (len bytes, cut there) when out; the length it needs. */
static size_t escape_into(const char *s, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	while (*p) {
		unsigned c = 0;
		size_t n = utf8_at(p, &c);
		char e[12];
		size_t el;

		if (n && !cp_unsafe(c)) {
			memcpy(e, p, n);
			el = n;
		} else if (!n) {
			el = (size_t)snprintf(e, sizeof(e), "\\x%02x", *p);
			n = 1;
		} else {
			el = (size_t)snprintf(e, sizeof(e), c < 0x80 ? "\\x%02x" : "\\u%04x", c);
		}
		if (out && o + el < len)
			memcpy(out + o, e, el);
		else if (out && o < len)
			len = o + 1;	/* cut: no half escape, nothing after it */
		o += el;
		p += n;
	}
	if (out && len)
		out[o < len ? o : len - 1] = 0;
	return o;
}

bool zc_needs_escape(const char *s)
{
	return escape_into(s, NULL, 0) != strlen(s);
}

char *zc_escape(const char *s)
{
	size_t n = escape_into(s, NULL, 0);
	char *out = malloc(n + 1);

	if (out)
		escape_into(s, out, n + 1);
	return out;
}

const char *zc_escape_buf(const char *s, char *buf, size_t len)
{
	escape_into(s, buf, len);
	return buf;
}
