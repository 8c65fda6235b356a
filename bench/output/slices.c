// SPDX-License-Identifier: GPL-2.0
/* The slice ratios of alternate runs under the table (slices.h). */
#include "output/slices.h"
#include "results/results.h"

void zc_print_slices_headline(FILE *f, json_t *hs)
{
	json_t *h;
	size_t i;

	if (!json_array_size(hs))
		return;
	fprintf(f, "slice ratio (modes taking turns in ABBA slices of one window; B/A of bytes per "
		   "second of DUT thread CPU + softirq + irq; median of adjacent pairs, 95%% "
		   "bootstrap interval over pairs):\n");
	json_array_foreach(hs, i, h) {
		char name[96];

		snprintf(name, sizeof(name), "%s/%s", zc_an_str(h, "b"), zc_an_str(h, "a"));
		if (!json_is_number(json_object_get(h, "ratio"))) {
			fprintf(f, "  %-22s %-24s -  %s\n", zc_an_str(h, "run"), name,
				zc_an_str(h, "why"));
			continue;
		}
		fprintf(f, "  %-22s %-24s %.3f [%.3f-%.3f]  %lld pairs, %lld sample(s), %lld "
			"slice(s) dropped\n", zc_an_str(h, "run"), name,
			json_number_value(json_object_get(h, "ratio")),
			json_number_value(json_object_get(h, "lo")),
			json_number_value(json_object_get(h, "hi")), zc_an_int(h, "pairs"),
			zc_an_int(h, "samples"), zc_an_int(h, "slices_dropped"));
	}
}
