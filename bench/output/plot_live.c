// SPDX-License-Identifier: GPL-2.0
/*
 * intervals: the live intervals of the newest file's runs (zcbench run
 * --interval, a sample's "intervals") as a time series per run: Gbit/s at
 * the sink and the DUT's Gbit/s per core against seconds into the window,
 * a line per repetition in the run's style. Drift, throttling or a noisy
 * neighbour shows as a slope or a dip the window's total hides. Not drawn
 * when no run has intervals.
 */
#include "output/plot.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int zc_plot_intervals(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run, *s, *iv;
	char titles[4096] = "", extra[4300], t[4200];
	int nseries = 0;
	size_t i, j, k;
	FILE *f = NULL;

	json_array_foreach(runs, i, run) {
		bool any = false;

		json_array_foreach(json_object_get(run, "samples"), j, s)
			any |= json_array_size(json_object_get(s, "intervals")) > 0;
		if (!any || nseries == MAX_SERIES)
			continue;
		if (!f && !(f = zc_plot_csv(c, "intervals")))
			return -1;
		/* A block per run (gnuplot's index), a blank line between repetitions. */
		if (nseries)
			fputs("\n\n", f);
		json_array_foreach(json_object_get(run, "samples"), j, s) {
			json_array_foreach(json_object_get(s, "intervals"), k, iv) {
				/* Each interval at its middle; a point without a time is none. */
				double x = num(iv, "t_s") - num(iv, "dur_s") / 2;

				if (isfinite(x))
					fprintf(f, "%.6g,%.6g,%.6g\n", x, num(iv, "gbps"),
						num(iv, "gbps_per_core"));
			}
			fputs("\n", f);
		}
		zc_an_run_id(run, t, sizeof(t));
		/* No spaces or quotes: gnuplot's word() splits the titles on them. */
		for (char *p = t; *p; p++)
			if (*p == ' ' || *p == '\'')
				*p = '_';
		if (strlen(titles) + strlen(t) + 2 < sizeof(titles))
			snprintf(titles + strlen(titles), sizeof(titles) - strlen(titles), "%s%s",
				 nseries ? " " : "", t);
		nseries++;
	}
	if (!f) {
		/* A picture of an older plot into the same folder must not stay on the page. */
		for (size_t e = 0; e < 3; e++) {
			snprintf(t, sizeof(t), "%s/intervals.%s", c->outdir, (const char *[]){ "png", "svg", "csv" }[e]);
			zc_out_remove(t);
		}
		return 0;
	}
	fclose(f);
	snprintf(extra, sizeof(extra), "nseries=%d; titles='%s'", nseries, titles);
	return zc_plot_both(c, "intervals", extra, c->caption);
}
