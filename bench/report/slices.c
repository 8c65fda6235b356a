// SPDX-License-Identifier: GPL-2.0
/* The slice ratios of alternate runs under the table (slices.h). */
#include "report/slices.h"
#include "results/results.h"

#include <string.h>

void zc_print_slices_headline(FILE *f, json_t *hs)
{
	json_t *h;
	size_t i, wrun = 3;

	if (!json_array_size(hs))
		return;
	json_array_foreach(hs, i, h) {
		size_t n = strlen(zc_an_str(h, "run"));

		wrun = n > wrun ? n : wrun;
	}
	fprintf(f, "slice ratio (modes taking turns in ABBA slices of one window; B/A of bytes per "
		   "second of DUT CPU (max of thread CPU and busy); median of adjacent pairs, 95%% "
		   "bootstrap interval over pairs, its half-width in %% of the ratio):\n");
	fprintf(f, "  %-*s %-20s %5s %5s  %s\n", (int)wrun, "run", "ratio", "chunk", "pipe",
		"B/A [interval] half-width");
	json_array_foreach(hs, i, h) {
		char name[96], chunk[24] = "-", pipe[24] = "-";

		snprintf(name, sizeof(name), "%s/%s", zc_an_str(h, "b"), zc_an_str(h, "a"));
		if (json_object_get(h, "chunk"))	/* absent before schema 1.5 */
			zc_fmt_size(zc_an_int(h, "chunk"), chunk, sizeof(chunk));
		if (json_object_get(h, "pipe_size"))
			zc_fmt_size(zc_an_int(h, "pipe_size"), pipe, sizeof(pipe));
		fprintf(f, "  %-*s %-20s %5s %5s  ", (int)wrun, zc_an_str(h, "run"), name, chunk, pipe);
		if (!json_is_number(json_object_get(h, "ratio"))) {
			fprintf(f, "-  %s\n", zc_an_str(h, "why"));
			continue;
		}
		if (!json_is_number(json_object_get(h, "lo"))) {
			fprintf(f, "%.3f  %s\n", json_number_value(json_object_get(h, "ratio")),
				zc_an_str(h, "why"));
			continue;
		}
		fprintf(f, "%.3f [%.3f-%.3f] +-%.1f%%  %lld pairs, %lld sample(s), %lld dropped\n",
			json_number_value(json_object_get(h, "ratio")),
			json_number_value(json_object_get(h, "lo")),
			json_number_value(json_object_get(h, "hi")), json_number_value(json_object_get(h, "half_width_pct")),
			zc_an_int(h, "pairs"), zc_an_int(h, "samples"), zc_an_int(h, "slices_dropped"));
	}
}
