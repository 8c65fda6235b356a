// SPDX-License-Identifier: GPL-2.0
/* The user-space buffer that emulated copy modes copy through (mode_shared.h). */
#include "modes/mode_shared.h"

#include <errno.h>
#include <stdlib.h>

int zc_bounce_alloc(struct zc_bounce *b, size_t len)
{
	free(b->buf);
	b->buf = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!b->buf)
		return -ENOMEM;
	/* Touched before t0, like every buffer of a timed loop. */
	for (size_t i = 0; i < len; i += 4096)
		b->buf[i] = 0;
	b->len = len;
	b->head = b->tail = 0;
	return 0;
}

void zc_bounce_free(struct zc_bounce *b)
{
	if (!b)
		return;
	free(b->buf);
	b->buf = NULL;
	b->len = 0;
}
