// SPDX-License-Identifier: GPL-2.0
#include "lib/zcbench.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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

static void vmsg(const char *pfx, const char *fmt, va_list ap)
{
	fprintf(stderr, "zcbench: %s", pfx);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	while (isspace((unsigned char)*end))
		end++;
	if (*end || v > UINT64_MAX / mul)
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
	if (errno || end == s || !isfinite(v))
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
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
	if (errno || end == s)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
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
