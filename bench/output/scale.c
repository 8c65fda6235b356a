// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench scale FILE...: per mode, Gbit/s and Gbit/s per core against the
 * DUT's workers (one core each), and the scaling efficiency
 * Gbps(M) / (M x Gbps(1)): 1.00 is linear; below it, per-core and
 * per-connection costs that one bulk stream on one core never shows (epoll,
 * wake-ups, softirq placement, cache and lock sharing) take their share.
 */
#include "output/scale.h"
#include "results/results.h"
#include "lib/opt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double med(json_t *run, const char *metric, const char *stat)
{
	json_t *v = json_object_get(json_object_get(json_object_get(run, "summary"), metric), stat);

	return json_is_number(v) ? json_number_value(v) : NAN;
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
			double nok;
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
			p.gbps = med(run, "gbps", "median");
			p.gbps_min = med(run, "gbps", "min");
			p.gbps_max = med(run, "gbps", "max");
			p.cores = med(run, "dut_busy_cores", "median");
			p.gpc = med(run, "gbps_per_core", "median");
			p.gpc_min = med(run, "gbps_per_core", "min");
			p.gpc_max = med(run, "gbps_per_core", "max");
			/* A count only when the file holds one: (size_t)NaN is undefined. */
			nok = med(run, "gbps", "n");
			p.n = nok >= 0 && nok <= ZC_SAMPLES_MAX ? (size_t)nok : 0;
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

	zc_fmt_size(c->chunk, chunk, sizeof(chunk));
	zc_fmt_size(c->pipe_size, pipe, sizeof(pipe));
	if (!with_key) {
		snprintf(buf, len, "%s %s, %lld conn, %s, %s", c->role, c->mode, c->connections,
			 chunk, c->host);
		return;
	}
	snprintf(buf, len, "%s %s on %s (%s, chunk %s, pipe %s), %lld connection%s", c->role,
		 c->mode, c->host, c->path, chunk, pipe, c->connections, c->connections == 1 ? "" : "s");
}

static void print_curve(FILE *f, const struct zc_curve *c)
{
	char label[300];

	zc_curve_label(c, label, sizeof(label), true);
	fprintf(f, "\n%s\n", label);
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
	const struct zc_optgroup g = { .opts = scale_opts, .n = ZC_ARRAY_SIZE(scale_opts), .base = &a };
	const struct zc_cmdline cmd = {
		.name = "scale", .groups = &g, .ngroups = 1,
		.about = "Per mode: Gbit/s and Gbit/s per core of the device under test against its\n"
			 "workers (one core each), and the scaling efficiency Gbps(M) / (M x Gbps(1)).\n"
			 "Runs that differ only in `workers` form one curve (workloads/scale.ini).\n"
			 "\"DUT cores\" is the measured busy cores of the DUT's CPUs. Runs with more\n"
			 "workers than connections (the extra workers idle) are left out.\n",
	};
	json_t *roots[256];
	int rc = zc_opt_main(&cmd, argc, argv), n, shown = 0;
	bool shared = false;

	if (rc >= 0)
		return rc;
	for (int i = 0; i < a.npaths; i++)
		if (!(roots[i] = zc_an_load("scale", a.paths[i]))) {
			for (int j = 0; j < i; j++)
				json_decref(roots[j]);
			return ZC_EXIT_USAGE;
		}
	n = zc_curves(roots, a.npaths, curves, ZC_ARRAY_SIZE(curves));
	printf("scaling: Gbit/s of the device under test against its workers (medians of the "
	       "repetitions)\n");
	for (int i = 0; i < n; i++)
		if (curves[i].npts) {
			print_curve(stdout, &curves[i]);
			shown++;
			for (int k = 0; k < curves[i].npts; k++)
				shared |= curves[i].pt[k].shared;
		}
	if (!shown)
		printf("\nno runs in these files (workloads/scale.ini sweeps workers and connections)\n");
	else if (shared)
		printf("\n! the DUT shared its cores with the source or sink (not enough cores): its busy "
		       "cores include their work\n");
	if (a.plot && (rc = zc_plot_scale(roots[a.npaths - 1], a.plot, NULL, a.paths[a.npaths - 1])))
		rc = ZC_EXIT_FAIL;
	else
		rc = 0;
	for (int i = 0; i < a.npaths; i++)
		json_decref(roots[i]);
	return rc;
}
