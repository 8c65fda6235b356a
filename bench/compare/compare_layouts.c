// SPDX-License-Identifier: GPL-2.0
/* compare's list of layouts (compare.h), its lookups and compare --help's
 * text about them; above the layouts (layout_*.c) and their helpers
 * (compare_fmt.c). */
#include "compare/compare_int.h"
#include "lib/zcbench.h"

#include <stdio.h>

#define ZC_LAYOUT_PTR(id) &zc_layout_##id,
const struct zc_compare_layout *const zc_compare_layouts[] = { ZC_COMPARE_LAYOUTS(ZC_LAYOUT_PTR) };
const size_t zc_ncompare_layouts = ZC_ARRAY_SIZE(zc_compare_layouts);

/* name: the struct's first member (zc_row_find). */
const struct zc_compare_layout *zc_compare_layout_find(const char *name)
{
	return zc_row_find((const void *const *)zc_compare_layouts, zc_ncompare_layouts, name);
}

void zc_compare_layout_names(char *buf, size_t len, const char *sep)
{
	zc_row_names((const void *const *)zc_compare_layouts, zc_ncompare_layouts, buf, len, sep);
}

void zc_cmp_about(char *buf, size_t len)
{
	int n = snprintf(buf, len,
			 "Runs are matched by their whole key (topology, modes, chunk, pipe size,\n"
			 "connections, object size, options). Every change has its 95%% interval (t on\n"
			 "the logs) and an answer at +-T: changed, unchanged, can't tell. Shown: the\n"
			 "gated figures (Gbit/s per core; request/response: transactions per core and\n"
			 "p99) and the headline ratios; --all every metric; files with the same\n"
			 "measurements are said to be so in one line.\n"
			 "Exit: 0 ok (the gate: every gated figure within T or better), 1 a regression\n"
			 "past the gate (or a run with no ok sample in NEW), 3 the gate can't tell (an\n"
			 "interval spans T; --pass-cant-tell: 0), 2 bad usage or unreadable file.\n"
			 "Layouts:\n");

	/* The layouts and their help come from the one list (compare.h). */
	for (size_t l = 0; l < zc_ncompare_layouts && n > 0 && (size_t)n < len; l++)
		n += snprintf(buf + n, len - n, "  %-9s %s\n", zc_compare_layouts[l]->name,
			      zc_compare_layouts[l]->help);
}
