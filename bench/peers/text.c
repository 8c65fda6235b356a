// SPDX-License-Identifier: GPL-2.0
/* Configuration text built line by line into a caller's buffer (HAProxy's,
 * nginx's): once full, it stays full and the generator says -ENOSPC. */
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
