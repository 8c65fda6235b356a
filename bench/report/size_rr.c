// SPDX-License-Identifier: GPL-2.0
/*
 * zcbench size --target 100k/s@64k: request/response sizing (issue 23).
 * Cores of the device under test to carry a rate of requests per second at
 * one object size, per rr run of that object size in the files: cores =
 * target / tps_per_core (the median of the run's ok samples), the interval
 * from the samples' greatest and least tps_per_core. One measured point per
 * run (an rr run has one workers value), so nothing is interpolated: a
 * target far above the run's own tps assumes its per-core rate holds.
 */
#include "report/scale.h"
#include "lib/term.h"
#include "results/results.h"
#include "lib/zcbench.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define RPS_MAX 1e12
#define SIZE_MAX_RR (1ULL << 40)

int zc_parse_rr_target(const char *s, double *rps, long long *size)
{
	static const struct { const char *unit; double scale; } units[] = {
		{ "/s", 1 }, { "k/s", 1e3 }, { "m/s", 1e6 }, { "g/s", 1e9 },
	};
	const char *at = strchr(s, '@');
	char rate[64];
	uint64_t sz;
	char *end;
	double v;

	if (!at || at - s >= (long)sizeof(rate) || zc_parse_size(at + 1, &sz) || !sz ||
	    sz > SIZE_MAX_RR)
		return -EINVAL;
	memcpy(rate, s, at - s);
	rate[at - s] = 0;
	v = strtod(rate, &end);
	if (end == rate || !isfinite(v) || v <= 0)
		return -EINVAL;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(units); i++)
		if (!strcasecmp(end, units[i].unit)) {
			*rps = v * units[i].scale;
			*size = (long long)sz;
			return *rps <= RPS_MAX ? 0 : -ERANGE;
		}
	return -EINVAL;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, least and greatest tps_per_core of a run's ok samples: how many. */
static size_t tpc_of(json_t *run, double *med, double *lo, double *hi)
{
	double v[256];
	size_t n = 0, i;
	json_t *s;

	json_array_foreach(json_object_get(run, "samples"), i, s) {
		json_t *t = json_object_get(s, "tps_per_core");

		if (strcmp(zc_an_str(s, "status"), "ok") || !json_is_number(t) || n == 256 ||
		    json_number_value(t) <= 0)
			continue;
		v[n++] = json_number_value(t);
	}
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_d);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*lo = v[0];
	*hi = v[n - 1];
	return n;
}

json_t *zc_sizing_rr_json(json_t *const *roots, int nroots, double rps, long long size)
{
	json_t *a = json_array(), *run;
	size_t i;

	for (int f = 0; f < nroots; f++)
		json_array_foreach(json_object_get(roots[f], "runs"), i, run) {
			json_t *k = json_object_get(run, "key");
			double med, lo, hi;
			size_t n;

			if (strcmp(zc_an_str(k, "traffic"), "rr") || zc_an_int(k, "object_size") != size ||
			    !(n = tpc_of(run, &med, &lo, &hi)))
				continue;
			json_array_append_new(a, json_pack("{s:s,s:s,s:b,s:I,s:I,s:f,s:f,s:f,s:f,s:f,s:f,s:I}",
				"run", zc_an_str(run, "name"), "host", zc_an_hostname(roots[f]),
				"churn", json_is_true(json_object_get(k, "churn")),
				"pipe_pool", (json_int_t)zc_an_int(k, "pipe_pool"),
				"connections", (json_int_t)zc_an_int(k, "connections"),
				"target_rps", rps, "tps_per_core", med, "cores", rps / med,
				"low", rps / hi, "high", rps / lo, "object_size", (double)size,
				"samples", (json_int_t)n));
		}
	return a;
}

/* The labels' column as wide as the longest label, cut to what the
 * terminal leaves beside the figures (15 + 25 characters). */
void zc_print_sizing_rr(FILE *f, json_t *a, double rps, long long size)
{
	int width = zc_term_width(fileno(f)), lw = 10, room = width - 2 - 15 - 25;
	json_t *r;
	size_t i;
	char sz[24], head[300];

	json_array_foreach(a, i, r) {
		int w = zc_text_cols(zc_an_str(r, "run")) + zc_text_cols(zc_an_str(r, "host")) + 3;

		lw = w > lw ? w : lw;
	}
	lw = lw < room ? lw : room < 10 ? 10 : room;
	zc_fmt_size(size, sz, sizeof(sz));
	snprintf(head, sizeof(head), "sizing (request/response): cores of the device under test "
		 "for %g requests/s of %s objects (busy cores = target / tps_per_core; [range over "
		 "repetitions])", rps, sz);
	zc_put_fitted(f, head, width, 2);
	fputc('\n', f);
	fputs("  ", f);
	zc_put_cell(f, "run (host)", lw, 0);
	fprintf(f, " %14s %24s\n", "tps/core", "cores");
	json_array_foreach(a, i, r) {
		char lab[160], c[64];

		snprintf(lab, sizeof(lab), "%s (%s)", zc_an_str(r, "run"), zc_an_str(r, "host"));
		snprintf(c, sizeof(c), "%.2f [%.2f, %.2f]",
			 json_real_value(json_object_get(r, "cores")),
			 json_real_value(json_object_get(r, "low")),
			 json_real_value(json_object_get(r, "high")));
		fputs("  ", f);
		zc_put_cell(f, lab, lw, 0);
		fprintf(f, " %14.0f %24s\n", json_real_value(json_object_get(r, "tps_per_core")), c);
	}
	fprintf(f, "\n");
}
