// SPDX-License-Identifier: GPL-2.0
/*
 * What every picture of zcbench plot needs (plot.h): gnuplot run headless on
 * a script for PNG and SVG, the CSV it reads, where the scripts are, quoting
 * for gnuplot, a run's Gbps per core and the measuring zcbench's git sha.
 * Below plot.c, which calls every picture, and the pictures' own files
 * (plot_core.c, plot_live.c, plot_scale.c, plot_sweep.c, dashboard.c).
 */
#include "results/results.h"
#include "plot/plot.h"
#include "stats/stats.h"
#include "lib/zcbench.h"
#include "lib/proc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

const char *zc_an_git_sha(json_t *root)
{
	const char *sha = zc_an_str(json_object_get(json_object_get(root, "meta"), "git"), "sha");

	return *sha ? sha : "unknown";
}

const char *zc_an_git_label(json_t *root, char *out, size_t len)
{
	json_t *git = json_object_get(json_object_get(root, "meta"), "git");

	/* A dirty tree's sha does not name what ran: say so beside it. */
	snprintf(out, len, "%s%s", zc_an_git_sha(root),
		 json_is_true(json_object_get(git, "dirty")) ? " (dirty tree)" : "");
	return out;
}

int zc_gpc_of(json_t *run, struct gpc *g)
{
	static double v[ZC_SAMPLES_MAX];
	struct zc_summary s;

	g->n = run ? zc_an_values(run, "gbps_per_core", v, ZC_SAMPLES_MAX) : 0;
	zc_summarize(v, g->n, &s);
	g->median = s.median;
	g->min = s.min;
	g->max = s.max;
	return g->n ? 0 : -ENODATA;
}

void zc_gp_quote(char *out, size_t len, const char *s)
{
	size_t o = 0;

	if (len < 3)
		return;
	out[o++] = '\'';
	for (; *s && o + 3 < len; s++) {
		if (*s == '\'')
			out[o++] = '\'';
		out[o++] = *s;
	}
	out[o++] = '\'';
	out[o] = 0;
}

int zc_gnuplot(const char *script, const char *vars, const char *out)
{
	char tmp[PATH_MAX], q_out[PATH_MAX + 8], all[16384 + PATH_MAX + 32];
	char *argv[] = { "gnuplot", "-e", all, (char *)script, NULL };
	int fd, ret;

	if (access(script, R_OK))
		return -errno;
	/* gnuplot writes a temp file beside out, renamed over it when whole:
	 * a page never shows half a picture, and out is never a device. */
	if ((ret = zc_out_may_replace(out)) || (fd = zc_out_temp(out, tmp, sizeof(tmp))) < 0)
		return ret ? ret : fd;
	close(fd);
	zc_gp_quote(q_out, sizeof(q_out), tmp);
	snprintf(all, sizeof(all), "outfile=%s; %s", q_out, vars);
	if ((ret = zc_run_argv(argv, NULL))) {
		unlink(tmp);
		return ret;
	}
	return zc_out_install(tmp, out);
}

int zc_plot_both(struct plot_ctx *c, const char *script, const char *extra,
		 const char *caption)
{
	static const char *const terms[][2] = { { "pngcairo", "png" }, { "svg", "svg" } };
	char vars[16384], q_in[PATH_MAX + 8], q_cap[1100], buf[PATH_MAX], gp[PATH_MAX];
	char q_dir[PATH_MAX + 8];
	int ret;

	snprintf(buf, sizeof(buf), "%s/%s.csv", c->outdir, script);
	zc_gp_quote(q_in, sizeof(q_in), buf);
	zc_gp_quote(q_cap, sizeof(q_cap), caption);
	zc_gp_quote(q_dir, sizeof(q_dir), c->scripts);
	for (size_t t = 0; t < ZC_ARRAY_SIZE(terms); t++) {
		snprintf(buf, sizeof(buf), "%s/%s.%s", c->outdir, script, terms[t][1]);
		snprintf(gp, sizeof(gp), "%s/%s.gp", c->scripts, script);
		snprintf(vars, sizeof(vars), "infile=%s; term='%s'; caption=%s; scriptdir=%s; %s",
			 q_in, terms[t][0], q_cap, q_dir, extra);
		ret = zc_gnuplot(gp, vars, buf);
		if (ret == 127) {
			zc_err("plot: gnuplot not found (make deps installs gnuplot-nox)");
			return ret;
		}
		if (ret) {
			zc_err("plot: gnuplot %s for %s failed (%s)", gp, buf,
			       ret < 0 ? strerror(-ret) : "gnuplot's exit status is not 0");
			return ret;
		}
	}
	return 0;
}

void zc_plot_drop(struct plot_ctx *c, const char *name)
{
	static const char *const ext[] = { "png", "svg", "csv" };

	for (size_t e = 0; e < ZC_ARRAY_SIZE(ext); e++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s.%s", c->outdir, name, ext[e]);
		zc_out_remove(path);
	}
}

const char *const zc_plot_figs[ZC_PLOT_NFIGS][2] = {
	{ "bars", "Gbps per core by data path and chunk size (latest results)" },
	{ "chunk", "Gbps per core at each chunk size, a point per data path (latest results)" },
	{ "core", "Per run: Gbps per core with every repetition, the DUT core's time, "
		  "kernel-copied bytes per payload byte, syscalls per MB (latest results)" },
	{ "ratio", "Headline ratios with their 95% intervals against 1.0, n and DUT busy beside "
		   "each (latest results)" },
	{ "sweep_pipe", "Where splice pays: each headline ratio against the pipe size, a series "
			"per program (latest results)" },
	{ "sweep_chunk", "Where splice pays: each headline ratio against the chunk size, a "
			 "series per program (latest results)" },
	{ "rr_crossover", "Request/response: where splice meets copy, each program's ratio of "
			  "transactions per core against the object size, 95% intervals "
			  "(latest results)" },
	{ "rr_latency", "Request/response: latency against percentile, a line per run and "
			"object size, from each run's merged histogram (latest results)" },
	{ "profile", "Core time per GB moved by profile bucket (latest results, profiled runs)" },
	{ "intervals", "Live intervals: Gbps per core and Gbps over each window, a panel per run, "
		       "a colour per repetition (latest results, runs with intervals)" },
	{ "before_after", "Before and after: native path against its emulated after mode" },
	{ "history", "History: Gbps per core of every results file, a line per run and host "
		     "across kernels; dotted lines: the kernel or its fingerprint changed, or "
		     "zcbench trend found a step" },
	{ "scale", "Scaling: Gbps and Gbps per core against the DUT's workers (latest results)" },
};

void zc_plot_skip(struct plot_ctx *c, const char *name, const char *why)
{
	size_t o = strlen(c->skipped);

	zc_plot_drop(c, name);
	snprintf(c->skipped + o, sizeof(c->skipped) - o, "%s: %s\n", name, why);
}

double zc_plot_ytop(double max, double *step)
{
	double want;

	*step = 0.2;
	if (!(max > 0) || !isfinite(max))
		return 1;
	/* 5% of headroom keeps a whisker's cap off the frame. */
	want = max * 1.05;
	*step = pow(10, floor(log10(want / 5)));
	if (want / *step > 20)
		*step *= 5;
	else if (want / *step > 10)
		*step *= 2;
	return ceil(want / *step) * *step;
}

void zc_plot_max(double *max, double v)
{
	if (isfinite(v) && !(*max >= v))
		*max = v;
}

void zc_plot_yvars(double max, char *out, size_t len)
{
	double step, top = zc_plot_ytop(max, &step);

	snprintf(out, len, "ytop=%.6g; ystep=%.6g", top, step);
}

FILE *zc_plot_csv(struct plot_ctx *c, const char *name)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.csv", c->outdir, name);
	f = zc_out_fopen(path);
	if (!f)
		zc_err("plot: %s: %s", path, strerror(errno));
	return f;
}

void zc_plot_scripts_dir(char *out, size_t len)
{
	char exe[PATH_MAX - 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	/* bench/zcbench -> plots/ beside bench/ */
	if (n > 0) {
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(out, len, "%s/../plots", exe);
			if (!access(out, R_OK))
				return;
			snprintf(out, len, "%s/../../plots", exe); /* build/asan/zcbench */
			if (!access(out, R_OK))
				return;
			/* make install: PREFIX/bin/zcbench, PREFIX/share/zcbench/plots */
			snprintf(out, len, "%s/../share/zcbench/plots", exe);
			if (!access(out, R_OK))
				return;
		}
	}
	snprintf(out, len, "plots");
}
