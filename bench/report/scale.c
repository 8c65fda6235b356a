// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench scale FILE...: per mode, Gbit/s and Gbit/s per core against the
 * DUT's workers (one core each), and the scaling efficiency
 * Gbps(M) / (M x Gbps(1)): 1.00 is linear; below it, per-core and
 * per-connection costs that one bulk stream on one core never shows (epoll,
 * wake-ups, softirq placement, cache and lock sharing) take their share.
 */
#include "report/scale.h"
#include "results/results.h"
#include "lib/opt.h"
#include "lib/outpath.h"
#include "stats/stats.h"
#include "lib/term.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The table is 74 characters wide: it fits 80 columns; the curve's label
 * above it wraps to the terminal's width. */
static void print_curve(FILE *f, const struct zc_curve *c, int width)
{
	char label[300];

	zc_curve_label(c, label, sizeof(label), true);
	fputc('\n', f);
	zc_put_fitted(f, label, width, 2);
	fprintf(f, "  %7s %10s %22s %19s %10s\n", "workers", "DUT cores", "Gbps [min-max]",
		"Gbps/core [min-max]", "efficiency");
	for (int i = 0; i < c->npts; i++) {
		const struct zc_curve_pt *p = &c->pt[i];
		double e = zc_curve_efficiency(c, i);
		char g[40], q[40], eff[16] = "-";

		snprintf(g, sizeof(g), "%.2f [%.2f-%.2f]", p->gbps, p->gbps_min, p->gbps_max);
		snprintf(q, sizeof(q), "%.2f [%.2f-%.2f]", p->gpc, p->gpc_min, p->gpc_max);
		if (isfinite(e))
			snprintf(eff, sizeof(eff), "%.2f", e);
		fprintf(f, "  %7d %9.2f%s %22s %19s %10s\n", p->workers, p->cores,
			p->shared ? "!" : " ", g, q, eff);
	}
}

struct scale_args {
	const char *paths[256];
	int npaths;
	const char *plot;
};

#define AT(field) ZC_OPT_AT(struct scale_args, field)
static const struct zc_opt scale_opts[] = {
	{ "plot", ZC_OPT_TEXT, NULL, AT(plot), .meta = "DIR",
	  .help = "also draw scale.{png,svg} (gnuplot, one line per mode) into DIR" },
	{ "FILE.json", ZC_OPT_TEXTS, NULL, 1, 0, AT(paths), ZC_OPT_POS,
	  .count_off = offsetof(struct scale_args, npaths), .help = "results files" },
};

int zc_cmd_scale(int argc, char **argv)
{
	static struct zc_curve curves[256];
	struct scale_args a = { 0 };
	const struct zc_optgroup g = ZC_OPT_GROUP1(scale_opts, &a);
	const struct zc_cmdline cmd = {
		.name = "scale", .groups = &g, .ngroups = 1,
		.about = "Per mode: Gbit/s and Gbit/s per core of the device under test against its\n"
			 "workers (one core each), and the scaling efficiency Gbps(M) / (M x Gbps(1)).\n"
			 "Runs that differ only in `workers` form one curve (workloads/scale.ini).\n"
			 "\"DUT cores\" is the measured busy cores of the DUT's CPUs. Runs with more\n"
			 "workers than connections (the extra workers idle) are left out.\n",
	};
	json_t *roots[256];
	char why[4300];
	int rc = zc_opt_main(&cmd, argc, argv), n, shown = 0, width = zc_term_width(1);
	bool shared = false;

	if (rc >= 0)
		return rc;
	/* The picture's folder is checked before anything is read (exit 2). */
	if (a.plot && zc_out_dir(a.plot, why, sizeof(why))) {
		zc_err("scale: --plot %s %s", a.plot, why);
		return ZC_EXIT_USAGE;
	}
	for (int i = 0; i < a.npaths; i++)
		if (!(roots[i] = zc_an_load("scale", a.paths[i]))) {
			for (int j = 0; j < i; j++)
				json_decref(roots[j]);
			return ZC_EXIT_USAGE;
		}
	n = zc_curves(roots, a.npaths, curves, ZC_ARRAY_SIZE(curves));
	zc_put_fitted(stdout, "scaling: Gbit/s of the device under test (its own bytes over its "
		      "window) against its workers (medians of the repetitions)", width, 2);
	for (int i = 0; i < n; i++)
		if (curves[i].npts) {
			print_curve(stdout, &curves[i], width);
			shown++;
			for (int k = 0; k < curves[i].npts; k++)
				shared |= curves[i].pt[k].shared;
		}
	if (!shown)
		zc_put_fitted(stdout, "\nno runs in these files (workloads/scale.ini sweeps workers "
			      "and connections)", width, 2);
	else if (shared)
		zc_put_fitted(stdout, "\n! the DUT shared its cores with the source or sink (not "
			      "enough cores): its busy cores include their work", width, 2);
	rc = a.plot ? zc_plot_scale(roots[a.npaths - 1], a.plot, NULL, a.paths[a.npaths - 1]) : 0;
	if (rc == -ENODATA)
		printf("\nno picture in %s: no curve of two worker counts or more\n", a.plot);
	rc = rc && rc != -ENODATA ? ZC_EXIT_FAIL : 0;
	for (int i = 0; i < a.npaths; i++)
		json_decref(roots[i]);
	return rc;
}
