// SPDX-License-Identifier: GPL-2.0
/* Configuration text built line by line into a caller's buffer (HAProxy's,
 * nginx's): once full, it stays full and the generator says -ENOSPC. And
 * a command line's numbers (iperf3's, wrk's, h2load's). */
#include "peers/peer_int.h"

#include <stdarg.h>
#include <stdio.h>

void zc_text_add(struct zc_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->used, t->len - t->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->len - t->used)
		t->full = true;
	else
		t->used += n;
}

bool zc_text_arg(char *argv[], int *n, char **pos, size_t *left, const char *flag,
		 const char *fmt, unsigned long long v)
{
	int w = snprintf(*pos, *left, fmt, v);

	if (w < 0 || (size_t)w >= *left)
		return false;
	argv[(*n)++] = (char *)flag;
	argv[(*n)++] = *pos;
	*pos += w + 1;
	*left -= w + 1;
	return true;
}
