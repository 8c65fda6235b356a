// SPDX-License-Identifier: GPL-2.0
/* What the HTTP peers share: the URL of an object, and the numbers with
 * units that wrk and h2load print. */
#include "peers/peer_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int zc_peer_http_url(const char *addr, int port, uint64_t object_size, char *out, size_t len)
{
	int n;

	if (!addr || !*addr || port < 1 || port > 65535)
		return -EINVAL;
	n = snprintf(out, len, strchr(addr, ':') ? "http://[%s]:%d/%llu" : "http://%s:%d/%llu", addr,
		     port, (unsigned long long)object_size);
	return n < 0 || (size_t)n >= len ? -ENOSPC : 0;
}

/* The number at s and the unit after it, scaled by the table: 0 or -EINVAL. */
static int parse_unit(const char *s, const char *const *unit, const double *scale, size_t n,
		      double *v, const char **end)
{
	char *e;
	double x;

	while (*s == ' ')
		s++;
	x = strtod(s, &e);
	if (e == s)
		return -EINVAL;
	/* The longest unit that matches: "ms" before "m", "us" before "s". */
	for (size_t best = n, blen = 0, i = 0;; i++) {
		if (i == n) {
			if (best == n)
				return -EINVAL;
			*v = x * scale[best];
			if (end)
				*end = e + blen;
			return 0;
		}
		size_t l = strlen(unit[i]);

		if (l > blen && !strncasecmp(e, unit[i], l)) {
			best = i;
			blen = l;
		}
	}
}

int zc_peer_parse_bytes(const char *s, double *bytes, const char **end)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	static const double scale[] = { 1, 1024.0, 1048576.0, 1073741824.0, 1099511627776.0,
					1125899906842624.0 };

	return parse_unit(s, unit, scale, 6, bytes, end);
}

int zc_peer_parse_time_us(const char *s, double *us, const char **end)
{
	static const char *const unit[] = { "us", "ms", "s", "m", "h" };
	static const double scale[] = { 1, 1e3, 1e6, 60e6, 3600e6 };

	return parse_unit(s, unit, scale, 5, us, end);
}
