// SPDX-License-Identifier: GPL-2.0
/*
 * intervals: the live intervals of the newest file's runs (zcbench run
 * --interval, a sample's "intervals") as a time series, a panel per run:
 * the DUT's Gbit/s per core (solid) and Gbit/s at the sink (dashed) against
 * seconds into the window, a colour per repetition. Drift, throttling or a
 * noisy neighbour shows as a slope or a dip the window's total hides. A
 * panel per run keeps every line told apart (30 lines in one frame were 10
 * colours repeated). Not drawn when no run has intervals.
 */
#include "plot/plot.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Panels at most: a picture of 4 columns by 12 rows stays readable. */
#define ZC_INTERVAL_PANELS 48

int zc_plot_intervals(struct plot_ctx *c)
{
	json_t *runs = json_object_get(c->roots[c->latest], "runs"), *run, *s, *iv;
	char titles[4096] = "", reps[ZC_INTERVAL_PANELS * 4] = "", extra[4600], t[200], yvars[64];
	int npanels = 0, maxreps = 0, left = 0;
	double ymax = NAN, xmax = NAN;
	size_t i, j, k;
	FILE *f = NULL;

	json_array_foreach(runs, i, run) {
		int nrep = 0;

		json_array_foreach(json_object_get(run, "samples"), j, s)
			nrep += json_array_size(json_object_get(s, "intervals")) > 0;
		if (!nrep)
			continue;
		if (npanels == ZC_INTERVAL_PANELS) {
			left++;
			continue;
		}
		if (!f && !(f = zc_plot_csv(c, "intervals")))
			return -1;
		/* A block per run (gnuplot's index), a blank line between
		 * repetitions (gnuplot's every :::r::r). */
		if (npanels)
			fputs("\n\n", f);
		fprintf(f, "# t_s,gbps,gbps_per_core\n");
		nrep = 0;
		json_array_foreach(json_object_get(run, "samples"), j, s) {
			if (!json_array_size(json_object_get(s, "intervals")))
				continue;
			if (nrep++)
				fputs("\n", f);
			json_array_foreach(json_object_get(s, "intervals"), k, iv) {
				/* Each interval at its middle; a point without a time is none. */
				double x = zc_an_real(iv, "t_s") - zc_an_real(iv, "dur_s") / 2;

				if (!isfinite(x))
					continue;
				fprintf(f, "%.6g,%.6g,%.6g\n", x, zc_an_real(iv, "gbps"),
					zc_an_real(iv, "gbps_per_core"));
				zc_plot_max(&ymax, zc_an_real(iv, "gbps"));
				zc_plot_max(&ymax, zc_an_real(iv, "gbps_per_core"));
				zc_plot_max(&xmax, zc_an_real(iv, "t_s"));
			}
		}
		if (nrep > maxreps)
			maxreps = nrep;
		zc_an_run_id(run, t, sizeof(t));
		/* No spaces or quotes: gnuplot's word() splits the titles on them. */
		for (char *p = t; *p; p++)
			if (*p == ' ' || *p == '\'')
				*p = '_';
		zc_strcatf(titles, sizeof(titles), "%s%s", npanels ? " " : "", t);
		zc_strcatf(reps, sizeof(reps), "%s%d", npanels ? " " : "", nrep);
		npanels++;
	}
	if (!f) {
		zc_plot_skip(c, "intervals", "no run has live intervals (zcbench run --interval)");
		return 0;
	}
	fclose(f);
	if (left)
		zc_err("plot: intervals: the first %d runs drawn, %d more left out", npanels, left);
	zc_plot_yvars(ymax, yvars, sizeof(yvars));
	snprintf(extra, sizeof(extra), "npanels=%d; maxreps=%d; titles='%s'; reps='%s'; "
		 "xmax=%.6g; %s", npanels, maxreps, titles, reps, isfinite(xmax) ? xmax : 1, yvars);
	return zc_plot_both(c, "intervals", extra, c->caption);
}
