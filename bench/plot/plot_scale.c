// SPDX-License-Identifier: GPL-2.0
/*
 * The scaling picture: Gbit/s and Gbit/s per core of the device under test
 * against its workers, one line per mode (and connection count), from the
 * newest results file (plots/scale.gp). zcbench plot draws it for the
 * dashboard; zcbench scale --plot DIR on its own.
 */
#include "report/scale.h"
#include "plot/plot.h"
#include "lib/proc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int zc_plot_scale(json_t *root, const char *outdir, const char *scripts, const char *caption)
{
	static struct zc_curve curves[256];
	char path[PATH_MAX], dir[PATH_MAX], titles[4096] = "", vars[16384];
	char q_in[PATH_MAX + 8], q_dir[PATH_MAX + 8], q_cap[1100], why[PATH_MAX + 200];
	static const char *const terms[][2] = { { "pngcairo", "png" }, { "svg", "svg" } };
	int n = zc_curves(&root, 1, curves, ZC_ARRAY_SIZE(curves)), nseries = 0, ret;
	size_t t = 0;
	FILE *f;

	if (zc_out_dir(outdir, why, sizeof(why))) {
		zc_err("plot: %s %s", outdir, why);
		return -ENOTDIR;
	}
	for (int i = 0; i < n; i++)
		nseries += curves[i].npts >= 2;
	if (!nseries) {
		/* No curve: no picture, and none left over from an older plot. */
		for (size_t k = 0; k < ZC_ARRAY_SIZE(terms); k++) {
			snprintf(path, sizeof(path), "%s/scale.%s", outdir, terms[k][1]);
			zc_out_remove(path);
		}
		snprintf(path, sizeof(path), "%s/scale.csv", outdir);
		zc_out_remove(path);
		return -ENODATA;
	}
	nseries = 0;
	snprintf(path, sizeof(path), "%s/scale.csv", outdir);
	if (!(f = zc_out_fopen(path))) {
		zc_err("plot: %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "# workers,gbps,gbps_min,gbps_max,gbps_per_core,efficiency; one block per curve\n");
	for (int i = 0; i < n; i++) {
		const struct zc_curve *c = &curves[i];

		/* A curve is two points at least: one is a run, not a scaling line. */
		if (c->npts < 2 || t + 160 > sizeof(titles))
			continue;
		t += snprintf(titles + t, sizeof(titles) - t, "%s%s:%s/%lldconn", nseries ? " " : "",
			      c->role, c->mode, c->connections);
		for (int k = 0; k < c->npts; k++) {
			double e = zc_curve_efficiency(c, k);

			fprintf(f, "%d,%.6g,%.6g,%.6g,%.6g,%.6g\n", c->pt[k].workers, c->pt[k].gbps,
				c->pt[k].gbps_min, c->pt[k].gbps_max, c->pt[k].gpc, e == e ? e : 0);
		}
		fprintf(f, "\n\n");
		nseries++;
	}
	fclose(f);
	if (!scripts) {
		zc_plot_scripts_dir(dir, sizeof(dir));
		scripts = dir;
	}
	zc_gp_quote(q_in, sizeof(q_in), path);
	zc_gp_quote(q_dir, sizeof(q_dir), scripts);
	zc_gp_quote(q_cap, sizeof(q_cap), caption ? caption : "");
	for (size_t k = 0; k < ZC_ARRAY_SIZE(terms); k++) {
		char out[PATH_MAX], script[PATH_MAX + 16];

		snprintf(out, sizeof(out), "%s/scale.%s", outdir, terms[k][1]);
		snprintf(script, sizeof(script), "%s/scale.gp", scripts);
		snprintf(vars, sizeof(vars), "infile=%s; term='%s'; caption=%s; "
			 "scriptdir=%s; nseries=%d; titles='%s'", q_in, terms[k][0], q_cap,
			 q_dir, nseries, titles);
		if ((ret = zc_gnuplot(script, vars, out))) {
			zc_err("plot: gnuplot %s for %s failed (%s)", script, out,
			       ret < 0 ? strerror(-ret) : "gnuplot's exit status is not 0");
			return ret;
		}
	}
	return 0;
}
