// SPDX-License-Identifier: GPL-2.0
/*
 * Scaling curves (scale.h): the runs that differ only in the DUT's workers,
 * one point each, with their efficiency and label. Below what reads them:
 * zcbench scale (scale.c), its picture (plot_scale.c) and zcbench size.
 */
#include "report/scale.h"
#include "results/results.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double med(json_t *run, const char *metric, const char *stat)
{
	return zc_an_real(json_object_get(json_object_get(run, "summary"), metric), stat);
}

/*
 * The DUT's own Gbit/s (dut_gbps: its bytes over its window, what its
 * Gbit/s per core divides) over the ok, undisturbed samples. The run's gbps
 * is the sink's, which on a machine whose sink shares the DUT's cores can be
 * several times off the DUT's (window_agreement): a curve of the sink's rate
 * against the DUT's cores mixes two windows. Files without dut_gbps: false.
 */
static bool dut_gbps(json_t *run, struct zc_summary *s)
{
	json_t *smp, *samples = json_object_get(run, "samples");
	double v[256];
	size_t i, n = 0;

	json_array_foreach(samples, i, smp) {
		json_t *x = json_object_get(smp, "dut_gbps");

		if (strcmp(zc_an_str(smp, "status"), "ok") ||
		    json_is_true(json_object_get(smp, "disturbed")))
			continue;
		if (!json_is_number(x) || n == ZC_ARRAY_SIZE(v))
			return false;
		v[n++] = json_number_value(x);
	}
	if (!n)
		return false;
	zc_summarize(v, n, s);
	return true;
}

static bool same_curve(const struct zc_curve *c, const struct zc_curve *k)
{
	return !strcmp(c->host, k->host) && !strcmp(c->topology, k->topology) &&
	       !strcmp(c->path, k->path) && !strcmp(c->role, k->role) && c->chunk == k->chunk &&
	       c->pipe_size == k->pipe_size && c->connections == k->connections;
}

static int cmp_pt(const void *a, const void *b)
{
	return ((const struct zc_curve_pt *)a)->workers - ((const struct zc_curve_pt *)b)->workers;
}

int zc_curves(json_t *const *roots, int nroots, struct zc_curve *out, int max)
{
	int n = 0;

	for (int f = 0; f < nroots; f++) {
		json_t *runs = json_object_get(roots[f], "runs"), *run;
		const char *host = zc_an_str(json_object_get(roots[f], "host"), "name");
		size_t i;

		json_array_foreach(runs, i, run) {
			json_t *k = json_object_get(run, "key");
			struct zc_curve key = { 0 }, *c = NULL;
			struct zc_curve_pt p = { 0 };
			struct zc_summary dg;
			int at;

			if (strcmp(zc_an_str(run, "status"), "ok") && strcmp(zc_an_str(run, "status"), "partial"))
				continue;
			snprintf(key.host, sizeof(key.host), "%s", *host ? host : "?");
			snprintf(key.topology, sizeof(key.topology), "%s", zc_an_str(k, "topology"));
			snprintf(key.role, sizeof(key.role), "%s", zc_an_dut_role(run));
			snprintf(key.mode, sizeof(key.mode), "%s", zc_an_dut_mode(run));
			snprintf(key.path, sizeof(key.path), "%s>%s%s%s", zc_an_str(k, "source"),
				 zc_an_str(k, "proxy"), *zc_an_str(k, "proxy") ? ">" : "",
				 zc_an_str(k, "sink"));
			for (int r = 0; r < ZC_ROLE_NR; r++)
				snprintf(key.modes[r], sizeof(key.modes[r]), "%s",
					 zc_an_str(k, zc_role_names[r]));
			key.chunk = zc_an_int(k, "chunk");
			key.pipe_size = zc_an_int(k, "pipe_size");
			key.connections = zc_an_int(k, "connections") ?: 1;
			p.workers = (int)(zc_an_int(k, "workers") ?: 1);
			if (dut_gbps(run, &dg)) {
				p.gbps = dg.median;
				p.gbps_min = dg.min;
				p.gbps_max = dg.max;
			} else {
				p.gbps = med(run, "gbps", "median");
				p.gbps_min = med(run, "gbps", "min");
				p.gbps_max = med(run, "gbps", "max");
			}
			p.cores = med(run, "dut_busy_cores", "median");
			p.gpc = med(run, "gbps_per_core", "median");
			p.gpc_min = med(run, "gbps_per_core", "min");
			p.gpc_max = med(run, "gbps_per_core", "max");
			/* A count from the file: NaN (absent) or out of range is 0,
			 * never a float-to-integer conversion that is undefined (fuzzed). */
			p.n = med(run, "gbps", "n") >= 0 && med(run, "gbps", "n") < 1e9
			      ? (size_t)med(run, "gbps", "n") : 0;
			p.shared = json_is_false(json_object_get(json_object_get(run, "placement"),
								 "dut_alone"));
			/* More workers than connections: the extra ones idled, the run
			 * is the fewer-workers point again, not a point of the curve. */
			if (!isfinite(p.gbps) || !isfinite(p.gpc) || !(p.gpc > 0) ||
			    p.workers > key.connections)
				continue;
			for (int j = 0; j < n && !c; j++)
				if (same_curve(&out[j], &key))
					c = &out[j];
			if (!c) {
				if (n == max)
					continue;
				c = &out[n++];
				*c = key;
			}
			/* A later file's run of the same point replaces the earlier one. */
			for (at = 0; at < c->npts && c->pt[at].workers != p.workers; at++)
				;
			if (at == ZC_CURVE_PTS)
				continue;
			c->pt[at] = p;
			if (at == c->npts)
				c->npts++;
		}
	}
	for (int j = 0; j < n; j++)
		qsort(out[j].pt, out[j].npts, sizeof(out[j].pt[0]), cmp_pt);
	return n;
}

double zc_curve_efficiency(const struct zc_curve *c, int i)
{
	if (!c->npts || c->pt[0].workers != 1 || !(c->pt[0].gbps > 0))
		return NAN;
	return c->pt[i].gbps / (c->pt[i].workers * c->pt[0].gbps);
}

void zc_curve_label(const struct zc_curve *c, char *buf, size_t len, bool with_key)
{
	char chunk[24], pipe[24];

	zc_an_fmt_size(c->chunk, chunk, sizeof(chunk));
	zc_fmt_size(c->pipe_size, pipe, sizeof(pipe));
	if (!with_key) {
		snprintf(buf, len, "%s %s, %lld conn, %s/%s, %s", c->role, c->mode, c->connections,
			 chunk, pipe, c->host);
		return;
	}
	snprintf(buf, len, "%s %s on %s (%s, chunk %s, pipe %s), %lld connection%s", c->role,
		 c->mode, c->host, c->path, chunk, pipe, c->connections, c->connections == 1 ? "" : "s");
}
